"""Monte Carlo for Rules Crusade: every die rolled literally (the pools, the re-rolled dice, the
force field's red die), the decisions played by the exact solution's policy, through
:func:`grimdice.engine.montecarlo.run_trials`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache

import numpy as np

from grimdice.dice.sampler import Sampler
from grimdice.engine.options import RunOptions
from grimdice.result import Result
from grimdice.systems.crusade.attack import THROWN, Attack, state_code
from grimdice.systems.crusade.contest import (
    P_ARR_ROLL,
    P_DRR_ROLL,
    P_END,
    P_PARRY,
    P_ROLL,
    REROLLS,
    opp_target,
    root,
    solve,
)
from grimdice.systems.crusade.damage import CONDITIONS, KILLED
from grimdice.systems.crusade.mob import counts
from grimdice.systems.crusade.report import build_result
from grimdice.systems.crusade.rolls import (
    DICE,
    NO_OPP,
    NO_OWN,
    OWN_CHAIN,
    Faces,
    draw_dice,
    max_count,
    opp_ranks,
    own_ranks,
    roll_dice,
    roll_pool,
)
from grimdice.systems.crusade.simulate_walk import Walk, distinct_rows

NAMES = (
    "def_condition",
    "def_hits_left",
    "att_condition",
    "att_hits_left",
    "damage",
    "att_damage",
    "att_fail",
    "def_fail",
    "parry",
    "att_reroll",
    "def_reroll",
    "pull_back",
    "tie",
    "big_kill",
    "throw",
    "att_state",  # the attacker's end state as one code (tracked where a weapon used may EXPLODE)
    "att_state_failed",  # the same where his roll failed, else past the end (not counted)
    "def_state",  # the defender's end state as one code (tracked where his melee weapon may EXPLODE)
    "def_state_failed",  # the same where his roll failed, else past the end (not counted)
    "def_state_att_failed",  # the target's state where the attacker's roll failed (he is near the bearer)
    "mob_killed",  # IX MOB: how many of the mob are killed
    "mob_ko",  # ... KO'd or killed
)


def face_codes(kinds: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """The :class:`Faces` statistic of each literally rolled pool (rows of ``faces``) as columns
    ``(total, maxes, own, opp)`` of an int array (``n`` is the same for every row)."""
    size, n = faces.shape
    if not n:
        return np.tile(np.array([0, 0, NO_OWN, NO_OPP], np.int64), (size, 1))
    total = faces.sum(axis=1)
    maxes = np.minimum(2, max_count(kinds, faces))
    own = own_ranks(kinds, faces)
    opp = opp_ranks(kinds, faces)
    best = own.argmin(axis=1)
    rows = np.arange(size)
    opp_rest = opp.copy()
    opp_rest[rows, best] = NO_OPP
    return np.stack([total, maxes, own[rows, best], opp_rest.min(axis=1)], axis=1)


def faces_of(kinds: np.ndarray, faces: np.ndarray) -> list[Faces]:
    """The :class:`Faces` statistic of each literally rolled pool (rows of ``faces``)."""
    n = faces.shape[1]
    return [Faces(int(t), int(m), int(o), int(q), n) for t, m, o, q in face_codes(kinds, faces)]


def _trial(atk: Attack, sol) -> Callable[[Sampler, int], dict[str, np.ndarray]]:
    """Trials vectorised over the rolls: every trial carries the id of its game state; each step
    maps the distinct (state, re-rolled face) pairs through the game once and looks the result up
    for all trials (the solved policy plays the decisions)."""
    spec = atk.spec
    walk = Walk(1)  # the contest's states by id, each (state, action or face) stepped once
    states = walk.states

    def step(i: int, x) -> int:
        return walk.then(i, x, _apply)

    outcome = lru_cache(maxsize=None)(atk.outcome)
    start = root(spec)
    parry = sol.policy[start] if start.phase == P_PARRY else start.parry
    first = walk.sid(replace(start, phase=P_ROLL, parry=parry))
    shooting = not spec.dfd.pool.n
    rows_memo: dict = {}

    def mob_counts(s, pull: int, lead) -> tuple[int, int]:
        """IX MOB: the mob killed, KO'd or killed (the lead attacker's end state as played)."""
        return counts((lead, *atk.mob(s.a.total, s.d.total, s.parry, pull)[1:])) if atk.mob else (0, 0)

    lay = spec.layout
    # past the last state code of a side: a roll that did not fail (not counted)
    past = {
        side: len(CONDITIONS) * len(range(lay.size)[lay.slices[f"{side}_hits_left"]])
        for side in ("att", "def")
    }

    def row(i: int, fa: int, fd: int) -> tuple:
        key = (i, fa, fd)
        r = rows_memo.get(key)
        if r is None:
            s = states[i]
            pull = atk.options(s.a.total, s.d.total, s.parry)
            if not shooting:
                ds, as_, dmg, admg, tie = outcome(s.a.total, s.d.total, s.parry, pull, fa, fd)
            else:
                ds, dmg, tie = outcome(s.a.total, fd)
                as_, admg = atk.att.start, 0
            big = int(ds[0] == KILLED and dmg >= 2)
            d_fail = int(s.d.failed) if s.d.n else 0
            pulled = int(0 <= pull < 99)  # a throw (pull -1) is not a pull-back
            a_state, d_state = state_code(lay, "att", as_), state_code(lay, "def", ds)
            r = rows_memo[key] = (ds[0], ds[1], as_[0], as_[1], dmg, admg, int(s.a.failed), d_fail,
                                  int(s.parry > 0), s.arr, s.drr, pulled, int(tie), big,
                                  THROWN.get(pull, 0), a_state,
                                  a_state if s.a.failed else past["att"], d_state,
                                  d_state if d_fail else past["def"],
                                  d_state if s.a.failed else past["def"],
                                  *mob_counts(s, pull, as_))  # fmt: skip
        return r

    na, nd = spec.att.pool.n, spec.dfd.pool.n
    firsts: dict[tuple[int, ...], int] = {}  # the two pools' codes -> the state after the roll

    def after_roll(u: tuple[int, ...]) -> int:
        k = firsts.get(u)
        if k is None:
            k = firsts[u] = step(first, (pool_faces(u[:4], na), pool_faces(u[4:], nd)))
        return k

    used = [(j, name) for j, name in enumerate(NAMES) if name in lay.slices]  # what the result reads

    def trial(sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        ka, fa = roll_pool(sampler, spec.att.pool, size)
        kd, fd = roll_pool(sampler, spec.dfd.pool, size)
        codes = np.concatenate([face_codes(ka, fa), face_codes(kd, fd)], axis=1)
        spare = {  # the re-rolled dice, drawn ahead: one per kind and re-roll phase, counted if rolled
            (phase, k): draw_dice(sampler, size, k) for phase in (P_ARR_ROLL, P_DRR_ROLL) for k in DICE
        }
        ff_a = roll_dice(sampler, size, "R") if len(atk.ff_att) > 1 else np.zeros(size, np.int8)
        ff_d = roll_dice(sampler, size, "R") if len(atk.ff_def) > 1 else np.zeros(size, np.int8)
        inv, uniq = distinct_rows(codes)
        table = np.array([after_roll(tuple(u)) for u in uniq.tolist()], np.int64)
        cur = table[inv.reshape(-1)]
        while True:  # at most the attacker's and the defender's re-roll, each a decision and a roll
            ids_now, back = np.unique(cur, return_inverse=True)
            back = back.reshape(-1)
            live = [k for k, i in enumerate(ids_now) if states[i].phase != P_END]
            if not live:
                break
            nxt = ids_now.copy()
            for k in live:
                i = int(ids_now[k])
                s = states[i]
                if s.phase in (P_ARR_ROLL, P_DRR_ROLL):
                    act = REROLLS[s.arr if s.phase == P_ARR_ROLL else s.drr]
                    mine, theirs = (s.a, s.d) if s.phase == P_ARR_ROLL else (s.d, s.a)
                    kind = OWN_CHAIN[mine.own][0] if act == "own" else opp_target(theirs)[0]
                    rolled = spare[(s.phase, kind)]
                    where = np.nonzero(back == k)[0]
                    sampler.dice += len(where)  # the re-rolled die of each trial here
                    faces = rolled[where]
                    for g in np.unique(faces):
                        cur[where[faces == g]] = step(i, int(g))  # the re-rolled die, rolled
                    nxt[k] = -1
                else:
                    nxt[k] = step(i, sol.policy[s])
            keep = nxt[back] >= 0
            cur[keep] = nxt[back][keep]
        code = (cur * 4 + ff_a) * 4 + ff_d  # cur is int64: no overflow
        ucode, uinv = np.unique(code, return_inverse=True)
        rows = np.array([row(int(c // 16), int(c // 4 % 4), int(c % 4)) for c in ucode], np.int64)
        picked = rows[uinv.reshape(-1)]
        return {name: picked[:, j] for j, name in used}

    return trial


def _apply(state, x):
    return state.apply(x)


def simulated_result(atk: Attack, options: RunOptions, title: str = "") -> Result:
    sol = solve(atk.spec)  # the policy both sides play
    tally = options.run(_trial(atk, sol))
    lay = atk.spec.layout
    v = np.zeros(lay.size)
    for name in NAMES:
        c = tally.counts.get(name)
        if c is None or name not in lay.slices:
            continue
        s = lay.slices[name]
        width = s.stop - s.start
        freq = np.zeros(width)
        freq[: min(width, c.size)] = c[:width] / tally.trials
        v[s] = freq
    return build_result(atk, v, "simulated", title, {}, trials=tally.trials, seed=options.seed)


def pool_faces(code: Sequence[int] | np.ndarray, n: int) -> Faces:
    """The :class:`Faces` of a pool of ``n`` dice from its four-number code."""
    total, maxes, own, opp = (int(x) for x in code)
    return Faces(total, maxes, own, opp, n)
