"""The exact engine: distributions of every stage of a sequence of shooting attacks, no sampling.

The attacks are followed forward from a distribution of the target's wounds left, applying the
decisions of :mod:`solve` exactly. Each reported count is carried jointly with the wounds left
(a table ``P[w, total]``), because the decisions in later attacks depend on the wounds left.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.systems.killteam.rolls import attack_counts, attack_items
from grimdice.systems.killteam.solve import ShotPolicy, defence_outcomes, defender_options

#: counts followed through the sequence (each jointly with the wounds left)
COUNTS = ("hits", "critical_hits", "saves", "unsaved", "mortal_wounds", "ones", "stunned")


def _after_rerolls(pol: ShotPolicy, w: int) -> np.ndarray:
    """``P(c, h, ones)`` after the attacker's re-rolls, with ``w`` wounds left (before Rending)."""
    s = pol.spec
    n = s.dice
    F = np.zeros((n + 1, n + 1, n + 1))
    for (c, h, o, m), p in attack_items(n, s.bs, s.rules.lethal):
        rc, rh, ro, rm = (int(x) for x in pol.reroll[w, c, h, o, m])
        r = rc + rh + ro + rm
        kc, kh, ko = c - rc, h - rh, o - ro
        F[kc : kc + r + 1, kh : kh + r + 1, ko : ko + r + 1] += p * attack_counts(r, s.bs, s.rules.lethal)
    return F


@cache
def _outcome_arrays(rolled: int, sv: int, retained: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    out = defence_outcomes(rolled, sv, retained)
    cs, ns, p = (np.array([o[i] for o in out]) for i in range(3))
    return cs, ns, p


def _defence(pol: ShotPolicy, w: int, c: int, h: int, wmax: int):
    """From retained (c, h) with ``w`` wounds left: P(w'), P(saves, w'), P(unsaved, w')."""
    s = pol.spec
    pw = np.zeros(wmax + 1)
    saves = np.zeros((s.df + 2, wmax + 1))
    unsaved = np.zeros((2 * s.dice + 1, wmax + 1))
    w1 = max(w - s.mw_per_crit * c, 0)
    if c + h == 0 or w1 == 0:
        pw[w1] = 1.0
        saves[0, w1] = unsaved[0, w1] = 1.0
        return pw, saves, unsaved
    inv, ret = (bool(x) for x in pol.option[w, c, h])
    _, _, k, sv = next(o for o in defender_options(s, c) if o[0] == inv and o[1] == ret)
    cs, ns, p = _outcome_arrays(k, sv, int(ret))
    chosen = pol.alloc[w1, c, h, cs, ns].astype(np.int64)
    uc, un = chosen[:, 0], chosen[:, 1]
    w2 = np.maximum(w1 - uc * s.critical - un * s.normal, 0)
    np.add.at(pw, w2, p)
    np.add.at(saves, (cs + ns, w2), p)
    np.add.at(unsaved, (uc + un, w2), p)
    return pw, saves, unsaved


def shot_transitions(pol: ShotPolicy, w: int, wmax: int) -> dict[str, np.ndarray]:
    """For one attack from ``w`` wounds left: ``J[name][delta, w']`` for every count."""
    s = pol.spec
    n = s.dice
    J = {
        "hits": np.zeros((n + 1, wmax + 1)),
        "critical_hits": np.zeros((n + 1, wmax + 1)),
        "saves": np.zeros((s.df + 2, wmax + 1)),
        "unsaved": np.zeros((2 * n + 1, wmax + 1)),
        "mortal_wounds": np.zeros((s.mw_per_crit * n + 1, wmax + 1)),
        "ones": np.zeros((n + 1, wmax + 1)),
        "stunned": np.zeros((2, wmax + 1)),
    }
    if w == 0:  # no attack is made against an operative already incapacitated
        for t in J.values():
            t[0, 0] = 1.0
        return J
    F = _after_rerolls(pol, w)
    Fch = F.sum(axis=2)
    for c in range(n + 1):
        for h in range(n + 1 - c):
            if Fch[c, h] <= 0:
                continue
            fc, fh = (c + 1, h - 1) if pol.rending[w, c, h] else (c, h)
            pw, sv, un = _defence(pol, w, fc, fh, wmax)
            m = Fch[c, h]
            J["hits"][fc + fh] += m * pw
            J["critical_hits"][fc] += m * pw
            J["mortal_wounds"][s.mw_per_crit * fc] += m * pw
            J["stunned"][int(fc > 0)] += m * pw
            J["saves"][: sv.shape[0]] += m * sv
            J["unsaved"][: un.shape[0]] += m * un
            for o in range(n + 1 - c - h):
                if F[c, h, o] > 0:
                    J["ones"][o] += F[c, h, o] * pw
    return J


def forward(policies: list[ShotPolicy], start: np.ndarray) -> dict[str, np.ndarray]:
    """Joint tables ``P[w, total]`` of every count after the whole sequence, from ``P(w)`` at start.

    Attack dice results of 1 of Hot weapons are followed per shooter (key ``ones:<shooter>``).
    """
    wmax = start.size - 1
    names = [*COUNTS[:-2], "stunned"]
    shooters = sorted({p.spec.shooter for p in policies})
    tables = {k: start[:, None].copy() for k in names}
    for sh in shooters:
        tables[f"ones:{sh}"] = start[:, None].copy()
    for pol in policies:
        trans = {w: shot_transitions(pol, w, wmax) for w in range(wmax + 1) if start_mass(tables, w)}
        keys = [*names, *([f"ones:{pol.spec.shooter}"] if pol.spec.rules.hot else [])]
        for key in keys:
            jkey = "ones" if key.startswith("ones:") else key
            P = tables[key]
            dmax = max(t[jkey].shape[0] for t in trans.values()) - 1
            new = np.zeros((wmax + 1, P.shape[1] + dmax))
            for w, t in trans.items():
                if not P[w].any():
                    continue
                J = t[jkey]
                for d in range(J.shape[0]):
                    row = J[d]
                    if row.any():
                        new[:, d : d + P.shape[1]] += np.outer(row, P[w])
            tables[key] = new
        for key in tables:
            if key.startswith("ones:") and key not in keys:  # other shooters: wounds move, ones stay
                P = tables[key]
                new = np.zeros_like(P)
                for w, t in trans.items():
                    new += np.outer(t["hits"].sum(axis=0), P[w])
                tables[key] = new
    return tables


def start_mass(tables: dict[str, np.ndarray], w: int) -> bool:
    return bool(tables["hits"][w].any())


def marginal(table: np.ndarray) -> Dist:
    return Dist(table.sum(axis=0))


def wounds_left(table: np.ndarray) -> Dist:
    return Dist(table.sum(axis=1))
