"""A ladder blocked by an enemy at its far end, on a table (V MOVEMENT).

V: "To traverse ladders that are blocked by an enemy at the opposite end, you must spend your
action to awkward melee your opponent- if you tie or lose, you cannot take other actions and must
wait at the starting end of the ladder."

``["ladder_melee", j]``: the active model, at one end of a ladder whose other end holds enemy ``j``,
spends its action on an awkward melee (IV: "-1 to your melee roll (you may parry if being attacked
though)"), the calculator's melee with ``awkward: true``. Reading ``ladder_melee``: the melee is won
when it harms the opponent; on a tie or a loss the model's move ends where it stands; on a win it
may climb when the far end is free (the opponent killed, knocked out of the way or moved), as any
step; the opponent may snap fire before it (IX SNAP FIRE: "If you are attacked in melee").
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.game import situation, snap
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState
from grimdice.systems.crusade.game.table import TableBoard


def actions(s: GameState) -> list[tuple[Any, ...]]:
    """``["ladder_melee", j]`` for each enemy holding the far end of a ladder at the model's feet."""
    board = s.setup.board
    me = s.tokens[s.active]
    if not isinstance(board, TableBoard) or me.blip:
        return []
    found = set()
    for ln in board.links.get(me.sq, ()):
        j = s.occupant(ln.to) if ln.ladder else -1
        if j >= 0 and s.tokens[j].side != me.side and not s.tokens[j].blip and s.tokens[j].standing:
            found.add(j)
    return [("ladder_melee", j) for j in sorted(found)]


def start(s: GameState, j: int) -> GameState:
    """The awkward melee across the ladder, pending (the opponent's snap fire first)."""
    i = s.active
    s = altered(s.with_token(i, hidden=False).with_token(j, hidden=False), acted=True, attacked=True)
    s = altered(s, meleed=(*s.meleed, j))
    key = situation.melee(s, i, j, len(s.meleed), awkward=True)
    return snap.ask(s, ("attack", "ladder", i, j, key, ""))  # IX SNAP FIRE: "attacked in melee"


def after(before: GameState, s: GameState, j: int) -> GameState:
    """V: "if you tie or lose, you cannot take other actions and must wait at the starting end"."""
    was, now = before.tokens[j], s.tokens[j]
    return altered(s, budget=0) if (was.cond, was.hits) == (now.cond, now.hits) else s


__all__ = ["actions", "after", "start"]
