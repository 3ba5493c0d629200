"""Who strikes in a melee, model by model: the assaulting models' own moves into contact, then the
defenders' 3" move.

"To assault simply move the assaulting [models] by up to 12" to get into base contact with an enemy
model from the target unit, or as close as possible to an enemy model from the target unit, keeping
unit coherency in mind." "Once all assaulting models have moved, then all models from the target
unit that are not in base contact with an assaulting model move by up to 3" to get into base contact
with an assaulting model, or as close to an assaulting model as possible" and "All models in a unit
that are in base contact with an enemy model from the target unit, or that are within 2" of a model
from the target unit may attack with all their melee weapons."

The Assault action moves the unit's block straight until the closest bases touch
(``GameState.charge_vector``); then each assaulting model not in base contact moves on by itself
(:func:`assaulters_moved`) within what is left of its own allowance (the assault distance, 12" or
Fast's, less the block's move; Walk distance for every model once any model's path crosses difficult
terrain, Strider and Flying apart) straight towards one of its three nearest target models, to base
contact or as close as it can: every step keeps the unit coherent (1" links, 12" span), overlaps no
base, stays on the table, crosses no impassable terrain and ends no closer than 1" to a unit other
than the target (unless it already was). Models move one at a time in listed order, in up to
``PASSES`` passes (a model held back by a neighbour that has not moved yet goes on in the next
pass). Each defending model not in base contact then moves straight towards its nearest (moved)
assaulting model by up to 3" (stopping at base contact). Both moves use one placer,
:func:`towards`. An assaulting model strikes when some (moved) defending model is within 2" of it,
and a defending model strikes when some assaulting model is within 2" of it. The counts feed the
exact melee (``Conditions.attacker_strikers`` / ``defender_strikers``: the first models alive in the
unit's listed order strike, see ``attack.strikers``). Our readings: the defenders' 3" move ignores
coherency, terrain and other bases; the assaulting models' own moves do not enter or cross dangerous
terrain (the dangerous roll is the block's move); neither model move is kept after the melee (the
blocks keep their formation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.table.bases import base_distances, coherent
from grimdice.engine.table.sweeps import sweeps_meet_bases, sweeps_touch_pieces
from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.game.cache import recall
from grimdice.systems.onepage.movement import move_distance

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

DEFENDERS_MOVE = 3.0  # "move by up to 3" to get into base contact"
STRIKE_REACH = 2.0  # "or that are within 2" of a model from the target unit"
KEEP_CLEAR = 1.0  # as GameState's: "Units may not move within 1" of other units"
EPS = 1e-6
NEAREST = 3  # an assaulting model heads for one of its 3 nearest target models
FRACTIONS = (1.0, 0.75, 0.5, 0.25)  # of a step, longest first ("or as close as possible")
PASSES = 3
RING = 12  # base-contact spots tried around a target model (every 30 degrees)


def approach(movers: np.ndarray, goals: np.ndarray, gap: np.ndarray, reach: float | np.ndarray) -> np.ndarray:
    """Each mover's centre moved straight towards its goal point by ``min(gap, reach)`` (``gap``:
    how far it may go before it touches; one ``reach`` or one per mover): the one placer of both the
    defenders' 3" move and the assaulting models' own moves."""
    vec = goals - movers
    centre = np.linalg.norm(vec, axis=1)
    step = np.minimum(np.maximum(gap, 0.0), reach)
    with np.errstate(invalid="ignore", divide="ignore"):
        unit = np.where(centre[:, None] > EPS, vec / centre[:, None], 0.0)
    return np.asarray(movers + unit * step[:, None])


def towards(
    movers: np.ndarray, rm: float, goals: np.ndarray, rg: float, reach: float | np.ndarray, k: int = 0
) -> np.ndarray:
    """The movers' centres after each moves straight towards its ``k``-th nearest goal model by up to
    ``reach``, stopping at base contact."""
    dist = np.linalg.norm(goals[None, :, :] - movers[:, None, :], axis=2)  # (mover, goal)
    k = min(k, goals.shape[0] - 1)
    j = np.argsort(dist, axis=1, kind="stable")[:, k] if k else dist.argmin(axis=1)
    rows = np.arange(len(movers))
    return approach(movers, goals[j], dist[rows, j] - rm - rg, reach)


def contacts(p: np.ndarray, rm: float, goals: np.ndarray, rg: float, reach: float) -> np.ndarray:
    """Where a model at ``p`` (``(1, 2)``) goes towards each base-contact spot around its ``NEAREST``
    nearest goal models (``RING`` spots each), by up to ``reach``."""
    dist = np.linalg.norm(goals - p, axis=1)
    near = goals[np.argsort(dist, kind="stable")[:NEAREST]]
    ang = np.arange(RING) * (2 * np.pi / RING)
    ring = (near[:, None, :] + (rm + rg) * np.stack([np.cos(ang), np.sin(ang)], axis=1)[None]).reshape(-1, 2)
    starts = np.repeat(p, len(ring), axis=0)
    return approach(starts, ring, np.linalg.norm(ring - p, axis=1), reach)


def signed_gaps(a: np.ndarray, ra: float, b: np.ndarray, rb: float) -> np.ndarray:
    """``(n, m)``: the gaps between bases of radius ``ra`` at ``a`` and ``rb`` at ``b`` (negative
    where they overlap)."""
    return np.asarray(np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2) - ra - rb)


def defenders_moved(a: np.ndarray, ra: float, d: np.ndarray, rd: float) -> np.ndarray:
    """The defending models' centres after their 3" move towards their nearest assaulting model."""
    return towards(d, rd, a, ra, DEFENDERS_MOVE)


