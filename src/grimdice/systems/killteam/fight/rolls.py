"""The Roll Attack Dice step of a fight: each side's roll, its re-roll options and Rending.

Each player rolls A D6 (2021 core book): a 1 fails, a result at or above WS is a normal hit, a 6
(or, with Lethal x+, a successful hit of x or more) a critical hit. The re-rolls open to a side are
those of :func:`grimdice.systems.killteam.rerolls.reroll_choices` (Balanced, Ceaseless, Relentless;
the same implementation as for shooting); the laws of the dice are the core's pooled counts
(:func:`grimdice.systems.killteam.rolls.attack_counts`). Rending is chosen after the re-rolls.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from grimdice.systems.killteam.fight.state import Fighter, Hits
from grimdice.systems.killteam.rerolls import reroll_choices
from grimdice.systems.killteam.rolls import attack_counts, count_items


class FirstRoll(NamedTuple):
    """A first roll of a side's attack dice, by category."""

    critical: int
    normal: int
    ones: int
    misses: int


class Keep(NamedTuple):
    """A re-roll choice: the normal and critical hits kept, and how many dice are re-rolled."""

    normal: int
    critical: int
    rerolled: int


def first_rolls(f: Fighter) -> list[tuple[FirstRoll, float]]:
    """Every first roll of ``f``'s attack dice with its probability (lexicographic order)."""
    table = attack_counts(f.attacks, f.hit, f.rules.lethal)
    return [(FirstRoll(*counts), p) for counts, p in count_items(table)]


def reroll_law(k: int, f: Fighter) -> np.ndarray:
    """``law[x, y]``: P(x normal and y critical hits) among ``k`` re-rolled dice of ``f``."""
    return attack_counts(k, f.hit, f.rules.lethal).sum(axis=2).T


def reroll_options(f: Fighter, roll: FirstRoll) -> list[Keep]:
    """The re-rolls open to ``f`` after ``roll``, in preference order (fewest re-rolls first)."""
    c, n, o, m = roll
    return [Keep(n - rn, c - rc, rc + rn + ro + rm) for rc, rn, ro, rm in reroll_choices(f.rules, c, n, o, m)]


def rending_options(f: Fighter, hits: Hits) -> list[Hits]:
    """Rending: with a critical hit retained, one normal hit may be retained as a critical hit."""
    if f.rules.rending and hits.critical and hits.normal:
        return [hits, Hits(hits.normal - 1, hits.critical + 1)]
    return [hits]


def hit_pairs(n: int) -> list[Hits]:
    """Every (normal, critical) count of ``n`` dice."""
    return [Hits(x, y) for x in range(n + 1) for y in range(n + 1 - x)]
