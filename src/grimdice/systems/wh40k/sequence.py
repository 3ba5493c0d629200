"""Exact hit and wound stages of the 10th edition attack sequence for one weapon group.

Per attack the outcome is a small joint distribution over *wound tokens* (normal wounds, and
Critical Wounds of a Devastating Wounds weapon), built from the six faces of each roll:

* a failed hit gives nothing;
* a normal hit makes one Wound roll;
* a Critical Hit makes one Wound roll, or wounds automatically with Lethal Hits (an automatic
  wound is not a Critical Wound), and with Sustained Hits X also scores X further hits, which
  are normal hits and make their own Wound rolls;
* Torrent: every attack hits automatically (no Hit roll, so no Critical Hits).

The group's total is that per-attack joint summed over the random number of attacks, which is
each model's A (plus bonuses) summed over the models.
"""

from __future__ import annotations

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.joint import Joint
from grimdice.engine.pipeline import Roll
from grimdice.systems.wh40k.rolls import roll_result
from grimdice.systems.wh40k.units import WeaponGroup


def attacks(g: WeaponGroup) -> Dist:
    """Total attacks of the group: every model rolls its own A; bonuses are per model."""
    return (g.attacks.dist + g.attack_bonus).repeat(g.models).clip(0)


def _faces(faces: frozenset[int]):
    return lambda f: np.isin(f, sorted(faces))


def hit_roll(g: WeaponGroup) -> Roll:
    """The group's Hit roll (categories CRIT, NORMAL, FAIL; its re-roll), for both engines."""
    return Roll(
        lambda f: roll_result(f, g.hit_target, g.hit_modifier, g.critical_hit),
        3,
        reroll=_faces(g.hit_reroll_faces()),
    )


def wound_roll(g: WeaponGroup) -> Roll:
    """The group's Wound roll (categories CRIT, NORMAL, FAIL; its re-roll), for both engines."""
    return Roll(
        lambda f: roll_result(f, g.wound_target, g.wound_modifier, g.critical_wound),
        3,
        reroll=_faces(g.wound_reroll_faces()),
    )


def hit_probs(g: WeaponGroup) -> np.ndarray:
    """``[P(critical hit), P(normal hit), P(miss)]`` for one attack (after rerolls)."""
    if g.ab.torrent:
        return np.array([0.0, 1.0, 0.0])
    return hit_roll(g).probs


def wound_probs(g: WeaponGroup) -> np.ndarray:
    """``[P(critical wound), P(normal wound), P(fail)]`` for one Wound roll (after rerolls)."""
    return wound_roll(g).probs


def wound_roll_tokens(g: WeaponGroup) -> Joint:
    """One Wound roll as a joint over (normal wound tokens, devastating wound tokens)."""
    pc, pn, pf = wound_probs(g)
    if g.ab.devastating_wounds:
        return Joint.categorical([pn, pc, pf])
    return Joint.categorical([pn + pc, 0.0, pf])


def per_attack(g: WeaponGroup) -> tuple[Dist, Joint]:
    """(hits, wound tokens) of a single attack."""
    pc, pn, pf = hit_probs(g)
    roll = wound_roll_tokens(g)
    extra = g.ab.sustained_hits.dist if g.ab.sustained_hits is not None else Dist.constant(0)
    crit_self = Joint.categorical([1.0, 0.0, 0.0]) if g.ab.lethal_hits else roll
    crit = crit_self + roll.sum_of(extra)
    nothing = Joint.unit(2)
    tokens = Joint.mixture([pf, pn, pc], [nothing, roll, crit])
    hits = Dist.mixture([pf, pn, pc], [Dist.constant(0), Dist.constant(1), extra + 1])
    return hits, tokens
