"""Benchmark: the exact One Page 40k engine against a naive icepool formulation, in one process.

1. Shooting: 20 models (Quality 4, Assault Rifles, two with Plasmaguns) at 10 Tactical Marines
   (Quality 3) with a joined Tough(3) Captain, in Cover (Armored). Compared: the law of models left.
2. Melee: 20 Boyz (Q5, Hand Weapons) with a Tough(3) Warboss (Power Fist) assault 10 Marines (Q3,
   Hand Weapons) with a Tough(3) Captain (Power Weapon); simultaneous strikes, combat resolution and
   the loser's morale test (Pinned or Routs). Compared: the laws of the winner and of the marines'
   models left.

The naive icepool formulation builds each side's wound count as ``n @ Bernoulli`` and maps the whole
outcome (casualties with the defender's Tough order tried both ways, winner, morale die) with
``icepool.map``. Both must agree (checked on the answers). Timings by ``benchmarks/harness.py``: each
callable warmed once outside the timed region (icepool's import too), then the median of the same
number of runs for grimdice and icepool, in the same process; ratio = icepool / grimdice.

3. A game's calls: what an AI game asks the exact engine (``shooting_table`` / ``melee_table``, the
   calls of ``game/state.py``'s ``combat_law``): every unit of each bundled 750-point army shooting at
   every enemy unit from 12 positions 1" to 23" away (in Cover from every third) and assaulting it, at
   full strength, on fresh units each run (the engine keeps answers per unit object). The peer is the
   same engine with its memos off (``units.memos_off``: every answer computed afresh); both answers
   must be equal exactly.

Run: ``python benchmarks/bench_onepage.py [--runs N]`` (``--smoke`` for a quick CI check).
"""

from __future__ import annotations

import argparse
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grimdice.systems import calculate
from grimdice.systems.onepage.exact import melee_table, shooting_table
from grimdice.systems.onepage.game.setup import load_army_side
from grimdice.systems.onepage.profiles import Conditions
from grimdice.systems.onepage.units import memos_off
from harness import Case, close, machine, run_cases

ROOT = Path(__file__).resolve().parents[1]
ARMIES = (ROOT / "examples/armies/onepage-marines-army.yaml", ROOT / "examples/armies/onepage-orks-army.yaml")

SHOOT = {
    "system": "onepage",
    "attack": "shooting",
    "attacker": {
        "name": "Guard",
        "size": 20,
        "quality": 4,
        "equipment": ["Assault Rifle"],
        "variants": [{"count": 2, "equipment": ["Plasmagun"]}],
    },
    "defender": {"name": "Marines", "size": 10, "quality": 3, "cost": 100},
    "defender_hero": {"name": "Captain", "quality": 3, "special_rules": ["Hero", "Tough(3)"], "cost": 60},
    "conditions": {"distance": 20, "cover": True},
}
MELEE = {
    "system": "onepage",
    "attack": "melee",
    "attacker": {"name": "Boyz", "size": 20, "quality": 5, "equipment": ["Hand Weapon"], "cost": 100},
    "attacker_hero": {
        "name": "Warboss",
        "quality": 5,
        "equipment": ["Power Fist"],
        "special_rules": ["Hero", "Tough(3)"],
        "cost": 60,
    },
    "defender": {"name": "Marines", "size": 10, "quality": 3, "equipment": ["Hand Weapon"], "cost": 150},
    "defender_hero": {
        "name": "Captain",
        "quality": 3,
        "equipment": ["Power Weapon"],
        "special_rules": ["Hero", "Tough(3)"],
        "cost": 60,
    },
}


def casualties(models: int, per_model: float, hero_pts: float, wounds: int) -> tuple[int, int, int]:
    """(regulars left, hero alive, wounds on the hero): the better of hero-first / regulars-first."""
    options = []
    for hero_first in (True, False):
        w, regs, hero, dmg = wounds, models, 1, 0
        for part in ("hero", "regs") if hero_first else ("regs", "hero"):
            if part == "hero" and hero:
                if w >= 3:
                    w, hero = w - 3, 0
                else:
                    dmg, w = w, 0
            elif part == "regs":
                k = min(regs, w)
                regs, w = regs - k, w - k
        options.append(((regs * per_model + hero * hero_pts, -dmg / 3 * hero_pts), (regs, hero, dmg)))
    best = options[0]
    for o in options[1:]:
        if o[0] > best[0]:
            best = o
    return best[1]


def icepool_shooting():
    import icepool

    per = icepool.map(lambda h, a, b: int(h >= 4 and a < 4 and b < 3), icepool.d6, icepool.d6, icepool.d6)
    wounds = (18 + 2 * 3) @ per
    return icepool.map(lambda w: sum(casualties(10, 10, 60, w)[:2]), wounds)


