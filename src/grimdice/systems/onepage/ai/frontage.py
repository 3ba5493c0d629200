"""The AI's estimate of who strikes in a charge it imagines: how many of the assaulting unit's models
reach the target's frontage, and how many of the target's models then strike back.

"All models in a unit that are in base contact with an enemy model from the target unit, or that are
within 2" of a model from the target unit may attack", after the assaulting models moved "by up to
12" to get into base contact" and the target's models "by up to 3" to get into base contact". When a
charge happens the game places the assaulting models one by one (``game/assault_ranks.py``). The AI
asks the same question for every enemy unit at every candidate end of its own moves; it estimates
the answer instead (our simplification, the rules still place the models exactly):

* the spots: points on rings around each target model, in base contact and 0.6", 1.2" and 1.8" out
  (a second rank, within 2"), where a whole base stands on the table, over no target base and no
  impassable terrain, and no closer than 1" to a unit other than the two (nor closer than the
  assaulting unit already is);
* a spot counts when one of the three assaulting models nearest to it reaches it within its
  allowance in a straight line that passes over no target base (from where the block stands before
  its move: the far side of a target is out of reach of the models in front of it), Flying models
  passing over them;
* the assaulting models take spots in base contact first, then the second rank, each rank's spots
  nearest to them first, no two bases overlapping: the number of spots taken, at most the models
  within their allowance of a spot, is the assaulting unit's strikers;
* a target model strikes back when it stands within 5" of a spot taken (its 3" move, then 2").

It leaves out what the game's placement also reads (coherency, the paths' terrain and other bases,
who moves first, moves on from the block's end) and costs a few array operations and one compiled
loop (``frontage_kernel.py``); ``benchmarks/frontage_agreement.py`` measures how often it agrees
with the game's own placement in seeded games (docs/onepage-game.md, Players).
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


def strikers(c: Imagined, shape: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[int, int]:
    """(assaulting models that strike, target models that strike back): see the module text;
    ``shape``: the target's :func:`layout`, when already known. A spot is reached when one of its
    :data:`TRIED` nearest assaulting models reaches it; the spots are taken in order of rank, then
    of the nearest model's distance (one compiled loop, ``frontage_kernel.count``)."""
    from grimdice.systems.onepage.ai.frontage_kernel import count

    n = len(c.starts)
    if not n or not len(c.d):
        return n, len(c.d)
    at, tier = spots(c, shape)
    if not len(at):
        return 0, 0
    return count(
        np.ascontiguousarray(at, dtype=np.float64),
        tier.astype(np.float64),
        np.ascontiguousarray(c.starts, dtype=np.float64),
        c.ra,
        c.allowance,
        np.ascontiguousarray(c.d, dtype=np.float64),
        c.rd,
        c.flying,
        TRIED,
        10 * TIGHT,
        DEFENDERS_MOVE + STRIKE_REACH,
        EPS,
    )


__all__ = ["RANKS", "TRIED", "Imagined", "layout", "spots", "strikers"]
