"""Fair timing for every benchmark: the same runs and the same statistic for grimdice and peers.

A :class:`Case` names a heavy computation, grimdice's way of doing it, and the peers that can
express it (each written in the best formulation we know for that peer). :func:`measure` warms
each callable once outside the timed region (imports, caches of the peer's own making are
outside too), then times ``runs`` calls and reports the median. :func:`run_cases` prints one row
per case and peer with the ratio peer / grimdice, after checking that both give the same answer.
"""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class Case:
    name: str
    ours: Callable[[], Any]
    peers: dict[str, Callable[[], Any]] = field(default_factory=dict)
    #: (ours' answer, a peer's answer) -> True when they agree; None: no check
    agree: Callable[[Any, Any], bool] | None = None
    target_ms: float | None = None
    #: at most this many timed runs (slow cases), whatever ``--runs`` says
    max_runs: int | None = None


@dataclass
class Timing:
    median_s: float
    runs: int

    @property
    def ms(self) -> float:
        return self.median_s * 1e3


def measure(fn: Callable[[], Any], runs: int) -> tuple[Timing, Any]:
    """Median wall time of ``runs`` calls after one untimed warm-up call (which also gives the
    answer used for the agreement check)."""
    answer = fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return Timing(statistics.median(times), runs), answer


def machine() -> str:
    import os

    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


def run_cases(cases: list[Case], runs: int, *, peers: bool = True) -> list[dict[str, Any]]:
    """Time every case (and its peers when ``peers``); print a table; return its rows."""
    rows = []
    for case in cases:
        n = runs if case.max_runs is None else min(runs, case.max_runs)
        ours, answer = measure(case.ours, n)
        row: dict[str, Any] = {"case": case.name, "grimdice_ms": round(ours.ms, 3), "runs": n}
        if case.target_ms is not None:
            row["target_ms"] = case.target_ms
        if peers:
            for name, peer in case.peers.items():
                t, theirs = measure(peer, n)
                ok = case.agree(answer, theirs) if case.agree else None
                row[f"{name}_ms"] = round(t.ms, 3)
                row[f"{name}_ratio"] = round(t.median_s / ours.median_s, 1)
                if ok is not None:
                    row[f"{name}_agrees"] = bool(ok)
        rows.append(row)
        print("  ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    return rows


def close(a: Any, b: Any, atol: float = 1e-9) -> bool:
    """Two probability vectors (lists or arrays) equal up to ``atol`` (padded with zeros)."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    n = max(x.size, y.size)
    return bool(np.allclose(np.pad(x, (0, n - x.size)), np.pad(y, (0, n - y.size)), atol=atol))
