"""Run options of a calculation, validated once for the CLI, the Python API and the web API.

``simulate=None`` asks for the exact engine; ``simulate=N`` for N seeded Monte Carlo trials.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.errors import ScenarioError

if TYPE_CHECKING:
    from grimdice.engine.montecarlo import Tally

MAX_TRIALS = 10_000_000
MAX_SEED = 2**63 - 1
MAX_WORKERS = 256

Progress = Callable[[int, int], None]


def _whole(value: object, name: str, lo: int, hi: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ScenarioError(name, f"{what} must be a whole number from {lo} to {hi}, got {value!r:.40}")
    if not lo <= int(value) <= hi:
        raise ScenarioError(name, f"{what} must be from {lo} to {hi}, got {int(value)}")
    return int(value)


@dataclass(frozen=True)
class RunOptions:
    """How to run a calculation: exactly, or by ``simulate`` trials seeded by ``seed``."""

    simulate: int | None = None
    seed: int | None = None
    workers: int | None = None  # Monte Carlo worker processes (None: all cores for large runs)
    progress: Progress | None = None  # Monte Carlo progress callback ``(done, total)``
    scheduler: str | None = None  # a Dask scheduler address: run Monte Carlo blocks on that cluster

    def __post_init__(self) -> None:
        if self.simulate is not None:
            object.__setattr__(
                self, "simulate", _whole(self.simulate, "simulate", 1, MAX_TRIALS, "the number of trials")
            )
        if self.seed is not None:
            if self.simulate is None:
                raise ScenarioError("seed", "a seed only applies with simulate=N (Monte Carlo)")
            object.__setattr__(self, "seed", _whole(self.seed, "seed", 0, MAX_SEED, "the seed"))
        if self.workers is not None:
            object.__setattr__(self, "workers", _whole(self.workers, "workers", 1, MAX_WORKERS, "workers"))
        if self.scheduler is not None:
            if not isinstance(self.scheduler, str) or not 1 <= len(self.scheduler) <= 200:
                raise ScenarioError("scheduler", "a Dask scheduler address such as tcp://127.0.0.1:8786")
            if self.simulate is None:
                raise ScenarioError("scheduler", "a scheduler only applies with simulate=N (Monte Carlo)")
        if self.progress is not None and not callable(self.progress):
            raise ScenarioError("progress", "progress must be a function (done, total)")

    @property
    def exact(self) -> bool:
        return self.simulate is None

    @property
    def method(self) -> str:
        return "exact" if self.exact else "simulated"

    def run(self, trial: Callable[..., Any]) -> Tally:
        """Run ``options.simulate`` trials of ``trial(sampler, size)`` with these options (seed,
        local workers or Dask scheduler, progress): every system's Monte Carlo goes through here.
        The process's malloc settings are left alone (see :mod:`grimdice.engine.heap`)."""
        from grimdice.engine.montecarlo import run_trials

        if self.simulate is None:
            raise ValueError("run() needs simulate=N")
        return run_trials(
            trial,
            self.simulate,
            self.seed,
            workers=self.workers,
            progress=self.progress,
            scheduler=self.scheduler,
        )


EXACT = RunOptions()

__all__ = ["EXACT", "MAX_SEED", "MAX_TRIALS", "RunOptions"]
