"""Every system's heavy cases in one table, with the peers that can express them, fairly timed.

Peers are imported and warmed outside the timed region; grimdice and each peer get the same number
of runs and are compared by their medians (``benchmarks/harness.py``). Ratios are peer / grimdice
(higher is better for grimdice); every peer's answer is checked against grimdice's before its
time is printed. ``--smoke`` times grimdice alone, once per case (the CI check that they run).

Run: ``python benchmarks/run.py [--runs N] [--smoke] [--json FILE]`` (extra: ``bench``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grimdice.io.scenario import load_scenario
from grimdice.systems import calculate
from harness import Case, close, machine, run_cases

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def wh40k_readme_case() -> Case:
    """The README case: 120 attacks (BS 3+, S5 vs T4, AP-1 vs Sv 3+, D3) into 20 models of W3 with
    Feel No Pain 5+, damage allocated model by model; answer: the law of models destroyed."""
    data = load_scenario(EXAMPLES / "bench-120-bolters-vs-20-w3.yaml")
    W, MODELS, ATTACKS = 3, 20, 120

    def ours() -> list[float]:
        return calculate(data)["models_destroyed"].pmf_from_zero()

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


def wh40k_cases(smoke: bool) -> list[Case]:
    """Devastating Wounds (peer: the former scheme on the same chain), the large-unit allocation
    chain, and the Monte Carlo engine on the README case (dice rolled per second in the name)."""
    import bench_allocation
    import bench_wh40k

    def dev() -> list[float]:
        return bench_wh40k.grimdice_devastating()["models_destroyed"].pmf_from_zero()

    readme = load_scenario(EXAMPLES / "bench-120-bolters-vs-20-w3.yaml")

    trials = 5_000 if smoke else MC_TRIALS

    def simulated() -> float:
        return calculate(readme, simulate=trials, seed=1, workers=1)["models_destroyed"].mean()

    return [
        Case(
            "wh40k Devastating Wounds, 200 attacks vs 10xW2",
            dev,
            {"former held-axis scheme": bench_wh40k.former_devastating},
            agree=lambda a, b: close(a, b, atol=1e-12),
            max_runs=1,  # the former scheme takes seconds
        ),
        *bench_allocation.cases(),
        Case(f"wh40k Monte Carlo README case, {trials} trials, 1 worker", simulated, max_runs=3),
    ]


def heresy_cases() -> list[Case]:
    out = []
    for name in ("heresy-tactical-vs-auxilia", "heresy-melee-fight"):
        data = load_scenario(EXAMPLES / f"{name}.yaml")
        out.append(Case(f"heresy {name} (exact)", lambda data=data: calculate(data)))
    return out


def killteam_cases(smoke: bool) -> list[Case]:
    """The Kill Team solvers (no peer expresses their optimal re-roll and strike/parry choices;
    ``benchmarks/bench_killteam.py --peer REV`` compares them with a former revision)."""
    import bench_killteam

    return bench_killteam.cases(smoke)


def onepage_cases() -> list[Case]:
    """``benchmarks/bench_onepage.py``'s cases (icepool peers when icepool is installed)."""
    import dataclasses

    import bench_onepage

    has_icepool = bool(_with_icepool(None))
    return [c if has_icepool else dataclasses.replace(c, peers={}) for c in bench_onepage.cases()]


def crusade_cases() -> list[Case]:
    """``benchmarks/bench_crusade.py``'s combined fire (icepool peer when icepool is installed)."""
    import dataclasses

    import bench_crusade

    case = bench_crusade.combined_fire_case()
    return [case if _with_icepool(None) else dataclasses.replace(case, peers={})]


def _with_icepool(peer: Any) -> dict[str, Any]:
    try:
        import icepool  # noqa: F401
    except ImportError:
        return {}
    return {"icepool": peer}


MC_TRIALS = 100_000


def cases(smoke: bool = False) -> list[Case]:
    """Every system's heavy cases, the README case first."""
    return [
        wh40k_readme_case(),
        *wh40k_cases(smoke),
        *heresy_cases(),
        *killteam_cases(smoke),
        *onepage_cases(),
        *crusade_cases(),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--smoke", action="store_true", help="grimdice only, one run per case")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON")
    args = ap.parse_args(argv)
    print(f"machine: {machine()}; statistic: median of {1 if args.smoke else args.runs} runs after a warm-up")
    rows = run_cases(cases(args.smoke), 1 if args.smoke else args.runs, peers=not args.smoke)
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=1))
    bad = [r["case"] for r in rows if any(k.endswith("_agrees") and not v for k, v in r.items())]
    if bad:
        print(f"peers disagree on: {', '.join(bad)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
