"""Exact fight engine vs the Monte Carlo engine (literal dice and re-rolls, policy played move by
move), within the shared statistical bound of ``tests/agreement.py`` (5 standard errors), fixed
seeds; the Monte Carlo's own move-by-move bookkeeping against the exact engine's ends of the
resolution step from every pair of retained dice; every die rolled counted."""

import numpy as np
import pytest

from grimdice.engine.options import RunOptions
from grimdice.systems.killteam.fight import Hits, Outcome, fight_result, solve_fight
from grimdice.systems.killteam.fight.simulate import play, simulate_fight
from tests.agreement import assert_agree
from tests.killteam.helpers import fighter

N = 20_000


def F(name, wounds, attacks, hit, nd, cd, **kw):
    return fighter(name, wounds, attacks, hit, nd, cd, **kw)


CASES = {
    "relentless rending stun reap vs brutal ceaseless balanced": (
        F("a", 12, 4, 3, 4, 5, rending=True, relentless=True, stun=True, reap=2),
        F("d", 10, 4, 3, 3, 4, brutal=True, ceaseless=True, balanced=True),
    ),
    "lethal 5+ balanced stun vs stun rending, damage taken": (
        F("a", 8, 3, 4, 3, 4, lethal=5, balanced=True, stun=True),
        F("d", 9, 4, 3, 3, 5, stun=True, rending=True, objective="damage_taken", reap=1),
    ),
    "survive vs damage dealt, ceaseless both": (
        F("a", 5, 5, 3, 2, 3, ceaseless=True, objective="survive"),
        F("d", 7, 3, 2, 4, 5, ceaseless=True, brutal=True, objective="damage_dealt"),
    ),
    "balanced ceaseless rending vs rending, 6 v 5 (parries both ways)": (
        F("a", 11, 6, 3, 3, 4, balanced=True, ceaseless=True, rending=True),
        F("d", 12, 5, 3, 3, 4, rending=True),
    ),
    "relentless brutal rending vs relentless stun lethal 5+, survive": (
        F("a", 9, 4, 3, 3, 5, relentless=True, brutal=True, rending=True),
        F("d", 8, 5, 4, 3, 4, relentless=True, stun=True, lethal=5, objective="survive"),
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_exact_vs_simulated(name):
    att, dfd = CASES[name]
    exact = fight_result(att, dfd)
    sim = fight_result(att, dfd, simulate=N, seed=7)
    assert set(sim.stages) == set(exact.stages)
    assert_agree(exact.stages, sim.stages, N)
    assert sim.extra["policy"] == exact.extra["policy"]


def test_seeded():
    att, dfd = CASES["survive vs damage dealt, ceaseless both"]
    a = fight_result(att, dfd, simulate=2000, seed=3).to_json()
    b = fight_result(att, dfd, simulate=2000, seed=3).to_json()
    assert a == b


@pytest.mark.parametrize("name", CASES)
def test_played_resolution_equals_the_exact_ends(name):
    """The Monte Carlo plays the resolution step move by move with its own bookkeeping (strike,
    parry, Stun's discard, alternation, early end): from every pair of retained dice it must end
    where the exact engine's layered solver says."""
    att, dfd = CASES[name]
    sol = solve_fight(att, dfd)
    starts = np.array(
        [
            (an, ac, dn, dc)
            for an in range(att.attacks + 1)
            for ac in range(att.attacks + 1 - an)
            for dn in range(dfd.attacks + 1)
            for dc in range(dfd.attacks + 1 - dn)
        ]
    )
    wounds, strikes = play(sol, starts)
    for (an, ac, dn, dc), w, k in zip(starts.tolist(), wounds.tolist(), strikes.tolist(), strict=True):
        assert Outcome(*w, *k) == sol.tables.resolution.outcome(Hits(an, ac), Hits(dn, dc))


def test_every_die_rolled_is_counted():
    """First rolls of both sides, plus the dice re-rolled (Balanced: at most one a fight)."""
    plain = solve_fight(F("a", 10, 4, 3, 3, 4), F("d", 10, 3, 4, 3, 4))
    assert simulate_fight(plain, RunOptions(1000, 1, 1)).dice == 1000 * (4 + 3)
    balanced = solve_fight(F("a", 10, 4, 3, 3, 4, balanced=True), F("d", 10, 3, 4, 3, 4))
    dice = simulate_fight(balanced, RunOptions(1000, 1, 1)).dice
    assert 1000 * 7 < dice <= 1000 * 8
