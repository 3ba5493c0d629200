"""Who strikes in a melee, model by model, after the defenders' 3" move.

"Once all assaulting models have moved, then all models from the target unit that are not in base
contact with an assaulting model move by up to 3" to get into base contact with an assaulting model,
or as close to an assaulting model as possible" and "All models in a unit that are in base contact
with an enemy model from the target unit, or that are within 2" of a model from the target unit may
attack with all their melee weapons."

Each defending model not in base contact moves straight towards its nearest assaulting model by up
to 3" (stopping at base contact); then an assaulting model strikes when some (moved) defending model
is within 2" of it, and a defending model strikes when some assaulting model is within 2" of it. The
counts feed the exact melee (``Conditions.attacker_strikers`` / ``defender_strikers``: the first
models alive in the unit's listed order strike, see ``attack.strikers``). Our readings: the 3" move
ignores coherency, terrain and other bases, and is not kept after the melee (the blocks keep their
formation).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

DEFENDERS_MOVE = 3.0  # "move by up to 3" to get into base contact"
STRIKE_REACH = 2.0  # "or that are within 2" of a model from the target unit"
EPS = 1e-6


def defenders_moved(a: np.ndarray, ra: float, d: np.ndarray, rd: float) -> np.ndarray:
    """The defending models' centres after their 3" move towards their nearest assaulting model."""
    vec = a[None, :, :] - d[:, None, :]  # (defender, attacker)
    dist = np.linalg.norm(vec, axis=2)
    k = dist.argmin(axis=1)
    rows = np.arange(len(d))
    centre = dist[rows, k]
    gap = np.maximum(centre - ra - rd, 0.0)
    step = np.minimum(gap, DEFENDERS_MOVE)
    with np.errstate(invalid="ignore", divide="ignore"):
        unit = np.where(centre[:, None] > EPS, vec[rows, k] / centre[:, None], 0.0)
    return np.asarray(d + unit * step[:, None])


def strikers(s: GameState, u: int, t: int) -> tuple[int, int]:
    """(assaulting models that may strike, defending models that may strike) in ``u``'s assault on
    ``t`` from the current positions (``u`` has made its assault move)."""
    a, d = s.models(u), s.models(t)
    ra, rd = float(s.setup.radii[u]), float(s.setup.radii[t])
    if not len(a) or not len(d):
        return len(a), len(d)
    moved = defenders_moved(a, ra, d, rd)
    gaps = np.linalg.norm(a[:, None, :] - moved[None, :, :], axis=2) - ra - rd
    close = gaps <= STRIKE_REACH + EPS
    return int(close.any(axis=1).sum()), int(close.any(axis=0).sum())


__all__ = ["DEFENDERS_MOVE", "STRIKE_REACH", "defenders_moved", "strikers"]
