"""IX INFILTRATE: a free move at the start of a blip game; a start anywhere out of sight in a
battle game.

IX: "INFILTRATE: You may start Hidden. During Blip games, you may take a free move at the start of
the game. During Battle games, you may start anywhere on the board out of line of sight of enemy
models." Reading ``infiltrate``: a game is a blip game when a force has blips, else a battle game;
when a model has INFILTRATE, a round 0 comes after the roll-off and before the first round: each
player in turn (the first player first) may activate its INFILTRATE models (not those in a blip);
the other models wait. In a blip game each makes its move and no action. Reading
``infiltrate_battle``: in a battle game each instead names where it starts (``["place", *position]``)
or keeps its place (``["end"]``): any free position a model may stand on that no enemy model on the
board sees and that lies more than 1" (a square) from each (V HIDING: so that it starts hidden, as
IX says), judged as the models stand when it is placed (the first player's infiltrators first).
Round 1 then starts as usual.
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.state import GameState, Token, has_code


def _infiltrator(s: GameState, t: Token) -> bool:
    return not t.blip and has_code(s.setup.profiles[t.profile].abilities, "INFILTRATE")


def first_round(s: GameState) -> int:
    """0 in a game with an INFILTRATE model (its free move or its start out of sight), else 1."""
    return 0 if any(_infiltrator(s, t) for t in s.tokens) else 1


def may_activate(s: GameState, i: int) -> bool:
    """In round 0 only INFILTRATE models move."""
    return s.round != 0 or _infiltrator(s, s.tokens[i])


def placing(s: GameState) -> bool:
    """Whether the active model names where it starts (round 0 of a battle game)."""
    return s.round == 0 and s.active >= 0 and not any(t.blip for t in s.tokens)


def hidden_places(s: GameState, i: int) -> list[Pos]:
    """The free positions no enemy model sees and more than 1" from each (reading
    ``infiltrate_battle``), in the board's order."""
    board, me = s.setup.board, s.tokens[i]
    doors, occupied = s.doors(), s.occupied()
    foes = [t.sq for t in s.tokens if t.on_board and t.side != me.side]
    armour = s.armour_of(me)
    return [
        p
        for p in board.positions()
        if p not in occupied
        and p not in board.door_squares
        and board.enterable(p, armour)
        and all(board.range(q, p) > 1 and not board.sight(q, p, doors, occupied) for q in foes)
    ]


def placements(s: GameState) -> list[tuple[Any, ...]]:
    """``["place", *position]`` for each hidden place, and ``["end"]``: it keeps its place."""
    return [*(("place", *p) for p in hidden_places(s, s.active)), ("end",)]


def place(s: GameState, a: tuple[Any, ...]) -> GameState:
    """The model starts at the named position (hidden: IX "You may start Hidden"); its activation
    ends."""
    return s.with_token(s.active, sq=tuple(int(v) for v in a[1:]), hidden=True, done=True).idle()


__all__ = ["first_round", "hidden_places", "may_activate", "place", "placements", "placing"]
