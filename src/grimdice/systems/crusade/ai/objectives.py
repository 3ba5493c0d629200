"""Where the Rules Crusade AI goes (ours: the rules give no objectives; the scenario's are
docs/crusade-game.md's): its goals (an item's ``to`` squares when it carries it; its force's
``reach`` objectives and lying items; else the enemies it knows of and its ``hold`` squares), and
whether it keeps its place instead (on a ``hold`` square; VIII ARTILLERY's piece and crew,
:mod:`.crew`)."""

from __future__ import annotations

from functools import lru_cache

from grimdice.systems.crusade.ai import aim, crew
from grimdice.systems.crusade.game import charge, items
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState


@lru_cache(maxsize=64)
def holds(setup: Setup, side: int) -> frozenset[Pos]:
    """The squares of the ``hold`` objectives of ``side`` (or of both sides)."""
    return frozenset(
        setup.board.at(q[0], q[1])
        for o in setup.scenario.objectives
        if o.kind == "hold" and o.side in (None, side)
        for q in o.squares
    )


def _item_goals(s: GameState, side: int, me: int) -> list[Pos]:
    """An item's ``to`` squares for its carrier; else the force's items lying on the board."""
    own = [
        (n, k) for n, k in enumerate(items.item_objectives(s)) if s.setup.scenario.objectives[k].side == side
    ]
    for n, k in own:
        if s.items[n][1] == me >= 0:
            return [s.setup.board.at(q[0], q[1]) for q in s.setup.scenario.objectives[k].to]
    return [items.where(s, n) for n, _ in own if s.items[n][1] < 0]


def goals(s: GameState, side: int, me: int = -1) -> list[Pos]:
    """The squares its item goes to, if it carries one; the force's ``reach`` squares and lying
    items; else the enemies it knows of and its ``hold`` squares not yet held by a friend."""
    carried = _item_goals(s, side, me)
    if me >= 0 and items.carries(s, me) and carried:
        return carried
    reach = carried + [
        s.setup.board.at(q[0], q[1])
        for o in s.setup.scenario.objectives
        if o.kind == "reach" and o.side == side
        for q in o.squares
    ]
    if reach:
        return reach
    friends = {t.sq for t in s.tokens if t.standing and t.side == side}
    free = holds(s.setup, side) - friends
    if me >= 0 and s.tokens[me].sq in holds(s.setup, side):
        free = frozenset()  # it stands on one already: it does not shuffle between them
    return aim.contacts(s, side) + sorted(free)


def where(state: GameState) -> tuple[list[Pos], bool] | None:
    """Where the active model goes: None when it keeps its place (on its ``hold`` square; VIII
    ARTILLERY: the piece, or a crew model within 1" of it), else its goals (V CHARGE: beside its
    target, once it charges) and whether they are its piece's posts (:mod:`.crew`)."""
    me = state.tokens[state.active]
    if not me.blip and aim.keeps_hold(state, state.active, {p[:2] for p in holds(state.setup, me.side)}):
        return None  # it holds its objective
    if crew.emplaced(state, state.active):  # VIII ARTILLERY: the piece keeps its place
        return None
    posts = None if me.blip else crew.post(state, state.active)  # VIII ARTILLERY: its piece's cover
    if posts is not None and me.sq in posts:
        return None
    target = charge.melee_target(state) if state.charging else -1  # V CHARGE: on to its target
    to = list(charge.beside(state, target)) if target >= 0 else goals(state, me.side, state.active)
    return posts or to, posts is not None


__all__ = ["goals", "holds", "where"]
