"""Monte Carlo for Rules Crusade: every die rolled literally (the pools, the re-rolled dice, the
force field's red die), the decisions played by the exact solution's policy, through
:func:`grimdice.engine.montecarlo.run_trials`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from functools import lru_cache

import numpy as np

from grimdice.dice.sampler import Sampler
from grimdice.engine.options import RunOptions
from grimdice.result import Result
from grimdice.systems.crusade.attack import Attack
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
from grimdice.systems.crusade.damage import KILLED
from grimdice.systems.crusade.report import build_result
from grimdice.systems.crusade.rolls import (
    DICE,
    NO_OPP,
    NO_OWN,
    OWN_CHAIN,
    Faces,
    max_count,
    opp_ranks,
    own_ranks,
    roll_pool,
)

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
)


def faces_of(kinds: np.ndarray, faces: np.ndarray) -> list[Faces]:
    """The :class:`Faces` statistic of each literally rolled pool (rows of ``faces``)."""
    n = faces.shape[1]
    total = faces.sum(axis=1) if n else np.zeros(len(faces), np.int64)
    maxes = np.minimum(2, max_count(kinds, faces))
    if not n:
        return [Faces(0, 0, NO_OWN, NO_OPP, 0)] * len(faces)
    own = own_ranks(kinds, faces)
    opp = opp_ranks(kinds, faces)
    best = own.argmin(axis=1)
    rows = np.arange(len(faces))
    opp_rest = opp.copy()
    opp_rest[rows, best] = NO_OPP
    return [
        Faces(int(t), int(m), int(o), int(q), n)
        for t, m, o, q in zip(total, maxes, own[rows, best], opp_rest.min(axis=1), strict=True)
    ]


def _trial(atk: Attack, sol) -> callable:  # type: ignore[no-untyped-def, valid-type]
    spec = atk.spec
    memo: dict = {}

    def step(s, x):  # type: ignore[no-untyped-def]
        key = (s, x)
        nxt = memo.get(key)
        if nxt is None:
            nxt = memo[key] = s.apply(x)
        return nxt

    outcome = lru_cache(maxsize=None)(atk.outcome)

    def trial(sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        rng = sampler.rng
        ka, fa = roll_pool(rng, spec.att.pool, size)
        kd, fd = roll_pool(rng, spec.dfd.pool, size)
        A, D = faces_of(ka, fa), faces_of(kd, fd)
        spare = {  # the re-rolled dice, rolled ahead: one per kind and re-roll phase
            (phase, k): DICE[k].sample(rng, size).tolist() for phase in (P_ARR_ROLL, P_DRR_ROLL) for k in DICE
        }
        ff_a = rng.integers(0, 6, size)
        ff_d = rng.integers(0, 6, size)
        out = defaultdict(lambda: np.zeros(size, np.int64))
        start = root(spec)
        parry = sol.policy[start] if start.phase == P_PARRY else start.parry
        first = replace(start, phase=P_ROLL, parry=parry)
        for t in range(size):
            s = step(first, (A[t], D[t]))
            while s.phase != P_END:
                if s.phase in (P_ARR_ROLL, P_DRR_ROLL):
                    act = REROLLS[s.arr if s.phase == P_ARR_ROLL else s.drr]
                    mine, theirs = (s.a, s.d) if s.phase == P_ARR_ROLL else (s.d, s.a)
                    kind = OWN_CHAIN[mine.own][0] if act == "own" else opp_target(theirs)[0]
                    s = step(s, spare[(s.phase, kind)][t])  # the re-rolled die, rolled
                else:
                    s = step(s, sol.policy[s])
            pull = atk.options(s.a.total, s.d.total, s.parry)
            if spec.dfd.pool.n:
                ds, as_, dmg, admg, tie = outcome(
                    s.a.total, s.d.total, s.parry, pull, _ff(atk.ff_att, ff_a[t]), _ff(atk.ff_def, ff_d[t])
                )
            else:
                ds, dmg, tie = outcome(s.a.total, _ff(atk.ff_def, ff_d[t]))
                as_, admg = atk.att.start, 0
            big = int(ds[0] == KILLED and dmg >= 2)
            d_fail = int(s.d.failed) if s.d.n else 0
            row = (ds[0], ds[1], as_[0], as_[1], dmg, admg, int(s.a.failed), d_fail,
                   int(s.parry > 0), s.arr, s.drr, int(pull != 99), int(tie), big)  # fmt: skip
            for name, val in zip(NAMES, row, strict=True):
                out[name][t] = val
        return dict(out)

    return trial


def _ff(law: tuple[tuple[int, float], ...], index: int) -> int:
    """The force field's red die (IX +F) from a uniform face index, or 0 without a field."""
    return int(DICE["R"].faces[index]) if len(law) > 1 else 0


def simulated_result(atk: Attack, options: RunOptions, title: str = "") -> Result:
    sol = solve(atk.spec)  # the policy both sides play
    tally = options.run(_trial(atk, sol))
    lay = atk.spec.layout
    v = np.zeros(lay.size)
    for name in NAMES:
        c = tally.counts.get(name)
        if c is None:
            continue
        s = lay.slices[name]
        width = s.stop - s.start
        freq = np.zeros(width)
        freq[: min(width, c.size)] = c[:width] / tally.trials
        v[s] = freq
    return build_result(atk, v, "simulated", title, {}, trials=tally.trials, seed=options.seed)
