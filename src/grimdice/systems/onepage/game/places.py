"""Where a One Page 40k game state's units stand: their models, the units on the table, the gaps
between them (functions of a :class:`~.state.GameState`, bound to it as its methods)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.frozen import replace
from grimdice.engine.table import path_kernels
from grimdice.engine.table.bases import base_distances
from grimdice.engine.table.blocks import (
    block_crosses,
    blocks_gaps,
)
from grimdice.engine.table.sweeps import bases_in
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.game import (
    deployment,
)
from grimdice.systems.onepage.game.cache import recall
from grimdice.systems.onepage.game.setup import BLOCK, Setup
from grimdice.systems.onepage.movement import DEPLOY_ZONE
from grimdice.systems.onepage.units import kept

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState


@dataclass(frozen=True)
class Standing:
    """The units on the table in a state (:meth:`GameState.standing`): all their models' centres
    ``pts`` ``(M, 2)`` and ``radii`` ``(M,)``, each model's unit ``owner`` ``(M,)``, the units
    ``ids`` in order, each one's model count ``sizes`` and where its models start in ``pts``."""

    pts: np.ndarray
    radii: np.ndarray
    owner: np.ndarray
    ids: list[int]
    sizes: np.ndarray
    starts: np.ndarray
    at: dict[int, int]  # each unit's index in ids
    sides: tuple[list[int], ...]  # the units of each player
    key: tuple[Any, ...]  # what it was built from (a memo key)
    first: list[int]  # ``starts`` as plain ints (each unit's first row)
    counts: list[int]  # ``sizes`` as plain ints


#: the answers a state keeps about where its units stand (this module's, ``moving``'s and
#: ``charge_paths``'), which hold for a copy whose units stand where they stood (:func:`same_places`)
CARRIED = ("_standing", "_models", "_gaps", "_centres", "_kernel_rules", "_charges", "_moved_from")
PLACES = frozenset({"setup", "south", "anchors", "place", "shapes"})  # where units stand, in what shape


def same_places(src: dict[str, Any], changes: dict[str, Any]) -> bool:
    """Whether a copy of a state (its fields ``src``) with ``changes`` has its units where they
    stood: no unit placed, moved or changed shape, the same sides, the same models alive
    (``GameState.__carries__``)."""
    if not PLACES.isdisjoint(changes):
        return False
    units = changes.get("units")
    if units is not None:
        for a, b in zip(units, src["units"], strict=True):
            if a is not b and a.models != b.models:
                return False
    return True


def side_of(state: GameState, u: int) -> int:
    return state.setup.owner[u]


def flip(state: GameState, u: int) -> float:
    return 1.0 if state.setup.owner[u] == state.south else -1.0


def models(state: GameState, u: int, anchor: tuple[float, float] | None = None) -> np.ndarray:
    """Centres of the unit's models alive (the first ``models`` of its formation in its shape;
    read-only), kept per state for the unit where it stands (a state is frozen; also when ``anchor`` is where
    it stands) and in the geometry memo. A unit on the table where it stands reads its rows of
    :func:`standing` (the same sums)."""
    if anchor is not None and not (state.anchors and anchor == state.anchors[u]):
        return models_at(state, u, anchor)
    mine: dict[int, np.ndarray] | None = state.__dict__.get("_models")
    if mine is None:
        mine = {}
        object.__setattr__(state, "_models", mine)
    got = mine.get(u)
    if got is None:
        st = state.standing()
        j = st.at.get(u)
        if j is None:
            got = mine[u] = models_at(state, u, state.anchors[u])
        else:
            first = st.first[j]
            got = mine[u] = st.pts[first : first + st.counts[j]]
    return got


def models_at(state: GameState, u: int, anchor: tuple[float, float]) -> np.ndarray:
    """:func:`models` with the unit's anchor at ``anchor``, kept in the geometry memo."""
    ax, ay = anchor
    n, flip, shape = state.units[u].models, state.flip(u), shape_of(state, u)

    def compute() -> np.ndarray:
        pts = turned(state.setup, u, flip, shape)[:n] + np.array([ax, ay])
        pts.flags.writeable = False
        return pts

    return recall(state.setup, ("models", u, n, ax, ay, flip, shape), compute)


def shape_of(state: GameState, u: int) -> int:
    """Unit ``u``'s shape (``GameState.shapes``; empty: every unit in its block; ``shapes.py``)."""
    return state.shapes[u] if state.shapes else BLOCK


