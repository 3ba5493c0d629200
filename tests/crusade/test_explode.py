"""EXPLODE's attack on the bearer and the models near him (rules-crusade VIII EXPLODE: "On a fail,
make an attack from the weapon, centered on the bearer (SFT=1"A, FT=2"A, HFT=3"A). The weapon is
lost. "Bad Guy" models with one hit should automatically be treated as killed if their weapon
explodes"; III: the failing weapon is drawn at random among those used)."""

from fractions import Fraction
from itertools import product

import icepool
import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import calculate
from tests.agreement import assert_agree
from tests.crusade.helpers import close, gun, model, run, shoot

# 2W+1R fails with two or more maxima among three dice each at its maximum with 1/6
P_FAIL = 3 * Fraction(1, 6) ** 2 * Fraction(5, 6) + Fraction(1, 6) ** 3  # 16/216
# a total of exactly 1: one white 1 (the others 0), or the red 1 (the whites 0)
P_ONE = 2 * Fraction(1, 6) * Fraction(4, 6) * Fraction(3, 6) + Fraction(4, 6) ** 2 * Fraction(1, 6)
P_ZERO = Fraction(4, 6) ** 2 * Fraction(3, 6)


def _flamer(code="FT", near=(), **kw):
    sc = shoot([gun("2W+1R", ["X", "S", code])], model(armour=1), range=3, **kw)
    sc["explode_near"] = list(near)
    return sc


def test_bearer_and_models_within_the_radius_by_hand():
    near = [model(name="buddy", range=1.5, armour=1), model(name="far", range=2.5)]
    res = run(_flamer("FT", near))  # FT: a 2" radius
    bearer = res.targets["explosion: shooter (bearer)"].extra["end_state"]
    # armour 0, one hit: a total of 1 stuns (graze, S), 2 or more kills
    assert close(bearer["stunned"], P_FAIL * P_ONE)
    assert close(bearer["killed"], P_FAIL * (1 - P_ONE - P_ZERO))
    buddy = res.targets["explosion: buddy"].extra["end_state"]
    # armour 1: a total of 2 stuns, 3 or more kills (the total's law from the icepool oracle)
    die = icepool.Die([0, 0, 0, 0, 1, 2]) + icepool.Die([0, 0, 0, 0, 1, 2]) + icepool.Die([0, 0, 0, 1, 2, 3])
    p2 = Fraction(die.probability(2))
    p3 = Fraction(die.probability(">=", 3))
    assert close(buddy["stunned"], P_FAIL * p2)
    assert close(buddy["killed"], P_FAIL * p3)
    assert close(res.targets["explosion: far"].extra["end_state"]["unharmed"], 1)
    assert res.targets["explosion: far"].extra["in_radius"] == {"gun": False}
    # SFT: 1" radius, buddy at 1.5" is out; HFT: 3", the far model at 2.5" is in
    assert close(run(_flamer("SFT", near)).targets["explosion: buddy"].extra["end_state"]["unharmed"], 1)
    far = run(_flamer("HFT", near)).targets["explosion: far"].extra["end_state"]
    assert close(far["unharmed"], 1 - P_FAIL * (1 - P_ZERO))
    assert any("explode_radius" in n for n in res.notes)


def test_failing_weapon_drawn_among_those_used():
    """Two weapons fired together (1W+1R exploding, 1W not): a fail explodes the first with 1/2."""
    sc = shoot([gun("1W+1R", ["X"], name="fl"), gun("1W", [], name="las")], model(armour=5))
    res = run(sc)
    # 2W+1R together: P(fail) = 16/216; half of it is the flamer's; its total of 1 stuns the bearer
    bearer = res.targets["explosion: shooter (bearer)"].extra["end_state"]
    p_one = Fraction(1, 6) * Fraction(3, 6) + Fraction(4, 6) * Fraction(1, 6)  # W1 R0 or W0 R1
    assert close(bearer["stunned"], P_FAIL / 2 * p_one)


