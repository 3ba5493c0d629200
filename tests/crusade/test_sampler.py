"""The Crusade Monte Carlo rolls every die through the shared Sampler (counted dice), and the same
seed gives the same result whatever the workers."""

from __future__ import annotations

from grimdice.engine.options import RunOptions
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.attack import build
from grimdice.systems.crusade.contest import solve
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.simulate import _trial
from tests.crusade.helpers import fight, gun, model, shoot


def test_every_die_rolled_is_counted_and_no_other():
    # 2W+1R against 2W: 5 dice a trial, and one die for each re-roll taken (the spare dice drawn
    # for the re-rolls not taken are not dice)
    sc = Scenario.model_validate(
        fight(model(melee="2W+1R", abilities=["R"]), model(melee="2W"), parry="never")
    )
    atk = build(sc)
    tally = RunOptions(simulate=1000, seed=1).run(_trial(atk, solve(atk.spec)))
    taken = sum(1000 - int(tally.counts[k][0]) for k in ("att_reroll", "def_reroll"))
    assert 0 < taken < 1000
    assert tally.dice == 1000 * 5 + taken


def test_same_seed_same_result_whatever_the_workers():
    # two blocks of trials (50 000 a block), the volley's re-rolls and force field included
    sc = shoot([gun("2W", ["S", "R"], name="lasgun")], model(name="bike", abilities=["JINK", "+F"]), volley=3)
    one = calculate(sc, simulate=50_500, seed=5, workers=1)
    two = calculate(sc, simulate=50_500, seed=5, workers=2)
    assert one.to_json() == two.to_json()


def test_many_targets_same_seed_same_result_whatever_the_workers():
    # the vectorised walks (simulate_walk.Walk) keep per-block memos: blocks run in any process
    from tests.crusade.helpers import many

    targets = [model(name="a", hits=2, abilities=["JINK"]), model(name="b", armour=1, abilities=["+F"])]
    for sc in (
        many("2W+1R", ["Rap", "R"], targets, range=4),  # RAPID FIRE with a re-roll and a jink
        many("2W+1R", ["B", "R"], targets),  # BLAST with the re-roll replayed
        shoot(
            [gun("2W", ["S"], name="lasgun")],
            model(name="m"),
            volley=2,
            targets=[targets[1], model(name="c")],
        ),
    ):
        one = calculate(sc, simulate=50_007, seed=3, workers=1).to_json()
        assert calculate(sc, simulate=50_007, seed=3, workers=2).to_json() == one
        assert calculate(sc, simulate=50_007, seed=4, workers=1).to_json() != one
