"""Dive "+O", EXPLODE's "Bad Guy with one hit", MALFUNCTION against the opponent in melee and a
collapse's collateral damage (rules-crusade V, VI, VIII), from the text's sentences."""

from __future__ import annotations

from fractions import Fraction as Fr
from itertools import product

from grimdice.systems.crusade import RULES
from grimdice.systems.crusade.actions import collateral

from .helpers import close, end, fight, gun, model, run, shoot

W = (0, 0, 0, 0, 1, 2)
R = (0, 0, 0, 1, 2, 3)


def test_dive_attack_adds_a_red_die_and_no_rerolls():
    # V: "make a melee attack with +O, and neither you nor the defender can reroll" (reading dive_o:
    # O = one red die). 1W (+1R diving) against 1W, 1-hit defender: a margin of 2 or more kills.
    att = model(name="diver", melee="1W", abilities=["R"])
    dfd = model(name="victim", melee="1W", abilities=["R"])
    dive = run(fight(att, dfd, attack_mode="dive"))
    want = sum(Fr(1, 216) for w, r, d in product(W, R, W) if w + r - d >= 2)
    assert close(end(dive, "killed"), want)
    assert RULES.note("dive_o") in dive.notes
    assert dive.extra["resolved"]["attacker_dice"] == "1W+1R"
    assert dive.extra["resolved"]["attacker_rerolls"] == "none"
    assert RULES.note("dive_o") not in run(fight(att, dfd)).notes


def test_bad_guy_with_one_hit_is_killed_when_his_weapon_explodes():
    # VIII EXPLODE: two maxima of 2W fail (1/36); the weapon explodes; a one-hit Bad Guy is killed
    res = run(shoot([gun("2W", ["X", "S"])], attacker=model(name="cultist", abilities=["BAD GUY"])))
    assert close(res.extra["fail_effects"]["bearer_killed"], Fr(1, 36))
    two_hits = run(
        shoot([gun("2W", ["X", "S"])], attacker=model(name="ogryn", hits=2, abilities=["BAD GUY"]))
    )
    assert "bearer_killed" not in two_hits.extra["fail_effects"]


def test_malfunction_rolls_against_the_opponent_in_melee():
    # VIII MALFUNCTION: "roll the weapon dice vs. the user's armor (in melee, also roll against the
    # opponent)". 1W base + a 1W malfunctioning knife: both at 2 fail (1/36); the knife's 1W is then
    # rolled against the defender's armour 1: one point on a 2.
    att = model(name="a", melee="1W", weapons=[gun("1W", ["M", "S"], kind="melee", name="knife")])
    res = run(fight(att, model(name="d", armour=1, melee="1W"), parry="never"))
    d = res["malfunction_on_defender"]
    assert close(d[1], Fr(1, 36) * Fr(1, 6)) and close(d[0], 1 - Fr(1, 36) * Fr(1, 6))
    assert "malfunction_on_attacker" not in res.stages


def test_collateral_damage_to_a_connected_sector():
    # VI: "Roll 2 reds against any connected sectors": minus the sector's armour 1; a sector with
    # one hit left collapses on 2 or more (1 - P(0) - P(1) = 1 - 1/4 - 1/6)
    hits, falls = collateral(1, 1)
    assert close(falls, Fr(7, 12)) and close(hits[1], Fr(7, 12))
    hits, falls = collateral(2, 10)  # armoured: 2 reds of 5 or 6 (3+2, 3+3) do 3 or 4 hits
    assert close(hits[4], Fr(1, 36)) and close(hits[3], Fr(2, 36)) and falls == 0
