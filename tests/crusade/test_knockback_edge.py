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
