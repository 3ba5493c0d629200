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

The queues and the system's routing and token law are in :mod:`.queues`, the token operators
(bands, dense matrices, the thinned operators of the tokens that act) in :mod:`.operators`; this
module is the chain itself: its state, its cost and the absorbing of tokens and attacks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.engine.allocation.operators import DENSE_STATES, Acting, Band, TokenOperators
from grimdice.engine.allocation.queues import K, Law, Queue, Route, TokenLaw
from grimdice.errors import ScenarioError

FLOPS_PER_SECOND = 1e9  # rough rate of the banded multiply-adds (measured), for the refusal estimate
TAIL = 1e-15  # a count law's upper tail of less mass than this is not absorbed (far below 1e-12)


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


def upper(counts: Dist) -> int:
    """The largest count worth absorbing: the mass above it is below :data:`TAIL`."""
    tail = np.cumsum(counts.pmf[::-1])[::-1]  # tail[i] = P(N >= min + i)
    above = np.flatnonzero(tail >= TAIL)
    return counts.min + int(above[-1]) if above.size else counts.min


@dataclass(frozen=True)
class Hold:
    """How tokens held back for later are counted: each advances the held count with probability
    ``advance`` (thinning: the others are known to do nothing later), the count saturates at
    ``cap`` (further tokens change nothing), and with ``unsaved`` each counts one failed save now."""

    advance: float = 1.0
    cap: int | None = None
    unsaved: bool = False


class Chain(TokenOperators[K]):
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


__all__ = ["Acting", "Chain", "Hold", "Law", "Queue", "Route", "TokenLaw", "upper"]
