"""Benchmark: the Kill Team (2021) exact solvers on their heavy workloads, in one process.

* fight 8v8: both sides 8 attack dice, the attacker Balanced + Ceaseless (optimal re-rolls,
  strike/parry for both sides, solved exactly; target 1 s);
* fight 6v6: both sides Relentless (any subset of the dice re-rolled; target 1 s);
* fight 10v10 W40: 10 attack dice a side, 40 wounds each (target 5 s);
* fight 12v12 Relentless: the most dice a fighter may have, both sides Relentless;
* shooting 12 x 8: eight operatives each shoot 12 attack dice (Balanced, Lethal 5+, P1) at one
  target, with optimal re-rolls, saves, cover and allocation by backward induction (target 1 s);
* one Monte Carlo run (100 000 trials of the 8v8 fight, solving included);
* Monte Carlo throughput (``--mc N``): N seeded trials on one worker of the 8v8 fight above, a
  6v6 fight both Relentless with the attacker Brutal (parry choices), the 12 x 8 shooting above
  (re-rolls, cover, saves; the target is most often incapacitated by the third attack, and no
  dice are rolled for attacks not made) and 8 attacks of 6 dice at D 1/2 into a target with an
  invulnerable save of 4+ (which it survives two times in three), the solving outside the timed region; dice
  per second count every die the rules roll (the sampler's count: first rolls, re-rolls,
  defence dice).

The scenarios go through the public ``calculate`` only. Timing is ``benchmarks/harness.py``
(warm-up outside the timed region, median of the same number of runs). Each row also gives the
time as a multiple of the 40k README case run in the same process (a scale that travels between
machines). ``--peer REV`` also times the Kill Team package of git revision ``REV`` (e.g. the one
before the vectorised solvers, ``c35489b``) on the same cases in the same process and prints the
ratio former / current, after checking that both give the same distributions.

``--solve REV`` times only the fixed cost every fight run pays before its trials (the exact solve
of both sides' policy, its description in the report, the Monte Carlo end tables and trial
function: what ``bench_montecarlo.py`` times with the trials of the fight examples) for the two
fight examples and the fights above, the package of git revision ``REV`` and the current one
alternately in this process on the same fighters (CPU time, medians; nothing of one run is kept
for the next: the solve has no cache across runs).

Run: ``python benchmarks/bench_killteam.py [--runs N] [--peer REV] [--mc N] [--solve REV]``
(``--smoke``: tiny sizes, one run, the CI check; ``--mc N`` times only the Monte Carlo throughput
rows, with ``--peer REV`` also the former package's trial functions on the same trials and seed).
"""

from __future__ import annotations

import argparse
import io
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grimdice.engine.allocation import operators
from grimdice.engine.heap import keep_arrays_on_heap
from grimdice.engine.montecarlo import Tally, TrialFn
from grimdice.engine.options import RunOptions
from grimdice.io.scenario import load_scenario
from grimdice.systems import calculate as calculate_any
from grimdice.systems.killteam import calculate
from harness import Case, close, machine, measure, run_cases

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PACKAGE = "src/grimdice/systems/killteam"
MC_TRIALS = 100_000


def _melee(name: str, attacks: int, rules: list[str], wounds: int) -> dict[str, Any]:
    weapon = {"name": "blade", "A": attacks, "WS": 3, "D": "3/4", "rules": rules, "critical": ["Rending"]}
    return {"name": name, "W": wounds, "weapons": [weapon]}


def fight(attacks: int, att_rules: list[str], def_rules: list[str], wounds: int = 14) -> dict[str, Any]:
    return {
        "system": "killteam",
        "action": "fight",
        "attacker": _melee("attacker", attacks, att_rules, wounds),
        "target": _melee("defender", attacks, def_rules, wounds),
    }


def shooting(dice: int, shots: int, damage: str = "3/4", invulnerable: int | None = None) -> dict[str, Any]:
    gun = {
        "name": "gun",
        "A": dice,
        "BS": 3,
        "D": damage,
        "rules": ["Balanced", "Lethal 5+"],
        "critical": ["P1"],
    }
    target: dict[str, Any] = {"name": "target", "DF": 3, "SV": 3, "W": 40, "cover": True}
    if invulnerable is not None:
        target["invulnerable"] = invulnerable
    return {
        "system": "killteam",
        "attackers": [{"name": f"shooter{i}", "W": 8, "weapons": [gun]} for i in range(shots)],
        "target": target,
    }


