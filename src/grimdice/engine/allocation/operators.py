"""The operators of one token on the defending unit's states, for the allocation chain.

A token kind is a pair (P(no save failed) per state, the token's moves per number of failed
saves), built once per chain and cached (and shared between chains of equal queues and signature).
A token moves a state by at most the wounds its model has left, so its moves are a few bands (a
shift of the state vector, weighted per state) and allocating one token costs O(states x moves),
not a dense product; small units use the dense transition matrix instead. Tokens that change
nothing in any state are dropped by binomial thinning (:meth:`TokenOperators.acting`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Generic, TypeVar

import numpy as np

from grimdice.engine.allocation.queues import K, Law, Queue, Route, TokenLaw

DENSE_STATES = 128  # up to this many unit states a dense matrix product beats the bands' overhead
SHARED_OPERATORS = 64  # token operators kept for chains of equal queues and signature (the oldest go)
DENSE_CELLS = 8192  # ... on state arrays of up to this many cells (larger: the bands' O(n) per row win)

_T = TypeVar("_T")
_SHARED: dict[tuple, Any] = {}  # (queues, signature, what) -> a value (see TokenOperators._shared)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


Band = tuple[int, int, int, np.ndarray]
"""``(offset, lo, hi, weights)``: states ``lo..hi-1`` move to ``s + offset`` with ``weights``."""


def _bands(moves: Mapping[int, np.ndarray]) -> list[Band]:
    """The bands of per-offset weight vectors, each trimmed to the states it moves."""
    out: list[Band] = []
    for off, w in sorted(moves.items()):
        nz = np.flatnonzero(w)
        if nz.size:
            lo, hi = int(nz[0]), int(nz[-1]) + 1
            out.append((off, lo, hi, w[lo:hi].copy()))
    return out


def _pad(w: np.ndarray, lo: int, n: int) -> np.ndarray:
    """A band's weights ``w`` for states ``lo..`` as a vector over all ``n`` states."""
    out = np.zeros(n)
    out[lo : lo + w.size] = w
    return out


@dataclass(frozen=True)
class Acting:
    """The tokens of ``kind`` that change the unit's state (see :meth:`TokenOperators.acting`)."""

    kind: Hashable