def test_bad_guy_bearer_with_one_hit_is_killed():
    a = model(name="cultist", abilities=["BAD GUY"])
    res = run(shoot([gun("2W+1R", ["X", "FT"])], model(armour=1), attacker=a))
    assert close(res.targets["explosion: cultist (bearer)"].extra["end_state"]["killed"], P_FAIL)


def test_explode_near_needs_an_exploding_weapon():
    sc = shoot([gun("2W+1R", ["J"])], model())
    sc["explode_near"] = [model(name="x", range=1)]
    with pytest.raises(ScenarioError, match="explode_near"):
        calculate(sc)


def test_explosion_exact_and_monte_carlo_agree():
    near = [model(name="buddy", range=1, armour=1, abilities=["+F"], hits=2)]
    sc = _flamer("FT", near, cover="front")
    ex, mc = calculate(sc), calculate(sc, simulate=6000, seed=4)
    for name, sub in ex.targets.items():
        keys = ("damage", "condition", "hits_left")
        assert_agree({k: sub[k] for k in keys}, {k: mc.targets[name][k] for k in keys}, 6000)


def test_explosion_folded_into_the_result_by_hand():
    """The attack's own result carries the bearer's end state and the count the explosion kills
    (the bearer and each model near him rolled separately: independent given the fail)."""
    near = [model(name="buddy", range=1.5, armour=1), model(name="far", range=2.5)]
    res = run(_flamer("FT", near))
    die = icepool.Die([0, 0, 0, 0, 1, 2]) + icepool.Die([0, 0, 0, 0, 1, 2]) + icepool.Die([0, 0, 0, 1, 2, 3])
    kb = 1 - P_ONE - P_ZERO  # the bearer (armour 0, one hit) killed by a total of 2 or more
    kn = Fraction(die.probability(">=", 3))  # buddy (armour 1) killed by 3 or more; far is out
    boom = res["explosion_models_destroyed"]
    assert close(boom[2], P_FAIL * kb * kn)
    assert close(boom[1], P_FAIL * (kb * (1 - kn) + (1 - kb) * kn))
    assert close(boom[0], 1 - P_FAIL * (1 - (1 - kb) * (1 - kn)))
    bearer = res.targets["explosion: shooter (bearer)"]
    for k in range(5):
        assert close(res["bearer_condition"][k], bearer["condition"][k])
    assert close(res["bearer_condition"][4], P_FAIL * kb)
    # the attack's own stages are unchanged by the fold
    assert "damage" in res.stages and "models_destroyed" in res.stages


def _melee_bearer():
    axe = gun("1W", ["X", "S"], kind="melee", name="axe")
    return {
        "system": "crusade",
        "action": "melee",
        "parry": "never",
        "attacker": model(name="ogryn", melee="1W", weapons=[axe]),
        "defender": model(name="foe", melee="2R", hits=3),
    }


def test_melee_explosion_on_the_state_the_melee_left():
    """IV: a losing attacker takes a graze (the unarmed defender's: a stun); VIII EXPLODE: his axe
    (1W, S) then explodes on him where his 2W roll failed (both whites at 2): a 1 stuns a stunned
    bearer again (Stun + Stun = KO), a 2 kills. Written out over every face."""
    w, r = (0, 0, 0, 0, 1, 2), (0, 0, 0, 1, 2, 3)
    law = {c: Fraction(0) for c in ("unharmed", "stunned", "ko", "killed")}
    for a1, a2, d1, d2 in product(w, w, r, r):
        p = Fraction(1, 6**4)
        state = "stunned" if d1 + d2 > a1 + a2 else "unharmed"
        if not (a1 == a2 == 2):
            law[state] += p
            continue
        for e in w:
            if e == 0:
                law[state] += p / 6
            elif e == 1:
                law["ko" if state == "stunned" else "stunned"] += p / 6
            else:
                law["killed"] += p / 6
    res = run(_melee_bearer())
    got = res["bearer_condition"]
    for k, name in enumerate(("unharmed", "stunned", "wounded", "ko", "killed")):
        assert close(got[k], law.get(name, 0)), name
    assert law["ko"] > 0  # the joint law matters: a KO needs the lost melee and the fail together
    assert close(res["explosion_models_destroyed"][1], Fraction(1, 36) / 6)
    sub = res.targets["explosion: ogryn (bearer)"].extra["end_state"]
    assert close(sub["ko"], law["ko"])


