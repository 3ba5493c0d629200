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
from grimdice.systems.killteam.solve import ShotPolicy, ShotSpec, defence_outcomes, defender_options

#: counts followed through the sequence (each jointly with the wounds left)
COUNTS = ("hits", "critical_hits", "saves", "unsaved", "mortal_wounds", "ones", "stunned")


@cache
def _item_arrays(n: int, bs: int, lethal: int) -> tuple[np.ndarray, np.ndarray]:
    """The first rolls of :func:`attack_items` as arrays: counts ``(items, 4)`` and P ``(items,)``."""
    items = attack_items(n, bs, lethal)
    return np.array([c for c, _ in items], dtype=np.int64).reshape(-1, 4), np.array([p for _, p in items])


def _after_rerolls(pol: ShotPolicy, ws: np.ndarray) -> np.ndarray:
    """``F[i, c, h, ones]``: P after the attacker's re-rolls with ``ws[i]`` wounds left (before
    Rending). Each first roll and its chosen re-roll make a kept part and ``r`` dice rolled again:
    the mass of each kept part is gathered per ``r``, then spread by the law of ``r`` dice (one
    shifted slice per outcome of the re-rolled dice)."""
    s = pol.spec
    n = s.dice
    counts, p = _item_arrays(n, s.bs, s.rules.lethal)
    c, h, o, m = counts.T
    chosen = pol.reroll[ws[:, None], c, h, o, m].astype(np.int64)  # (ws, items, 4)
    r = chosen.sum(axis=2)
    kc, kh, ko = c - chosen[..., 0], h - chosen[..., 1], o - chosen[..., 2]
    code = ((kc * (n + 1) + kh) * (n + 1) + ko) * (n + 1) + r
    uniq, inv = np.unique(code, return_inverse=True)
    weights = np.bincount(
        (np.arange(ws.size)[:, None] * uniq.size + inv.reshape(code.shape)).ravel(),
        weights=np.broadcast_to(p, code.shape).ravel(),
        minlength=ws.size * uniq.size,
    ).reshape(ws.size, uniq.size)
    F = np.zeros((ws.size, n + 1, n + 1, n + 1))
    rest, r_u = np.divmod(uniq, n + 1)
    rest, ko_u = np.divmod(rest, n + 1)
    kc_u, kh_u = np.divmod(rest, n + 1)
    for r in np.unique(r_u).tolist():
        m = n - r  # the kept dice are at most n - r
        sel = np.flatnonzero(r_u == r)
        kept = np.zeros((ws.size, m + 1, m + 1, m + 1))
        kept[:, kc_u[sel], kh_u[sel], ko_u[sel]] = weights[:, sel]
        law = attack_counts(r, s.bs, s.rules.lethal)
        for dc, dh, do in zip(*np.nonzero(law), strict=True):
            F[:, dc : dc + m + 1, dh : dh + m + 1, do : do + m + 1] += law[dc, dh, do] * kept
    return F


