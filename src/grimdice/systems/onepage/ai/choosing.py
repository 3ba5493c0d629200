"""The AI's pick among legal actions with the enemy's reply weighed at each move's end
(:mod:`.threat`): a Walk, Run, consolidation move, disembarking Walk or Assault loses
:data:`~.threat.WEIGHT` x (its exposure at the move's end - the unit's exposure where it stands).

Only the moves that can still be the best are valued in full: an exposure is never negative and
never above the unit's stake (:func:`.threat.stake`), so a move's value is at most its greedy value +
the weight x the exposure where it stands, itself at most the weight x the stake; moves are valued
in decreasing order of these bounds and skipped once the bound falls :data:`MARGIN` below the best
value found. Ties go to the first action in legal order (:func:`first_best`).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from grimdice.systems.onepage.ai.threat import MOVES, WEIGHT, exposure, placed_at, stake

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

MARGIN = 1e-6  # a move whose bound is this far below the best value found is skipped (choose)


def choose(
    state: GameState,
    acts: list[Any],
    values: list[float],
    weight: float = WEIGHT,
    later: Mapping[int, Callable[[], float]] | None = None,
) -> Any:
    """The first of ``acts`` with the highest value, a move's value (``values``: the greedy AI's, in
    the same order) less ``weight`` x (its exposure at the move's end - the unit's exposure where it
    stands). The same choice as valuing every move in full (a skipped move is below the best by
    more than the 1e-9 the comparison tolerates): moves are taken in decreasing order of their bound
    (see the module text; the legal order among equal bounds), a unit's exposure where it stands is
    computed only when one of its moves' stake bound reaches the best value found, and a move's
    exposure is summed only until it shows the move below that best. ``later``: for some moves,
    the function that gives their value, ``values`` holding an upper bound of it; the value is
    computed only when that bound reaches the best value found."""
    from grimdice.systems.onepage.game.transport import from_hull

    pending = dict(later or {})
    if not weight:
        return first_best(acts, [pending[i]() if i in pending else v for i, v in enumerate(values)])
    values = list(values)
    here: dict[int, float] = {}  # the exposure where each unit stands (0 aboard: no target)
    cap: dict[int, float] = {}  # its upper bound, the unit's stake there
    start: dict[int, GameState] = {}  # where each unit moves from (a passenger: the hull)
    queue: list[tuple[float, int, bool]] = []  # (- bound, index, the bound is the exact one)
    for i, a in enumerate(acts):
        if a[0] in MOVES:
            u = a[1]
            if u not in start:
                aboard = a[0] == "disembark" or not state.on_table(u)
                start[u] = from_hull(state, u, state.place[u]) if aboard else state
                if aboard:
                    here[u] = 0.0
                else:
                    cap[u] = max(0.0, stake(placed_at(state, u, None), u))
            exact = u in here
            queue.append((-(values[i] + weight * (here[u] if exact else cap[u])), i, exact))
    moves = {i for _, i, _ in queue}
    if not moves.issuperset(pending):
        raise ValueError("choose: a value given later must be a move's (threat.MOVES)")
    top = max((v for i, v in enumerate(values) if i not in moves), default=-math.inf)
    heapq.heapify(queue)  # the legal order among equal bounds
    while queue and -queue[0][0] >= top - MARGIN:
        minus, i, exact = heapq.heappop(queue)
        u = acts[i][1]
        if i in pending and exact:  # its value's bound reaches the best: its value
            values[i] = pending.pop(i)()
            heapq.heappush(queue, (-(values[i] + weight * here[u]), i, True))
            continue
        if not exact:  # the stake bound reaches the best: the exact bound, where the unit stands
            if u not in here:
                here[u] = exposure(state, u)
            heapq.heappush(queue, (-(values[i] + weight * here[u]), i, True))
            continue
        end, skip = move_end(start[u], acts[i])
        limit = (-minus - (top - MARGIN)) / weight  # an exposure over it: below the best
        seen = exposure(start[u], u, end, limit, skip)
        values[i] = values[i] - weight * (seen - here[u]) if seen <= limit else -math.inf
        top = max(top, values[i])
        moves.discard(i)
    for i in moves:  # bound below the best found: not valued
        values[i] = -math.inf
    return first_best(acts, values)


def move_end(state: GameState, a: list[Any]) -> tuple[tuple[float, float], int]:
    """Where the move ``a`` (of :data:`~.threat.MOVES`) ends, and the enemy its exposure leaves
    out: an Assault ends where its block's move does (:meth:`GameState.charge_vector`; our
    approximation of where the unit stands after the melee), its target left out (the melee's
    return strikes are in its value); the other moves at their vector, nobody left out."""
    from grimdice.systems.onepage.ai.players import moved_to

    u = a[1]
    if a[0] == "assault":
        return moved_to(state, u, state.charge_vector(u, a[2])), int(a[2])
    return moved_to(state, u, (a[2], a[3])), -1


def first_best(acts: list[list[Any]], values: list[float]) -> list[Any]:
    """The first of ``acts`` with the highest value: a later one must beat it by more than 1e-9, so
    ties (and float noise) go to the earlier action in legal order."""
    best, choice = -math.inf, acts[0]
    for a, v in zip(acts, values, strict=True):
        if v > best + 1e-9:
            best, choice = v, a
    return choice


__all__ = ["MARGIN", "choose", "first_best", "move_end"]
