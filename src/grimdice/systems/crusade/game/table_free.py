"""The steps from a position on a table that a game's models leave free (:meth:`.table.TableBoard.steps`):
to a position no model holds, and into no building's sector held by enemies alone, unless a forced
entry of it lies within 3" (VI: "any troops within 3" of the marker and adjacent to the building
may move in").

The steps from a position on the empty table are kept by the table; so are, per position, the
same steps without their sectors, the positions they reach, and whether one enters a sector: a
position none of whose steps enters a sector needs only the models' positions, and when no model
holds one of those ends, its steps are all free.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from grimdice.systems.crusade.game.board import Breaches, Occupied, Pos, Step
from grimdice.systems.crusade.game.table_parts import answers

if TYPE_CHECKING:
    from grimdice.systems.crusade.game.table import TableBoard

FORCED_REACH = 3  # VI: "any troops within 3" of the marker and adjacent to the building may move in"
#: a step with the sector it enters (or -1)
Placed = tuple[str, Pos, float, int]


def free_steps(
    board: TableBoard,
    p: Pos,
    found: tuple[Placed, ...],
    occupied: Occupied,
    side: int,
    breaches: Breaches,
) -> Sequence[Step]:
    """:func:`open_steps` of the table's kept steps ``found`` from ``p`` (see the module text): when
    none enters a sector and no model holds one of their ends, the table's kept tuple of them itself
    (read only: not copied)."""
    plain, ends, entering = _plain(board, p, found)
    if entering:
        return open_steps(board, p, found, occupied, side, breaches)
    return plain if ends.isdisjoint(occupied) else [st for st in plain if st[1] not in occupied]


def open_steps(
    board: TableBoard,
    p: Pos,
    found: Sequence[Placed],
    occupied: Occupied,
    side: int,
    breaches: Breaches,
) -> list[Step]:
    """The steps of ``found`` (from ``p``) to a free position, into no sector held by enemies alone
    unless a forced entry of it lies within 3"."""
    out: list[Step] = []
    shut: dict[int, bool] = {}  # each sector entered: whether its entry is refused
    for kind, to, cost, into in found:
        if to in occupied:
            continue
        if into >= 0:
            refused = shut.get(into)
            if refused is None:
                sides = {s for q, s in occupied.items() if board.indoors(q) == into}
                forced = any(k == into and board.range(p, m) <= FORCED_REACH for m, k in breaches)
                refused = shut[into] = bool(sides) and side not in sides and not forced
            if refused:
                continue  # enemies alone inside: a forced entry first
        out.append((kind, to, cost))
    return out


def _plain(board: TableBoard, p: Pos, found: tuple[Placed, ...]) -> tuple[Any, ...]:
    """The table's steps ``found`` from ``p`` as ``(kind, to, cost)``, the positions they reach,
    and whether one enters a sector; kept with the table."""
    kept = answers(board.memo, "plain")
    got = kept.get(p)
    if got is None:
        plain = tuple((kind, to, cost) for kind, to, cost, _ in found)
        got = kept[p] = (plain, frozenset(st[1] for st in plain), any(into >= 0 for *_, into in found))
    return got


__all__ = ["FORCED_REACH", "free_steps", "open_steps"]
