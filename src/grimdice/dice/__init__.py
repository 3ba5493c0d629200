"""The probability core: exact distributions, dice expressions, rerolls and a seeded sampler.

Game-agnostic: nothing here knows any rule system.
"""

from grimdice.dice.dist import Dist
from grimdice.dice.expr import D3, D6, DiceExpr, DiceSyntaxError, Die, parse
from grimdice.dice.joint import Joint, convolve_nd
from grimdice.dice.reroll import pool_counts, reroll_die, reroll_total
from grimdice.dice.sampler import Sampler

__all__ = [
    "D3",
    "D6",
    "DiceExpr",
    "DiceSyntaxError",
    "Die",
    "Dist",
    "Joint",
    "Sampler",
    "convolve_nd",
    "parse",
    "pool_counts",
    "reroll_die",
    "reroll_total",
]