def swept(table: Table, starts: np.ndarray, ends: np.ndarray, radius: float, trait: str) -> np.ndarray:
    """``(n,)``: whether a base of ``radius`` moving from ``starts[i]`` to ``ends[i]`` touches a piece
    with ``trait`` on the way (any part of the base)."""
    return np.asarray(sweeps_touch_pieces(table, starts, ends, radius, table.having(trait)).any(axis=1))


def assaulters_moved(s: GameState, u: int, t: int) -> np.ndarray:
    """The assaulting models' centres after each one's own move on from the block's Assault move
    (``s.charge``: where the block started and the assault distance; without it, the block's
    positions)."""
    a = s.models(u)
    if not s.charge or not len(a):
        return a
    near = tuple(s.placed(v) for v in range(len(s.units)) if v not in (u, t) and s.alive(v) and s.on_table(v))
    key = ("assault models", s.charge, s.placed(u), s.placed(t), near)
    return recall(s.setup, key, lambda: _moved_on(s, u, t, a))


@dataclass(frozen=True)
class _Charge:
    """What every model's own move on from an Assault reads: the target's models and both radii,
    the other units' bases, the table, and the unit's terrain rules."""

    d: np.ndarray
    ra: float
    rd: float
    pts: np.ndarray
    rp: np.ndarray
    table: Any
    flying: bool
    free: bool
    walk: float


def _moved_on(s: GameState, u: int, t: int, a: np.ndarray) -> np.ndarray:
    unit, table = s.setup.units[u], s.setup.table
    sx, sy, full = s.charge
    ra = float(s.setup.radii[u])
    pts, rp, _, _ = s.others(u, ignore=t)
    c = _Charge(
        d=s.models(t),
        ra=ra,
        rd=float(s.setup.radii[t]),
        pts=pts,
        rp=rp,
        table=table,
        flying=unit.has("flying"),  # "they may ignore terrain effects"
        free=unit.has("flying") or unit.has("strider"),  # Strider: "treat difficult terrain as open"
        walk=move_distance(unit, "walk"),
    )
    block = float(np.hypot(s.anchors[u][0] - sx, s.anchors[u][1] - sy))
    # Difficult: "If any model of a unit moves through difficult terrain at any point of its move, the
    # unit may not move more than its Walk action distance for that movement"
    capped = not c.free and bool(swept(table, s.models(u, (sx, sy)), a, ra, "difficult").any())
    travelled = np.full(len(a), block)
    ra_n = np.full(len(a), ra)
    before = base_distances(a, ra_n, pts, rp, signed=True).min(axis=1) if len(rp) else np.zeros(len(a))
    pos = a.copy()
    for _ in range(PASSES):
        moved = False
        for i in range(len(pos)):
            p = pos[i : i + 1]
            gap = float(signed_gaps(p, ra, c.d, c.rd).min())
            left = (c.walk if capped else full) - float(travelled[i])
            if gap <= EPS or left <= EPS:
                continue
            ends, steps, ok, slow, closest = _steps_on(c, pos, i, left, travelled, capped, float(before[i]))
            order = np.lexsort((steps[ok], np.round(closest[ok], 6)))  # closest, then shortest
            for k in np.flatnonzero(ok)[order]:
                if closest[k] >= gap - EPS:
                    break  # "as close as possible": only a step that gets closer
                trial = pos.copy()
                trial[i] = ends[k]
                if coherent(trial, ra_n):  # "keeping unit coherency in mind"
                    travelled[i] += steps[k]
                    capped |= bool(slow[k])
                    pos = trial
                    moved = True
                    break
        if not moved:
            break
    pos.flags.writeable = False  # kept in the geometry memo
    return pos


