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
from grimdice.errors import ScenarioError
from grimdice.systems.wh40k.rolls import FACES, fnp_passes, modified_damage
from grimdice.systems.wh40k.units import Profile, Target, WeaponGroup, save_probability

MAX_STATES = 2_000_000
MAX_WORK = 4e10  # multiply-adds allowed for the exact allocation (about 10 s)


def damage_dist(g: WeaponGroup, p: Profile) -> Dist:
    """Damage of one attack of ``g`` allocated to ``p``, after damage modifiers."""
    return g.damage.dist.map(lambda d: modified_damage(d, p.halve_damage, p.damage_reduction, g.damage_bonus))


def fnp_probability(p: Profile, mortal: bool = False) -> float:
    """P(a wound is ignored): against mortal wounds the better of FNP and FNP_mortal is used."""
    return sum(bool(fnp_passes(f, p.fnp_mortal if mortal else p.fnp)) for f in FACES) / 6


def effective_damage(g: WeaponGroup, p: Profile, mortal: bool = False) -> Dist:
    """Wounds the model would lose: each damage point is ignored on a passed Feel No Pain roll
    (Devastating Wounds inflict mortal wounds, so a Feel No Pain against mortal wounds counts)."""
    d = damage_dist(g, p)
    q = fnp_probability(p, mortal)
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
                cache[p] = (token_save(g, p, dev), effective_damage(g, p, dev))
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
    """The exact law of the defending unit's state as wound tokens arrive.

    States ``(c_bodyguard, c_character)`` are flattened to one index ``s``; the state array has
    axes ``(*pending, u, s)``: pending Devastating Wounds counts, failed saves so far (only when
    the unit's models save differently; otherwise one slot), and the unit state. Each kind of
    token is a pair of matrices over ``s`` (saved / failed), built once with the routing of the
    Leader rule, so allocating a token is one or two matrix products.
    """

    def __init__(self, target: Target, groups: list[WeaponGroup], track_unsaved: bool, max_tokens: int):
        self.bodyguard = Queue(target.bodyguard)
        self.leaders = Queue(target.leaders)
        self.track = track_unsaved
        self._groups = groups
        self._last = (target.leaders or target.bodyguard)[-1]
        self._ops: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray | None]] = {}
        self.nb, self.nc = self.bodyguard.total + 1, self.leaders.total + 1
        u = max_tokens + 1 if track_unsaved else 1
        n = self.nb * self.nc
        work = max_tokens * u * n * n
        if n * n > MAX_STATES * 8 or n * u > MAX_STATES or work > MAX_WORK:
            raise ScenarioError(
                "defender",
                f"exact allocation is too large here ({n} unit states, up to {max_tokens} wounds"
                f"{', tracked per failed save' if track_unsaved else ''}); use --simulate N",
            )
        self.state = np.zeros((u, n))
        self.state[0, 0] = 1.0

    def _op(self, gi: int, dev: bool) -> tuple[np.ndarray, np.ndarray | None]:
        """(saved, failed) matrices over flat states, or (combined, None) without ``u``."""
        key = (gi, dev)
        if key in self._ops:
            return self._ops[key]
        g = self._groups[gi]
        last_save = token_save(g, self._last, dev) if self.track else 1.0
        sb, Fb = self.bodyguard.operator(g, dev, last_save)
        sc, Fc = self.leaders.operator(g, dev, last_save)
        nb, nc = self.nb, self.nc
        n = nb * nc
        saved = np.zeros(n)
        F = np.zeros((n, n))
        precision_first = g.ab.precision and self.leaders.total > 0
        for b in range(nb):
            for c in range(nc):
                s = b * nc + c
                b_alive, c_alive = b < nb - 1, c < nc - 1
                to_leader = c_alive and (precision_first or not b_alive)
                if to_leader or (not b_alive and not c_alive):
                    saved[s] = sc[c]
                    F[s, b * nc : (b + 1) * nc] = Fc[c]
                else:
                    saved[s] = sb[b]
                    F[s, c::nc] = Fb[b]
        op = (np.diag(saved) + F, None) if not self.track else (saved, F)
        self._ops[key] = op
        return op

    def apply(self, P: np.ndarray, gi: int, dev: bool) -> np.ndarray:
        """Allocate one token of group ``gi`` in every state of ``P`` (axes ``..., u, s``)."""
        M, F = self._op(gi, dev)
        if F is None:
            return P @ M
        out = P * M
        out[..., 1:, :] += P[..., :-1, :] @ F
        return out

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
        if D * P.size > MAX_STATES * 4:
            raise ScenarioError(
                "attacker", "too many Devastating Wounds weapons for the exact engine; use --simulate N"
            )

        def layer(n: int) -> np.ndarray:
            return joint[n].reshape((D,) + (1,) * P.ndim) * P[None]

        R = layer(N - 1)
        for n in range(N - 2, -1, -1):
            R = self.apply(R, gi, False) + layer(n)
        self.state = R

    def release_devastating(self, gi: int) -> None:
        """Allocate the held-back tokens of the oldest pending axis (after all other attacks)."""
        P = self.state
        ax = P.ndim - 3
        D = P.shape[ax]
        R = np.take(P, D - 1, axis=ax)
        for d in range(D - 2, -1, -1):
            R = self.apply(R, gi, True) + np.take(P, d, axis=ax)
        self.state = R

    def outcome(self) -> dict[str, Dist]:
        P = self.state
        grid = P.sum(axis=0).reshape(self.nb, self.nc)
        cb = np.arange(self.nb)[:, None]
        cc = np.arange(self.nc)[None, :]
        kb = self.bodyguard.destroyed()[:, None]
        kc = self.leaders.destroyed()[None, :]
        out = {
            "damage": _dist(np.broadcast_to(cb + cc, grid.shape), grid),
            "models_destroyed": _dist(np.broadcast_to(kb + kc, grid.shape), grid),
        }
        if self.track:
            out["unsaved"] = Dist(P.sum(axis=1))
        if self.leaders.total:
            lc = grid.sum(axis=0)
            out["character_damage"] = Dist(lc)
            out["characters_destroyed"] = _dist(self.leaders.destroyed(), lc)
        return out


def _dist(values: np.ndarray, weights: np.ndarray) -> Dist:
    return Dist(np.bincount(np.asarray(values).ravel(), weights=np.asarray(weights).ravel()))
