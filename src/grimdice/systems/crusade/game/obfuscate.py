"""OBFUSCATE's roll: how many models may hide (rules-crusade VII MODIFIERS: "OBFUSCATE- LOS is NOT
required to the models that hide, but range penalties are deducted from the roll for # that may
hide").

Reading ``card_obfuscate`` (ours): the player names the farthest friendly model to hide; the card's
dice, less the range penalty (II: -1 per full 12 squares) of the distance to that model, give how
many models hide (the card's ``need`` is not used): that model first, then the friendly models
standing, not hidden, no farther from the psyker, nearest first. A psychic hood re-rolls one die to
hide the most models on average; an incursion is every die of the first roll at its maximum.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from grimdice.systems.crusade.cards import range_penalty
from grimdice.systems.crusade.game.state import GameState
from grimdice.systems.crusade.rerolls_many import reroll_law
from grimdice.systems.crusade.rolls import parse_pool, total_law


def hiders(s: GameState, i: int, j: int) -> list[int]:
    """The models psyker ``i``'s OBFUSCATE may hide when ``j`` is the farthest: ``j`` first, then
    the others no farther, nearest first (seen or not)."""
    board, sq, side = s.setup.board, s.tokens[i].sq, s.tokens[i].side
    reach = board.range(sq, s.tokens[j].sq)
    near = sorted(
        (board.range(sq, t.sq), k)
        for k, t in enumerate(s.tokens)
        if k != j and t.side == side and t.standing and not t.blip and not t.hidden
    )
    return [j] + [k for d, k in near if d <= reach]


@lru_cache(maxsize=1024)
def count_law(dice: str, dist: int, hood: bool, cap: int) -> tuple[tuple[tuple[int, int], float], ...]:
    """The joint law of (how many hide, whether an incursion comes), each outcome once."""
    pool = parse_pool(dice, "dice")
    bonus = pool.plus - range_penalty("OBFUSCATE", dist)

    def count(total: int) -> int:
        return min(cap, max(0, total + bonus))

    law: dict[int, float] = {}
    if hood:
        rolls, _, _ = reroll_law(pool, True, (), lambda r: np.array([float(count(r[0])), 0.0, 0.0, 0.0]), 1)
        for (t, _, _), p in rolls.items():
            law[count(t)] = law.get(count(t), 0.0) + p
    else:
        for (t, _), p in total_law(pool.white, pool.red).items():
            law[count(t)] = law.get(count(t), 0.0) + p
    top = count(2 * pool.white + 3 * pool.red)  # every die at its maximum: no re-roll betters it
    inc = (1 / 6) ** pool.n
    out = {(n, 0): p for n, p in law.items()}
    out[(top, 0)] -= inc
    out[(top, 1)] = inc
    return tuple(sorted((k, p) for k, p in out.items() if p > 1e-15))


def outcomes(s: GameState, i: int, dice: str, j: int) -> list[tuple[tuple[str, int, int], float]]:
    """OBFUSCATE's chance node: ``("card", how many hide, incursion)``."""
    hood = s.setup.fighters[s.tokens[i].profile].has("hood")
    dist = s.setup.board.range(s.tokens[i].sq, s.tokens[j].sq)
    law = count_law(dice, dist, hood, len(hiders(s, i, j)))
    return [(("card", n, inc), p) for (n, inc), p in law]


def hide(s: GameState, i: int, j: int, n: int) -> GameState:
    """The first ``n`` of :func:`hiders` hide."""
    for k in hiders(s, i, j)[:n]:
        s = s.with_token(k, hidden=True)
    return s


__all__ = ["count_law", "hide", "hiders", "outcomes"]
