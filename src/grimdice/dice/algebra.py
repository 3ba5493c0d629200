"""Sums of independent copies, shared by :class:`~grimdice.dice.Dist` and :class:`~grimdice.dice.Joint`.

Both types are commutative monoids under ``+`` (independent sum) with a zero element and a
``mixture`` constructor, which is all these two compound operations need.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from grimdice.dice.dist import Dist


S = TypeVar("S", bound="Summable")


class Summable(Protocol):
    def __add__(self: S, other: S, /) -> S: ...


T = TypeVar("T")


def repeat(x: T, n: int, zero: T, add: Callable[[T, T], T] = operator.add) -> T:
    """Sum of ``n`` independent copies of ``x``, by repeated squaring (``add``: the independent
    sum of two values, ``+`` by default; a caller may work on raw arrays with its own)."""
    if n < 0:
        raise ValueError("n must be >= 0")
    result, base = zero, x
    while n:
        if n & 1:
            result = add(result, base)
        n >>= 1
        if n:
            base = add(base, base)
    return result


def random_sum(
    x: T,
    count: Dist,
    zero: T,
    mixture: Callable[[Sequence[float], Sequence[T]], T],
    add: Callable[[T, T], T] = operator.add,
) -> T:
    """Sum of a random number ``count`` of independent copies of ``x`` (``add`` as in :func:`repeat`)."""
    if count.min < 0:
        raise ValueError("a count cannot be negative")
    if count.min == count.max:
        return repeat(x, count.min, zero, add)
    probs = [0.0] * count.min + count.pmf.tolist()
    acc = zero
    weights: list[float] = []
    parts: list[T] = []
    for n, p in enumerate(probs):
        if n > 0:
            acc = add(acc, x)
        if p > 0:
            weights.append(p)
            parts.append(acc)
    return mixture(weights, parts)
