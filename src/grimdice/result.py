"""The common output of every rule system: named stage distributions and extras.

The JSON form is a contract shared by all systems::

    {"system": "wh40k", "method": "exact" | "simulated",
     "damage": {"mean": float, "pmf": [p0, p1, ...]},
     "models_destroyed": {...}, "hits": {...}, "wounds": {...}, ...}

``pmf`` is indexed by count from 0. Systems may add further keys (e.g. ``"hazardous"``),
per-target sub-results under ``"targets"``, and ``"notes"``: a list of sentences a user must read
(e.g. which unverified rule reading the result used).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grimdice.dice.dist import Dist

REQUIRED_STAGES = ("damage", "models_destroyed")


def empirical(samples: np.ndarray) -> Dist:
    """The empirical distribution of non-negative integer samples."""
    samples = np.asarray(samples, dtype=np.int64)
    if samples.size == 0:
        raise ValueError("no samples")
    if samples.min() < 0:
        raise ValueError("samples must be non-negative counts")
    counts = np.bincount(samples)
    return Dist(counts / samples.size)


def stage_json(d: Dist) -> dict[str, Any]:
    """``{"mean": ..., "pmf": [...]}`` for a count distribution."""
    return {"mean": d.mean(), "pmf": d.pmf_from_zero()}


@dataclass
class Result:
    """Distributions of each stage of an attack, in the order the stages happen."""

    system: str
    method: str
    stages: dict[str, Dist]
    extra: dict[str, Any] = field(default_factory=dict)
    targets: dict[str, Result] = field(default_factory=dict)
    trials: int | None = None
    seed: int | None = None
    title: str = ""
    notes: list[str] = field(default_factory=list)  # e.g. unverified rule readings this result used

    def __post_init__(self) -> None:
        if self.method not in ("exact", "simulated"):
            raise ValueError("method must be 'exact' or 'simulated'")
        missing = [s for s in REQUIRED_STAGES if s not in self.stages]
        if missing:
            raise ValueError(f"result lacks stages {missing}")

    def __getitem__(self, stage: str) -> Dist:
        return self.stages[stage]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"system": self.system, "method": self.method}
        if self.title:
            out["title"] = self.title
        if self.method == "simulated":
            out["trials"] = self.trials
            out["seed"] = self.seed
        for name, d in self.stages.items():
            out[name] = stage_json(d)
        out.update(self.extra)
        if self.notes:
            out["notes"] = list(dict.fromkeys(self.notes))
        if self.targets:
            out["targets"] = {k: v.to_json() for k, v in self.targets.items()}
        return out
