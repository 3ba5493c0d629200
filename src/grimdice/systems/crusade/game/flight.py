"""IX FLY and JUMP PACK on a table: a model's steps through the air.

IX: "FLY: May move in any direction, but must end your move on a surface ... you can enter normal
buildings by flying onto the roof! You may ignore damage from a fall." "JUMP PACK: may move through
the air (measure move as normal). Must end move standing on level terrain." Reading ``flight``: on a
table such a model also has the board's air steps (:meth:`.table.TableBoard.flights`, ``["fly",
x, y, z]``), each ending on a surface, with no rise or drop limit and no fall; an air step to a
position a plain step reaches for no more is not offered twice. No ZOC is asked of a step through
the air. FLY's falls do no damage (the calculator's FLY, :func:`~grimdice.systems.crusade.movement.falling`).
On a grid, which has no heights, the models move as others do.
"""

from __future__ import annotations

from grimdice.systems.crusade.game.board import Step
from grimdice.systems.crusade.game.state import GameState, Token, has_code

#: the abilities that give a model the air steps
FLIERS = ("FLY", "JUMP PACK")
EPS = 1e-9


def flies(s: GameState, t: Token) -> bool:
    """A revealed model with FLY or JUMP PACK."""
    return not t.blip and any(has_code(s.setup.profiles[t.profile].abilities, c) for c in FLIERS)


#: the last state's steps, kept for the step that follows its legal actions (``cost_of``)
_last: list[tuple[tuple[object, ...], list[Step]]] = [((), [])]


def steps_of(s: GameState) -> list[Step]:
    """The active model's steps: the board's, and on a table a flier's air steps. The steps of
    the last state asked are kept (keyed by the identity of what they depend on: the setup, the
    tokens, the active model, the doors and the forced entries; all immutable)."""
    kept, steps = _last[0]  # one read: another thread may replace it
    if (
        kept
        and kept[0] is s.setup
        and kept[1] is s.tokens
        and kept[2] == s.active
        and kept[3] is s.open_doors
        and kept[4] is s.breaches
    ):
        return steps
    steps = _steps_of(s)
    _last[0] = ((s.setup, s.tokens, s.active, s.open_doors, s.breaches), steps)
    return steps


def _steps_of(s: GameState) -> list[Step]:
    t = s.tokens[s.active]
    board = s.setup.board
    args = (t.sq, s.armour_of(t), s.doors(), s.sides(), t.side, s.breaches)
    steps = board.steps(*args)
    flights = getattr(board, "flights", None)
    if flights is None or not flies(s, t):
        return steps
    plain = {to: cost for kind, to, cost in steps if kind == "move"}
    return steps + [a for a in flights(*args) if plain.get(a[1], float("inf")) > a[2] + EPS]


__all__ = ["FLIERS", "flies", "steps_of"]
