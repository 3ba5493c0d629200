"""The table board of a Rules Crusade game: inches, terrain with heights, ladders, stairs and
buildings with roofs and sectors, as a :class:`~.board.Board` over the game-agnostic
:class:`~grimdice.engine.table.lattice.Lattice` of 1" cells.

A position is ``(x, y, z)``: the cell ``(x, y)`` and the height ``z`` (whole inches) the model
stands at. Inside a building a model stands at ``z = 0`` in one of its sectors; on its roof at the
building's height. Each step below is one action (``["move", x, y, z]`` ...):

* V MOVEMENT: "Move is in inches": a step to one of the eight cells around, 1" straight or its
  length (reading ``diagonal_step``: sqrt 2") diagonally; "You may move over any obstacle or up any
  ledge that is less than the height of your model's head- measure the vertical height and count it
  as part of your move": a rise below the head (:data:`HEAD`) adds its height;
* V JUMPING: "When jumping down 3" or less, simply deduct the height from your movement": a drop of
  3" or less adds its height; "Jumping down 4" or more counts as a FALL" (``["fall", ...]``: 1 hit
  per 4", graze = stun, V FALLING); "HANG AND DROP: this reduces the jump down distance by 3""
  (``["hang", ...]``, a whole move, reading ``hang``); jumps up 2"-3" onto the cell beside and across
  gaps of lower cells (``["jump", ...]``): a roll, "1 red for every 2" of move value", ">= the
  distance + your Armor value" (+2" per 1" up), else a fall; "gaps of 1" or less" are made at once;
* V: "Short ladders (<3") cost the height in move. Tall ladders (3"-6") cost 1 full movement.
  Stairs cost the linear move": ``board.ladders`` and ``board.stairs`` link two positions;
* V SCRABBLING: up to 6" onto a ``rough`` piece beside, ``["scrabble", ...]``: a whole move, a
  roll >= 1 + armour, failure leaves the model at the bottom;
* VI MOVEMENT: "To move into a building, you must first start adjacent to any part of it": a step
  into a building is from a cell beside it; "ARMORED buildings may only be entered through clearly
  marked doors"; "When moving between adjacent sectors, you do not have to be adjacent to the
  border"; a sector that holds enemies and no friends is entered only within 3" of a forced entry
  (:mod:`.entry`).

Sight (II, VI): from the eyes (:data:`HEAD` above the feet) to the target's feet, middle and head;
"Place models inside buildings on top of the roof for LOS purposes"; a cell blocks a line passing
below its top. Seen in part: cover. See :meth:`TableBoard.cover`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grimdice.engine.table.lattice import EIGHT, Cell, Lattice, breadth_first
from grimdice.systems.crusade.game import table_parts
from grimdice.systems.crusade.game.board import FULL, Breaches, Doors, Occupied, Pos, Step
from grimdice.systems.crusade.game.table_free import Placed, free_steps, open_steps
from grimdice.systems.crusade.game.table_parts import Building, Link, Nearest, Structure, key_piece, piece_key
from grimdice.systems.crusade.game.table_sight import ALL_SEEN, HEAD, ends_of, seen_pair, seen_table

MAX_JUMP_UP = 3  # V JUMPING: "max. 3 inches up"
MAX_DROP = 3  # V JUMPING: "jumping down 3" or less, simply deduct the height"
MAX_SCRABBLE = 6  # V SCRABBLING: "rough surfaces 6" high or less"
MAX_GAP = 3  # reading jump_gap: jumps across gaps of up to 3 cells
TALL_LADDER = 3  # V: "Short ladders (<3")", "Tall ladders (3"-6")"


@dataclass(eq=False)
class TableBoard:
    """The table as a :class:`~.board.Board` (see the module text)."""

    lattice: Lattice
    buildings: tuple[Building, ...] = ()
    building_at: dict[Cell, int] = field(default_factory=dict)
    sector_at: dict[Cell, int] = field(default_factory=dict)
    rough: frozenset[Cell] = frozenset()
    links: dict[Pos, tuple[Link, ...]] = field(default_factory=dict)
    zones: dict[str, tuple[Cell, ...]] = field(default_factory=dict)
    sector_names: tuple[str, ...] = ()
    unit: str = "inch"
    door_squares: frozenset[Pos] = frozenset()
    structures: tuple[Structure, ...] = ()
    _graph: dict[Pos, tuple[Pos, ...]] = field(default_factory=dict, repr=False)
    _steps: dict[Pos, tuple[tuple[str, Pos, float, int], ...]] = field(default_factory=dict, repr=False)
    _seen_rows: dict[Pos, dict[Pos, int]] = field(default_factory=dict, repr=False)
    _dist: dict[Pos, dict[Pos, int]] = field(default_factory=dict, repr=False)
    _back: dict[Pos, list[Pos]] = field(default_factory=dict, repr=False)
    _hides: dict[Pos, bool] = field(default_factory=dict, repr=False)
    _beside: dict[Pos, tuple[int, ...]] = field(default_factory=dict, repr=False)
    _indoors: dict[Pos, int] = field(default_factory=dict, repr=False)
    _targets: list[Any] = field(default_factory=list, repr=False)  # every position, as sight's ends
    _by_row: bool = field(default=False, repr=False)  # sight worked out for the pairs asked only
    memo: dict[str, dict[Any, Any]] = field(default_factory=dict, repr=False)  # the rules' kept answers

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to worker processes) without its kept steps, lines and paths."""
        kept = {"_graph", "_steps", "_seen_rows", "_dist", "_back", "_hides", "_beside", "_indoors"}
        kept |= {"_targets", "memo"}
        return {k: (type(v)() if k in kept else v) for k, v in self.__dict__.items()}

    # ------------------------------------------------------------------ positions
    def at(self, x: int, y: int) -> Pos:
        levels = self.lattice.levels_at((x, y))
        return (x, y, levels[0] if levels else 0)

    def zone(self, name: str) -> list[Pos]:
        """A deployment zone's positions: its cells at each height, in reading order."""
        return [(x, y, z) for x, y in self.zones.get(name, ()) for z in self.lattice.levels_at((x, y))]

    def inside(self, p: Pos) -> bool:
        return self.lattice.inside((p[0], p[1]))

    def enterable(self, p: Pos, armour: int) -> bool:
        return len(p) == 3 and p[2] in self.lattice.levels_at((p[0], p[1]))

    def doors(self) -> dict[Pos, bool]:
        return {}

    def positions(self) -> list[Pos]:
        lat = self.lattice
        return [(x, y, z) for y in range(lat.height) for x in range(lat.width) for z in lat.levels_at((x, y))]

    def indoors(self, p: Pos) -> int:
        """The sector a position is inside (VI), or -1 (outside, or on a roof); kept."""
        got = self._indoors.get(p)
        if got is None:
            c = (p[0], p[1])
            got = self._indoors[p] = self.sector_at[c] if c in self.building_at and p[2] == 0 else -1
        return got

    def sector_armour(self, sector: int) -> int:
        """VI: "Normal buildings have 1 armor ... Armored buildings (sloped sides) have 2 armor"."""
        cell = next(c for c, k in self.sector_at.items() if k == sector)
        return 2 if self.buildings[self.building_at[cell]].armoured else 1

    def building_of(self, p: Pos) -> Building | None:
        c = (p[0], p[1])
        return self.buildings[self.building_at[c]] if c in self.building_at else None

    def eye_level(self, p: Pos) -> float:
        """VI: "Place models inside buildings on top of the roof for LOS purposes"."""
        b = self.building_of(p)
        return float(b.height) if b is not None and p[2] == 0 else float(p[2])

    def sectors_beside(self, p: Pos) -> tuple[int, ...]:
        """The sectors of the cells around ``p``'s cell, but the one ``p`` is inside (kept)."""
        if p not in self._beside:
            here = self.indoors(p)
            near = self.lattice.neighbours((p[0], p[1]))
            self._beside[p] = tuple(
                sorted({self.sector_at[n] for n in near if self.sector_at.get(n, here) != here})
            )
        return self._beside[p]

    def sectors_of(self, building: int) -> list[int]:
        return sorted({k for c, k in self.sector_at.items() if self.building_at[c] == building})

    def connected_sectors(self, sector: int) -> list[int]:
        """The sectors sharing a border with ``sector`` (VI: "connected sectors")."""
        cells = [c for c, k in self.sector_at.items() if k == sector]
        near = {
            self.sector_at[n]
            for c in cells
            for n in ((c[0] + dx, c[1] + dy) for dx, dy in EIGHT[:4])
            if n in self.sector_at and self.building_at[n] == self.building_at[c]
        }
        return sorted(k for k in near if k != sector)

    def ruined(self, sectors: frozenset[int]) -> TableBoard:
        """This table with ``sectors`` collapsed (VI): their cells become rubble, 1" high for sight
        and stood in at 0" (reading ``rubble``), no longer inside a building; ladders and stairs
        to their roofs are gone. A destroyed barricade (its :func:`piece_key` among ``sectors``)
        leaves open ground; a destroyed catwalk lies on the ground "as cover" (VI), 1" high for
        sight and stood in at 0" (reading ``catwalk``)."""
        levels = dict(self.lattice.levels)
        top = self.lattice.top.copy()
        gone = {c for c, k in self.sector_at.items() if k in sectors}
        for c in gone:
            levels[c] = (0,)
            top[c[1], c[0]] = 1.0
        for n, piece in enumerate(self.structures):
            if piece_key(n) in sectors:
                for c in piece.cells:
                    levels[c] = (0,)
                    top[c[1], c[0]] = 1.0 if piece.kind == "catwalk" else 0.0
        lattice = Lattice(self.lattice.width, self.lattice.height, levels, top)
        links = {
            p: tuple(ln for ln in lns if ln.to[2] in lattice.levels_at((ln.to[0], ln.to[1])))
            for p, lns in self.links.items()
            if p[2] in lattice.levels_at((p[0], p[1]))
        }
        board = TableBoard(
            lattice,
            self.buildings,
            {c: b for c, b in self.building_at.items() if c not in gone},
            {c: k for c, k in self.sector_at.items() if c not in gone},
            self.rough,
            {p: lns for p, lns in links.items() if lns},
            self.zones,
            self.sector_names,
            structures=self.structures,
            _by_row=True,
        )
        changed = {c for c in self.lattice.levels if levels[c] != self.lattice.levels[c]} | gone
        changed |= {(int(x), int(y)) for y, x in np.argwhere(top != self.lattice.top)}
        board._steps.update(self._steps_beyond(board, changed))
        return board

    def _steps_beyond(self, board: TableBoard, changed: set[Cell]) -> dict[Pos, Any]:
        """This table's kept steps from the positions ``board`` (this table changed at the cells
        ``changed``) has alike: farther than a jump and a step from every changed cell, with the same
        ladders and stairs (what :meth:`static_steps` reads lies within that reach)."""
        r = MAX_GAP + 2
        near = {(c[0] + dx, c[1] + dy) for c in changed for dx in range(-r, r + 1) for dy in range(-r, r + 1)}
        return {
            p: got
            for p, got in self._steps.items()
            if (p[0], p[1]) not in near and board.links.get(p) == self.links.get(p)
        }

    # ------------------------------------------------------------------ moving
    def steps(
        self, p: Pos, armour: int, doors: Doors, occupied: Occupied, side: int = 0, breaches: Breaches = ()
    ) -> Sequence[Step]:
        """The steps from ``p`` (see the module text), each to a free position; none into a sector
        that holds models of the other force and none of ``side``'s, unless a forced entry of that
        sector lies within 3" (VI: "any troops within 3" of the marker ... may move in")."""
        return free_steps(self, p, self.static_steps(p), occupied, side, breaches)

    def flights(
        self, p: Pos, armour: int, doors: Doors, occupied: Occupied, side: int = 0, breaches: Breaches = ()
    ) -> list[Step]:
        """IX FLY and JUMP PACK: ``("fly", to, cost)`` steps through the air (reading ``flight``):
        to any level of a cell around, however far up or down (no fall), or straight across a
        gap of up to 3 cells all lower than both ends, to a position outside buildings; measured as a move
        (V: the vertical height counts); each ends standing on a surface, a roof too (FLY: "you
        can enter normal buildings by flying onto the roof"), never through a roof or a wall."""
        lat = self.lattice
        found: list[Placed] = []
        for dx, dy in EIGHT:
            for k in range(1, MAX_GAP + 2):
                gap = [(p[0] + dx * m, p[1] + dy * m) for m in range(1, k)]
                n = (p[0] + dx * k, p[1] + dy * k)
                if not lat.inside(n) or (gap and self.indoors(p) >= 0):
                    break
                for z in lat.levels_at(n):
                    to = (n[0], n[1], z)
                    low = min(p[2], z)
                    if gap and (self.indoors(to) >= 0 or any(lat.blocks_at(c) >= low for c in gap)):
                        continue
                    if not gap and not self.passage(p, n, z):
                        continue
                    here, there = self.indoors(p), self.indoors(to)
                    cost = k * math.hypot(dx, dy) + abs(z - p[2])
                    found.append(("fly", to, cost, there if there not in (-1, here) else -1))
        return open_steps(self, p, found, occupied, side, breaches)

    def static_steps(self, p: Pos) -> tuple[tuple[str, Pos, float, int], ...]:
        """Every step from ``p`` on the empty table, with the sector it enters (or -1); kept."""
        if p not in self._steps:
            found: list[Step] = []
            for dx, dy in EIGHT:
                found.extend(self._steps_to(p, (p[0] + dx, p[1] + dy)))
            found.extend((ln.kind, ln.to, ln.cost) for ln in self.links.get(p, ()))
            found.extend(self._jumps(p))
            here = self.indoors(p)
            # VI: "If you can move into a building via the roof or a catwalk, ramp, or stairs, you do
            # not have to force entry": a roof hatch, stairs, and any step off a catwalk
            hatch = {ln.to for ln in self.links.get(p, ()) if ln.hatch or not ln.ladder}
            if table_parts.on_catwalk(self.structures, self.lattice.levels_at((p[0], p[1])), p):
                hatch |= {q[1] for q in found}
            self._steps[p] = tuple(
                (
                    kind,
                    to,
                    cost,
                    self.indoors(to) if self.indoors(to) not in (-1, here) and to not in hatch else -1,
                )
                for kind, to, cost in found
            )
        return self._steps[p]

    def passage(self, p: Pos, n: Cell, z: int) -> bool:
        """VI MOVEMENT: into, out of and between the sectors of buildings at floor level."""
        here = self.indoors(p)
        there = self.indoors((n[0], n[1], z))
        if here >= 0 and n in self.building_at and z != 0:
            return False  # from inside onto a roof: by ladders or stairs only
        if there >= 0 and here < 0 and (p[0], p[1]) in self.building_at:
            return False  # from a roof into the building: by ladders or stairs only
        lat = self.lattice
        diagonal = abs(n[0] - p[0]) == 1 and abs(n[1] - p[1]) == 1
        if diagonal and not lat.levels_at((p[0], n[1])) and not lat.levels_at((n[0], p[1])):
            return False  # no slip between two walls touching at a corner
        if here == there:
            return True
        for frm, to in ((p, (n[0], n[1], z)), ((n[0], n[1], z), p)):
            b = self.building_of(frm)
            crossing = b is not None and self.indoors(frm) >= 0 and self.building_of(to) is not b
            if crossing and b is not None and b.armoured and (frm[0], frm[1]) not in b.doors:
                return False  # VI: "ARMORED buildings may only be entered through clearly marked doors"
        return True

    def _steps_to(self, p: Pos, n: Cell) -> list[Step]:
        lat = self.lattice
        levels = lat.levels_at(n)
        if not levels:
            return []
        flat = math.hypot(n[0] - p[0], n[1] - p[1])
        out: list[Step] = []
        for z in levels:
            to = (n[0], n[1], z)
            if not self.passage(p, n, z):
                continue
            dz = z - p[2]
            if dz == 0 or 0 < dz < HEAD or -MAX_DROP <= dz < 0:
                out.append(("move", to, flat + abs(dz)))
                continue
            if 0 < dz <= MAX_JUMP_UP:
                out.append(("jump", to, flat + 2 * dz))
            if 0 < dz <= MAX_SCRABBLE and n in self.rough:
                out.append(("scrabble", to, FULL))
            if dz < -MAX_DROP:
                out.append(("fall", to, flat))
                out.append(("hang", to, FULL))
        return out

    def _jumps(self, p: Pos) -> list[Step]:
        """V JUMPING across a gap of lower cells, straight in one of the eight directions, to a
        cell at most 3" higher and at most 3" lower (the gap's cells all lower than the start)."""
        lat = self.lattice
        out: list[Step] = []
        if self.indoors(p) >= 0:
            return out
        for dx, dy in EIGHT:
            unit = math.hypot(dx, dy)
            for k in range(2, MAX_GAP + 2):
                gap = [(p[0] + dx * m, p[1] + dy * m) for m in range(1, k)]
                if any(
                    not lat.inside(c) or lat.blocks_at(c) >= p[2] or self.indoors((*c, 0)) >= 0 for c in gap
                ):
                    break
                n = (p[0] + dx * k, p[1] + dy * k)
                low = max(lat.blocks_at(c) for c in gap)
                for z in lat.levels_at(n):
                    to = (n[0], n[1], z)
                    dz = z - p[2]
                    if self.indoors(to) >= 0 or z <= low or not -MAX_DROP <= dz <= MAX_JUMP_UP:
                        continue
                    out.append(("jump", to, k * unit + 2 * max(dz, 0) - min(dz, 0)))
        return out

    def gap_of(self, p: Pos, to: Pos) -> tuple[float, int]:
        """A jump's distance straight across (the gap between the two cells) and its height up."""
        k = max(abs(to[0] - p[0]), abs(to[1] - p[1]))
        unit = math.hypot((to[0] - p[0]) / k, (to[1] - p[1]) / k)
        return (k - 1) * unit, max(0, to[2] - p[2])

    def landing(self, p: Pos, to: Pos) -> Pos:
        """Where a failed jump falls: the first cell of the gap at its lowest level (reading
        ``jump_fall``), or the start for a jump up onto the next cell."""
        k = max(abs(to[0] - p[0]), abs(to[1] - p[1]))
        if k == 1:
            return p
        c = (p[0] + (to[0] - p[0]) // k, p[1] + (to[1] - p[1]) // k)
        levels = self.lattice.levels_at(c)
        return (c[0], c[1], levels[0]) if levels else p

    # ------------------------------------------------------------------ attacking
    def range(self, a: Pos, b: Pos, down: bool = True) -> int:
        """Whole inches between the two models' feet (II: "every foot of distance"; reading
        ``table_range``); ``down=False``: without the height downward (II: "Grenades do not have
        to include downward distance when measuring for range")."""
        rise = b[2] - a[2] if down or b[2] > a[2] else 0
        return int(math.hypot(a[0] - b[0], a[1] - b[1], rise) + 1e-9)

    def _seen(self, a: Pos, b: Pos) -> int:
        """Which of :data:`SAMPLES` of a model at ``b`` ``a`` sees, as bits (bit k: sample k seen), kept
        (models do not block sight): every row at once; on a collapse's table (:meth:`ruined`), and
        from a start that is not a position, each pair when asked (:func:`.table_sight.seen_pair`)."""
        row = self._seen_rows.get(a)
        if row is None and not self._by_row and self.enterable(a, 0):
            if not self._targets:
                self._targets[:] = ends_of(self, self.positions())
            froms = [a] if self._seen_rows else self._targets[0]
            self._seen_rows.update(seen_table(self, froms, *self._targets))
            row = self._seen_rows[a]
        return seen_pair(self, a, b) if row is None or b not in row else row[b]

    def sight(self, a: Pos, b: Pos, doors: Doors, occupied: Iterable[Pos] = ()) -> bool:
        """II: line of sight to some part of the target (reading ``table_models_sight``: models
        do not block sight on a table)."""
        return self._seen(a, b) != 0

    def cover(self, a: Pos, b: Pos, doors: Doors) -> str:
        """The calculator's ``cover`` of a target at ``b`` seen from ``a``: VI "Buildings provide
        top and front cover", models inside "treated as in cover": ``full``, and "Armored buildings
        always provide cover for the troops inside, even against burn and sniper weapons":
        ``armoured``; II "If you can only see part of the target, they have Cover. If they do not
        have a roof over their head, the cover is counted as Front Cover": ``front``."""
        if self.indoors(b) >= 0:
            bld = self.building_of(b)
            return "armoured" if bld is not None and bld.armoured else "full"
        return "none" if self._seen(a, b) == ALL_SEEN else "front"

    def adjacent(self, a: Pos, b: Pos, doors: Doors) -> bool:
        """IV: touching: cells side by side or corner to corner, feet at most 1" apart in height,
        not through a wall (both in one sector, or both outside; VI: "You may not melee through
        walls", "You may not attack across sector borders")."""
        dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
        if not (-1 <= dx <= 1 and -1 <= dy <= 1 and -1 <= dz <= 1) or dx == dy == 0:
            return False
        return self.indoors(a) == self.indoors(b)

    def within(self, p: Pos, radius: int) -> list[Pos]:
        lat = self.lattice
        out: list[Pos] = []
        for y in range(max(0, p[1] - radius), min(lat.height, p[1] + radius + 1)):
            for x in range(max(0, p[0] - radius), min(lat.width, p[0] + radius + 1)):
                out.extend((x, y, z) for z in lat.levels_at((x, y)) if self.range(p, (x, y, z)) <= radius)
        return out

    def blast_reaches(self, centre: Pos, p: Pos, doors: Doors) -> bool:
        """Reading ``blast_walls``: VI "You may not spread an area or line effect weapon's attack
        between two buildings or sectors, nor between a building and targets inside": ``p`` in the
        centre's sector (or outside with it), and seen from the centre (models do not block sight)."""
        return self.indoors(centre) == self.indoors(p) and (centre == p or self._seen(centre, p) != 0)

    def beyond(self, frm: Pos, to: Pos) -> Pos:
        dx, dy = to[0] - frm[0], to[1] - frm[1]
        return (to[0] + (dx > 0) - (dx < 0), to[1] + (dy > 0) - (dy < 0), to[2])

    def obstacle(self, p: Pos, doors: Doors) -> bool:
        """VIII KNOCKBACK: "a wall or piece of cover": off the table, or a cell rising above the feet."""
        c = (p[0], p[1])
        return not self.lattice.inside(c) or self.lattice.blocks_at(c) > p[2]

    def can_hide(self, p: Pos) -> bool:
        """V HIDING "If you are in cover": reading ``table_hide``: inside a building, or beside a
        piece at least 1" above the feet."""
        if p not in self._hides:
            lat = self.lattice
            self._hides[p] = self.indoors(p) >= 0 or any(
                lat.blocks_at(n) >= p[2] + 1 for n in lat.neighbours((p[0], p[1]))
            )
        return self._hides[p]

    def dark(self, p: Pos) -> bool:
        """V HIDING "cover from smoke or darkness": a table has neither."""
        return False

    # ------------------------------------------------------------------ paths
    def graph(self) -> dict[Pos, tuple[Pos, ...]]:
        """Every step from every position, models and rolls ignored (built once)."""
        if not self._graph:
            for p in self.positions():
                self._graph[p] = tuple({to for _, to, _ in self.steps(p, 0, {}, {})})
        return self._graph

    def distances(self, goals: Iterable[Pos]) -> Nearest:
        """Steps from every position to the nearest goal (a goal ``(x, y)``: any height there):
        the least of the steps to each goal, each goal's kept (the table does not change)."""
        aims = sorted({g for g0 in goals for g in self._expand(g0)})
        return Nearest(tuple(self._steps_to_goal(g) for g in aims))

    def _steps_to_goal(self, goal: Pos) -> dict[Pos, int]:
        if goal not in self._dist:
            if not self._back:
                for p, tos in self.graph().items():
                    for q in tos:
                        self._back.setdefault(q, []).append(p)
            back = self._back
            self._dist[goal] = breadth_first([goal], lambda q: back.get(q, ()))
        return self._dist[goal]

    def _expand(self, g: Pos) -> list[Pos]:
        if len(g) == 3:
            return [g]
        return [(g[0], g[1], z) for z in self.lattice.levels_at((g[0], g[1]))]

    def connected(self, a: Pos, b: Pos) -> bool:
        graph = self.graph()
        return b in breadth_first([a], lambda q: graph.get(q, ()))

    def reachable(self, starts: Iterable[Pos], armour: int) -> set[Pos]:
        """The board's steps (:meth:`graph`) from ``starts``, models and rolls ignored."""
        graph = self.graph()
        return set(breadth_first(starts, lambda q: graph.get(q, ())))

    def free_near(self, start: Pos, armour: int, doors: Doors) -> list[Pos]:
        graph = self.graph()
        dist = breadth_first([start], lambda q: graph.get(q, ()))
        return sorted(dist, key=lambda q: (dist[q], q[1], q[0], q[2]))


__all__ = ["HEAD", "Building", "Link", "Nearest", "Structure", "TableBoard", "key_piece", "piece_key"]
