"""The Monte Carlo engine: attack and defence dice rolled literally, vectorised over trials.

It shares with the exact engine the dice predicates of :mod:`rolls` and the decision tables of
:mod:`solve` (which dice to re-roll, Rending, save characteristic and cover, allocation), looked up
per trial; the dice, the re-rolled dice and the bookkeeping are independent of :mod:`exact`.
"""

from __future__ import annotations

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


def simulate_shot(s: Sampler, pol: ShotPolicy, w: np.ndarray) -> dict[str, np.ndarray]:
    """One attack in every trial from wounds left ``w``; returns per-trial counts and ``w`` after.

    The attack dice of all trials are rolled flat and sorted by the per-face table of
    :func:`~grimdice.systems.killteam.rolls.attack_roll`; a re-roll picks up the dice of each
    category the policy names and rolls as many fresh dice (the counts left plus the fresh dice's
    counts are the counts after the re-roll); the defence dice are rolled flat too, one pool for
    the trials saving on SV and one for those using the invulnerable save."""
    sp = pol.spec
    T = w.size
    attack = attack_roll(sp.bs, sp.rules.lethal)
    first = attack.sample(s, np.full(T, sp.dice, dtype=np.int64))
    c, h, o = first[:, CRIT], first[:, NORMAL], first[:, ONE]
    picked = pol.reroll[w, c, h, o, sp.dice - c - h - o].astype(np.int64)  # (T, 4) by category
    fresh = fresh_counts(s, attack, picked.sum(axis=1))
    c = c - picked[:, CRIT] + fresh[:, CRIT]
    h = h - picked[:, NORMAL] + fresh[:, NORMAL]
    o = o - picked[:, ONE] + fresh[:, ONE]
    rend = pol.rending[w, c, h]
    c, h = c + rend, h - rend
    mw = sp.mw_per_crit * c
    w1 = np.maximum(w - mw, 0)
    inv, ret = pol.option[w, c, h, 0], pol.option[w, c, h, 1]
    ap = np.where(c > 0, effective_ap(sp.rules.ap, sp.rules.piercing, 1), sp.rules.ap)
    k = np.where(inv, defence_dice(sp.df, 0, True), np.maximum(sp.df - ap, 0))
    defend = (c + h > 0) & (w1 > 0)
    rolled = np.where(defend, np.maximum(k - ret, 0), 0)
    saves = fresh_counts(s, save_roll(sp.sv), np.where(inv, 0, rolled))
    if sp.invulnerable is not None:
        saves += fresh_counts(s, save_roll(sp.invulnerable), np.where(inv, rolled, 0))
    cs = saves[:, CRIT]
    ns = saves[:, NORMAL] + (ret & defend)
    uc = np.where(defend, pol.alloc[w1, c, h, cs, ns, 0], 0).astype(np.int64)
    un = np.where(defend, pol.alloc[w1, c, h, cs, ns, 1], 0).astype(np.int64)
    w2 = np.maximum(w1 - uc * sp.critical - un * sp.normal, 0)
    made = w > 0  # no attack is made against an operative already incapacitated
    out = {
        "hits": c + h,
        "critical_hits": c,
        "saves": np.where(defend, cs + ns, 0),
        "unsaved": uc + un,
        "mortal_wounds": mw,
        "stunned": (c > 0).astype(np.int64),
        "ones": o,
    }
    out = {k: np.where(made, v, 0) for k, v in out.items()}
    out["w"] = w2
    return out


def simulate_sequence(s: Sampler, policies: list[ShotPolicy], start: np.ndarray) -> dict[str, np.ndarray]:
    """Per-trial totals over the sequence (``ones:<shooter>`` per shooter) and final wounds ``w``."""
    w = start.astype(np.int64).copy()
    tot: dict[str, np.ndarray] = {
        k: np.zeros(w.size, dtype=np.int64)
        for k in ("hits", "critical_hits", "saves", "unsaved", "mortal_wounds", "stunned")
    }
    for sh in sorted({p.spec.shooter for p in policies}):
        tot[f"ones:{sh}"] = np.zeros(w.size, dtype=np.int64)
    for pol in policies:
        out = simulate_shot(s, pol, w)
        for k in ("hits", "critical_hits", "saves", "unsaved", "mortal_wounds", "stunned"):
            tot[k] += out[k]
        if pol.spec.rules.hot:
            tot[f"ones:{pol.spec.shooter}"] += out["ones"]
        w = out["w"]
    tot["w"] = w
    return tot