def test_melee_explosion_exact_and_monte_carlo_agree():
    sc = _melee_bearer()
    sc["explode_near"] = [model(name="buddy", range=0.5)]
    ex, mc = calculate(sc), calculate(sc, simulate=6000, seed=12)
    keys = ("bearer_condition", "bearer_hits_left", "explosion_models_destroyed", "attacker_condition")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 6000)


def _melee_defending_bearer(**axe_codes):
    club = gun("1R", ["S"], kind="melee", name="club")
    axe = gun("1W", ["X", "S", *axe_codes.get("extra", ())], kind="melee", name="axe")
    return {
        "system": "crusade",
        "action": "melee",
        "parry": "never",
        "attacker": model(name="brute", melee="2R", weapons=[club]),
        "defender": model(name="foe", melee="1W", weapons=[axe]),
    }


def test_defender_explosion_in_melee_by_hand():
    """VIII EXPLODE for the defender: his 1W + axe 1W fails on two whites at 2 (D = 4); the
    attacker's 3R (club S) then stuns him on a margin of 1 and kills him on 2 or more; the axe (1W,
    S) explodes on the state the melee left: a 1 stuns (a stunned man is KO'd), a 2 kills. Every
    face written out."""
    w, r = (0, 0, 0, 0, 1, 2), (0, 0, 0, 1, 2, 3)
    law = {c: Fraction(0) for c in ("unharmed", "stunned", "ko", "killed")}
    killed_by_boom = Fraction(0)
    for a1, a2, a3, d1, d2 in product(r, r, r, w, w):
        p = Fraction(1, 6**5)
        margin = a1 + a2 + a3 - d1 - d2
        state = "killed" if margin >= 2 else "stunned" if margin == 1 else "unharmed"
        if not (d1 == d2 == 2):
            law[state] += p
            continue
        for e in w:
            if e == 0 or state == "killed":
                law[state] += p / 6
            elif e == 1:
                law["ko" if state == "stunned" else "stunned"] += p / 6
            else:
                law["killed"] += p / 6
                killed_by_boom += p / 6
    res = run(_melee_defending_bearer())
    got = res["defender_bearer_condition"]
    for k, name in enumerate(("unharmed", "stunned", "wounded", "ko", "killed")):
        assert close(got[k], law.get(name, 0)), name
    assert law["ko"] > 0  # the joint law matters: a KO needs the stun and the fail together
    assert close(res["defender_explosion_models_destroyed"][1], killed_by_boom)
    sub = res.targets["explosion: foe (defender, bearer)"].extra["end_state"]
    assert close(sub["ko"], law["ko"])
    assert "bearer_condition" not in res.stages  # the attacker's club does not explode


def test_defender_explosion_exact_and_monte_carlo_agree():
    sc = _melee_defending_bearer()
    ex, mc = calculate(sc), calculate(sc, simulate=6000, seed=5)
    keys = ("defender_bearer_condition", "defender_bearer_hits_left", "defender_explosion_models_destroyed")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 6000)


def test_defender_explosion_with_a_radius_is_refused():
    with pytest.raises(ScenarioError, match=r"defender\.weapons: .*base contact"):
        calculate(_melee_defending_bearer(extra=("SFT",)))


