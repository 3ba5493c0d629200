"""Each part of a melee (rules-crusade IV, VIII, IX) on its own, against the rule text by hand.

IV: "Highest roll wins- the difference is the number of hits on the loser- but if the attacker is
the loser, they will take a maximum of one hit (as a graze) ... Awkward melee= -1 to your melee roll
... You can choose to pull back a successful melee- choose any amount less than your roll ... Take a
-1 (cumulative) to your roll for each successive opponent you melee, unless you have a weapon that
scythes." PARRYING: "add +1 to your roll ... If you are using a SHIELD in melee, you add +2".
"""

from __future__ import annotations

from grimdice.io.scenario import validate
from grimdice.systems.crusade.damage import KILLED, NONE, STUNNED, WOUNDED
from grimdice.systems.crusade.melee import (
    MeleeOutcome,
    melee_arms,
    melee_dice,
    melee_effects,
    melee_pools,
    parrying,
)
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.resolution import THROW
from grimdice.systems.crusade.units import fighter
from tests.crusade.helpers import fight, gun, model


def _parts(sc_dict):
    sc = validate(Scenario, sc_dict)
    att, dfd = fighter(sc.attacker, "attacker"), fighter(sc.defender, "defender")
    arms, d_arms, grapple, kinds = melee_arms(sc, att, dfd)
    members = [(att.start, att.body)]
    a_pool, d_pool = melee_pools(sc, att, dfd, arms, d_arms, grapple, kinds, members)
    return sc, att, dfd, arms, d_arms, grapple, a_pool, d_pool, members


def _outcome(sc_dict) -> MeleeOutcome:
    sc, att, dfd, arms, d_arms, _, a_pool, d_pool, members = _parts(sc_dict)
    dice = melee_dice(sc, att, dfd, arms, a_pool, d_pool)
    return MeleeOutcome(att, dfd, dice, melee_effects(sc, att, dfd, arms, d_arms), tuple(members), None)


SWORD = gun("1R", ["W"], kind="melee", name="sword")
PISTOL = gun("1W", ["S"], kind="pistol", name="pistol")


def test_dice_are_base_melee_plus_weapons_and_pistols():
    # PISTOLS IN MELEE: "add their dice to your total melee dice"
    *_, a_pool, d_pool, _ = _parts(fight(model(melee="1W+1", weapons=[SWORD, PISTOL]), model(melee="2W")))
    assert (a_pool.white, a_pool.red, a_pool.plus) == (2, 1, 1)
    assert (d_pool.white, d_pool.red, d_pool.plus) == (2, 0, 0)


def test_awkward_wounded_successive_opponent_modifiers():
    # IV: awkward -1; the 3rd successive opponent -2 more; a wounded defender -1 (WOUND: awkward)
    sc_dict = fight(
        model(melee="1W+1", weapons=[SWORD]),
        model(melee="2W", condition="wounded"),
        awkward=True,
        opponent_number=3,
    )
    sc, att, dfd, arms, _, _, a_pool, d_pool, _ = _parts(sc_dict)
    dice = melee_dice(sc, att, dfd, arms, a_pool, d_pool)
    assert (dice.a_mod, dice.d_mod) == (1 - 1 - 2, -1)
    # a weapon that scythes takes no successive-opponent penalty
    scythe = gun("1R", ["W", "SCYTHE"], kind="melee", name="scythe")
    sc, att, dfd, arms, _, _, a_pool, d_pool, _ = _parts(
        {**sc_dict, "attacker": model(melee="1W+1", weapons=[scythe])}
    )
    assert melee_dice(sc, att, dfd, arms, a_pool, d_pool).a_mod == 1 - 1


def test_dive_attack_adds_a_red_die():
    sc, att, dfd, arms, _, _, a_pool, d_pool, _ = _parts(
        fight(model(melee="1W"), model(melee="1W"), attack_mode="dive")
    )
    dice = melee_dice(sc, att, dfd, arms, a_pool, d_pool)
    assert (dice.a_pool.white, dice.a_pool.red) == (1, 1)


def test_parry_bonus_needs_a_melee_weapon_and_a_shield_gives_two():
    shield = gun("1W", [], kind="shield", name="shield")
    for d_weapons, expected in (
        ([], ((0,), False)),
        ([SWORD], ((0, 101), True)),
        ([SWORD, shield], ((0, 102), True)),
    ):
        sc, _, dfd, arms, d_arms, grapple, *_ = _parts(
            fight(model(melee="1W"), model(melee="1W", weapons=d_weapons))
        )
        options, _, may = parrying(sc, dfd, arms, d_arms, grapple)
        assert (options, may) == expected
    # PASS PARRY: "Opponent parries are at -1 (so shields only parry at +1, regular parries are useless!)"
    passer = gun("1W", ["S", "PASS PARRY"], kind="melee", name="pp")
    sc, _, dfd, arms, d_arms, grapple, *_ = _parts(
        fight(model(melee="1W", weapons=[passer]), model(melee="1W", weapons=[SWORD, shield]), parry="always")
    )
    assert parrying(sc, dfd, arms, d_arms, grapple)[:2] == ((101,), 1)


def test_winner_hits_the_loser_by_the_difference_or_pulls_back():
    out = _outcome(fight(model(melee="1W"), model(melee="1W", hits=3)))
    # totals 3 vs 1: two hits (no graze codes: a 3-hit model loses two hits)
    ds, as_, dmg, admg, tie = out(3, 1, 0, 99, 0, 0)
    assert (ds, dmg, admg, bool(tie)) == ((NONE, 1), 2, 0, False)
    # pulled back to 1: one hit; pulled back to 0: a tie
    assert out(3, 1, 0, 1, 0, 0)[:3] == ((NONE, 2), as_, 1)
    assert out(3, 1, 0, 0, 0, 0)[4] is True
    # a force field's red die comes off the damage (IX +F)
    assert out(3, 1, 0, 99, 0, 2)[2] == 0


def test_losing_attacker_takes_one_hit_as_a_graze_and_a_parry_win_is_a_tie():
    out = _outcome(fight(model(melee="1W"), model(melee="1W", weapons=[SWORD])))
    ds, as_, dmg, admg, _ = out(0, 2, 0, 99, 0, 0)
    assert (ds, dmg, admg) == ((NONE, 1), 0, 1)
    assert as_ == (WOUNDED, 1)  # the sword's graze code W on a 1-hit model
    # parrying at +1: 1 + 1 >= 2 is a tie, and no one is harmed
    assert out(2, 1, 101, 99, 0, 0)[4] is True
    assert out(2, 1, 101, 99, 0, 0)[:3] == ((NONE, 1), (NONE, 1), 0)


def test_throw_instead_of_damage_knocks_the_loser_back():
    out = _outcome(
        fight(model(melee="1W", abilities=["THROW"]), model(melee="1W"), knockback_into="obstacle")
    )
    ds, _, dmg, _, _ = out(3, 0, 0, THROW, 0, 0)
    assert dmg == 0 and ds[0] in (STUNNED, KILLED)  # VIII KNOCKBACK into an obstacle: a stun or worse
