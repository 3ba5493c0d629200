"""III "The firing result still applies": P(fail and each result) for every weapon with a fail, and
VIII MALFUNCTION's roll against the user as his end state; by hand fractions."""

from fractions import Fraction as Fr

from grimdice.systems.crusade import calculate
from tests.crusade.helpers import close, gun, model, shoot

# two whites (faces 0,0,0,0,1,2): the law of their total, written out
TWO_W = {0: Fr(16, 36), 1: Fr(8, 36), 2: Fr(9, 36), 3: Fr(2, 36), 4: Fr(1, 36)}


def test_fail_joined_with_each_result_for_every_weapon():
    # a fail is both whites at 2: the total is then 4, which kills a 0-armour 1-hit target;
    # the failing weapon is drawn between the two weapons used (III)
    sc = shoot(
        [gun("1W", ["S", "J"], name="bolter"), gun("1W", ["S", "BREAK"], kind="pistol", name="pistol")]
    )
    by = calculate(sc).extra["fail_effects"]["by_result"]
    for name in ("bolter", "pistol"):
        assert close(by[name]["killed"], Fr(1, 72)) and by[name]["unharmed"] == 0.0


def test_malfunction_rolls_at_the_user_and_reports_his_condition():
    # "On a fail, roll the weapon dice vs. the user's armor": 2W at a 0-armour 1-hit user, graze = stun
    res = calculate(shoot([gun("2W", ["S", "M"])], attacker=model(name="user")))
    fail = Fr(1, 36)
    cond = res["self_condition"]
    assert close(cond[1], fail * TWO_W[1])  # one point on 1 hit: a graze (stun)
    assert close(cond[4], fail * (TWO_W[2] + TWO_W[3] + TWO_W[4]))
    assert close(cond[0], 1 - fail * (1 - TWO_W[0]))
    assert close(res["self_hits_left"][0], fail * (TWO_W[2] + TWO_W[3] + TWO_W[4]))


def test_malfunction_user_state_agrees_with_monte_carlo():
    from tests.agreement import assert_agree

    sc = shoot([gun("2W+1R", ["W", "M"])], attacker=model(name="user", hits=2))
    ex, mc = calculate(sc), calculate(sc, simulate=20000, seed=3)
    assert_agree({"c": ex["self_condition"]}, {"c": mc["self_condition"]}, 20000)


def test_many_targets_fail_joined_with_each_target_and_malfunctions_in_turn():
    # a flamer template rolls 2W per target; each failed roll's MALFUNCTION rolls 2W at the user in
    # turn (on the state the last one left): stun on 1 point, kill on 2+; stunned + stun = KO
    targets = [model(name="a"), model(name="b")]
    sc = shoot([gun("2W", ["S", "M", "FT"])], targets=targets, attacker=model(name="user"))
    res = calculate(sc)
    f, stun, kill = Fr(1, 36), TWO_W[1], TWO_W[2] + TWO_W[3] + TWO_W[4]
    two = f * f
    one = 2 * f * (1 - f)
    cond = res["self_condition"]
    assert close(cond[4], one * kill + two * kill * (1 + TWO_W[0] + stun))
    assert close(cond[3], two * stun * stun)
    # a fail (both whites at 2: 4 points) kills the target it was rolled at; with a roll failed at
    # b, a's own roll (not failed) kills on 2 or 3 points or stuns on 1
    by = res.extra["fail_effects"]["by_result"]["gun"]
    assert close(by["0: a"]["killed"], f + (kill - f) * f)
    assert close(by["0: a"]["stunned"], stun * f)


def test_line_fail_joined_with_every_target():
    sc = shoot([gun("2W", ["S", "J", "LINE"])], targets=[model(name="a"), model(name="b")])
    by = calculate(sc).extra["fail_effects"]["by_result"]["gun"]
    for name in ("0: a", "1: b"):
        assert close(by[name]["killed"], Fr(1, 36)) and by[name]["unharmed"] == 0.0


def test_volley_fail_joined_with_the_result():
    # one model's 2 whites: one scores (4/9), is a 2 half the time and its re-rolled blank a 2 with
    # 1/6; both score as 2s with 1/36. A fail is 2 + 2 = 4 points: the target is killed.
    sc = shoot([gun("2W", ["S", "J"], name="lasgun")], model(name="marine"), volley=1)
    by = calculate(sc).extra["fail_effects"]["by_result"]["lasgun"]
    fail = Fr(4, 9) * Fr(1, 2) * Fr(1, 6) + Fr(1, 36)
    assert close(by["killed"], fail) and by["unharmed"] == 0.0
    mc = calculate(sc, simulate=20000, seed=5).extra["fail_effects"]["by_result"]["lasgun"]
    assert abs(mc["killed"] - float(fail)) < 5 * (float(fail) / 20000) ** 0.5
    two = shoot(
        [gun("2W", ["S", "J"], name="lasgun")], model(), volley=2, targets=[model(name="a"), model(name="b")]
    )
    many = calculate(two)
    assert set(many.extra["fail_effects"]["by_result"]["lasgun"]) == {"0: a", "1: b"}
    assert "self_condition" not in many.stages


def test_melee_malfunction_rolls_at_the_user_and_the_opponent():
    # "in melee, also roll against the opponent": 1W + an axe 1W (M) against 1R. A fail is both
    # whites at 2 (1/36): the attacker's 4 beats any red, so he is unharmed, and the defender
    # (1 hit) is killed unless the red is a 3 (stunned, 1/6). The axe's 1W then rolls at each:
    # 1 stuns (a stunned defender: KO), 2 kills.
    from tests.crusade.helpers import fight

    axe = gun("1W", ["S", "M"], kind="melee", name="axe")
    res = calculate(fight(model(name="a", melee="1W", weapons=[axe]), model(name="d", melee="1R")))
    fail = Fr(1, 36)
    own, melee = res["self_condition"], res["attacker_condition"]  # with and without the axe's roll
    assert close(own[1] - melee[1], fail / 6) and close(own[4] - melee[4], fail / 6)
    assert close(res["malfunction_defender_condition"][3], fail * Fr(1, 6) * Fr(1, 6))
