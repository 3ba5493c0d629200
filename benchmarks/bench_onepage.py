"""Benchmark: the exact One Page 40k engine against a naive icepool formulation, in one process.

1. Shooting: 20 models (Quality 4, Assault Rifles, two with Plasmaguns) at 10 Tactical Marines
   (Quality 3) with a joined Tough(3) Captain, in Cover (Armored). Compared: the law of models left.
2. Melee: 20 Boyz (Q5, Hand Weapons) with a Tough(3) Warboss (Power Fist) assault 10 Marines (Q3,
   Hand Weapons) with a Tough(3) Captain (Power Weapon); simultaneous strikes, combat resolution and
   the loser's morale test (Pinned or Routs). Compared: the laws of the winner and of the marines'
   models left.

The naive icepool formulation builds each side's wound count as ``n @ Bernoulli`` and maps the whole
outcome (casualties with the defender's Tough order tried both ways, winner, morale die) with
``icepool.map``. Both must agree before timings are printed. Timings: best of N runs of each, same
process, icepool imported and warmed outside the timed region.

Run: ``python benchmarks/bench_onepage.py`` (``--smoke`` for a quick CI check).
"""

from __future__ import annotations

import argparse
import sys
import time

from grimdice.systems import calculate

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


def timed(f, repeat: int) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--smoke", action="store_true", help="quick run: one repetition each")
    args = ap.parse_args(argv)
    reps = 1 if args.smoke else 10
    ok = True
    shoot = calculate(SHOOT)
    melee = calculate(MELEE)
    t_shoot = timed(lambda: calculate(SHOOT), reps)
    t_melee = timed(lambda: calculate(MELEE), reps)
    print(f"grimdice exact shooting (20 models): {t_shoot * 1e3:.2f} ms")
    print(f"grimdice exact melee (Tough(3) heroes): {t_melee * 1e3:.2f} ms")
    import icepool  # noqa: F401  (imported and warmed outside the timed region)

    ice_s, ice_m = icepool_shooting(), icepool_melee()
    t_is = timed(icepool_shooting, reps)
    t_im = timed(icepool_melee, reps)
    tot = ice_s.denominator()
    for k, q in ice_s.items():
        ok &= abs(shoot["models_left"][k] - q / tot) < 1e-9
    tot = ice_m.denominator()
    for w in (0, 1, 2):
        ok &= abs(melee["winner"][w] - sum(q for (x, _), q in ice_m.items() if x == w) / tot) < 1e-9
    for m in range(12):
        ok &= (
            abs(melee["defender_models_left"][m] - sum(q for (_, y), q in ice_m.items() if y == m) / tot)
            < 1e-9
        )
    print(f"icepool naive shooting: {t_is * 1e3:.2f} ms  ratio {t_is / t_shoot:.1f}x")
    print(f"icepool naive melee:    {t_im * 1e3:.2f} ms  ratio {t_im / t_melee:.1f}x")
    print(f"distributions agree: {ok}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
