"""Kill Team fights: hand-computed fractions and provably best choices in small fights.

Each expectation is derived by hand from the 2021 rules (Roll Attack Dice, Resolve Successful
Hits, and each weapon rule's text in the seed rules file).
"""

import json

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.killteam.fight import (
    Duel,
    Fighter,
    FightKeys,
    Hits,
    Move,
    Objective,
    Resolution,
    ResolutionState,
    fight_result,
    solve_fight,
)
from grimdice.systems.killteam.rules import WeaponRules
from tests.killteam.helpers import fighter


def F(name="op", wounds=10, attacks=1, hit=4, nd=3, cd=4, **kw):
    return fighter(name, wounds, attacks, hit, nd, cd, **kw)


def resolve(att, dfd, an, ac, dn, dc):
    """Wounds left (attacker, defender) once both sides resolve the given retained dice."""
    duel = Duel(att, dfd)
    t = Resolution(duel, FightKeys(duel)).outcome(Hits(an, ac), Hits(dn, dc))
    return t.attacker_wounds, t.defender_wounds


def test_one_die_each_hand_fractions():
    # any attacker hit (4+: 1/2) kills a 3-wound defender before it strikes back; the defender's
    # hit (3+) kills the 3-wound attacker only as a critical hit (6: damage 3; normal damage 2)
    att = F("a", wounds=3, hit=4, nd=3, cd=4)
    dfd = F("d", wounds=3, hit=3, nd=2, cd=3)
    sol = solve_fight(att, dfd)
    assert sol.p_defender_incapacitated == pytest.approx(1 / 2, abs=1e-12)
    assert sol.p_attacker_incapacitated == pytest.approx(1 / 2 * 1 / 6, abs=1e-12)
    # attacker survives with 1 wound when it missed and the defender rolled a normal hit (3..5)
    assert sol.wounds_left[1, 3] == pytest.approx(1 / 2 * 3 / 6, abs=1e-12)
    assert sol.wounds_left.sum() == pytest.approx(1.0, abs=1e-12)
    assert sol.damage_dealt.mean() == pytest.approx(3 * 1 / 2, abs=1e-12)


def test_parry_saves_the_operative_when_survival_matters():
    # the attacker (W3) has one die: a critical hit parries the defender's lethal critical hit;
    # a normal hit cannot parry it. Defender: hit 2, Lethal 2+ -> every success (5/6) is a crit.
    dfd = F("d", wounds=10, hit=2, lethal=2, nd=3, cd=3)
    survive = solve_fight(F("a", wounds=3, hit=2, nd=1, cd=1, objective=Objective.SURVIVE), dfd)
    assert survive.p_attacker_incapacitated == pytest.approx(5 / 6 * 5 / 6, abs=1e-12)
    # for KILL (no kill possible) the tie-break, damage dealt, makes it strike instead
    kill = solve_fight(F("a", wounds=3, hit=2, nd=1, cd=1), dfd)
    assert kill.p_attacker_incapacitated == pytest.approx(5 / 6, abs=1e-12)


def test_one_wound_left_defender_parries_rather_than_trade():
    att = F("a", wounds=10, nd=1, cd=1)
    # attacker 2 normal hits; the defender (W2) takes 1, then with 1 wound left must parry the second
    survive = F("d", wounds=2, nd=1, cd=1, objective=Objective.SURVIVE)
    assert resolve(att, survive, 2, 0, 1, 0)[1] == 1
    taken = F("d", wounds=2, nd=1, cd=1, objective=Objective.DAMAGE_TAKEN)
    assert resolve(att, taken, 2, 0, 1, 0) == (10, 1)
    # KILL can't kill (1 damage vs 10 wounds): tie-break damage dealt -> strike, and it dies
    killer = F("d", wounds=2, nd=1, cd=1, objective=Objective.KILL)
    assert resolve(att, killer, 2, 0, 1, 0) == (9, 0)