def _steps_on(
    c: _Charge, pos: np.ndarray, i: int, left: float, travelled: np.ndarray, capped: bool, before: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Model ``i``'s candidate steps towards the target (into contact, or straight on by fractions
    of what it has left): (ends, step lengths, legal, through difficult terrain, closest gap to the
    target). Legal: on the table, no base over the target's or its own unit's, not within 1" of
    another unit (nor closer than it already was) nor through one, nor through impassable or
    dangerous terrain, difficult terrain only within the Walk distance."""
    p = pos[i : i + 1]
    ra, d, rd, pts, rp, table = c.ra, c.d, c.rd, c.pts, c.rp, c.table
    fours = np.repeat(p, len(FRACTIONS), axis=0)  # one row per fraction of what is left
    reach = left * np.array(FRACTIONS)
    straight = [towards(fours, ra, d, rd, reach, k) for k in range(min(NEAREST, len(d)))]
    ends = np.concatenate([contacts(p, ra, d, rd, left), *straight])
    n = len(ends)
    steps = np.linalg.norm(ends - p, axis=1)
    ok = (steps > EPS) & table.on_table(ends, ra)
    gaps = signed_gaps(ends, ra, d, rd)
    ok &= (gaps >= -EPS).all(axis=1)
    ok &= (signed_gaps(ends, ra, np.delete(pos, i, axis=0), ra) >= -EPS).all(axis=1)
    if len(rp):
        near = base_distances(ends, np.full(n, ra), pts, rp, signed=True).min(axis=1)
        ok &= near >= min(KEEP_CLEAR, before) - EPS
        if not c.flying:
            ok &= ~sweeps_meet_bases(np.repeat(p, n, axis=0), ends, ra, pts, rp).any(axis=1)
    slow = np.zeros(n, dtype=bool)
    if not c.flying:
        starts = np.repeat(p, n, axis=0)
        ok &= ~swept(table, starts, ends, ra, "impassable")
        ok &= ~swept(table, starts, ends, ra, "dangerous")  # our reading: see above
        if not c.free and not capped:
            slow = swept(table, starts, ends, ra, "difficult")
            most = np.maximum(float(travelled.max()), travelled[i] + steps)
            ok &= ~slow | (most <= c.walk + EPS)
    return ends, steps, ok, slow, gaps.min(axis=1)


def strikers(s: GameState, u: int, t: int) -> tuple[int, int]:
    """(assaulting models that may strike, defending models that may strike) in ``u``'s assault on
    ``t`` from the current positions (``u`` has made its assault move)."""
    a, d = s.models(u), s.models(t)
    ra, rd = float(s.setup.radii[u]), float(s.setup.radii[t])
    if not len(a) or not len(d):
        return len(a), len(d)
    a = assaulters_moved(s, u, t)
    moved = defenders_moved(a, ra, d, rd)
    close = signed_gaps(a, ra, moved, rd) <= STRIKE_REACH + EPS
    return int(close.any(axis=1).sum()), int(close.any(axis=0).sum())


__all__ = [
    "DEFENDERS_MOVE",
    "STRIKE_REACH",
    "approach",
    "assaulters_moved",
    "contacts",
    "defenders_moved",
    "signed_gaps",
    "strikers",
    "towards",
]