def turned(setup: Setup, u: int, flip: float, shape: int = BLOCK) -> np.ndarray:
    """Unit ``u``'s whole formation in ``shape`` (its models' offsets from its anchor,
    ``Setup.shape_offsets``) turned to its side (``flip``: 1.0 for the player on the y = 0 edge,
    else -1.0), read-only, kept in the geometry memo: :func:`models`, :func:`block` and
    :func:`formations` take its rows; every model centre of the game is read from it."""

    def compute() -> np.ndarray:
        out = setup.shape_offsets(u, shape) * np.array([1.0, -flip])
        out.flags.writeable = False
        return out

    return recall(setup, ("turned", u, flip, shape), compute)


def centre(state: GameState, u: int) -> np.ndarray:
    """The mean of the unit's model centres where it stands (``mean(axis=0)``'s sum and division,
    without its per-call overhead)."""
    pts = state.models(u)
    return np.asarray(np.add.reduce(pts, axis=0) / len(pts))


def standing_centre(st: Standing, t: int) -> tuple[float, float] | None:
    """:func:`centre` of unit ``t`` from its rows of the standing ``st`` (the same sum and division;
    None when it is not on the table), kept with the standing (a moved unit's standing takes the
    other units' centres from the one it was made from, :func:`moved_standing`)."""
    j = st.at.get(t)
    if j is None:
        return None
    mine = kept(st, "_centres", len(st.ids) + 1)  # one entry per unit on the table
    got = mine.get(t)
    if got is None:
        first = st.first[j]
        pts = st.pts[first : first + st.counts[j]]
        c = np.add.reduce(pts, axis=0) / len(pts)
        got = mine[t] = (float(c[0]), float(c[1]))
    return got


def placed(state: GameState, u: int, anchor: tuple[float, float] | None = None) -> tuple[Any, ...]:
    """What a unit's geometry depends on: (unit, models alive, anchor, side, shape) — a memo key."""
    return (
        u,
        state.units[u].models,
        state.anchors[u] if anchor is None else anchor,
        state.flip(u),
        shape_of(state, u),
    )


def alive(state: GameState, u: int) -> bool:
    return not state.units[u].destroyed


def on_table(state: GameState, u: int) -> bool:
    """Not in reserve (Deep Strike) nor embarked in a transport."""
    return not state.place or state.place[u] == deployment.ON_TABLE


def enemies(state: GameState, u: int) -> list[int]:
    """The other player's units on the table (alive, not in reserve nor embarked)."""
    return list(state.standing().sides[1 - state.setup.owner[u]])


def gap(state: GameState, u: int, v: int, anchor: tuple[float, float] | None = None) -> float:
    """The closest base-to-base distance between unit ``u`` (at ``anchor``) and unit ``v``."""
    if anchor is None:
        j = state.standing().at.get(v)
        if j is not None and state.standing().at.get(u) is not None:
            return state.gaps(u)[1][j]

    def compute() -> float:
        r = state.setup.radii
        d = base_distances(
            state.models(u, anchor),
            np.full(state.units[u].models, r[u]),
            state.models(v),
            np.full(state.units[v].models, r[v]),
        )
        return float(d.min())

    return recall(state.setup, ("gap", state.placed(u, anchor), state.placed(v)), compute)


def gaps(state: GameState, u: int) -> tuple[np.ndarray, list[float]]:
    """The gap from unit ``u`` where it stands to each unit on the table (in
    :meth:`standing`'s order; as an array and as floats): :meth:`gap`'s values, all at once
    (``path_kernels.blocks_gaps``: ``base_distances``' arithmetic in one compiled pass), kept per
    state and in the geometry memo with :meth:`standing`."""
    mine: dict[int, tuple[np.ndarray, list[float]]] | None = state.__dict__.get("_gaps")
    if mine is None:
        mine = {}
        object.__setattr__(state, "_gaps", mine)
    got = mine.get(u)
    if got is not None:
        return got
    st = state.standing()

    def compute() -> tuple[np.ndarray, list[float]]:
        row = blocks_gaps(state.models(u)[None], float(state.setup.radii[u]), st.pts, st.radii, st.starts)[0]
        row.flags.writeable = False
        return row, row.tolist()

    got = mine[u] = recall(state.setup, ("gaps", st.key, u), compute)
    return got


def height(state: GameState, u: int, anchor: tuple[float, float] | None = None) -> float:
    """The mean ground height under the unit's models (``Table.height_at``'s heights, one compiled
    pass: ``path_kernels.ground_heights``), kept in the geometry memo."""

    def compute() -> float:
        qa, qb, box, heights, _m = state.setup.table.polygons()
        ground = path_kernels.ground_heights(state.models(u, anchor), (qa, qb, box), heights)
        return float(ground.mean())

    return recall(state.setup, ("height", state.placed(u, anchor)), compute)


