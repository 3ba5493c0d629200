"""Benchmark: whole Rules Crusade games per second on one core, the bundled scenarios.

Rows: random vs random, AI vs random, random vs AI and AI vs AI games of each scenario in
``examples/games/``, one process, ``play_game`` with seeds 0, 1, ... The exact attack laws are cached
across the games of a row; the first ``--warm`` games of each row (untimed) fill the cache. Each row
starts with grimdice's module-level caches cleared. The statistic is the median per game of the
timed games, CPU time (``time.process_time``: steadier on a shared machine) and wall time.

``--compare REF`` times another source tree (``REF/src``, e.g. a ``git worktree`` of an earlier
commit) against this one: each row runs in fresh processes, alternately the reference and this
tree, ``--rounds`` times each, so that both see the same load on a shared machine; the medians are
over all the timed games of each tree, and the two trees' games are checked to be the same (their
logs' actions, seed by seed: the same seeds give the same games unless a rule changed).

Run: ``python benchmarks/bench_crusade_game.py`` (``--only skirmish``: the table skirmish alone;
``--players random,random``: that row alone;
``--smoke`` for a quick CI check; ``--compare ../grimdice-ref`` for before and after).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
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


def timings(path: Path, players: tuple[str, str], games: int, warm: int) -> dict[str, list[float]]:
    """Per timed game: wall seconds, CPU seconds and a digest of its actions (``games`` games after
    ``warm`` untimed ones, seeds 0, 1, ...), the module-level caches cleared first."""
    fresh_module_caches()
    setup = build_setup(yaml.safe_load(path.read_text()))
    for seed in range(warm):
        play_game(setup, players, seed)
    out: dict[str, list[float]] = {"wall": [], "cpu": [], "game": []}
    for seed in range(warm, warm + games):
        t0, c0 = time.perf_counter(), time.process_time()
        log = play_game(setup, players, seed)
        out["wall"].append(time.perf_counter() - t0)
        out["cpu"].append(time.process_time() - c0)
        digest = hashlib.sha256(json.dumps(log["actions"]).encode()).digest()
        out["game"].append(float(int.from_bytes(digest[:6], "big")))
    return out


def rate(path: Path, players: tuple[str, str], games: int, warm: int) -> tuple[float, float]:
    """(median wall seconds, median CPU seconds) per game over ``games`` timed games."""
    got = timings(path, players, games, warm)
    return statistics.median(got["wall"]), statistics.median(got["cpu"])


def in_process(
    tree: Path, path: Path, players: tuple[str, str], games: int, warm: int
) -> dict[str, list[float]]:
    """:func:`timings` run in a fresh Python process on the sources of ``tree`` (``tree/src``)."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    row = ["--row", ",".join(players), "--scenario", str(path), "--games", str(games), "--warm", str(warm)]
    cmd = [sys.executable, __file__, *row]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def compare(
    ref: Path, paths: list[Path], rows: tuple[tuple[str, str], ...], games: int, warm: int, rounds: int
) -> None:
    """Each row on the reference tree and on this one, alternately, ``rounds`` times each."""
    print(f"reference: {ref}; this tree: {ROOT}; {rounds} alternating rounds of {games} timed games per row")
    head = f"{'scenario':<24} {'players':<14} {'ref CPU s/game':>15} {'CPU s/game':>11} {'speed-up':>9}"
    print(f"{head}  games")
    for path in paths:
        for players in rows:
            got: dict[str, dict[str, list[float]]] = {"ref": {}, "new": {}}
            for _ in range(rounds):
                for side, tree in (("ref", ref), ("new", ROOT)):
                    for k, v in in_process(tree, path, players, games, warm).items():
                        got[side].setdefault(k, []).extend(v)
            same = "same" if got["ref"]["game"] == got["new"]["game"] else "DIFFER"
            old, new = statistics.median(got["ref"]["cpu"]), statistics.median(got["new"]["cpu"])
            print(f"{path.stem:<24} {','.join(players):<14} {old:15.4f} {new:11.4f} {old / new:9.2f}  {same}")


#: the command line: flag -> argparse keywords
OPTIONS: dict[str, dict[str, Any]] = {
    "--smoke": {"action": "store_true", "help": "one game per row (CI check)"},
    "--games": {"type": int, "default": 20, "help": "timed games per row"},
    "--warm": {"type": int, "default": 2, "help": "untimed warm-up games per row"},
    "--only": {"default": "", "help": "the scenarios whose file name contains this (e.g. skirmish)"},
    "--compare": {"type": Path, "help": "a reference source tree to time alternately"},
    "--rounds": {"type": int, "default": 3, "help": "alternating rounds per tree (--compare)"},
    "--players": {"default": "", "help": "one row only, e.g. random,random (default: every row)"},
    "--row": {"help": argparse.SUPPRESS},  # one row's timings as JSON (--compare's workers)
    "--scenario": {"type": Path, "help": argparse.SUPPRESS},
}
ROWS = (("random", "random"), ("ai", "random"), ("random", "ai"), ("ai", "ai"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag, kw in OPTIONS.items():
        ap.add_argument(flag, **kw)
    args = ap.parse_args(argv)
    games, warm = (1, 0) if args.smoke else (args.games, args.warm)
    paths = [p for p in SCENARIOS if args.only in p.stem]
    rows = ROWS if not args.players else (tuple(args.players.split(",", 1)),)
    if args.row:
        a, b = args.row.split(",")
        print(json.dumps(timings(args.scenario, (a, b), games, warm)))
        return 0
    if args.compare:
        compare(args.compare.resolve(), paths, rows, games, warm, args.rounds)
        return 0
    print(f"statistic: median per game of {games} timed games after {warm} warm-up game(s) per row")
    print(f"{'scenario':<24} {'players':<14} {'s/game':>8} {'CPU s/game':>11} {'games/s (CPU)':>14}")
    for path in paths:
        for players in rows:
            sec, cpu = rate(path, players, games, warm)
            print(f"{path.stem:<24} {','.join(players):<14} {sec:8.3f} {cpu:11.3f} {1 / cpu:14.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
