"""40k and Heresy Monte Carlo on the shared runner: a seed gives the same result whatever the
workers, progress is reported per block."""

from __future__ import annotations

from grimdice.engine.montecarlo import BLOCK
from grimdice.systems import calculate
from tests.heresy import helpers as hh

from . import helpers as wh

TRIALS = BLOCK + 5_000  # two blocks


def test_wh40k_same_seed_same_result_whatever_the_workers():
    sc = wh.scenario(wh.weapon(A=2, abilities=["devastating wounds"]), wh.model(count=3, W=2, Sv=4))
    seen: list[tuple[int, int]] = []
    one = calculate(sc, simulate=TRIALS, seed=11, workers=1, progress=lambda d, t: seen.append((d, t)))
    two = calculate(sc, simulate=TRIALS, seed=11, workers=2)
    assert one.to_json() == two.to_json()
    assert seen == [(BLOCK, TRIALS), (TRIALS, TRIALS)]
    assert calculate(sc, simulate=TRIALS, seed=12, workers=1).to_json() != one.to_json()


def test_heresy_same_seed_same_result_whatever_the_workers():
    sc = hh.scenario(hh.weapon(A=2, S=4, AP=4), hh.model(count=3, W=2, Sv=4))
    one = calculate(sc, simulate=TRIALS, seed=5, workers=1)
    two = calculate(sc, simulate=TRIALS, seed=5, workers=2)
    assert one.to_json() == two.to_json()


def test_heresy_fight_same_seed_same_result_whatever_the_workers():
    sc = hh.scenario(
        hh.melee(), hh.model(weapons=[{"name": "knife", "S": "user", "rules": ["Melee"]}], count=2)
    )
    sc["conditions"]["fight"] = True
    sc["attacker"]["models"][0].update(T=4, W=1, count=2)
    one = calculate(sc, simulate=TRIALS, seed=3, workers=1)
    two = calculate(sc, simulate=TRIALS, seed=3, workers=2)
    assert one.to_json() == two.to_json()
    assert one.extra["combat_resolution"]["margin"]["offset"] <= 0


def test_wh40k_counts_every_die_it_rolls():
    from grimdice.dice import Sampler
    from grimdice.io.scenario import validate
    from grimdice.systems.wh40k.profiles import Scenario
    from grimdice.systems.wh40k.simulate import trial_function
    from grimdice.systems.wh40k.units import resolve_groups, resolve_target

    sc = validate(Scenario, wh.scenario(wh.weapon(A=2), wh.model(count=5, Sv=4), count=10))
    target = resolve_target(sc)
    s = Sampler(3)
    out = trial_function(target, resolve_groups(sc, target))(s, 2000)
    # a Hit die per attack, a Wound die per hit, a save per wound (even once the unit is gone)
    assert s.dice == 2000 * 20 + int(out["hits"].sum()) + int(out["wounds"].sum())


def test_heresy_counts_every_die_it_rolls():
    from grimdice.dice import Sampler
    from grimdice.io.scenario import validate
    from grimdice.systems.heresy.profiles import Scenario
    from grimdice.systems.heresy.simulate import Outcomes, _batch
    from grimdice.systems.heresy.units import resolve

    big = hh.model(W=20, Sv=4)  # 20 shots cannot remove it before its last save
    target, groups = resolve(validate(Scenario, hh.scenario(hh.weapon(A=2), big, count=10)))
    s = Sampler(3)
    out = _batch(s, target, groups, [Outcomes.of(target, g) for g in groups], 2000)
    # a To Hit die per shot, a Wound die per hit, a save per wound (no Damage Mitigation)
    assert s.dice == 2000 * 20 + int(out["hits"].sum()) + int(out["wounds"].sum())
    mitigated = hh.model(W=20, Sv=4, FNP=5)
    target, groups = resolve(validate(Scenario, hh.scenario(hh.weapon(A=2), mitigated, count=10)))
    s = Sampler(3)
    out = _batch(s, target, groups, [Outcomes.of(target, g) for g in groups], 2000)
    # and a Feel No Pain die per failed save
    assert s.dice == 2000 * 20 + int((out["hits"] + out["wounds"] + out["unsaved"]).sum())
