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

from grimdice.engine.heap import keep_arrays_on_heap
from grimdice.io.scenario import load_scenario
from grimdice.systems import calculate
from harness import Case, machine, run_cases

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
    keep_arrays_on_heap()  # as the grimdice command does at its start (its Monte Carlo rows)
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
