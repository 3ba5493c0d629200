"""Optimal play in a sequence of shooting attacks against one operative, by backward induction.

The state between attacks is the target's wounds left ``w``. Within one attack the decisions, in
the order they are taken, are:

1. attacker: which attack dice to re-roll (Balanced: one die; Ceaseless: any 1s; Relentless: any),
   seeing the first roll;
2. attacker: whether to use Rending (retain one normal hit as a critical hit);
3. defender, seeing the retained attack dice: Save characteristic or Invulnerable Save, and
   whether to retain one normal save from Cover instead of rolling that die;
4. defender, seeing both rolls: the allocation of saves to hits.

Each side maximises the expectation of its own terminal utility of the final wounds left ``w``
over the whole sequence: the attacker ``W0 - w`` (objective ``damage``) or ``[w = 0]``
(``kill``); the defender ``w`` (``damage``: minimise expected wounds lost) or ``[w > 0]``
(``survival``). Every choice is an exact maximum over all alternatives of the continuation
value (no fixed rule is assumed); ties go to the choice listed first (no re-roll, no Rending, the
Save characteristic, rolling the die, and the allocation worst for the opponent).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache

import numpy as np

from grimdice.systems.killteam.rerolls import Reroll, reroll_choices
from grimdice.systems.killteam.rolls import (
    attack_counts,
    attack_items,
    count_items,
    defence_dice,
    effective_ap,
    save_counts,
    unsaved_options,
)
from grimdice.systems.killteam.rules import NO_RULES, WeaponRules

EPS = 1e-12
ALLOCATE_CHUNK = 1024  # allocation keys solved together (bounds the memory of one pass)


@dataclass(frozen=True)
class ShotSpec:
    """One shooting attack, fully resolved from profiles: the engines' only input about rules."""

    label: str
    shooter: str
    dice: int
    bs: int
    normal: int
    critical: int
    rules: WeaponRules = NO_RULES  # the weapon's rules (Lethal, AP, P, re-rolls, Rending, Hot, Stun)
    mw_per_crit: int = 0  # MWx + Splash x, inflicted on the target per critical hit retained
    df: int = 3
    sv: int = 4
    invulnerable: int | None = None
    cover: bool = False  # the defender may retain one normal save without rolling it


@dataclass
class ShotPolicy:
    """Decisions of both sides for one attack, as lookup tables (used by both engines).

    ``reroll[w, c, h, o, m]`` = dice re-rolled (crits, normals, ones, misses) from a first roll of
    ``c`` crits, ``h`` normal hits, ``o`` ones and ``m`` other misses with ``w`` wounds left;
    ``rending[w, c, h]``; ``option[w, c, h]`` = (invulnerable used, cover save retained);
    ``alloc[w1, c, h, cs, ns]`` = (uncancelled crits, uncancelled normals) once ``w1`` wounds are
    left after mortal wounds.
    """

    spec: ShotSpec
    reroll: np.ndarray
    rending: np.ndarray
    option: np.ndarray
    alloc: np.ndarray
    value_attacker: np.ndarray = field(repr=False)  # before this attack, by w
    value_defender: np.ndarray = field(repr=False)


@cache
def defence_outcomes(rolled: int, sv: int, retained: int) -> tuple[tuple[int, int, float], ...]:
    """``(critical saves, normal saves, P)`` from ``rolled`` dice plus ``retained`` normal saves."""
    return tuple((cs, ns + retained, p) for (cs, ns, _), p in count_items(save_counts(rolled, sv)))


def defender_options(spec: ShotSpec, crits: int) -> list[tuple[bool, bool, int, int]]:
    """(invulnerable used, cover retained, dice rolled, save roll) open to the defender."""
    ap = effective_ap(spec.rules.ap, spec.rules.piercing, crits)
    saves = [(False, spec.sv)] + ([(True, spec.invulnerable)] if spec.invulnerable is not None else [])
    out = []
    for inv, sv in saves:
        k = defence_dice(spec.df, ap, inv)
        out.append((inv, False, k, sv))
        if spec.cover and k > 0:
            out.append((inv, True, k - 1, sv))
    return out