def workloads(smoke: bool) -> list[tuple[str, dict[str, Any], float | None, dict[str, Any]]]:
    """(name, scenario, target ms, run options) of every timed case (a name ending in "(the cap)":
    more dice than the former package allowed, no peer)."""
    if smoke:
        return [
            ("killteam fight 2v2 Balanced+Ceaseless", fight(2, ["Balanced", "Ceaseless"], []), None, {}),
            ("killteam fight 2v2 Relentless", fight(2, ["Relentless"], ["Relentless"]), None, {}),
            ("killteam shooting 3 dice x 2 shots", shooting(3, 2), None, {}),
        ]
    mc = {"simulate": MC_TRIALS, "seed": 1, "workers": 1}
    bc = ["Balanced", "Ceaseless"]
    return [
        ("killteam fight 8v8 Balanced+Ceaseless", fight(8, bc, []), 1000.0, {}),
        ("killteam fight 6v6 Relentless", fight(6, ["Relentless"], ["Relentless"]), 1000.0, {}),
        ("killteam fight 10v10 W40", fight(10, [], [], wounds=40), 5000.0, {}),
        ("killteam fight 12v12 Relentless (the cap)", fight(12, ["Relentless"], ["Relentless"]), None, {}),
        ("killteam shooting 12 dice x 8 shots", shooting(12, 8), 1000.0, {}),
        (f"killteam fight 8v8 Monte Carlo {MC_TRIALS} trials", fight(8, bc, []), None, mc),
    ]


