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
(``GameState.charge_vector``); then the models are placed one by one (:func:`assaulters_moved`,
``assault_ranks.py``): each model not in base contact takes a spot in base contact or, failing
that, a second-rank spot within 2" of a target model, within its own allowance (the assault
distance, 12" or Fast's, measured straight from where it started or on from the block's move; Walk
distance for every model once any model's path crosses difficult terrain, Strider and Flying
apart), the FINAL positions coherent (1" links, 12" span), on the table, over no base nor impassable
terrain and no closer than 1" to a unit other than the target (unless it already was), the paths
clear of other bases and impassable terrain; the models that reach no such spot move as close as
they can. Each defending model not in base contact then moves straight towards its nearest (moved)
assaulting model by up to 3" (stopping at base contact, :func:`towards`). An assaulting model
strikes when some (moved) defending model is within 2" of it, and a defending model strikes when
some assaulting model is within 2" of it. The counts feed the exact melee
(``Conditions.attacker_strikers`` / ``defender_strikers``: the first models alive in the unit's
listed order strike, see ``attack.strikers``). Our readings: the defenders' 3" move ignores
coherency, terrain and other bases; the assaulting models' own moves do not enter or cross dangerous
terrain (the dangerous roll is the block's move); neither model move is kept after the melee (the
blocks keep their formation).
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from grimdice.engine.table.bases import base_distances
from grimdice.engine.table.sweeps import sweeps_touch_pieces
from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.game import assault_ranks
from grimdice.systems.onepage.game.cache import recall
from grimdice.systems.onepage.movement import move_distance

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

DEFENDERS_MOVE = 3.0  # "move by up to 3" to get into base contact"
STRIKE_REACH = 2.0  # "or that are within 2" of a model from the target unit"
KEEP_CLEAR = 1.0  # as GameState's: "Units may not move within 1" of other units"
EPS = 1e-6


def approach(movers: np.ndarray, goals: np.ndarray, gap: np.ndarray, reach: float | np.ndarray) -> np.ndarray:
    """Each mover's centre moved straight towards its goal point by ``min(gap, reach)`` (``gap``:
    how far it may go before it touches; one ``reach`` or one per mover): the defenders' 3" move."""
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
    return recall(s.setup, key, lambda: _moved_on(s, u, t))


def charge_of(s: GameState, u: int, t: int) -> tuple[assault_ranks.Charge, float | None]:
    """What the placement of ``u``'s models in its Assault on ``t`` reads (``s.charge`` set), and
    the Walk distance when a plan capped at it is to be tried (difficult terrain near the charge,
    the block's own path clear of it, not Strider nor Flying; else None)."""
    unit, table = s.setup.units[u], s.setup.table
    sx, sy, full = s.charge[:3]
    ra = float(s.setup.radii[u])
    pts, rp, _, _ = s.others(u, ignore=t)
    flying = unit.has("flying")  # "they may ignore terrain effects"
    free = flying or unit.has("strider")  # Strider: "treat difficult terrain as open"
    walk = move_distance(unit, "walk")
    a, starts = s.models(u), s.models(u, (sx, sy))
    # Difficult: "If any model of a unit moves through difficult terrain at any point of its move, the
    # unit may not move more than its Walk action distance for that movement"
    d = s.models(t)
    difficult = not free and difficult_near(
        table, np.concatenate([starts, d]), 3 * ra + 2 * float(s.setup.radii[t]) + 3.0
    )
    legs = [starts, a] if len(s.charge) < 5 else [starts, s.models(u, (s.charge[3], s.charge[4])), a]
    capped = difficult and any(bool(swept(table, p, q, ra, "difficult").any()) for p, q in pairwise(legs))
    block = None  # a two-leg block's path: its two legs
    if len(legs) == 3 and len(a):
        block = float(np.linalg.norm(legs[1][0] - starts[0]) + np.linalg.norm(a[0] - legs[1][0]))
    # each model's gap to the other units before the Assault, or where the block's move put it when
    # that is closer: the block may end within 1" of enemy units (Assault), and a model that does not
    # move on from there breaks no rule by staying
    before = (
        np.minimum(
            base_distances(starts, ra, pts, rp, signed=True), base_distances(a, ra, pts, rp, signed=True)
        ).min(axis=1)
        if len(rp)
        else None
    )
    c = assault_ranks.Charge(
        starts=starts,
        a=a,
        reach=walk if capped else full,
        d=d,
        ra=ra,
        rd=float(s.setup.radii[t]),
        pts=pts,
        rp=rp,
        before=np.full(len(a), KEEP_CLEAR) if before is None else before,
        table=table,
        flying=flying,
        block=block,
    )
    return c, walk if difficult and not capped else None


def difficult_near(table: Table, pts: np.ndarray, margin: float) -> bool:
    """Whether a difficult piece's bounding box comes within ``margin`` of the box around ``pts``
    (the models' starts and the target's models: every path of the placement stays inside it)."""
    lo, hi = (pts.min(axis=0) - margin).tolist(), (pts.max(axis=0) + margin).tolist()
    keep = table.having("difficult")
    return any(
        keep[k] and x0 <= hi[0] and y0 <= hi[1] and x1 >= lo[0] and y1 >= lo[1]
        for k, (x0, y0, x1, y1) in enumerate(p.bounds for p in table.terrain)
    )


def _moved_on(s: GameState, u: int, t: int) -> np.ndarray:
    c, walk = charge_of(s, u, t)
    pos = assault_ranks.placed(c, walk)
    pos.flags.writeable = False  # kept in the geometry memo
    return pos


def assault_violations(s: GameState) -> list[str]:
    """The rules broken by the assaulting models' end positions in ``s``'s pending melee
    (:func:`assault_ranks.violations`); none when no Assault is pending."""
    if not s.pending or s.pending[0] != "melee" or not s.charge:
        return []
    _, u, t, _ = s.pending
    c, _walk = charge_of(s, u, t)
    return assault_ranks.violations(c, assaulters_moved(s, u, t), f"{s.setup.units[u].name} [{u}]")


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
    "assault_violations",
    "assaulters_moved",
    "charge_of",
    "defenders_moved",
    "signed_gaps",
    "strikers",
    "towards",
]
