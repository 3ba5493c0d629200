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
    """The README case and its peers (``benchmarks/bench_wh40k.py``)."""
    import bench_wh40k

    return bench_wh40k.readme_case()


def wh40k_cases(smoke: bool) -> list[Case]:
    """Devastating Wounds (peer: the former scheme on the same chain), the large-unit allocation
    chain, and the Monte Carlo engine on the README case (dice rolled per second in the name)."""
    import bench_allocation
    import bench_wh40k

    readme = load_scenario(EXAMPLES / "bench-120-bolters-vs-20-w3.yaml")

    trials = 5_000 if smoke else MC_TRIALS

    def simulated() -> float:
        return calculate(readme, simulate=trials, seed=1, workers=1)["models_destroyed"].mean()

    return [
        bench_wh40k.devastating_case(),
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
    """The Kill Team solvers (no peer expresses their optimal re-roll and strike/parry choices)."""
    from bench_killteam import fight, shooting

    dice, shots = (3, 2) if smoke else (12, 8)
    sizes = (2, 2) if smoke else (8, 6)
    scenarios = {
        f"killteam fight {sizes[0]}v{sizes[0]} Balanced+Ceaseless": (
            fight(sizes[0], ["Balanced", "Ceaseless"], []),
            1000,
        ),
        f"killteam fight {sizes[1]}v{sizes[1]} Relentless": (
            fight(sizes[1], ["Relentless"], ["Relentless"]),
            5000,
        ),
        f"killteam shooting {dice} dice x {shots} shots": (shooting(dice, shots), 1000),
    }
    return [
        Case(name, lambda sc=sc: calculate(sc).to_json(), target_ms=target, max_runs=1)
        for name, (sc, target) in scenarios.items()
    ]


def onepage_cases() -> list[Case]:
    import bench_onepage

    def models_left_ice() -> list[float]:
        die = bench_onepage.icepool_shooting()
        den = die.denominator()
        return [die.quantity(k) / den for k in range(die.max_outcome() + 1)]

    def shoot() -> list[float]:
        return calculate(bench_onepage.SHOOT)["models_left"].pmf_from_zero()

    def melee_ice() -> list[float]:
        die = bench_onepage.icepool_melee()
        den = die.denominator()
        return [sum(q for (x, _), q in die.items() if x == w) / den for w in (0, 1, 2)]

    def melee() -> list[float]:
        return calculate(bench_onepage.MELEE)["winner"].pmf_from_zero()

    peers = _with_icepool
    return [
        Case("onepage shooting, 20 models vs 10 + Tough(3) hero", shoot, peers(models_left_ice), agree=close),
        Case("onepage melee, Tough(3) heroes, morale", melee, peers(melee_ice), agree=close),
    ]


def crusade_cases() -> list[Case]:
    import bench_crusade

    def ours() -> list[float]:
        res = bench_crusade.grimdice_exact()
        return [res.extra["end_state"]["killed"], res.extra["fail_effects"]["p_fail"]]

    def ice() -> list[float]:
        return list(bench_crusade.icepool_naive())

    return [
        Case(
            "crusade combined fire, 6 weapons (13 dice) with fails",
            ours,
            _with_icepool(ice),
            agree=lambda a, b: close(a, b, atol=1e-12),
            target_ms=20.0,
        )
    ]


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
