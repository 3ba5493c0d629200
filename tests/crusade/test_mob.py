"""IX MOB: "If they lose, they must divide the hits up amongst the models as they see fit until all
the hits taken have been assigned, or all the mobbing models are eliminated" (reading
``mob_losses``: the whole difference is divided, optimally for the mob)."""

from __future__ import annotations

from fractions import Fraction as Fr

import icepool

from grimdice.systems.crusade import calculate
from tests.agreement import assert_agree
from tests.crusade.helpers import FACES, close, fight, model


def _mob(**kw):
    lead = model(name="boy", melee="1W", abilities=["MOB"])
    return fight(
        lead, model(name="nob", melee="2R"), mob=[model(name="boy2", melee="1W")], parry="never", **kw
    )


def test_losing_mob_divides_every_hit_by_hand():
    # 2W against 2R; the unarmed defender's graze stuns. Two 1-hit boys: 1 hit stuns the lead, 2 hits
    # stun both (nobody killed beats one killed), 3 kill one and stun the other, 4 or more kill both
    diff = (2 @ icepool.Die(FACES["R"])) - (2 @ icepool.Die(FACES["W"]))
    p3 = Fr(diff.probability(3))
    p4 = Fr(diff.probability(">=", 4))
    p12 = Fr(diff.probability(1)) + Fr(diff.probability(2))
    res = calculate(_mob())
    killed = res["mob_models_destroyed"]
    assert close(killed[1], p3) and close(killed[2], p4)
    assert res.extra["choices"]["mob_division"]["1"] == [1, 0]
    assert res.extra["choices"]["mob_division"]["2"] == [1, 1]
    assert res.extra["choices"]["mob_division"]["3"] == [2, 1]
    lead = res.extra["attacker_end_state"]
    assert close(lead["stunned"], p12) and close(lead["killed"], p3 + p4)
    assert any("mob_losses" in n for n in res.notes)


def test_a_single_loser_still_takes_one_graze():
    # without a mob the losing attacker takes at most one hit, as a graze (IV)
    res = calculate(fight(model(melee="2W"), model(melee="2R"), parry="never"))
    assert res.extra["attacker_end_state"]["killed"] == 0
    assert "mob_models_destroyed" not in res.stages


def test_the_mob_spreads_hits_over_multi_hit_models():
    # lead 1 hit, second boy 3 hits: 2 hits go on the tough one (hits lost, nobody harmed)
    lead = model(name="boy", melee="1W", abilities=["MOB"])
    sc = fight(
        lead, model(name="nob", melee="2R"), mob=[model(name="ork", melee="1W", hits=3)], parry="never"
    )
    div = calculate(sc).extra["choices"]["mob_division"]
    assert div["2"] == [0, 2] and div["3"] == [0, 3]
    assert div["4"] == [1, 3]  # the lead stunned, the ork at 0 hits left, nobody killed


def test_mob_exact_and_monte_carlo_agree():
    lead = model(name="boy", melee="1W+1R", abilities=["MOB-3", "R"], hits=2)
    sc = fight(
        lead,
        model(name="nob", melee="2R+1W", abilities=["+F"], hits=2),
        mob=[model(name="b2", melee="1W"), model(name="b3", melee="1R", condition="wounded")],
    )
    ex, mc = calculate(sc), calculate(sc, simulate=6000, seed=21)
    keys = ("mob_models_destroyed", "mob_ko_or_killed", "attacker_condition", "condition")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 6000)


def test_a_throwing_defender_moves_the_lead_attacker():
    """IX THROW against a MOB (reading ``mob_throw``): on a tie the defender throws the lead boy
    into an obstacle (a stun); losing, the mob divides the hits as before."""
    sc = fight(
        model(name="boy", melee="1W", abilities=["MOB"]),
        model(name="nob", melee="2R", abilities=["THROW"]),
        mob=[model(name="boy2", melee="1W")],
        parry="never",
        knockback_into="obstacle",
    )
    diff = (2 @ icepool.Die(FACES["R"])) - (2 @ icepool.Die(FACES["W"]))
    p_tie = Fr(diff.probability(0))
    p12 = Fr(diff.probability(1)) + Fr(diff.probability(2))
    res = calculate(sc)
    lead = res.extra["attacker_end_state"]
    assert close(lead["stunned"], p_tie + p12)
    assert close(res["mob_models_destroyed"][2], Fr(diff.probability(">=", 4)))
    assert any("mob_throw" in n for n in res.notes)
