"""Benchmark: whole Rules Crusade games per second on one core, the bundled scenarios.

Rows: random vs random, AI vs random, random vs AI and AI vs AI games of each scenario in
``examples/games/``, one process, ``play_game`` with seeds 0, 1, ... The exact attack laws are cached
across the games of a row; the first ``--warm`` games of each row (untimed) fill the cache. Each row
starts with grimdice's module-level caches cleared. The statistic is the median per game of the
timed games, CPU time (``time.process_time``: steadier on a shared machine) and wall time.

Run: ``python benchmarks/bench_crusade_game.py`` (``--only skirmish``: the table skirmish alone;
``--smoke`` for a quick CI check).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_onepage_game import fresh_module_caches
from grimdice.systems.crusade.game.play import play_game
from grimdice.systems.crusade.game.scenario import build_setup

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "examples/games").glob("crusade-game-*.yaml"))


def rate(path: Path, players: tuple[str, str], games: int, warm: int) -> tuple[float, float]:
    """(median wall seconds, median CPU seconds) per game over ``games`` timed games."""
    fresh_module_caches()
    setup = build_setup(yaml.safe_load(path.read_text()))
    for seed in range(warm):
        play_game(setup, players, seed)
    walls, cpus = [], []
    for seed in range(warm, warm + games):
        t0, c0 = time.perf_counter(), time.process_time()
        play_game(setup, players, seed)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus)


#: the command line: flag -> argparse keywords
OPTIONS: dict[str, dict[str, Any]] = {
    "--smoke": {"action": "store_true", "help": "one game per row (CI check)"},
    "--games": {"type": int, "default": 20, "help": "timed games per row"},
    "--warm": {"type": int, "default": 2, "help": "untimed warm-up games per row"},
    "--only": {"default": "", "help": "the scenarios whose file name contains this (e.g. skirmish)"},
}
ROWS = (("random", "random"), ("ai", "random"), ("random", "ai"), ("ai", "ai"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag, kw in OPTIONS.items():
        ap.add_argument(flag, **kw)
    args = ap.parse_args(argv)
    games, warm = (1, 0) if args.smoke else (args.games, args.warm)
    print(f"statistic: median per game of {games} timed games after {warm} warm-up game(s) per row")
    print(f"{'scenario':<24} {'players':<14} {'s/game':>8} {'CPU s/game':>11} {'games/s (CPU)':>14}")
    for path in (p for p in SCENARIOS if args.only in p.stem):
        for players in ROWS:
            sec, cpu = rate(path, players, games, warm)
            print(f"{path.stem:<24} {','.join(players):<14} {sec:8.3f} {cpu:11.3f} {1 / cpu:14.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
