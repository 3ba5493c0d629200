"""Benchmark: the exact 40k engine against its peers, in one process, fairly timed.

README case: 120 attacks, BS 3+, S5 vs T4, AP-1 vs Sv 3+, D3 damage,
into 20 models of W3 with Feel No Pain 5+, damage allocated model by model (excess lost); the
answer is the law of models destroyed. Peers, each imported and warmed outside the timed region
and given the same runs (median after a warm-up, ``benchmarks/harness.py``):

* icepool, the straightforward formulation: one attack's effective damage as a die, folded over
  the unit's (models destroyed, wounds left) state 120 times with ``icepool.map(..., repeat=120)``;
* ``warhammer-stats`` (exact, pure Python, the 9th edition sequence, which is the same dice here).

Both answers are checked against grimdice's before their ratios are printed.

Second scenario: 200 attacks with Devastating Wounds, BS 3+, S4 AP-1,
into 10 models of W2 with mixed saves (Sv 3+ and 4+ with Feel No Pain 5+). grimdice folds the held
Devastating Wounds tokens (a second chain counts their failed saves; the held count is at most
wounds + 1 cells) and sums per attack; the peer is the former scheme, run on the same chain in this
process: the group's two-dimensional (normal, devastating) token law by convolution, and a held axis
of every possible Devastating Wounds count carried through the failed-saves chain.

Run: ``python benchmarks/bench_wh40k.py [--runs N]`` (``--smoke``: grimdice alone, once each).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grimdice.engine.allocation import operators
from grimdice.io.scenario import load_scenario
from grimdice.systems import calculate
from harness import Case, close, machine, run_cases

SCENARIO = Path(__file__).resolve().parent.parent / "examples" / "bench-120-bolters-vs-20-w3.yaml"

_DATA = load_scenario(SCENARIO)


def grimdice_exact():
    return calculate(_DATA)


def readme_case() -> Case:
    """The README case with its peers (those installed: the ``bench`` extra)."""
    W, MODELS, ATTACKS = 3, 20, 120

    def ours() -> list[float]:
        # cold: no token operator shared from an earlier run (a user's calculation with new numbers);
        # the peers keep nothing between runs either
        operators._SHARED.clear()
        return calculate(_DATA)["models_destroyed"].pmf_from_zero()

    peers: dict[str, Any] = {}
    try:
        import icepool

        def icepool_fold() -> list[float]:
            """The straightforward icepool formulation: one attack's effective damage as a die,
            folded over the unit's (models destroyed, wounds left) state 120 times."""
            hit_wound_unsaved = (icepool.d6 >= 3) & (icepool.d6 >= 3) & (icepool.d6 <= 3)
            damage = icepool.d3.map(lambda d: d @ (icepool.d6 <= 4))  # each point: FNP 5+
            per_attack = hit_wound_unsaved.if_else(damage, icepool.Die([0]))

            def step(state: tuple[int, int], e: int) -> tuple[int, int]:
                killed, left = state
                if killed == MODELS:
                    return state
                left -= min(left, int(e))
                return (killed + 1, W) if left == 0 else (killed, left)

            final = icepool.map(step, icepool.Die([(0, W)]), per_attack, repeat=ATTACKS)
            killed = final.marginals[0]
            den = killed.denominator()
            return [killed.quantity(k) / den for k in range(MODELS + 1)]

        peers["icepool"] = icepool_fold
    except ImportError:
        pass
    try:
        from warhammer_stats import Attack, PMFCollection, Target, Weapon

        def warhammer_stats() -> list[float]:
            """warhammer-stats (exact, 9th edition sequence; same dice here): kills against an
            unbounded unit, so P(20 or more) is read off its tail."""
            weapon = Weapon(
                bs=3, shots=PMFCollection.static(ATTACKS), strength=5, ap=1, damage=PMFCollection.mdn(1, 3)
            )
            target = Target(toughness=4, save=3, invuln=7, fnp=5, wounds=W)
            values = list(Attack(weapon, target).kills_dist.values)
            head = values[:MODELS] + [0.0] * max(0, MODELS - len(values))
            return [*head, max(0.0, 1.0 - sum(head))]

        peers["warhammer-stats"] = warhammer_stats
    except ImportError:
        pass
    return Case(
        "wh40k 120 attacks vs 20xW3 FNP5+",
        ours,
        peers,
        agree=lambda a, b: close(a, b, atol=1e-4),  # warhammer-stats trims mass below 1e-5
        target_ms=2.0,
    )


DEV = {
    "system": "wh40k",
    "attacker": {
        "models": [
            {
                "count": 10,
                "weapons": [{"A": 20, "BS": 3, "S": 4, "AP": -1, "abilities": ["devastating wounds"]}],
            }
        ]
    },
    "defender": {
        "models": [
            {"name": "a", "count": 5, "T": 4, "Sv": 3, "W": 2},
            {"name": "b", "count": 5, "T": 4, "Sv": 4, "W": 2, "FNP": 5},
        ]
    },
}


def grimdice_devastating():
    return calculate(DEV)


def former_devastating() -> np.ndarray:
    """Models destroyed by the former scheme (2-D token law, full held axis with failed saves)."""
    from grimdice.io.scenario import validate
    from grimdice.systems.wh40k.allocation import DEVASTATING, NORMAL, Allocation
    from grimdice.systems.wh40k.profiles import Scenario
    from grimdice.systems.wh40k.sequence import attacks, per_attack
    from grimdice.systems.wh40k.units import resolve_groups, resolve_target

    sc = validate(Scenario, DEV)
    target = resolve_target(sc)
    (g,) = resolve_groups(sc, target)
    tokens = per_attack(g)[1].sum_of(attacks(g))  # the 2-D law by convolution
    alloc = Allocation(target, [g], True, tokens.total().max)
    chain = alloc.chain
    P, joint = chain.state, tokens.table  # joint[normal, devastating]: hold every count (Horner)
    R = joint[-1][:, None, None] * P[None]
    for n in range(joint.shape[0] - 2, -1, -1):
        R = chain.apply(R, (NORMAL, 0)) + joint[n][:, None, None] * P[None]
    chain.state, chain.held = R, 1
    chain.release((DEVASTATING, 0))
    grid = chain.grid()
    kb = alloc.bodyguard.destroyed()
    return np.bincount(kb, weights=grid.sum(axis=1))


def devastating_case() -> Case:
    """Devastating Wounds, 200 attacks (peer: the former scheme on the same chain; one run: slow)."""

    def dev() -> list[float]:
        return grimdice_devastating()["models_destroyed"].pmf_from_zero()

    return Case(
        "wh40k Devastating Wounds, 200 attacks vs 10xW2",
        dev,
        {"former held-axis scheme": former_devastating},
        agree=lambda a, b: close(a, b, atol=1e-12),
        max_runs=1,  # the former scheme takes seconds
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--smoke", action="store_true", help="grimdice only, one run per case")
    args = ap.parse_args(argv)
    runs = 1 if args.smoke else args.runs
    print(f"machine: {machine()}; statistic: median of {runs} runs after a warm-up")
    rows = run_cases([readme_case(), devastating_case()], runs, peers=not args.smoke)
    return 0 if all(v for r in rows for k, v in r.items() if k.endswith("_agrees")) else 1


if __name__ == "__main__":
    sys.exit(main())
