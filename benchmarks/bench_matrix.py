"""Benchmark: ``grimdice matrix`` on two 2000-point 40k rosters, every unit against every unit.

The rosters (``tests/rosters/fixtures/marines-2000.rosz`` and ``orks-2000.rosz``, written by
``tests/rosters/fixtures/make_fixtures.py``) are read and every (attacker, defender) pair is
computed exactly. The peer is the same matrix computed serially (one worker) in this process; the
script checks that both give the same cells before printing the wall times and their ratio.
Worker start-up (spawned processes importing grimdice) is part of the parallel time, as a user
sees it.

Run: ``python benchmarks/bench_matrix.py`` (``--smoke`` for a quick CI check on the small rosters).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from grimdice.io.rosters.matrix import compute
from grimdice.io.rosters.resolve import load

FIX = Path(__file__).resolve().parent.parent / "tests" / "rosters" / "fixtures"


def timed(a: Path, b: Path, workers: int):
    t0 = time.perf_counter()
    m = compute(a, b, workers=workers)
    return m, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="quick run on the small fixture rosters")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="parallel workers")
    args = ap.parse_args(argv)
    if args.smoke:
        a, b = FIX / "marines.ros", FIX / "orks.ros"
    else:
        a, b = FIX / "marines-2000.rosz", FIX / "orks-2000.rosz"
    ra, rb = load(a, "a"), load(b, "b")  # read (and cached) outside the timed region
    for r in (ra, rb):
        print(f"{r.name}: {len(r.units)} units, {r.points:g} pts")
    serial, t1 = timed(a, b, 1)
    parallel, tn = timed(a, b, args.workers)
    same = serial.to_json() == parallel.to_json()
    cells = sum(len(r) for r in serial.cells)
    refused = sum(1 for r in serial.cells for c in r if c.error)
    print(
        f"{cells} unit pairs, {serial.computed} distinct calculations ({refused} refused by the exact engine)"
    )
    print(f"serial (1 worker):   {t1:.2f} s")
    print(f"parallel ({args.workers} workers): {tn:.2f} s")
    print(f"ratio (serial / parallel): {t1 / tn:.2f}x; same cells: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
