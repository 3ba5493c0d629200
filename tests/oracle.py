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


def walk(step, start, token: icepool.Die, count: icepool.Die) -> dict:
    """Final state law after a random number ``count`` of independent ``token`` outcomes, each
    applied by ``step(state, outcome)`` from ``start``: ``{state: probability}``."""
    states = [icepool.Die([start])]
    for _ in range(count.max_outcome()):
        states.append(icepool.map(step, states[-1], token))
    out: dict = {}
    for k, q in count.items():
        d = states[k]
        for state, qq in d.items():
            out[state] = out.get(state, 0.0) + q / count.denominator() * qq / d.denominator()
    return out
