"""Where the assaulting models end their Assault move: as many as the rules allow placed where they
may strike, rank by rank.

"To assault simply move the assaulting [models] by up to 12" to get into base contact with an enemy
model from the target unit, or as close as possible to an enemy model from the target unit, keeping
unit coherency in mind." and "All models in a unit that are in base contact with an enemy model
from the target unit, or that are within 2" of a model from the target unit may attack".

The player moves each model, so after the block's move (``GameState.charge_vector``) the models are
placed as a player who wants every model to strike would place them: the spots are rings around
each target model, in base contact (the first rank) and then 0.6", 1.2" and 1.8" out (the second
rank, still within 2"); each model not already within 2" takes one spot it can reach straight within
its own allowance, the model with the fewest spots left first and, of its spots, one in base
contact where it can ("to get into base contact ..."), the one the fewest other models could take,
then the shortest move. A spot is taken only where the whole base stands
on the table, overlaps no base (the target's, another unit's, a model of its own unit where that
model then stands), is over no impassable terrain, ends no closer than 1" to a unit other than the
target (nor closer than the model already was), and where it is within 1" of another model of the
unit; the straight path crosses no impassable or dangerous terrain (our reading, as the block's own
move rolls for dangerous terrain) and no base of another unit or of the target (Flying: none of
these but the end's). Models left out of reach then follow as close as they can (within 1" of a
placed model, each within its own allowance) so that the FINAL positions are coherent (1" links,
12" span); where they still are not, the last moves are taken back until they are. Difficult
terrain: "If any model of a unit moves through difficult terrain at any point of its move, the unit
may not move more than its Walk action distance", so two plans are made, one with the full
allowance and no path through difficult terrain, one with every model capped at the Walk distance,
and the one bringing more models within 2" is kept (Strider and Flying: one plan, terrain open).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from grimdice.engine.table.bases import base_distances, coherent
from grimdice.engine.table.sweeps import bases_in, per_base, sweeps_meet_any, sweeps_touch_any
from grimdice.engine.table.terrain import EPS as TABLE_EPS

STRIKE_REACH = 2.0  # "or that are within 2" of a model from the target unit"
KEEP_CLEAR = 1.0  # "Units may not move within 1" of other units"
LINK = 1.0  # coherency: "within 1" of at least one other member"
SPAN = 12.0  # "and within 12" of all other members"
RANKS = (0.0, 0.6, 1.2, 1.8)  # the spots' gaps to the target model: contact, then a second rank
FOLLOW = (0.25, 0.75)  # a model's gaps to the model of its unit it keeps within 1" of
NEAREST = 3  # a model out of reach heads for one of its 3 nearest target models
FRACTIONS = (1.0, 0.75, 0.5, 0.25)  # of its allowance, longest first ("or as close as possible")
EPS = 1e-6
TIGHT = 1e-4  # a spot's extra gap, so that bases in contact do not count as overlapping
TOUCH = 2e-3  # an overlap allowed in the check (the block's move is rounded to 0.001")

#: spots' signed gaps to the nearest target model and to the nearest base of another unit
Gaps = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Charge:
    """What the placement reads: the models' positions before the Assault and after the block's
    move, each model's allowance (measured from where it started), the target's models, both radii,
    the other units' bases (and each model's gap to them before the Assault, or after the block's
    move where that is closer: the block may end within 1" of enemy units), the table and whether
    the unit flies; ``block``: the block's path length when it went in two legs (else its straight
    move, from ``starts`` to ``a``)."""

    starts: np.ndarray
    a: np.ndarray
    reach: float
    d: np.ndarray
    ra: float
    rd: float
    pts: np.ndarray
    rp: np.ndarray
    before: np.ndarray
    table: Any
    flying: bool
    block: float | None = None


def within_reach(pos: np.ndarray, ra: float, d: np.ndarray, rd: float) -> np.ndarray:
    """``(n,)``: whether each model at ``pos`` is in base contact with or within 2" of a target model."""
    return np.asarray(nearest(pos, ra, d, rd) <= STRIKE_REACH + EPS)


def nearest(a: np.ndarray, ra: float, b: np.ndarray, rb: float | np.ndarray) -> np.ndarray:
    """``(n,)``: each base's signed gap to the nearest of the bases ``b`` (``base_distances``'s
    arithmetic, reduced in one compiled pass: ``path_kernels.nearest_gaps``)."""
    from grimdice.engine.table import path_kernels

    pts = np.asarray(b, dtype=np.float64).reshape(-1, 2)
    radii = per_base(rb, len(pts))
    return np.asarray(path_kernels.nearest_gaps(np.asarray(a, dtype=np.float64), float(ra), pts, radii))


