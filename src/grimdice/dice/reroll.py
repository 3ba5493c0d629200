"""Rerolls, exactly. A die may only be rerolled once, and the second result stands.

* :func:`reroll_die` - a single die rerolled when its first face is in a set (reroll 1s,
  reroll failures, reroll anything that is not a critical, ...).
* :func:`reroll_total` - a whole roll (e.g. ``2D6``) rerolled when its total qualifies.
* :func:`pool_counts` - a pool of ``n`` dice sorted into categories, with either every
  qualifying die rerolled, or only one die of the pool ("reroll one hit roll").
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.joint import Joint, convolve_nd

FacePredicate = Callable[[int], bool]


def _as_predicate(reroll: Collection[int] | FacePredicate) -> FacePredicate:
    if callable(reroll):
        return reroll
    faces = frozenset(int(f) for f in reroll)
    return lambda f: f in faces


def reroll_die(face: Dist, reroll: Collection[int] | FacePredicate) -> Dist:
    """Face distribution of one die rerolled once when its first face qualifies.

    ``P'(f) = P(f)·[f kept] + P(rerolled)·P(f)``.
    """
    pred = _as_predicate(reroll)
    p_reroll = sum(p for f, p in face.to_dict().items() if pred(f))
    kept = {f: p for f, p in face.to_dict().items() if not pred(f)}
    out = {f: kept.get(f, 0.0) + p_reroll * p for f, p in face.to_dict().items()}
    return Dist.from_mapping(out)


def reroll_total(roll: Dist, reroll: Collection[int] | FacePredicate) -> Dist:
    """A whole roll (any total, e.g. ``2D6`` or ``D3+1``) rerolled once when its total qualifies."""
    return reroll_die(roll, reroll)


def category_probs(face: Dist, categorize: Callable[[int], int], ncat: int) -> np.ndarray:
    """``probs[c] = P(categorize(face) == c)``."""
    probs = np.zeros(ncat)
    for f, p in face.to_dict().items():
        probs[categorize(f)] += p
    return probs


def pool_counts(
    face: Dist,
    n: int,
    categorize: Callable[[int], int],
    ncat: int,
    reroll: Collection[int] | FacePredicate = (),
    *,
    only_one: bool = False,
) -> Joint:
    """Counts per category from a pool of ``n`` dice.

    ``categorize`` maps a face to ``0..ncat-1``; the last category is "nothing" and gets no
    axis in the result. Faces matching ``reroll`` are rerolled once: every such die, or with
    ``only_one=True`` only one of them (the pool is resolved die by die with a flag saying
    whether the single reroll was used; which qualifying die is chosen does not matter because
    the dice are identical and independent).
    """
    pred = _as_predicate(reroll)
    base = category_probs(face, categorize, ncat)
    if not only_one:
        single = Joint.categorical(category_probs(reroll_die(face, pred), categorize, ncat))
        return single.repeat(n)
    # first roll: split into kept outcomes vs rerollable
    kept = np.zeros(ncat)
    p_reroll = 0.0
    for f, p in face.to_dict().items():
        if pred(f):
            p_reroll += p
        else:
            kept[categorize(f)] += p
    ndim = ncat - 1
    unused = Joint.unit(ndim).table  # probability mass, reroll still available
    used = np.zeros((1,) * ndim)  # mass after the reroll was spent
    step_base = Joint.categorical(base).table
    # kept outcomes as an (unnormalised) categorical table
    step_kept = Joint.categorical(kept).table
    step_reroll_spent = step_base * p_reroll  # rerolled die: fresh roll, reroll now used
    for _ in range(n):
        new_unused = convolve_nd(unused, step_kept)
        new_used = _add(convolve_nd(used, step_base), convolve_nd(unused, step_reroll_spent))
        unused, used = new_unused, new_used
    return Joint(_add(unused, used))


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape, strict=True))
    out = np.zeros(shape)
    out[tuple(slice(0, s) for s in a.shape)] += a
    out[tuple(slice(0, s) for s in b.shape)] += b
    return out
