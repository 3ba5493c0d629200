"""Ours (reading ``victory``; the text has no victory conditions): the checks of a scenario's
objectives against its board before any game starts, each error naming its field.

Every square an objective names (its ``squares``, an item's ``to`` squares) is on the board and
out of the walls, given once, and reachable from where a model of the force that must get there
starts or arrives (its models and blips, its reinforcement points; either force for an objective
without ``side``). A ``reach`` square is not where a model of that force starts: the game would be
won before it began. A ``hold`` square may be (a force may start on the ground it must hold), and
so may an item's ``to`` square (the item must still be carried there)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.game import board as boards
from grimdice.systems.crusade.game.board import GridBoard


def _places(board: boards.Board, sq: Sequence[int]) -> list[boards.Pos]:
    """The positions a model stands on at the scenario's ``[x, y]``: the square on a grid, the
    cell's every height on a table (an objective counts a model there at any height)."""
    if isinstance(board, GridBoard):
        return [(int(sq[0]), int(sq[1]))]
    p = board.at(int(sq[0]), int(sq[1]))
    levels = board.lattice.levels_at((p[0], p[1]))  # type: ignore[attr-defined]
    return [(p[0], p[1], z) for z in levels]


def _reachable(board: boards.Board, starts: Iterable[tuple[boards.Pos, int]]) -> set[boards.Pos]:
    """The positions reachable from ``starts`` (a position and the armour of what stands there):
    the board's :meth:`~.board.Board.reachable` for each armour (doors open, models ignored)."""
    out: set[boards.Pos] = set()
    by_armour: dict[int, list[boards.Pos]] = {}
    for p, armour in starts:
        by_armour.setdefault(armour, []).append(p)
    for armour, ps in by_armour.items():
        out |= board.reachable(ps, armour)
    return out


def check_objectives(sc: Any, board: boards.Board, pieces: Sequence[Any], groups: Sequence[Any]) -> None:
    """The objectives' squares checked against the board (see the module text); ``pieces`` and
    ``groups``: the scenario's placed models and blips and its reinforcement groups."""
    from grimdice.systems.crusade.game.scenario import square_at

    starts: list[list[tuple[boards.Pos, int]]] = [[], []]
    for pc in pieces:
        armour = max(sc.profiles[k].armour for k in pc.blip) if pc.blip else sc.profiles[pc.profile].armour
        starts[pc.side].append((pc.sq, armour))
    for g in groups:
        armour = min(sc.profiles[k].armour for k in g.models)
        starts[g.side].extend((p, armour) for p in g.points)
    reach = [_reachable(board, s) for s in starts]
    begun = [{pc.sq[:2] for pc in pieces if pc.side == f} for f in (0, 1)]
    names = [f.name for f in sc.forces]
    for i, o in enumerate(sc.objectives):
        if o.kind == "item" and (len(o.squares) != 1 or not o.to or o.side is None):
            raise ScenarioError(
                f"objectives.{i}", "an item lies on one square and needs 'side' and 'to' squares"
            )
        sides = (0, 1) if o.side is None else (o.side,)
        for part in ("squares", "to"):
            seen: set[tuple[int, int]] = set()
            for j, s in enumerate(getattr(o, part)):
                where = f"objectives.{i}.{part}.{j}"
                square_at(board, s, 0, where)
                q = (int(s[0]), int(s[1]))
                if q in seen:
                    raise ScenarioError(where, f"square {list(q)} is given twice")
                seen.add(q)
                if not any(p in reach[f] for f in sides for p in _places(board, q)):
                    who = " or ".join(repr(names[f]) for f in sides)
                    raise ScenarioError(where, f"square {list(q)} cannot be reached by a model of {who}")
                starter = next((f for f in sides if q in begun[f]), None)
                if o.kind == "reach" and starter is not None:
                    raise ScenarioError(
                        where, f"a model of {names[starter]!r} starts on {list(q)}: it would win at once"
                    )


__all__ = ["check_objectives"]