def ring(centres: np.ndarray, radius: float, spacing: float) -> np.ndarray:
    """Points every ``spacing`` inches (at least 12) on circles of ``radius`` around ``centres``."""
    return np.asarray((centres[:, None, :] + ring_offsets(radius, spacing)[None]).reshape(-1, 2))


def ring_offsets(radius: float, spacing: float) -> np.ndarray:
    """``(k, 2)``: :func:`ring`'s points around the origin (added to each centre)."""
    k = max(12, int(np.ceil(2 * np.pi * radius / spacing)))
    ang = np.arange(k) * (2 * np.pi / k)
    return np.asarray(radius * np.stack([np.cos(ang), np.sin(ang)], axis=1))


def strike_spots(c: Charge) -> tuple[np.ndarray, np.ndarray, Gaps]:
    """The spots around the target models where a base may end (:data:`RANKS`), each one's rank
    (0: base contact) and their gaps (:data:`Gaps`): those where a base stands (:func:`_standing`)."""
    rings = [ring(c.d, c.ra + c.rd + g + TIGHT, c.ra / 3) for g in RANKS]
    spots = np.concatenate(rings)
    tier = np.concatenate([np.full(len(r), k) for k, r in enumerate(rings)])
    ok, to_target, to_others = _standing(c, spots)
    return spots[ok], tier[ok], (to_target[ok], to_others[ok])


def _standing(
    c: Charge, ends: np.ndarray, pos: np.ndarray | None = None, i: int = -1, closer: float = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where a base may stand: on the table, over no target base nor impassable terrain, and not
    within 1" of another unit for at least one model (the per-model test is in :func:`_paths`);
    for model ``i`` of the unit at ``pos``, moreover nearer the target than ``closer``, over no
    base of its unit, within 1" of one and 12" of all. With each end's :data:`Gaps` (to another
    unit: 0 when there is none; valid where a base stands): ``spot_kernels.follow_ends`` (each end
    alone, in one compiled pass), the terrain under the bases left after."""
    from grimdice.engine.table import spot_kernels

    pts = np.asarray(c.pts, dtype=np.float64).reshape(-1, 2)
    bases = (c.d, per_base(c.rd, len(c.d)), pts, per_base(c.rp, len(pts)))
    clear = min(KEEP_CLEAR, float(c.before.min(initial=KEEP_CLEAR))) - EPS
    limits = np.array([closer, c.table.width, c.table.depth, TABLE_EPS, EPS, clear, LINK, SPAN])
    unit = np.zeros((0, 2)) if pos is None else pos
    ok, to_target, to_others = spot_kernels.follow_ends(ends, unit, i, c.ra, *bases, limits)
    if len(c.table.terrain) and ok.any():
        ok[ok] = ~bases_in(c.table, ends[ok], c.ra, "impassable")
    return ok, to_target, to_others


def _paths(
    c: Charge,
    movers: np.ndarray,
    spots: np.ndarray,
    slow_ok: bool,
    near: np.ndarray | None = None,
    among: np.ndarray | None = None,
) -> np.ndarray:
    """``(n, k)``: whether model ``movers[i]`` may end at ``spots[j]``: the 1" rule for its own gap
    before, and a move within its allowance either straight from where it started or on from where
    the block's move put it (the block's path, then straight), clear of impassable and dangerous
    terrain (difficult too unless ``slow_ok``) and of the bases of other units and the target.
    ``near``: the spots' gaps to other units when known; ``among``: the only pairs to test (the
    others False), e.g. the ends closer to the target."""
    ok = np.ones((len(movers), len(spots)), dtype=bool) if among is None else among.copy()
    if len(c.rp):
        if near is None:
            near = nearest(spots, c.ra, c.pts, c.rp)
        ok &= near[None, :] >= np.minimum(KEEP_CLEAR, c.before[movers])[:, None] - EPS
    straight = _clear(c, c.starts[movers], spots, c.reach, slow_ok, ok)
    on = _clear(c, c.a[movers], spots, c.reach - _block(c), slow_ok, ok & ~straight)
    return np.asarray(straight | on)


def _block(c: Charge) -> float:
    """The block's path length (its straight move when it went in one leg)."""
    if c.block is not None:
        return c.block
    return float(np.linalg.norm(c.a[0] - c.starts[0])) if len(c.a) else 0.0


