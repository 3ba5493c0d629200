"""Helpers to compare grimdice distributions with the independent icepool oracle."""

from __future__ import annotations

from fractions import Fraction

import icepool

from grimdice.dice import Dist


def from_icepool(die: icepool.Die) -> Dist:
    """An icepool die (integer outcomes) as a grimdice Dist."""
    total = die.denominator()
    return Dist.from_mapping({int(k): q / total for k, q in die.items()})


def frac(d: Dist, k: int) -> Fraction:
    return Fraction(d[k]).limit_denominator(10**9)
