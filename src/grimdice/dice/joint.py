"""Exact joint distributions over small tuples of non-negative counts.

Rules often need more than one count at once: a pool of hit dice yields (critical hits,
normal hits); a pool of wound dice yields (critical wounds, normal wounds). A :class:`Joint`
holds ``P(X0 = i0, X1 = i1, ...)`` in an ``ndim``-dimensional float64 array, and sums of
independent joint variables are multi-dimensional convolutions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from grimdice.dice.algebra import random_sum, repeat
from grimdice.dice.dist import Dist


def convolve_nd(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Full N-dimensional convolution of two arrays of equal rank.

    Both arrays are laid out in a common flat index space wide enough that no term wraps,
    so a single 1-D ``np.convolve`` does the work exactly.
    """
    if a.ndim != b.ndim:
        raise ValueError("arrays must have the same rank")
    out_shape = tuple(x + y - 1 for x, y in zip(a.shape, b.shape, strict=True))
    if a.ndim == 1:
        return np.convolve(a, b)
    pa = np.zeros(out_shape)
    pa[tuple(slice(0, s) for s in a.shape)] = a
    pb = np.zeros(out_shape)
    pb[tuple(slice(0, s) for s in b.shape)] = b
    size = int(np.prod(out_shape))
    flat = np.convolve(pa.ravel(), pb.ravel())[:size]
    return flat.reshape(out_shape)


def _trimmed(arr: np.ndarray) -> np.ndarray:
    """``arr`` without its trailing all-zero slabs on every axis (at least one cell kept per axis)."""
    for ax in range(arr.ndim):
        if arr.shape[ax] > 1 and not np.take(arr, -1, axis=ax).any():
            mass = np.moveaxis(arr, ax, 0).reshape(arr.shape[ax], -1).any(axis=1)
            nz = np.flatnonzero(mass)
            hi = int(nz[-1]) + 1 if nz.size else 1
            arr = arr[(slice(None),) * ax + (slice(0, hi),)]
    return arr


class Joint:
    """Joint distribution over tuples of non-negative integers: ``P(X = idx) = table[idx]``."""

    __slots__ = ("_table",)

    def __init__(self, table: np.ndarray) -> None:
        arr = np.asarray(table, dtype=np.float64)
        if arr.ndim == 0:
            raise ValueError("a joint distribution needs at least one axis")
        if np.any(arr < -1e-12):
            raise ValueError("probabilities must be non-negative")
        self._table = _trimmed(np.clip(arr, 0.0, None))
        self._table.setflags(write=False)

    @classmethod
    def _trusted(cls, table: np.ndarray) -> Joint:
        """Internal fast path for a fresh table produced by exact operations on valid joints
        (non-negative): trailing all-zero slabs are trimmed, nothing is validated or copied."""
        self = object.__new__(cls)
        self._table = _trimmed(table)
        self._table.setflags(write=False)
        return self

    @classmethod
    def unit(cls, ndim: int) -> Joint:
        """All counts zero with certainty (the identity for ``+``)."""
        return cls._trusted(np.ones((1,) * ndim))

    @classmethod
    def from_mapping(cls, probs: Mapping[tuple[int, ...], float]) -> Joint:
        """Build from ``{(i0, i1, ...): probability}``."""
        if not probs:
            raise ValueError("a distribution needs at least one outcome")
        keys = list(probs)
        ndim = len(keys[0])
        shape = tuple(max(k[a] for k in keys) + 1 for a in range(ndim))
        t = np.zeros(shape)
        for k, p in probs.items():
            if len(k) != ndim or min(k) < 0:
                raise ValueError(f"bad outcome {k}")
            t[k] += p
        return cls(t)

    @classmethod
    def categorical(cls, probs: Sequence[float] | np.ndarray) -> Joint:
        """One trial landing in category ``i`` with ``probs[i]``; counts per category.

        The last category is the "nothing" category and gets no axis, so ``categorical([pc,
        pn, pf])`` is a 2-axis joint of (criticals, normals) for one die.
        """
        n = len(probs) - 1
        t = np.zeros((2,) * n)
        t[(0,) * n] = probs[-1]
        for i in range(n):
            idx = [0] * n
            idx[i] = 1
            t[tuple(idx)] += probs[i]
        return cls(t)

    @property
    def table(self) -> np.ndarray:
        return self._table

    @property
    def ndim(self) -> int:
        return self._table.ndim

    def __add__(self, other: Joint) -> Joint:
        """Sum of two independent joint variables."""
        return Joint._trusted(convolve_nd(self._table, other._table))

    def repeat(self, n: int) -> Joint:
        """Sum of ``n`` independent copies."""
        return repeat(self, n, Joint.unit(self.ndim))

    def sum_of(self, count: Dist) -> Joint:
        """Sum of a random number of independent copies."""
        return random_sum(self, count, Joint.unit(self.ndim), Joint.mixture)

    @staticmethod
    def mixture(weights: Sequence[float], parts: Sequence[Joint]) -> Joint:
        ndim = parts[0].ndim
        shape = tuple(max(p.table.shape[a] for p in parts) for a in range(ndim))
        t = np.zeros(shape)
        for w, p in zip(weights, parts, strict=True):
            t[tuple(slice(0, s) for s in p.table.shape)] += w * p.table
        return Joint._trusted(t)

    def marginal(self, axis: int) -> Dist:
        other = tuple(i for i in range(self.ndim) if i != axis)
        return Dist._trusted(self._table.sum(axis=other) if other else self._table, 0, owned=bool(other))

    def map(self, f: Callable[..., int]) -> Dist:
        """Distribution of ``f(i0, i1, ...)``."""
        out: dict[int, float] = {}
        for idx in zip(*np.nonzero(self._table), strict=True):
            v = int(f(*map(int, idx)))
            out[v] = out.get(v, 0.0) + float(self._table[idx])
        return Dist.from_mapping(out)

    def total(self) -> Dist:
        """Distribution of the sum of all the counts."""
        idx = np.indices(self._table.shape).sum(axis=0)
        return Dist._trusted(np.bincount(idx.ravel(), weights=self._table.ravel()), 0, owned=True)

    def items(self) -> list[tuple[tuple[int, ...], float]]:
        return [
            (tuple(int(i) for i in idx), float(self._table[idx]))
            for idx in zip(*np.nonzero(self._table), strict=True)
        ]

    def __repr__(self) -> str:
        return f"Joint(shape={self._table.shape})"
