"""The Monte Carlo engine: attack and defence dice rolled literally, vectorised over trials.

It shares with the exact engine the dice predicates of :mod:`rolls` and the decision tables of
:mod:`solve` (which dice to re-roll, Rending, save characteristic and cover, allocation), looked up
per trial; the dice, the re-rolled dice and the bookkeeping are independent of :mod:`exact`.
"""

from __future__ import annotations

import numpy as np

from grimdice.dice.sampler import Sampler, lookup, row_counts
from grimdice.systems.killteam.rerolls import reroll_mask
from grimdice.systems.killteam.rolls import (
    CRIT,
    MISS,
    NORMAL,
    ONE,
    attack_result,
    defence_dice,
    effective_ap,
    save_result,
)
from grimdice.systems.killteam.solve import ShotPolicy


def categories(rolls: np.ndarray, bs: int, lethal: int) -> np.ndarray:
    """:func:`~grimdice.systems.killteam.rolls.attack_result` of every die, the rule evaluated once
    per face and applied by table (:func:`~grimdice.dice.sampler.lookup`)."""
    return lookup(rolls, np.asarray(attack_result(np.arange(1, 7), bs, lethal)), 1, np.int8)


def _counts(cat: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per trial: critical, normal, discarded-1 and missed dice (categories ``0..3``)."""
    counts = row_counts(cat, 4)
    return tuple(counts[k] for k in (CRIT, NORMAL, ONE, MISS))


def simulate_shot(s: Sampler, pol: ShotPolicy, w: np.ndarray) -> dict[str, np.ndarray]:
    """One attack in every trial from wounds left ``w``; returns per-trial counts and ``w`` after."""
    sp = pol.spec
    T = w.size
    rolls = s.roll((T, sp.dice))
    cat = categories(rolls, sp.bs, sp.rules.lethal)
    c, h, o, m = _counts(cat)
    r = pol.reroll[w, c, h, o, m].astype(np.int64)  # (T, 4)
    rolls = s.reroll(rolls, reroll_mask(cat, r))
    cat = categories(rolls, sp.bs, sp.rules.lethal)
    c, h, o, _ = _counts(cat)
    rend = pol.rending[w, c, h]
    c, h = c + rend, h - rend
    mw = sp.mw_per_crit * c
    w1 = np.maximum(w - mw, 0)
    inv, ret = pol.option[w, c, h, 0], pol.option[w, c, h, 1]
    ap = np.where(c > 0, effective_ap(sp.rules.ap, sp.rules.piercing, 1), sp.rules.ap)
    k = np.where(inv, defence_dice(sp.df, 0, True), np.maximum(sp.df - ap, 0))
    defend = (c + h > 0) & (w1 > 0)
    rolled = np.where(defend, k - ret, 0)
    width = max(sp.df, 1)
    drolls = s.roll((T, width))
    valid = np.arange(width)[None, :] < rolled[:, None]
    svs = np.where(inv, sp.invulnerable or 7, sp.sv)[:, None]
    dcat = np.where(valid, save_result(drolls, svs), MISS)
    cs = (dcat == CRIT).sum(axis=1)
    ns = (dcat == NORMAL).sum(axis=1) + (ret & defend)
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
