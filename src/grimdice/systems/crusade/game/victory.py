"""Ours (reading ``victory``; the text has no victory conditions): the objectives that end a game
at once (``reach``) and score after the last turn (``hold``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.game import powers
from grimdice.systems.crusade.game.items import has_items
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState


@lru_cache(maxsize=64)
def _reach(setup: Setup) -> tuple[tuple[frozenset[tuple[Any, ...]], int | None], ...]:
    """Each ``reach`` objective's squares and force (None: either)."""
    reach = [o for o in setup.scenario.objectives if o.kind == "reach"]
    return tuple((frozenset(tuple(q) for q in o.squares), o.side) for o in reach)


@lru_cache(maxsize=64)
def by_place(setup: Setup) -> bool:
    """Whether where a model stands may end the game at once: a ``reach`` objective, or an item
    (V CARRYING: dropped by a fallen carrier, delivered to its squares)."""
    return bool(_reach(setup)) or has_items(setup)


def reached_by(s: GameState) -> int | None:
    """The force one of whose models stands on its ``reach`` objective (ours: ``victory``), or None."""
    reach = _reach(s.setup)
    if not reach:
        return None
    counted = powers.counted(s)  # VII PROJECTION: no ghosts
    for squares, side in reach:
        for t in counted:
            if t.standing and not t.blip and t.sq[:2] in squares and (side is None or t.side == side):
                return t.side
    return None


def hold_score(s: GameState) -> tuple[int, int]:
    """Ours: each ``hold`` objective scores its points for the force whose models alone stand on
    its squares (models standing, not blips)."""
    score, counted = [0, 0], powers.counted(s)  # VII PROJECTION: no ghosts
    for o in (o for o in s.setup.scenario.objectives if o.kind == "hold"):
        squares = {tuple(q) for q in o.squares}
        sides = {t.side for t in counted if t.standing and not t.blip and t.sq[:2] in squares}
        if len(sides) == 1:
            (side,) = sides
            if o.side is None or o.side == side:
                score[side] += o.points
    return score[0], score[1]


__all__ = ["by_place", "hold_score", "reached_by"]
