"""An attack in the game as the calculator's single-attack scenario (``system: crusade``): the two
models' profiles with their condition, hits left and usable weapons, the range in squares, the
cover the board gives, whether the firer moved, the melee's place among successive opponents.
Its law is :func:`~.combat.cached_law` of the JSON text, so the game's combat is ``calculate()``'s.
"""

from __future__ import annotations

import json
from typing import Any

from grimdice.systems.crusade.damage import CONDITIONS
from grimdice.systems.crusade.game.state import READY, GameState, Token


def model_data(s: GameState, t: Token, keep: str = "") -> dict[str, Any]:
    """A token's profile as the calculator's model: its state now and only its usable weapons
    (and weapon ``keep``, being fired: an AREA weapon's rolls after the first, once unloaded)."""
    p = s.setup.profiles[t.profile]
    data = p.model_dump(by_alias=True, exclude={"move", "hits_left", "condition"}, exclude_none=True)
    data["condition"] = CONDITIONS[t.cond] if t.cond < 4 else "ko"
    data["hits_left"] = t.hits
    data["weapons"] = [
        w for w, st in zip(data["weapons"], t.arms, strict=True) if st == READY or w["name"] == keep
    ]
    return data


def range_key(squares: int) -> int:
    """The range the calculator needs, in the board's unit (squares, X; whole inches on a table):
    the same full feet (II: -1 per 12) and the same "not less than an inch away" (II COVER), so
    equal situations share one law."""
    return 12 * (squares // 12) + min(squares % 12, 1)


def cover_of(s: GameState, target: Token, firer: Token | None = None) -> str:
    """The calculator's ``cover`` of ``target`` seen from ``firer`` (the board's
    :meth:`~.board.Board.cover`: on a grid darkness and air ducts, reading ``grid_cover``)."""
    frm = target.sq if firer is None else firer.sq
    return s.setup.board.cover(frm, target.sq, s.doors())


def _pushes(s: GameState, t: Token) -> bool:
    f = s.setup.fighters[t.profile]
    return f.has("throw") or any(arm.fx.get("knockback") for arm in f.arms)


def knockback_into(s: GameState, a: int, t: int) -> dict[str, str]:
    """VIII KNOCKBACK: "move the target 1" away from the attacker ... If they move into a wall or
    piece of cover, or into another model, they take a stun". Reading ``knockback_grid``: the square
    beyond the target, away from the attacker, is an obstacle when it is a wall, a closed door or
    holds a model (the calculator's ``knockback_into``); the model is not moved. Given only when a
    side can knock back (KNOCKBACK weapons, THROW), so other situations share their laws."""
    att, dfd = s.tokens[a], s.tokens[t]
    if not (_pushes(s, att) or _pushes(s, dfd)):
        return {}
    board = s.setup.board

    def beyond(frm: Token, to: Token) -> str:
        sq = board.beyond(frm.sq, to.sq)
        blocked = board.obstacle(sq, s.doors()) or s.occupant(sq) >= 0
        return "obstacle" if blocked else "open"

    return {"knockback_into": beyond(att, dfd)}


def _grenade(s: GameState, t: Token, weapon: str) -> bool:
    return any(w.name == weapon and w.kind == "grenade" for w in s.setup.profiles[t.profile].weapons)


def shot(s: GameState, a: int, t: int, weapon: str) -> str:
    """The single-attack scenario of token ``a`` firing ``weapon`` at token ``t``, as JSON text."""
    att, dfd = s.tokens[a], s.tokens[t]
    data = {
        "system": "crusade",
        "action": "shoot",
        "attacker": model_data(s, att, keep=weapon),
        "defender": model_data(s, dfd),
        "weapons": [weapon],
        "range": range_key(s.setup.board.range(att.sq, dfd.sq, down=not _grenade(s, att, weapon))),
        "cover": cover_of(s, dfd, att),
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


__all__ = ["cover_of", "melee", "model_data", "range_key", "shot"]
