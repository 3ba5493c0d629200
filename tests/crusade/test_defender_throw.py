"""The defender's THROW and the size rules of THROW and KNOCKBACK (rules-crusade IX THROW: "On a tie
in melee (or instead of doing damage), you may throw a smaller or equal sized opponent 1" in any
direction, as KB"; VIII KNOCKBACK: "HEAVY and BIG models ignore Knockback, unless being meleed by a
target equal to or larger than them in size"; V: "SMALL < normal models < HEAVY < BIG")."""

from fractions import Fraction

from grimdice.systems.crusade import calculate
from tests.agreement import assert_agree
from tests.crusade.helpers import close, fight, gun, model, run

# 1W attacker against a 1R defender, one hit each, unarmed (a graze stuns)
P_LOSE = Fraction(4, 6) * Fraction(3, 6) + Fraction(1, 6) * Fraction(2, 6) + Fraction(1, 6) * Fraction(1, 6)
P_TIE = Fraction(4, 6) * Fraction(3, 6) + Fraction(1, 6) * Fraction(1, 6) + Fraction(1, 6) * Fraction(1, 6)


def _edge(defender_abilities, attacker_abilities=()):
    att = model(name="a", melee="1W", abilities=list(attacker_abilities))
    dfd = model(name="d", melee="1R", abilities=list(defender_abilities))
    return fight(att, dfd, parry="never", knockback_into="edge", fall=8)


def test_defender_throws_instead_of_his_graze():
    """Thrown off an edge 8" up: a fall of 2 hits kills a 1-hit attacker, better for the defender
    than the stun of his graze: he throws on every win (15/36), and on every tie (14/36)."""
    res = run(_edge(["THROW"]))
    att = res.extra["attacker_end_state"]
    assert close(att["killed"], P_LOSE + P_TIE)
    assert close(att["stunned"], 0)
    assert close(res.extra["choices"]["defender_throws"], P_LOSE)
    assert close(res.extra["choices"]["attacker_throws"], 0)
    plain = run(_edge([]))  # without THROW the win is a graze (stun) and a tie does nothing
    assert close(plain.extra["attacker_end_state"]["stunned"], P_LOSE)
    assert close(plain.extra["attacker_end_state"]["killed"], 0)


def test_defender_throw_into_the_open_is_not_taken():
    res = run(fight(model(melee="1W"), model(melee="1R", abilities=["THROW"]), parry="never"))
    assert close(res.extra["choices"]["defender_throws"], 0)
    assert close(res.extra["attacker_end_state"]["stunned"], P_LOSE)


def test_throw_needs_a_smaller_or_equal_opponent():
    """A SMALL defender cannot throw a normal attacker (neither on a win nor on a tie); a HEAVY
    attacker is thrown by a HEAVY defender (equal size), not by a normal one (he ignores KB)."""
    small = run(_edge(["THROW", "SMALL"]))
    assert close(small.extra["attacker_end_state"]["killed"], 0)
    assert close(small.extra["attacker_end_state"]["stunned"], P_LOSE)
    heavy_vs_normal = run(_edge(["THROW"], ["HEAVY"]))
    assert close(heavy_vs_normal.extra["attacker_end_state"]["killed"], 0)
    heavy_vs_heavy = run(_edge(["THROW", "HEAVY"], ["HEAVY"]))
    assert close(heavy_vs_heavy.extra["attacker_end_state"]["killed"], P_LOSE + P_TIE)


def test_heavy_ignores_knockback_unless_meleed_by_an_equal_or_larger_model():
    """A tie with a KB weapon into an obstacle stuns; 1W vs 1W ties with 4/6*4/6 + 2*(1/6)^2 = 18/36."""
    tie = Fraction(18, 36)
    for att_ab, dfd_ab, stunned in (
        ([], ["HEAVY"], 0),
        (["HEAVY"], ["HEAVY"], tie),
        (["BIG"], ["HEAVY"], tie),
    ):
        att = model(melee="0", abilities=att_ab, weapons=[gun("1W", ["KB"], "melee", "club")])
        res = run(fight(att, model(melee="1W", abilities=dfd_ab), parry="never", knockback_into="obstacle"))
        # a win by 1 also stuns (graze); only the tie's stun depends on the size rule
        win1 = Fraction(4, 6) * Fraction(1, 6) + Fraction(1, 6) * Fraction(1, 6)
        assert close(res.extra["end_state"]["stunned"], win1 + stunned), (att_ab, dfd_ab)


def test_defender_throw_exact_and_monte_carlo_agree():
    att = model(name="a", melee="1W+1R", abilities=["R", "+F"])
    dfd = model(name="d", melee="1R+1W", abilities=["THROW", "R"], weapons=[gun("1W", ["W"], "melee", "axe")])
    sc = fight(att, dfd, knockback_into="edge", fall=8, parry="never")
    ex, mc = calculate(sc), calculate(sc, simulate=6000, seed=3)
    keys = ("damage", "condition", "attacker_condition", "attacker_hits_left", "fail")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 6000)
    p = ex.extra["choices"]["defender_throws"]
    assert p > 0
    assert abs(mc.extra["choices"]["defender_throws"] - p) <= 5 * (p * (1 - p) / 6000) ** 0.5 + 2 / 6000


def test_throw_choices_in_the_json_contract():
    choices = run(_edge(["THROW"])).to_json()["choices"]
    assert set(choices) >= {"attacker_throws", "defender_throws"}