def solve_shot(spec: ShotSpec, next_a: np.ndarray, next_d: np.ndarray) -> ShotPolicy:
    """Optimal decisions of both sides in one attack given the values of the wounds left after it."""
    n, W = spec.dice, next_a.size - 1
    ws = np.arange(W + 1)
    dmax = spec.df + 1
    alloc = np.zeros((W + 1, n + 1, n + 1, dmax + 1, dmax + 1, 2), dtype=np.int16)
    option = np.zeros((W + 1, n + 1, n + 1, 2), dtype=bool)
    qa = np.zeros((W + 1, n + 1, n + 1))  # value after the attack roll (before Rending), by (w, c, h)
    qd = np.zeros((W + 1, n + 1, n + 1))
    options = {c: defender_options(spec, c) for c in range(n + 1)}
    keys: dict[tuple[int, int, int, int], int] = {}
    for c in range(n + 1):
        for h in range(1 if c == 0 else 0, n + 1 - c):
            for _, ret, k, sv in options[c]:
                for cs, ns, _ in defence_outcomes(k, sv, int(ret)):
                    keys.setdefault((c, h, cs, ns), len(keys))
    alloc_a, alloc_d = _allocate(spec, alloc, keys, next_a, next_d)
    for c in range(n + 1):
        w1 = np.maximum(ws - spec.mw_per_crit * c, 0)
        for h in range(n + 1 - c):
            if c + h == 0:
                qa[:, c, h], qd[:, c, h] = next_a, next_d
                continue
            best_a: np.ndarray | None = None
            best_d: np.ndarray | None = None
            for inv, ret, k, sv in options[c]:
                outs = defence_outcomes(k, sv, int(ret))
                rows = np.array([keys[(c, h, cs, ns)] for cs, ns, _ in outs])[:, None]
                p = np.array([o[2] for o in outs])[:, None]
                # summed over the defence rolls in their order (row by row, as ever)
                ea = (p * alloc_a[rows, w1[None, :]]).sum(axis=0)
                ed = (p * alloc_d[rows, w1[None, :]]).sum(axis=0)
                if best_a is None or best_d is None:  # the first option (both are set together)
                    best_a, best_d = ea, ed
                    option[:, c, h] = (inv, ret)
                    continue
                better = (ed > best_d + EPS) | ((np.abs(ed - best_d) <= EPS) & (ea < best_a - EPS))
                best_a, best_d = np.where(better, ea, best_a), np.where(better, ed, best_d)
                option[better, c, h] = (inv, ret)
            qa[:, c, h], qd[:, c, h] = best_a, best_d
    rending = np.zeros((W + 1, n + 1, n + 1), dtype=bool)
    ra, rd = qa.copy(), qd.copy()
    if spec.rules.rending:
        for c in range(1, n + 1):
            for h in range(1, n + 1 - c):
                use = qa[:, c + 1, h - 1] > qa[:, c, h] + EPS
                rending[:, c, h] = use
                ra[:, c, h] = np.where(use, qa[:, c + 1, h - 1], qa[:, c, h])
                rd[:, c, h] = np.where(use, qd[:, c + 1, h - 1], qd[:, c, h])
    reroll, va, vd = _rerolls(spec, ra, rd)
    return ShotPolicy(spec, reroll, rending, option, alloc, va, vd)