def _clear(
    c: Charge, froms: np.ndarray, spots: np.ndarray, reach: float, slow_ok: bool, mask: np.ndarray
) -> np.ndarray:
    """``(n, k)``, among ``mask``: the straight moves from ``froms[i]`` to ``spots[j]`` within
    ``reach`` and clear (see :func:`_paths`)."""
    from grimdice.engine.table import spot_kernels

    ok = spot_kernels.within(froms, spots, reach + EPS, mask)  # np.linalg.norm's arithmetic
    if c.flying or not ok.any():
        return ok
    i, j = np.nonzero(ok)
    starts, ends = froms[i], spots[j]
    blocked = sweeps_meet_any(starts, ends, c.ra, c.d, np.full(len(c.d), c.rd))
    if len(c.rp):
        box = np.concatenate([starts, ends])
        lo, hi = box.min(axis=0) - c.ra - c.rp.max(), box.max(axis=0) + c.ra + c.rp.max()
        near = ((c.pts >= lo) & (c.pts <= hi)).all(axis=1)  # the bases the paths could meet
        if near.any():
            blocked |= sweeps_meet_any(starts, ends, c.ra, c.pts[near], c.rp[near])
    if len(c.table.terrain):
        traits = ("impassable", "dangerous") if slow_ok else ("impassable", "dangerous", "difficult")
        keep = c.table.having(*traits)
        if keep.any():
            blocked |= sweeps_touch_any(c.table, starts, ends, c.ra, keep)
    ok[i[blocked], j[blocked]] = False
    return ok


def ranked(c: Charge, slow_ok: bool) -> np.ndarray:
    """The models' end positions under one plan (see the module's docstring)."""
    pos = c.a.copy()
    gap = _gaps(c, pos)
    movers = np.flatnonzero(gap > 2 * TIGHT)  # not in base contact
    if not len(movers) or c.reach <= EPS:
        return pos
    spots, tier, (to_target, to_others) = strike_spots(c)
    closer = to_target[None, :] < gap[movers, None] - EPS  # only closer
    can = _paths(c, movers, spots, slow_ok, to_others, closer) if len(spots) else closer
    some = can.any(axis=0)
    spots, tier, can = spots[some], tier[some], can[:, some]
    near = gap[movers] <= STRIKE_REACH + EPS  # already strikes: moves after the others
    g = base_distances(spots, c.ra, pos, c.ra, signed=True)  # (spot, model), kept as models move
    from grimdice.engine.table import spot_kernels

    order, backs = spot_kernels.take_spots(
        spots, tier, can, movers, near, c.starts, pos, g, c.ra, np.array([EPS, LINK, SPAN])
    )
    moves = [(int(i), back) for i, back in zip(order, backs, strict=True)]
    waiting = ~np.isin(movers, order)
    pos = _closer(c, pos, movers[waiting], moves, slow_ok)
    while moves and not coherent(pos, np.full(len(pos), c.ra)):  # "keeping unit coherency in mind"
        i, back = moves.pop()
        pos[i] = back
    return pos


def _gaps(c: Charge, pos: np.ndarray) -> np.ndarray:
    """``(n,)``: each base's gap to the nearest target model."""
    return nearest(pos, c.ra, c.d, c.rd)


def _closer(
    c: Charge, pos: np.ndarray, left_out: np.ndarray, moves: list[tuple[int, np.ndarray]], slow_ok: bool
) -> np.ndarray:
    """The models that took no spot, nearest the target first, each moved "as close as possible to
    an enemy model from the target unit": of the ends straight towards its three nearest target
    models (the whole allowance, three quarters, half, a quarter) and the spots within 1" of another
    model of its unit, the legal one nearest the target (its gap rounded to 1e-6"), then the shortest
    move, where that is closer than it stands (each end's tests read that end alone: the cheap ones
    first, the paths on the ends left)."""

    order = left_out[np.argsort(_gaps(c, pos[left_out]), kind="stable")]
    follow = [ring_offsets(2 * c.ra + g, c.ra) for g in FOLLOW]
    for i in order:
        start = c.starts[i]
        dist = np.linalg.norm(c.d - start, axis=1)
        near = c.d[np.argsort(dist, kind="stable")[:NEAREST]]
        vec = near - start
        length = np.linalg.norm(vec, axis=1)
        unit = vec / np.maximum(length, EPS)[:, None]
        most = np.minimum(c.reach, np.maximum(length - c.ra - c.rd - TIGHT, 0.0))
        straight = (start + unit[:, None, :] * (most[:, None] * np.array(FRACTIONS))[:, :, None]).reshape(
            -1, 2
        )
        others = np.delete(pos, i, axis=0)
        linked = [(others[:, None, :] + off[None]).reshape(-1, 2) for off in follow]  # ``ring``'s sums
        ends = np.concatenate([straight, *linked])
        fit, gaps, to_others = _standing(c, ends, pos, int(i), _gaps(c, pos[i : i + 1])[0] - EPS)
        ends, gaps = ends[fit], gaps[fit]
        if not len(ends):
            continue
        ok = _paths(c, np.array([i]), ends, slow_ok, to_others[fit])[0]
        if ok.any():
            travel = np.linalg.norm(ends - start, axis=1)
            j = int(np.lexsort((travel, np.round(gaps, 6), ~ok))[0])
            moves.append((int(i), pos[i].copy()))
            pos[i] = ends[j]
    return pos


