"""The Monte Carlo engine: attack and defence dice rolled literally, vectorised over trials.

It shares with the exact engine the dice predicates of :mod:`rolls` and the decision tables of
:mod:`solve` (which dice to re-roll, Rending, save characteristic and cover, allocation), looked up
per trial; the dice, the re-rolled dice and the bookkeeping are independent of :mod:`exact`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from grimdice.dice.sampler import Sampler
from grimdice.engine.pipeline import Roll
from grimdice.systems.killteam.rolls import (
    CRIT,
    NORMAL,
    ONE,
    attack_roll,
    defence_dice,
    effective_ap,
    save_roll,
)
from grimdice.systems.killteam.solve import ShotPolicy


def fresh_counts(s: Sampler, roll: Roll, dice: np.ndarray) -> np.ndarray:
    """Roll ``dice[t]`` fresh dice for each trial ``t`` (flat, :meth:`Roll.sample`): ``(trials,
    ncat - 1)`` counts per category, zeros without rolling when no trial rolls any."""
    if dice.any():
        return roll.sample(s, dice)
    return np.zeros((dice.size, roll.ncat - 1), dtype=np.int64)


@dataclass(frozen=True)
class ShotTables:
    """A :class:`ShotPolicy`'s decisions as flat tables, each row found by one integer per trial
    (built once per attack, not per block of trials): ``picked[(w, c, h, o)]`` the dice picked up
    per category (the policy's ``reroll`` with ``m`` implied by the dice count) and in all,
    ``rending[(w, c, h)]``, ``option[(w, c, h)]`` (invulnerable used, cover retained; by the hits
    after Rending) and ``alloc[(w1, c, h, cs, ns)]``; the rows are read with ``np.take`` (several
    times faster than fancy indexing of rows)."""

    policy: ShotPolicy
    picked: np.ndarray
    rending: np.ndarray
    option: np.ndarray
    alloc: np.ndarray

    @classmethod
    def of(cls, pol: ShotPolicy) -> ShotTables:
        n = pol.spec.dice
        w, c, h, o = np.indices(pol.reroll.shape[:4])
        picked = pol.reroll[w, c, h, o, np.maximum(n - c - h - o, 0)].reshape(-1, 4)
        return cls(
            pol,
            np.column_stack([picked, picked.sum(axis=1)]),
            pol.rending.reshape(-1).astype(np.int64),
            pol.option.reshape(-1, 2),
            pol.alloc.reshape(-1, 2),
        )


def simulate_shot(s: Sampler, tab: ShotTables, w: np.ndarray) -> dict[str, np.ndarray]:
    """One attack in every trial from wounds left ``w``; returns per-trial counts and ``w`` after.

    The attack dice of all trials are rolled flat and sorted by the per-face table of
    :func:`~grimdice.systems.killteam.rolls.attack_roll`; a re-roll picks up the dice of each
    category the policy names and rolls as many fresh dice (the counts left plus the fresh dice's
    counts are the counts after the re-roll); the defence dice are rolled flat too, one pool for
    the trials saving on SV and one for those using the invulnerable save. Trials whose target is
    already incapacitated roll nothing."""
    sp = tab.policy.spec
    n1, d1 = sp.dice + 1, tab.policy.alloc.shape[3]
    attack = attack_roll(sp.bs, sp.rules.lethal)
    made = w > 0  # no attack is made (no die rolled) against an operative already incapacitated
    first = attack.sample(s, np.where(made, sp.dice, 0))
    c, h, o = first[:, CRIT], first[:, NORMAL], first[:, ONE]
    picked = np.take(tab.picked, ((w * n1 + c) * n1 + h) * n1 + o, axis=0).astype(np.int64)
    if not made.all():
        picked[~made] = 0
    fresh = fresh_counts(s, attack, picked[:, 4])
    c = c - picked[:, CRIT] + fresh[:, CRIT]
    h = h - picked[:, NORMAL] + fresh[:, NORMAL]
    o = o - picked[:, ONE] + fresh[:, ONE]
    rend = np.take(tab.rending, (w * n1 + c) * n1 + h)
    c, h = c + rend, h - rend
    mw = sp.mw_per_crit * c
    w1 = np.maximum(w - mw, 0)
    option = np.take(tab.option, (w * n1 + c) * n1 + h, axis=0)
    inv, ret = option[:, 0], option[:, 1]
    ap = np.where(c > 0, effective_ap(sp.rules.ap, sp.rules.piercing, 1), sp.rules.ap)
    k = np.where(inv, defence_dice(sp.df, 0, True), np.maximum(sp.df - ap, 0))
    defend = (c + h > 0) & (w1 > 0)
    rolled = np.where(defend, np.maximum(k - ret, 0), 0)
    saves = fresh_counts(s, save_roll(sp.sv), np.where(inv, 0, rolled))
    if sp.invulnerable is not None:
        saves += fresh_counts(s, save_roll(sp.invulnerable), np.where(inv, rolled, 0))
    cs = saves[:, CRIT]
    ns = saves[:, NORMAL] + (ret & defend)
    at = (((w1 * n1 + c) * n1 + h) * d1 + cs) * d1 + ns
    unsaved = np.take(tab.alloc, at, axis=0).astype(np.int64)
    uc, un = np.where(defend, unsaved[:, 0], 0), np.where(defend, unsaved[:, 1], 0)
    w2 = np.maximum(w1 - uc * sp.critical - un * sp.normal, 0)
    out = {
        "hits": c + h,
        "critical_hits": c,
        "saves": np.where(defend, cs + ns, 0),
        "unsaved": uc + un,
        "mortal_wounds": mw,
        "stunned": (c > 0).astype(np.int64),
        "ones": o,
    }
    if not made.all():
        out = {k: np.where(made, v, 0) for k, v in out.items()}
    out["w"] = w2
    return out


def simulate_sequence(s: Sampler, attacks: list[ShotTables], start: np.ndarray) -> dict[str, np.ndarray]:
    """Per-trial totals over the sequence (``ones:<shooter>`` per shooter) and final wounds ``w``."""
    policies = [t.policy for t in attacks]
    w = start.astype(np.int64).copy()
    tot: dict[str, np.ndarray] = {
        k: np.zeros(w.size, dtype=np.int64)
        for k in ("hits", "critical_hits", "saves", "unsaved", "mortal_wounds", "stunned")
    }
    for sh in sorted({p.spec.shooter for p in policies}):
        tot[f"ones:{sh}"] = np.zeros(w.size, dtype=np.int64)
    for tab, pol in zip(attacks, policies, strict=True):
        out = simulate_shot(s, tab, w)
        for k in ("hits", "critical_hits", "saves", "unsaved", "mortal_wounds", "stunned"):
            tot[k] += out[k]
        if pol.spec.rules.hot:
            tot[f"ones:{pol.spec.shooter}"] += out["ones"]
        w = out["w"]
    tot["w"] = w
    return tot