@cache
def _outcome_arrays(rolled: int, sv: int, retained: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    out = defence_outcomes(rolled, sv, retained)
    cs, ns, p = (np.array([o[i] for o in out]) for i in range(3))
    return cs, ns, p


def _defence_tables(s: ShotSpec) -> tuple[np.ndarray, np.ndarray]:
    """``k[c, inv, ret]``, ``sv[c, inv, ret]``: defence dice rolled and the save roll of the
    defender's option (invulnerable used, cover save retained) against ``c`` critical hits."""
    k = np.zeros((s.dice + 2, 2, 2), dtype=np.int64)
    sv = np.zeros((s.dice + 2, 2, 2), dtype=np.int64)
    for c in range(s.dice + 2):
        for inv, ret, kk, save in defender_options(s, c):
            k[c, int(inv), int(ret)], sv[c, int(inv), int(ret)] = kk, save
    return k, sv


def _sizes(pol: ShotPolicy) -> dict[str, int]:
    """How many values each count takes in one attack."""
    s = pol.spec
    n = s.dice
    return {
        "hits": n + 1,
        "critical_hits": n + 1,
        "saves": s.df + 2,
        "unsaved": 2 * n + 1,
        "mortal_wounds": s.mw_per_crit * n + 1,
        "ones": n + 1,
        "stunned": 2,
    }


def shot_transitions(pol: ShotPolicy, ws: np.ndarray, wmax: int) -> dict[str, np.ndarray]:
    """For one attack from each ``ws[i]`` wounds left: ``J[name][i, delta, w']`` for every count.

    Every (wounds left, dice after re-rolls) with mass is followed at once: Rending, the
    defender's save option, each defence roll and the chosen allocation (policy tables), grouped
    by the defence dice rolled; the joint masses are summed with ``numpy.bincount``."""
    s = pol.spec
    n = s.dice
    nw = ws.size
    size = _sizes(pol)
    W = wmax + 1
    J = {k: np.zeros(nw * v * W) for k, v in size.items()}

    def add(name: str, i: np.ndarray, delta: np.ndarray, w2: np.ndarray, weight: np.ndarray) -> None:
        J[name] += np.bincount(
            ((i * size[name] + delta) * W + w2).ravel(), weights=weight.ravel(), minlength=J[name].size
        )

    live = ws > 0
    if not live.all():  # no attack is made against an operative already incapacitated
        dead = np.flatnonzero(~live)
        for name in J:
            add(name, dead, np.zeros_like(dead), np.zeros_like(dead), np.ones(dead.size))
    if live.any():
        idx_live = np.flatnonzero(live)
        F = _after_rerolls(pol, ws[live])
        Fch = F.sum(axis=3)
        i, c, h = np.nonzero(Fch > 0)
        mass = Fch[i, c, h]
        w = ws[idx_live][i]
        ones = F[i, c, h]  # (triples, n+1)
        i = idx_live[i]
        rend = pol.rending[w, c, h]
        fc, fh = c + rend, h - rend
        w1 = np.maximum(w - s.mw_per_crit * fc, 0)
        base = {
            "hits": fc + fh,
            "critical_hits": fc,
            "mortal_wounds": s.mw_per_crit * fc,
            "stunned": (fc > 0).astype(np.int64),
        }
        trivial = (fc + fh == 0) | (w1 == 0)
        k_of, sv_of = _defence_tables(s)
        inv_ret = pol.option[w, fc, fh].astype(np.int64)
        group = (k_of[fc, inv_ret[:, 0], inv_ret[:, 1]] * 8 + sv_of[fc, inv_ret[:, 0], inv_ret[:, 1]]) * 2
        group = np.where(trivial, -1, group + inv_ret[:, 1])
        parts = [(np.flatnonzero(trivial), np.zeros(1, np.int64), np.zeros(1, np.int64), np.ones(1))]
        for g in np.unique(group[group >= 0]).tolist():
            (k, sv), ret = divmod(g // 2, 8), g % 2
            parts.append((np.flatnonzero(group == g), *_outcome_arrays(k, sv, ret)))
        for ts, cs, ns, p in parts:
            if not ts.size:
                continue
            tw1 = w1[ts, None]
            if ts is parts[0][0]:
                uc = un = np.zeros((ts.size, 1), dtype=np.int64)
            else:
                chosen = pol.alloc[tw1, fc[ts, None], fh[ts, None], cs[None, :], ns[None, :]].astype(np.int64)
                uc, un = chosen[..., 0], chosen[..., 1]
            w2 = np.maximum(tw1 - uc * s.critical - un * s.normal, 0)
            weight = mass[ts, None] * p[None, :]
            ti = np.broadcast_to(i[ts, None], w2.shape)
            for name, delta in base.items():
                add(name, ti, np.broadcast_to(delta[ts, None], w2.shape), w2, weight)
            add("saves", ti, np.broadcast_to(cs + ns, w2.shape), w2, weight)
            add("unsaved", ti, uc + un, w2, weight)
            o = np.arange(n + 1)
            add(
                "ones",
                np.broadcast_to(ti[..., None], (*w2.shape, n + 1)),
                np.broadcast_to(o, (*w2.shape, n + 1)),
                np.broadcast_to(w2[..., None], (*w2.shape, n + 1)),
                ones[ts, None, :] * p[None, :, None],
            )
    return {k: v.reshape(nw, size[k], W) for k, v in J.items()}


def _advance(P: np.ndarray, T: np.ndarray, ws: np.ndarray) -> np.ndarray:
    """``new[w', t + d] = sum_w T[w, d, w'] P[w, t]`` over the wounds ``ws`` (rows of ``T``)."""
    d_max = T.shape[1]
    new = np.zeros((P.shape[0], P.shape[1] + d_max - 1))
    Pw = P[ws]
    for d in range(d_max):
        block = T[:, d, :]
        if block.any():
            new[:, d : d + P.shape[1]] += block.T @ Pw
    return new


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
        ws = np.flatnonzero(tables["hits"].any(axis=1))
        trans = shot_transitions(pol, ws, wmax)
        keys = [*names, *([f"ones:{pol.spec.shooter}"] if pol.spec.rules.hot else [])]
        for key in keys:
            tables[key] = _advance(tables[key], trans["ones" if key.startswith("ones:") else key], ws)
        moved = trans["hits"].sum(axis=1)  # [w, w']
        for key in tables:
            if key.startswith("ones:") and key not in keys:  # other shooters: wounds move, ones stay
                tables[key] = moved.T @ tables[key][ws]
    return tables


def start_mass(tables: dict[str, np.ndarray], w: int) -> bool:
    return bool(tables["hits"][w].any())


def marginal(table: np.ndarray) -> Dist:
    return Dist(table.sum(axis=0))


def wounds_left(table: np.ndarray) -> Dist:
    return Dist(table.sum(axis=1))
