"""Exact fight engine vs the Monte Carlo engine (literal dice and re-rolls, policy played move by
move), within the shared statistical bound of ``tests/agreement.py`` (5 standard errors), fixed
seeds."""

import pytest

from grimdice.systems.killteam.fight import fight_result
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
