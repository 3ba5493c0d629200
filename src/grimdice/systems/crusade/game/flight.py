"""IX FLY and JUMP PACK on a table: a model's steps through the air.

IX: "FLY: May move in any direction, but must end your move on a surface ... you can enter normal
buildings by flying onto the roof! You may ignore damage from a fall." "JUMP PACK: may move through
the air (measure move as normal). Must end move standing on level terrain." Reading ``flight``: on a
table such a model also has the board's air steps (:meth:`.table.TableBoard.flights`, ``["fly",
x, y, z]``; across gaps wider than 3 cells :mod:`.long_flight`), each ending on a surface, with no
rise or drop limit and no fall; an air step to a position a plain step reaches for no more is not
offered twice. FLY's falls do no damage (the calculator's FLY,
:func:`~grimdice.systems.crusade.movement.falling`).

On a grid, which has no heights (reading ``flight_grid``), "any direction" is still X's four ("Diagonal
move is not permitted"), and a hulk's walls and closed doors reach its ceiling: what a flier flies
over is models. Its air step (``["fly", x, y]``) goes straight over squares in a row each holding
a model (as many as its move lasts), to the free square beyond that it may enter, costing a square
for each square crossed and the landing.

A flight's ZOC (reading ``flight``): an air step is asked the enemies' ZOC as a plain step is (V:
"moves within 1" of an enemy and then tries to move past"): on a table only enemies beside it,
within 1" in height, may take it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.game.board import Doors, Occupied, Step
from grimdice.systems.crusade.game.climber import with_climbs
from grimdice.systems.crusade.game.latch import steps as latched
from grimdice.systems.crusade.game.long_flight import long_flights, reach
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, Token, has_code

#: the abilities that give a model the air steps
FLIERS = ("FLY", "JUMP PACK")
EPS = 1e-9


def flies(s: GameState, t: Token) -> bool:
    """A revealed model with FLY or JUMP PACK."""
    return not t.blip and _flier(s.setup, t.profile)


@lru_cache(maxsize=1024)
def _flier(setup: Setup, profile: int) -> bool:
    """Whether the profile has FLY or JUMP PACK (kept per setup and profile)."""
    return any(has_code(setup.profiles[profile].abilities, c) for c in FLIERS)


#: the last state's steps, kept for the step that follows its legal actions (``cost_of``)
_last: list[tuple[tuple[object, ...], Sequence[Step]]] = [((), ())]


def steps_of(s: GameState) -> Sequence[Step]:
    """The active model's steps: the board's, and on a table a climber's climbs and a flier's air
    steps. The steps of the last state asked are kept (keyed by the identity of what they depend
    on: the setup, the tokens, the active model, the doors and the forced entries; all immutable)."""
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


def steps_from(s: GameState) -> Sequence[Step]:
    """The active model's steps (:func:`steps_of`), not kept: for a search over many positions."""
    return _steps_of(s)


def _steps_of(s: GameState) -> Sequence[Step]:
    return latched(s, s.active, steps_for(s, s.tokens[s.active]))  # IX LATCH ON: neither may move


def steps_for(s: GameState, t: Token) -> Sequence[Step]:
    """The steps of model ``t`` where it stands: its :func:`walks`, and a flier's air steps."""
    doors, sides = s.doors(), s.sides()
    steps = walks(s, t, doors, sides)
    if not flies(s, t):
        return steps
    return _with_flights(s, t, steps, _args(s, t, doors, sides))


def walks(s: GameState, t: Token, doors: Doors, sides: Occupied) -> Sequence[Step]:
    """The steps of model ``t`` (not a flier) where it stands, with the doors and the models'
    places given: the board's, and on a table a climber's climbs (IX CLIMB, :mod:`.climber`; as
    :func:`steps_of`, for a search over places the model is not at)."""
    return with_climbs(s, t, s.setup.board.steps(*_args(s, t, doors, sides)), sides)


def _args(s: GameState, t: Token, doors: Doors, sides: Occupied) -> tuple[Any, ...]:
    """The board's steps' arguments for model ``t`` where it stands."""
    return (t.sq, s.armour_of(t), doors, sides, t.side, s.breaches)


def _with_flights(s: GameState, t: Token, steps: Sequence[Step], args: tuple[Any, ...]) -> Sequence[Step]:
    """A flier's ``steps`` and its air steps (``args``: the board's steps' arguments)."""
    board = s.setup.board
    flights = getattr(board, "flights", None)
    if flights is None:
        return [*steps, *grid_flights(s, t)]
    plain = {to: cost for kind, to, cost in steps if kind == "move"}
    air = flights(*args) + long_flights(s, t)  # gaps of any width (reading flight)
    return [*steps, *(a for a in air if plain.get(a[1], float("inf")) > a[2] + EPS)]


def grid_flights(s: GameState, t: Token) -> list[Step]:
    """Reading ``flight_grid``: straight over squares in a row holding models (none a wall or a
    closed door; as many as its longest move, :func:`.long_flight.reach`) to the free square
    beyond, a square's move each."""
    board, doors, occupied = s.setup.board, s.doors(), s.occupied()
    armour = s.armour_of(t)
    out: list[Step] = []
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        for k in range(1, reach(s, t)):
            over = (t.sq[0] + dx * k, t.sq[1] + dy * k)
            if over not in occupied or board.obstacle(over, doors) or not board.inside(over):
                break
            land = (over[0] + dx, over[1] + dy)
            if not board.inside(land) or land in occupied:
                continue
            if not board.obstacle(land, doors) and board.enterable(land, armour):
                out.append(("fly", land, k + 1))
            break
    return out


__all__ = ["FLIERS", "flies", "grid_flights", "steps_for", "steps_from", "steps_of", "walks"]
