"""The dice tests of the 10th edition attack sequence, as functions of the unmodified D6.

All functions work on plain ints and on NumPy integer arrays alike, so the exact engine (which
enumerates the six faces) and the Monte Carlo engine (which rolls millions of dice) read the
same rule text in one place:

* Hit roll (core rules, Making Attacks 1): an unmodified 1 always fails; an unmodified result at
  or above the critical threshold (6 unless a rule lowers it) is a Critical Hit and always
  succeeds; otherwise the modified roll must reach BS/WS. Modifiers total at most +1/-1.
* Wound roll (Making Attacks 2): target number from Strength vs Toughness; unmodified 1 fails,
  a Critical Wound (unmodified 6, or lower via Anti-KEYWORD X+) always succeeds; modifiers
  total at most +1/-1.
* Saving throw (Making Attacks 3): roll modified by AP and the Benefit of Cover; unmodified 1
  fails; an invulnerable save is never modified by AP or cover; the better save is used.
"""

from __future__ import annotations

import numpy as np

CRIT, NORMAL, FAIL = 0, 1, 2  # result categories of hit and wound rolls
FACES = (1, 2, 3, 4, 5, 6)


def cap(modifier: int) -> int:
    """Hit and wound roll modifiers never total more than +1 or less than -1."""
    return max(-1, min(1, modifier))


def wound_target(S: int, T: int) -> int:
    """The Wound roll needed: S >= 2T: 2+; S > T: 3+; S = T: 4+; S < T: 5+; 2S <= T: 6+."""
    if S >= 2 * T:
        return 2
    if S > T:
        return 3
    if S == T:
        return 4
    if 2 * S <= T:
        return 6
    return 5


def roll_result(face, target: int, modifier: int, critical: int):
    """Category (CRIT/NORMAL/FAIL) of a hit or wound roll from its unmodified face(s)."""
    face = np.asarray(face)
    crit = face >= critical
    ok = (face != 1) & (face + cap(modifier) >= target)
    out = np.where(crit, CRIT, np.where(ok, NORMAL, FAIL))
    return int(out) if out.ndim == 0 else out


def save_passes(face, Sv: int, AP: int, cover: bool, modifier: int, invulnerable: int | None):
    """Whether a saving throw with this unmodified face succeeds (the better save is taken).

    Armour: face + AP + (1 if cover) + modifier >= Sv. Invulnerable: face >= invulnerable, never
    modified. An unmodified 1 always fails.
    """
    face = np.asarray(face)
    armour = face + AP + (1 if cover else 0) + modifier >= Sv
    if invulnerable is not None:
        armour = armour | (face >= invulnerable)
    out = armour & (face != 1)
    return bool(out) if out.ndim == 0 else out


def cover_applies(Sv: int, AP: int, melee: bool, has_cover: bool, ignores_cover: bool) -> bool:
    """Benefit of Cover: +1 to armour saves against ranged attacks; not for Sv 3+ or better
    against AP 0; never with Ignores Cover."""
    if not has_cover or melee or ignores_cover:
        return False
    return not (Sv <= 3 and AP == 0)


def fnp_passes(face, x: int | None):
    """Feel No Pain x+: each wound that would be lost is ignored on a D6 of x or more."""
    face = np.asarray(face)
    out = np.zeros(face.shape, dtype=bool) if x is None else face >= x
    return bool(out) if out.ndim == 0 else out


def modified_damage(d, halve: bool, reduction: int, bonus: int):
    """Damage after modifiers, applied in the core order: halve (rounding up), then add
    (Melta), then subtract (damage reduction); never below 1 (a 0-damage roll stays 0)."""
    d = np.asarray(d)
    out = np.where(halve, (d + 1) // 2, d) + bonus - reduction
    out = np.where(d > 0, np.maximum(out, 1), 0)
    return int(out) if out.ndim == 0 else out
