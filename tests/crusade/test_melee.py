"""Melee (rules-crusade IV, VIII, IX) against hand fractions, icepool and brute force."""

from fractions import Fraction as Fr

import icepool
import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import calculate
from tests.agreement import assert_agree
from tests.crusade.helpers import close, end, fight, gun, model, run


def brawler(**kw):
    return model(melee="1W", **kw)


def test_loser_attacker_takes_at_most_a_graze():
    res = run(fight(brawler(), brawler()))
    # A - D = 1: stun (unarmed graze), A - D = 2: kill; D > A: the attacker is only stunned
    assert close(end(res, "killed"), Fr(4, 36)) and close(end(res, "stunned"), Fr(5, 36))
    assert close(res.extra["attacker_end_state"]["stunned"], Fr(9, 36))
    assert close(res.extra["attacker_end_state"]["killed"], 0)


def test_contest_matches_icepool():
    white, red = icepool.Die([0, 0, 0, 0, 1, 2]), icepool.Die([0, 0, 0, 1, 2, 3])
    diff = (white + red) - (2 @ white)
    res = run(fight(model(melee="1W+1R"), model(melee="2W", hits=2)))
    # two hits: 1 point leaves 1 hit, 2 leave 0, 3+ kill
    assert res.extra["end_state"]["killed"] == pytest.approx((diff >= 3).probability(True))
    assert res["hits_left"][0] == pytest.approx((diff >= 2).probability(True))  # a killed model has 0


def test_parry_bonus_and_no_damage():
    knife = gun("1W", ["S"], kind="melee", name="knife")
    d = model(melee="1W", weapons=[knife])
    res = run(fight(brawler(), d, parry="always"))
    # defender 2W + 1 parry; attacker 1W must beat it: A = 2, D = 0 -> 2 - 1 = 1 hit
    p = Fr(1, 6) * Fr(16, 36)
    assert close(end(res, "stunned"), p) and close(res.extra["attacker_end_state"]["stunned"], 0)
    shield = gun("1W", ["S"], kind="shield", name="shield")
    res = run(fight(brawler(), model(melee="1W", weapons=[shield]), parry="always"))
    assert close(end(res, "unharmed"), 1)  # 2 - 0 - 2 = 0


def test_awkward_and_successive_opponents():
    res = run(fight(model(melee="1R"), model(melee="1W"), awkward=True))
    res2 = run(fight(model(melee="1R"), model(melee="1W"), opponent_number=2))
    scythe = run(
        fight(
            model(melee="1R", weapons=[gun("1W", ["SCYTHE"], "melee")]), model(melee="1W"), opponent_number=3
        )
    )
    plain = run(fight(model(melee="1R", weapons=[gun("1W", [], "melee")]), model(melee="1W")))
    assert close(end(res, "killed"), end(res2, "killed"))
    assert close(end(scythe, "killed"), end(plain, "killed"))


def test_optimal_parry_reported_and_rerolls_agree_with_simulation():
    att = model(melee="1W+1R", abilities=["R"], weapons=[gun("1R", ["W", "KB"], "melee", "sword")])
    dfd = model(melee="1W", hits=2, abilities=["+F"], weapons=[gun("1W", ["RO", "S"], "melee", "axe")])
    sc = fight(att, dfd, knockback_into="obstacle")
    ex = calculate(sc)
    assert 0 <= ex.extra["choices"]["defender_parries"] <= 1
    mc = calculate(sc, simulate=4000, seed=3)
    keys = ("damage", "models_destroyed", "condition", "hits_left", "attacker_condition", "fail")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 4000)


def test_nor_removes_rerolls_and_minus_r_downgrades():
    att = model(melee="1W", abilities=["R"], weapons=[gun("1W", ["RO"], "melee")])
    dfd = model(melee="1W", abilities=["NOR"])
    assert run(fight(att, dfd)).extra["resolved"]["attacker_rerolls"] == "none"
    dfd = model(melee="1W", abilities=["-R"])
    assert run(fight(att, dfd)).extra["resolved"]["attacker_rerolls"] == "R"


def test_errors_name_the_field():
    with pytest.raises(ScenarioError) as e:
        run(fight(model(melee="1W", weapons=[gun("1W", ["ZAP"], "melee")]), brawler()))
    assert e.value.field == "attacker.weapons.0.effects.0" and "allowed" in str(e.value)
    with pytest.raises(ScenarioError) as e:
        run(fight(model(melee="-1R"), brawler()))
    assert e.value.field == "attacker.melee"
    with pytest.raises(ScenarioError) as e:
        run(fight(model(), brawler()))
    assert e.value.field == "attacker.melee"


def test_too_large_rerolled_melee_is_refused():
    big = model(melee="6W+6R", abilities=["RO"])
    with pytest.raises(ScenarioError) as e:
        run(fight(big, model(melee="6W+6R", abilities=["RO"])))
    assert e.value.field == "attacker.melee" and "at most" in str(e.value)
