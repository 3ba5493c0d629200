"""Benchmark: an exact Rules Crusade combined fire of 6 weapons with fails, against a naive icepool
formulation of the same law, in one process (target: under 20 ms per exact run).

Scenario: six weapons (2W+1R, 2W+1R, 1W+1R, 2W, 1R+1, 1W+1R) fired together at 14" (-1) at a
3-hit target with armour 1 in front cover (+1); fails on two or more maxima, the failing weapon
drawn among the six. The naive icepool formulation builds each die as an icepool Die of
(face, is maximum) pairs, sums the pool outcome by outcome and maps the totals to the target's
end state; both must agree before the timings are printed.

Second benchmark: the melee Monte Carlo (both sides re-rolling, parry, force fields), the
vectorised trials of ``simulate._trial`` (the solved policy looked up per distinct state) against a
trial-by-trial walk of the same policy (written below as the peer), same rolls' law, same number of
trials, the solution computed once outside the timed region; both must agree in mean damage.

Both are timed by :mod:`harness` (each callable warmed once outside the timed region, medians of
the same number of runs, peer / grimdice ratios). Run: ``python benchmarks/bench_crusade.py``
(``--smoke`` for a quick CI check). The machine may be shared: quote the ratios, not the times.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grimdice.dice.sampler import Sampler
from grimdice.engine.heap import keep_arrays_on_heap
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.contest.states import _rolls
from grimdice.systems.crusade.rolls import pool_law
from harness import Case, close, machine, run_cases

WEAPONS = ["2W+1R", "2W+1R", "1W+1R", "2W", "1R+1", "1W+1R"]
SCENARIO = {
    "system": "crusade",
    "action": "shoot",
    "range": 14,
    "cover": "front",
    "attacker": {
        "armour": 2,
        "weapons": [{"name": f"w{i}", "dice": d, "effects": ["J", "S"]} for i, d in enumerate(WEAPONS)],
    },
    "defender": {"armour": 1, "hits": 3},
}
WHITE, RED, PLUS, MODIFIER, ARMOUR, HITS = 8, 5, 1, -1, 2, 3


def grimdice_exact():
    pool_law.cache_clear()  # no help from earlier runs
    _rolls.cache_clear()
    return calculate(SCENARIO)


def icepool_naive():
    """P(killed) and P(fail) with icepool: dice as (face, maximum) pairs summed one by one."""
    import icepool

    def die(faces, top):
        return icepool.Die([(f, int(f == top)) for f in faces])

    w, r = die([0, 0, 0, 0, 1, 2], 2), die([0, 0, 0, 1, 2, 3], 3)
    acc = icepool.Die([(0, 0)])
    for d in [w] * WHITE + [r] * RED:
        acc = icepool.map(lambda a, b: (a[0] + b[0], min(2, a[1] + b[1])), acc, d)
    total = acc.denominator()
    killed = sum(q for (t, m), q in acc.items() if t + PLUS + MODIFIER - ARMOUR > HITS) / total
    failed = sum(q for (t, m), q in acc.items() if m >= 2) / total
    return killed, failed


MELEE = {
    "system": "crusade",
    "action": "melee",
    "knockback_into": "obstacle",
    "attacker": {
        "melee": "1W+1R",
        "abilities": ["RO", "+F"],
        "weapons": [{"name": "sword", "dice": "1R", "kind": "melee", "effects": ["W", "KB"]}],
    },
    "defender": {
        "melee": "1W+1R",
        "hits": 2,
        "abilities": ["+F", "R"],
        "weapons": [{"name": "axe", "dice": "1W", "kind": "melee", "effects": ["S"]}],
    },
}


def walk_trials(atk, sol, sampler, size):
    """The peer: each trial walks the compiled game state by state, looking the policy up as it goes."""
    from grimdice.systems.crusade.contest import P_ARR_ROLL, P_DRR_ROLL, P_END, P_PARRY
    from grimdice.systems.crusade.rolls import DICE, roll_into_law

    spec, game = atk.spec, sol.game
    A = roll_into_law(sampler, spec.att.pool, size, game.track)  # the dice counted as in the trials
    D = roll_into_law(sampler, spec.dfd.pool, size, game.track)
    spare = {(ph, k): sampler.roll(size, DICE[k]) for ph in (P_ARR_ROLL, P_DRR_ROLL) for k in DICE}
    ffa, ffd = sampler.roll(size, DICE["R"]), sampler.roll(size, DICE["R"])
    parry = sol.policy[sol.root] if sol.root[0] == P_PARRY else sol.root[1]
    damage = 0
    for t in range(size):
        s = game.rolled(parry, int(A[t]), int(D[t]))
        while s[0] != P_END:
            if game.player(s) < 0:  # a re-rolled die
                s = game.rerolled(s, int(spare[(s[0], game.reroll_kind(s))][t]))
            else:
                s = game.child(s, sol.policy[s])
        a, d = game.faces[0][s[2]], game.faces[1][s[3]]
        pull = atk.options(a.total, d.total, s[1])
        damage += atk.outcome(a.total, d.total, s[1], pull, int(ffa[t]), int(ffd[t]))[2]
    return damage / size


def melee_case(trials: int) -> Case:
    """The vectorised melee Monte Carlo against the trial-by-trial walk, same number of trials,
    the solution computed once outside the timed region; both agree with the exact mean damage."""

    from grimdice.engine.montecarlo import Tally
    from grimdice.systems.crusade.attack import build
    from grimdice.systems.crusade.contest import solve
    from grimdice.systems.crusade.profiles import Scenario
    from grimdice.systems.crusade.simulate import Play

    atk = build(Scenario.model_validate(MELEE))
    sol = solve(atk.spec)  # outside the timed region
    play = Play(atk, sol)  # compiled outside the timed region

    def ours() -> float:
        tally = Tally()
        tally.add(play(Sampler(2), trials), trials)
        damage = play.counts(tally)["damage"]
        return float(damage @ np.arange(damage.size) / trials)

    exact = calculate(MELEE)["damage"]
    se = exact.std() / trials**0.5

    def agree(a: float, b: float) -> bool:
        return abs(a - exact.mean()) <= 5 * se and abs(b - exact.mean()) <= 5 * se

    return Case(
        f"crusade melee Monte Carlo, {trials} trials (re-rolls both sides)",
        ours,
        {"trial-by-trial walk": lambda: walk_trials(atk, sol, Sampler(2), trials)},
        agree=agree,
    )


def combined_fire_case() -> Case:
    """The exact combined fire against the naive icepool formulation (P(killed), P(fail))."""

    def ours() -> list[float]:
        res = grimdice_exact()
        return [res.extra["end_state"]["killed"], res.extra["fail_effects"]["p_fail"]]

    return Case(
        "crusade combined fire, 6 weapons (13 dice) with fails, exact",
        ours,
        {"icepool": lambda: list(icepool_naive())},
        agree=lambda a, b: close(a, b, atol=1e-12),
        target_ms=20.0,
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--smoke", action="store_true", help="one run each, check agreement only")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    runs = 1 if args.smoke else args.runs
    keep_arrays_on_heap()  # as the grimdice command does at its start (its Monte Carlo rows)
    print(f"machine: {machine()}; statistic: median of {runs} runs after a warm-up (benchmarks/harness.py)")
    cases = [combined_fire_case(), melee_case(2_000 if args.smoke else 20_000)]
    rows = run_cases(cases, runs)
    bad = [r["case"] for r in rows if any(k.endswith("_agrees") and not v for k, v in r.items())]
    fire = rows[0]
    print(f"target < 20 ms: {'ok' if fire['grimdice_ms'] < 20 else 'MISSED'} ({fire['grimdice_ms']} ms)")
    if bad:
        print(f"DISAGREE: {bad}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
