"""Moves in a One Page 40k game state: where a unit may go (Walk, Run, the 1" rule, terrain, whole bases
along whole paths) and the Assault move (functions of a :class:`~.state.GameState`, bound to it as its
methods)."""

from __future__ import annotations

import math
from functools import partial
from itertools import compress
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.frozen import replace
from grimdice.engine.table import kernels, move_kernels
from grimdice.engine.table.blocks import EPS, blocks, blocks_touch
from grimdice.engine.table.kernels import units_clear
from grimdice.engine.table.sweeps import CONTACT_SLACK
from grimdice.engine.table.terrain import EPS as TABLE_EPS
from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.game import charge_paths, facing, move_ways
from grimdice.systems.onepage.game.cache import recall
from grimdice.systems.onepage.game.move_ways import FRACTIONS, LARGE, LARGE_FRACTIONS
from grimdice.systems.onepage.game.places import standing_centre
from grimdice.systems.onepage.game.setup import Setup
from grimdice.systems.onepage.movement import move_distance

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

KEEP_CLEAR = 1.0  # "Units may not move within 1" of other units ... when walking and running."


def trunc3(x: float) -> float:
    """``x`` cut (towards zero) to 0.001": a logged move never exceeds its allowance."""
    return math.trunc(x * 1000) / 1000


def cover_centres(setup: Setup) -> list[tuple[float, float]]:
    """The centre (mean corner) of every cover piece that is not impassable: where a move may go to
    take cover (kept in the geometry memo)."""

    def compute() -> list[tuple[float, float]]:
        pieces = [p for p in setup.table.terrain if p.has("cover") and not p.has("impassable")]
        return [(float(c[0]), float(c[1])) for c in (p.corners.mean(axis=0) for p in pieces)]

    return recall(setup, ("cover centres",), compute)


def first_contact(a: np.ndarray, b: np.ndarray, w: np.ndarray, reach: float) -> float:
    """How far the models ``a`` move along the unit vector ``w`` before the first of their bases touches
    one of ``b`` (centres ``reach`` apart): the least root ``s >= 0`` of ``|a_i + s w - b_j| = reach``
    over all pairs (infinity when no pair meets)."""
    v = b[None, :, :] - a[:, None, :]  # (n, m)
    along = v @ w
    off2 = (v * v).sum(axis=2) - along * along
    disc = reach * reach - off2
    meet = (disc >= 0) & (along > 0)
    if not meet.any():
        return math.inf
    s = along[meet] - np.sqrt(disc[meet])
    return max(0.0, float(s.min()))


def placement_ok(
    state: GameState, u: int, start: tuple[float, float], end: tuple[float, float]
) -> tuple[bool, bool, bool]:
    """(legal, crossed difficult, crossed dangerous) for moving unit ``u``'s block from
    ``start`` to ``end``: on the table, not into or through impassable terrain (Flying: "may
    move through ... impassable terrain"), never closer than 1" to another unit unless already
    closer. :meth:`placements` for one end, in one compiled pass (``move_kernels.leg_checks``)."""
    return paths_ok(state, u, state.models(u, start), state.block(u) + np.array(end, dtype=float))


def paths_ok(state: GameState, u: int, a: np.ndarray, b: np.ndarray) -> tuple[bool, bool, bool]:
    """:func:`placement_ok` for unit ``u``'s models each moving straight from ``a[i]`` to ``b[i]`` (a
    change of shape, ``shapes.py``: the first row the longest path, ``units_clear``'s reach)."""
    size = (state.setup.table.width, state.setup.table.depth)
    ok, difficult, dangerous = move_kernels.leg_checks(
        a,
        b,
        state.setup.radii[u],
        size,
        leg_terrain(state, u),
        kernel_rules(state, u)[3],  # the other units where they stand
        (TABLE_EPS, EPS, CONTACT_SLACK, KEEP_CLEAR),
    )
    return bool(ok), bool(difficult), bool(dangerous)