def standing(state: GameState) -> Standing:
    """Every unit on the table (alive, not in reserve nor embarked) and its models: once per
    state, and kept in the geometry memo by where every unit stands (the states of one
    activation share it). A state made by moving one unit of another (``moving.moved``) takes
    the other's rows with that unit's rows moved (:func:`moved_standing`)."""
    got: Standing | None = state.__dict__.get("_standing")
    if got is None:
        counts = tuple(s.models for s in state.units)
        key = ("standing", state.south, state.anchors, state.place, counts, state.shapes)
        before = state.__dict__.get("_moved_from")
        if before is None:
            got = recall(state.setup, key, lambda: state._standing(key))
        else:
            got = recall(state.setup, key, lambda: moved_standing(state, key, *before))
        object.__setattr__(state, "_standing", got)
    return got


def moved_standing(state: GameState, key: tuple[Any, ...], before: Standing, u: int) -> Standing:
    """:func:`_standing` of ``state``, made from ``before`` (the standing of a state that differs
    from it only by where unit ``u`` stands): its rows, ``u``'s moved to its anchor (the same sums as
    :func:`models_at`, in ``u``'s shape); worked out afresh when more than ``u``'s anchor differs
    (a change of shape among them: the shapes are part of the key)."""
    j = before.at.get(u)
    was, now = before.key[2], key[2]
    if (
        j is None
        or before.key[:2] != key[:2]
        or before.key[3:] != key[3:]
        or was[:u] != now[:u]
        or was[u + 1 :] != now[u + 1 :]
    ):
        return _standing(state, key)
    first, n = before.first[j], before.counts[j]
    pts = before.pts.copy()
    pts[first : first + n] = turned(state.setup, u, state.flip(u), shape_of(state, u))[:n] + np.array(
        state.anchors[u]
    )
    pts.flags.writeable = False
    b = before
    out = Standing(pts, b.radii, b.owner, b.ids, b.sizes, b.starts, b.at, b.sides, key, b.first, b.counts)
    centres = b.__dict__.get("_centres")
    if centres:  # the other units' centres where they stood (standing_centre)
        object.__setattr__(out, "_centres", {v: c for v, c in centres.items() if v != u})
    return out


def _standing(state: GameState, key: tuple[Any, ...]) -> Standing:
    _, south, anchors, place, counts, shapes = key
    ids, sizes, starts, owner, radii, turned, at, sides, first, counts = recall(
        state.setup,
        ("standing rows", south, place, counts, shapes),
        lambda: _rows(state.setup, south, place, counts, shapes),
    )
    # every unit's models at once: its first models of the formation, turned, at its anchor
    pts = turned + np.array(anchors).take(owner, axis=0) if ids else np.zeros((0, 2))  # :func:`models`' sum
    pts.flags.writeable = False
    return Standing(pts, radii, owner, ids, sizes, starts, at, sides, key, first, counts)


def _rows(
    setup: Setup, south: int, place: tuple[int, ...], counts: tuple[int, ...], shapes: tuple[int, ...] = ()
) -> tuple[Any, ...]:
    """What :func:`_standing` reads of the units on the table apart from their anchors (the units,
    their model counts and first rows, each row's unit, radius and turned offset, each unit's index,
    each side's units): a function of where each unit is, its models alive and its shape
    (``place``, ``counts``, ``shapes``), kept in the geometry memo for every state they share."""
    ids = [v for v, z in enumerate(counts) if z and (not place or place[v] == deployment.ON_TABLE)]
    first, total = [], 0  # each unit's first row, in plain Python (a few units)
    for v in ids:
        first.append(total)
        total += counts[v]
    sizes = np.array([counts[v] for v in ids], dtype=int)
    starts = np.array(first or [0], dtype=int)  # [0] when none
    flipped, row_unit, rank = formations(setup, south, shapes)
    shown = [counts[v] if v in ids else 0 for v in range(len(counts))]
    rows = rank < np.array(shown, dtype=int)[row_unit]
    owner, turned = row_unit[rows], flipped[rows]
    radii = setup.radii[owner]
    sides = tuple([v for v in ids if setup.owner[v] == p] for p in (0, 1))
    for arr in (radii, sizes, starts, owner, turned):
        arr.flags.writeable = False
    at = {v: i for i, v in enumerate(ids)}
    return ids, sizes, starts, owner, radii, turned, at, sides, first, [counts[v] for v in ids]


