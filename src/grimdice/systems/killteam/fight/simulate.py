"""Monte Carlo fights: the dice are rolled (and re-rolled) literally, then the solved policy of
:func:`grimdice.systems.killteam.fight.solver.solve_fight` is played move by move by table lookup,
vectorised over the trials of a block of :func:`grimdice.engine.montecarlo.run_trials`.

It cross-checks the exact engine's propagation of the dice law through the policy: which dice a
re-roll choice picks up, Rending, Stun's discard, the alternation and the early end of the fight.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from grimdice.dice import Sampler
from grimdice.dice.sampler import row_counts
from grimdice.engine.montecarlo import Tally
from grimdice.engine.options import RunOptions
from grimdice.systems.killteam.fight.solver import FightSolution, Tables
from grimdice.systems.killteam.fight.state import Fighter, Move
from grimdice.systems.killteam.rerolls import reroll_mask
from grimdice.systems.killteam.rolls import CRIT, MISS, NORMAL, ONE
from grimdice.systems.killteam.simulate import categories


def _counts(cat: np.ndarray) -> dict[int, np.ndarray]:
    counts = row_counts(cat, 4)
    return {k: counts[k] for k in (CRIT, NORMAL, ONE, MISS)}


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
    faces = sm.reroll(faces, reroll_mask(cat, np.stack([rc, rn, r1, rf - r1], axis=1)))
    cat = categories(faces, f.hit, f.rules.lethal)
    cnt = _counts(cat)
    return cnt[NORMAL], cnt[CRIT]


def _option_table(opts: list, choice: np.ndarray) -> np.ndarray:
    """``choice[..., i]`` (option index for own roll ``i``, last axis) as option triples."""
    out = np.zeros((*choice.shape, 3), dtype=np.int64)
    for i, o in enumerate(opts):
        arr = np.array(o, dtype=np.int64)
        out[..., i, :] = arr[choice[..., i]]
    return out


def simulate_fight(sol: FightSolution, options: RunOptions) -> Tally:
    """``options.simulate`` seeded trials of the fight under the solved policy, on the shared
    runner (:meth:`RunOptions.run`): a tally of the same stages as the exact
    :func:`~grimdice.systems.killteam.fight.report.solution_stages`."""
    return options.run(fight_trial(sol))


def fight_trial(sol: FightSolution) -> Callable[[Sampler, int], dict[str, np.ndarray]]:
    """The trial function: the policy's lookup tables built once, then ``size`` fights per call."""
    att, dfd = sol.attacker, sol.defender
    tables: Tables = sol.tables
    n_att, n_def = att.attacks, dfd.attacks
    att_keep = _option_table(tables.att_opts, tables.att_choice.T).transpose(1, 0, 2)  # [i, j, 3]
    def_keep = _option_table(tables.def_opts, tables.def_choice)  # [normal, critical, j, 3]
    rend = np.zeros((n_att + 1, n_att + 1, n_def + 1, n_def + 1, 4), dtype=np.int64)
    for k, v in tables.rend.items():
        rend[k] = v
    # the resolution policy as a sorted table of encoded states
    # (side to move, hits of both sides, wounds, critical strikes of both sides)
    radix = np.array(
        [2, n_att + 1, n_att + 1, n_def + 1, n_def + 1, att.wounds + 1, dfd.wounds + 1, n_att + 1, n_def + 1]
    )
    place = np.concatenate([np.cumprod(radix[::-1])[::-1][1:], [1]])
    policy = tables.resolution.policy
    codes = np.array(
        [
            int(np.dot([s.to_move, *s.hits[0], *s.hits[1], *s.wounds, *s.critical_strikes], place))
            for s in policy
        ],
        dtype=np.int64,
    )
    moves = np.array([int(m) for m in policy.values()], dtype=np.int64)
    order = np.argsort(codes)
    codes, moves = codes[order], moves[order]
    normal_damage = np.array([att.normal_damage, dfd.normal_damage])
    critical_damage = np.array([att.critical_damage, dfd.critical_damage])
    stun = np.array([att.rules.stun, dfd.rules.stun])

    def trial(sm: Sampler, n: int) -> dict[str, np.ndarray]:
        att_faces, def_faces = sm.roll((n, n_att)), sm.roll((n, n_def))
        att_cats = categories(att_faces, att.hit, att.rules.lethal)
        def_cats = categories(def_faces, dfd.hit, dfd.rules.lethal)
        att_roll, def_roll = _roll_index(att_cats, tables.att_rolls), _roll_index(def_cats, tables.def_rolls)
        att_normal, att_crit = _reroll(sm, att_faces, att_cats, att, att_keep[att_roll, def_roll])
        def_normal, def_crit = _reroll(sm, def_faces, def_cats, dfd, def_keep[att_normal, att_crit, def_roll])
        hits = rend[
            att_normal, att_crit, def_normal, def_crit
        ]  # retained: attacker normal, critical, defender normal, critical
        left = hits.copy()
        wounds = np.tile(np.array([att.wounds, dfd.wounds]), (n, 1))
        strikes = np.zeros((n, 2), dtype=np.int64)  # critical strikes per side
        turn = np.where(left[:, 0] + left[:, 1] > 0, 0, 1)
        active = left.sum(axis=1) > 0
        while active.any():
            r = np.flatnonzero(active)
            p = turn[r]
            o = 1 - p
            state = np.column_stack([p, left[r], wounds[r], strikes[r]])
            a = moves[np.searchsorted(codes, state @ place)]
            left[r, 2 * p] -= (a == Move.STRIKE_NORMAL) | (a == Move.PARRY_NORMAL)
            left[r, 2 * p + 1] -= (
                (a == Move.STRIKE_CRIT) | (a == Move.PARRY_CRIT_NORMAL) | (a == Move.PARRY_CRIT_CRIT)
            )
            wounds[r, o] -= np.where(
                a == Move.STRIKE_NORMAL,
                normal_damage[p],
                np.where(a == Move.STRIKE_CRIT, critical_damage[p], 0),
            )
            crit = a == Move.STRIKE_CRIT
            left[r, 2 * o] -= crit & stun[p] & (strikes[r, p] == 0) & (left[r, 2 * o] > 0)  # Stun
            strikes[r, p] += crit
            left[r, 2 * o] -= (a == Move.PARRY_NORMAL) | (a == Move.PARRY_CRIT_NORMAL)
            left[r, 2 * o + 1] -= a == Move.PARRY_CRIT_CRIT
            dead = wounds[r, o] <= 0
            wounds[r, o] = np.maximum(wounds[r, o], 0)
            theirs = left[r, 2 * o] + left[r, 2 * o + 1]
            mine = left[r, 2 * p] + left[r, 2 * p + 1]
            turn[r] = np.where(theirs > 0, o, p)
            active[r[dead | (theirs + mine == 0)]] = False
        return {
            "hits": hits[:, 0] + hits[:, 1],
            "damage": dfd.wounds - wounds[:, 1],
            "models_destroyed": (wounds[:, 1] == 0).astype(np.int64),
            "defender_wounds_left": wounds[:, 1],
            "defender_hits": hits[:, 2] + hits[:, 3],
            "damage_taken": att.wounds - wounds[:, 0],
            "attacker_incapacitated": (wounds[:, 0] == 0).astype(np.int64),
            "attacker_wounds_left": wounds[:, 0],
            "critical_strikes": strikes[:, 0],
            "critical_strikes_taken": strikes[:, 1],
            "reap_mortal_wounds": strikes[:, 0] * att.rules.reap,
            "defender_reap_mortal_wounds": strikes[:, 1] * dfd.rules.reap,
            "defender_apl_lost": (att.rules.stun & (strikes[:, 0] >= 2)).astype(np.int64),
            "attacker_apl_lost": (dfd.rules.stun & (strikes[:, 1] >= 2)).astype(np.int64),
        }

    return trial
