"""Exact probability distributions over integers.

A :class:`Dist` is a finite probability mass function over a contiguous range of integers,
stored as a NumPy ``float64`` array plus the integer ``offset`` of its first entry. All the
arithmetic a dice pipeline needs (sums of independent variables, n-fold sums, sums of a random
number of variables, mixtures, mapping, binomial thinning) is exact up to float64 rounding.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np

from grimdice.dice.algebra import random_sum, repeat

_TRIM_EPS = 0.0  # exact by default: only exact zeros are trimmed from the ends


_ONE = np.ones(1)
_ONE.setflags(write=False)


Pmf = tuple[np.ndarray, int]
"""A law as (probabilities, offset of the first one): what :class:`Dist` holds, without the object."""


def _trim(pmf: np.ndarray, offset: int) -> Pmf:
    """``pmf`` without zero ends (exact arithmetic can underflow to zero there)."""
    if pmf[0] == 0.0 or pmf[-1] == 0.0:
        nz = np.flatnonzero(pmf)
        if nz.size == 0:
            raise ValueError("probabilities must not all be zero")
        return pmf[int(nz[0]) : int(nz[-1]) + 1], offset + int(nz[0])
    return pmf, offset


def _add(x: Pmf, y: Pmf) -> Pmf:
    """The law of the sum of two independent variables (a convolution; a single outcome is a shift
    times its mass). The result may be one of the inputs' arrays."""
    (a, oa), (b, ob) = x, y
    if b.size == 1:
        a, b = b, a
    if a.size == 1:
        return (b, oa + ob) if a[0] == 1.0 else (a[0] * b, oa + ob)
    return _trim(np.convolve(a, b), oa + ob)


def _mix(weights: Sequence[float], parts: Sequence[Pmf]) -> Pmf:
    """``parts[i]`` with probability ``weights[i]``."""
    lo = min(o for _, o in parts)
    out = np.zeros(max(o + a.size for a, o in parts) - lo)
    for w, (a, o) in zip(weights, parts, strict=True):
        if w:
            out[o - lo : o - lo + a.size] += w * a
    return out, lo


def _as_pmf(values: Iterable[float]) -> np.ndarray:
    pmf = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=np.float64)
    if pmf.ndim != 1:
        raise ValueError("a pmf must be one-dimensional")
    return pmf


