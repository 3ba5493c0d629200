"""Benchmark: the exact combat laws of a seeded One Page 40k game's situations, computed from cold.

One AI-vs-AI game of the two bundled 750-point armies is played (untimed) and every situation whose
law the game or the AI asked for (``combat.combat_law``: shootings, melees, automatic hits) is read
from its law cache (``cache.law_situations``). Then every memo is emptied (the law cache, the memos
kept on the units, grimdice's module-level caches) and the laws of all those situations are
computed again, one after another: the CPU seconds of that pass are the figure (the cost of
meeting situations for the first time).
The pass's laws are summarised as a digest of their exact floats, so two source trees can be
checked to give the same laws bit for bit.

``--compare REF`` times another source tree (``REF/src``) alternately with this one, ``--rounds``
fresh processes each, and checks that both give the same situations and laws.

Run: ``python benchmarks/bench_onepage_laws.py`` (``--compare ../grimdice-ref`` for before and after).
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_onepage_game import ARMIES, fresh_module_caches  # noqa: E402


def situations(seed: int, players: tuple[str, str] = ("ai", "ai")) -> tuple[Any, list[tuple[Any, ...]]]:
    """The setup of one seeded game and the situations whose laws it met (the keys of its law
    cache: ``(kind, u, su, t, st, key)``)."""
    from grimdice.engine.table.terrain import Table
    from grimdice.systems.onepage.game import cache
    from grimdice.systems.onepage.game.batch import GameJob, game_seeds
    from grimdice.systems.onepage.game.setup import Setup, load_army_side

    job = GameJob((load_army_side(ARMIES[0]), load_army_side(ARMIES[1])), None, players)
    job(game_seeds(seed, 1)[0])
    if hasattr(cache, "law_situations"):
        sits = cache.law_situations(job.cache)
    else:  # a reference tree older than ``law_situations``: the same keys
        sits = [k for k in job.cache if isinstance(k, tuple) and len(k) == 6]
        sits = [k for k in sits if k[0] in ("shoot", "melee", "dangerous", "transport")]
    return Setup(job.armies, Table(), job.cache), sits


def forget(setup: Any) -> None:
    """Every memo a law reads: the law cache, the units' memos, module-level caches."""
    from grimdice.systems.onepage.units import MEMO_PREFIX

    setup.cache.clear()
    for unit in setup.units:
        for attr in [a for a in vars(unit) if a.startswith(MEMO_PREFIX)]:
            vars(unit).pop(attr)
    fresh_module_caches()


def laws_pass(setup: Any, sits: list[tuple[Any, ...]]) -> tuple[float, str]:
    """CPU seconds of computing every situation's law from cold, and a digest of the laws."""
    from grimdice.systems.onepage.game.combat import combat_law

    forget(setup)
    h = hashlib.sha256()
    c0 = time.process_time()
    laws = [combat_law(setup, *s) for s in sits]
    cpu = time.process_time() - c0
    for law in laws:
        h.update(repr([(repr(k), p.hex()) for k, p in law]).encode())
    return cpu, h.hexdigest()[:16]


def row(seed: int, passes: int) -> dict[str, Any]:
    setup, sits = situations(seed)
    kinds = {k: sum(1 for s in sits if s[0] == k) for k in sorted({s[0] for s in sits})}
    runs = [laws_pass(setup, sits) for _ in range(passes)]
    return {"cpu": [r[0] for r in runs], "digest": runs[0][1], "situations": kinds}


def in_process(tree: Path, seed: int, passes: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    cmd = [sys.executable, __file__, "--row", "--seed", str(seed), "--passes", str(passes)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--passes", type=int, default=3, help="cold passes per process (median)")
    ap.add_argument("--compare", type=Path, help="a reference source tree to time alternately")
    ap.add_argument("--rounds", type=int, default=2, help="alternating processes per tree (--compare)")
    ap.add_argument("--row", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.row:
        print(json.dumps(row(args.seed, args.passes)))
        return 0
    if args.compare is None:
        r = row(args.seed, args.passes)
        cpu = statistics.median(r["cpu"])
        print(f"situations {r['situations']}: median {cpu:.3f} s CPU, digest {r['digest']}")
        return 0
    trees = {"ref": args.compare.resolve(), "this": ROOT}
    got: dict[str, list[dict[str, Any]]] = {"ref": [], "this": []}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            got[name].append(in_process(tree, args.seed, args.passes))
    for name, rs in got.items():
        cpu = [c for r in rs for c in r["cpu"]]
        med = statistics.median(cpu)
        print(f"{name}: situations {rs[0]['situations']}, median {med:.3f} s CPU, digest {rs[0]['digest']}")
    ref_cpu = statistics.median(c for r in got["ref"] for c in r["cpu"])
    this_cpu = statistics.median(c for r in got["this"] for c in r["cpu"])
    same = {r["digest"] for r in got["ref"] + got["this"]}
    print(f"speed-up {ref_cpu / this_cpu:.2f}x; laws {'equal' if len(same) == 1 else 'DIFFER'}")
    return 0 if len(same) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
