"""Where the AI of a Rules Crusade game goes to contest a ``hold`` objective on a table (ours: the
AI's choices, not rules). The rules never import this module.

On a table an enemy inside a building's sector is reached only from within that sector (VI: "You
may not melee through walls", "You may not attack across sector borders", "You may not fire
between sectors"), so the AI heads for the positions beside it in its sector (:func:`contacts`)
rather than for its cell: after a forced entry (VI FORCE ENTRY) its steps lead in through the
breach. A model standing on its force's ``hold`` squares keeps them (:func:`keeps_hold`) unless
enemies stand on that objective's squares too and another friend stands on them: then it goes to
fight for the objective, since a contested objective scores for nobody (ours: ``victory``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from grimdice.engine.table.lattice import breadth_first
from grimdice.systems.crusade.game import entry
from grimdice.systems.crusade.game.board import GridBoard, Pos
from grimdice.systems.crusade.game.fails import weapon_after
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, Token
from grimdice.systems.crusade.game.table import TableBoard
from grimdice.systems.crusade.game.table_parts import Nearest

HOLDER_WEIGHT = 3.0  # harm to an enemy on a hold objective's squares counts three times (ours)
FORCE_WORTH = 1.0  # a way into a sector where an enemy holds an objective (ours)
SPENT_WORTH = 0.1  # a weapon a forced entry leaves unloaded, jammed, lost or stuck, against its chance (ours)
HURRY_WORTH = 0.15  # a shot worth less does not hold up a model far from the objective (ours)
HURRY_STEPS = 2  # "far": more steps than this from the objective's squares (ours)


@lru_cache(maxsize=4096)
def _beside(board: TableBoard, q: Pos) -> tuple[Pos, ...]:
    """The positions in ``q``'s sector touching it (IV: adjacent there)."""
    lat = board.lattice
    return tuple(
        (n[0], n[1], z)
        for n in lat.neighbours((q[0], q[1]))
        for z in lat.levels_at(n)
        if board.adjacent((n[0], n[1], z), q, {})
    )


#: the steps the AI takes on a table (it does not jump, fall or hang and drop)
WALKS = ("move", "ladder", "scrabble")


@lru_cache(maxsize=16)
def _back_walks(board: TableBoard) -> dict[Pos, tuple[Pos, ...]]:
    """The AI's steps of the empty table, reversed: the positions one step before each."""
    back: dict[Pos, list[Pos]] = {}
    for p in board.positions():
        for kind, to, _, _ in board.static_steps(p):
            if kind in WALKS:
                back.setdefault(to, []).append(p)
    return {q: tuple(ps) for q, ps in back.items()}


@lru_cache(maxsize=4096)
def _walks_to(board: TableBoard, goal: Pos) -> dict[Pos, int]:
    back = _back_walks(board)
    return breadth_first([goal], lambda q: back.get(q, ()))


def distances(s: GameState, goals: Iterable[Pos]) -> Mapping[Pos, int]:
    """Steps to the nearest goal by the steps the AI takes (:data:`WALKS`) on a table, so that a
    path it would not take (a jump) does not leave it stuck; the board's own steps on a grid."""
    board = s.setup.board
    if isinstance(board, GridBoard):
        return _grid_nearest(board, tuple(goals))
    if not isinstance(board, TableBoard):
        return board.distances(goals)
    return _nearest(board, tuple(goals))


@lru_cache(maxsize=256)
def _grid_nearest(board: GridBoard, goals: tuple[Pos, ...]) -> Mapping[Pos, int]:
    """:func:`distances` on a grid (its walls do not change), kept for the same goals."""
    return board.distances(goals)


@lru_cache(maxsize=1024)
def _nearest(board: TableBoard, goals: tuple[Pos, ...]) -> Nearest:
    """:func:`distances` on a table, kept for the same goals (they change only as models move)."""
    aims = sorted({g for g0 in goals for g in board._expand(g0)})
    return Nearest(tuple(_walks_to(board, g) for g in aims))


def contacts(s: GameState, side: int) -> list[Pos]:
    """The enemies ``side`` knows of as goals (those standing on a ``hold`` objective's squares if
    any, else all): each one's cell, or on a table, for one inside a building's sector, the
    positions beside it in that sector (where it can be meleed)."""
    board = s.setup.board
    out: list[Pos] = []
    foes = [t for t in s.tokens if t.alive and t.side != side]
    holders = [t for t in foes if t.standing and not t.blip and weight(s, t) > 1]
    for t in holders or foes:
        if isinstance(board, TableBoard) and not t.blip and board.indoors(t.sq) >= 0:
            out.extend(_beside(board, t.sq) or (t.sq,))
        else:
            out.append(t.sq)
    return out


