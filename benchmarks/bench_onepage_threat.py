"""Benchmark: the cost of the AI's look at the enemy's reply (onepage/ai/threat.py), per game.

Plays the same seeded games of the two bundled 750-point armies AI vs AI with the AI (``ai``) and
with the former, greedy AI (``greedy``: the same player without the reply term), alternately game
by game in one process on one core, each with its own law cache warmed by ``--warm`` untimed games;
prints CPU seconds per game (``time.process_time``) of each and their ratio.

Run: ``python benchmarks/bench_onepage_threat.py`` (``--smoke`` for a quick CI check).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_onepage_game import ARMIES
from grimdice.systems.onepage.game.batch import GameJob, game_seeds
from grimdice.systems.onepage.game.setup import load_army_side

PLAYERS = ("greedy", "ai")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="one game each (CI check)")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--warm", type=int, default=2, help="untimed warm-up games per player")
    args = ap.parse_args(argv)
    games, warm = (1, 0) if args.smoke else (args.games, args.warm)
    # each player its own loaded armies: the exact laws are memoised on the unit objects, so shared
    # armies would let the first player's games warm the second's memos inside the timed region
    jobs = {p: GameJob((load_army_side(ARMIES[0]), load_army_side(ARMIES[1])), None, (p, p)) for p in PLAYERS}
    seeds = game_seeds(2026, warm + games)
    for s in seeds[:warm]:
        for job in jobs.values():
            job(s)
    cpu = dict.fromkeys(PLAYERS, 0.0)
    for s in seeds[warm:]:
        for p, job in jobs.items():
            c0 = time.process_time()
            job(s)
            cpu[p] += time.process_time() - c0
    for p in PLAYERS:
        print(f"{p:<8} {cpu[p] / games:8.3f} CPU s/game")
    print(f"ai / greedy: {cpu['ai'] / cpu['greedy']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
