"""What the Rules Crusade rules ask of a board, and the square-grid board (section X) behind it.

The rules (:mod:`.rules`, :mod:`.moves`, :mod:`.situation`, :mod:`.zoc`, :mod:`.fails`,
:mod:`.items`) ask a board only these questions, so the same rules play on the square grid of X
(:class:`GridBoard`, over :mod:`grimdice.engine.grid`) and on a table in inches with terrain,
heights and buildings (:class:`~.table.TableBoard`):

* positions: ``at(x, y)`` (where a model stands on a scenario's ``[x, y]``), ``zone(name)`` (a
  deployment zone's positions in reading order), ``inside``,
  ``enterable`` (a model of that armour may stand there);
* ``steps(p, armour, doors, occupied, side)``: the steps a model of force ``side`` may take from
  ``p`` (``occupied``: each model's position and force; ``breaches``: a table's forced entries),
  each
  ``(kind, to, cost)`` in the board's unit; a cost of :data:`FULL` is a whole move (V: a tall
  ladder, X: a manhole), taken only before any other step;
* ``range(a, b, down)``: range in the board's unit (squares or whole inches), for II's range
  penalty (``down=False``: without the distance downward, II: "Grenades do not have to include
  downward distance");
* ``sight(a, b, doors, occupied)`` (II: line of sight from where the model stands) and
  ``cover(a, b, doors)``: the calculator's ``cover`` value of a target at ``b`` seen from ``a``;
* ``adjacent(a, b, doors)``: touching, for melee (IV), picking up (V), ZOC (V);
* ``within(p, radius)``: the positions within a radius; ``blast_reaches(centre, p, doors)``:
  whether an area effect centred at ``centre`` reaches a model at ``p`` without passing a wall (VI;
  reading ``blast_walls``, :mod:`.around`);
* ``beyond(frm, to)``: the position one step beyond ``to`` away from ``frm`` (VIII KNOCKBACK), and
  ``obstacle(p, doors)``: whether it is a wall or a piece of cover there;
* ``can_hide(p)``: cover to hide in (V HIDING: cover, smoke or darkness); ``dark(p)``: smoke or
  darkness there (IX TALL, BIG: the only cover they hide in);
* ``distances(goals)``: steps from every position to the nearest goal (players' planning),
  ``connected(a, b)``: a path between two positions at all, ``reachable(starts, armour)``: every
  position a model of that armour could walk to (scenario checks, :mod:`.goals`);
* doors (``door_squares``, ``doors()``) for boards that have them (none on a table).

Positions are tuples of ints: ``(x, y)`` squares on a grid, ``(x, y, level)`` on a table.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Protocol, cast

from grimdice.engine.grid import Grid, Square, range_squares

Pos = tuple[int, ...]
Doors = Mapping[Pos, bool]
#: a step's cost that is a model's whole move (V: tall ladders "cost 1 full movement")
FULL = -1
Step = tuple[str, Pos, float]
Occupied = Mapping[Pos, int]  # each model's position and its force
Breaches = tuple[tuple[Pos, int], ...]  # a table's forced entries: (marker, sector)


class Board(Protocol):
    """The questions the Crusade rules ask of a board (see the module text)."""

    unit: str
    door_squares: frozenset[Pos]

    def at(self, x: int, y: int) -> Pos: ...
    def zone(self, name: str) -> list[Pos]: ...
    def inside(self, p: Pos) -> bool: ...
    def enterable(self, p: Pos, armour: int) -> bool: ...
    def positions(self) -> list[Pos]: ...
    def doors(self) -> dict[Pos, bool]: ...
    def steps(
        self, p: Pos, armour: int, doors: Doors, occupied: Occupied, side: int = 0, breaches: Breaches = ()
    ) -> Sequence[Step]: ...
    def range(self, a: Pos, b: Pos, down: bool = True) -> int: ...
    def sight(self, a: Pos, b: Pos, doors: Doors, occupied: Iterable[Pos] = ()) -> bool: ...
    def cover(self, a: Pos, b: Pos, doors: Doors) -> str: ...
    def adjacent(self, a: Pos, b: Pos, doors: Doors) -> bool:
        """Whether models at ``a`` and ``b`` touch: only ever among the 8 squares (cells) around."""
        ...

    def within(self, p: Pos, radius: int) -> list[Pos]: ...
    def blast_reaches(self, centre: Pos, p: Pos, doors: Doors) -> bool: ...
    def beyond(self, frm: Pos, to: Pos) -> Pos: ...
    def obstacle(self, p: Pos, doors: Doors) -> bool: ...
    def can_hide(self, p: Pos) -> bool: ...
    def dark(self, p: Pos) -> bool: ...
    def distances(self, goals: Iterable[Pos]) -> Mapping[Pos, int]: ...
    def connected(self, a: Pos, b: Pos) -> bool: ...
    def reachable(self, starts: Iterable[Pos], armour: int) -> set[Pos]:
        """The positions a model of ``armour`` could walk to from ``starts`` (doors open, models
        and rolls ignored)."""
        ...

    def free_near(self, start: Pos, armour: int, doors: Doors) -> list[Pos]: ...


def _sq(p: Pos) -> Square:
    return cast(Square, p)


class GridBoard:
    """The square grid of X as a :class:`Board`: a thin adapter over :class:`~grimdice.engine.grid.Grid`."""

    unit = "square"

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        self.door_squares = cast(frozenset[Pos], grid.door_squares)

    def at(self, x: int, y: int) -> Pos:
        return (x, y)

    def zone(self, name: str) -> list[Pos]:
        """A deployment zone's squares (its letter on the map), in reading order."""
        return sorted(self.grid.markers.get(name, ()), key=lambda s: (s[1], s[0]))

    def inside(self, p: Pos) -> bool:
        return self.grid.inside(_sq(p))

    def enterable(self, p: Pos, armour: int) -> bool:
        return self.grid.enterable(_sq(p), armour)

    def positions(self) -> list[Pos]:
        """Every square of the board, in reading order."""
        return list(self.grid.squares())

    def doors(self) -> dict[Pos, bool]:
        return cast(dict[Pos, bool], self.grid.doors())

    def steps(
        self, p: Pos, armour: int, doors: Doors, occupied: Occupied, side: int = 0, breaches: Breaches = ()
    ) -> list[Step]:
        """X: the four orthogonal steps ("Diagonal move is not permitted"), a square each: into a
        free square, or opening / closing the door there (reading ``door_cost``); a manhole is a
        6" ladder, a whole move (V)."""
        grid = self.grid
        out: list[Step] = []
        for n in grid.moves(_sq(p)):
            if n in doors and not doors[n]:
                out.append(("open", n, 1))
            elif n not in occupied and grid.enterable(n, armour):
                out.append(("move", n, 1))
            elif n in doors and doors[n] and n not in occupied:
                out.append(("close", n, 1))
        out.extend(("manhole", m, FULL) for m in grid.linked(_sq(p)) if m not in occupied)
        return out

    def range(self, a: Pos, b: Pos, down: bool = True) -> int:
        return range_squares(_sq(a), _sq(b))

    def sight(self, a: Pos, b: Pos, doors: Doors, occupied: Iterable[Pos] = ()) -> bool:
        grid_doors = cast(Mapping[Square, bool], doors)
        return self.grid.sight(_sq(a), _sq(b), grid_doors, cast(Iterable[Square], occupied))

    def cover(self, a: Pos, b: Pos, doors: Doors) -> str:
        """Reading ``grid_cover``: on a grid only darkness (and air ducts, "treated as darkness")
        gives cover: the calculator's ``darkness``, full cover (II, V DARKNESS) that IX TALL and BIG
        models keep ("cannot take cover ... except from smoke/darkness")."""
        return "darkness" if self.grid.is_dark(_sq(b)) else "none"

    def adjacent(self, a: Pos, b: Pos, doors: Doors) -> bool:
        return self.grid.adjacent(_sq(a), _sq(b), cast(Mapping[Square, bool], doors))

    def within(self, p: Pos, radius: int) -> list[Pos]:
        x, y = p[0], p[1]
        return [
            (x + dx, y + dy)
            for dy in range(-radius, radius + 1)
            for dx in range(-radius, radius + 1)
            if self.grid.inside((x + dx, y + dy))
        ]

    def blast_reaches(self, centre: Pos, p: Pos, doors: Doors) -> bool:
        """Reading ``blast_walls``: the centre sees ``p`` past walls and closed doors (models do not
        stop a blast); X's 3 x 3 hazard area is radius 1 (a diagonal square behind two pinching
        walls is not reached)."""
        return centre == p or self.grid.sight(_sq(centre), _sq(p), cast(Mapping[Square, bool], doors))

    def beyond(self, frm: Pos, to: Pos) -> Pos:
        dx, dy = to[0] - frm[0], to[1] - frm[1]
        return (to[0] + (dx > 0) - (dx < 0), to[1] + (dy > 0) - (dy < 0))

    def obstacle(self, p: Pos, doors: Doors) -> bool:
        return self.grid.blocks_sight(_sq(p), cast(Mapping[Square, bool], doors))

    def can_hide(self, p: Pos) -> bool:
        """V HIDING in darkness (X: dark sections and air ducts)."""
        return self.grid.is_dark(_sq(p))

    def dark(self, p: Pos) -> bool:
        """V DARKNESS ("Counts as cover"): the cover IX TALL and BIG may still hide in (X: dark
        sections and air ducts, "treated as darkness"): where a model may hide (:meth:`can_hide`)."""
        return self.can_hide(p)

    def distances(self, goals: Iterable[Pos]) -> dict[Pos, int]:
        return cast(dict[Pos, int], self.grid.distances(cast(Iterable[Square], goals)))

    def connected(self, a: Pos, b: Pos) -> bool:
        grid = self.grid
        return grid.connected(_sq(a), _sq(b), lambda sq: not grid.is_wall(sq))

    def reachable(self, starts: Iterable[Pos], armour: int) -> set[Pos]:
        """V, X: orthogonal steps and manholes into squares ``armour`` may enter (air ducts only
        with armour 1 or less), doors open, models ignored."""
        grid = self.grid
        found = grid.reachable(cast(Iterable[Square], starts), lambda sq: grid.enterable(sq, armour))
        return set(cast(Iterator[Pos], found))

    def free_near(self, start: Pos, armour: int, doors: Doors) -> list[Pos]:
        """Squares reachable from ``start``, nearest by steps first (then reading order)."""
        grid = self.grid

        def passable(sq: Square) -> bool:
            return grid.enterable(sq, armour) and not (sq in doors and not doors[sq])

        reach = grid.step_costs(_sq(start), grid.width * grid.height, passable)
        return [sq for sq, _ in sorted(reach.items(), key=lambda kv: (kv[1], kv[0][1], kv[0][0]))]


__all__ = ["FULL", "Board", "Breaches", "Doors", "GridBoard", "Occupied", "Pos", "Step"]
