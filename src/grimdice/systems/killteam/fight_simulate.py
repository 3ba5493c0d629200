"""Monte Carlo fights: the dice are rolled (and re-rolled) literally, then the solved policy of
:func:`grimdice.systems.killteam.fight.solve_fight` is played move by move by table lookup.

It cross-checks the exact engine's propagation of the dice law through the policy: which dice a
re-roll choice picks up, Rending, Stun's discard, the alternation and the early end of the fight.
"""

from __future__ import annotations

import numpy as np

from grimdice.dice import Dist, Sampler
from grimdice.result import empirical
from grimdice.systems.killteam.fight import (
    PARRY_CRIT_CRIT,
    PARRY_CRIT_NORMAL,
    PARRY_NORMAL,
    STRIKE_CRIT,
    STRIKE_NORMAL,
    Fighter,
    FightSolution,
    Tables,
)
from grimdice.systems.killteam.rolls import CRIT, MISS, NORMAL, ONE, attack_result


def _counts(cat: np.ndarray) -> dict[int, np.ndarray]:
    return {k: (cat == k).sum(axis=1) for k in (CRIT, NORMAL, ONE, MISS)}


def _roll_index(cat: np.ndarray, table: list) -> np.ndarray:
    """Index of each trial's roll (counts by category) in the exact engine's roll list."""
    n = cat.shape[1] + 1
    cnt = _counts(cat)
    code = cnt[CRIT] + n * (cnt[NORMAL] + n * cnt[ONE])
    lookup = np.full(n**3, -1, dtype=np.int64)
    for i, (r, _) in enumerate(table):
        lookup[r[0] + n * (r[1] + n * r[2])] = i
    return lookup[code]


