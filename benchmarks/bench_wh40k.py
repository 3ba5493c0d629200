"""Benchmark: the exact 40k engine against a naive icepool formulation, in one process.

Scenario (the foundation issue's): 120 attacks, BS 3+, S5 vs T4, AP-1 vs Sv 3+, D3 damage,
into 20 models of W3 with Feel No Pain 5+, damage allocated model by model (excess lost).

The naive icepool formulation: the number of unsaved wounds is a binomial-like icepool Die;
the models-destroyed law is computed by icepool's ``map`` over the per-wound damage, carrying
the (models destroyed, wounds left on the current model) state wound by wound. Both give the
same distribution, which the script checks before printing timings.

Second scenario (the hostile-input issue's): 200 attacks with Devastating Wounds, BS 3+, S4 AP-1,
into 10 models of W2 with mixed saves (Sv 3+ and 4+ with Feel No Pain 5+). grimdice folds the held
Devastating Wounds tokens (a second chain counts their failed saves; the held count is at most
wounds + 1 cells) and sums per attack; the peer is the former scheme, run on the same chain in this
process: the group's two-dimensional (normal, devastating) token law by convolution, and a held axis
of every possible Devastating Wounds count carried through the failed-saves chain.

Run: ``python benchmarks/bench_wh40k.py`` (``--smoke`` for a quick CI check).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from grimdice.io.scenario import load_scenario
from grimdice.systems import calculate

SCENARIO = Path(__file__).resolve().parent.parent / "examples" / "bench-120-bolters-vs-20-w3.yaml"


_DATA = load_scenario(SCENARIO)


def grimdice_exact():
    return calculate(_DATA)


def icepool_naive():
    """Models destroyed with icepool, state by state (the straightforward oracle formulation)."""
    import icepool

    p_hit = icepool.d6 >= 3  # BS 3+
    p_wound = icepool.d6 >= 3  # S5 vs T4: 3+
    p_unsaved = icepool.d6 <= 3  # Sv 3+ with AP-1: 4+ to save
    # effective damage of one unsaved wound: D3, each point ignored on a 5+
    eff = icepool.d3.map(lambda d: d @ (icepool.d6 <= 4))
    per_attack = p_hit & p_wound & p_unsaved
    n_unsaved = 120 @ per_attack

    W, MODELS = 3, 20

    def step(state, e):
        killed, left = state
        if killed == MODELS:
            return state
        lost = min(left, e)
        left -= lost
        if left == 0:
            return (killed + 1, W)
        return (killed, left)

    # distribution of state after k unsaved wounds, for each k
    states = {0: icepool.Die([(0, W)])}
    for k in range(1, n_unsaved.max_outcome() + 1):
        states[k] = icepool.map(step, states[k - 1], eff)
    return n_unsaved, states


def killed_from_icepool(n_unsaved, states) -> np.ndarray:
    total = n_unsaved.denominator()
    pmf = np.zeros(21)
    for k, qk in n_unsaved.items():
        die = states[k]
        dt = die.denominator()
        for (killed, _left), q in die.items():
            pmf[killed] += (qk / total) * (q / dt)
    return pmf


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


def timed(f, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="quick run: grimdice only, no icepool")
    args = ap.parse_args(argv)

    result = grimdice_exact()
    ours = np.array(result["models_destroyed"].pmf_from_zero())
    t_ours = timed(grimdice_exact, 3 if args.smoke else 20)
    mean = result["models_destroyed"].mean()
    print(f"grimdice exact: {t_ours * 1e3:.2f} ms  (mean models destroyed {mean:.4f})")
    if args.smoke:
        return 0
    t0 = time.perf_counter()
    n_unsaved, states = icepool_naive()
    theirs = killed_from_icepool(n_unsaved, states)
    t_ice = time.perf_counter() - t0
    ours = np.pad(ours, (0, max(0, theirs.size - ours.size)))[: theirs.size]
    agree = np.allclose(ours, theirs, atol=1e-9)
    print(f"icepool naive:  {t_ice * 1e3:.1f} ms")
    print(f"ratio (icepool / grimdice): {t_ice / t_ours:.0f}x; distributions agree: {agree}")

    dev = np.array(grimdice_devastating()["models_destroyed"].pmf_from_zero())
    t_dev = timed(grimdice_devastating, 3)
    t0 = time.perf_counter()
    former = former_devastating()
    t_former = time.perf_counter() - t0
    n = max(dev.size, former.size)
    agree_dev = np.allclose(np.pad(dev, (0, n - dev.size)), np.pad(former, (0, n - former.size)), atol=1e-12)
    print(
        f"Devastating Wounds, 200 attacks: grimdice {t_dev * 1e3:.1f} ms, "
        f"former scheme {t_former * 1e3:.0f} ms"
    )
    print(f"ratio (former / grimdice): {t_former / t_dev:.0f}x; distributions agree: {agree_dev}")
    return 0 if agree and agree_dev else 1


if __name__ == "__main__":
    sys.exit(main())
