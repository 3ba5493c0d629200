"""IX MOB in the game, from the text's sentences: a joint melee of several models."""

from __future__ import annotations

import json

import pytest

from grimdice.engine.game import CHANCE
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import KILLED, NONE, STUNNED
from grimdice.systems.crusade.game import mob
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.scenario import build_setup
from tests.crusade_game.helpers import MARINE, STEALER, at, scenario, state
from tests.crusade_game.table_helpers import put
from tests.crusade_game.test_games import _checked_game
from tests.crusade_game.test_table import GANGER as TABLE_GANGER
from tests.crusade_game.test_table import GAP, game

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


@pytest.mark.parametrize("x", [3, 6])
def test_a_member_not_beside_the_target_is_not_moved_by_the_lead(x):
    # "Move the models first": each moves in its own activation (reading mob_joint), so a friend
    # that is not beside the target does not join from afar
    a = [at("Ganger", 1, 1), at("Ganger", x, 2)]
    s = state(LONG, a, [at("Brute", 2, 1)], profiles=[GANGER, BRUTE]).apply(("activate", 0))
    assert (("mob", 2, 1) in s.legal_actions()) == (x == 3)  # (3, 2) touches (2, 1) diagonally


def _moved_in(board, a, b, steps, profiles=(GANGER, BRUTE, STEALER), **kw):
    """Member 1 activated first, then ``steps`` (its move: answers to ZOCs too) and its action kept
    for the mob at the brute (token 2), then the lead (token 0) activated."""
    s = state(board, a, b, profiles=list(profiles), **kw).apply(("activate", 1))
    for step in steps:
        s = s.apply(step)
    assert ("join", 2) in s.legal_actions()
    s = s.apply(("join", 2))
    assert s.acted and s.mobbing == ((1, 2, s.round, s.player),)
    return s.apply(("end",)).apply(("activate", 0))


DOOR = """
#########
#...#...#
#...D...#
#...#...#
#########
"""


def test_a_member_comes_through_a_closed_door_in_its_own_move():
    # "Move the models first": the member opens the door (reading door_cost: a square of move) and
    # comes beside the brute with its move of 4, then keeps its action for the mob
    a = [at("Ganger", 5, 1), at("Ganger", 2, 2)]
    steps = [("move", 3, 2), ("open", 4, 2), ("move", 4, 2), ("move", 5, 2)]
    s = _moved_in(DOOR, a, [at("Brute", 6, 1)], steps)
    assert ("mob", 2, 1) in s.legal_actions()
    after = s.apply(("mob", 2, 1))
    assert after.tokens[1].sq == (5, 2) and after.pending[1] == "mob" and after.pending[6] == (1,)


def test_a_member_s_way_past_an_enemy_is_asked_its_zoc():
    # V ZOC: "If a troop moves within 1" of an enemy and then tries to move past the enemy, the enemy
    # may choose to make a "free" melee attack on the passer": the member passes the stealer at (3, 2)
    a = [at("Ganger", 6, 1), at("Ganger", 1, 1)]
    s = state(LONG, a, [at("Brute", 5, 1), at("Stealer", 3, 2)], profiles=[GANGER, BRUTE, STEALER])
    s = s.apply(("activate", 1)).apply(("move", 2, 1))
    asked = s.apply(("move", 3, 1))  # a step out of a square beside it
    assert asked.zoc and asked.current_player() == 1 and ("zoc", 3) in asked.legal_actions()
    s = asked.apply(("pass",)).apply(("move", 4, 1))  # reading zoc_once: it has had its choice
    assert not s.zoc and s.tokens[1].sq == (4, 1)
    s = s.apply(("join", 2)).apply(("end",)).apply(("activate", 0))
    assert ("mob", 2, 1) in s.legal_actions()


def test_a_member_comes_by_a_manhole_as_its_whole_move():
    # X: "Treat manholes as a 6" ladder"; V: "Tall ladders (3"-6") cost 1 full movement": a ganger
    # beyond the wall comes through the manhole in its own move, beside the brute
    board = "#######\n#..#..#\n#..#..#\n#######"
    manholes = {"manholes": [[[2, 1], [4, 1]]]}
    a = [at("Ganger", 5, 2), at("Ganger", 2, 1)]
    s = _moved_in(board, a, [at("Brute", 5, 1)], [("manhole", 4, 1)], grid=manholes)
    assert {m for m in s.legal_actions() if m[0] == "mob"} == {("mob", 2, 1)}


def test_a_kept_action_needs_a_lead_to_come_and_lasts_this_turn():
    a = [at("Ganger", 1, 1), at("Ganger", 3, 2)]
    s = state(LONG, a, [at("Brute", 2, 1)], profiles=[GANGER, BRUTE])
    member = s.apply(("activate", 1))
    assert ("join", 2) in member.legal_actions()
    assert ("join", 2) not in s.with_token(0, done=True).apply(("activate", 1)).legal_actions()  # no lead
    kept = member.apply(("join", 2))
    assert kept.acted and mob.kept(kept, 2) == {1}
    assert mob.kept(altered(kept, round=kept.round + 1), 2) == set()  # the next turn: gone
    away = kept.apply(("move", 4, 2)).apply(("end",)).apply(("activate", 0))
    assert not any(m[0] == "mob" for m in away.legal_actions())  # it left the target's side
    stays = kept.apply(("end",)).apply(("activate", 0))
    assert ("mob", 2, 1) in stays.legal_actions()
    stunned = kept.apply(("end",)).with_token(1, cond=STUNNED).apply(("activate", 0))
    assert not any(m[0] == "mob" for m in stunned.legal_actions())


def test_a_member_jumps_a_gap_on_a_table_in_its_own_move():
    # V JUMPING: the member's jump across the 2" gap is its roll (a chance node), as any model's;
    # made, it stands beside the brute and keeps its action for the mob; fallen, it cannot join
    mobber = dict(TABLE_GANGER, name="Mobber", abilities=["MOB"])
    brute = dict(BRUTE, move=4)
    s = game(GAP, [put("Mobber", 7, 3), put("Mobber", 3, 4)], [put("Brute", 7, 4)], [mobber, brute])
    s = s.apply(("activate", 1)).apply(("jump", 6, 4, 2))
    assert s.current_player() == CHANCE
    made = s.apply(("jump", 1))
    assert made.tokens[1].sq == (6, 4, 2) and ("join", 2) in made.legal_actions()
    lead = made.apply(("join", 2)).apply(("end",)).apply(("activate", 0))
    assert ("mob", 2, 1) in lead.legal_actions()
    fell = s.apply(("jump", 0))  # "If the roll is less, you fall": into the gap
    assert ("join", 2) not in fell.legal_actions()
    alone = fell.apply(("end",)).apply(("activate", 0))
    assert not any(a[0] == "mob" for a in alone.legal_actions())


def test_whole_games_of_mobs_keep_the_invariants_and_replay():
    a = [at("Ganger", 1, 1), at("Ganger", 1, 2), at("Ganger", 1, 3), at("Ganger", 2, 2)]
    b = [at("Brute", 4, 2), at("Marine", 5, 1)]
    setup = build_setup(scenario(HALL, a, b, profiles=[GANGER, BRUTE, MARINE], turns=4))
    kinds: set[str] = set()
    for seed, players in enumerate([("random", "random")] * 4 + [("ai", "random"), ("ai", "ai")]):
        kinds |= {a[0] for a in _checked_game(setup, players, seed)["actions"]}
    assert {"join", "mob"} <= kinds
