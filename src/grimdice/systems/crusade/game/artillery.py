"""VIII ARTILLERY and BARRAGE in a game (rules-crusade VIII).

VIII ARTILLERY: "Requires 2 actions to operate- one to fire and one to reload. May not move and
fire. Provides front cover for 2 crew." A fired ARTILLERY weapon is unloaded, as a RELOAD weapon
(:func:`.fails.weapon_after`), and reloading it is an action; it is fired only by a model that has
not moved in its activation, whose move then ends. The crew's cover is :mod:`.crew`'s.

VIII BARRAGE: "Ignores front cover. Minimum range 8". May fire indirect- if any allied model has
line of sight, the Artillery may fire even if it does not. Treat the target as over 1' in range
even if it isn't". A BARRAGE weapon's targets are the enemy models, not hidden, at 8" (squares on a
grid) or more that the firer or any standing friendly model (not a blip) sees; the cover and the
range penalty are the calculator's (reading ``barrage``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, has_code

MIN_RANGE = 8  # VIII BARRAGE: "Minimum range 8""


def codes(s: GameState, i: int, weapon: str) -> tuple[bool, bool]:
    """(ARTILLERY, BARRAGE) of token ``i``'s ``weapon`` (VIII; the first weapon of that name)."""
    return _codes(s.setup, s.tokens[i].profile, weapon)


@lru_cache(maxsize=4096)
def _codes(setup: Setup, profile: int, weapon: str) -> tuple[bool, bool]:
    w = next(w for w in setup.profiles[profile].weapons if w.name == weapon)  # the first of that name
    return has_code(w.effects, "ARTILLERY"), has_code(w.effects, "BARRAGE")


def targets(s: GameState, i: int, weapon: str, sight: list[int]) -> list[int]:
    """The models token ``i`` may fire ``weapon`` at, of ``sight`` (those it sees): none after a
    move for ARTILLERY; for BARRAGE, those at its minimum range or more, and the enemies a friend
    sees (indirect fire)."""
    artillery, barrage = codes(s, i, weapon)
    if artillery and s.moved > 0:
        return []  # "May not move and fire"
    if not barrage:
        return sight
    board, here = s.setup.board, s.tokens[i].sq
    seen = set(sight) | _spotted(s, i)
    return [j for j in sorted(seen) if board.range(here, s.tokens[j].sq) >= MIN_RANGE]


def _spotted(s: GameState, i: int) -> set[int]:
    """The enemy models (not hidden) a standing friend of token ``i`` sees (BARRAGE's spotters)."""
    from grimdice.systems.crusade.game.rules import targets_in_sight

    me = s.tokens[i]
    out: set[int] = set()
    for k, t in enumerate(s.tokens):
        if k != i and t.side == me.side and t.standing and not t.blip:
            out.update(targets_in_sight(s, k))
    return out


def fired(s: GameState, a: tuple[Any, ...]) -> GameState:
    """An ARTILLERY weapon just fired: the firer's move ends ("May not move and fire")."""
    if a[0] == "shoot" and codes(s, s.active, str(a[2]))[0]:
        return altered(s, budget=0)
    return s


__all__ = ["MIN_RANGE", "codes", "fired", "targets"]