class TokenOperators(Generic[K]):
    """The token operators of a :class:`~grimdice.engine.allocation.chain.Chain` (which sets the
    attributes below in its constructor): a token's grouped states, bands and dense matrices, and
    the thinned operators of the tokens that act."""

    queues: tuple[Queue, ...]
    route: Route[K]
    law: TokenLaw[K]
    shape: tuple[int, ...]
    n: int
    U: int
    count_unsaved: bool
    signature: Callable[[K], Hashable] | None
    _ops: dict[K | Acting, tuple[np.ndarray, list[list[Band]]]]
    _combined: dict[K | Acting, list[Band]]
    _dense: dict[tuple[K | Acting, int], np.ndarray]
    _idle: dict[K, float]

    # ------------------------------------------------------------------ operators
    def _groups(self, kind: K) -> list[tuple[int | None, Law, np.ndarray | int]]:
        """:meth:`_build_groups`, shared between chains of equal queues and signature."""
        return self._shared(kind, "groups", lambda: self._build_groups(kind))

    def _shared(self, kind: K, what: str, build: Callable[[], _T]) -> _T:
        """``build()``, or the value built for a chain of equal queues and ``signature(kind)``
        (immutable values only: arrays are made read-only)."""
        if self.signature is None:
            return build()
        key = (self.queues, self.signature(kind), what)
        value = _SHARED.get(key)
        if value is None:
            value = build()
            if len(_SHARED) >= SHARED_OPERATORS:
                del _SHARED[next(iter(_SHARED))]  # the oldest entry
            _SHARED[key] = value
        return value

    def _build_groups(self, kind: K) -> list[tuple[int | None, Law, np.ndarray | int]]:
        """``(queue, law, states)``: the unit's states grouped by the law of a token of ``kind``
        there (the route and the law asked once per queue and slot, see :attr:`Queue.slots`)."""
        at = [q.positions for q in self.queues]
        slots = [q.slots for q in self.queues]
        totals = [q.total for q in self.queues]
        route = self.route
        by_slot: dict[tuple[int | None, Hashable], tuple[Law, list[int]]] = {}  # (queue, slot) ->
        by_law: dict[tuple[frozenset, int | None], tuple[Law, list[int]]] = {}  # (law, its states)
        for s, cs in enumerate(itertools.product(*map(range, self.shape))):
            q = route(kind, cs)
            if q is None:
                key: tuple[int | None, Hashable] = (None, None)
            else:
                assert cs[q] < totals[q], "a token routed to a destroyed queue"
                key = (q, slots[q][cs[q]])
            group = by_slot.get(key)
            if group is None:
                law = self.law(kind, None, 0, 0) if q is None else self.law(kind, q, *at[q][cs[q]])
                same = (frozenset(law.items()), q)  # equal laws (e.g. whatever wounds are left
                group = by_law.get(same)  # beyond the most a token can take) share one group
                if group is None:
                    group = by_law[same] = (law, [])
                by_slot[key] = group
            group[1].append(s)
        return [
            (q, law, _frozen(np.asarray(w)) if len(w) > 1 else w[0]) for (_, q), (law, w) in by_law.items()
        ]

    @cached_property
    def strides(self) -> list[int]:
        """How far the flat state index moves per wound lost by each queue."""
        return [math.prod(self.shape[q + 1 :]) for q in range(len(self.queues))]

    def operator(self, kind: K | Acting) -> tuple[np.ndarray, list[list[Band]]]:
        """(P(no failed save) per state, the moves of one token by failed saves 1, 2, ...).

        A token moves a state ``s`` to ``s + offset`` (the wounds it takes times its queue's
        stride), so each number of failed saves is a short list of bands ``(offset, lo, hi,
        weights)``: states ``lo..hi-1`` move by ``offset`` with those probabilities. Applying
        it costs O(states x distinct moves), not a dense product over states."""
        if kind in self._ops:
            return self._ops[kind]
        assert not isinstance(kind, Acting), "the acting tokens' operator is built by acting()"
        n = self.n
        saved = np.zeros(n)
        moves: list[dict[int, np.ndarray]] = []
        strides = self.strides
        for q, law, idx in self._groups(kind):
            for (lost, du), p in law.items():
                if du == 0:
                    saved[idx] += p
                    continue
                while len(moves) < du:
                    moves.append({})
                offset = lost * strides[q] if q is not None else 0
                w = moves[du - 1].get(offset)
                if w is None:
                    w = moves[du - 1][offset] = np.zeros(n)
                w[idx] += p
        failed = [_bands(m) for m in moves]
        self._ops[kind] = (saved, failed)
        return saved, failed

    def combined(self, kind: K | Acting) -> list[Band]:
        """The bands of one token when failed saves are not counted (saved tokens stay put)."""
        if kind not in self._combined:
            saved, failed = self.operator(kind)
            merged: dict[int, np.ndarray] = {0: saved.copy()}
            for bands in failed:
                for off, lo, hi, w in bands:
                    m = merged.setdefault(off, np.zeros(self.n))
                    m[lo:hi] += w
            self._combined[kind] = _bands(merged)
        return self._combined[kind]

    def apply(self, P: np.ndarray, kind: K | Acting, *, count: bool = True) -> np.ndarray:
        """Allocate one token of ``kind`` in every state of ``P`` (axes ``..., u, s``);
        ``count=False``: its failed saves are not added to ``u`` (already counted)."""
        dense = self.n <= DENSE_STATES and P.size <= DENSE_CELLS
        if not (count and self.count_unsaved):
            if dense:
                return P @ self.dense(kind)
            out = np.zeros_like(P)
            for off, lo, hi, w in self.combined(kind):
                out[..., lo + off : hi + off] += P[..., lo:hi] * w
            return out
        saved, failed = self.operator(kind)
        out = P * saved
        live = np.flatnonzero(P.any(axis=(*range(P.ndim - 2), P.ndim - 1)))
        hi_u = int(live[-1]) + 1 if live.size else 0  # failed-save counts beyond hi_u have no mass yet
        for k, bands in enumerate(failed, start=1):
            m = min(hi_u, self.U - k)
            if m > 0:
                if dense:
                    out[..., k : k + m, :] += P[..., :m, :] @ self.dense(kind, k)
                    continue
                for off, lo, hi, w in bands:
                    out[..., k : k + m, lo + off : hi + off] += P[..., :m, lo:hi] * w
        return out

    def dense(self, kind: K | Acting, failed: int = 0) -> np.ndarray:
        """The transition matrix of one token (``failed=0``: failed saves not counted; else the
        moves with that many failed saves), for small units."""
        key = (kind, failed)
        if key not in self._dense:
            n = self.n
            if failed == 0 and not isinstance(kind, Acting) and kind not in self._ops:
                M = self._shared(kind, "dense", lambda: _frozen(self._law_matrix(kind)))
            else:
                M = np.zeros((n, n))
                bands = self.combined(kind) if failed == 0 else self.operator(kind)[1][failed - 1]
                for off, lo, hi, w in bands:
                    s = np.arange(lo, hi)
                    M[s, s + off] = w
            self._dense[key] = M
        return self._dense[key]

    def _law_matrix(self, kind: K) -> np.ndarray:
        """The transition matrix of one token straight from the laws (no bands needed)."""
        n = self.n
        strides = self.strides  # straight from the laws: no bands needed
        cells: list[np.ndarray] = []  # flat cells s * n + s + offset: per state, in the law's order
        weights: list[np.ndarray] = []
        for q, law, idx in self._groups(kind):
            stride = strides[q] if q is not None else 0
            offsets = np.array([lost * stride for lost, _ in law])
            diag = np.atleast_1d(idx) * (n + 1)
            cells.append((diag[:, None] + offsets).ravel())
            weights.append(np.tile(np.fromiter(law.values(), float, len(law)), diag.size))
        M = np.bincount(np.concatenate(cells), weights=np.concatenate(weights), minlength=n * n)
        return M.reshape(n, n)

    # ------------------------------------------------------------------ tokens that act
    def idle(self, kind: K) -> float:
        """The least chance, over the unit's states, that a token of ``kind`` leaves the state as
        it is (saved, or, when failed saves are not counted, no wound lost)."""
        if kind not in self._idle:
            if self.count_unsaved:
                stay = self.operator(kind)[0]
            elif self.n <= DENSE_STATES:
                stay = np.diagonal(self.dense(kind))
            else:
                n = self.n  # a state missing from the offset-0 band never stays: idle 0
                full = [w for off, lo, _, w in self.combined(kind) if off == 0 and lo == 0 and w.size == n]
                stay = full[0] if full else np.zeros(1)
            self._idle[kind] = float(stay.min())
        return self._idle[kind]

    def acting(self, kind: K) -> Acting:
        """The tokens of ``kind`` that act: with ``q = idle(kind)``, one token's operator is
        ``T = q I + (1 - q) T'``, so ``N`` tokens are ``N'`` tokens of ``T'`` where ``N'`` is ``N``
        thinned by ``1 - q`` (the binomial theorem: ``I`` commutes with ``T'``). Fewer tokens to
        allocate, the same law."""
        key = Acting(kind)
        if key not in self._combined and key not in self._ops and (key, 0) not in self._dense:
            q = self.idle(kind)
            scale = 1.0 / (1.0 - q)
            if self.n <= DENSE_STATES and not self.count_unsaved:
                M = self.dense(kind)
                A = M * scale
                np.fill_diagonal(A, np.maximum(np.diagonal(M) - q, 0.0) * scale)
                self._dense[(key, 0)] = A
            elif self.count_unsaved:
                saved, failed = self.operator(kind)
                self._ops[key] = (
                    np.maximum(saved - q, 0.0) * scale,
                    [[(off, lo, hi, w * scale) for off, lo, hi, w in bands] for bands in failed],
                )
            else:
                self._combined[key] = _bands(
                    {
                        off: _pad(np.maximum(w - q, 0.0) if off == 0 else w, lo, self.n) * scale
                        for off, lo, hi, w in self.combined(kind)
                    }
                )
        return key


__all__ = ["Acting", "Band", "TokenOperators"]