def same_distributions(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Every stage (``{"mean", "pmf"}``) of two results' JSON agrees to 1e-9."""
    stages = [k for k, v in a.items() if isinstance(v, dict) and "pmf" in v]
    return bool(stages) and all(k in b and close(a[k]["pmf"], b[k]["pmf"]) for k in stages)


def peer_calculate(rev: str) -> Callable[..., Any]:
    """``calculate`` of the Kill Team package at git revision ``rev``, imported as ``kt_peer``
    (the shared engine layer is the current one for both)."""
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


def cases(smoke: bool = False, peer: str | None = None) -> list[Case]:
    """The timed cases (``benchmarks/run.py`` takes them too); ``peer``: a git revision whose
    Kill Team package is timed on the same cases."""
    former = peer_calculate(peer) if peer else None
    out = []
    for name, sc, target, kw in workloads(smoke):
        peers = {}
        if former is not None and not name.endswith("(the cap)"):
            peers[f"former {peer}"] = lambda sc=sc, kw=kw: former(sc, **kw).to_json()
        out.append(
            Case(
                name,
                lambda sc=sc, kw=kw: calculate(sc, **kw).to_json(),
                peers,
                agree=same_distributions,
                target_ms=target,
                max_runs=1 if former is not None else 3 if target is None else None,
            )
        )
    return out


def mc_workloads(smoke: bool) -> list[tuple[str, dict[str, Any]]]:
    """(name, scenario) of the Monte Carlo throughput rows."""
    if smoke:
        return [("fight 2v2 Balanced+Ceaseless", fight(2, ["Balanced", "Ceaseless"], []))]
    return [
        ("fight 8v8 Balanced+Ceaseless, Rending", fight(8, ["Balanced", "Ceaseless"], [])),
        ("fight 6v6 Relentless+Brutal vs Relentless", fight(6, ["Relentless", "Brutal"], ["Relentless"])),
        ("shooting 12 dice x 8 shots", shooting(12, 8)),
        ("shooting 6 dice x 8 shots, D1/2, invulnerable 4+", shooting(6, 8, "1/2", 4)),
    ]


def trial_of(calc: Callable[..., Any], sc: dict[str, Any]) -> TrialFn:
    """The trial function ``calc`` hands to :meth:`RunOptions.run` for ``sc`` (captured during an
    untimed run of 1 000 trials: solving and table building stay outside the timed region)."""
    seen: list[TrialFn] = []
    original = RunOptions.run

    def run(self: RunOptions, trial: TrialFn) -> Tally:
        seen.append(trial)
        return original(self, trial)

    RunOptions.run = run  # type: ignore[method-assign]
    try:
        calc(sc, simulate=1000, seed=1, workers=1)
    finally:
        RunOptions.run = original  # type: ignore[method-assign]
    return seen[-1]


def mc_rows(trials: int, runs: int, peer: str | None, smoke: bool = False) -> None:
    """Print the Monte Carlo throughput rows: median wall and CPU time of ``runs`` seeded runs of
    ``trials`` trials on one worker (CPU time is the steadier figure on a shared machine), dice per
    second (the sampler's count), and with ``peer`` the former package's trial function on the
    same trials and seed, and the ratio former / current CPU time."""
    former = peer_calculate(peer) if peer else None
    options = RunOptions(simulate=trials, seed=1, workers=1)
    for name, sc in mc_workloads(smoke):
        timings = {"current": trial_of(calculate, sc)}
        if former is not None:
            timings[f"former {peer}"] = trial_of(former, sc)
        line = f"MC {name:44}"
        base = 0.0
        for label, trial in timings.items():
            cpu: list[float] = []

            def run(trial: TrialFn = trial, cpu: list[float] = cpu) -> Tally:
                t0 = time.process_time()
                tally = options.run(trial)
                cpu.append(time.process_time() - t0)
                return tally

            timing, tally = measure(run, runs)
            secs = statistics.median(cpu[1:])  # CPU time of the timed runs (not the warm-up)
            base = base or secs
            line += (
                f"  {label}: {timing.ms:7.0f} ms {tally.dice / timing.median_s / 1e6:5.1f} M dice/s"
                f" (CPU {secs * 1e3:5.0f} ms {tally.dice / secs / 1e6:5.1f} M dice/s)"
            )
            if label != "current":
                line += f" x{secs / base:.1f} CPU"
        print(line, flush=True)


def fight_fixed_cost(package: Any, sc: dict[str, Any]) -> Callable[[], Any]:
    """The fixed cost of one fight run with the Kill Team ``package`` (the current one or a
    ``peer_calculate`` copy): solve, describe the policy, build the end tables and the trial
    function, for the fighters of ``sc`` built by that package."""
    import importlib

    units = importlib.import_module(f"{package.__name__}.units")
    fight_pkg = importlib.import_module(f"{package.__name__}.fight")
    simulate = importlib.import_module(f"{package.__name__}.fight.simulate")
    report = importlib.import_module(f"{package.__name__}.fight.report")
    scenario = package.Scenario.model_validate(sc)
    objectives = scenario.objectives.resolved("fight")
    sides = []
    for op, field, obj in (
        (scenario.attacker, "weapon", objectives[0]),
        (scenario.target, "defender_weapon", objectives[1]),
    ):
        _, weapon = units.melee_weapon(op, getattr(scenario, field), op.name, field)
        sides.append(units.fighter(op, weapon, units.weapon_rules(weapon, field), obj))

    def run() -> Any:
        sol = fight_pkg.solve_fight(*sides)
        report.describe_policy(sol)
        simulate.end_tables(sol)
        return simulate.fight_trial(sol)

    return run


def solve_rows(rev: str, runs: int, smoke: bool = False) -> None:
    """Print the fixed cost of a fight run (:func:`fight_fixed_cost`), the package of ``rev``
    and the current one timed alternately (CPU time, median of ``runs`` after a warm-up)."""
    import grimdice.systems.killteam as current

    peer_calculate(rev)
    import kt_peer  # type: ignore[import-not-found]

    bc = ["Balanced", "Ceaseless"]
    cases = {path.stem: load_scenario(path) for path in sorted(EXAMPLES.glob("killteam-fight-*.yaml"))}
    if not smoke:
        cases["fight 8v8 Balanced+Ceaseless"] = fight(8, bc, [])
        cases["fight 6v6 Relentless"] = fight(6, ["Relentless"], ["Relentless"])
        cases["fight 10v10 W40"] = fight(10, [], [], wounds=40)
    for name, sc in cases.items():
        timed = {"former": fight_fixed_cost(kt_peer, sc), "current": fight_fixed_cost(current, sc)}
        cpu: dict[str, list[float]] = {k: [] for k in timed}
        for fn in timed.values():
            fn()  # warm-up, untimed
        for _ in range(runs):
            for label, fn in timed.items():
                t0 = time.process_time()
                fn()
                cpu[label].append(time.process_time() - t0)
        former, now = (statistics.median(cpu[k]) * 1e3 for k in ("former", "current"))
        print(f"fixed cost {name:34} former {rev}: {former:7.1f} ms  now: {now:7.1f} ms  x{former / now:.2f}")


def readme_case_ms(runs: int) -> float:
    """The 40k README case (120 attacks into 20 models of W3, FNP 5+), median ms in this process,
    timed cold as ``bench_wh40k`` times it (the shared token-operator cache cleared every run)."""
    data = load_scenario(EXAMPLES / "bench-120-bolters-vs-20-w3.yaml")

    def cold() -> Any:
        # as bench_wh40k times it: no token operator shared from an earlier run
        operators._SHARED.clear()
        return calculate_any(data)

    timing, _ = measure(cold, runs)
    return timing.ms


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, one run (CI)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--peer", metavar="REV", help="also time the Kill Team package of this git revision")
    ap.add_argument("--mc", type=int, metavar="N", help="only the Monte Carlo throughput rows, N trials")
    ap.add_argument("--solve", metavar="REV", help="only a fight run's fixed cost, against this git revision")
    args = ap.parse_args()
    runs = 1 if args.smoke else args.runs
    keep_arrays_on_heap()  # as the grimdice command does at its start (its Monte Carlo rows)
    print(f"machine: {machine()}; statistic: median of {runs} runs after a warm-up")
    if args.solve:
        solve_rows(args.solve, runs, args.smoke)
        return
    if args.mc or args.smoke:
        mc_rows(args.mc or 5_000, runs, args.peer, args.smoke)
        if args.mc:
            return
    readme = readme_case_ms(runs)
    print(f"40k README case: {readme:.2f} ms")
    rows = run_cases(cases(args.smoke, args.peer), runs)
    for row in rows:
        print(f"{row['case']:52} {row['grimdice_ms'] / readme:10.0f} x the README case")
    bad = [r["case"] for r in rows if any(k.endswith("_agrees") and not v for k, v in r.items())]
    if bad:
        print(f"the former package disagrees on: {', '.join(bad)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
