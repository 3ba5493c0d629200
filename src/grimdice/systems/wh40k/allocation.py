"""Exact allocation of wounds to models: a Markov chain over the defending unit's state.

Each wound token (a successful wound) is allocated to one model, saved or not, and its damage
(after damage modifiers and Feel No Pain) is lost by that model; excess damage from one attack
is lost (core rules, Allocate Attack / Inflict Damage). A model that has lost wounds keeps
receiving attacks until destroyed, so the models of a queue, in allocation order, are described
by a single number: the damage the queue has absorbed so far, ``c``. Which model is next, how
many wounds it has left and how many models are destroyed all follow from ``c``.

An Attached unit (Leader rule) is two queues: the Bodyguard models, and the CHARACTER models.
Wounds go to the Bodyguard until its last model is destroyed, then to the Characters; attacks
with Precision are allocated to a Character while one remains. The state is the pair
``(c_bodyguard, c_character)``, optionally with the count of failed saves ``u``, and leading
axes for Devastating Wounds tokens that are held back until all other attacks are resolved.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.expr import D6
from grimdice.systems.wh40k.rolls import FACES, fnp_passes, modified_damage
from grimdice.systems.wh40k.units import Profile, Target, WeaponGroup, save_probability

MAX_STATES = 2_000_000


def damage_dist(g: WeaponGroup, p: Profile) -> Dist:
    """Damage of one attack of ``g`` allocated to ``p``, after damage modifiers."""
    return g.damage.dist.map(lambda d: modified_damage(d, p.halve_damage, p.damage_reduction, g.damage_bonus))


def fnp_probability(p: Profile) -> float:
    return sum(bool(fnp_passes(f, p.fnp)) for f in FACES) / 6


def effective_damage(g: WeaponGroup, p: Profile) -> Dist:
    """Wounds the model would lose: each damage point is ignored on a passed Feel No Pain roll."""
    d = damage_dist(g, p)
    q = fnp_probability(p)
    return d if q == 0 else d.thin(1.0 - q)


def token_save(g: WeaponGroup, p: Profile, devastating: bool) -> float:
    """No saving throw of any kind against a Devastating Wounds Critical Wound."""
    return 0.0 if devastating else save_probability(g, p)


@dataclass(frozen=True)
class Queue:
    """Models wounded one after another, in allocation order."""

    profiles: tuple[Profile, ...]

    @property
    def prefix(self) -> np.ndarray:
        return np.concatenate([[0], np.cumsum([p.W for p in self.profiles])]).astype(int)

    @property
    def total(self) -> int:
        return int(self.prefix[-1])

    def destroyed(self) -> np.ndarray:
        """Models destroyed for each state ``c`` in ``0..total``."""
        c = np.arange(self.total + 1)
        return (self.prefix[1:][None, :] <= c[:, None]).sum(axis=1)

    def operator(self, g: WeaponGroup, dev: bool, last_save: float) -> tuple[np.ndarray, np.ndarray]:
        """(P(saved) per state, failed-save transition matrix) for one token of ``g``.

        The final state (every model destroyed) keeps the unit's last model's save so that
        left-over wounds count as failed saves at the same rate (fast-rolled saves).
        """
        n = self.total + 1
        saved = np.zeros(n)
        F = np.zeros((n, n))
        prefix = self.prefix
        cache: dict[Profile, tuple[float, Dist]] = {}
        for i, p in enumerate(self.profiles):
            if p not in cache:
                cache[p] = (token_save(g, p, dev), effective_damage(g, p))
            ps, e = cache[p]
            for c in range(prefix[i], prefix[i + 1]):
                left = prefix[i + 1] - c
                saved[c] = ps
                for k, pk in e.to_dict().items():
                    F[c, c + min(k, left)] += (1.0 - ps) * pk
        saved[-1] = last_save
        F[-1, -1] = 1.0 - last_save
        return saved, F


class AllocationChain:
    """The exact law of the defending unit's state as wound tokens arrive."""

    def __init__(self, target: Target, groups: list[WeaponGroup], track_unsaved: bool, max_tokens: int):
        self.target = target
        self.bodyguard = Queue(target.bodyguard)
        self.leaders = Queue(target.leaders)
        self.track = track_unsaved
        last = (target.leaders or target.bodyguard)[-1]
        self._ops: dict[tuple[int, bool], tuple] = {}
        self._groups = groups
        self._last = last
        u = max_tokens + 1 if track_unsaved else 1
        shape = (self.bodyguard.total + 1, self.leaders.total + 1, u)
        if np.prod(shape) > MAX_STATES:
            raise ValueError(f"the exact allocation needs {np.prod(shape)} states; use --simulate")
        self.state = np.zeros(shape)
        self.state[0, 0, 0] = 1.0

    # -------------------------------------------------------------- token operators
    def _op(self, gi: int, dev: bool):
        key = (gi, dev)
        if key not in self._ops:
            g = self._groups[gi]
            last_save = token_save(g, self._last, dev) if self.track else 1.0
            qb = self.bodyguard.operator(g, dev, last_save)
            qc = self.leaders.operator(g, dev, last_save)
            if not self.track:
                qb = (np.diag(qb[0]) + qb[1], None)
                qc = (np.diag(qc[0]) + qc[1], None)
            precision_first = g.ab.precision and self.leaders.total > 0
            self._ops[key] = (qb, qc, precision_first)
        return self._ops[key]

    def _queue(self, X: np.ndarray, axis: int, op) -> np.ndarray:
        moved = np.moveaxis(X, axis, -1)
        if not self.track:
            return np.moveaxis(moved @ op[0], -1, axis)
        saved, F = op
        out = np.moveaxis(moved * saved, -1, axis)
        failed = np.moveaxis(moved @ F, -1, axis)
        out[..., 1:] += failed[..., :-1]
        return out

    def apply(self, P: np.ndarray, gi: int, dev: bool) -> np.ndarray:
        """Allocate one token of group ``gi`` in every state of ``P`` (axes ``..., b, c, u``)."""
        qb, qc, precision_first = self._op(gi, dev)
        (a1, op1), (a2, op2) = ((-2, qc), (-3, qb)) if precision_first else ((-3, qb), (-2, qc))
        dead = P.shape[a1] - 1
        idx = [slice(None)] * P.ndim
        idx[a1] = slice(dead, dead + 1)
        at_dead = P[tuple(idx)]
        alive = P.copy()
        alive[tuple(idx)] = 0.0
        R = self._queue(alive, a1, op1)
        R[tuple(idx)] += self._queue(at_dead, a2, op2)
        return R

    # -------------------------------------------------------------- batches of tokens
    def absorb(self, gi: int, counts: Dist) -> None:
        """Allocate a random number of tokens of one group: ``sum_n P(N=n) T^n state`` (Horner)."""
        P = self.state
        R = counts[counts.max] * P
        for n in range(counts.max - 1, -1, -1):
            R = self.apply(R, gi, False)
            if counts[n]:
                R = R + counts[n] * P
        self.state = R

    def absorb_with_devastating(self, gi: int, joint: np.ndarray) -> None:
        """Allocate normal tokens now and hold the Devastating Wounds tokens back (new axis 0)."""
        P = self.state
        N, D = joint.shape
        Q = joint[:, :, *([None] * P.ndim)] * P[None, None]
        R = Q[N - 1]
        for n in range(N - 2, -1, -1):
            R = self.apply(R, gi, False) + Q[n]
        self.state = R

    def release_devastating(self, gi: int) -> None:
        """Allocate the held-back tokens of the oldest pending axis (after all other attacks)."""
        P = self.state
        ax = P.ndim - 4
        D = P.shape[ax]
        R = np.take(P, D - 1, axis=ax)
        for d in range(D - 2, -1, -1):
            R = self.apply(R, gi, True) + np.take(P, d, axis=ax)
        self.state = R

    # -------------------------------------------------------------- results
    def outcome(self) -> dict[str, Dist]:
        P = self.state
        grid = P.sum(axis=-1)
        cb = np.arange(self.bodyguard.total + 1)[:, None]
        cc = np.arange(self.leaders.total + 1)[None, :]
        kb = self.bodyguard.destroyed()[:, None]
        kc = self.leaders.destroyed()[None, :]
        out = {
            "damage": _dist(np.broadcast_to(cb + cc, grid.shape), grid),
            "models_destroyed": _dist(np.broadcast_to(kb + kc, grid.shape), grid),
        }
        if self.track:
            out["unsaved"] = Dist(P.sum(axis=(0, 1)))
        if self.leaders.total:
            lc = grid.sum(axis=0)
            out["character_damage"] = Dist(lc)
            out["characters_destroyed"] = _dist(self.leaders.destroyed(), lc)
        return out


def _dist(values: np.ndarray, weights: np.ndarray) -> Dist:
    return Dist(np.bincount(np.asarray(values).ravel(), weights=np.asarray(weights).ravel()))
