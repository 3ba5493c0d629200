"""Benchmark: the Rules Crusade AI against the random player, every bundled scenario and seat.

For each ``examples/games/crusade-game-*.yaml`` and each seat (the AI as the first force, then as
the second), plays ``--games`` games on one process (``--workers 1``) with the game batch of ``grimdice play``
(``--seed``: game i's seed is the i-th spawned from it, so the rows are
``grimdice play SCENARIO --games N --seed S --players ai,random`` and ``random,ai``), and prints
one Markdown row per seat: the AI's wins, draws and losses, the 95 % Wilson interval of its wins,
and the mean CPU time per game (``time.process_time``, the laws cached across the games of a row).

Run: ``python benchmarks/bench_crusade_ai.py`` (``--games 40`` for a quick check, ``--only
skirmish``: the table skirmish alone, ``--smoke``: 2 games a row for CI).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import yaml

from grimdice.systems.crusade.game.batch import GameJob, run_games, summarise
from grimdice.systems.crusade.game.scenario import build_setup

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "examples/games").glob("crusade-game-*.yaml"))
SEATS = (("ai", "random"), ("random", "ai"))


def seat_row(path: Path, players: tuple[str, str], games: int, seed: int) -> str:
    """The Markdown row of the AI in one seat of one scenario."""
    setup = build_setup(yaml.safe_load(path.read_text()))
    c0 = time.process_time()
    logs = run_games(GameJob(setup, players), games, seed, workers=1)
    cpu = (time.process_time() - c0) / games
    result = summarise(logs, setup, seed)["force_a"]
    ai = players.index("ai")
    won, lost = ("win", "loss") if ai == 0 else ("loss", "win")
    count = {k: round(result[k]["rate"] * games) for k in ("win", "draw", "loss")}
    low, high = result[won]["low"], result[won]["high"]
    force = setup.scenario.forces[ai].name
    return (
        f"| `{path.stem}` | {force} | {count[won]} | {count['draw']} | {count[lost]} "
        f"| {100 * low:.1f} % - {100 * high:.1f} % | {cpu:.3f} s |"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per scenario and seat")
    ap.add_argument("--seed", type=int, default=1, help="the batch seed (as grimdice play --seed)")
    ap.add_argument("--only", default="", help="the scenarios whose file name contains this (e.g. skirmish)")
    ap.add_argument("--smoke", action="store_true", help="2 games a row (CI check)")
    args = ap.parse_args(argv)
    games = 2 if args.smoke else args.games
    print(f"{games} games per seat, seed {args.seed}")
    print("| scenario | AI's force | AI wins | draws | AI losses | 95 % interval of AI wins | CPU per game |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for path in (p for p in SCENARIOS if args.only in p.stem):
        for players in SEATS:
            print(seat_row(path, players, games, args.seed), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
