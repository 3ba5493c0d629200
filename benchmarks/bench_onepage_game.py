"""Benchmark: whole One Page 40k games per second on one core, the two bundled 750-point armies.

Rows: AI vs AI, AI vs random and random vs random games on a generated table (a new table per game,
from the game's seed), one process. The ratio column is each row's time per game over the
random-vs-random game (the cost of the AI's exact-law look-ups on top of the game itself). The
exact laws are cached across the games of a row, as ``grimdice play`` does within a worker; the
first ``--warm`` games of each row (untimed) fill the cache with the common situations and compile
the table kernels (Numba, kept on disk after the first run: the row's warm-up seconds are printed
apart). Rows do not warm each other: each row loads its own armies (the laws are memoised on the
unit objects) and starts with grimdice's module-level caches cleared. The statistic is the median
per game of the timed games, wall time and CPU time (``time.process_time``: steadier on a shared
machine).

``--compare REF`` times another source tree (``REF/src``, e.g. a ``git worktree`` of an earlier
commit) against this one: each row runs in fresh processes, alternately the reference and this
tree, ``--rounds`` times each, so that both see the same load on a shared machine; the medians are
over all the timed games of each tree, and the two trees' games are checked to be the same (a digest
of each game's actions: the same seeds give the same games unless a rule or a player's choices
changed).

Run: ``python benchmarks/bench_onepage_game.py`` (``--smoke`` for a quick CI check;
``--compare ../grimdice-ref`` for before and after).
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

ROOT = Path(__file__).resolve().parents[1]
ARMIES = (ROOT / "examples/armies/onepage-marines-army.yaml", ROOT / "examples/armies/onepage-orks-army.yaml")
ROWS = {
    "random vs random": ("random", "random"),
    "AI vs random": ("ai", "random"),
    "AI vs AI": ("ai", "ai"),
}


def fresh_module_caches() -> None:
    """Clear every module-level ``functools`` cache of grimdice (the One Page laws, dice parsing...)
    and the matches every rule table keeps, so a row does not run on answers an earlier row found."""
    from grimdice.engine.rules import RuleTable

    for name, module in list(sys.modules.items()):
        if name.startswith("grimdice.") and module is not None:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)) and hasattr(value, "cache_info"):
                    value.cache_clear()
                elif isinstance(value, RuleTable):
                    value.forget_matches()


def timings(players: tuple[str, str], games: int, seed: int, warm: int = 1) -> dict[str, list[float]]:
    """Per timed game: wall seconds, CPU seconds, total score and a digest of its actions, over
    ``games`` games after ``warm`` warm-up games (their CPU seconds in ``warm``), on freshly loaded
    armies and cleared caches."""
    from grimdice.systems.onepage.game.batch import GameJob, game_seeds
    from grimdice.systems.onepage.game.setup import load_army_side

    fresh_module_caches()
    job = GameJob((load_army_side(ARMIES[0]), load_army_side(ARMIES[1])), None, players, keep_log=True)
    seeds = game_seeds(seed, games + warm)
    c0 = time.process_time()
    for s in seeds[:warm]:
        job(s)
    out: dict[str, list[float]] = {"warm": [time.process_time() - c0], "wall": [], "cpu": [], "score": []}
    out["game"] = []
    for s in seeds[warm:]:
        t0, c0 = time.perf_counter(), time.process_time()
        log = job(s)
        out["wall"].append(time.perf_counter() - t0)
        out["cpu"].append(time.process_time() - c0)
        out["score"].append(float(sum(log["scores"])))
        digest = hashlib.sha256(json.dumps(log["actions"]).encode()).digest()
        out["game"].append(float(int.from_bytes(digest[:6], "big")))
    return out


def in_process(
    tree: Path, players: tuple[str, str], games: int, seed: int, warm: int
) -> dict[str, list[float]]:
    """:func:`timings` run in a fresh Python process on the sources of ``tree`` (``tree/src``)."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    cmd = [sys.executable, __file__, "--row", ",".join(players), "--games", str(games), "--warm", str(warm)]
    proc = subprocess.run([*cmd, "--seed", str(seed)], env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def compare(ref: Path, rows: dict[str, tuple[str, str]], games: int, warm: int, rounds: int) -> None:
    """Each row on the reference tree and on this one, alternately, ``rounds`` times each."""
    print(f"reference: {ref}; this tree: {ROOT}; {rounds} alternating rounds of {games} timed games per row")
    print(
        f"{'players':<18} {'ref CPU s/game':>15} {'CPU s/game':>11} {'speed-up':>9} "
        f"{'ref warm s':>11} {'warm s':>7}"
    )
    for name, players in rows.items():
        got: dict[str, dict[str, list[float]]] = {"ref": {}, "new": {}}
        for r in range(rounds):
            for side, tree in (("ref", ref), ("new", ROOT)):
                one = in_process(tree, players, games, 2026 + r, warm)
                for k, v in one.items():
                    got[side].setdefault(k, []).extend(v)
        if got["ref"]["game"] != got["new"]["game"]:
            print(f"{name}: the two trees play other games (a rule or a player changed?)")
        old, new = statistics.median(got["ref"]["cpu"]), statistics.median(got["new"]["cpu"])
        warm_old, warm_new = statistics.median(got["ref"]["warm"]), statistics.median(got["new"]["warm"])
        print(f"{name:<18} {old:15.3f} {new:11.3f} {old / new:9.1f} {warm_old:11.2f} {warm_new:7.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="one game per row (CI check)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--warm", type=int, default=1, help="untimed warm-up games per row")
    ap.add_argument("--compare", type=Path, help="a reference source tree to time alternately")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds per tree (--compare)")
    ap.add_argument("--only", choices=list(ROWS), action="append", help="rows to run (all by default)")
    ap.add_argument("--row", help=argparse.SUPPRESS)  # one row's timings as JSON (--compare's workers)
    ap.add_argument("--seed", type=int, default=2026, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    games = 1 if args.smoke else args.games
    rows = {name: ROWS[name] for name in args.only} if args.only else ROWS
    if args.row:
        a, b = args.row.split(",")
        print(json.dumps(timings((a, b), games, args.seed, args.warm)))
        return 0
    if args.compare:
        compare(args.compare.resolve(), rows, games, args.warm, args.rounds)
        return 0
    results = {name: timings(pl, games, args.seed, args.warm) for name, pl in rows.items()}
    base = statistics.median(next(iter(results.values()))["cpu"])
    print(f"statistic: median per game of {games} timed games after {args.warm} warm-up game(s) per row")
    print(
        f"{'players':<18} {'s/game':>8} {'CPU s/game':>11} {'games/s (CPU)':>14} {'x first':>8} "
        f"{'mean total score':>17} {'warm-up CPU s':>14}"
    )
    for name, got in results.items():
        sec, cpu = statistics.median(got["wall"]), statistics.median(got["cpu"])
        score = sum(got["score"]) / games
        print(
            f"{name:<18} {sec:8.3f} {cpu:11.3f} {1 / cpu:14.2f} {cpu / base:8.1f} {score:17.1f} "
            f"{got['warm'][0]:14.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
