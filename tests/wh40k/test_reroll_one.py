"""One Hit re-roll / one Wound re-roll for the unit's whole attack (Command Re-roll style):
the first failed die not already re-rolled, across weapon groups in order."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from tests.agreement import assert_agree

from .helpers import model, run, weapon

ONE_HIT = {"reroll_one_hit": True}


def probs(d, n):
    return [d[k] for k in range(n + 1)]


def test_one_hit_reroll_within_a_group_by_hand():
    r = run(weapon(A=2, BS=4, S=8), model(W=5), conditions=ONE_HIT)
    # each die hits 1/2; the first miss is re-rolled once: P(0) = 1/4 * 1/2, P(2) = 1/4 + 1/2 * 1/2
    assert probs(r["hits"], 2) == pytest.approx([float(F(1, 8)), float(F(3, 8)), float(F(1, 2))], abs=1e-15)


def test_the_reroll_crosses_weapon_groups_in_order_by_hand():
    groups = [weapon(name="long", A=1, BS=6, S=8), weapon(name="sure", A=1, BS=2, S=8)]
    r = run(groups, model(W=5), conditions=ONE_HIT)
    # the first group misses 5/6 of the time and spends the re-roll there: it hits 1/6 + 5/6 * 1/6;
    # the second keeps it only when the first hit at once (1/6): 1/6 * (5/6 + 1/6 * 5/6) + 5/6 * 5/6
    mean = F(11, 36) + F(1, 6) * F(35, 36) + F(5, 6) * F(5, 6)
    assert r["hits"].mean() == pytest.approx(float(mean), abs=1e-14)
    assert r["hits"][0] == pytest.approx(float(F(5, 6) * F(5, 6) * F(1, 6)), abs=1e-15)


def test_one_wound_reroll_skips_dice_already_rerolled():
    # Wound on 4+, the group re-rolls 1s itself: a re-rolled 1 is never re-rolled again
    r = run(
        weapon(A=1, S=4, abilities=["torrent"]),
        model(W=5),
        conditions={"reroll_wounds": "ones", "reroll_one_wound": True},
    )
    p = F(1, 6) * F(1, 2) + F(2, 6) * F(1, 2) + F(1, 2)  # a 1: own re-roll; a 2 or 3: the unit's re-roll
    assert r["wounds"][1] == pytest.approx(float(p), abs=1e-15)


def test_without_the_option_nothing_changes():
    a = run(weapon(A=3, BS=4), model(count=3))
    b = run(weapon(A=3, BS=4), model(count=3), conditions={"reroll_one_hit": False})
    assert a.to_json() == b.to_json()


N = 40_000


@pytest.mark.parametrize(
    "weapons,defenders,kw",
    [
        (
            [
                weapon(
                    name="storm",
                    A=3,
                    BS=3,
                    S=4,
                    AP=-1,
                    D=2,
                    abilities=["devastating wounds", "sustained hits 1"],
                ),
                weapon(name="bolter", A=2, BS=4, S=4, D=1, abilities=["lethal hits"]),
            ],
            [model(count=3, Sv=3, W=2), model(name="b", count=2, Sv=5, W=2, FNP=6)],
            dict(
                count=2,
                leaders=[model(name="boss", Sv=2, W=4)],
                conditions={"reroll_one_hit": True, "reroll_one_wound": True, "reroll_hits": "ones"},
            ),
        ),
        (
            [weapon(A=4, BS=4, S=3, D="D3"), weapon(name="flamer", A="D6", S=4, abilities=["torrent"])],
            [model(count=6, Sv=4, W=1)],
            dict(count=2, conditions={"reroll_one_wound": True}),
        ),
    ],
    ids=["both re-rolls, devastating, leader, mixed saves", "wound re-roll, torrent, random attacks"],
)
def test_exact_matches_simulation(weapons, defenders, kw):
    exact = run(weapons, defenders, **kw)
    sim = run(weapons, defenders, simulate=N, seed=99, **kw)
    assert list(exact.stages) == list(sim.stages)
    assert_agree(exact.stages, sim.stages, N, 5.0)


def test_the_unit_reroll_pool_counts_the_dice_it_rolls_and_rerolls_a_failed_die():
    """One die per trial, 4+ to succeed (6 critical), no re-roll of its own: a failed die is
    re-rolled once by the unit's re-roll (P(success) = 1/2 + 1/2 * 1/2 = 3/4, P(critical) =
    1/6 + 1/2 * 1/6 = 1/4), and the dice counted are the first dice plus those re-rolls."""
    import numpy as np

    from grimdice.dice import Sampler
    from grimdice.engine.pipeline import CategoryRoll
    from grimdice.systems.wh40k.simulate import _roll_once

    n = 200_000
    roll = CategoryRoll(lambda f: np.where(np.asarray(f) >= 4, np.where(np.asarray(f) == 6, 0, 1), 2), 3)
    s = Sampler(5)
    available = np.ones(n, dtype=bool)
    crit, normal = _roll_once(s, np.ones(n, dtype=np.int64), roll, frozenset(), available)
    used = int(np.count_nonzero(~available))
    assert s.dice == n + used
    assert abs(used / n - 0.5) < 5 * (0.25 / n) ** 0.5  # the first die failed
    assert abs((crit + normal).mean() - 0.75) < 5 * (0.75 * 0.25 / n) ** 0.5
    assert abs(crit.mean() - 0.25) < 5 * (0.25 * 0.75 / n) ** 0.5
    empty = np.ones(3, dtype=bool)
    assert [c.tolist() for c in _roll_once(s, np.zeros(3, dtype=np.int64), roll, frozenset(), empty)] == [
        [0, 0, 0],
        [0, 0, 0],
    ]
    assert empty.all()
