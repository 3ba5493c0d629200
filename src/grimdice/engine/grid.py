"""A square-grid board (Space Hulk, sewers, catacombs): squares, walls, doors, darkness, air ducts,
manholes; movement, adjacency, range, line of sight and 3x3 areas counted in squares.

Game-agnostic; the rules it follows are those of Rules Crusade X ("SPACE HULKS/SEWERS/CATACOMBS"):

* "All movement and range is measured in squares" — :func:`range_squares` (a diagonal step counts
  as one square, as diagonal squares are adjacent) and :meth:`Grid.step_costs` (movement);
* "Diagonal move is not permitted" — :meth:`Grid.moves` gives the four orthogonal steps only;
* "Diagonal attacking is allowed if one of the two pinching squares is open. Diagonally adjacent
  squares count as being adjacent for all purposes including melee." — :meth:`Grid.adjacent`;
* "Area effect for hazards will hit the square they are in, plus all 8 adjacent squares." — the
  Crusade game's ``GridBoard.blast_reaches`` and ``around.models_around`` (a radius of one square);
* "You may treat all or any particular sections as in Darkness" — :attr:`Grid.dark`;
* "Air ducts / drains are accessible to targets with 1 or less armor and are treated as darkness.
  You may fire through air ducts." — terrain ``DUCT``;
* "Treat manholes as a 6" ladder to move up or down" — :attr:`Grid.links` (V: a tall ladder,
  3"-6", "cost[s] 1 full movement").

A board is read from a text map (:func:`grid_from_map`), one character a square:
``#`` wall, ``.`` floor, ``:`` dark floor, ``D`` closed door, ``d`` open door, ``=`` air duct,
and any letter in ``markers`` (floor squares with a label, e.g. deployment zones).
Squares are ``(x, y)``: column, row from the top-left corner.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from grimdice.errors import ScenarioError

Square = tuple[int, int]

FLOOR, WALL, DOOR_CLOSED, DOOR_OPEN, DUCT = range(5)
TERRAIN_NAMES = ("floor", "wall", "closed door", "open door", "air duct")
CHARS = {".": FLOOR, ":": FLOOR, "#": WALL, "D": DOOR_CLOSED, "d": DOOR_OPEN, "=": DUCT}
ORTHOGONAL: tuple[Square, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
EIGHT: tuple[Square, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
MAX_SIDE = 64  # squares a side (a Space Hulk board is some 30 x 30)
MAX_LINES = 200_000  # lines of sight a grid keeps (then it starts afresh)
#: a line of sight's squares and corners' pinching pairs (:func:`crossed`)
Line = tuple[tuple[Square, ...], tuple[tuple[Square, Square], ...]]
DUCT_ARMOUR = 1  # X: "accessible to targets with 1 or less armor"


@dataclass(frozen=True)
class Grid:
    """The board: terrain per square (row-major), dark squares, manhole links and markers."""

    width: int
    height: int
    terrain: tuple[int, ...]
    dark: frozenset[Square] = frozenset()
    links: tuple[tuple[Square, Square], ...] = ()
    markers: Mapping[str, frozenset[Square]] = field(default_factory=dict)
    #: each line asked of :meth:`sight`: the squares it passes through and the corners' pinching pairs
    _lines: dict[tuple[Square, Square], Line] = field(default_factory=dict, compare=False, repr=False)

    # ------------------------------------------------------------------ squares
    def inside(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def at(self, sq: Square) -> int:
        """The terrain of a square (outside the board: a wall)."""
        return self.terrain[sq[1] * self.width + sq[0]] if self.inside(sq) else WALL

    def squares(self) -> Iterator[Square]:
        for y in range(self.height):
            for x in range(self.width):
                yield (x, y)

    def is_wall(self, sq: Square) -> bool:
        return self.at(sq) == WALL

    def is_dark(self, sq: Square) -> bool:
        """X: dark sections, and air ducts ("treated as darkness")."""
        return sq in self.dark or self.at(sq) == DUCT

    def blocks_sight(self, sq: Square, doors: Mapping[Square, bool] | None = None) -> bool:
        """Walls and closed doors block sight; air ducts do not ("You may fire through air ducts")."""
        t = self.at(sq)
        if doors is not None and sq in doors:
            return not doors[sq]
        return t in (WALL, DOOR_CLOSED)

    def enterable(self, sq: Square, armour: int) -> bool:
        """A model may stand here: not a wall; an air duct only with armour <= 1 (X)."""
        t = self.at(sq)
        return t != WALL and (t != DUCT or armour <= DUCT_ARMOUR)

    def doors(self) -> dict[Square, bool]:
        """Every door square and whether it starts open (a new dict each call)."""
        return dict(self._doors)

    @cached_property
    def _doors(self) -> dict[Square, bool]:
        kinds = (DOOR_OPEN, DOOR_CLOSED)
        return {sq: self.at(sq) == DOOR_OPEN for sq in self.squares() if self.at(sq) in kinds}

    @cached_property
    def door_squares(self) -> frozenset[Square]:
        """Every door square."""
        return frozenset(self._doors)

    # ------------------------------------------------------------------ moving
    def moves(self, sq: Square) -> Iterator[Square]:
        """X: "Diagonal move is not permitted": the four orthogonal neighbours on the board."""
        x, y = sq
        for dx, dy in ORTHOGONAL:
            n = (x + dx, y + dy)
            if self.inside(n):
                yield n

    def linked(self, sq: Square) -> Iterator[Square]:
        """The squares a manhole at ``sq`` leads to (X: a 6" ladder, a full move)."""
        for a, b in self.links:
            if a == sq:
                yield b
            elif b == sq:
                yield a

    def step_costs(self, start: Square, budget: int, passable: Callable[[Square], bool]) -> dict[Square, int]:
        """Squares reachable from ``start`` with at most ``budget`` orthogonal steps through
        ``passable`` squares, each with its fewest steps (breadth-first)."""
        seen = {start: 0}
        todo = deque([start])
        while todo:
            sq = todo.popleft()
            d = seen[sq]
            if d >= budget:
                continue
            for n in self.moves(sq):
                if n not in seen and passable(n):
                    seen[n] = d + 1
                    todo.append(n)
        return seen

    def distances(self, goals: Iterable[Square]) -> dict[Square, int]:
        """Steps (orthogonal, and manholes as one) from every square but walls to the nearest of
        ``goals`` (doors count as open; models are ignored)."""
        dist = {g: 0 for g in goals}
        todo = deque(dist)
        while todo:
            sq = todo.popleft()
            for n in (*self.moves(sq), *self.linked(sq)):
                if n not in dist and not self.is_wall(n):
                    dist[n] = dist[sq] + 1
                    todo.append(n)
        return dist

    def reachable(self, starts: Iterable[Square], passable: Callable[[Square], bool]) -> Iterator[Square]:
        """The squares reachable from ``starts`` (given first) by orthogonal steps and manholes
        into ``passable`` squares, nearest first (breadth-first)."""
        seen = dict.fromkeys(starts)
        todo = deque(seen)
        while todo:
            sq = todo.popleft()
            yield sq
            for n in (*self.moves(sq), *self.linked(sq)):
                if n not in seen and passable(n):
                    seen[n] = None
                    todo.append(n)

    def connected(self, a: Square, b: Square, passable: Callable[[Square], bool]) -> bool:
        """Whether ``b`` can be reached from ``a`` by orthogonal steps and manholes at all."""
        return any(sq == b for sq in self.reachable([a], lambda n: passable(n) or n == b))

    # ------------------------------------------------------------------ attacking
    def adjacent(self, a: Square, b: Square, doors: Mapping[Square, bool] | None = None) -> bool:
        """X: orthogonal neighbours are adjacent; diagonal ones too, "if one of the two pinching
        squares is open" (not a wall or a closed door)."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        if max(abs(dx), abs(dy)) != 1:
            return False
        if dx == 0 or dy == 0:
            return True
        return not (
            self.blocks_sight((a[0] + dx, a[1]), doors) and self.blocks_sight((a[0], a[1] + dy), doors)
        )

    def neighbours(self, sq: Square, doors: Mapping[Square, bool] | None = None) -> Iterator[Square]:
        """The squares adjacent to ``sq`` (see :meth:`adjacent`)."""
        for dx, dy in EIGHT:
            n = (sq[0] + dx, sq[1] + dy)
            if self.inside(n) and self.adjacent(sq, n, doors):
                yield n

    def sight(
        self,
        a: Square,
        b: Square,
        doors: Mapping[Square, bool] | None = None,
        occupied: Iterable[Square] = (),
    ) -> bool:
        """Line of sight from the centre of ``a`` to the centre of ``b``: no square the line passes
        through (ends excluded) blocks it (walls, closed doors, and ``occupied`` squares); where the
        line passes exactly through a corner, it is blocked only if both squares pinching the
        corner block (the diagonal-attack rule of X, extended along the line)."""
        line = self._lines.get((a, b))
        if line is None:  # the walk kept: the same squares as clear_line looks at
            if len(self._lines) >= MAX_LINES:
                self._lines.clear()
            line = self._lines[a, b] = crossed(a, b)
        occ = occupied if isinstance(occupied, set | frozenset | dict) else set(occupied)

        def blocks(sq: Square) -> bool:
            return (sq in occ and sq != a and sq != b) or self.blocks_sight(sq, doors)

        squares, corners = line
        return not any(blocks(sq) for sq in squares) and not any(blocks(p) and blocks(q) for p, q in corners)


def range_squares(a: Square, b: Square) -> int:
    """X: range in squares; a diagonal step is one square (diagonal squares are adjacent)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def clear_line(a: Square, b: Square, blocks: Callable[[Square], bool]) -> bool:
    """Whether no square the segment between the centres of ``a`` and ``b`` passes through (ends
    excluded) ``blocks``; a pass exactly through a corner is blocked only when both squares
    pinching it block."""
    for kind, sq, pinch in walk(a, b):
        if kind == "corner":
            if blocks(pinch[0]) and blocks(pinch[1]):
                return False
        elif sq != b and blocks(sq):
            return False
    return True


def crossed(a: Square, b: Square) -> Line:
    """What :func:`clear_line` looks at: the squares the segment passes through (ends excluded)
    and, for each pass exactly through a corner, the two squares pinching it."""
    squares, corners = [], []
    for kind, sq, pinch in walk(a, b):
        if kind == "corner":
            corners.append(pinch)
        elif sq != b:
            squares.append(sq)
    return tuple(squares), tuple(corners)


def walk(a: Square, b: Square) -> Iterator[tuple[str, Square, tuple[Square, Square]]]:
    """The squares the segment between the centres of ``a`` and ``b`` enters, in order, ending at
    ``b``: ``("square", sq, ...)``; a pass exactly through a corner is ``("corner", sq, (p, q))``
    with the two squares pinching it, then the square beyond it. Integer arithmetic only."""
    nx, ny = abs(b[0] - a[0]), abs(b[1] - a[1])
    sx, sy = (1 if b[0] > a[0] else -1), (1 if b[1] > a[1] else -1)
    x, y = a
    ix = iy = 0
    none: tuple[Square, Square] = (a, a)
    while ix < nx or iy < ny:
        side = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if side == 0:
            yield "corner", (x + sx, y + sy), ((x + sx, y), (x, y + sy))
            x, y, ix, iy = x + sx, y + sy, ix + 1, iy + 1
        elif side < 0:
            x, ix = x + sx, ix + 1
        else:
            y, iy = y + sy, iy + 1
        yield "square", (x, y), none


def grid_from_map(
    text: str,
    *,
    where: str = "board.map",
    markers: Sequence[str] = (),
    dark: Iterable[Square] | str = (),
    links: Iterable[tuple[Square, Square]] = (),
) -> Grid:
    """A :class:`Grid` from a text map (see the module text). ``dark``: squares in darkness, or
    ``"all"``; ``:`` squares are dark too. ``links``: manhole pairs. Errors name ``where``."""
    rows = [r.rstrip() for r in text.strip("\n").splitlines()]
    if not rows or not any(rows):
        raise ScenarioError(where, "an empty map; give rows of # . : D d = characters")
    width, height = max(len(r) for r in rows), len(rows)
    if width > MAX_SIDE or height > MAX_SIDE:
        raise ScenarioError(where, f"at most {MAX_SIDE} x {MAX_SIDE} squares, got {width} x {height}")
    terrain: list[int] = []
    dark_set: set[Square] = set()
    marks: dict[str, set[Square]] = {m: set() for m in markers}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row.ljust(width, "#")):
            if ch in marks:
                marks[ch].add((x, y))
                terrain.append(FLOOR)
            elif ch in CHARS:
                terrain.append(CHARS[ch])
                if ch == ":":
                    dark_set.add((x, y))
            else:
                allowed = "# . : D d =" + "".join(f" {m}" for m in markers)
                raise ScenarioError(
                    f"{where}.{y}", f"unknown square {ch!r} at column {x}; allowed: {allowed}"
                )
    grid = Grid(width, height, tuple(terrain))
    if dark == "all":
        dark_set.update(grid.squares())
    elif isinstance(dark, str):
        raise ScenarioError("board.dark", "'all' or a list of [x, y] squares")
    else:
        dark_set.update(tuple(sq) for sq in dark)  # type: ignore[misc]
    pairs = tuple((tuple(a), tuple(b)) for a, b in links)
    for i, (a, b) in enumerate(pairs):
        for sq in (a, b):
            if not grid.inside(sq) or grid.is_wall(sq):  # type: ignore[arg-type]
                raise ScenarioError(f"board.manholes.{i}", f"square {list(sq)} is off the board or a wall")
    return Grid(
        width,
        height,
        tuple(terrain),
        frozenset(dark_set),
        pairs,  # type: ignore[arg-type]
        {m: frozenset(s) for m, s in marks.items()},
    )


__all__ = [
    "DOOR_CLOSED",
    "DOOR_OPEN",
    "DUCT",
    "FLOOR",
    "WALL",
    "Grid",
    "Square",
    "clear_line",
    "crossed",
    "grid_from_map",
    "range_squares",
    "walk",
]