def test_target_near_the_bearer_is_one_model_by_hand():
    """The model shot at also stands 1.5" from the bearer (FT: 2"): the explosion finds him on the
    state the shot left him in. 1W+1R fails only on W2 R3 (a total of 5: 2 hits off a 3-hit, armour
    3 target, 1 left); the explosion's 1W+1R then stuns him on a 4 (1 hit on his last: a graze) and
    kills him on a 5. As a fresh model he would only lose hits."""
    target = model(name="ogre", armour=3, hits=3)
    sc = shoot([gun("1W+1R", ["X", "S", "FT"])], target, range=3)
    sc["explode_near"] = [{**target, "range": 1.5}]
    res = run(sc)
    p_fail = Fraction(1, 36)
    kt = Fraction(1, 36)  # the explosion's total of 5 kills him on his last hit
    kb = 1 - Fraction(4, 6) * Fraction(3, 6)  # the bearer (armour 0, 1 hit) killed by 2 or more
    kb -= Fraction(1, 6) * Fraction(3, 6) + Fraction(4, 6) * Fraction(1, 6)
    sub = res.targets["explosion: ogre"].extra["end_state"]
    assert close(sub["killed"], p_fail * kt)
    assert close(sub["stunned"], p_fail * 2 * Fraction(1, 36))  # a 4: W2 R2 or W1 R3
    boom = res["explosion_models_destroyed"]
    assert close(boom[2], p_fail * kb * kt)
    assert close(boom[1], p_fail * (kb * (1 - kt) + (1 - kb) * kt))
    assert res["condition"][4] == 0  # the shot alone never kills him


def test_target_near_the_bearer_exact_and_monte_carlo_agree():
    target = model(name="ogre", armour=2, hits=2)
    sc = shoot([gun("2W+1R", ["X", "S", "FT"])], target, range=3)
    sc["explode_near"] = [{**target, "range": 1}]
    ex, mc = calculate(sc), calculate(sc, simulate=6000, seed=9)
    keys = ("damage", "condition", "hits_left")
    assert_agree(
        {k: ex.targets["explosion: ogre"][k] for k in keys},
        {k: mc.targets["explosion: ogre"][k] for k in keys},
        6000,
    )
    assert_agree({"n": ex["explosion_models_destroyed"]}, {"n": mc["explosion_models_destroyed"]}, 6000)


def test_attacked_model_near_the_bearer_in_melee_is_refused():
    sc = _melee_bearer()
    sc["explode_near"] = [model(name="foe", range=0.5, melee="2R", hits=3)]
    with pytest.raises(ScenarioError, match=r"explode_near\.0: foe is attacked"):
        calculate(sc)


def test_models_destroyed_count_by_hand():
    # one of two weapons used explodes on a fail of P 1/2: P(explosion) = 1/4; it kills the bearer
    # with 1/2 and the model near him with 1/4, independently given the explosion
    from types import SimpleNamespace

    from grimdice.systems.crusade.explode import _models_destroyed

    state = (0, 1)
    arm = SimpleNamespace(name="flamer")
    law = _models_destroyed([arm], {state: (1.0, 0.5)}, {("flamer", state): [0.5, 0.25]}, 2, 2)
    boom = Fraction(1, 4)
    expected = [
        1 - boom + boom * Fraction(1, 2) * Fraction(3, 4),
        boom * (Fraction(1, 2) * Fraction(3, 4) + Fraction(1, 2) * Fraction(1, 4)),
        boom * Fraction(1, 2) * Fraction(1, 4),
    ]
    assert law.pmf_from_zero() == pytest.approx([float(p) for p in expected], abs=1e-15)


def test_models_near_the_bearer_in_their_order_with_the_attacked_target_as_itself():
    # VIII EXPLODE "centered on the bearer": the bearer first at range 0, then each listed model
    from grimdice.io.scenario import validate
    from grimdice.systems.crusade.explode import _near
    from grimdice.systems.crusade.profiles import Scenario

    sc = validate(
        Scenario, _flamer(near=[model(name="a", range=1.5), model(name="m", range=2, cover="full")])
    )
    near = _near(sc, sc.attacker, False, shot={})
    assert [(m.name, r, c, b) for m, r, c, b in near] == [
        ("shooter", 0.0, "none", True),
        ("a", 1.5, "none", False),
        ("m", 2.0, "full", False),
    ]
    assert near[2][0] is sc.defender
    assert _near(sc, sc.attacker, True, shot=None) == near[:1]  # a defender's explosion: himself only
