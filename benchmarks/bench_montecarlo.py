"""Benchmark: Monte Carlo throughput, in dice rolled per second, on every bundled example.

Each example runs ``--trials`` seeded trials in this process on one worker (``workers=1``), after
an untimed warm-up run (imports, rule tables, the trial function's set-up). The dice are counted
honestly: the :class:`~grimdice.dice.Sampler` counts every die the rules roll, once per roll
(Hit, Wound, save, Feel No Pain, damage and attack dice, every re-roll again; the padding of 2-D
pools and the bytes rejected by the byte sampler are not dice and are not counted), summed over
blocks in :attr:`Tally.dice`. Where a simulator draws a face for every slot a die *may* occupy
(:meth:`~grimdice.dice.Sampler.draw`: 40k and Heresy draw the Hit and Wound die of every attack
slot as one byte, Heresy the save and Damage Mitigation die of every wound slot), it adds to the
count only the dice the rules roll (a Wound die for a hit, a save where one is possible, a Feel
No Pain die for a failed save...); the faces drawn and not used cost time and are not counted,
as padding. Two rates: dice per second of wall time, and dice per CPU-second
of this process (``time.process_time``: the per-core rate, steadier on a shared machine; with
``--workers`` > 1 the children's CPU time is not in it, so read the wall rate). The peer is
NumPy's bare generator, timed in the same process: the same number of D6 drawn as int8
(``Generator.integers(1, 7, size, dtype=int8)``), the floor of a simulator drawing its dice that
way. The ratio column is grimdice's dice per CPU-second over that floor's.
``--workers 2`` times the default local parallel run instead (one process per core). The bounded
caches that outlive a run (the Crusade pools' laws and roll walks: :func:`clear_caches`) are
emptied before every timed run. Like the
``grimdice`` command, the benchmark tunes the allocator once at its start
(:func:`~grimdice.engine.heap.keep_arrays_on_heap`; ``GRIMDICE_KEEP_HEAP=0`` to time without).

Run: ``python benchmarks/bench_montecarlo.py [--trials N] [--runs N] [--smoke] [--only PREFIX...]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grimdice.engine.heap import keep_arrays_on_heap
from grimdice.engine.montecarlo import Tally
from grimdice.engine.options import RunOptions
from grimdice.io.scenario import load_scenario
from grimdice.systems import calculate
from harness import machine

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SYSTEMS = ("wh40k", "heresy", "killteam", "onepage", "crusade", "bench")


@contextmanager
def tallies() -> Iterator[list[Tally]]:
    """Every tally :meth:`RunOptions.run` returns while the block runs (to read its dice count)."""
    seen: list[Tally] = []
    original = RunOptions.run

    def run(self: RunOptions, trial: Any) -> Tally:
        t = original(self, trial)
        seen.append(t)
        return t

    RunOptions.run = run  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        RunOptions.run = original  # type: ignore[method-assign]


def clear_caches() -> None:
    """Empty the bounded caches that outlive a run, so no timed run reuses another's work (no solve
    is cached across runs; these hold the Crusade pools' exact laws, roll walks and roll pairs)."""
    from grimdice.systems.crusade import rolls
    from grimdice.systems.crusade.contest import states

    for fn in (getattr(rolls, "law_steps", None), rolls.pool_law, getattr(states, "_rolls", None)):
        if fn is not None:
            fn.cache_clear()


def measure(path: Path, trials: int, runs: int, workers: int | None) -> tuple[float, float, int]:
    """(median wall seconds, median CPU seconds of ``runs`` runs, dice rolled in one run)."""
    data = load_scenario(path)
    calculate(data, simulate=min(trials, 20_000), seed=1, workers=1)  # warm-up, untimed
    walls, cpus = [], []
    dice = 0
    for _ in range(runs):
        clear_caches()  # before every timed run, untimed
        with tallies() as seen:
            t0, c0 = time.perf_counter(), time.process_time()
            calculate(data, simulate=trials, seed=1, workers=workers)
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
        dice = sum(t.dice for t in seen)
    return statistics.median(walls), statistics.median(cpus), dice


def floor_rate(dice: int, runs: int) -> float:
    """Dice per CPU-second of the bare generator drawing ``dice`` D6 (median of ``runs``)."""
    rng = np.random.default_rng(1)
    step = min(dice, 10_000_000)
    rng.integers(1, 7, size=step, dtype=np.int8)  # warm-up, untimed (as grimdice's run is)
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        for start in range(0, dice, step):
            rng.integers(1, 7, size=min(step, dice - start), dtype=np.int8)
        times.append(time.process_time() - t0)
    return dice / statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--trials", type=int, default=200_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", type=int, default=1, help="0: the default (all cores for large runs)")
    ap.add_argument("--smoke", action="store_true", help="a quick check: 5 000 trials, one run")
    ap.add_argument("--only", nargs="*", default=list(SYSTEMS), help="example name prefixes (default: all)")
    args = ap.parse_args(argv)
    trials, runs = (5_000, 1) if args.smoke else (args.trials, args.runs)
    workers = args.workers or None
    keep_arrays_on_heap()  # as the grimdice command does at its start
    print(f"machine: {machine()}; {trials} trials, median of {runs}, workers={workers or 'default'}")
    for path in sorted(EXAMPLES.glob("*.yaml")):
        if not path.name.startswith(SYSTEMS) or not path.name.startswith(tuple(args.only)):
            continue
        secs, cpu, dice = measure(path, trials, runs, workers)
        if not dice:  # a system drawing from the generator directly: its dice are not counted
            print(f"{path.stem:34} {secs:7.3f} s  (dice not counted: drawn outside the Sampler)")
            continue
        per_cpu = dice / cpu
        floor = floor_rate(dice, runs)
        wall = dice / secs
        print(
            f"{path.stem:34} {secs:7.3f} s  {dice / trials:6.1f} dice/trial  {wall / 1e6:6.1f} M dice/s  "
            f"{per_cpu / 1e6:6.1f} M dice/cpu-s  floor {floor / 1e6:5.0f}  ratio {per_cpu / floor:.3f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
