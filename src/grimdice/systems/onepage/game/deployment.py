"""Deployment as the players' choices: the armies placed unit by unit, Deep Strike reserves and
arrivals, Scout deployment, deploying within a transport.

"the winner gets to deploy first. He first chooses one table side to deploy on, and then places all
of his army within 12" of his table edge. Once he is done the opposing player places all of his
army within 12" of the opposite table edge."

Deep Strike: "You may choose not to deploy a unit with this special rule with your army, and instead
keep it off the table in reserve. After round 1 you may roll one die at the beginning of each round,
and on a 4+ you may place the unit anywhere on the table, over 12" away from enemy units. Then roll
one die, and on a 1-2 the opponent may move the unit by up to 12" (must be a valid position)."

Scout: "Units with this special rule are deployed after all other units without this special rule
have been deployed. This unit may be deployed anywhere on the table over 12" away from enemy units.
If both players have units with this special rule they must roll-off to see who starts deploying
their units with this special rule first."

After the side is chosen no unit stands on the table (``UNPLACED``). The player who deploys first
places his units other than Scouts one at a time, in the order he chooses (phase ``deploy``): for
any unit not yet deployed, ``["place", u, x, y]`` (one of :func:`zone_positions`), ``["reserve",
u]`` (Deep Strike) or ``["embark", u, t]`` (an Infantry unit into a friendly transport already on
the table with room for it, see transport.py); then the other player does the same, seeing the first
army. Then the Scouts (phase ``scout``), the roll-off winner's first when both players have Scouts:
the same choices, and ``["scout", u, x, y]`` anywhere on the table. A unit with no legal choice left
when its player has nothing else to deploy is left out of the battle (our reading; it stays off the
table and scores nothing). At the start of rounds 2-4 each reserve unit rolls (``arrive``: 1 on a
4+), its owner places it (``["place", u, x, y]``), the scatter die rolls (``scatter_roll``: 1 on a
1-2) and then the opponent may move it (``["scatter", u, x, y]``, its own place first).

Positions are anchors of the unit's block (its front rank's centre). In the deployment zone: a grid
of :data:`ZONE_STEP` columns and rows :data:`ZONE_ROW` apart from the front of the zone back
(:func:`zone_grid`; where none is valid, a 1" grid, thinned to :data:`ZONE_MOST`), every base
within 12" of the player's edge. Elsewhere a 6" grid over the table (the scatter: 6" and 12" in the
8 compass directions). A valid position (our reading): every base on the table and outside
impassable and dangerous terrain, over 12" from enemy units on the table and not within 1" of any
other unit (bases never overlap).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.frozen import replace
from grimdice.engine.table import path_kernels
from grimdice.engine.table.blocks import blocks
from grimdice.engine.table.terrain import Table, Terrain, overlap
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.game.cache import memo, recall
from grimdice.systems.onepage.movement import (
    DEPLOY_ZONE,
    STRIKE_CLEARANCE,
    deep_strike_scatter,
    reserve_arrives,
)

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

ON_TABLE, RESERVE, UNPLACED = -1, -2, -3  # UNPLACED: not deployed (yet, or left out)
PHASES = ("deploy", "scout", "place", "scatter")  # a player decides
ARMY_PHASES = ("deploy", "scout")  # the armies' deployment (the others: Deep Strike arrivals)
CHANCE_PHASES = ("scoutoff", "arrive", "scatter_roll")
GRID = 6.0  # inches between candidate anchors
SCATTER = (6.0, 12.0)  # "the opponent may move the unit by up to 12""
KEEP_CLEAR = 1.0
EPS = 1e-6
ZONE_STEP = 4.0  # inches between the deployment zone's candidate columns
ZONE_ROW = 4.0  # inches between its rows, from the front of the zone back
ZONE_MARGIN = 0.5  # the front rank's bases stand this far inside the zone's front line
ZONE_MOST = 60  # candidate places at most per unit (the fine grid thinned evenly)


NO_STANDING = ("impassable", "dangerous")  # traits no model is deployed on (``state.deploy``)
NAMED = 5  # terrain pieces a deployment error names (then "and N more")


def zone_blockers(table: Table, south: bool) -> str:
    """The terrain an army could not deploy on within 12" of its edge (``south``: y = 0, else the
    far edge), for :func:`~grimdice.systems.onepage.game.state.deploy`'s error: ``" (no model may
    stand on impassable 'a' or dangerous 'b' there)"``, or ``""`` when no such piece lies (partly)
    in that zone."""
    y0 = 0.0 if south else table.depth - DEPLOY_ZONE
    zone = Terrain(
        "deployment zone",
        np.array(
            [[0, y0], [table.width, y0], [table.width, y0 + DEPLOY_ZONE], [0, y0 + DEPLOY_ZONE]], dtype=float
        ),
    )
    found = [
        f"{next(t for t in NO_STANDING if p.has(t))} {p.name!r}"
        for p in table.terrain
        if any(p.has(t) for t in NO_STANDING) and overlap(zone, p)
    ]
    if not found:
        return ""
    more = f" and {len(found) - NAMED} more" if len(found) > NAMED else ""
    return f" (no model may stand on {' or '.join(found[:NAMED])}{more} there)"


def zone_grid(
    s: GameState, u: int, step: float = ZONE_STEP, row: float = ZONE_ROW
) -> list[tuple[float, float]]:
    """Candidate anchors of unit ``u``'s block in its player's deployment zone: columns ``step``
    apart across the table, rows ``row`` apart from the front of the zone (its front rank's bases
    :data:`ZONE_MARGIN` inside the front line) back to the last where the whole block stands within
    12" of the edge; the front row first, each row from the west."""
    r = float(s.setup.radii[u])
    depth = float(s.setup.offsets[u][: s.units[u].models, 1].max())  # the ranks behind the anchor
    table = s.setup.table
    return list(_grid(r, depth, s.flip(u) > 0, table.width, table.depth, step, row))