class Dist:
    """A distribution over integers: ``P(X = offset + i) = pmf[i]``.

    Instances are immutable values; every operation returns a new ``Dist``.
    """

    __slots__ = ("_offset", "_pmf")

    def __init__(self, pmf: Iterable[float], offset: int = 0, *, normalize: bool = False) -> None:
        arr = _as_pmf(pmf)
        if arr.size == 0:
            raise ValueError("a distribution needs at least one outcome")
        least, total = arr.min(), arr.sum()
        if not (least >= -1e-12 and np.isfinite(total)):  # NaN fails the comparison too
            raise ValueError("probabilities must be finite and non-negative")
        if least < 0:
            arr = np.clip(arr, 0.0, None)
            total = arr.sum()
        if total <= 0:
            raise ValueError("probabilities must not all be zero")
        if normalize:
            arr = arr / total
        nz = np.flatnonzero(arr > _TRIM_EPS)
        lo, hi = int(nz[0]), int(nz[-1])
        self._pmf = arr[lo : hi + 1].copy()
        self._pmf.setflags(write=False)
        self._offset = int(offset) + lo

    @classmethod
    def _trusted(cls, pmf: np.ndarray, offset: int, *, owned: bool = False) -> Dist:
        """Internal fast path for arrays produced by exact operations on valid distributions
        (finite, non-negative, not all zero): only zero ends are trimmed, nothing is validated.

        ``owned``: ``pmf`` is a fresh array nobody else holds (a convolution's result), so it is
        kept without a copy. A read-only array is always shared (it can no longer change)."""
        if pmf[0] == 0.0 or pmf[-1] == 0.0:
            pmf, offset = _trim(pmf, int(offset))
            owned = False
        self = object.__new__(cls)
        if pmf.flags.writeable:
            if not owned:
                pmf = pmf.copy()
            pmf.setflags(write=False)
        self._pmf = pmf
        self._offset = int(offset)
        return self

    # ------------------------------------------------------------------ constructors
    @classmethod
    def constant(cls, value: int) -> Dist:
        """The distribution that is ``value`` with certainty."""
        self = object.__new__(cls)
        self._pmf = _ONE
        self._offset = int(value)
        return self

    @classmethod
    def from_mapping(cls, probs: Mapping[int, float], *, normalize: bool = False) -> Dist:
        """Build from ``{outcome: probability}`` (or weights with ``normalize=True``)."""
        if not probs:
            raise ValueError("a distribution needs at least one outcome")
        lo, hi = min(probs), max(probs)
        pmf = np.zeros(hi - lo + 1)
        for k, p in probs.items():
            pmf[int(k) - lo] += p
        return cls(pmf, lo, normalize=normalize)

    @classmethod
    def from_outcomes(cls, values: np.ndarray, weights: np.ndarray) -> Dist:
        """The law of non-negative integer ``values`` (any shape) carrying probabilities ``weights``
        (same shape), e.g. a count read off every cell of a joint state grid."""
        v = np.asarray(values, dtype=np.int64).ravel()
        w = np.broadcast_to(np.asarray(weights, dtype=np.float64), np.shape(values)).ravel()
        if v.size and v.min() < 0:
            raise ValueError("outcomes must be non-negative counts")
        return cls(np.bincount(v, weights=w))

    @classmethod
    def from_faces(cls, faces: Sequence[int]) -> Dist:
        """A fair die whose faces carry the given integer values (repeats allowed)."""
        if len(faces) == 0:
            raise ValueError("a die needs at least one face")
        counts: dict[int, float] = {}
        for f in faces:
            counts[int(f)] = counts.get(int(f), 0.0) + 1.0
        return cls.from_mapping(counts, normalize=True)

    @classmethod
    def uniform(cls, low: int, high: int) -> Dist:
        """Uniform over ``low..high`` inclusive (a ``D(high)`` when ``low == 1``)."""
        if high < low:
            raise ValueError(f"empty range {low}..{high}")
        n = high - low + 1
        return cls(np.full(n, 1.0 / n), low)

    @classmethod
    def bernoulli(cls, p: float) -> Dist:
        """1 with probability ``p``, else 0."""
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"probability {p} is not in [0, 1]")
        if p == 1.0:
            return cls.constant(1)
        return cls._trusted(np.array([1.0 - p, p]), 0, owned=True)

    @classmethod
    def binomial(cls, n: int, p: float) -> Dist:
        """Number of successes in ``n`` independent trials of probability ``p``."""
        if n < 0:
            raise ValueError("n must be >= 0")
        return cls.bernoulli(p).repeat(n)

    @classmethod
    def mixture(cls, weights: Sequence[float], dists: Sequence[Dist]) -> Dist:
        """``dists[i]`` with probability ``weights[i]`` (weights must sum to 1)."""
        if len(weights) != len(dists) or not dists:
            raise ValueError("mixture needs one weight per distribution")
        out, lo = _mix(weights, [(d._pmf, d._offset) for d in dists])
        return cls._trusted(out, lo, owned=True)

    # ------------------------------------------------------------------ accessors
    @property
    def pmf(self) -> np.ndarray:
        """Read-only probabilities, ``pmf[i] = P(X = offset + i)``."""
        return self._pmf

    @property
    def offset(self) -> int:
        return self._offset

    @property
    def min(self) -> int:
        return self._offset

    @property
    def max(self) -> int:
        return self._offset + self._pmf.size - 1

    @property
    def outcomes(self) -> np.ndarray:
        return np.arange(self._offset, self._offset + self._pmf.size)

    def __getitem__(self, k: int) -> float:
        """``P(X = k)``; zero outside the support."""
        i = int(k) - self._offset
        return float(self._pmf[i]) if 0 <= i < self._pmf.size else 0.0

    def to_dict(self) -> dict[int, float]:
        return {int(k): float(p) for k, p in zip(self.outcomes, self._pmf, strict=True) if p > 0}

    def pmf_from_zero(self) -> list[float]:
        """Probabilities indexed from 0 (``[P(0), P(1), ...]``); needs a non-negative support."""
        if self._offset < 0:
            raise ValueError("distribution has negative outcomes")
        return [0.0] * self._offset + [float(p) for p in self._pmf]

    # ------------------------------------------------------------------ statistics
    def total(self) -> float:
        return float(self._pmf.sum())

    def mean(self) -> float:
        return float(np.dot(self.outcomes, self._pmf))

    def variance(self) -> float:
        m = self.mean()
        return float(np.dot((self.outcomes - m) ** 2, self._pmf))

    def std(self) -> float:
        return float(np.sqrt(self.variance()))

    def prob_at_least(self, k: int) -> float:
        """``P(X >= k)``."""
        i = int(k) - self._offset
        if i <= 0:
            return float(self._pmf.sum())
        return float(self._pmf[i:].sum()) if i < self._pmf.size else 0.0

    def prob_at_most(self, k: int) -> float:
        """``P(X <= k)``."""
        return self.total() - self.prob_at_least(k + 1)

    def at_least(self) -> np.ndarray:
        """``[P(X >= min), P(X >= min+1), ..., P(X >= max)]``: the "at least N" table."""
        return np.cumsum(self._pmf[::-1])[::-1]

    def cdf(self) -> np.ndarray:
        return np.cumsum(self._pmf)

    def quantile(self, q: float) -> int:
        """Smallest outcome ``x`` with ``P(X <= x) >= q``."""
        c = self.cdf()
        return int(self._offset + np.searchsorted(c, q - 1e-12))

    # ------------------------------------------------------------------ algebra
    def __add__(self, other: Dist | int) -> Dist:
        """Sum of two independent variables (or a shift by an integer)."""
        if isinstance(other, (int, np.integer)):
            return Dist._trusted(self._pmf, self._offset + int(other))
        if isinstance(other, Dist):
            pmf, offset = _add((self._pmf, self._offset), (other._pmf, other._offset))
            return Dist._trusted(pmf, offset, owned=True)  # a fresh array, or an input's read-only one
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other: Dist | int) -> Dist:
        if isinstance(other, (int, np.integer)):
            return self + (-int(other))
        if isinstance(other, Dist):
            return self + other.negate()
        return NotImplemented

    def negate(self) -> Dist:
        return Dist(self._pmf[::-1], -self.max)

    def repeat(self, n: int) -> Dist:
        """Sum of ``n`` independent copies (``n``-fold convolution, by repeated squaring, on the
        arrays: the same products as ``+`` without a ``Dist`` per step)."""
        pmf, offset = repeat((self._pmf, self._offset), n, (_ONE, 0), _add)
        return Dist._trusted(pmf, offset, owned=True)

    def sum_of(self, count: Dist) -> Dist:
        """Sum of a random number ``count`` of independent copies of this variable."""
        pmf, offset = random_sum((self._pmf, self._offset), count, (_ONE, 0), _mix, _add)
        return Dist._trusted(pmf, offset, owned=True)

    def bind(self, f: Callable[[int], Dist]) -> Dist:
        """Mixture of ``f(x)`` weighted by ``P(X = x)``: the law of a two-stage experiment."""
        ks = [int(k) for k, p in zip(self.outcomes, self._pmf, strict=True) if p > 0]
        return Dist.mixture([self[k] for k in ks], [f(k) for k in ks])

    def map(self, f: Callable[[int], int]) -> Dist:
        """Distribution of ``f(X)``."""
        out: dict[int, float] = {}
        for k, p in zip(self.outcomes, self._pmf, strict=True):
            if p > 0:
                v = int(f(int(k)))
                out[v] = out.get(v, 0.0) + float(p)
        return Dist.from_mapping(out)

    def clip(self, low: int | None = None, high: int | None = None) -> Dist:
        """Distribution of ``min(max(X, low), high)``."""
        lo = self.min if low is None else max(low, self.min)
        hi = self.max if high is None else min(high, self.max)
        if low is not None and high is not None and high < low:
            raise ValueError("clip range is empty")
        if hi < lo:  # the whole support lies beyond one bound
            bound = low if low is not None and self.max < low else high
            assert bound is not None  # the support lies beyond a bound that was given
            return Dist.constant(bound)
        if lo == self.min and hi == self.max:
            return self  # nothing to clip (values are immutable)
        out = np.zeros(hi - lo + 1)
        out[:] = self._pmf[lo - self._offset : hi - self._offset + 1]
        out[0] += self._pmf[: lo - self._offset].sum()
        out[-1] += self._pmf[hi - self._offset + 1 :].sum()
        return Dist._trusted(out, lo, owned=True)

    def thin(self, p: float) -> Dist:
        """Each of the ``X`` units survives independently with probability ``p``.

        Binomial thinning, e.g. damage points that each get past a Feel No Pain roll.
        """
        if self.min < 0:
            raise ValueError("only a count can be thinned")
        return Dist.bernoulli(p).sum_of(self)

    # ------------------------------------------------------------------ comparisons
    def allclose(self, other: Dist, atol: float = 1e-12) -> bool:
        lo = min(self.min, other.min)
        hi = max(self.max, other.max)
        a = np.array([self[k] for k in range(lo, hi + 1)])
        b = np.array([other[k] for k in range(lo, hi + 1)])
        return bool(np.allclose(a, b, rtol=0.0, atol=atol))

    def __repr__(self) -> str:
        items = ", ".join(f"{k}: {p:.6g}" for k, p in self.to_dict().items())
        return f"Dist({{{items}}})"