def icepool_melee():
    import icepool

    a_wound = icepool.map(lambda h, b: int(h >= 5 and b < 3), icepool.d6, icepool.d6)
    d_wound = icepool.map(lambda h, b: int(h >= 3 and b < 5), icepool.d6, icepool.d6)
    wa = (20 * 3 + 4 + 1) @ a_wound
    wd = (10 * 2 + 3) @ d_wound

    def end(x: int, y: int, morale: int) -> tuple[int, int]:
        m_regs, m_hero, _ = casualties(10, 15, 60, x)
        marines = m_regs + m_hero
        winner = 1 if x > y else 2 if y > x else 0
        if winner == 1 and marines and morale < 3 and not 2 * marines > 11:
            marines = 0  # routs
        return winner, marines

    return icepool.map(end, wa, wd, icepool.d6)


def _pmf(die, f) -> list[float]:  # type: ignore[no-untyped-def]
    """The law of ``f(outcome)`` of an icepool die as a list from 0."""
    den = die.denominator()
    out: dict[int, float] = {}
    for k, q in die.items():
        out[f(k)] = out.get(f(k), 0.0) + q / den
    return [out.get(k, 0.0) for k in range(max(out) + 1)]


def game_calls() -> tuple[Callable[[], list[Any]], int]:
    """Case 3: a callable resolving the game's calls on fresh copies of the bundled armies' units
    (it returns every answer: the end-state tables, in order), and how many calls it makes."""
    units = load_army_side(ARMIES[0]).units + load_army_side(ARMIES[1]).units
    side = [0] * len(load_army_side(ARMIES[0]).units) + [1] * len(load_army_side(ARMIES[1]).units)
    blob = pickle.dumps(units)
    calls: list[tuple[str, int, int, Conditions]] = []
    for a in range(len(units)):
        for d in range(len(units)):
            if side[a] == side[d]:
                continue
            for dist in range(1, 25, 2):
                c = Conditions(distance=dist, cover=dist % 3 == 0, action="hold" if dist % 2 else "walk")
                calls.append(("shoot", a, d, c))
            calls.append(("melee", a, d, Conditions(action="assault")))
            calls.append(("melee", a, d, Conditions(action="assault", attacker_strikers=2)))

    def run() -> list[Any]:
        fresh = pickle.loads(blob)  # units without the engine's memos
        out: list[Any] = []
        for kind, a, d, c in calls:
            ua, ud = fresh[a], fresh[d]
            if kind == "shoot":
                out.append(list(shooting_table(ua, ua.initial(), ud, ud.initial(), c)[1].items()))
            else:
                m = melee_table(ua, ua.initial(), ud, ud.initial(), c)
                out.append([((m.states[i], m.states[j], w), p) for (i, j, w), p in m.final.items()])
        return out

    return run, len(calls)


def cases() -> list[Case]:
    """The two exact cases (target 20 ms each), with the naive icepool peer; the answers
    compared: the law of models left (shooting), the laws of the winner and of the marines' models
    left (melee)."""

    def shoot() -> list[float]:
        return calculate(SHOOT)["models_left"].pmf_from_zero()

    def melee() -> list[list[float]]:
        r = calculate(MELEE)
        return [r["winner"].pmf_from_zero(), r["defender_models_left"].pmf_from_zero()]

    def shoot_ice() -> list[float]:
        return _pmf(icepool_shooting(), int)

    game, n_calls = game_calls()

    def memos_off_game() -> list[Any]:
        with memos_off():
            return game()

    def melee_ice() -> list[list[float]]:
        die = icepool_melee()
        return [_pmf(die, lambda k: k[0]), _pmf(die, lambda k: k[1])]

    return [
        Case(
            "onepage shooting, 20 models vs 10 + Tough(3) hero",
            shoot,
            {"icepool": shoot_ice},
            agree=close,
            target_ms=20.0,
        ),
        Case(
            "onepage melee, Tough(3) heroes, morale",
            melee,
            {"icepool": melee_ice},
            agree=lambda x, y: all(close(a, b) for a, b in zip(x, y, strict=True)),
            target_ms=20.0,
        ),
        Case(
            f"onepage game's engine calls ({n_calls} tables, fresh units)",
            game,
            {"memos off": memos_off_game},
            agree=lambda x, y: x == y,
            max_runs=5,
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--smoke", action="store_true", help="quick run: grimdice only, one run each")
    args = ap.parse_args(argv)
    runs = 1 if args.smoke else args.runs
    print(f"machine: {machine()}; statistic: median of {runs} runs after a warm-up")
    rows = run_cases(cases(), runs, peers=not args.smoke)
    ok = all(v for r in rows for k, v in r.items() if k.endswith("_agrees"))
    print(f"distributions agree: {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
