"""An attack in the game as the calculator's single-attack scenario (``system: crusade``): the two
models' profiles with their condition, hits left and usable weapons, the range in squares, the
cover the board gives, whether the firer moved, the melee's place among successive opponents.
Its law is :func:`~.combat.cached_law` of the JSON text, so the game's combat is ``calculate()``'s.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from grimdice.systems.crusade.damage import CONDITIONS
from grimdice.systems.crusade.game import crew
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.latch import modifier
from grimdice.systems.crusade.game.state import READY, GameState, Token

MELEE = ""  # the weapon of a melee at a building, a sector or a barricade (IV, VI)


def model_data(s: GameState, t: Token, keep: str = "") -> dict[str, Any]:
    """A token's profile as the calculator's model: its state now and only its usable weapons
    (and weapon ``keep``, being fired: an AREA weapon's rolls after the first, once unloaded)."""
    data = dict(_dumped(s.setup.profiles[t.profile]))  # its top level only is changed below
    data["condition"] = CONDITIONS[t.cond] if t.cond < 4 else "ko"
    data["hits_left"] = t.hits
    if s.psy is not None:  # a SHIELD card (ours)
        from grimdice.systems.crusade.game.deck import armour_bonus

        data["armor"] = min(10, data.get("armor", 0) + armour_bonus(s, t))
    data["weapons"] = [
        w for w, st in zip(data["weapons"], t.arms, strict=True) if st == READY or w["name"] == keep
    ]
    return data


#: each profile's calculator model (its JSON form), kept by the profile's identity: read-only
_DUMPS: dict[int, tuple[Any, dict[str, Any]]] = {}


def _dumped(p: Any) -> dict[str, Any]:
    got = _DUMPS.get(id(p))
    if got is None or got[0] is not p:
        if len(_DUMPS) > 4096:
            _DUMPS.clear()
        got = (p, p.model_dump(by_alias=True, exclude={"move", "hits_left", "condition"}, exclude_none=True))
        _DUMPS[id(p)] = got
    return got[1]


def range_key(squares: int) -> int:
    """The calculator's range (the inches between the two models) for a range on the board (squares,
    X; whole inches between the feet on a table, reading ``table_range``). II COVER: "If your target
    is in cover and is not less than an inch away, add 1 to their armor value" (the calculator adds
    it from a range of 1 up): a model on a square or cell beside (a range of 1 or less, the "within
    1"" of ZOC and HIDING) touches the firer, nothing between them, so it is less than an inch away,
    range 0 (readings ``grid_cover``, ``table_range``); farther, the same full feet (II: "Subtract 1
    from the roll for every foot of distance"), the same side of RAPID FIRE's 6" and of BARRAGE's
    minimum range of 8" (VIII), so equal situations share one law."""
    if squares <= 1:
        return 0
    rest = squares % 12
    return 12 * (squares // 12) + (min(rest, 1) if rest <= 6 else 7 if rest < 8 else 8)


def target_row(s: GameState, n: int, t: Token, firer: Token) -> dict[str, Any]:
    """Target ``n`` of a many-target scenario: token ``t``'s calculator model, its range and cover
    from ``firer``."""
    row = model_data(s, t)
    row["name"] = f"target {n}"
    row["range"] = range_key(s.setup.board.range(firer.sq, t.sq))
    row["cover"] = cover_of(s, t, firer)
    return row


def cover_of(s: GameState, target: Token, firer: Token | None = None) -> str:
    """The calculator's ``cover`` of ``target`` seen from ``firer`` (the board's
    :meth:`~.board.Board.cover`: on a grid darkness and air ducts, reading ``grid_cover``); VIII
    ARTILLERY: a crew's front cover (:mod:`.crew`)."""
    frm = target.sq if firer is None else firer.sq
    return crew.cover(s, target, s.setup.board.cover(frm, target.sq, s.doors()))


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


def push_square(s: GameState, frm: int, t: int) -> Pos | None:
    """The place token ``t`` is knocked back into, away from token ``frm`` (the board's
    :meth:`~.board.Board.beyond`), or None when it is blocked: VIII KNOCKBACK "If they move into a
    wall or piece of cover, or into another model, they take a stun" (the board's
    :meth:`~.board.Board.obstacle`, a place holding a model, or one the model may not enter: on a
    grid an air duct, reading ``knockback_grid``)."""
    board = s.setup.board
    sq = board.beyond(s.tokens[frm].sq, s.tokens[t].sq)
    armour = s.armour_of(s.tokens[t])
    stopped = board.obstacle(sq, s.doors()) or s.occupant(sq) >= 0 or not board.enterable(sq, armour)
    if stopped and not board.enterable(sq, armour):  # VIII KNOCKBACK: "off an edge, they fall"
        from grimdice.systems.crusade.game.edge import landing

        return landing(s, sq)
    return None if stopped else sq


def _latch(s: GameState, a: int, t: int) -> dict[str, str]:
    """IX LATCH ON: "Attacks against the target will be at +1" (a melee too)."""
    return modifier(s, a, t, False)


def _grenade(s: GameState, t: Token, weapon: str) -> bool:
    return any(w.name == weapon and w.kind == "grenade" for w in s.setup.profiles[t.profile].weapons)


def shot_key(s: GameState, a: int, weapon: str, defender: dict[str, Any], inches: int, **extra: Any) -> str:
    """The single-attack scenario of token ``a`` firing ``weapon`` at ``defender`` (the calculator's
    model, building, barricade or catwalk) ``inches`` away, as JSON text (``extra``: its cover,
    knockback)."""
    return shot_text(s, a, weapon, lambda: defender, inches, None, extra)


#: the JSON texts of shots already written (:func:`shot_text`), each with the profiles and the
#: board it was written on
_SHOTS: dict[tuple[Any, ...], tuple[Any, Any, str]] = {}


def shot_text(
    s: GameState,
    a: int,
    weapon: str,
    defender: Callable[[], dict[str, Any]],
    inches: int,
    same: tuple[Any, ...] | None,
    extra: dict[str, Any],
) -> str:
    """:func:`shot_key`, with the defender's model made by ``defender()``; ``same``: what the
    defender's model is made of (then the text is kept for the same shot again, the attacker's
    profile, condition, hits and weapons, the range, its move and ``extra`` the same; not in a game
    with cards, whose SHIELD changes armour)."""
    t = s.tokens[a]
    memo: tuple[Any, ...] | None = None
    if same is not None and s.psy is None:
        extras = tuple(sorted(extra.items()))
        memo = (id(s.setup.profiles), id(s.setup.board), t.profile, t.cond, t.hits, t.arms, weapon, same)
        memo += (range_key(inches), s.moved > 0, extras)
        got = _SHOTS.get(memo)
        if got is not None and got[0] is s.setup.profiles and got[1] is s.setup.board:
            return got[2]
    data = {
        "system": "crusade",
        "action": "shoot",
        "attacker": model_data(s, t, keep=weapon),
        "defender": defender(),
        "weapons": [weapon],
        "range": range_key(inches),
        "moved": s.moved > 0,
        **extra,
    }
    text = json.dumps(data, sort_keys=True)
    if memo is not None:
        if len(_SHOTS) > 4096:
            _SHOTS.clear()
        _SHOTS[memo] = (s.setup.profiles, s.setup.board, text)
    return text


def shot(s: GameState, a: int, t: int, weapon: str) -> str:
    """The single-attack scenario of token ``a`` firing ``weapon`` at token ``t``, as JSON text."""
    att, dfd = s.tokens[a], s.tokens[t]
    inches = s.setup.board.range(att.sq, dfd.sq, down=not _grenade(s, att, weapon))
    # IX LATCH ON: +1 / -1
    extra = {"cover": cover_of(s, dfd, att), **knockback_into(s, a, t), **modifier(s, a, t, True)}
    same = ("model", dfd.profile, dfd.cond, dfd.hits, dfd.arms) if not dfd.blip else None
    return shot_text(s, a, weapon, lambda: model_data(s, dfd), inches, same, extra)


def melee(
    s: GameState, a: int, t: int, opponent_number: int, mode: str = "normal", awkward: bool = False
) -> str:
    """The single-attack scenario of token ``a`` meleeing token ``t`` (IV; ``mode``: ``zoc`` for
    a zone-of-control melee, where SPIKY weapons add their dice; ``awkward``: IV "Awkward melee= -1
    to your melee roll"), as JSON text."""
    data: dict[str, Any] = {
        "system": "crusade",
        "action": "melee",
        "attacker": model_data(s, s.tokens[a]),
        "defender": model_data(s, s.tokens[t]),
        "opponent_number": opponent_number,
        "attack_mode": mode,
        **knockback_into(s, a, t),
        **_latch(s, a, t),
    }
    if awkward:
        data["awkward"] = True
    return json.dumps(data, sort_keys=True)


def structure_melee(s: GameState, a: int, defender: dict[str, Any]) -> str:
    """The single-attack scenario of token ``a`` meleeing ``defender`` (the calculator's building,
    sector or barricade), as JSON text: VI "meleeing ... (vs. armor)", read as ``structure_melee``
    (its base melee dice and its melee weapons against the armour)."""
    data = {
        "system": "crusade",
        "action": "melee",
        "attacker": model_data(s, s.tokens[a]),
        "defender": defender,
    }
    return json.dumps(data, sort_keys=True)


__all__ = [
    "MELEE",
    "cover_of",
    "knockback_into",
    "melee",
    "model_data",
    "push_square",
    "range_key",
    "shot",
    "shot_key",
    "shot_text",
    "structure_melee",
    "target_row",
]
