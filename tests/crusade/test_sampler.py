"""The Crusade Monte Carlo rolls every die through the shared Sampler (counted dice), and the same
seed gives the same result whatever the workers."""

from __future__ import annotations

from grimdice.engine.options import RunOptions
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.attack import build
from grimdice.systems.crusade.contest import solve
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.simulate import Play
from tests.crusade.helpers import fight, gun, model, shoot


def test_every_die_rolled_is_counted_and_no_other():
    # 2W+1R against 2W: 5 dice a trial, and one die for each re-roll taken (the spare dice drawn
    # for the re-rolls not taken are not dice)
    sc = Scenario.model_validate(
        fight(model(melee="2W+1R", abilities=["R"]), model(melee="2W"), parry="never")
    )
    atk = build(sc)
    play = Play(atk, solve(atk.spec))
    tally = RunOptions(simulate=1000, seed=1).run(play)
    counts = play.counts(tally)
    taken = sum(1000 - int(counts[k][0]) for k in ("att_reroll", "def_reroll"))
    assert 0 < taken < 1000
    assert tally.dice == 1000 * 5 + taken


def test_same_seed_same_result_whatever_the_workers():
    # two blocks of trials (50 000 a block), the volley's re-rolls and force field included
    sc = shoot([gun("2W", ["S", "R"], name="lasgun")], model(name="bike", abilities=["JINK", "+F"]), volley=3)
    one = calculate(sc, simulate=50_500, seed=5, workers=1)
    two = calculate(sc, simulate=50_500, seed=5, workers=2)
    assert one.to_json() == two.to_json()


def test_one_attack_same_seed_same_result_whatever_the_workers():
    # the compiled tables (simulate.Play) are fixed before any block runs: the codes the blocks
    # tally mean the same in every worker (re-rolls both sides, force fields both sides, a parry)
    sc = fight(
        model(
            melee="1W+1R", abilities=["RO", "+F"], weapons=[{"name": "axe", "dice": "1R", "kind": "melee"}]
        ),
        model(
            melee="2W",
            hits=2,
            abilities=["R", "+F"],
            weapons=[{"name": "sword", "dice": "1W", "kind": "melee"}],
        ),
    )
    one = calculate(sc, simulate=100_001, seed=3, workers=1).to_json()
    assert calculate(sc, simulate=100_001, seed=3, workers=2).to_json() == one
    assert calculate(sc, simulate=100_001, seed=4, workers=1).to_json() != one


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


def _dice_counted(sc, trials: int) -> int:
    """The dice the Monte Carlo run of ``sc`` counts (every tally :meth:`RunOptions.run` returns)."""
    seen = []
    original = RunOptions.run

    def run(self, trial):
        t = original(self, trial)
        seen.append(t)
        return t

    RunOptions.run = run  # type: ignore[method-assign]
    try:
        calculate(sc, simulate=trials, seed=2, workers=1)
    finally:
        RunOptions.run = original  # type: ignore[method-assign]
    return sum(t.dice for t in seen)


def test_a_force_field_die_is_counted_only_for_a_target_with_a_force_field():
    from tests.crusade.helpers import many

    plain = [model(name="a"), model(name="b")]
    shielded = [model(name="a"), model(name="b", abilities=["+F"])]
    # LINE at two targets: one roll of 2W+1R, then the red die of each target with a force field
    assert _dice_counted(many("2W+1R", ["LINE"], plain), 1000) == 1000 * 3
    assert _dice_counted(many("2W+1R", ["LINE"], shielded), 1000) == 1000 * (3 + 1)


def test_a_volley_counts_its_big_roll_and_each_blank_re_rolled():
    # 2 models: the big roll is 4 whites; each scoring die pairs with a blank, re-rolled with it
    # (reading volley_fire): E[min(K, 4 - K)] blanks re-rolled, K ~ Binomial(4, 1/3)
    from fractions import Fraction
    from math import comb

    p = Fraction(1, 3)
    blanks = sum(comb(4, k) * p**k * (1 - p) ** (4 - k) * min(k, 4 - k) for k in range(5))
    trials = 40_000
    dice = _dice_counted(shoot([gun("2W", ["S"], name="lasgun")], model(name="m"), volley=2), trials)
    per_trial = Fraction(dice - 4 * trials, trials)
    # the blanks re-rolled per trial lie within 0..2 (sd below 0.8): 5 standard errors
    assert abs(float(per_trial - blanks)) < 5 * 0.8 / trials**0.5


def test_crusade_dice_are_uniform_on_their_faces():
    import numpy as np

    from grimdice.dice.sampler import Sampler
    from grimdice.systems.crusade.rolls import DICE, Pool, roll_dice, roll_pool

    s = Sampler(7)
    for kind in ("W", "R"):
        faces = roll_dice(s, 60_000, kind)
        expected = np.array([DICE[kind].faces.count(f) for f in range(4)]) / 6 * 60_000
        got = np.bincount(faces, minlength=4)
        assert np.all(np.abs(got - expected) < 5 * np.sqrt(expected + 1))
    kinds, faces = roll_pool(s, Pool(white=1, red=1), 1000)
    assert list(kinds) == ["W", "R"] and faces.shape == (1000, 2)
    assert faces[:, 0].max() == 2 and faces[:, 1].max() == 3
    assert s.dice == 2 * 60_000 + 2000


def test_the_dense_walk_table_plays_as_the_sorted_pairs(monkeypatch):
    # simulate_walk.Walk looks steps up in a dense table where it fits, else sorts the pairs
    import grimdice.systems.crusade.simulate_walk as walk

    sc = shoot([gun("2W", ["S", "R"], name="lasgun")], model(name="bike", abilities=["JINK", "+F"]), volley=3)
    dense = calculate(sc, simulate=5000, seed=5).to_json()
    monkeypatch.setattr(walk, "DENSE", 0)
    assert calculate(sc, simulate=5000, seed=5).to_json() == dense


def test_a_rolled_pool_falls_on_its_exact_law():
    # roll_into_law walks each pool die by die into the index of its statistic in pool_law: the
    # frequencies agree with the law's probabilities, and every die is counted once
    import numpy as np

    from grimdice.dice import Dist
    from grimdice.dice.sampler import Sampler
    from grimdice.systems.crusade.rolls import Pool, pool_law, roll_into_law
    from tests.agreement import assert_agree

    for white, red, track in ((2, 1, True), (0, 3, True), (3, 2, False), (1, 0, True)):
        s, n = Sampler(11), 60_000
        law = pool_law(white, red, track)
        got = np.bincount(roll_into_law(s, Pool(white, red), n, track), minlength=len(law)) / n
        exact = Dist(np.array([p for _, p in law]))
        assert_agree({"law": exact}, {"law": Dist(got)}, n)
        assert s.dice == n * (white + red)
