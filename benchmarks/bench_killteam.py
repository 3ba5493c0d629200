"""Benchmark: the Kill Team (2021) engines on the reviewers' three workloads, in one process.

* fight 8v8: both sides 8 attack dice, the attacker Balanced + Ceaseless (optimal re-rolls,
  strike/parry for both sides, solved exactly);
* fight 6v6: both sides Relentless (any subset of the dice re-rolled);
* shooting 12 x 8: eight operatives each shoot 12 attack dice (Balanced, Lethal 5+, P1) at one
  target, with optimal re-rolls, saves, cover and allocation by backward induction.

Each is timed exactly and by Monte Carlo (``run_trials``, one worker). The scenarios go through the
public ``calculate`` entry point only, so the same script measured the engines before and after the
move onto the shared engine layer (figures in docs/killteam.md). Each run is warmed once outside the
timed region; the figure is the best of ``--repeat`` runs.

Run: ``python benchmarks/bench_killteam.py`` (``--smoke`` for a quick CI check with tiny sizes).
``--peer REV`` also times the Kill Team package of git revision ``REV`` (e.g. the commit before the
move onto the engine layer, ``5f81ef3``) in the same process, interleaved run by run with the
current one, and prints the ratio current/peer (the shared core is the current one for both).
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from grimdice.systems.killteam import calculate


def _melee(name: str, attacks: int, rules: list[str], wounds: int) -> dict[str, Any]:
    weapon = {"name": "blade", "A": attacks, "WS": 3, "D": "3/4", "rules": rules, "critical": ["Rending"]}
    return {"name": name, "W": wounds, "weapons": [weapon]}


def fight(attacks: int, att_rules: list[str], def_rules: list[str]) -> dict[str, Any]:
    return {
        "system": "killteam",
        "action": "fight",
        "attacker": _melee("attacker", attacks, att_rules, 14),
        "target": _melee("defender", attacks, def_rules, 14),
    }


def shooting(dice: int, shots: int) -> dict[str, Any]:
    gun = {
        "name": "gun",
        "A": dice,
        "BS": 3,
        "D": "3/4",
        "rules": ["Balanced", "Lethal 5+"],
        "critical": ["P1"],
    }
    return {
        "system": "killteam",
        "attackers": [{"name": f"shooter{i}", "W": 8, "weapons": [gun]} for i in range(shots)],
        "target": {"name": "target", "DF": 3, "SV": 3, "W": 40, "cover": True},
    }


PACKAGE = "src/grimdice/systems/killteam"


def peer_calculate(rev: str) -> Callable[..., Any]:
    """``calculate`` of the Kill Team package at git revision ``rev``, imported as ``kt_peer``."""
    root = Path(__file__).resolve().parent.parent
    data = subprocess.run(["git", "archive", rev, PACKAGE], cwd=root, capture_output=True, check=True).stdout
    tmp = Path(tempfile.mkdtemp(prefix="kt_peer_"))
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(tmp, filter="data")
    pkg = tmp / "kt_peer"
    (tmp / PACKAGE).rename(pkg)
    for f in pkg.rglob("*.py"):
        f.write_text(
            re.sub(r"grimdice\.systems\.killteam", "kt_peer", f.read_text(encoding="utf-8")), encoding="utf-8"
        )
    sys.path.insert(0, str(tmp))
    import kt_peer  # type: ignore[import-not-found]

    from grimdice.engine.options import RunOptions

    def calculate_peer(sc: dict[str, Any], **kw: Any) -> Any:
        return kt_peer.evaluate(kt_peer.Scenario.model_validate(sc), RunOptions(**kw))

    return calculate_peer


def interleaved(fn: Callable[[], object], peer: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best times of ``fn`` and ``peer``, run alternately (both warmed once, outside the timing)."""
    fn()
    peer()
    mine, theirs = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        peer()
        theirs.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        fn()
        mine.append(time.perf_counter() - t0)
    return min(mine), min(theirs)


def best_of(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm-up, outside the timed region
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, one run (CI)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--trials", type=int, default=100_000)
    ap.add_argument("--peer", metavar="REV", help="also time the Kill Team package of this git revision")
    args = ap.parse_args()
    if args.smoke:
        cases = {
            "fight 2v2 Balanced+Ceaseless": fight(2, ["Balanced", "Ceaseless"], []),
            "fight 2v2 Relentless": fight(2, ["Relentless"], ["Relentless"]),
            "shooting 3 dice x 2 shots": shooting(3, 2),
        }
        repeat, trials = 1, 1000
    else:
        cases = {
            "fight 8v8 Balanced+Ceaseless": fight(8, ["Balanced", "Ceaseless"], []),
            "fight 6v6 Relentless": fight(6, ["Relentless"], ["Relentless"]),
            "shooting 12 dice x 8 shots": shooting(12, 8),
        }
        repeat, trials = args.repeat, args.trials
    if args.peer:
        peer = peer_calculate(args.peer)
        print(f"{'workload':32} {'run':>10} {'current s':>10} {'peer s':>10} {'ratio':>7}")
        for name, sc in cases.items():
            for run, kw in (("exact", {}), (f"MC {trials}", {"simulate": trials, "seed": 1, "workers": 1})):
                mine, theirs = interleaved(
                    lambda sc=sc, kw=kw: calculate(sc, **kw), lambda sc=sc, kw=kw: peer(sc, **kw), repeat
                )
                print(f"{name:32} {run:>10} {mine:10.3f} {theirs:10.3f} {mine / theirs:7.2f}", flush=True)
        return
    print(f"{'workload':32} {'exact s':>10} {f'MC {trials} s':>14}")
    for name, sc in cases.items():
        exact = best_of(lambda sc=sc: calculate(sc), repeat)
        mc = best_of(lambda sc=sc: calculate(sc, simulate=trials, seed=1, workers=1), repeat)
        print(f"{name:32} {exact:10.3f} {mc:14.3f}", flush=True)


if __name__ == "__main__":
    main()
