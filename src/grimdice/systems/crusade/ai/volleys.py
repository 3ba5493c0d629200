"""The simple AI's value of IX VOLLEY FIRE (ours: weights, not rules), beside its attacks'
(:func:`.players.attack_value`).

``["volley", weapon, n, *targets, *others]``: the volley's joint law's expected harm to its targets
(:func:`.worth.many_value`), less what the other firers give up: each one's best single shot with
the weapon at one of the targets (its law's value; nothing when none is worth anything) and
:data:`MOVE_VALUE` for the move its spent activation loses. So it volleys when the big roll does
more than the firers' shots one by one.
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.ai.worth import law_value, many_value
from grimdice.systems.crusade.game import many, situation, volley
from grimdice.systems.crusade.game.state import GameState

MOVE_VALUE = 0.05  # a firer's move, lost with its activation


def volley_value(s: GameState, a: tuple[Any, ...]) -> float:
    """The AI's value of the active model's volley ``a`` (see the module text)."""
    weapon, targets, others = volley.parts(a)
    i = s.active
    gain = many_value(s, i, targets, many.shot(s, i, targets, weapon, volley=1 + len(others)))
    for k in others:
        alone = max(law_value(s, k, j, situation.shot(s, k, j, weapon)) for j in targets)
        gain -= max(0.0, alone) + MOVE_VALUE
    return gain


__all__ = ["MOVE_VALUE", "volley_value"]