def _reroll(sm: Sampler, faces, cat, f: Fighter, opt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Re-roll, per trial, the dice the chosen option ``(normals kept, crits kept, re-rolled)``
    gives up (failed dice: 1s first, for Ceaseless), then the final (normal, critical) counts."""
    cnt = _counts(cat)
    rn, rc = cnt[NORMAL] - opt[:, 0], cnt[CRIT] - opt[:, 1]
    rf = opt[:, 2] - rn - rc
    r1 = np.minimum(rf, cnt[ONE])
    mask = np.zeros(cat.shape, dtype=bool)
    for k, r in ((NORMAL, rn), (CRIT, rc), (ONE, r1), (MISS, rf - r1)):
        is_k = cat == k
        mask |= is_k & (np.cumsum(is_k, axis=1) <= r[:, None])
    faces = sm.reroll(faces, mask)
    cat = attack_result(faces, f.hit, f.rules.lethal)
    cnt = _counts(cat)
    return cnt[NORMAL], cnt[CRIT]


def _option_table(opts: list, choice: np.ndarray) -> np.ndarray:
    """``choice[..., i]`` (option index for own roll ``i``, last axis) as option triples."""
    out = np.zeros((*choice.shape, 3), dtype=np.int64)
    for i, o in enumerate(opts):
        arr = np.array(o, dtype=np.int64)
        out[..., i, :] = arr[choice[..., i]]
    return out


def simulate_fight(sol: FightSolution, n: int, seed: int | None) -> dict[str, Dist]:
    """``n`` seeded trials of the fight under the solved policy: the same stages as the exact
    :func:`~grimdice.systems.killteam.fight.solution_stages`."""
    att, dfd = sol.attacker, sol.defender
    tb: Tables = sol.tables
    sm = Sampler(seed)
    fa, fd = sm.roll((n, att.attacks)), sm.roll((n, dfd.attacks))
    ca, cd = attack_result(fa, att.hit, att.rules.lethal), attack_result(fd, dfd.hit, dfd.rules.lethal)
    ia, jd = _roll_index(ca, tb.att_rolls), _roll_index(cd, tb.def_rolls)

    att_opt = _option_table(tb.att_opts, tb.att_choice.T).transpose(1, 0, 2)  # [i, j, 3]
    an, ac = _reroll(sm, fa, ca, att, att_opt[ia, jd])
    def_opt = _option_table(tb.def_opts, tb.def_choice)  # [an, ac, j, 3]
    dn, dc = _reroll(sm, fd, cd, dfd, def_opt[an, ac, jd])

    A, D = att.attacks, dfd.attacks
    rend = np.zeros((A + 1, A + 1, D + 1, D + 1, 4), dtype=np.int64)
    for k, v in tb.rend.items():
        rend[k] = v
    H = rend[an, ac, dn, dc]  # retained [an, ac, dn, dc]
    hits = H.copy()
    W = np.tile(np.array([att.wounds, dfd.wounds]), (n, 1))
    S = np.zeros((n, 2), dtype=np.int64)
    CS = np.zeros((n, 2), dtype=np.int64)
    turn = np.where(H[:, 0] + H[:, 1] > 0, 0, 1)
    active = H.sum(axis=1) > 0

    best = tb.resolver.best
    radix = np.array([2, A + 1, A + 1, D + 1, D + 1, att.wounds + 1, dfd.wounds + 1, 2, 2])
    place = np.concatenate([np.cumprod(radix[::-1])[::-1][1:], [1]])
    keys = np.array([int(np.dot(s, place)) for s in best], dtype=np.int64)
    acts = np.array(list(best.values()), dtype=np.int64)
    order = np.argsort(keys)
    keys, acts = keys[order], acts[order]
    nd = np.array([att.normal_damage, dfd.normal_damage])
    cdm = np.array([att.critical_damage, dfd.critical_damage])
    stun = np.array([att.rules.stun, dfd.rules.stun])

    while active.any():
        r = np.flatnonzero(active)
        p = turn[r]
        o = 1 - p
        state = np.column_stack([p, H[r], W[r], S[r]])
        pos = np.searchsorted(keys, state @ place)
        a = acts[pos]
        H[r, 2 * p] -= (a == STRIKE_NORMAL) | (a == PARRY_NORMAL)
        H[r, 2 * p + 1] -= (a == STRIKE_CRIT) | (a == PARRY_CRIT_NORMAL) | (a == PARRY_CRIT_CRIT)
        W[r, o] -= np.where(a == STRIKE_NORMAL, nd[p], np.where(a == STRIKE_CRIT, cdm[p], 0))
        sc = a == STRIKE_CRIT
        H[r, 2 * o] -= sc & stun[p] & (S[r, p] == 0) & (H[r, 2 * o] > 0)
        S[r, p] |= sc
        CS[r, p] += sc
        H[r, 2 * o] -= (a == PARRY_NORMAL) | (a == PARRY_CRIT_NORMAL)
        H[r, 2 * o + 1] -= a == PARRY_CRIT_CRIT
        dead = W[r, o] <= 0
        W[r, o] = np.maximum(W[r, o], 0)
        theirs = H[r, 2 * o] + H[r, 2 * o + 1]
        mine = H[r, 2 * p] + H[r, 2 * p + 1]
        turn[r] = np.where(theirs > 0, o, p)
        active[r[dead | (theirs + mine == 0)]] = False

    out = {
        "hits": empirical(hits[:, 0] + hits[:, 1]),
        "damage": empirical(dfd.wounds - W[:, 1]),
        "models_destroyed": empirical(W[:, 1] == 0),
        "defender_wounds_left": empirical(W[:, 1]),
        "defender_hits": empirical(hits[:, 2] + hits[:, 3]),
        "damage_taken": empirical(att.wounds - W[:, 0]),
        "attacker_incapacitated": empirical(W[:, 0] == 0),
        "attacker_wounds_left": empirical(W[:, 0]),
        "critical_strikes": empirical(CS[:, 0]),
        "critical_strikes_taken": empirical(CS[:, 1]),
        "reap_mortal_wounds": empirical(CS[:, 0] * att.rules.reap),
        "defender_reap_mortal_wounds": empirical(CS[:, 1] * dfd.rules.reap),
        "defender_apl_lost": empirical(att.rules.stun & (CS[:, 0] >= 2)),
        "attacker_apl_lost": empirical(dfd.rules.stun & (CS[:, 1] >= 2)),
    }
    return out
