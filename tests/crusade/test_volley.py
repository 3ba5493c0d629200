"""VOLLEY FIRE (rules-crusade IX): "roll all of the white dice together in one big roll. For each
die that rolls something, you may reroll another one of the dice along with it to generate a "2
dice" roll ... You may reroll each die only once." Reading ``volley_fire`` (unverified): scoring
dice pair in order with blanks that are re-rolled; extra scoring dice pair with each other."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import product

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import RULES
from tests.agreement import assert_agree

from .helpers import close, end, gun, model, run, shoot

WHITE = (0, 0, 0, 0, 1, 2)


def volley(n: int, defender=None, dice: str = "2W", **kw):
    return shoot([gun(dice, ["S"], name="lasgun")], defender or model(name="marine"), volley=n, **kw)


def test_one_model_by_hand():
    # 2 whites: no scoring die 4/9 (no roll); one 4/9 (its face, 1 or 2, + the blank re-rolled);
    # both 1/9 (one kept pair, total >= 2). Armour 0, 1 hit: total >= 2 kills, 1 grazes (stun).
    res = run(volley(1, model(name="marine", condition="stunned")))
    kill = Fraction(4, 9) * (Fraction(1, 2) + Fraction(1, 2) * Fraction(2, 6)) + Fraction(1, 9)
    ko = Fraction(4, 9) * Fraction(1, 2) * Fraction(4, 6)  # 1 + blank: a graze; stunned + stun = KO
    assert close(end(res, "killed"), kill) and kill == Fraction(11, 27)
    assert close(end(res, "ko"), ko)
    assert close(res["rolls"][0], Fraction(4, 9)) and close(res["rolls"][1], Fraction(5, 9))
    assert RULES.note("volley_fire") in res.notes


def _oracle(n: int, armour: int, penalty: int) -> dict[str, Fraction]:
    """Every face of the big roll and of the re-rolls, paired literally in die order; a 1-hit target
    (graze = stun, stunned + stun = KO, a KO'd model changes only when killed)."""
    out: dict[str, Fraction] = defaultdict(Fraction)
    for big in product(range(6), repeat=2 * n):
        faces = [WHITE[i] for i in big]
        blanks = [i for i, f in enumerate(faces) if f == 0]
        scorers = [i for i, f in enumerate(faces) if f > 0]
        n_re = min(len(scorers), len(blanks))
        for again in product(range(6), repeat=n_re):
            rolls = [faces[scorers[j]] + WHITE[again[j]] for j in range(n_re)]
            rest = scorers[n_re:]
            rolls += [faces[rest[j]] + faces[rest[j + 1]] for j in range(0, len(rest) - 1, 2)]
            state = "unharmed"
            for total in rolls:
                dmg = total - penalty - armour
                if state == "killed" or dmg <= 0:
                    continue
                if dmg >= 2:
                    state = "killed"
                elif state == "unharmed":
                    state = "stunned"
                elif state == "stunned":
                    state = "ko"
            out[state] += Fraction(1, 6 ** (2 * n + n_re))
    return out


@pytest.mark.parametrize("n, armour, rng", [(1, 0, 0), (2, 0, 0), (2, 1, 13)])
def test_against_a_literal_brute_force(n, armour, rng):
    res = run(volley(n, model(name="marine", armour=armour), range=rng))
    want = _oracle(n, armour, rng // 12)
    assert sum(want.values()) == 1
    for state in ("unharmed", "stunned", "ko", "killed"):
        assert close(end(res, state), want[state]), state


def test_exact_and_monte_carlo_agree():
    sc = volley(4, model(name="marine", armour=1, hits=2, abilities=["+F"]), cover="front", range=5)
    ex, mc = run(sc), run(sc, simulate=6000, seed=3)
    keys = ("damage", "models_destroyed", "condition", "hits_left", "fail", "rolls")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 6000)


def test_fails_count_pairs_of_two_maxima():
    # one model: a re-rolled pair fails when the kept face is 2 and the re-roll is 2 (1/2 * 1/6),
    # the kept pair of two scorers when both show 2 (1/4)
    res = run(volley(1))
    assert close(res["fail"][1], Fraction(4, 9) * Fraction(1, 12) + Fraction(1, 9) * Fraction(1, 4))


@pytest.mark.parametrize("dice", ["2W+1", "1W+1R", "3W"])
def test_only_two_white_basic_weapons_volley(dice):
    with pytest.raises(ScenarioError, match=r"^volley: .*2 whites"):
        run(volley(2, dice=dice))


def test_volley_is_shooting_at_the_defender():
    with pytest.raises(ScenarioError, match=r"^volley: "):
        run({**volley(2), "action": "melee"})
    with pytest.raises(ScenarioError, match=r"^volley: "):
        run(volley(2, targets=[model(name="a")]))


def test_volley_with_a_reroll_or_jink_is_refused_not_ignored():
    with pytest.raises(ScenarioError, match=r"^volley: re-rolls"):
        run(shoot([gun("2W", ["S", "R"], name="lasgun")], model(name="m"), volley=2))
    with pytest.raises(ScenarioError, match=r"^volley: re-rolls"):
        run(volley(2, model(name="bike", abilities=["JINK"])))
