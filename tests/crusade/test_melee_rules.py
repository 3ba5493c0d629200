"""Melee special rules (rules-crusade IV, VIII, IX), each from its sentence, by enumeration of faces."""

from fractions import Fraction as Fr
from itertools import product

import pytest

from grimdice.errors import ScenarioError
from tests.crusade.helpers import close, end, fight, gun, model, run

W = (0, 0, 0, 0, 1, 2)
R = (0, 0, 0, 1, 2, 3)


def law(att, dfd):
    """P over (attacker total, defender total) of two face lists."""
    out = {}
    for a in product(*att):
        for d in product(*dfd):
            k = (sum(a), sum(d))
            out[k] = out.get(k, 0) + Fr(1, 6 ** (len(a) + len(d)))
    return out


def p(att, dfd, pred):
    return sum(q for (a, d), q in law(att, dfd).items() if pred(a, d))


def test_pistol_adds_its_dice_in_melee_and_can_fail():
    att = model(melee="1W", weapons=[gun("1R", ["J"], "pistol", "pistol")])
    res = run(fight(att, model(melee="1W")))
    assert close(end(res, "killed"), p([W, R], [W], lambda a, d: a - d >= 2))
    # IV: maxima on any two dice of the melee fail the pistol (white 2 and red 3)
    assert close(res.extra["fail_effects"]["effects"]["jam"], Fr(1, 36))


def test_spiky_only_when_defending_or_zoc():
    spiky = gun("1R", [], "spiky", "spikes")
    res = run(fight(model(melee="1W", weapons=[spiky]), model(melee="1W")))
    assert close(end(res, "killed"), p([W], [W], lambda a, d: a - d >= 2))
    res = run(fight(model(melee="1W", weapons=[spiky]), model(melee="1W"), attack_mode="zoc"))
    assert close(end(res, "killed"), p([W, R], [W], lambda a, d: a - d >= 2))
    res = run(fight(model(melee="1W"), model(melee="1W", weapons=[spiky]), parry="never"))
    assert close(end(res, "killed"), p([W], [W, R], lambda a, d: a - d >= 2))


def test_grapple_base_dice_only_and_anyone_parries():
    sword = gun("2R", ["K"], "melee", "sword")
    res = run(
        fight(model(melee="1W", abilities=["GRAPPLE"], weapons=[sword]), model(melee="1W"), parry="never")
    )
    assert close(end(res, "killed"), p([W], [W], lambda a, d: a - d >= 2))
    res = run(fight(model(melee="1W", abilities=["GRAPPLE"]), model(melee="1W"), parry="always"))
    assert close(end(res, "killed"), p([W], [W], lambda a, d: a - d - 1 >= 2))


def test_mob_combines_melee_values():
    res = run(fight(model(melee="1W", abilities=["MOB"]), model(melee="1W"), mob=[model(melee="1R")]))
    assert close(end(res, "killed"), p([W, R], [W], lambda a, d: a - d >= 2))
    with pytest.raises(ScenarioError) as e:
        run(fight(model(melee="1W"), model(melee="1W"), mob=[model(melee="1R")]))
    assert e.value.field == "mob"


def test_swarm_loses_a_red_per_hit_and_takes_at_most_one():
    swarm = model(melee="2R", hits=3, hits_left=2, abilities=["SWARM"])
    res = run(fight(model(melee="2R"), swarm))
    assert close(res["hits_left"][1], p([R, R], [R], lambda a, d: a > d))  # 1 hit at most
    assert close(end(res, "killed"), 0)


def test_plague_wounds_on_a_tie_and_a_parrying_win_is_a_tie():
    att = model(melee="1W", abilities=["POISON"])
    res = run(fight(att, model(melee="1W"), parry="never"))
    # a win by 1 would only stun (unarmed graze): the attacker pulls back to a tie and wounds (IV)
    assert close(end(res, "wounded"), p([W], [W], lambda a, d: a == d or a - d == 1))
    assert close(res.extra["choices"]["attacker_pulls_back"], p([W], [W], lambda a, d: a - d == 1))
    knife = gun("1W", [], "melee", "knife")
    res = run(fight(att, model(melee="1W", weapons=[knife]), parry="always"))
    # parrying: a defender roll (2W + 1) >= the attacker's is a tie -> the attacker's poison wounds
    # and a win by 1 is again pulled back to a tie
    assert close(end(res, "wounded"), p([W], [W, W], lambda a, d: d + 1 >= a or a - (d + 1) == 1))


def test_knockback_and_throw_on_a_melee_tie():
    res = run(fight(model(melee="1W", abilities=["THROW"]), model(melee="1W"), knockback_into="obstacle"))
    assert close(end(res, "stunned"), p([W], [W], lambda a, d: a == d or a - d == 1))
    heavy = model(melee="1W", abilities=["HEAVY"])
    res = run(fight(model(melee="1W", abilities=["THROW"]), heavy, knockback_into="obstacle"))
    assert close(end(res, "stunned"), p([W], [W], lambda a, d: a - d == 1))


def test_pass_parry_and_penetrating_parries():
    knife = gun("1W", [], "melee", "knife")
    dfd = model(melee="1W", weapons=[knife])
    res = run(fight(model(melee="1R", weapons=[gun("1W", ["-P"], "melee")]), dfd, parry="always"))
    assert close(end(res, "killed"), p([R, W], [W, W], lambda a, d: a - d >= 2))  # parry at +0
    shield = gun("1W", [], "shield", "shield")
    dfd = model(melee="1W", weapons=[shield])
    res = run(fight(model(melee="1R", weapons=[gun("1W", ["+P"], "melee")]), dfd, parry="always"))
    assert close(end(res, "killed"), p([R, W], [W, W], lambda a, d: a - d >= 2))  # +P ignores parries


def test_kill_is_ko_and_wounded_attacker_is_awkward():
    axe = gun("1R", ["KILL=KO", "K"], "melee", "maul")
    res = run(fight(model(melee="1W", weapons=[axe]), model(melee="1W")))
    assert close(end(res, "killed"), 0) and close(end(res, "ko"), p([W, R], [W], lambda a, d: a > d))
    res = run(fight(model(melee="1R", condition="wounded"), model(melee="1W")))
    assert close(end(res, "killed"), p([R], [W], lambda a, d: a - 1 - d >= 2))
    res = run(fight(model(melee="1R", condition="wounded", abilities=["FRENZY"]), model(melee="1W")))
    assert close(end(res, "killed"), p([R], [W], lambda a, d: a - d >= 2))


def test_stunned_defender_is_meleed_at_awkward():
    res = run(fight(model(melee="1R"), model(melee="1W", condition="stunned")))
    # stunned + a graze stun = KO; 2+ points kill
    assert close(end(res, "ko"), p([R], [W], lambda a, d: a - (d - 1) == 1))
