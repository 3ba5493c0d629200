"""The AI's estimate of who strikes in a charge it imagines: how many of the assaulting unit's models
reach the target's frontage, and how many of the target's models then strike back.

"All models in a unit that are in base contact with an enemy model from the target unit, or that are
within 2" of a model from the target unit may attack", after the assaulting models moved "by up to
12" to get into base contact" and the target's models "by up to 3" to get into base contact". When a
charge happens the game places the assaulting models one by one (``game/assault_ranks.py``). The AI
asks the same question for every enemy unit at every candidate end of its own moves; it estimates
the answer instead (our simplification, the rules still place the models exactly):

* the spots: points on rings around each target model, in base contact and 0.6" and 1.2" out (a
  second rank, within 2"), where a whole base stands on the table, over no target base and no
  impassable terrain, and no closer than 1" to a unit other than the two (nor closer than the
  assaulting unit already is);
* a spot counts when an assaulting model reaches it within its allowance in a straight line that
  passes over no target base (from where the block stands before its move: the far side of the
  target is out of reach), Flying models passing over them;
* the assaulting models take spots in base contact first, then the second rank, each the nearest
  to them, no two bases overlapping: the number of spots taken, at most the models that reach one,
  is the assaulting unit's strikers;
* a target model strikes back when it ends within 2" of a spot taken after its 3" move (its gap to
  the nearest one at most 5").

It leaves out what the game's placement also reads (coherency, the paths' terrain, who moves first)
and is one count for a few array operations; it agrees with the game's own placement in most
situations of seeded games (``benchmarks/frontage_agreement.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from grimdice.engine.table.sweeps import bases_in
from grimdice.systems.onepage.game.assault_ranks import nearest, ring

RANKS = (0.0, 0.6, 1.2, 1.8)  # the spots' gaps to the target model: base contact, then a second rank
STRIKE_REACH = 2.0  # "or that are within 2" of a model from the target unit"
DEFENDERS_MOVE = 3.0  # "move by up to 3" to get into base contact"
KEEP_CLEAR = 1.0  # "Units may not move within 1" of other units"
TIGHT = 1e-4  # a spot's extra gap, so that bases in contact do not count as overlapping
EPS = 1e-6
TRIED = 3  # the nearest assaulting models whose straight paths to a spot are tried


@dataclass(frozen=True)
class Imagined:
    """A charge as the estimate reads it: the assaulting models where the block stands before its
    move (``starts``) and their radius, their allowance, the target's models and radius, the other
    units' bases (``pts``, ``rp``), the table and whether the assaulting unit flies."""

    starts: np.ndarray
    ra: float
    allowance: float
    d: np.ndarray
    rd: float
    pts: np.ndarray
    rp: np.ndarray
    table: Any
    flying: bool


def layout(d: np.ndarray, rd: float, ra: float) -> tuple[np.ndarray, np.ndarray]:
    """The spots around the target models ``d`` (see the module text) over no target base, and each
    one's rank (0: base contact), a spot within a quarter of a radius of an earlier one left out
    (the same place for the count). Relative to ``d[0]``: the same for the unit anywhere."""
    rings = [ring(d - d[0], rd + ra + g + TIGHT, ra / 2) for g in RANKS]
    at = np.concatenate(rings)
    tier = np.concatenate([np.full(len(r), k) for k, r in enumerate(rings)])
    ok = nearest(at, ra, d - d[0], rd) >= -EPS
    at, tier = at[ok], tier[ok]
    cell = np.round(at / (ra / 4)).astype(np.int64)
    _, first = np.unique(cell, axis=0, return_index=True)
    first.sort()
    return at[first], tier[first]


def spots(c: Imagined, shape: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The spots (see the module text) and each one's rank (0: base contact); ``shape``: the
    target's :func:`layout`, when already known."""
    rel, tier = layout(c.d, c.rd, c.ra) if shape is None else shape
    at = rel + c.d[0]
    ok = c.table.on_table(at, c.ra)
    if len(c.table.terrain):
        ok &= ~bases_in(c.table, at, c.ra, "impassable")
    if len(c.rp):
        now = float(nearest(c.starts, c.ra, c.pts, c.rp).min())
        ok &= nearest(at, c.ra, c.pts, c.rp) >= min(KEEP_CLEAR, now) - EPS
    return at[ok], tier[ok]


def reached(c: Imagined, at: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each spot: whether one of its :data:`TRIED` nearest assaulting models reaches it (see the
    module text) and the nearest model's distance to it; for each model, whether some spot is
    within its allowance."""
    from grimdice.engine.table import path_kernels

    gaps = np.linalg.norm(at[:, None, :] - c.starts[None, :, :], axis=2)  # (spot, model)
    travel = gaps.min(axis=1)
    if c.flying or not len(at):
        return travel <= c.allowance + EPS, travel, gaps.min(axis=0) <= c.allowance + EPS
    ok = np.zeros(len(at), dtype=bool)
    near = np.argsort(gaps, axis=1, kind="stable")[:, :TRIED]
    radii = np.full(len(c.d), c.rd)
    for k in near.T:
        rows = np.flatnonzero(~ok & (gaps[np.arange(len(at)), k] <= c.allowance + EPS))
        if len(rows):
            ok[rows] = ~path_kernels.sweeps_meet_any(
                c.starts[k[rows]], at[rows], c.ra, c.d, radii, 10 * TIGHT
            )
    return ok, travel, gaps.min(axis=0) <= c.allowance + EPS


def strikers(c: Imagined, shape: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[int, int]:
    """(assaulting models that strike, target models that strike back): see the module text;
    ``shape``: the target's :func:`layout`, when already known."""
    n = len(c.starts)
    if not n or not len(c.d):
        return n, len(c.d)
    at, tier = spots(c, shape)
    ok, travel, movers = reached(c, at)
    at, tier, travel = at[ok], tier[ok], travel[ok]
    most = int(movers.sum())
    taken: list[np.ndarray] = []
    free = np.ones(len(at), dtype=bool)
    order = np.lexsort((travel, tier))
    at, free = at[order], free[order]
    while len(taken) < most and free.any():
        j = int(np.argmax(free))
        taken.append(at[j])
        free &= np.linalg.norm(at - at[j], axis=1) >= 2 * c.ra - EPS
    if not taken:
        return 0, 0
    reach = nearest(c.d, c.rd, np.array(taken), c.ra) <= DEFENDERS_MOVE + STRIKE_REACH + EPS
    return len(taken), int(reach.sum())


__all__ = ["RANKS", "Imagined", "layout", "reached", "spots", "strikers"]