def test_attacker_parries_first_to_deny_a_lethal_strike():
    # attacker W2 with 1 crit (damage 1) vs defender 1 crit (damage 2): striking first lets the
    # defender kill; a survival-minded attacker parries the crit with its crit
    att = F("a", wounds=2, nd=1, cd=1, objective=Objective.SURVIVE)
    dfd = F("d", wounds=10, nd=2, cd=2)
    assert resolve(att, dfd, 0, 1, 0, 1) == (2, 10)
    assert resolve(F("a", wounds=2, nd=1, cd=1), dfd, 0, 1, 0, 1) == (0, 9)


def test_brutal_opponent_parries_only_with_crits():
    att = F("a", wounds=10, nd=1, cd=1, brutal=True)
    dfd = F("d", wounds=2, nd=1, cd=1, objective=Objective.SURVIVE)
    # the survival parry of the previous test is no longer open: the defender is incapacitated
    assert resolve(att, dfd, 2, 0, 1, 0)[1] == 0

    def state(a):  # defender to move, one normal hit each
        return ResolutionState(Duel(a, dfd), 1, (Hits(1, 0), Hits(1, 0)), (10, 1), (0, 0))

    assert Move.PARRY_NORMAL not in state(att).legal_actions()
    assert Move.PARRY_NORMAL in state(F("a")).legal_actions()
    # a critical hit still parries
    assert resolve(att, dfd, 2, 0, 0, 1)[1] == 1


def test_stun_first_critical_strike_discards_a_normal_hit():
    dfd = F("d", wounds=10, nd=5, cd=5)
    # attacker: 1 crit; defender: 1 normal (damage 5). Without Stun the defender strikes back.
    assert resolve(F("a", nd=1, cd=1), dfd, 0, 1, 1, 0) == (5, 9)
    assert resolve(F("a", nd=1, cd=1, stun=True), dfd, 0, 1, 1, 0) == (10, 9)


def test_stun_second_critical_strike_costs_apl():
    # attacker: 2 dice, every success a crit (hit 2, Lethal 2+: 5/6 each); defender one die, only
    # a 6 succeeds (a crit, damage 1 to a W10 attacker)
    att = F("a", attacks=2, hit=2, lethal=2, nd=1, cd=1, stun=True)
    d = dict(wounds=10, hit=6, nd=1, cd=1)
    # KILL defender (no kill possible) strikes back (damage dealt), so every attacker crit strikes
    sol = solve_fight(att, F("d", **d))
    assert sol.apl_lost["defender"][1] == pytest.approx(25 / 36, abs=1e-12)
    # a DAMAGE_TAKEN defender parries the attacker's second crit with its crit (1/6)
    sol = solve_fight(att, F("d", objective=Objective.DAMAGE_TAKEN, **d))
    assert sol.apl_lost["defender"][1] == pytest.approx(25 / 36 * 5 / 6, abs=1e-12)
    assert "defender_apl_lost" in fight_result(att, F("d", **d)).stages


def test_rending_turns_a_normal_hit_into_a_critical_hit():
    # attacker 2 dice at 4+ (crit 1/6, normal 2/6); the defender's one die succeeds only on a 6
    # (damage 0), and then it parries the attacker's second crit. Two crit strikes need the
    # defender to fail (5/6) and two retained crits: 1/36 without Rending, 1/36 + 2*(1/6)(2/6) with.
    d = F("d", wounds=10, hit=6, nd=0, cd=0)
    plain = solve_fight(F("a", attacks=2, hit=4, nd=1, cd=3), d)
    rend = solve_fight(F("a", attacks=2, hit=4, nd=1, cd=3, rending=True), d)
    assert plain.critical_strikes["attacker"][2] == pytest.approx(5 / 6 * 1 / 36, abs=1e-12)
    assert rend.critical_strikes["attacker"][2] == pytest.approx(5 / 6 * 5 / 36, abs=1e-12)


