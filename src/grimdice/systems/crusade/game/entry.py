"""FORCE ENTRY on a table (VI MOVEMENT, I ACTIONS "Attempt a forced entry, Close a forced entry").

VI: "If the building is occupied by enemy troops, you must FORCE ENTRY before moving in- make any
kind of attack on the building while adjacent, and roll > the building's armor. Do not add +1 for
area/line effect. +P still adds 1 to your roll however. If successful, place a marker next to you-
any troops within 3" of the marker and adjacent to the building may move in. If the building has
mixed forces inside, you do not have to force entry to move in. If inside the building and not
mixed forces, you may close a forced entrance that is within 3" by spending an action. ... When
moving between adjacent sectors ... you may have to force entry as if entering a building".

``["force", sector, weapon]``: the active model, beside a sector that holds enemies alone (from
outside or from another sector), attacks the building (reading ``forced_entry``): with ``weapon``
one of its ready ranged weapons, pistols or grenades, fired at range 0 (II: "Roll your weapon's
dice"), or with ``weapon`` "" a melee (IV: its base melee dice and its melee weapons, as
``structure_melee``; VIII SPIKY: "weapon dice are added to melee only if the user is Defending, or
if attacking with Overrun, ZOC, or Dive Attack", so not here). The roll is the calculator's attack
at a one-hit structure of the building's armour (VIII +P and AP add 1, no area or line +1), made
when it beats the armour. Not offered: an attack that cannot make it, a BARRAGE weapon (VIII:
"Minimum range 8""), an ARTILLERY weapon after a move (VIII: "May not move and fire"; fired, the
move ends). A chance node ``["force", made]`` or, where the roll fails a weapon (III: "A weapon
fails if it rolls a maximum value on two or more dice. The firing result still applies"),
``["force", made, failed weapon]``; the weapons are then left as any attack leaves them
(:func:`~.fails.weapon_after`: VIII RELOAD unloaded, JAM jammed, BREAK lost ...; EXPLODE's and
MALFUNCTION's rolls follow). Made, a marker (its position, the sector) lets models within 3" of it
step into that sector (the marker is where the model stands). ``["close_entry", n]``: a model
inside the marker's sector, within 3" of it, closes entry ``n``.
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.game import resolve as attacks  # resolve imports this module
from grimdice.systems.crusade.game.answers import kept
from grimdice.systems.crusade.game.artillery import codes
from grimdice.systems.crusade.game.big import is_big
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.fails import next_blast, weapon_after
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.situation import MELEE, shot_text, structure_melee
from grimdice.systems.crusade.game.state import READY, GameState
from grimdice.systems.crusade.game.table import TableBoard
from grimdice.systems.crusade.units import SHOOTING_KINDS

REACH = 3  # VI: "any troops within 3" of the marker"; "a forced entrance that is within 3""
#: a forced entry's outcomes: ``("force", made)`` or ``("force", made, failed weapon)``, each
#: with its chance
Law = tuple[tuple[tuple[Any, ...], float], ...]
_LAWS: dict[tuple[Any, ...], Law] = {}


def _held(s: GameState, sectors: tuple[int, ...]) -> set[int]:
    """Those of ``sectors`` that hold models of the other force and none of the player's (VI: not
    mixed), the models looked at once."""
    board = s.setup.board
    sides: dict[int, set[int]] = {}
    for t in s.tokens:
        if t.on_board:
            k = board.indoors(t.sq)  # type: ignore[attr-defined]
            if k in sectors:
                sides.setdefault(k, set()).add(t.side)
    return {k for k, there in sides.items() if s.player not in there}


def sectors_beside(s: GameState, i: int) -> list[int]:
    """The sectors held by enemies alone beside token ``i``'s cell (not its own)."""
    board = s.setup.board
    if not isinstance(board, TableBoard):
        return []
    p = s.tokens[i].sq
    if board.indoors(p) < 0 and p[2] != board.lattice.levels_at((p[0], p[1]))[0]:
        return []  # on a roof or a block: not beside the building's walls
    beside = board.sectors_beside(p)
    if not beside:
        return []
    held = _held(s, beside)
    # IX BIG: only through a forced entry
    return [k for k in beside if k in held or (is_big(s, i) and board.indoors(p) != k)]


def attacks_of(s: GameState, i: int) -> list[str]:
    """The attacks token ``i`` may make on a building beside it: each ready ranged weapon, pistol
    or grenade (not BARRAGE; not ARTILLERY after a move: :func:`.artillery.codes`), then a melee
    (:data:`MELEE`) when it has melee dice."""
    t = s.tokens[i]
    p = s.setup.profiles[t.profile]
    out = []
    for k, w in enumerate(p.weapons):
        if w.kind in SHOOTING_KINDS and t.arms[k] == READY:
            gun, barrage = codes(s, i, w.name)
            if not barrage and not (gun and s.moved > 0):
                out.append(w.name)
    return [*out, MELEE] if p.melee is not None else out


