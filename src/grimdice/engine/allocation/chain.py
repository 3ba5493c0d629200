"""Exact allocation of wounds to models: one Markov chain over the defending unit's state.

Every system that allocates wounds *model by model* (a wounded model keeps receiving wounds until
it is removed, damage beyond its wounds is lost) shares this chain; the systems differ only in

* which **queues** the unit is (a queue is models wounded one after another, in allocation order:
  40k's Bodyguard and attached Characters, Heresy's closest-first models and its Precision target);
* the **routing**: which queue receives the next token of a kind in a given state;
* the **law of one token** on one model: ``{(wounds lost, failed saves): probability}`` (save,
  damage, damage modifiers, Feel No Pain or Damage Mitigation, Brutal's several saves...).

A queue is described by one number, the wounds it has lost so far ``c`` (prefix sums of its models'
wounds tell which model is next, how many wounds it has left and how many models are destroyed),
so the unit's state is the tuple of its queues' ``c``, flattened to one index ``s``. The state
array has axes ``(*held, *batch, u, s)``:

* ``u``, failed saves so far (one cell when the system does not count them);
* ``batch`` axes a caller may add (e.g. one row per starting state, for a transition matrix);
* ``held`` axes: counts of tokens generated now but allocated later (40k Devastating Wounds after
  all other attacks; Heresy's other wounds after a group's Precision wounds), newest first.

A token kind is a pair (P(no save failed) per state, the token's moves per number of failed
saves), built once and cached. A token moves a state by at most the wounds its model has left, so
its moves are a few bands (a shift of the state vector, weighted per state) and allocating one token
costs O(states x moves), not a dense product. A random number of tokens is absorbed with Horner's
scheme, ``sum_n P(N=n) T^n state``, up to the count above which less than 1e-15 of mass remains
(the mass dropped is below 1e-15 per count law). Tokens, and whole attacks, that change nothing in
any state are dropped first by binomial thinning (:meth:`Chain.acting`): the same law, fewer steps.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Generic, TypeVar

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.errors import ScenarioError

Law = Mapping[tuple[int, int], float]
"""The law of one token on one model: ``{(wounds lost, failed saves): probability}``.
An entry with no failed save loses no wound."""

FLOPS_PER_SECOND = 1e9  # rough rate of the banded multiply-adds (measured), for the refusal estimate
DENSE_STATES = 128  # up to this many unit states a dense matrix product beats the bands' overhead
SHARED_OPERATORS = 64  # token operators kept for chains of equal queues and signature (the oldest go)
DENSE_CELLS = 8192  # ... on state arrays of up to this many cells (larger: the bands' O(n) per row win)
TAIL = 1e-15  # a count law's upper tail of less mass than this is not absorbed (far below 1e-12)

_T = TypeVar("_T")
_SHARED: dict[tuple, Any] = {}  # (queues, signature, what) -> a value built by a chain (see Chain._shared)


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


def _acting_attacks(
    tables: dict[tuple[int, int], np.ndarray], attacks: Dist
) -> tuple[dict[tuple[int, int], np.ndarray], Dist]:
    """Drop the attacks that change nothing (no token now or held, flag unchanged), as
    :meth:`Chain.acting` drops tokens: with ``q`` the least chance of such an attack from any flag,
    one attack is ``q I + (1 - q) T'``, so ``N`` attacks are ``N`` thinned by ``1 - q`` attacks of
    ``T'`` (the tables with ``q`` taken off their "nothing" cell, rescaled)."""
    flags = {fi for fi, _ in tables}
    q = min(float(tables[(fi, fi)][0, 0]) if (fi, fi) in tables else 0.0 for fi in flags)
    if not 0.0 < q < 1.0:
        return tables, attacks
    out = {}
    for (fi, fo), t in tables.items():
        t = np.array(t, dtype=float)
        if fi == fo:
            t[0, 0] = max(t[0, 0] - q, 0.0)
        out[(fi, fo)] = t / (1.0 - q)
    return out, attacks.thin(1.0 - q)


@dataclass(frozen=True)
class Acting:
    """The tokens of ``kind`` that change the unit's state (see :meth:`Chain.acting`)."""

    kind: Hashable


