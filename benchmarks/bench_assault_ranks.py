"""Benchmark: the One Page 40k Assault placement alone (``assault_ranks.placed``: where each
assaulting model ends), over every Assault of seeded games of the two bundled 750-point armies.

The Assaults are gathered by playing ``--games`` seeded random-vs-random games (and ``--ai`` AI-vs-AI
games), then each is placed again ``--rounds`` times; the statistic is the mean CPU milliseconds
per Assault (``time.process_time``). ``--compare REF`` loads ``assault_ranks.py`` from another
source tree (``REF/src``, e.g. a ``git archive`` of an earlier commit; its imports resolve to this
tree's modules) and times both alternately, round by round, in this one process, after checking that
both place every model at the same spot.

Run: ``python benchmarks/bench_assault_ranks.py --games 30 --ai 1 --compare ../grimdice-ref``.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MODULE = "src/grimdice/systems/onepage/game/assault_ranks.py"


def assaults(players: tuple[str, str], games: int, seed: int) -> list[tuple[Any, float | None]]:
    """The placement's inputs (the Charge and the Walk cap) of every Assault of ``games`` games."""
    from grimdice.systems.onepage.game import melee_moves
    from grimdice.systems.onepage.game.batch import GameJob, game_seeds
    from grimdice.systems.onepage.game.setup import load_army_side

    armies = [ROOT / f"examples/armies/onepage-{a}-army.yaml" for a in ("marines", "orks")]
    job = GameJob((load_army_side(armies[0]), load_army_side(armies[1])), None, players, keep_log=False)
    seen: list[tuple[Any, float | None]] = []
    plain = melee_moves.assault_ranks.placed

    def spy(c: Any, walk: float | None) -> np.ndarray:
        seen.append((c, walk))
        return plain(c, walk)

    melee_moves.assault_ranks.placed = spy  # type: ignore[assignment]
    try:
        for s in game_seeds(seed, games):
            job(s)
    finally:
        melee_moves.assault_ranks.placed = plain  # type: ignore[assignment]
    return seen


def reference(tree: Path) -> ModuleType:
    """``assault_ranks`` as written in the source tree ``tree``."""
    spec = importlib.util.spec_from_file_location("reference_assault_ranks", tree / MODULE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def per_assault(module: ModuleType, charges: list[tuple[Any, float | None]]) -> float:
    """CPU milliseconds per Assault of placing every charge once with ``module``."""
    c0 = time.process_time()
    for c, walk in charges:
        module.placed(c, walk)
    return (time.process_time() - c0) * 1e3 / max(len(charges), 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=30, help="seeded random-vs-random games")
    ap.add_argument("--ai", type=int, default=0, help="seeded AI-vs-AI games")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--compare", type=Path, help="a reference source tree to time alternately")
    args = ap.parse_args(argv)
    from grimdice.systems.onepage.game import assault_ranks

    charges = assaults(("random", "random"), args.games, args.seed)
    if args.ai:
        charges += assaults(("ai", "ai"), args.ai, args.seed)
    trees = {"this tree": assault_ranks}
    if args.compare:
        trees = {"reference": reference(args.compare), **trees}
        for c, walk in charges:  # the same ends (and the compiled kernels warm)
            same = np.array_equal(trees["reference"].placed(c, walk), assault_ranks.placed(c, walk))
            assert same, "the two trees place an Assault's models differently"
    else:
        per_assault(assault_ranks, charges)  # warm-up: the compiled kernels
    times: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, module in trees.items():
            times[name].append(per_assault(module, charges))
    print(f"{len(charges)} Assaults, {args.rounds} rounds: CPU ms per Assault (mean of rounds)")
    for name, ms in times.items():
        print(f"  {name:10s} {np.mean(ms):7.3f}  (rounds {', '.join(f'{m:.2f}' for m in ms)})")
    if args.compare:
        print(f"  speed-up   {np.mean(times['reference']) / np.mean(times['this tree']):.2f}x (same ends)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