@lru_cache(maxsize=4096)
def _grid(
    r: float, depth: float, south: bool, width: float, table_depth: float, step: float, row: float
) -> tuple[tuple[float, float], ...]:
    """:func:`zone_grid` of a block of base radius ``r`` whose ranks reach ``depth`` behind its
    anchor, on its side (``south``) of a ``width`` x ``table_depth`` table: a function of these
    numbers alone, kept across the games of a process (the same armies meet every game)."""
    front = DEPLOY_ZONE - ZONE_MARGIN - r
    rows = [front - k * row for k in range(int((front - depth - r) // row) + 1)]
    cols = [step / 2 + i * step for i in range(int(width // step))]
    return tuple((x, round(d if south else table_depth - d, 3)) for d in rows for x in cols)


def in_zone(lo: np.ndarray, hi: np.ndarray, r: float, south: bool, depth: float) -> np.ndarray:
    """``(C,)``: every base (of radius ``r``) of blocks within 12" of their player's table edge
    (``south``: the y = 0 edge, else the far edge of a table ``depth`` deep), from each block's least
    and greatest coordinates ``lo``, ``hi`` (``(C, 2)``; the base nearest the enemy decides for all:
    ``y + r`` rises with ``y``)."""
    if south:
        return np.asarray(hi[:, 1] + r <= DEPLOY_ZONE + EPS)
    return np.asarray(lo[:, 1] - r >= depth - DEPLOY_ZONE - EPS)


def zone_positions(s: GameState, u: int) -> list[tuple[float, float]]:
    """The valid places of unit ``u``'s block within 12" of its edge (:func:`zone_grid`; where
    none is valid, a 1" grid thinned evenly to :data:`ZONE_MOST`), kept in the geometry memo by
    where the units on the table stand."""

    def compute() -> list[tuple[float, float]]:
        for step in (ZONE_STEP, 1.0):
            anchors, bs, ground = zone_ground(s, u, step)
            ok = clear_of_units(s, u, bs, ground)
            found = [a for a, good in zip(anchors, ok.tolist(), strict=True) if good]
            if len(found) <= ZONE_MOST:  # none to thin out
                if found:
                    return found
                continue
            keep = np.unique(np.linspace(0, len(found) - 1, ZONE_MOST).round().astype(int))
            return [found[i] for i in keep]
        return []

    return recall(s.setup, zone_key(s, u), compute)


def zone_key(s: GameState, u: int) -> tuple[Any, ...]:
    """:func:`zone_positions`' key in the geometry memo."""
    return ("zone positions", s.standing().key, u, s.units[u].models, s.flip(u))


def zone_ground(
    s: GameState, u: int, step: float
) -> tuple[list[tuple[float, float]], np.ndarray, np.ndarray]:
    """(:func:`zone_grid`'s anchors ``step`` apart, the block at each, which of them stand within
    the zone and on open ground: :func:`ground`), kept in the geometry memo (terrain never moves)."""

    def compute() -> tuple[list[tuple[float, float]], np.ndarray, np.ndarray]:
        anchors = zone_grid(s, u, step, step)
        table, block = s.setup.table, s.block(u)
        key = (block.tobytes(), len(block), float(s.setup.radii[u]), s.flip(u) > 0, table.width, table.depth)
        bs, fits = _zone_blocks(*key, tuple(anchors))
        ok = off_terrain(s, u, bs, fits.copy())
        ok.flags.writeable = False
        return anchors, bs, ok

    return recall(s.setup, ("zone ground", u, s.units[u].models, s.flip(u), step), compute)


@lru_cache(maxsize=1024)
def _zone_blocks(
    block: bytes,
    n: int,
    r: float,
    south: bool,
    width: float,
    depth: float,
    anchors: tuple[tuple[float, float], ...],
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ground`'s blocks and its tests but terrain, for a block (its turned offsets ``block``,
    ``n`` bases of radius ``r``) at each of its zone's ``anchors`` on a ``width`` x ``depth`` table,
    within 12" of its edge (``south``): a function of these alone, kept across the games of a
    process (read-only arrays)."""
    base = np.frombuffer(block, dtype=np.float64).reshape(n, 2)
    bs = blocks(base, np.array(anchors, dtype=float).reshape(-1, 2))  # (0, n, 2) for no anchor
    lo, hi = bs.min(axis=1), bs.max(axis=1)  # the block's extent decides for all its bases
    fits = Table(width, depth).spans_on_table(lo, hi, r) & in_zone(lo, hi, r, south, depth)
    bs.flags.writeable = fits.flags.writeable = False
    return bs, fits


def grid() -> list[tuple[float, float]]:
    """Candidate anchors over the 72" x 48" table, row by row from the south-west corner."""
    return [(GRID / 2 + i * GRID, GRID / 2 + j * GRID) for j in range(8) for i in range(12)]


def valid_position(s: GameState, u: int, anchor: tuple[float, float]) -> bool:
    """A placement of unit ``u``'s block at ``anchor``: on the table, clear of impassable and
    dangerous terrain, "over 12" away from enemy units", and not within 1" of other units."""
    return bool(valid_positions(s, u, [anchor])[0])


def valid_positions(s: GameState, u: int, anchors: list[tuple[float, float]]) -> np.ndarray:
    """:func:`valid_position` for every anchor of ``anchors`` in one NumPy pass (``(C,)``; each
    element the same arithmetic as one block's models and ``base_distances``)."""
    bs, ok = ground(s, u, anchors)
    return clear_of_units(s, u, bs, ok)


def ground(s: GameState, u: int, anchors: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """(unit ``u``'s block at each of ``anchors``, ``(C, n, 2)``; ``(C,)``: every base on the
    table, off impassable and dangerous terrain)."""
    table, r = s.setup.table, s.setup.radii[u]
    n = s.units[u].models
    if not anchors:
        return np.zeros((0, n, 2)), np.zeros(0, dtype=bool)
    bs = blocks(s.setup.offsets[u][:n] * np.array([1.0, -s.flip(u)]), np.array(anchors, dtype=float))
    lo, hi = bs.min(axis=1), bs.max(axis=1)  # the block's extent decides for all its bases
    ok = table.spans_on_table(lo, hi, r)
    return bs, off_terrain(s, u, bs, ok)


def off_terrain(s: GameState, u: int, bs: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """``ok`` (changed in place) where unit ``u``'s block at ``bs`` also has no base over
    impassable or dangerous terrain: one compiled pass over those pieces, block by block."""
    table = s.setup.table
    qa, qb, box, _h, _m = table.polygons()
    if len(box) and ok.any():
        keep = table.having(*NO_STANDING)
        at = bs[ok]
        ok[ok] = ~path_kernels.groups_touch(at, at, float(s.setup.radii[u]), (qa, qb, box), keep)
    return ok


def clear_of_units(s: GameState, u: int, bs: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """``ok`` (a new array) where unit ``u``'s block at ``bs`` is also not within 1" of another
    unit on the table and over 12" from every enemy unit."""
    ok = ok.copy()
    pts, radii, starts, ids = s.others(u)
    if ids and ok.any():
        enemy = np.array([s.setup.owner[v] != s.setup.owner[u] for v in ids])
        limits = (KEEP_CLEAR - EPS, STRIKE_CLEARANCE + EPS)  # the gaps of ``blocks_gaps``, compared
        ok[ok] = path_kernels.blocks_clear(bs[ok], float(s.setup.radii[u]), pts, radii, starts, enemy, limits)
    return ok


def positions(s: GameState, u: int) -> list[tuple[float, float]]:
    anchors = grid()
    return [a for a, ok in zip(anchors, valid_positions(s, u, anchors), strict=True) if ok]


def scatter_positions(s: GameState, u: int) -> list[tuple[float, float]]:
    """Its own place (the opponent need not move it), then valid places 6" and 12" away."""
    ax, ay = s.anchors[u]
    tries = [
        (round(ax + math.cos(k * math.pi / 4) * r, 3), round(ay + math.sin(k * math.pi / 4) * r, 3))
        for k in range(8)
        for r in SCATTER
    ]
    return [(ax, ay)] + [a for a, ok in zip(tries, valid_positions(s, u, tries), strict=True) if ok]


# ------------------------------------------------------------------ the deployment sequence


def begin(s: GameState) -> GameState:
    """After the side is chosen, no unit on the table: the player who deploys first places his
    units (other than Scouts), then the other player, then the Scouts (:func:`scouts`). A unit that
    stands nowhere within 12" of its edge is refused first (:func:`check_fits`)."""
    check_fits(s)
    n = len(s.units)
    order = [
        u
        for p in (s.first, 1 - s.first)
        for u in range(n)
        if s.setup.owner[u] == p and not s.setup.units[u].has("scout")
    ]
    return next_decision(replace(s, phase="deploy", place=(UNPLACED,) * n, todo=tuple(order)))


def check_fits(s: GameState) -> None:
    """A ``ScenarioError`` naming ``deployment`` for the first unit that has no place within 12" of
    its edge on an empty table (on the zone's grid or the 1" grid): "places all of his army within
    12" of his table edge"."""
    for u in range(len(s.units)):
        if not any(zone_ground(s, u, step)[2].any() for step in (ZONE_STEP, 1.0)):
            p, south = s.setup.owner[u], s.flip(u) > 0
            raise ScenarioError(
                "deployment",
                f"army {p + 1} ({s.setup.armies[p].name}): {s.setup.units[u].name} does not fit "
                f'within 12" of the {"south" if south else "north"} edge'
                + zone_blockers(s.setup.table, south),
            )


def next_decision(s: GameState) -> GameState:
    """The next player to deploy (the owner of the first unit in ``todo``), or, once a player has no
    choice left for his units still to deploy, those left out and the next step."""
    while s.todo:
        s = replace(s, player=s.setup.owner[s.todo[0]])
        if has_choice(s):
            return s
        s = replace(s, todo=tuple(u for u in s.todo if s.setup.owner[u] != s.player))  # nothing fits
    if s.phase == "deploy":
        return scouts(s)
    return replace(s, phase="play", player=s.first).open_round()


def has_choice(s: GameState) -> bool:
    """Whether the player to deploy has a legal action: :func:`legal_actions` not empty, found kind
    by kind (:func:`choice_kinds`; a place in the zone by :func:`has_place`), stopping at the first."""
    if s.phase not in ARMY_PHASES:
        return bool(legal_actions(s))
    mine = [v for v in s.todo if s.setup.owner[v] == s.player]
    # a place in the zone first (the usual choice), found without listing them all (has_place)
    return any(has_place(s, v) for v in mine) or any(kind() for v in mine for kind in choice_kinds(s, v)[1:])


FIRST_TRIED = 8  # anchors :func:`has_place` tests before all the others


def has_place(s: GameState, u: int) -> bool:
    """Whether :func:`zone_positions` of unit ``u`` is not empty: its memo's answer when it has one,
    else the zone's anchors on open ground tested against the units (:func:`clear_of_units`, each
    anchor's answer its own) a few first, then the rest, on the 4" grid and then the 1" grid."""
    got = memo(s.setup).get(zone_key(s, u))
    if got is not None:
        return bool(got)
    for step in (ZONE_STEP, 1.0):
        _anchors, bs, ground = zone_ground(s, u, step)
        rows = np.flatnonzero(ground)
        for part in (rows[:FIRST_TRIED], rows[FIRST_TRIED:]):
            if len(part) and clear_of_units(s, u, bs[part], np.ones(len(part), dtype=bool)).any():
                return True
    return False


def scouts(s: GameState, first: int | None = None) -> GameState:
    """ "If both players have units with this special rule they must roll-off to see who starts
    deploying their units with this special rule first." """
    has = [
        [u for u in range(len(s.units)) if s.setup.owner[u] == p and s.setup.units[u].has("scout")]
        for p in (0, 1)
    ]
    if first is None:
        if has[0] and has[1]:
            return replace(s, phase="scoutoff", todo=())
        first = 0 if has[0] else 1
    return next_decision(replace(s, phase="scout", todo=tuple(has[first] + has[1 - first])))


def round_start(s: GameState) -> GameState:
    """Deep Strike: "After round 1 you may roll one die at the beginning of each round"."""
    waiting = tuple(u for u in range(len(s.units)) if s.place and s.place[u] == RESERVE)
    if s.round > 1 and waiting:
        return replace(s, phase="arrive", todo=waiting)
    return s.open_round()


def chance_outcomes(s: GameState) -> list[tuple[int, float]]:
    if s.phase == "scoutoff":  # ties re-rolled
        return [(0, 0.5), (1, 0.5)]
    law = reserve_arrives() if s.phase == "arrive" else deep_strike_scatter()
    return [(k, law[k]) for k in (0, 1)]


def legal_actions(s: GameState) -> list[list[Any]]:
    """The choices of the player to act (computed once per state)."""
    got: list[list[Any]] | None = s.__dict__.get("_legal")
    if got is None:
        got = _legal_actions(s)
        object.__setattr__(s, "_legal", got)
    return list(got)


def _legal_actions(s: GameState) -> list[list[Any]]:
    u = s.todo[0]
    if s.phase in ARMY_PHASES:
        return [a for v in s.todo if s.setup.owner[v] == s.player for a in unit_choices(s, v)]
    if s.phase == "place":
        return [["place", u, x, y] for x, y in positions(s, u)]
    return [["scatter", u, x, y] for x, y in scatter_positions(s, u)]


def unit_choices(s: GameState, u: int) -> list[list[Any]]:
    """Unit ``u``'s ways to deploy: a place within 12" of its edge, anywhere over 12" from enemy
    units (a Scout), the reserve (Deep Strike; not a transport someone deployed within) or a
    friendly transport on the table with room for it (:func:`choice_kinds`, kind by kind)."""
    return [a for kind in choice_kinds(s, u) for a in kind()]


def choice_kinds(s: GameState, u: int) -> list[Callable[[], list[list[Any]]]]:
    """Unit ``u``'s kinds of deployment choice (:func:`unit_choices`), each as the builder of its
    instances: built only when called (the random player's draw builds only the kind it drew)."""
    from grimdice.systems.onepage.game import transport

    out: list[Callable[[], list[list[Any]]]] = [lambda: [["place", u, x, y] for x, y in zone_positions(s, u)]]
    if s.phase == "scout":
        out.append(lambda: [["scout", u, x, y] for x, y in positions(s, u)])
    if s.setup.units[u].has("deep_strike") and u not in s.place:
        out.append(lambda: [["reserve", u]])
    out.append(lambda: [["embark", u, t] for t in transport.deploy_options(s, u)])
    return out


def placed(s: GameState, u: int, x: float, y: float) -> GameState:
    anchors, place = list(s.anchors), places_of(s)
    anchors[u], place[u] = (float(x), float(y)), ON_TABLE
    return replace(s, anchors=tuple(anchors), place=tuple(place))


def places_of(s: GameState) -> list[int]:
    """Where each unit is (``place``; all on the table when the state holds none)."""
    return list(s.place) or [ON_TABLE] * len(s.units)


def settle(s: GameState, u: int, where: int) -> GameState:
    place = places_of(s)
    place[u] = where
    return replace(s, place=tuple(place))


def apply(s: GameState, a: Any) -> GameState:
    todo = s.todo
    if s.phase == "scoutoff":
        return scouts(s, int(a))
    if s.phase == "arrive":
        if int(a) == 0:  # stays in reserve
            return arrivals(replace(s, todo=todo[1:]))
        if not positions(s, todo[0]):  # nowhere valid: it stays in reserve (our reading)
            return arrivals(replace(s, todo=todo[1:]))
        return replace(s, phase="place", player=s.setup.owner[todo[0]])
    if s.phase == "scatter_roll":
        if int(a) == 0:
            return arrivals(replace(s, todo=todo[1:]))
        return replace(s, phase="scatter", player=1 - s.setup.owner[todo[0]])
    kind, u = a[0], int(a[1])
    if s.phase in ARMY_PHASES:
        rest = tuple(v for v in todo if v != u)
        if kind in ("place", "scout"):
            return next_decision(replace(placed(s, u, a[2], a[3]), todo=rest))
        if kind == "reserve":
            return next_decision(replace(settle(s, u, RESERVE), todo=rest))
        if kind == "embark":
            return next_decision(replace(settle(s, u, int(a[2])), todo=rest))
    if kind == "place":
        return replace(placed(s, u, a[2], a[3]), phase="scatter_roll")
    if kind == "scatter":
        return arrivals(replace(placed(s, u, a[2], a[3]), todo=todo[1:]))
    raise ValueError(f"unknown deployment action {a!r}")


def arrivals(s: GameState) -> GameState:
    """The next reserve unit's roll, or the round's first activation."""
    if s.todo:
        return replace(s, phase="arrive")
    return replace(s, phase="play").open_round()


__all__ = [
    "ARMY_PHASES",
    "CHANCE_PHASES",
    "ON_TABLE",
    "PHASES",
    "RESERVE",
    "UNPLACED",
    "apply",
    "begin",
    "choice_kinds",
    "legal_actions",
    "round_start",
    "unit_choices",
    "valid_position",
    "zone_positions",
]
