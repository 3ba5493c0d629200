"""VIII BURN's shots at hidden models (rules-crusade VIII, II, V HIDING).

VIII BURN: "You may ignore cover and may fire at hidden models. Hidden models that are attacked
will be revealed even if they take no damage, as long as a result greater than zero is rolled on
the dice. You may not reveal hidden models inside armored buildings (bunkers) or closed vehicles
(even if it has firing slits). You may not reveal blips!" II: "To fire at an opponent, you must
have line of sight (LOS)".

Reading ``burn_hidden``: a ready BURN weapon may name as its target a hidden enemy model it has
line of sight to (II still asks for sight), not a blip and not inside an armoured building (the
game has no vehicles). Such a shot is rolled through the calculator's many-target law with one
target, whose mark of a result above zero reveals the model (:mod:`.caught`, reading
``hidden_caught``).
"""

from __future__ import annotations

import json
from functools import lru_cache

from grimdice.systems.crusade.game import situation
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import READY, GameState, has_code
from grimdice.systems.crusade.game.table import TableBoard
from grimdice.systems.crusade.units import SHOOTING_KINDS


def bunkered(s: GameState, k: int) -> bool:
    """Inside an armoured building (VI), where BURN reveals nobody."""
    board, t = s.setup.board, s.tokens[k]
    if not isinstance(board, TableBoard) or board.indoors(t.sq) < 0:
        return False
    building = board.building_of(t.sq)
    return building is not None and building.armoured


def burns(s: GameState, i: int, weapon: str) -> bool:
    """Whether token ``i``'s ``weapon`` has BURN."""
    return _burns(s.setup, s.tokens[i].profile, weapon)


@lru_cache(maxsize=4096)
def _burns(setup: Setup, profile: int, weapon: str) -> bool:
    w = next(w for w in setup.profiles[profile].weapons if w.name == weapon)  # the first of that name
    return has_code(w.effects, "BURN")


def ready(s: GameState, i: int) -> bool:
    """Whether token ``i`` holds a ready ranged BURN weapon."""
    t = s.tokens[i]
    return any(t.arms[k] == READY for k in _burners(s.setup, t.profile))


@lru_cache(maxsize=1024)
def _burners(setup: Setup, profile: int) -> tuple[int, ...]:
    """The indices of a profile's ranged BURN weapons."""
    weapons = setup.profiles[profile].weapons
    return tuple(k for k, w in enumerate(weapons) if w.kind in SHOOTING_KINDS and has_code(w.effects, "BURN"))


def hidden_in_sight(s: GameState, i: int) -> list[int]:
    """The hidden enemy models (not blips, not in an armoured building) token ``i`` has line of
    sight to: the further targets of its BURN weapons."""
    me = s.tokens[i]
    doors, occ, board = s.doors(), s.occupied(), s.setup.board
    return [
        j
        for j, t in enumerate(s.tokens)
        if t.alive
        and t.side != me.side
        and t.hidden
        and not t.blip
        and not bunkered(s, j)
        and board.sight(me.sq, t.sq, doors, occ)
    ]


def shot(s: GameState, i: int, j: int, weapon: str, how: str) -> str:
    """The single shot of token ``i``'s BURN ``weapon`` at hidden token ``j`` as the calculator's
    many-target scenario with that one target (``how``: the weapon's many-target mode, or ``""``),
    whose joint law marks a result above zero. A weapon of no such mode is rolled as a LINE at its
    one target: one roll applied to it, which is the single shot (LINE adds only against buildings)."""
    data = json.loads(situation.shot(s, i, j, weapon))
    row = {**data["defender"], "name": "target 0", "range": data["range"], "cover": data.get("cover", "none")}
    if "knockback_into" in data:
        row["knockback_into"] = data["knockback_into"]
    data["targets"] = [row]
    if not how:
        for w in data["attacker"]["weapons"]:
            if w["name"] == weapon:
                w["effects"] = [*w["effects"], "LINE"]
    return json.dumps(data, sort_keys=True)


def at_hidden(s: GameState, i: int, targets: tuple[int, ...], weapon: str) -> bool:
    """Whether a single shot is a BURN weapon's at a hidden model (rolled with its reveal mark)."""
    return len(targets) == 1 and s.tokens[targets[0]].hidden and burns(s, i, weapon)


__all__ = ["at_hidden", "bunkered", "burns", "hidden_in_sight", "ready", "shot"]
