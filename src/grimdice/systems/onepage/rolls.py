"""The dice tests of One Page 40k as pure predicates on D6 faces (ints or NumPy arrays).

"Whenever a rule states that a unit must take a Quality test roll one die. If you score the units
Quality value or higher, then it counts as successful, else it counts as failed."
"""

from __future__ import annotations

from functools import cache

import numpy as np

from grimdice.dice import D6, Dist, reroll_die


def passes(faces: np.ndarray | int, quality: int) -> np.ndarray | bool:
    """A Quality test: the face scores the Quality value or higher."""
    return np.asarray(faces) >= quality


@cache
def hit_face(quality: int, reroll_fail: bool, reroll_success: bool) -> Dist:
    """The final face of a hit die. Linked/Hatred: "re-roll failed hits"; a Shaken vehicle "must
    re-roll successful hits". "A die roll may only be re-rolled once" — each die is re-rolled at most
    once whichever rule asks."""
    return reroll_die(
        D6.dist,
        lambda f: bool((reroll_fail and f < quality) or (reroll_success and f >= quality)),
    )


def p_pass(quality: int) -> float:
    return (7 - quality) / 6


def p_morale(quality: int, fearless: bool) -> float:
    """A morale test passes. Fearless: "roll one extra die and pick the highest result"."""
    fail = 1 - p_pass(quality)
    return 1 - fail * fail if fearless else 1 - fail


#: Armored: "roll one die for each hit. On a 4+ the hit is ignored."
ARMORED_IGNORES = 4

#: the Vehicle damage table: 1-2 Glanced, 3-4 Shaken, 5-6 Immobile
GLANCED, SHAKEN, IMMOBILE = 0, 1, 2


def damage_result(faces: np.ndarray | int) -> np.ndarray:
    return (np.asarray(faces) - 1) // 2


@cache
def damage_table(facing: str) -> tuple[float, float, float]:
    """P(Glanced, Shaken, Immobile): "If the Vehicle is hit in the front facing you must roll two dice
    and pick the lowest result. If the Vehicle is hit in the side or you are not sure, then only roll
    one die. If the Vehicle is hit in the rear facing you must roll two dice and pick the highest
    result." """
    face = {"front": _min2(), "side": D6.dist, "rear": _max2()}[facing]
    probs = [0.0, 0.0, 0.0]
    for f, p in face.to_dict().items():
        probs[int(damage_result(f))] += p
    return probs[0], probs[1], probs[2]


def _min2() -> Dist:
    return Dist.from_mapping({k: ((7 - k) ** 2 - (6 - k) ** 2) / 36 for k in range(1, 7)})


def _max2() -> Dist:
    return Dist.from_mapping({k: (k**2 - (k - 1) ** 2) / 36 for k in range(1, 7)})
