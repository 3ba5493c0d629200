"""IX MOB in the game, from the text's sentences: a joint melee of several models."""

from __future__ import annotations

import json

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import KILLED, NONE
from grimdice.systems.crusade.game.combat import cached_law
from tests.crusade_game.helpers import MARINE, STEALER, at, state

HALL = """
#######
#.....#
#.....#
#.....#
#######
"""

GANGER = {"name": "Ganger", "move": 4, "armour": 1, "hits": 1, "melee": "2R", "abilities": ["MOB"]}
LONER = dict(GANGER, name="Loner", abilities=["MOB-1"])
BRUTE = dict(MARINE, name="Brute", hits=2, melee="2R+1W", weapons=[])


def _game(lead="Ganger", mates=("Ganger", "Ganger", "Marine")):
    """The brute at (3, 2); the lead at (2, 2), mates at (3, 1), (3, 3), (4, 2), all around it."""
    spots = [(3, 1), (3, 3), (4, 2)]
    a = [at(lead, 2, 2)] + [at(m, x, y) for m, (x, y) in zip(mates, spots, strict=False)]
    s = state(HALL, a, [at("Brute", 3, 2)], profiles=[GANGER, LONER, BRUTE, MARINE, STEALER])
    return s.apply(("activate", 0))


def test_up_to_3_mob_models_at_a_single_target():
    # "Up to 3 of these models may combine their melee values against a single target!"
    brute = 4
    mobs = {a for a in _game().legal_actions() if a[0] == "mob"}
    assert mobs == {("mob", brute, 1), ("mob", brute, 2), ("mob", brute, 1, 2)}  # not the marine


def test_mob_1_with_one_other_model_of_any_kind():
    # "MOB-1: This one model may combine it's melee value with one other model of any kind."
    brute = 4
    mobs = {a for a in _game("Loner").legal_actions() if a[0] == "mob"}
    assert mobs == {("mob", brute, 1), ("mob", brute, 2), ("mob", brute, 3)}


def test_they_must_all_have_an_action_to_melee():
    s = _game()
    s = s.with_token(1, done=True)  # already activated this turn
    assert {a for a in s.legal_actions() if a[0] == "mob"} == {("mob", 4, 2)}


def _calc(key: str):
    return calculate(json.loads(key))


def test_the_single_melee_is_the_calculator_s_mob_melee():
    # "make a single melee attack that combines all the attackers' melees together"; "If they lose,
    # they must divide the hits up amongst the models"
    s = _game().apply(("mob", 4, 1, 2))
    assert s.acted and s.tokens[1].done and s.tokens[2].done
    key = s.pending[4]
    assert len(json.loads(key)["mob"]) == 2
    law = cached_law(key)
    res = _calc(key)
    killed = sum(p for (ds, *_), p in law if ds[0] == KILLED)
    assert killed == pytest.approx(res.extra["end_state"]["killed"])
    lost = {}
    for (_, ends, *_), p in law:
        n = sum(e[0] == KILLED for e in ends)
        lost[n] = lost.get(n, 0.0) + p
    want = res.stages["mob_models_destroyed"].to_dict()
    assert lost == pytest.approx({k: v for k, v in want.items() if v > 0})
    alone = _calc(json.dumps(dict(json.loads(key), mob=[])))
    assert killed > alone.extra["end_state"]["killed"]  # the mob's dice add up


def test_the_mob_s_losses_land_on_its_models():
    s = _game().apply(("mob", 4, 1, 2))
    law = cached_law(s.pending[4])
    k, ((_, ends, *_), _) = next((k, o) for k, o in enumerate(law) if sum(e[0] != NONE for e in o[0][1]) >= 2)
    after = s.apply(("attack", k))
    assert [(after.tokens[m].cond, after.tokens[m].hits) for m in (0, 1, 2)] == list(ends)


def test_a_mob_the_calculator_refuses_is_not_offered():
    # the calculator's exact bounds: 9R against 1W+3R, both re-rolling, is too large a re-roll game
    big = dict(GANGER, melee="3R", abilities=["MOB", "R"])
    brute = dict(BRUTE, melee="3R+1W", abilities=["R"])
    a = [at("Ganger", 2, 2), at("Ganger", 3, 1), at("Ganger", 3, 3)]
    s = state(HALL, a, [at("Brute", 3, 2)], profiles=[big, brute])
    mobs = {a for a in s.apply(("activate", 0)).legal_actions() if a[0] == "mob"}
    assert mobs == {("mob", 3, 1), ("mob", 3, 2)}  # two of them, not three


def test_not_a_mob_at_a_model_out_of_reach():
    s = _game()
    with pytest.raises(ValueError, match="may not mob"):
        s.apply(("mob", 3, 1))  # a friend, not an adjacent enemy


LONG = """
###########
#.........#
#.........#
###########
"""


@pytest.mark.parametrize(("x", "joins"), [(6, True), (9, False)])
def test_move_the_models_first(x, joins):
    # "Move the models first, then make a single melee attack": a member within its move (4) of a
    # free place beside the target comes to the nearest one
    a = [at("Ganger", 1, 1), at("Ganger", x, 2)]
    s = state(LONG, a, [at("Brute", 2, 1)], profiles=[GANGER, BRUTE]).apply(("activate", 0))
    assert (("mob", 2, 1) in s.legal_actions()) == joins
    if joins:
        after = s.apply(("mob", 2, 1))
        assert after.tokens[1].sq == (3, 2) and after.tokens[1].done  # 3 steps; (3, 1) would be 4


def test_a_member_comes_by_a_manhole_as_its_whole_move():
    # "Move the models first"; X: "Treat manholes as a 6" ladder"; V: "Tall ladders (3"-6") cost 1
    # full movement": a ganger beyond the wall joins through the manhole, as its whole move
    board = "#######\n#..#..#\n#..#..#\n#######"
    manholes = {"manholes": [[[2, 1], [4, 1]]]}

    def mobs(member):
        a = [at("Ganger", 5, 2), at("Ganger", *member)]
        s = state(board, a, [at("Brute", 5, 1)], profiles=[GANGER, BRUTE], grid=manholes)
        s = s.apply(("activate", 0))
        return s, {m for m in s.legal_actions() if m[0] == "mob"}

    s, offered = mobs((2, 1))  # on the manhole: through it to (4, 1), beside the brute
    assert offered == {("mob", 2, 1)}
    assert s.apply(("mob", 2, 1)).tokens[1].sq == (4, 1)
    assert mobs((1, 1))[1] == set()  # a step to the manhole first: then no move is left for it