def upper(counts: Dist) -> int:
    """The largest count worth absorbing: the mass above it is below :data:`TAIL`."""
    tail = np.cumsum(counts.pmf[::-1])[::-1]  # tail[i] = P(N >= min + i)
    above = np.flatnonzero(tail >= TAIL)
    return counts.min + int(above[-1]) if above.size else counts.min


@dataclass(frozen=True)
class Queue:
    """Models wounded one after another, in allocation order, by their wounds.

    ``types``: per model, an id shared by the models whose tokens have the same law (identical
    profiles), so the chain asks for each law once; by default every model is its own type."""

    wounds: tuple[int, ...]
    types: tuple[Hashable, ...] | None = None

    @cached_property
    def prefix(self) -> np.ndarray:
        """``prefix[i]``: wounds the queue has lost when model ``i`` starts receiving wounds."""
        return np.concatenate([[0], np.cumsum(self.wounds)]).astype(int)

    @cached_property
    def total(self) -> int:
        return int(self.prefix[-1])

    @cached_property
    def states(self) -> int:
        return self.total + 1

    def at(self, c: int) -> tuple[int, int] | None:
        """(model receiving the next wound, wounds it has left) in state ``c``; None when every
        model of the queue is destroyed."""
        if c >= self.total:
            return None
        i = int(np.searchsorted(self.prefix, c, side="right")) - 1
        return i, int(self.prefix[i + 1]) - c

    @cached_property
    def positions(self) -> list[tuple[int, int]]:
        """:meth:`at` of every state ``c`` in ``0..total-1``."""
        c = np.arange(self.total)
        i = np.searchsorted(self.prefix, c, side="right") - 1
        return list(zip(i.tolist(), (self.prefix[i + 1] - c).tolist(), strict=True))

    @cached_property
    def slots(self) -> Sequence[tuple[Hashable, int]]:
        """(type of the model receiving the next wound, wounds it has left) of every state ``c`` in
        ``0..total-1``: states with the same slot get the same token law."""
        if self.types is None:
            return self.positions
        return [(self.types[i], left) for i, left in self.positions]

    def destroyed(self) -> np.ndarray:
        """Models destroyed in each state ``c`` in ``0..total`` (read-only)."""
        return self._destroyed

    @cached_property
    def _destroyed(self) -> np.ndarray:
        out = np.searchsorted(self.prefix[1:], np.arange(self.states), side="right")
        out.setflags(write=False)
        return out


K = TypeVar("K", bound=Hashable)
"""A system's token kind (e.g. 40k ``(kind, group)``, Heresy ``(group, precision)``)."""

Route = Callable[[K, tuple[int, ...]], int | None]
"""``route(kind, state)``: the queue receiving the next token of ``kind`` (None: unit destroyed)."""

TokenLaw = Callable[[K, int | None, int, int], Law]
"""``law(kind, queue, model, left)``: the law of one token of ``kind`` on model ``model`` of
``queue`` with ``left`` wounds; ``queue`` is None once the unit is destroyed (left-over tokens)."""


@dataclass(frozen=True)
class Hold:
    """How tokens held back for later are counted: each advances the held count with probability
    ``advance`` (thinning: the others are known to do nothing later), the count saturates at
    ``cap`` (further tokens change nothing), and with ``unsaved`` each counts one failed save now."""

    advance: float = 1.0
    cap: int | None = None
    unsaved: bool = False


