"""Knockback off an edge (VIII KNOCKBACK: "If they move past a railing (no roof) or off an edge,
they fall"; V FALLING: "For every 4" you fall, take 1 hit (graze = stun)"; IX FLY ignores it)."""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest

from grimdice.errors import ScenarioError

from .helpers import close, end, gun, model, run, shoot


def edge(fall, **target):
    # 1 white with KB at armour 1: a 1 ties (knockback), a 2 does 1 point (a stun graze) and knocks back
    return shoot(
        [gun("1W", ["S", "KB"])], model(name="t", armour=1, **target), knockback_into="edge", fall=fall
    )


def test_an_eight_inch_fall_is_two_hits_and_kills_a_one_hit_model():
    assert close(end(run(edge(8)), "killed"), Fr(2, 6))


def test_a_four_inch_fall_is_a_stun_graze():
    res = run(edge(4))
    assert close(end(res, "stunned"), Fr(1, 6))  # tie: knocked off, 1 hit: stunned
    assert close(end(res, "ko"), Fr(1, 6))  # 2: stunned by the shot, then the fall: KO


def test_under_four_inches_no_hit_and_fly_or_heavy_ignore_it():
    assert close(end(run(edge(3)), "stunned"), Fr(1, 6))  # only the shot's graze
    assert close(end(run(edge(8, abilities=["FLY"])), "stunned"), Fr(1, 6))
    assert close(end(run(edge(8, abilities=["HEAVY"])), "killed"), 0)


def test_a_fall_height_needs_an_edge():
    sc = edge(8)
    sc["knockback_into"] = "obstacle"
    with pytest.raises(ScenarioError, match=r"^fall: "):
        run(sc)


def test_throw_instead_of_doing_damage():
    # IX THROW: "On a tie in melee (or instead of doing damage), you may throw a smaller or equal
    # sized opponent 1" in any direction, as KB". 1W against 1W, a 3-hit defender thrown into an
    # obstacle: a stun (as a graze) is worth more to the attacker than 1 or 2 of 3 hits, so he throws
    # on every win (1/6*4/6 + 1/6*5/6 = 9/36); ties (16/36 + 1/36 + 1/36) throw as before.
    from .helpers import fight

    att = model(name="ogre", melee="1W", abilities=["THROW"])
    res = run(fight(att, model(name="d", hits=3, melee="1W"), knockback_into="obstacle", parry="never"))
    assert close(end(res, "stunned"), Fr(9, 36) + Fr(18, 36))
    assert close(res["hits_left"][3], 1)
    # into the open a throw does nothing: the attacker does damage instead
    res = run(fight(att, model(name="d", hits=3, melee="1W"), parry="never"))
    assert close(res["hits_left"][3], 1 - Fr(9, 36))


def test_throw_and_edge_exact_and_monte_carlo_agree():
    from tests.agreement import assert_agree

    from .helpers import fight

    att = model(name="ogre", melee="1W+1R", abilities=["THROW", "R"])
    sc = fight(att, model(name="d", hits=2, melee="1W+1R"), knockback_into="edge", fall=5)
    ex, mc = run(sc), run(sc, simulate=6000, seed=8)
    keys = ("damage", "condition", "hits_left", "attacker_condition")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 6000)
