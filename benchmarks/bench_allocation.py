"""Benchmark: the exact 40k wound-allocation chain on large units.

Cases: 20 models of W50 (1001 unit states) against 60 attacks of D6+2 damage, and 200 models of
W10 (2001 unit states) against 2000 attacks of D2 damage; the answer is the law of models
destroyed. The chain moves a state by at most a token's damage (plus the model-boundary resets),
so one token costs O(states x damage), not a dense product over states. Every run is timed cold,
as ``bench_wh40k`` times the README case: the shared token-operator cache
(``grimdice.engine.allocation.operators._SHARED``) is cleared before each run (a user's calculation with new
numbers).

Run: ``python benchmarks/bench_allocation.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grimdice.engine.allocation import operators
from grimdice.systems import calculate
from harness import Case, machine, run_cases


def scenario(models: int, wounds: int, attacks: int, damage: str, save: int = 4) -> dict[str, Any]:
    return {
        "system": "wh40k",
        "attacker": {
            "models": [
                {"count": attacks // 10, "weapons": [{"A": 10, "BS": 3, "S": 6, "AP": -1, "D": damage}]},
            ]
        },
        "defender": {"models": [{"count": models, "T": 5, "Sv": save, "W": wounds}]},
    }


def case(name: str, data: dict[str, Any], target_ms: float) -> Case:
    def ours() -> list[float]:
        operators._SHARED.clear()  # cold, as bench_wh40k: no token operator from an earlier run
        return calculate(data)["models_destroyed"].pmf_from_zero()

    return Case(name, ours, target_ms=target_ms)


def cases() -> list[Case]:
    return [
        case("wh40k allocation 20xW50, 60 attacks D6+2", scenario(20, 50, 60, "D6+2"), 20.0),
        case("wh40k allocation 200xW10, 2000 attacks D2", scenario(200, 10, 2000, "D2"), 200.0),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    print(
        f"machine: {machine()}; statistic: median of {args.runs} runs after a warm-up, "
        "token-operator cache cleared before each run"
    )
    run_cases(cases(), args.runs, peers=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