def keeps_hold(s: GameState, i: int, squares: set[tuple[int, ...]]) -> bool:
    """Whether model ``i``, standing on one of its ``hold`` squares, stays: unless enemies stand on
    squares of that objective too and a friend also stands on them (then it goes to fight)."""
    me = s.tokens[i]
    for o in s.setup.scenario.objectives:
        cells = {tuple(q) for q in o.squares}
        if o.kind != "hold" or me.sq[:2] not in cells:
            continue
        on = [k for k, t in enumerate(s.tokens) if t.standing and not t.blip and t.sq[:2] in cells]
        foes = any(s.tokens[k].side != me.side for k in on)
        friends = any(k != i and s.tokens[k].side == me.side for k in on)
        if foes and friends:
            return False
    return me.sq[:2] in squares


def weight(s: GameState, t: Token) -> float:
    """How much harm to enemy model ``t`` counts: :data:`HOLDER_WEIGHT` when it stands on the
    squares of a ``hold`` objective (taking it off them may win the objective), else 1."""
    return HOLDER_WEIGHT if t.sq[:2] in _hold_cells(s.setup) else 1.0


@lru_cache(maxsize=64)
def _hold_cells(setup: Setup) -> frozenset[tuple[int, ...]]:
    """The squares of the scenario's ``hold`` objectives."""
    return frozenset(tuple(q) for o in setup.scenario.objectives if o.kind == "hold" for q in o.squares)


def force_value(s: GameState, a: tuple[Any, ...]) -> float:
    """VI FORCE ENTRY ``["force", sector, weapon]``: worth :data:`FORCE_WORTH` times its
    :func:`force_worth` when an enemy in that sector stands on a ``hold`` objective's squares (the
    way in to contest it), else nothing (it is still tried when the model has nothing better to
    do: :func:`best_force`)."""
    board = s.setup.board
    sector = int(a[1])
    side = s.tokens[s.active].side
    holder = any(
        t.side != side and t.standing and board.indoors(t.sq) == sector and weight(s, t) > 1  # type: ignore[attr-defined]
        for t in s.tokens
    )
    return FORCE_WORTH * force_worth(s, a) if holder else 0.0


def force_worth(s: GameState, a: tuple[Any, ...]) -> float:
    """A forced entry's chance, less :data:`SPENT_WORTH` times the chance that its attack leaves
    one of the model's weapons not ready (VIII RELOAD: unloaded; a fail: jammed, lost, stuck): of
    two attacks about as likely to make it, the AI takes the one that keeps its weapons."""
    i, sector, weapon = s.active, int(a[1]), str(a[2])
    before = s.tokens[i].arms
    spent = 0.0
    for o, p in entry.law(s, i, sector, weapon):
        if weapon_after(s, i, str(o[2]) if len(o) > 2 else "", weapon, -1) != before:
            spent += p
    return entry.chance(s, sector, weapon) - SPENT_WORTH * spent


def best_force(s: GameState, actions: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """Of the forced entries among ``actions``, the one of the greatest :func:`force_worth` (the
    first of equals)."""
    forces = [a for a in actions if a[0] == "force"]
    worths = [force_worth(s, a) for a in forces]
    return forces[max(range(len(forces)), key=worths.__getitem__)]


def hurries(s: GameState, best: float, actions: list[tuple[Any, ...]]) -> bool:
    """On a table, with a ``hold`` objective: whether the active model, far from the objective
    (more than :data:`HURRY_STEPS` steps) with only a weak attack (worth less than
    :data:`HURRY_WORTH`), takes an extra move towards it instead of attacking (it arrives a turn
    earlier to contest it)."""
    if best >= HURRY_WORTH or ("extra",) not in actions or not isinstance(s.setup.board, TableBoard):
        return False
    me = s.tokens[s.active]
    squares = [q for o in s.setup.scenario.objectives if o.kind == "hold" for q in o.squares]
    if not squares or me.blip:
        return False
    far = distances(s, [(q[0], q[1]) for q in squares]).get(me.sq, 0)
    return far > HURRY_STEPS


def placement(s: GameState, actions: list[tuple[Any, ...]], dist: Mapping[Pos, int]) -> tuple[Any, ...]:
    """IX INFILTRATE in a battle game: of the hidden places (``["place", *p]``), the one nearest its
    goal, where it may hide first (V HIDING: in cover, so it can stay hidden); ``["end"]`` when none
    is nearer than where it stands."""
    board = s.setup.board
    places = [a for a in actions if a[0] == "place"]
    here = dist.get(s.tokens[s.active].sq, 10**6)

    def key(a: tuple[Any, ...]) -> tuple[int, bool]:
        p = tuple(int(v) for v in a[1:])
        return dist.get(p, 10**6), not board.can_hide(p)

    best = min(places, key=key, default=("end",))
    return best if best != ("end",) and key(best)[0] < here else ("end",)


__all__ = [
    "FORCE_WORTH",
    "HOLDER_WEIGHT",
    "SPENT_WORTH",
    "WALKS",
    "best_force",
    "contacts",
    "distances",
    "force_value",
    "force_worth",
    "keeps_hold",
    "placement",
    "weight",
]
