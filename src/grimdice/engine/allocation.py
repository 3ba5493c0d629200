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

A token kind is a pair (P(no save failed) per state, one transition matrix per number of failed
saves), built once and cached, so allocating one token is one or a few matrix products, and a
random number of tokens is absorbed with Horner's scheme: ``sum_n P(N=n) T^n state``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.errors import ScenarioError

Law = Mapping[tuple[int, int], float]
"""The law of one token on one model: ``{(wounds lost, failed saves): probability}``.
An entry with no failed save loses no wound."""

FLOPS_PER_SECOND = 2e9  # rough rate of the dense matrix products, for the refusal estimate


@dataclass(frozen=True)
class Queue:
    """Models wounded one after another, in allocation order, by their wounds."""

    wounds: tuple[int, ...]

    @cached_property
    def prefix(self) -> np.ndarray:
        """``prefix[i]``: wounds the queue has lost when model ``i`` starts receiving wounds."""
        return np.concatenate([[0], np.cumsum(self.wounds)]).astype(int)

    @property
    def total(self) -> int:
        return int(self.prefix[-1])

    @property
    def states(self) -> int:
        return self.total + 1

    def at(self, c: int) -> tuple[int, int] | None:
        """(model receiving the next wound, wounds it has left) in state ``c``; None when every
        model of the queue is destroyed."""
        if c >= self.total:
            return None
        i = int(np.searchsorted(self.prefix, c, side="right")) - 1
        return i, int(self.prefix[i + 1]) - c

    def destroyed(self) -> np.ndarray:
        """Models destroyed in each state ``c`` in ``0..total``."""
        c = np.arange(self.states)
        return (self.prefix[1:][None, :] <= c[:, None]).sum(axis=1)


Route = Callable[[Hashable, tuple[int, ...]], int | None]
"""``route(kind, state)``: the queue receiving the next token of ``kind`` (None: unit destroyed)."""

TokenLaw = Callable[[Hashable, int | None, int, int], Law]
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


class Chain:
    """The exact law of the defending unit's state as tokens arrive (see the module text)."""

    def __init__(
        self,
        queues: Sequence[Queue],
        route: Route,
        law: TokenLaw,
        *,
        max_unsaved: int | None,
        max_states: int = 4000,
        max_cells: int | None = None,
        where: str = "defender",
    ) -> None:
        """``max_unsaved=None``: failed saves are not counted. Refuses (``ScenarioError`` at
        ``where``) a unit of more than ``max_states`` states, or a state array (failed saves x
        states) of more than ``max_cells`` cells."""
        self.queues = tuple(queues)
        self.route = route
        self.law = law
        self.where = where
        self.shape = tuple(q.states for q in self.queues)
        self.n = int(np.prod(self.shape))
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
        self._ops: dict[Hashable, tuple[np.ndarray, list[np.ndarray]]] = {}
        self._combined: dict[Hashable, np.ndarray] = {}

    # ------------------------------------------------------------------ cost
    def work(self, applies: float, held: int = 1) -> float:
        """Multiply-adds of ``applies`` token allocations on a state with ``held`` cells of held axes."""
        return applies * held * self.U * self.n * self.n

    def refuse_over(self, work: float, budget: float, what: str) -> None:
        """Refuse up front, with the estimate, a calculation of more than ``budget`` multiply-adds."""
        if work > budget:
            raise ScenarioError(
                self.where,
                f"exact allocation is too large here ({what}: about {work:.1e} operations, "
                f"~{work / FLOPS_PER_SECOND:.0f} s; the limit is {budget:.0e}); use --simulate N",
            )

    # ------------------------------------------------------------------ operators
    def operator(self, kind: Hashable) -> tuple[np.ndarray, list[np.ndarray]]:
        """(P(no failed save) per state, transition matrices by failed saves 1, 2, ...) of one token."""
        if kind in self._ops:
            return self._ops[kind]
        n = self.n
        saved = np.zeros(n)
        failed: list[np.ndarray] = []
        strides = [int(np.prod(self.shape[q + 1 :])) for q in range(len(self.queues))]
        cache: dict[tuple[int | None, int, int], Law] = {}
        for s, cs in enumerate(np.ndindex(*self.shape)):
            q = self.route(kind, cs)
            if q is None:
                key: tuple[int | None, int, int] = (None, 0, 0)
            else:
                found = self.queues[q].at(cs[q])
                assert found is not None, "a token routed to a destroyed queue"
                key = (q, found[0], found[1])
            law = cache.get(key)
            if law is None:
                law = cache[key] = self.law(kind, *key)
            for (lost, du), p in law.items():
                if du == 0:
                    saved[s] += p
                    continue
                while len(failed) < du:
                    failed.append(np.zeros((n, n)))
                failed[du - 1][s, s + lost * strides[q] if q is not None else s] += p
        self._ops[kind] = (saved, failed)
        return saved, failed

    def combined(self, kind: Hashable) -> np.ndarray:
        """The one matrix of a token when failed saves are not counted."""
        if kind not in self._combined:
            saved, failed = self.operator(kind)
            M = np.diag(saved)
            for F in failed:
                M = M + F
            self._combined[kind] = M
        return self._combined[kind]

    def apply(self, P: np.ndarray, kind: Hashable, *, count: bool = True) -> np.ndarray:
        """Allocate one token of ``kind`` in every state of ``P`` (axes ``..., u, s``);
        ``count=False``: its failed saves are not added to ``u`` (already counted)."""
        if not (count and self.count_unsaved):
            return P @ self.combined(kind)
        saved, failed = self.operator(kind)
        out = P * saved
        live = np.flatnonzero(P.any(axis=(*range(P.ndim - 2), P.ndim - 1)))
        hi = int(live[-1]) + 1 if live.size else 0  # failed-save counts beyond hi have no mass yet
        for k, F in enumerate(failed, start=1):
            m = min(hi, self.U - k)
            if m > 0 and F.any():
                out[..., k : k + m, :] += P[..., :m, :] @ F
        return out

    # ------------------------------------------------------------------ absorbing tokens
    def absorb(self, kind: Hashable, counts: Dist) -> None:
        """Allocate a random number of tokens of one kind (Horner's scheme)."""
        P = self.state
        R = counts[counts.max] * P
        for n in range(counts.max - 1, -1, -1):
            R = self.apply(R, kind)
            if counts[n]:
                R = R + counts[n] * P
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
        now: Hashable,
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

        R = attacks[attacks.max] * P0
        for k in range(attacks.max - 1, -1, -1):
            R = op(R)
            if attacks[k]:
                R = R + attacks[k] * P0
        if size == 1:
            self.state = R[0]
            return False
        self.state = R
        self.held += 1
        return True

    def release(self, kind: Hashable, *, count: bool = True) -> None:
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


__all__ = ["Chain", "Hold", "Law", "Queue", "Route", "TokenLaw"]
