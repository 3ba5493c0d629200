"""Measure: how often the One Page 40k AI's estimate of a charge's strikers (``ai/frontage.py``)
agrees with the game's own placement of the assaulting models (``game/assault_ranks.py``).

Plays ``--games`` seeded AI-vs-AI games of the two bundled 750-point armies and, at every charge the
AI imagines (``threat.strikers``: an enemy unit's block placed 1.5" from the unit, straight towards
it), counts the strikers both ways: the estimate, and the game's count of the same charge (the
block's Assault move, each model's own move, the defenders' 3" move: ``melee_moves.strikers``).
Each distinct situation is counted once. Prints the share where both counts agree, where each side's
count agrees, where each is within one model, and the mean difference (estimate less placement).

Run: ``python benchmarks/frontage_agreement.py --games 10``.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ARMIES = (ROOT / "examples/armies/onepage-marines-army.yaml", ROOT / "examples/armies/onepage-orks-army.yaml")


def placed_strikers(state: Any, v: int, u: int) -> tuple[int, int]:
    """The game's own count for ``v``'s charge on ``u`` from :data:`threat.CLOSE` away."""
    from grimdice.engine.table.blocks import EPS
    from grimdice.systems.onepage.ai.threat import CLOSE
    from grimdice.systems.onepage.game import melee_moves

    dx, dy = state.charge_vector(v, u)
    far = math.hypot(dx, dy)
    step = max(0.0, far - CLOSE) / far if far > EPS else 0.0
    near = state.moved(v, dx * step, dy * step) if step else state
    return melee_moves.strikers(near.charged(v, u), v, u)


def measure(games: int, seed: int) -> dict[str, float]:
    """The shares of the module text over the distinct situations of ``games`` seeded games."""
    from grimdice.systems.onepage.ai import threat
    from grimdice.systems.onepage.game.batch import GameJob, game_seeds
    from grimdice.systems.onepage.game.setup import load_army_side

    seen: dict[Any, tuple[tuple[int, int], tuple[int, int]]] = {}
    estimate = threat.strikers

    def both(state: Any, v: int, u: int) -> tuple[int, int]:
        got = estimate(state, v, u)
        key = (state.setup.table, state.standing().key, state.charge, v, u)
        if key not in seen:
            seen[key] = (got, placed_strikers(state, v, u))
        return got

    threat.strikers = both  # type: ignore[assignment]
    try:
        job = GameJob((load_army_side(ARMIES[0]), load_army_side(ARMIES[1])), None, ("ai", "ai"))
        for s in game_seeds(seed, games):
            job(s)
    finally:
        threat.strikers = estimate  # type: ignore[assignment]
    pairs = list(seen.values())
    n = len(pairs)
    return {
        "situations": n,
        "both agree": sum(e == x for e, x in pairs) / n,
        "assaulting agree": sum(e[0] == x[0] for e, x in pairs) / n,
        "defending agree": sum(e[1] == x[1] for e, x in pairs) / n,
        "assaulting within 1": sum(abs(e[0] - x[0]) <= 1 for e, x in pairs) / n,
        "defending within 1": sum(abs(e[1] - x[1]) <= 1 for e, x in pairs) / n,
        "assaulting mean difference": sum(e[0] - x[0] for e, x in pairs) / n,
        "defending mean difference": sum(e[1] - x[1] for e, x in pairs) / n,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=23)
    args = ap.parse_args(argv)
    for name, value in measure(args.games, args.seed).items():
        print(f"{name:<28} {value:.3f}" if isinstance(value, float) else f"{name:<28} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