def _allocate(
    spec: ShotSpec,
    alloc: np.ndarray,
    keys: dict[tuple[int, int, int, int], int],
    next_a: np.ndarray,
    next_d: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Best allocation for every ``(c, h, cs, ns)`` of ``keys`` and every wounds-left value
    ``w1``: the defender's best value, then among those the worst for the attacker, then the
    least damage, then the first option. Fills ``alloc``; returns the values ``[key index, w1]``
    for the attacker and the defender.

    An option's values depend only on its damage, so the options of one key with the same damage
    are one (the first of them is the one chosen), and keys whose options give the same damages
    in the same order are solved once: each distinct list of damages is a segment of rows, all
    solved at once (in bounded chunks)."""
    W = next_a.size - 1
    ws = np.arange(W + 1)
    lists, of_key, first, uc, un = _damage_lists(tuple(keys), spec.critical, spec.normal)
    position = np.zeros((len(lists), W + 1), dtype=np.int64)  # of the chosen damage, per list
    val_a, val_d = np.zeros((len(lists), W + 1)), np.zeros((len(lists), W + 1))
    for lo in range(0, len(lists), ALLOCATE_CHUNK):  # bounded memory
        part = lists[lo : lo + ALLOCATE_CHUNK]
        starts = np.cumsum([0, *(len(d) for d in part[:-1])])
        owner = np.repeat(np.arange(len(part)), [len(d) for d in part])
        dmg = np.array([x for d in part for x in d], dtype=np.int64)
        after = np.maximum(ws[None, :] - dmg[:, None], 0)  # (options, w1)
        vd, va = next_d[after], next_a[after]
        best_d = np.maximum.reduceat(vd, starts, axis=0)
        # among the defender's best, the one worst for the attacker, then the least damage
        cand = np.where(vd >= best_d[owner] - EPS, va, np.inf)
        low_a = np.minimum.reduceat(cand, starts, axis=0)
        cand2 = np.where(cand <= low_a[owner] + EPS, dmg[:, None], np.iinfo(np.int64).max)
        low_d = np.minimum.reduceat(cand2, starts, axis=0)
        rows = np.arange(dmg.size)[:, None]
        pick = np.minimum.reduceat(np.where(cand2 == low_d[owner], rows, dmg.size), starts, axis=0)
        position[lo : lo + len(part)] = pick - starts[:, None]
        val_a[lo : lo + len(part)] = va[pick, ws[None, :]]
        val_d[lo : lo + len(part)] = vd[pick, ws[None, :]]
    row = first[:, None] + position[of_key]  # each key's chosen option, per w1
    kk = np.array(list(keys), dtype=np.int64).reshape(-1, 4)
    chosen = np.stack([uc[row], un[row]], axis=-1).astype(np.int16)  # (keys, w1, 2)
    alloc[ws[None, :], kk[:, 0, None], kk[:, 1, None], kk[:, 2, None], kk[:, 3, None]] = chosen
    return val_a[of_key], val_d[of_key]


DAMAGE_LISTS_KEPT = 256  # distinct attack shapes whose allocation options stay cached (bounded memory)


@lru_cache(maxsize=DAMAGE_LISTS_KEPT)
def _damage_lists(
    keys: tuple[tuple[int, int, int, int], ...], critical: int, normal: int
) -> tuple[list[tuple[int, ...]], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The allocation options of ``keys`` (of each damage the first): the distinct lists of
    damages, the list of each key, the first row of each key's options, and the options'
    uncancelled crits and normal hits (rows)."""
    lists: dict[tuple[int, ...], int] = {}
    of_key: list[int] = []
    first: list[int] = []
    uc: list[int] = []
    un: list[int] = []
    for key in keys:
        first.append(len(uc))
        damages: list[int] = []
        for c, h in unsaved_options(*key):
            d = c * critical + h * normal
            if d not in damages:
                damages.append(d)
                uc.append(c)
                un.append(h)
        of_key.append(lists.setdefault(tuple(damages), len(lists)))
    return (
        list(lists),
        np.array(of_key, dtype=np.int64),
        np.array(first, dtype=np.int64),
        np.array(uc, dtype=np.int64),
        np.array(un, dtype=np.int64),
    )


def _rerolls(spec: ShotSpec, ra: np.ndarray, rd: np.ndarray):
    """Re-roll decisions for every first roll, and the values before the attack."""
    n = spec.dice
    W = ra.shape[0] - 1
    reroll = np.zeros((W + 1, n + 1, n + 1, n + 1, n + 1, 4), dtype=np.int8)
    va, vd = np.zeros(W + 1), np.zeros(W + 1)
    cache_v: dict[tuple[int, int, int], tuple[np.ndarray, np.ndarray]] = {}

    def value(kc: int, kh: int, r: int):
        key = (kc, kh, r)
        if key not in cache_v:
            j = attack_counts(r, spec.bs, spec.rules.lethal).sum(axis=2)  # (dc, dh)
            sa = ra[:, kc : kc + r + 1, kh : kh + r + 1]
            sd = rd[:, kc : kc + r + 1, kh : kh + r + 1]
            cache_v[key] = ((sa * j).sum(axis=(1, 2)), (sd * j).sum(axis=(1, 2)))
        return cache_v[key]

    r = spec.rules
    keys, starts, owner, choices, counts, probs = _reroll_rows(n, spec.bs, r.lethal, r)
    vals = [value(*k) for k in keys]
    A = np.array([v[0] for v in vals]).reshape(len(vals), W + 1)
    D = np.array([v[1] for v in vals]).reshape(len(vals), W + 1)
    # the first choice within EPS of the attacker's best value
    best = np.maximum.reduceat(A, starts, axis=0)
    index = np.arange(len(vals))[:, None]
    pick = np.minimum.reduceat(np.where(best[owner] - EPS <= A, index, len(vals)), starts, axis=0)
    ws = np.arange(W + 1)
    reroll[ws[None, :], *(counts[:, i, None] for i in range(4))] = choices[pick]
    for i, p in enumerate(probs):  # in the order of the first rolls (the same sums as ever)
        va += p * A[pick[i], ws]
        vd += p * D[pick[i], ws]
    return reroll, va, vd


@cache
def _reroll_rows(n: int, bs: int, lethal: int, rules: WeaponRules) -> tuple:
    """Every first roll of ``n`` attack dice and its re-roll choices, one row per choice: the
    value key (kept crits, kept normal hits, dice re-rolled), the first row of each roll, the roll
    of each row, the choices, the rolls' counts and P (attack_items order)."""
    items = attack_items(n, bs, lethal)
    starts: list[int] = []
    keys: list[tuple[int, int, int]] = []
    choices: list[Reroll] = []
    for (c, h, o, m), _ in items:
        opts = reroll_choices(rules, c, h, o, m)
        starts.append(len(keys))
        keys.extend((c - rc, h - rh, rc + rh + ro + rm) for rc, rh, ro, rm in opts)
        choices.extend(opts)
    first = np.array(starts, dtype=np.int64)
    owner = np.repeat(np.arange(first.size), np.diff(np.append(first, len(keys))))
    counts = np.array([cnt for cnt, _ in items], dtype=np.int64).reshape(-1, 4)
    return keys, first, owner, np.array(choices, dtype=np.int8), counts, [p for _, p in items]


def terminal_values(w0: int, wmax: int, attacker: str, defender: str) -> tuple[np.ndarray, np.ndarray]:
    """Terminal utilities by wounds left (index 0..wmax) for the two objectives."""
    ws = np.arange(wmax + 1)
    a = (ws == 0).astype(float) if attacker == "kill" else (w0 - ws).astype(float)
    d = (ws > 0).astype(float) if defender == "survival" else ws.astype(float)
    return a, d


def solve_sequence(specs: list[ShotSpec], w0: int, attacker: str, defender: str) -> list[ShotPolicy]:
    """Policies for every attack of the sequence (backward induction from the last)."""
    a, d = terminal_values(w0, w0, attacker, defender)
    out: list[ShotPolicy] = []
    for spec in reversed(specs):
        pol = solve_shot(spec, a, d)
        out.append(pol)
        a, d = pol.value_attacker, pol.value_defender
    return out[::-1]