def placed(c: Charge, walk: float | None) -> np.ndarray:
    """The end positions: the plan with the full allowance (``walk`` None: terrain open or already
    capped), else the better of it (no path through difficult terrain) and the plan capped at the
    Walk distance ``walk``, made only where it could bring more models within 2" (:func:`_could_strike`)."""
    full = ranked(c, slow_ok=walk is None)
    if walk is None or walk <= EPS:
        return full
    n_full = int(within_reach(full, c.ra, c.d, c.rd).sum())
    capped_reach = min(c.reach, walk)
    if _could_strike(c, capped_reach) <= n_full:
        return full
    capped = ranked(Charge(**{**c.__dict__, "reach": capped_reach}), slow_ok=True)
    return capped if int(within_reach(capped, c.ra, c.d, c.rd).sum()) > n_full else full


def _could_strike(c: Charge, reach: float) -> int:
    """An upper bound on the models a plan with the allowance ``reach`` ends within 2" of the target:
    a plan leaves each model where the block's move put it or moves it to an end within ``reach``
    of where it started or within ``reach`` less the block's path of where the block put it
    (:func:`_paths`), and takes moves back only to such places. An end within 2" of a target model
    is at most ``ra + rd + 2"`` from that model's centre, so (triangle inequality) a model ends
    within 2" only if it is within 2" already or a target model's centre is within that plus the
    route's allowance of the route's start. The bound is loose by 0.01", a margin over the 1e-6
    tolerances (``EPS``) of the reach in :func:`_clear` and of :func:`within_reach`."""
    strike = c.ra + c.rd + STRIKE_REACH + 0.01
    near = within_reach(c.a, c.ra, c.d, c.rd)
    for froms, allowance in ((c.starts, reach), (c.a, reach - _block(c))):
        d = c.d[None, :, :] - froms[:, None, :]
        near |= (np.sqrt(d[:, :, 0] ** 2 + d[:, :, 1] ** 2) <= allowance + strike).any(axis=1)
    return int(near.sum())


def violations(c: Charge, moved: np.ndarray, name: str) -> list[str]:
    """What breaks the rules in the models' end positions ``moved`` (the invariant check of an
    Assault's model moves), as readable lines: a base off the table, over impassable terrain, over
    another base (its unit's, the target's, another unit's), the unit not coherent, a model newly
    within 1" of a unit other than the target, or a model with no legal route (see :func:`_paths`,
    any terrain but impassable allowed)."""
    out: list[str] = []
    n = len(moved)
    rn = np.full(n, c.ra)
    bad = ~c.table.on_table(moved, c.ra)
    if len(c.table.terrain):
        bad |= bases_in(c.table, moved, c.ra, "impassable")
    own = base_distances(moved, c.ra, moved, c.ra, signed=True) + np.eye(n) * 99.0
    bad |= (own < -TOUCH).any(axis=1) | (base_distances(moved, c.ra, c.d, c.rd, signed=True) < -TOUCH).any(
        axis=1
    )
    if len(c.rp):
        near = base_distances(moved, c.ra, c.pts, c.rp, signed=True).min(axis=1)
        bad |= near < np.minimum(KEEP_CLEAR, c.before) - EPS
    if bad.any():
        what = 'off the table, over terrain or a base, or within 1"'
        out.append(f"{name}: {int(bad.sum())} assaulting model(s) {what}")
    if not coherent(moved, rn):
        out.append(f"{name}: assaulting models not coherent")
    stayed = np.linalg.norm(moved - c.a, axis=1) <= EPS
    loose = Charge(**{**c.__dict__, "before": np.full(n, -np.inf)})
    routes = np.array([bool(_paths(loose, np.array([i]), moved[i : i + 1], True)[0, 0]) for i in range(n)])
    if not (stayed | routes).all():
        out.append(f"{name}: {int((~(stayed | routes)).sum())} assaulting model(s) moved with no legal route")
    return out


__all__ = ["Charge", "placed", "ranked", "strike_spots", "violations", "within_reach"]
