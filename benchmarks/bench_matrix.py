"""Benchmark: ``grimdice matrix`` on two 2000-point 40k rosters, every unit against every unit.

The rosters (``tests/rosters/fixtures/marines-2000.rosz`` and ``orks-2000.rosz``, written by
``tests/rosters/fixtures/make_fixtures.py``) are read and every (attacker, defender) pair is
computed exactly. The peer is the same matrix computed serially (one worker) in this process; the
script checks that both give the same cells before printing the wall times and their ratio.
Both are timed by :mod:`harness` (one untimed warm-up call each, then the median of the same number
of runs). Worker start-up (spawned processes importing grimdice) is part of the parallel time, as a
user sees it.

Run: ``python benchmarks/bench_matrix.py [--runs N]`` (``--smoke`` for a quick CI check on the small
rosters, one timed run each).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grimdice.adapters.rosters.matrix import MIN_PARALLEL, compute
from grimdice.adapters.rosters.resolve import load
from harness import machine, measure

FIX = Path(__file__).resolve().parent.parent / "tests" / "rosters" / "fixtures"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="quick run on the small fixture rosters")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="parallel workers")
    ap.add_argument("--runs", type=int, default=3, help="timed runs of each (median)")
    args = ap.parse_args(argv)
    runs = 1 if args.smoke else args.runs
    if args.smoke:
        a, b = FIX / "marines.ros", FIX / "orks.ros"
    else:
        a, b = FIX / "marines-2000.rosz", FIX / "orks-2000.rosz"
    ra, rb = load(a, "a"), load(b, "b")  # read (and cached) outside the timed region
    for r in (ra, rb):
        print(f"{r.name}: {len(r.units)} units, {r.points:g} pts")
    print(f"machine: {machine()}; statistic: median of {runs} runs after a warm-up, for both")
    t_serial, serial = measure(lambda: compute(a, b, workers=1), runs)
    t_parallel, parallel = measure(lambda: compute(a, b, workers=args.workers), runs)
    t1, tn = t_serial.median_s, t_parallel.median_s
    same = serial.to_json() == parallel.to_json()
    cells = sum(len(r) for r in serial.cells)
    refused = sum(1 for r in serial.cells for c in r if c.error)
    print(
        f"{cells} unit pairs, {serial.computed} distinct calculations ({refused} refused by the exact engine)"
    )
    print(f"serial (1 worker):   {t1:.2f} s")
    print(f"parallel ({args.workers} workers): {tn:.2f} s")
    print(f"ratio (serial / parallel): {t1 / tn:.2f}x; same cells: {same}")
    if serial.computed < MIN_PARALLEL:
        print(f"(fewer than {MIN_PARALLEL} distinct calculations: both ran in this process, no workers)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
