"""An attack in the game as the calculator's single-attack scenario (``system: crusade``): the two
models' profiles with their condition, hits left and usable weapons, the range in squares, the
cover the board gives, whether the firer moved, the melee's place among successive opponents.
Its law is :func:`~.combat.cached_law` of the JSON text, so the game's combat is ``calculate()``'s.
"""

from __future__ import annotations

import json
from typing import Any

from grimdice.engine.grid import Square, range_squares
from grimdice.systems.crusade.damage import CONDITIONS
from grimdice.systems.crusade.game.reach import beyond, blocked
from grimdice.systems.crusade.game.state import READY, GameState, Token


def model_data(s: GameState, t: Token, keep: str = "") -> dict[str, Any]:
    """A token's profile as the calculator's model: its state now and only its usable weapons
    (and weapon ``keep``, being fired: an AREA weapon's rolls after the first, once unloaded)."""
    p = s.setup.profiles[t.profile]
    data = p.model_dump(by_alias=True, exclude={"move", "hits_left", "condition"}, exclude_none=True)
    data["condition"] = CONDITIONS[t.cond] if t.cond < 4 else "ko"
    data["hits_left"] = t.hits
    if s.psy is not None:  # a SHIELD card (ours)
        from grimdice.systems.crusade.game.deck import armour_bonus

        data["armor"] = min(10, data.get("armor", 0) + armour_bonus(s, t))
    data["weapons"] = [
        w for w, st in zip(data["weapons"], t.arms, strict=True) if st == READY or w["name"] == keep
    ]
    return data


def range_key(squares: int) -> int:
    """The range the calculator needs, in squares (X): the same full feet (II: -1 per 12), the same
    "not less than an inch away" (II COVER) and the same side of RAPID FIRE's 6" (VIII), so equal
    situations share one law."""
    rest = squares % 12
    return 12 * (squares // 12) + (min(rest, 1) if rest <= 6 else 7)


def cover_of(s: GameState, target: Token) -> str:
    """Reading ``grid_cover``: on a grid only darkness (and air ducts, "treated as darkness") gives
    cover, counted as ``full`` cover (II, V DARKNESS; VIII IFC does not ignore darkness)."""
    return "full" if s.setup.grid.is_dark(target.sq) else "none"


def _pushes(s: GameState, t: Token) -> bool:
    f = s.setup.fighters[t.profile]
    return f.has("throw") or any(arm.fx.get("knockback") for arm in f.arms)


def knockback_into(s: GameState, a: int, t: int) -> dict[str, str]:
    """VIII KNOCKBACK: "move the target 1" away from the attacker ... If they move into a wall or
    piece of cover, or into another model, they take a stun". Reading ``knockback_grid``: one
    square away (:func:`.reach.beyond`), an obstacle when :func:`.reach.blocked` (the calculator's
    ``knockback_into``), else the model is moved there (:mod:`.resolve`); the same square decides
    for both sides of a melee. Given only when a side can knock back (KNOCKBACK weapons, THROW), so
    other situations share their laws."""
    att, dfd = s.tokens[a], s.tokens[t]
    if not (_pushes(s, att) or _pushes(s, dfd)):
        return {}
    return {"knockback_into": "obstacle" if push_square(s, a, t) is None else "open"}


def push_square(s: GameState, frm: int, t: int) -> Square | None:
    """The square token ``t`` is knocked back into, away from token ``frm``, or None when it is
    blocked (:func:`.reach.blocked`)."""
    sq = beyond(s.tokens[frm].sq, s.tokens[t].sq)
    armour = s.armour_of(s.tokens[t])
    return None if blocked(s.setup.grid, sq, s.doors(), s.occupant(sq) >= 0, armour) else sq


def shot(s: GameState, a: int, t: int, weapon: str) -> str:
    """The single-attack scenario of token ``a`` firing ``weapon`` at token ``t``, as JSON text."""
    att, dfd = s.tokens[a], s.tokens[t]
    data = {
        "system": "crusade",
        "action": "shoot",
        "attacker": model_data(s, att, keep=weapon),
        "defender": model_data(s, dfd),
        "weapons": [weapon],
        "range": range_key(range_squares(att.sq, dfd.sq)),
        "cover": cover_of(s, dfd),
        "moved": s.moved > 0,
        **knockback_into(s, a, t),
    }
    return json.dumps(data, sort_keys=True)


def melee(s: GameState, a: int, t: int, opponent_number: int, mode: str = "normal") -> str:
    """The single-attack scenario of token ``a`` meleeing token ``t`` (IV; ``mode``: ``zoc`` for
    a zone-of-control melee, where SPIKY weapons add their dice), as JSON text."""
    data = {
        "system": "crusade",
        "action": "melee",
        "attacker": model_data(s, s.tokens[a]),
        "defender": model_data(s, s.tokens[t]),
        "opponent_number": opponent_number,
        "attack_mode": mode,
        **knockback_into(s, a, t),
    }
    return json.dumps(data, sort_keys=True)


__all__ = ["cover_of", "knockback_into", "melee", "model_data", "push_square", "range_key", "shot"]