def leg_terrain(state: GameState, u: int) -> tuple[Any, ...] | None:
    """:func:`paths_ok`'s terrain (kept in the memo); None for Flying: "they may ignore terrain effects"."""
    flying, table = state.setup.units[u].has("flying"), state.setup.table
    return None if flying else recall(state.setup, ("leg terrain",), partial(_leg_terrain, table))


def _leg_terrain(table: Table) -> tuple[Any, ...]:
    """The pieces' polygons, the impassable, difficult and dangerous masks."""
    qa, qb, box, _h, _m = table.polygons()
    return (qa, qb, box), table.having("impassable"), table.having("difficult"), table.having("dangerous")


def placements(
    state: GameState,
    u: int,
    start: tuple[float, float],
    ends: np.ndarray,
    only: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:meth:`placement_ok` for many end anchors ``ends`` (``(C, 2)``) at once: three ``(C,)``
    arrays (legal, crossed difficult, crossed dangerous; the last two False where not legal).
    ``only`` (``(C,)``): report difficult terrain only where it is True, and leave dangerous
    terrain unchecked (False). Each candidate's answer depends on it alone."""
    table = state.setup.table
    a = state.models(u, start)
    bs = blocks(state.block(u), ends)
    c = len(bs)
    ok, touch = state.terrain(u, a, bs)
    if ok.any():
        ok[ok] = state.kept_clear(u, start, a, bs[ok])
    if touch is None:  # Flying: "they may ignore terrain effects"
        return ok, np.zeros(c, dtype=bool), np.zeros(c, dtype=bool)
    difficult = ok & touch[:, table.having("difficult")].any(axis=1)
    if only is not None:
        return ok, difficult & only, np.zeros(c, dtype=bool)
    return ok, difficult, ok & touch[:, table.having("dangerous")].any(axis=1)


def terrain(state: GameState, u: int, a: np.ndarray, bs: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """(``(C,)``: every base of the block at ``bs[c]`` on the table and the move from ``a`` not
    into or through impassable terrain; ``(C, k)``: the impassable, difficult and dangerous
    pieces each move enters, leaves or crosses, or None for Flying: "may move through ...
    impassable terrain", "they may ignore terrain effects"), every piece and candidate in one
    pass (``geometry.blocks_touch``)."""
    table = state.setup.table
    bounds = bs.min(axis=1), bs.max(axis=1)
    ok = table.spans_on_table(*bounds, state.setup.radii[u])
    if state.setup.units[u].has("flying"):
        return ok, None
    keep = table.having("impassable", "difficult", "dangerous")
    touch = blocks_touch(table, a, bs, keep, state.setup.radii[u])
    ok &= ~touch[:, table.having("impassable")].any(axis=1)
    return ok, touch


def kept_clear(
    state: GameState,
    u: int,
    start: tuple[float, float],
    a: np.ndarray,
    bs: np.ndarray,
    among: np.ndarray | None = None,
) -> np.ndarray:
    """``(C,)``: moving unit ``u``'s models from ``a`` (its block at ``start``) to ``bs[c]``
    ends no closer than 1" to another unit on the table, nor closer than it was to one already
    within 1" ("Units may not move within 1" of other units"; the gaps signed, so bases in
    contact may not move onto each other), and no base passes over another unit's base on the
    way (:meth:`swept_clear`; Flying: "may move through other units"). ``among``: a mask over
    ``standing().ids``, the units to keep clear of (all when None). A move of length L changes
    no gap by more than L: a unit over L + 1" away is not tested (``kernels.units_clear``)."""
    st = state.standing()
    if not st.ids or not len(bs):
        return np.ones(len(bs), dtype=bool)
    others = np.asarray(st.ids) != u
    if among is not None:
        others &= among
    sweeping = not state.setup.units[u].has("flying")
    r = state.setup.radii[u]
    return np.asarray(
        units_clear(
            a, bs, r, (st.pts, st.radii, st.starts, others), sweeping, (KEEP_CLEAR, EPS, CONTACT_SLACK)
        )
    )


def swept_clear(state: GameState, u: int, a: np.ndarray, bs: np.ndarray, among: np.ndarray) -> np.ndarray:
    """``(C,)``: no base of unit ``u`` moving straight from ``a`` to ``bs[c]`` passes over a base
    of the units ``among`` marks (a mask over ``standing().ids``): the capsule each base sweeps
    (``sweeps.sweeps_meet_bases``, in ``kernels.units_clear``). Flying units "may move through
    other units". A unit whose bases start over another unit's (leaving the transport it was in)
    may move off them."""
    st = state.standing()
    if state.setup.units[u].has("flying") or not among.any() or not len(bs):
        return np.ones(len(bs), dtype=bool)
    r = state.setup.radii[u]
    clear = units_clear(a, bs, r, (st.pts, st.radii, st.starts, among), True, (-1.0, EPS, CONTACT_SLACK))
    return np.asarray(clear)


def moves(state: GameState, u: int, kind: str, full: float | None = None) -> list[tuple[float, float]]:
    """Candidate block moves: 8 compass directions, towards each enemy unit (stopping over 1"
    away) and into each cover piece in reach, each at the longest legal length (up to ``full``
    inches; default: the action's distance): the full, half or quarter length. A large unit
    (:data:`LARGE` models or more) tries 16 compass directions, also 30 and 60 degrees either side
    of the line to the nearest enemy unit, and three quarters of each length too."""
    full = move_distance(state.setup.units[u], kind) if full is None else full
    return state.moves_within(u, (full,))[0]


def moves_within(state: GameState, u: int, fulls: tuple[float, ...]) -> list[list[tuple[float, float]]]:
    """:meth:`moves` for several allowances at once (e.g. Walk and Run): every direction's lengths
    of every allowance are checked, the moves cut to 0.001" and each allowance's repeats dropped in
    one compiled pass (``move_kernels.longest_moves``)."""
    ax, ay = state.anchors[u]
    towards: list[tuple[float, float, float]] = []  # (unit vector, gap less the 1" kept clear)
    st = state.standing()
    gaps = state.gaps(u)[1] if u in st.at else None
    for t in st.sides[1 - state.setup.owner[u]]:
        cx, cy = unit_centre(state, t)
        d = math.hypot(cx - ax, cy - ay)
        if d > EPS:
            g = max(0.0, (state.gap(u, t) if gaps is None else gaps[st.at[t]]) - KEEP_CLEAR - 0.05)
            towards.append(((cx - ax) / d, (cy - ay) / d, g))
    covers: list[tuple[float, float, float]] = []
    for cx, cy in cover_centres(state.setup):
        d = math.hypot(cx - ax, cy - ay)
        if d > EPS:
            covers.append(((cx - ax) / d, (cy - ay) / d, d))
    a = state.models(u)
    large = len(a) >= LARGE
    ux, uy, length, sizes = move_ways.ways(fulls, large, towards, covers)
    fractions = LARGE_FRACTIONS if large else FRACTIONS
    block = (a, state.block(u), state.anchors[u], state.setup.radii[u])
    ways = (np.array(ux), np.array(uy), np.array(length), fractions, np.array(sizes, dtype=np.int64))
    found, kept = move_kernels.longest_moves(block, ways, kernel_rules(state, u))
    ends: list[tuple[float, float]] = list(map(tuple, found.tolist()))
    offered: list[bool] = kept.tolist()
    out: list[list[tuple[float, float]]] = []
    i = 0
    for size in sizes:  # each allowance's distinct moves, in order
        out.append(list(compress(ends[i : i + size], offered[i : i + size])))
        i += size
    return out


def unit_centre(state: GameState, t: int) -> tuple[float, float]:
    """Unit ``t``'s centre where it stands (:meth:`GameState.centre`): kept per state (a state is
    frozen; its units' moves all aim at the same centres) and with the standing rows of a unit on
    the table (``places.standing_centre``; else in the geometry memo by the unit's place)."""
    mine: dict[int, tuple[float, float]] | None = state.__dict__.get("_centres")
    if mine is None:
        mine = {}
        object.__setattr__(state, "_centres", mine)
    got = mine.get(t)
    if got is None:
        got = standing_centre(state.standing(), t)
        if got is None:
            c = recall(state.setup, ("centre", state.placed(t)), partial(state.centre, t))
            got = (float(c[0]), float(c[1]))
        mine[t] = got
    return got


def block_moves(
    state: GameState,
    u: int,
    ux: np.ndarray,
    uy: np.ndarray,
    steps: np.ndarray,
    at: tuple[float, float] | None = None,
) -> np.ndarray:
    """``(W, F)``: for each direction ``(ux[w], uy[w])``, the longest of its lengths ``steps[w]``
    (:data:`FRACTIONS` or :data:`LARGE_FRACTIONS` of it, longest first, 0.5" at least) by which
    unit ``u``'s block may move from where it stands (or from the anchor ``at``, the other units
    where they stand: a two-leg move's waypoint), marked True (shorter ones are not tested): on
    the table, not into or through impassable terrain, and over its Walk distance not through
    difficult terrain ("the unit may not move more than its Walk action distance"; Strider: "treat
    difficult terrain as open terrain when moving"; Flying: "may move through ... impassable
    terrain", "they may ignore terrain effects"), then :meth:`kept_clear` of the other units; in one
    compiled pass (``kernels.block_moves``)."""
    return np.asarray(
        kernels.block_moves(
            state.models(u, at),
            state.block(u),
            state.anchors[u] if at is None else at,
            ux,
            uy,
            steps,
            state.setup.radii[u],
            *kernel_rules(state, u),
        )
    )


def kernel_rules(state: GameState, u: int) -> tuple[Any, ...]:
    """What the compiled move tests read besides the block and its directions (``kernels.block_moves``'
    last six arguments): the table's size, its polygons with the impassable and difficult masks
    (both empty for Flying: "they may ignore terrain effects"; difficult empty for Strider), the Walk
    distance, the other units where they stand, whether bases may not pass over them (not Flying),
    and the tolerances: kept per state and unit (a state is frozen; a unit's one-leg moves, its
    two-leg moves' waypoints and second legs read the same)."""
    mine: dict[int, tuple[Any, ...]] | None = state.__dict__.get("_kernel_rules")
    if mine is None:
        mine = {}
        object.__setattr__(state, "_kernel_rules", mine)
    got = mine.get(u)
    if got is None:
        got = mine[u] = _kernel_rules(state, u)
    return got


def _kernel_rules(state: GameState, u: int) -> tuple[Any, ...]:
    unit, table, st = state.setup.units[u], state.setup.table, state.standing()
    flying = unit.has("flying")
    masks = recall(
        state.setup, ("move masks", flying, unit.has("strider")), partial(_masks, table, flying, unit)
    )
    among = np.asarray(st.ids, dtype=np.int64) != u if st.ids else np.zeros(len(st.starts), dtype=bool)
    return (
        (table.width, table.depth),
        masks,
        move_distance(unit, "walk"),
        (st.pts, st.radii, st.starts, among),
        not flying,
        (TABLE_EPS, EPS, CONTACT_SLACK, KEEP_CLEAR),
    )


def _masks(table: Table, flying: bool, unit: Any) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    qa, qb, box, _h, _m = table.polygons()
    nothing = np.zeros(len(box), dtype=bool)
    impassable = nothing if flying else table.having("impassable")
    difficult = nothing if flying or unit.has("strider") else table.having("difficult")
    return (qa, qb, box), impassable, difficult


def moved(state: GameState, u: int, dx: float, dy: float) -> GameState:
    ax, ay = state.anchors[u]
    anchors = list(state.anchors)
    anchors[u] = (round(ax + dx, 3), round(ay + dy, 3))
    out = replace(state, anchors=tuple(anchors))
    if "_standing" in state.__dict__:  # its rows, once asked, are ``state``'s with u's moved (places.py)
        object.__setattr__(out, "_moved_from", (state.__dict__["_standing"], u))
    return out


def charged(state: GameState, u: int, t: int) -> GameState:
    """The state after ``u``'s Assault move at ``t`` (a Vehicle turns to the move's direction):
    the block's move (:meth:`charge_vector`); its models' own moves on into base contact are
    counted from ``charge`` when the melee's strikers are (``melee_moves.assaulters_moved``):
    where the block started, the allowance, and a two-leg move's waypoint anchor.
    Their allowance is :func:`assault_allowance`."""
    from grimdice.systems.onepage.game.legs import waypoint_anchor  # legs reads this module

    dx, dy = state.charge_vector(u, t)
    ax, ay = state.anchors[u]
    first = charge_leg(state, u, t)
    via = () if first is None else waypoint_anchor(state, u, first)
    s = replace(state, charge=(float(ax), float(ay), assault_allowance(state, u), *via))
    return facing.turned(s.moved(u, dx, dy), u, dx, dy)


def assault_allowance(state: GameState, u: int) -> float:
    """How far ``u``'s assaulting models may move: the Assault's distance, or the one a ``charge``
    already set gives (a Furious unit out of a transport: Walk distance, ``transport.apply``)."""
    full = move_distance(state.setup.units[u], "assault")
    return min(full, state.charge[2]) if state.charge else full


def charge_leg(state: GameState, u: int, t: int) -> tuple[float, float] | None:
    """The first leg ``(wx, wy)`` of ``u``'s Assault on ``t`` when it goes round in two legs
    (``charge_legs.py``), else None."""
    return charge_paths.path(state, u, t, direct_vector(state, u, t))[2]


def straight_charge_ok(state: GameState, u: int, t: int) -> bool:
    """:func:`charge_ok` on one straight leg (no two-leg path, ``charge_legs.py``): an Embark, and a
    Furious unit's Assault out of a transport, move straight."""
    _move, ok, first = charge_paths.path(state, u, t, direct_vector(state, u, t))
    return ok and first is None


def charge_vector(state: GameState, u: int, t: int, unit: bool = False) -> tuple[float, float]:
    """The Assault move: the block straight towards the closest enemy model until bases touch, or
    where that line is not clear the first clear one of ``charge_paths`` (``unit``: the unit vector
    towards the closest enemy model instead)."""
    direct = direct_vector(state, u, t, unit)
    return direct if unit else charge_paths.chosen(state, u, t, direct)[0]


def direct_vector(state: GameState, u: int, t: int, unit: bool = False) -> tuple[float, float]:
    """The block straight towards the closest enemy model until bases touch (``unit``: the unit
    vector of that direction instead); kept in the geometry memo by both units' places."""
    key = ("charge vector", state.placed(u), state.placed(t), unit)
    return recall(state.setup, key, lambda: _charge_vector(state, u, t, unit))


def _charge_vector(state: GameState, u: int, t: int, unit: bool) -> tuple[float, float]:
    a, b = state.models(u), state.models(t)
    d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
    i, j = np.unravel_index(int(np.argmin(d)), d.shape)
    vec = b[j] - a[i]
    dist = float(np.linalg.norm(vec))
    gap = dist - state.setup.radii[u] - state.setup.radii[t]
    if unit:
        return (float(vec[0] / dist), float(vec[1] / dist)) if dist > EPS else (0.0, 0.0)
    if dist < EPS or gap <= 0:
        return 0.0, 0.0
    w = vec / dist
    go = min(gap, first_contact(a, b, w, state.setup.radii[u] + state.setup.radii[t]))
    return round(float(w[0] * go), 3), round(float(w[1] * go), 3)


def charge_ok(state: GameState, u: int, t: int) -> bool:
    """A valid Assault target: in reach with "a clear path to it" (on the table, no impassable
    terrain on the way; the move's length capped at Walk distance through difficult terrain;
    kept in the geometry memo by both units' places), and an end no closer than 1" to a friendly
    unit (nor closer than it already was): "Units may move within 1" of enemy units when using
    assault actions", only of them. The path is the first clear one ``charge_paths`` finds."""
    return charge_paths.chosen(state, u, t, direct_vector(state, u, t))[1]


def _charge_ok(state: GameState, u: int, move: tuple[float, float]) -> bool:
    """The block's ``move`` on the table, through no impassable terrain, and over difficult terrain
    no longer than the Walk distance."""
    ok, difficult = charge_terrain(state, u, move)
    if ok and difficult:
        return math.hypot(*move) <= move_distance(state.setup.units[u], "walk") + EPS
    return ok


def charge_terrain(state: GameState, u: int, move: tuple[float, float]) -> tuple[bool, bool]:
    """(the block's ``move`` ends on the table and crosses no impassable terrain, it touches
    difficult terrain: False for Strider and Flying, which treat it as open)."""
    ok, slow = charge_terrains(state, u, charge_paths.end_blocks(state, u, move))
    return bool(ok[0]), bool(slow[0])


def charge_terrains(state: GameState, u: int, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`charge_terrain` of the block moved straight to each of ``ends`` (``(K, n, 2)``)."""
    table, r, unit = state.setup.table, state.setup.radii[u], state.setup.units[u]
    ok = np.asarray(table.on_table(ends.reshape(-1, 2), r).reshape(len(ends), -1).all(axis=1))
    slow = np.zeros(len(ends), dtype=bool)
    if unit.has("flying") or not ok.any():  # "they may ignore terrain effects"
        return ok, slow
    keep = table.having("impassable", "difficult")  # both traits' pieces in one pass
    touch = blocks_touch(table, state.models(u), ends, keep, r)
    ok &= ~touch[:, table.having("impassable")].any(axis=1)
    if not unit.has("strider"):
        slow = ok & touch[:, table.having("difficult")].any(axis=1)
    return ok, slow


def charge_lane_clear(state: GameState, u: int, t: int, move: tuple[float, float]) -> bool:
    """The Assault's path (the block's ``move``) passes over no base of a unit but the target ("a clear
    path to it"), so it ends in contact with the target only (Flying: "may move through other units")."""
    return bool(charge_lanes_clear(state, u, t, charge_paths.end_blocks(state, u, move))[0])


def charge_lanes_clear(state: GameState, u: int, t: int, ends: np.ndarray) -> np.ndarray:
    """:func:`charge_lane_clear` of the block moved straight to each of ``ends`` (``(K, n, 2)``)."""
    among = np.array([v not in (u, t) for v in state.standing().ids], dtype=bool)
    return np.asarray(state.swept_clear(u, state.models(u), ends, among))


def clear_of_friends(state: GameState, u: int, t: int, move: tuple[float, float]) -> bool:
    """The Assault's block end (after ``move``) keeps 1" from every friendly unit but ``t`` (a transport
    it embarks on): :meth:`kept_clear` among them only (not kept with the path in the memo)."""
    return bool(ends_clear_of_friends(state, u, t, charge_paths.end_blocks(state, u, move))[0])


def ends_clear_of_friends(state: GameState, u: int, t: int, ends: np.ndarray) -> np.ndarray:
    """:func:`clear_of_friends` of each block end of ``ends`` (``(K, n, 2)``)."""
    owner = state.setup.owner[u]
    friends = np.array([state.setup.owner[v] == owner and v != t for v in state.standing().ids], dtype=bool)
    if not friends.any():
        return np.ones(len(ends), dtype=bool)
    start = state.anchors[u]
    return np.asarray(state.kept_clear(u, start, state.models(u, start), ends, among=friends))
