"""The dice tests of the Horus Heresy 2.0 (Age of Darkness) attack sequence, as pure functions.

Every function works on plain ints and on NumPy integer arrays alike, so the exact engine (which
enumerates faces) and the Monte Carlo engine (which rolls them) read each rule in one place.
A target number of :data:`NEVER` (7) means "no D6 reaches it" (no save, no such rule, cannot wound).

* To Hit, shooting (published 2.0 rulebook, BS chart): BS 1-5 hit on ``7 - BS``; BS 6+ hit on 2+
  and a failed roll is re-rolled once needing ``12 - BS`` (BS6 6+, BS7 5+ ... BS10 2+); a natural
  1 always misses. Snap Shots are made at BS 1. With another re-roll (Twin-linked) the re-roll
  needs the same number as the first roll.
* To Hit, melee (WS chart): attacker WS higher than the target's: 3+; target WS more than double
  the attacker's: 5+; otherwise 4+ (or the scenario's own table, ``conditions.ws_chart``).
* To Wound (S vs T chart): S >= T+2: 2+, T+1: 3+, T: 4+, T-1: 5+, T-2 and T-3: 6+, lower: cannot
  wound. A natural 1 always fails.
* Saves: an armour save is lost when AP is equal to or better (lower) than Sv; invulnerable and
  cover saves ignore AP; only one save is taken, the best.
* Damage Mitigation (Feel No Pain, Shrouded): one roll per wound, after a failed save.
"""

from __future__ import annotations

import numpy as np

NEVER = 7
FACES = (1, 2, 3, 4, 5, 6)
FAIL, WOUND, SPECIAL = 0, 1, 2  # wound roll results; SPECIAL: a Rending/Breaching wound (AP 2)


def _out(x):
    x = np.asarray(x)
    return x.item() if x.ndim == 0 else x


def bs_hit_target(bs: int) -> int:
    """The To Hit roll of a Shooting Attack: ``7 - BS``, never better than 2+."""
    return max(2, 7 - bs)


def bs_reroll_target(bs: int) -> int | None:
    """BS 6 and above re-roll a failed To Hit roll once, needing ``12 - BS`` (at best 2+)."""
    return max(2, 12 - bs) if bs >= 6 else None


def ws_hit_target(ws_attacker: int, ws_target: int, chart: list[list[int]] | None = None) -> int:
    """The melee To Hit chart: 3+ against a lower WS, 5+ against more than double, else 4+ (the
    values carried over from 7th edition, reading ``melee_to_hit_chart``); ``chart``: the table a
    scenario gives instead (``conditions.ws_chart``: row attacker WS, column target WS, 1-based)."""
    if chart is not None:
        return chart[ws_attacker - 1][ws_target - 1]
    if ws_attacker > ws_target:
        return 3
    if ws_target > 2 * ws_attacker:
        return 5
    return 4


def hit_roll(first, second, target: int, reroll_target: int | None):
    """``(hit, final_face)`` of a To Hit roll from its first face and the face a re-roll would show.

    A failed first roll is re-rolled (once) when ``reroll_target`` is set; the re-roll stands.
    A natural 1 always misses.
    """
    first = np.asarray(first)
    second = np.asarray(second)
    ok1 = (first != 1) & (first >= target)
    if reroll_target is None:
        return _out(ok1), _out(first)
    final = np.where(ok1, first, second)
    ok2 = (second != 1) & (second >= reroll_target)
    return _out(ok1 | ok2), _out(final)


def wound_chart(S: int, T: int) -> int:
    """The To Wound roll needed from Strength against Toughness (NEVER: cannot wound)."""
    d = S - T
    if d >= 2:
        return 2
    if d == 1:
        return 3
    if d == 0:
        return 4
    if d == -1:
        return 5
    if d >= -3:
        return 6
    return NEVER


def wound_result(face, target: int, rending: int, breaching: int):
    """FAIL, WOUND or SPECIAL (a wound resolved at AP 2) from the unmodified face of a Wound roll.

    Rending (X): a roll of X+ wounds automatically, regardless of Toughness, at AP 2.
    Breaching (X): a roll of X+ that wounds is resolved at AP 2. A natural 1 always fails.
    """
    face = np.asarray(face)
    wounds = (face != 1) & ((face >= target) | (face >= rending))
    special = wounds & ((face >= rending) | (face >= breaching))
    return _out(np.where(special, SPECIAL, np.where(wounds, WOUND, FAIL)))


def save_target(Sv: int, AP: int, invulnerable: int, cover: int) -> int:
    """The best save available: armour (only if AP is worse than Sv), invulnerable or cover."""
    armour = Sv if Sv < AP else NEVER
    return min(armour, invulnerable, cover)


def save_choice(Sv: int, AP: int, invulnerable: int, cover: int, reroll_armour: bool) -> tuple[int, bool]:
    """``(target, re-rolled)`` of the one save a model takes: the most likely to pass. With
    ``reroll_armour`` (Heavy sub-type against Blast and Template weapons) a failed armour save is
    re-rolled once, which may make it the better choice."""
    armour = save_target(Sv, AP, NEVER, NEVER)
    other = min(invulnerable, cover)
    if not reroll_armour or armour == NEVER:
        return min(armour, other), False
    pa = (7 - armour) / 6
    if 1 - (1 - pa) ** 2 > (7 - other) / 6:
        return armour, True
    return other, False


def passes(face, target: int):
    """A D6 test of ``target``+ (saves, Damage Mitigation): a natural 1 always fails."""
    face = np.asarray(face)
    return _out((face != 1) & (face >= target))


def mitigation_target(
    fnp: int, shrouded: int, *, melee: bool, ignores_cover: bool, instant_death: bool
) -> int:
    """The one Damage Mitigation roll a model may make against an unsaved wound (the best allowed).

    Feel No Pain may not be taken against a wound with Instant Death (2.0 rulebook). Shrouded may
    not be taken against a Melee Weapon (seed text) nor against Ignores Cover (2.0 rulebook).
    """
    options = [NEVER]
    if not instant_death:
        options.append(fnp)
    if not melee and not ignores_cover:
        options.append(shrouded)
    return min(options)


def instant_death(S: int, T: int, weapon_rule: bool) -> bool:
    """An unsaved wound inflicts Instant Death with the weapon rule, or at Strength >= 2 x T."""
    return weapon_rule or S >= 2 * T


def wounds_lost(left, instant, eternal_warrior):
    """Wounds a model with ``left`` wounds loses from one unsaved, unmitigated wound: Instant
    Death reduces it to 0 (Eternal Warrior: only 1); otherwise one wound is lost."""
    left = np.asarray(left)
    lost = np.where(np.asarray(instant) & ~np.asarray(eternal_warrior), left, np.minimum(left, 1))
    return _out(lost)
