"""Benchmark: whole One Page 40k games per second on one core, the two bundled 750-point armies.

Rows: AI vs AI, AI vs random and random vs random games on a generated table (a new table per game,
from the game's seed), one process. The ratio column is each row's time per game over the
random-vs-random game (the cost of the AI's exact-law look-ups on top of the game itself). The
exact laws are cached across the games of a row, as ``grimdice play`` does within a worker; the
first ``--warm`` games of each row (untimed) fill the cache with the common situations. Rows do not
warm each other: each row loads its own armies (the laws are memoised on the unit objects) and
starts with grimdice's module-level caches cleared. The statistic is the median per game of the
timed games, wall time and CPU time (``time.process_time``: steadier on a shared machine).

Run: ``python benchmarks/bench_onepage_game.py`` (``--smoke`` for a quick CI check).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from grimdice.systems.onepage.game.batch import GameJob, game_seeds
from grimdice.systems.onepage.game.setup import load_army_side

ROOT = Path(__file__).resolve().parents[1]
ARMIES = (ROOT / "examples/armies/onepage-marines-army.yaml", ROOT / "examples/armies/onepage-orks-army.yaml")


def fresh_module_caches() -> None:
    """Clear every module-level ``functools`` cache of grimdice (the One Page laws, dice parsing...),
    so a row does not run on laws an earlier row computed."""
    for name, module in list(sys.modules.items()):
        if name.startswith("grimdice.") and module is not None:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)) and hasattr(value, "cache_info"):
                    value.cache_clear()


def rate(players: tuple[str, str], games: int, seed: int, warm: int = 1) -> tuple[float, float, float]:
    """(median wall seconds per game, median CPU seconds per game, mean total score) over ``games``
    games after ``warm`` warm-up games, on freshly loaded armies and cleared module caches."""
    fresh_module_caches()
    job = GameJob((load_army_side(ARMIES[0]), load_army_side(ARMIES[1])), None, players)
    seeds = game_seeds(seed, games + warm)
    for s in seeds[:warm]:
        job(s)
    walls, cpus, scores = [], [], []
    for s in seeds[warm:]:
        t0, c0 = time.perf_counter(), time.process_time()
        scores.append(sum(job(s)["scores"]))
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus), sum(scores) / games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="one game per row (CI check)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--warm", type=int, default=1, help="untimed warm-up games per row")
    args = ap.parse_args(argv)
    games = 1 if args.smoke else args.games
    rows = [
        ("random vs random", ("random", "random")),
        ("AI vs random", ("ai", "random")),
        ("AI vs AI", ("ai", "ai")),
    ]
    results = {name: rate(pl, games, 2026, args.warm) for name, pl in rows}
    base = results["random vs random"][1]
    print(f"statistic: median per game of {games} timed games after {args.warm} warm-up game(s) per row")
    print(
        f"{'players':<18} {'s/game':>8} {'CPU s/game':>11} {'games/s (CPU)':>14} {'x random':>9} "
        f"{'mean total score':>17}"
    )
    for name, (sec, cpu, score) in results.items():
        print(f"{name:<18} {sec:8.3f} {cpu:11.3f} {1 / cpu:14.2f} {cpu / base:9.1f} {score:17.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