def actions(s: GameState) -> list[tuple[Any, ...]]:
    """``["force", sector, weapon]`` for each attack that may make it (:func:`attacks_of`) and each
    sector beside held by enemies; ``["close_entry", n]`` for each forced entry of the model's own
    sector within 3"."""
    i = s.active
    t = s.tokens[i]
    if t.blip or not isinstance(s.setup.board, TableBoard):
        return []
    board = s.setup.board
    out: list[tuple[Any, ...]] = []
    beside = sectors_beside(s, i)
    if beside:
        ways = attacks_of(s, i)
        for k in beside:
            out.extend(("force", k, w) for w in ways if chance(s, k, w) > 0)
    here = board.indoors(t.sq)
    if here < 0 or not s.breaches:
        return out  # outside, or no forced entry to close
    mixed = any(o.on_board and o.side != t.side and board.indoors(o.sq) == here for o in s.tokens)
    for n, (marker, sector) in enumerate(s.breaches):
        if sector == here >= 0 and not mixed and board.range(t.sq, marker) <= REACH:
            out.append(("close_entry", n))
    return out


def _wall(armour: int) -> dict[str, Any]:
    """The building attacked, as the calculator's one-hit structure of its armour: destroyed when
    the roll beats the armour; a barricade's rules give +P's +1 and no area or line +1 (VI)."""
    return {"name": "building wall", "kind": "barricade", "armour": armour, "hits": 1, "hits_left": 1}


def _situation(s: GameState, i: int, armour: int, weapon: str) -> str:
    """The calculator's attack of token ``i`` at the wall (JSON text): a shot at range 0 with
    ``weapon``, or its melee (:data:`MELEE`: VI "meleeing ... (vs. armor)", reading
    ``structure_melee``)."""
    if weapon != MELEE:
        return shot_text(s, i, weapon, lambda: _wall(armour), 0, ("wall", armour), {})
    return structure_melee(s, i, _wall(armour))


def law(s: GameState, i: int, sector: int, weapon: str) -> Law:
    """The outcomes of token ``i``'s forced entry into ``sector`` with ``weapon``: made or not,
    and the weapon its roll fails (III), from the calculator's law; kept by what it depends on."""
    t = s.tokens[i]
    armour = s.setup.board.sector_armour(sector)  # type: ignore[attr-defined]
    key = (s.setup, t.profile, t.cond, t.hits, t.arms, s.moved > 0, weapon, armour)
    return kept(_LAWS, key, lambda: _law(s, i, armour, weapon), 4096)


def _law(s: GameState, i: int, armour: int, weapon: str) -> Law:
    """:func:`law` worked out: the calculator's outcomes grouped by made and the weapon failed."""
    grouped: dict[tuple[Any, ...], float] = {}
    for (ds, _, failed, _, _), p in cached_law(_situation(s, i, armour, weapon)):
        made = int(ds[1] == 0)  # the wall's one hit taken: the roll beat the armour
        o = ("force", made, failed) if failed else ("force", made)
        grouped[o] = grouped.get(o, 0.0) + p
    return tuple(sorted(grouped.items(), key=lambda op: (-op[0][1], op[0][2:])))


def chance(s: GameState, sector: int, weapon: str) -> float:
    """P(the active model's attack with ``weapon`` (:data:`MELEE`: a melee) forces an entry into
    ``sector``)."""
    return sum(p for o, p in law(s, s.active, sector, weapon) if o[1])


def start(s: GameState, sector: int, weapon: str) -> GameState:
    """The attempt, an action and an attack (V HIDING: the model is revealed): its roll pending.
    VIII ARTILLERY: "May not move and fire": the move ends."""
    i = s.active
    got = law(s, i, sector, weapon)
    s = altered(s.with_token(i, hidden=False), acted=True, attacked=True)
    if weapon != MELEE and codes(s, i, weapon)[0]:
        s = altered(s, budget=0)
    return altered(s, pending=("force", i, sector, weapon, got))


def outcomes(s: GameState) -> list[tuple[tuple[Any, ...], float]]:
    return list(s.pending[4])


def resolve(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    """The roll's end: made, the marker; the weapons as the attack leaves them (III, VIII), then
    EXPLODE's or MALFUNCTION's rolls (the building is no model: none at it)."""
    _, i, sector, weapon, _ = s.pending
    failed = str(outcome[2]) if len(outcome) > 2 else ""
    s = altered(s, pending=())
    s = s.with_token(i, arms=weapon_after(s, i, failed, weapon, -1))
    if outcome[1]:
        s = altered(s, breaches=(*s.breaches, (s.tokens[i].sq, sector)))
    s, blast = attacks.fail_rolls(s, True, ((i, -1, failed),))
    return next_blast(s, blast)


def close(s: GameState, n: int) -> GameState:
    """VI: "you may close a forced entrance that is within 3" by spending an action"."""
    return altered(s, breaches=s.breaches[:n] + s.breaches[n + 1 :], acted=True)


__all__ = [
    "MELEE",
    "REACH",
    "actions",
    "attacks_of",
    "chance",
    "close",
    "law",
    "outcomes",
    "resolve",
    "sectors_beside",
    "start",
]
