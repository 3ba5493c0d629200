"""Re-rolling attack dice (Roll Attack Dice step), written once for shooting attacks and fights.

Seed text: *Balanced*: "you can re-roll one of your attack dice"; *Ceaseless*: "you can re-roll any
or all of your attack dice results of 1"; *Relentless*: "you can re-roll any or all of your attack
dice". A die is re-rolled at most once (core book); with Balanced and Ceaseless together the 1s and
one more die are chosen at once.

A re-roll is described by how many dice of each category of the first roll are picked up
(:class:`Reroll`); the dice of one category are alike, so which ones does not matter. The law of
the re-rolled dice is the core's pooled counts (:func:`grimdice.systems.killteam.rolls.attack_counts`).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from grimdice.systems.killteam.rules import WeaponRules


class Reroll(NamedTuple):
    """Attack dice picked up from the first roll, per category."""

    crits: int
    normals: int
    ones: int
    misses: int

    @property
    def dice(self) -> int:
        return self.crits + self.normals + self.ones + self.misses

    @property
    def fails(self) -> int:
        return self.ones + self.misses


NO_REROLL = Reroll(0, 0, 0, 0)


def rerolls_allowed(rules: WeaponRules) -> bool:
    return rules.balanced or rules.ceaseless or rules.relentless


def reroll_choices(
    rules: WeaponRules, crits: int, normals: int, ones: int, misses: int
) -> tuple[Reroll, ...]:
    """Every re-roll the weapon's rules allow after a first roll, in preference order (the order
    ties are broken in): no re-roll, then fewest dice, fewest critical hits, fewest normal hits,
    and among equal failed dice the 1s first (fewer Hot mortal wounds)."""
    return _choices(rules.balanced, rules.ceaseless, rules.relentless, crits, normals, ones, misses)


@cache
def _choices(
    balanced: bool, ceaseless: bool, relentless: bool, c: int, h: int, o: int, m: int
) -> tuple[Reroll, ...]:
    if not (balanced or ceaseless or relentless):
        return (NO_REROLL,)
    free = 1 if balanced else 0
    seen: dict[tuple[int, int, int], Reroll] = {}
    for rc in range(c + 1):
        for rh in range(h + 1):
            for ro in range(o + 1):
                for rm in range(m + 1):
                    paid = rc + rh + rm + (0 if ceaseless else ro)
                    if not relentless and paid > free:
                        continue
                    key = (rc, rh, ro + rm)
                    if key not in seen or ro > seen[key].ones:
                        seen[key] = Reroll(rc, rh, ro, rm)
    return tuple(sorted(seen.values(), key=lambda r: (r.dice, r.crits, r.normals, -r.ones)))
