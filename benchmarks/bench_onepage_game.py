"""Benchmark: whole One Page 40k games per second on one core, the two bundled 750-point armies.

Rows: AI vs AI, AI vs random and random vs random games on a generated table (a new table per game,
from the game's seed), one process. The ratio column is each row's time per game over the
random-vs-random game (the cost of the AI's exact-law look-ups on top of the game itself). The
exact laws are cached across the games of a row, as ``grimdice play`` does within a worker; the
first game of each row (warm-up, untimed) fills the cache with the common situations.

Run: ``python benchmarks/bench_onepage_game.py`` (``--smoke`` for a quick CI check).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from grimdice.systems.onepage.game.batch import GameJob, game_seeds
from grimdice.systems.onepage.game.setup import load_army_side

ROOT = Path(__file__).resolve().parents[1]
ARMIES = (ROOT / "examples/armies/onepage-marines-army.yaml", ROOT / "examples/armies/onepage-orks-army.yaml")


def rate(players: tuple[str, str], games: int, seed: int) -> tuple[float, float]:
    """(seconds per game, mean total score) over ``games`` games after one warm-up game."""
    job = GameJob((load_army_side(ARMIES[0]), load_army_side(ARMIES[1])), None, players)
    seeds = game_seeds(seed, games + 1)
    job(seeds[0])
    t0 = time.perf_counter()
    scores = [sum(job(s)["scores"]) for s in seeds[1:]]
    return (time.perf_counter() - t0) / games, sum(scores) / games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="one game per row (CI check)")
    ap.add_argument("--games", type=int, default=10)
    args = ap.parse_args(argv)
    games = 1 if args.smoke else args.games
    rows = [
        ("random vs random", ("random", "random")),
        ("AI vs random", ("ai", "random")),
        ("AI vs AI", ("ai", "ai")),
    ]
    results = {name: rate(pl, games, 2026) for name, pl in rows}
    base = results["random vs random"][0]
    print(f"{'players':<18} {'s/game':>8} {'games/s':>8} {'x random':>9} {'mean total score':>17}")
    for name, (sec, score) in results.items():
        print(f"{name:<18} {sec:8.3f} {1 / sec:8.2f} {sec / base:9.1f} {score:17.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