def formations(
    setup: Setup, south: int, shapes: tuple[int, ...] = ()
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every unit's whole formation in its shape (``shapes``; empty: all blocks) turned to its side
    (``south``: the player on the y = 0 edge), one unit after another: the offsets ``(R, 2)``
    (:func:`turned`'s rows), each row's unit and its rank in the unit's formation; kept in the
    geometry memo."""

    def compute() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        flips = [1.0 if setup.owner[u] == south else -1.0 for u in range(len(setup.offsets))]
        turned_all = [turned(setup, u, f, shapes[u] if shapes else BLOCK) for u, f in enumerate(flips)]
        unit = np.concatenate([np.full(len(off), u) for u, off in enumerate(turned_all)])
        rank = np.concatenate([np.arange(len(off)) for off in turned_all])
        return np.concatenate(turned_all), unit, rank

    return recall(setup, ("formations", south, shapes), compute)


def others(
    state: GameState, u: int, ignore: int = -1
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
    """Every other unit's models: centres, radii, the start index of each unit's block, units."""
    st = state.standing()
    kept = [(v, z) for v, z in zip(st.ids, st.sizes.tolist(), strict=True) if v != u and v != ignore]
    if not kept:
        return np.zeros((0, 2)), np.zeros(0), np.zeros(0, dtype=int), []
    if len(kept) == len(st.ids):  # every unit: the standing's own arrays (the starts writable, as ever)
        return st.pts, st.radii, st.starts.copy(), list(st.ids)
    rows = (st.owner != u) & (st.owner != ignore)
    starts = np.cumsum([0] + [z for _, z in kept[:-1]])
    return st.pts[rows], st.radii[rows], starts, [v for v, _ in kept]


def gaps_to(state: GameState, u: int, centres: np.ndarray, others: tuple[Any, ...]) -> np.ndarray:
    """The closest gap from unit ``u``'s models at ``centres`` to each unit of ``others``
    (:func:`others`' tuple), as :func:`gaps` measures them."""
    pts, radii, starts, ids = others
    if not ids:
        return np.zeros(0)
    return blocks_gaps(centres[None], float(state.setup.radii[u]), pts, radii, starts)[0]


def crosses(state: GameState, u: int, a: np.ndarray, b: np.ndarray, trait: str) -> bool:
    """Whether moving unit ``u``'s models from ``a`` to ``b`` (straight) puts any part of a base
    over a piece with ``trait`` on the way (``blocks.blocks_cross``: the swept bases)."""
    return block_crosses(state.setup.table, a, b, trait, float(state.setup.radii[u]))


def block(state: GameState, u: int) -> np.ndarray:
    """The offsets of unit ``u``'s models alive from its anchor in its shape, turned to its side (a
    copy of :func:`turned`'s first rows: a writable array, as the compiled kernels were built for)."""
    return turned(state.setup, u, state.flip(u), shape_of(state, u))[: state.units[u].models].copy()


def fielded(setup: Setup, first: int, south: int) -> GameState:
    """The state after the roll-off winner ``first`` chose his side (``south``: the player on the
    y = 0 edge): the armies fielded, no unit on the table yet (``deployment.begin`` places them)."""
    from grimdice.systems.onepage.game.state import GameState

    n = len(setup.units)
    return GameState(
        setup,
        phase="play",
        player=first,
        first=first,
        south=south,
        units=tuple(u.initial() for u in setup.units),
        anchors=tuple((0.0, 0.0) for _ in range(n)),
        activated=tuple(False for _ in range(n)),
    )


def deploy(setup: Setup, first: int, south: int) -> GameState:
    """A deployment without the players' choices: units side by side in the order of the army file,
    2" apart, front rank towards the enemy, a second line behind if needed, every base "within 12"
    of his table edge". A game checks with it that each army can deploy at all before the players
    place their units (an army it cannot lay out is refused, naming ``deployment``); tests start
    from it."""
    s = fielded(setup, first, south)
    n = len(setup.units)
    anchors = list(s.anchors)
    table = setup.table
    for p in (0, 1):
        own = [u for u in range(n) if setup.owner[u] == p]
        x, line = 1.0, 0.0
        for u in own:
            off, r = setup.offsets[u], setup.radii[u]
            width = float(off[:, 0].max() - off[:, 0].min()) + 2 * r
            depth = float(off[:, 1].max()) + 2 * r
            placed = False
            while not placed:
                if x + width > table.width - 1.0:
                    x, line = 1.0, line + 4.0
                front = DEPLOY_ZONE - 0.5 - r - line  # front rank's distance from the edge
                if front - (depth - 2 * r) < r:
                    side = "south" if p == south else "north"
                    raise ScenarioError(
                        "deployment",
                        f'army {p + 1} ({setup.armies[p].name}) does not fit within 12" of the {side} edge'
                        + deployment.zone_blockers(table, side == "south"),
                    )
                cx = x + width / 2 - (float(off[:, 0].max() + off[:, 0].min()) / 2)
                cy = front if p == south else table.depth - front
                anchors[u] = (round(cx, 3), round(cy, 3))
                s = replace(s, anchors=tuple(anchors))
                pts = s.models(u)
                bad = any(bases_in(table, pts, r, trait).any() for trait in deployment.NO_STANDING)
                if bad:
                    x += 1.0
                    continue
                placed = True
                x += width + 2.0
    return s