def test_rending_is_a_choice():
    # used when a crit is worth more than a normal hit; declined when it is worth less
    d = F("d", wounds=20)
    better = solve_fight(F("a", attacks=2, nd=1, cd=3, rending=True), d).tables.rend
    worse = solve_fight(F("a", attacks=2, nd=3, cd=1, rending=True), d).tables.rend
    assert tuple(better[1, 1, 0, 0]) == (0, 2, 0, 0)
    assert tuple(worse[1, 1, 0, 0]) == (1, 1, 0, 0)


@pytest.mark.parametrize(("hit", "lethal", "p_crit"), [(3, 5, 2 / 6), (4, 6, 1 / 6), (6, 5, 1 / 6)])
def test_lethal(hit, lethal, p_crit):
    # Lethal x+: successful hits of x or more are crits (a 5 with WS 6+ is no success at all).
    # One die against a defender that can't act first: the attacker strikes its crit at once.
    sol = solve_fight(F("a", hit=hit, lethal=lethal), F("d", wounds=20))
    assert sol.critical_strikes["attacker"][1] == pytest.approx(p_crit, abs=1e-12)


def test_reap_reports_mortal_wounds_per_critical_strike():
    att = F("a", attacks=2, hit=2, lethal=2, nd=1, cd=1, reap=2)
    res = fight_result(att, F("d", wounds=20, hit=6, nd=0, cd=0, objective=Objective.DAMAGE_DEALT))
    reap = res["reap_mortal_wounds"]
    # the defender (damage 0) deals nothing either way, so its tie-break (damage taken) makes it
    # parry the attacker's second crit with a 6: 2 crit strikes need both attacker dice to
    # succeed (25/36) and the defender's die to fail (5/6)
    assert reap[4] == pytest.approx(25 / 36 * 5 / 6, abs=1e-12)
    assert set(reap.to_dict()) <= {0, 2, 4}
    assert res["damage"].mean() == pytest.approx(res["critical_strikes"].mean(), abs=1e-12)


def test_result_contract_and_json():
    att = F("a", attacks=3, hit=3, rending=True, balanced=True, reap=1)
    dfd = F("d", attacks=3, hit=4, ceaseless=True, objective=Objective.DAMAGE_TAKEN)
    res = fight_result(att, dfd, title="duel")
    assert res.system == "killteam" and res.method == "exact" and res.title == "duel"
    for stage in (
        "damage",
        "models_destroyed",
        "hits",
        "damage_taken",
        "attacker_incapacitated",
        "defender_wounds_left",
        "attacker_wounds_left",
        "reap_mortal_wounds",
    ):
        assert res[stage].total() == pytest.approx(1.0, abs=1e-12), stage
    assert res["models_destroyed"][1] == pytest.approx(res.extra["p_defender_incapacitated"])
    assert res["damage"].pmf_from_zero()[0] == pytest.approx(res["defender_wounds_left"][10])
    out = json.loads(json.dumps(res.to_json()))
    assert out["system"] == "killteam"
    assert out["objectives"]["defender"]["objective"] == "damage_taken"
    assert out["policy"]["resolution"][0]["moves"][0].startswith("attacker ")
    assert {r["reroll"] for r in out["policy"]["attacker_rerolls"] if isinstance(r["reroll"], str)}
    sim = fight_result(att, dfd, simulate=500, seed=1)
    assert sim.method == "simulated" and sim.trials == 500 and set(sim.stages) == set(res.stages)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("wounds", 0),
        ("attacks", 0),
        ("hit", 7),
        ("hit", 1),
        ("lethal", 1),
        ("normal_damage", -1),
        ("reap", -1),
        ("rending", "yes"),
        ("objective", "win"),
        ("wounds", 2.5),
    ],
)
def test_bad_values(field, value):
    kw = dict(name="Nob", wounds=5, attacks=3, hit=3, normal_damage=3, critical_damage=4)
    if field in ("lethal", "reap", "rending"):  # weapon rules: given as the fighter's WeaponRules
        kw["rules"] = WeaponRules(**{field: value})
        field = f"rules.{field}"
    else:
        kw[field] = value
    with pytest.raises(ScenarioError) as e:
        Fighter(**kw)
    assert e.value.field == f"Nob.{field}"
    assert "allowed: " in e.value.message