class Chain(Generic[K]):
    """The exact law of the defending unit's state as tokens arrive (see the module text)."""

    def __init__(
        self,
        queues: Sequence[Queue],
        route: Route[K],
        law: TokenLaw[K],
        *,
        max_unsaved: int | None,
        max_states: int = 4000,
        max_cells: int | None = None,
        where: str = "defender",
        signature: Callable[[K], Hashable] | None = None,
    ) -> None:
        """``max_unsaved=None``: failed saves are not counted. Refuses (``ScenarioError`` at
        ``where``) a unit of more than ``max_states`` states, or a state array (failed saves x
        states) of more than ``max_cells`` cells.

        ``signature(kind)``, when given, is a hashable value that fixes the route and the law of a
        token of ``kind`` in every state of these queues (e.g. the saves and damage laws it depends
        on): chains with equal queues and signatures share the token's grouped states and dense
        matrix, built once (a bounded cache of :data:`SHARED_OPERATORS` entries)."""
        self.queues = tuple(queues)
        self.route = route
        self.law = law
        self.where = where
        self.shape = tuple(q.states for q in self.queues)
        self.n = math.prod(self.shape)
        self.count_unsaved = max_unsaved is not None
        self.U = max_unsaved + 1 if max_unsaved is not None else 1
        if self.n > max_states or (max_cells is not None and self.n * self.U > max_cells):
            raise ScenarioError(
                where,
                f"exact allocation is too large here ({self.n} unit states"
                f"{f', up to {max_unsaved} failed saves' if max_unsaved else ''}); use --simulate N",
            )
        self.held = 0
        self.state = np.zeros((self.U, self.n))
        self.state[0, 0] = 1.0
        self._ops: dict[K | Acting, tuple[np.ndarray, list[list[Band]]]] = {}
        self._combined: dict[K | Acting, list[Band]] = {}
        self._dense: dict[tuple[K | Acting, int], np.ndarray] = {}
        self._idle: dict[K, float] = {}
        self.signature = signature

    # ------------------------------------------------------------------ cost
    @cached_property
    def band(self) -> int:
        """Most distinct moves of one token from a state: a token takes at most the wounds its
        model has left, so at most (largest model's wounds + 1) per queue."""
        return min(self.n, 1 + sum(max(q.wounds, default=0) for q in self.queues))

    def work(self, applies: float, held: int = 1) -> float:
        """Multiply-adds of ``applies`` token allocations on a state with ``held`` cells of held axes."""
        return applies * held * self.U * self.n * self.band

    def refuse_over(self, work: float, budget: float, what: str) -> None:
        """Refuse up front, with the estimate, a calculation of more than ``budget`` multiply-adds."""
        if work > budget:
            raise ScenarioError(
                self.where,
                f"exact allocation is too large here ({what}: about {work:.1e} operations, "
                f"~{work / FLOPS_PER_SECOND:.0f} s; the limit is {budget:.0e}); use --simulate N",
            )

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

    # ------------------------------------------------------------------ absorbing tokens
    def absorb_each(self, kind: K, per_attack: Dist, attacks: Dist) -> None:
        """Allocate the tokens of ``attacks`` independent attacks, each giving ``per_attack``
        tokens of ``kind``: the tokens that change nothing whatever the state are dropped first
        (:meth:`acting`), so fewer tokens go through the chain."""
        q = self.idle(kind)
        if q >= 1.0:
            return  # no token of this kind can change the state
        if q <= 0.0:
            self.absorb(kind, per_attack.sum_of(attacks))
            return
        self.absorb(self.acting(kind), per_attack.thin(1.0 - q).sum_of(attacks))

    def absorb(self, kind: K | Acting, counts: Dist) -> None:
        """Allocate a random number of tokens of one kind (Horner's scheme)."""
        P = self.state
        top = upper(counts)
        c = [0.0] * counts.min + counts.pmf[: top + 1 - counts.min].tolist()
        if self.n <= DENSE_STATES and not self.count_unsaved:  # the plain case: one product a token
            M = self.dense(kind)
            if P.shape[0] == 1 and P.ndim == 2:  # one state vector: Horner on it alone
                nz = np.flatnonzero(P[0])
                if nz.size == 1:  # a point mass (the first tokens): its weight is added in place
                    j, v = int(nz[0]), float(P[0, nz[0]])
                    r = c[top] * P[0]
                    buf, dot = np.empty_like(r), np.dot  # two buffers: no array made per token
                    for n in range(top - 1, -1, -1):
                        dot(r, M, buf)
                        r, buf = buf, r
                        r[j] += c[n] * v
                    self.state = r[None, :]
                    return
            step = lambda R: R @ M  # noqa: E731
        else:
            step = lambda R: self.apply(R, kind)  # noqa: E731
        R = c[top] * P
        for n in range(top - 1, -1, -1):
            R = step(R)
            if c[n]:
                R += c[n] * P
        self.state = R

    def _shift_held(self, R: np.ndarray, hold: Hold) -> np.ndarray:
        """One more held token on the newest held axis (axis 0)."""
        out = np.zeros_like(R)
        out[1:] = R[:-1]
        out[-1] += R[-1]  # saturated: the count stays at the cap
        if hold.advance < 1.0:
            out = hold.advance * out + (1.0 - hold.advance) * R
        if hold.unsaved and self.count_unsaved:
            shifted = np.zeros_like(out)
            shifted[..., 1:, :] = out[..., :-1, :]
            out = shifted
        return out

    def absorb_attacks(
        self,
        now: K,
        per_attack: np.ndarray | Mapping[tuple[int, int], np.ndarray],
        attacks: Dist,
        hold: Hold,
    ) -> bool:
        """Allocate the tokens of ``attacks`` independent attacks, each giving ``i`` tokens of kind
        ``now`` (allocated at once) and ``j`` tokens held back, with ``per_attack[i, j]``; the held
        count becomes a new held axis (axis 0), to be allocated by :meth:`release`. Returns whether
        a held axis was added (not when no token can be held).

        With a **flag axis** (the first axis after the held axes, e.g. which once-per-unit
        re-rolls are still available), ``per_attack`` is ``{(flag in, flag out): table}``: one
        attack moves the state from one flag to another with those sub-probabilities."""
        tables = dict(per_attack) if isinstance(per_attack, Mapping) else {(-1, -1): np.asarray(per_attack)}
        width = max(t.shape[1] for t in tables.values())
        most = (width - 1) * attacks.max
        size = (most if hold.cap is None else min(hold.cap, most)) + 1
        P0 = np.zeros((size, *self.state.shape))
        P0[0] = self.state
        fa = self.held + 1  # the flag axis of P0
        deepest = max(t.shape[0] for t in tables.values()) - 1

        def op(R: np.ndarray) -> np.ndarray:
            out = np.zeros_like(R)
            powers: dict[int, list[np.ndarray]] = {}
            for (fi, fo), table in tables.items():
                if fi not in powers:
                    X = R if fi < 0 else np.take(R, fi, axis=fa)
                    powers[fi] = [X]
                    for _ in range(deepest):
                        powers[fi].append(self.apply(powers[fi][-1], now))
                part = np.zeros_like(powers[fi][0])
                for (i, j), p in np.ndenumerate(table):
                    if p > 0:
                        X = powers[fi][i]
                        for _ in range(j):
                            X = self._shift_held(X, hold)
                        part += p * X
                if fo < 0:
                    out += part
                else:
                    out[(slice(None),) * fa + (fo,)] += part
            return out

        tables, attacks = _acting_attacks(tables, attacks)
        top = upper(attacks)
        R = attacks[top] * P0
        for k in range(top - 1, -1, -1):
            R = op(R)
            if attacks[k]:
                R = R + attacks[k] * P0
        if size == 1:
            self.state = R[0]
            return False
        self.state = R
        self.held += 1
        return True

    def release(self, kind: K, *, count: bool = True) -> None:
        """Allocate the tokens of the oldest held axis (Horner over its counts)."""
        P = self.state
        ax = self.held - 1
        size = P.shape[ax]
        R = np.take(P, size - 1, axis=ax)
        for d in range(size - 2, -1, -1):
            R = self.apply(R, kind, count=count) + np.take(P, d, axis=ax)
        self.state = R
        self.held -= 1

    # ------------------------------------------------------------------ results
    def grid(self) -> np.ndarray:
        """P(state) as an array over the queues' states (failed saves and other axes summed out)."""
        return self.state.reshape(-1, self.U, self.n).sum(axis=(0, 1)).reshape(self.shape)

    def unsaved(self) -> Dist:
        return Dist(self.state.reshape(-1, self.U, self.n).sum(axis=(0, 2)))


__all__ = ["Acting", "Chain", "Hold", "Law", "Queue", "Route", "TokenLaw"]
