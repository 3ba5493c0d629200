"""The grid game's rules, each from a sentence of the Rules Crusade text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grimdice.engine.game import CHANCE
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.actions import unjam_chance
from grimdice.systems.crusade.damage import KILLED, KO, NONE, STUNNED, WOUNDED
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.state import JAMMED, READY, UNLOADED, invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER, at, state

HALL = """
##########
#........#
#........#
#........#
##########
"""


def kinds(s):
    return {a[0] for a in s.legal_actions()}


def test_roll_off_for_first_player():
    # I: "Scenario determines who goes first (or roll off for first player)."
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], first="roll-off")
    assert s.current_player() == CHANCE
    assert sorted(s.chance_outcomes()) == [(("first", 0), 0.5), (("first", 1), 0.5)]
    assert s.apply(("first", 1)).current_player() == 1
    s2 = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], first=1)
    assert s2.current_player() == 1


def test_each_model_once_then_the_other_player():
    # I: "A player must finish with all their models before the next player's turn can begin.
    # ... You must finish with one model before starting the next."
    s = state(HALL, [at("Marine", 1, 1), at("Marine", 1, 3)], [at("Stealer", 8, 3)])
    assert s.legal_actions() == [("activate", 0), ("activate", 1)]
    s = s.apply(("activate", 0))
    assert all(a[0] != "activate" for a in s.legal_actions())
    s = s.apply(("end",))
    assert s.legal_actions() == [("activate", 1)] and s.player == 0
    s = s.apply(("activate", 1)).apply(("end",))
    assert s.player == 1 and s.round == 1 and s.legal_actions() == [("activate", 2)]
    s = s.apply(("activate", 2)).apply(("end",))
    assert s.player == 0 and s.round == 2  # the next round; models may act again
    assert s.legal_actions() == [("activate", 0), ("activate", 1)]


def test_turn_limit_ends_the_game_with_hold_objectives():
    objectives = [{"name": "Hold", "kind": "hold", "squares": [[1, 1]], "points": 2}]
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], turns=1, objectives=objectives)
    s = s.apply(("activate", 0)).apply(("end",)).apply(("activate", 1)).apply(("end",))
    assert s.ended and s.winner == 0 and s.returns() == (1.0, -1.0)


def test_normal_move_in_squares_no_diagonal():
    # I: "Each model may move their normal move"; X: "Diagonal move is not permitted."
    s = state(HALL, [at("Marine", 4, 2)], [at("Stealer", 1, 1)]).apply(("activate", 0))
    moves = {a[1:] for a in s.legal_actions() if a[0] == "move"}
    assert moves == {(3, 2), (5, 2), (4, 1), (4, 3)}
    for step in [(5, 2), (6, 2), (7, 2), (7, 3)]:
        s = s.apply(("move", *step))
    assert s.budget == 0 and not any(a[0] == "move" for a in s.legal_actions())  # move 4 spent


def test_extra_full_move_is_the_action():
    # I ACTIONS: "Take an extra full move"
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)]).apply(("activate", 0))
    s = s.apply(("extra",))
    assert s.budget == 8 and s.acted and "shoot" not in kinds(s)


def test_action_before_or_after_moving():
    # I: "You may perform the action before OR after moving."
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 1)]).apply(("activate", 0))
    shot = ("shoot", 1, "bolter")
    assert shot in s.legal_actions()
    after = s.apply(shot)
    assert after.current_player() == CHANCE
    after = after.apply(after.chance_outcomes()[0][0])
    assert "move" in kinds(after) and "shoot" not in kinds(after)  # one action, then the move
    moved = s.apply(("move", 1, 2))
    assert ("shoot", 1, "bolter") in moved.legal_actions()


def test_no_moving_into_walls_or_models_and_ducts_for_light_armour():
    board = "#####\n#.=.#\n#...#\n#####"
    s = state(board, [at("Marine", 1, 1)], [at("Stealer", 1, 2)]).apply(("activate", 0))
    assert {a[1:] for a in s.legal_actions() if a[0] == "move"} == set()  # duct (armour 2), model, walls
    s = state(board, [at("Marine", 3, 2)], [at("Stealer", 1, 1)], first=1).apply(("activate", 1))
    assert ("move", 2, 1) in s.legal_actions()  # X: ducts for 1 or less armour


def test_doors_open_for_a_square_of_move_and_block_sight():
    board = "#######\n#..D..#\n#######"
    s = state(board, [at("Marine", 2, 1)], [at("Stealer", 5, 1)]).apply(("activate", 0))
    assert "shoot" not in kinds(s)
    s = s.apply(("open", 3, 1))
    assert s.budget == 3 and ("shoot", 1, "bolter") in s.legal_actions()


def test_line_of_sight_needed_and_hidden_models_are_not_targets():
    # II: "you must have line of sight (LOS) and they may not be hidden"
    board = "#######\n#..#..#\n#.....#\n#######"
    s = state(board, [at("Marine", 1, 1)], [at("Stealer", 5, 1)]).apply(("activate", 0))
    assert "shoot" not in kinds(s)
    s = state(board, [at("Marine", 1, 2)], [at("Stealer", 5, 2)])
    s = s.with_token(1, hidden=True).apply(("activate", 0))
    assert "shoot" not in kinds(s)


def test_darkness_is_cover_and_allows_hiding():
    # V: "If you are in cover, you may Hide (including cover from smoke or darkness)."
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 1)], grid={"dark": [[1, 1]]})
    s = s.apply(("activate", 0))
    assert ("hide",) in s.legal_actions()
    assert ("hide",) not in s.apply(("move", 2, 1)).legal_actions()  # out of the dark


def test_hidden_model_revealed_when_an_enemy_moves_into_sight():
    # V HIDING: "if you or your enemy moves such that they have direct line of sight to you ...
    # you will be Revealed"
    board = "#######\n#.#...#\n#.....#\n#######"
    s = state(board, [at("Marine", 1, 1)], [at("Stealer", 4, 1)]).with_token(1, hidden=True)
    s = s.apply(("activate", 0))
    assert s.tokens[1].hidden
    s = s.apply(("move", 1, 2))
    assert not s.tokens[1].hidden


def test_shot_law_is_calculate_for_the_same_situation():
    # the game's combat results equal calculate() for the same situation: 7 squares, no cover
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 1)]).apply(("activate", 0))
    s = s.apply(("shoot", 1, "bolter"))
    law = cached_law(s.pending[4])
    assert [p for _, p in s.chance_outcomes()] == [p for _, p in law]
    killed = sum(p for (ds, *_), p in law if ds[0] == KILLED)
    mine = {k: v for k, v in MARINE.items() if k != "move"}
    theirs = {k: v for k, v in STEALER.items() if k != "move"}
    res = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "range": 7,
            "weapons": ["bolter"],
            "attacker": mine,
            "defender": theirs,
        }
    )
    assert killed == pytest.approx(res.extra["end_state"]["killed"], abs=1e-12)
    # in the dark, 13 squares away: full cover and -1 for the full foot
    far = "#" * 16 + "\n#" + "." * 14 + "#\n" + "#" * 16
    s2 = state(far, [at("Marine", 1, 1)], [at("Stealer", 14, 1)], grid={"dark": "all"}).apply(("activate", 0))
    s2 = s2.apply(("shoot", 1, "bolter"))
    res2 = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "range": 13,
            "cover": "full",
            "weapons": ["bolter"],
            "attacker": mine,
            "defender": theirs,
        }
    )
    killed2 = sum(p for (ds, *_), p in cached_law(s2.pending[4]) if ds[0] == KILLED)
    assert killed2 == pytest.approx(res2.extra["end_state"]["killed"], abs=1e-12)
    assert killed2 < killed


def test_melee_needs_adjacency_diagonal_through_an_open_pinch():
    # IV: "you must be adjacent"; X: "Diagonal attacking is allowed if one of the two pinching
    # squares is open."
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 3, 3)]).apply(("activate", 0))
    assert ("melee", 1) in s.legal_actions()
    pinched = "#####\n#..##\n#.#.#\n#...#\n#####"
    s = state(pinched, [at("Marine", 2, 1)], [at("Stealer", 3, 2)]).apply(("activate", 0))
    assert ("melee", 1) not in s.legal_actions()
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 4, 2)]).apply(("activate", 0))
    assert ("melee", 1) not in s.legal_actions()


def test_successive_opponents_take_minus_one_each():
    # IV: "If adjacent to multiple targets, you may melee each in turn. Take a -1 (cumulative)"
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 3, 2), at("Stealer", 1, 2)]).apply(("activate", 0))
    s = s.apply(("melee", 1))
    assert '"opponent_number": 1' in s.pending[4]
    miss = next(o for o, _ in s.chance_outcomes() if cached_law(s.pending[4])[o[1]][0][1] == (NONE, 1))
    s = s.apply(miss)
    assert s.legal_actions()[0] == ("melee", 2) and ("melee", 1) not in s.legal_actions()
    s = s.apply(("melee", 2))
    assert '"opponent_number": 2' in s.pending[4]


def test_stunned_model_gets_up_with_a_half_move():
    # VIII STUN: "they may get up and make a half move, and may take no other actions or movement"
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 1)]).with_token(0, cond=STUNNED)
    s = s.apply(("activate", 0))
    assert s.tokens[0].cond == NONE and s.budget == 2 and s.acted
    assert kinds(s) <= {"move", "end"}


def test_wounded_model_moves_or_acts_but_may_move_and_melee():
    # VIII WOUND: "They may either move or perform an action, not both. Exception: they may move
    # and melee (but not charge)."
    s = state(HALL, [at("Marine", 1, 2)], [at("Stealer", 3, 2)]).with_token(0, cond=WOUNDED)
    s = s.apply(("activate", 0))
    assert "charge" not in kinds(s) and "extra" not in kinds(s)
    moved = s.apply(("move", 2, 2))
    assert kinds(moved) == {"melee", "move", "end"}
    shot = s.apply(("shoot", 1, "bolter"))
    shot = shot.apply(shot.chance_outcomes()[-1][0])
    assert "move" not in kinds(shot)


def test_knocked_out_model_does_nothing():
    # VIII KNOCKED OUT: "They may take no actions or movement."
    s = state(HALL, [at("Marine", 1, 1), at("Marine", 1, 3)], [at("Stealer", 8, 1)]).with_token(0, cond=KO)
    assert s.legal_actions() == [("activate", 1)]


def test_a_force_with_no_model_standing_loses():
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 2, 1)]).apply(("activate", 0))
    s = s.apply(("melee", 1))
    k = next(o for o, _ in s.chance_outcomes() if cached_law(s.pending[4])[o[1]][0][0][0] == KILLED)
    s = s.apply(k)
    assert s.ended and s.winner == 0


def test_jam_is_lasting_and_unjam_rolls_a_zero():
    # VIII JAM: "On a fail, cannot be fired again until unjammed. To unjam, roll a zero on the
    # weapon dice. Attempting an unjam takes an action."
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 1), at("Stealer", 8, 3)]).apply(("activate", 0))
    s = s.apply(("shoot", 1, "bolter"))
    law = cached_law(s.pending[4])
    jam = next(("attack", k) for k, ((_, _, wa, *_), _) in enumerate(law) if wa)
    s = s.apply(jam)
    assert s.tokens[0].arms[0] == JAMMED
    s = s.apply(("end",)).apply(("activate", 2)).apply(("end",))
    if s.player == 1:
        s = s.apply(("activate", 1)).apply(("end",))
    s = s.apply(("activate", 0))
    assert not any(a[0] == "shoot" for a in s.legal_actions())
    s = s.apply(("unjam", "bolter"))
    assert s.chance_outcomes()[0][1] == pytest.approx(unjam_chance("2W+1R"))
    assert s.apply(("unjam", 1)).tokens[0].arms[0] == READY
    assert s.apply(("unjam", 0)).tokens[0].arms[0] == JAMMED


def test_reload_weapon_is_unloaded_after_each_shot():
    # VIII RELOAD: "You must spend an action to reload for each shot."
    gunner = dict(MARINE, weapons=[{"name": "gun", "dice": "2W", "kind": "ranged", "effects": ["RELOAD"]}])
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 1)], profiles=[gunner, STEALER])
    s = s.apply(("activate", 0)).apply(("shoot", 1, "gun"))
    miss = next(o for o, _ in s.chance_outcomes() if cached_law(s.pending[4])[o[1]][0][0][0] == NONE)
    s = s.apply(miss)
    assert s.tokens[0].arms[0] == UNLOADED
    s = s.apply(("end",)).apply(("activate", 1)).apply(("end",)).apply(("activate", 0))
    assert ("reload", "gun") in s.legal_actions() and "shoot" not in kinds(s)
    assert s.apply(("reload", "gun")).tokens[0].arms[0] == READY


def test_blip_revealed_by_stepping_adjacent():
    # X: "Stepping in any square adjacent to a blip will reveal the blip."
    blips = {"blips": [{"at": [5, 2], "models": ["Stealer", "Stealer"]}]}
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 8, 3)], force_b=blips)
    assert s.tokens[2].blip and s.tokens[2].hidden
    s = s.apply(("activate", 0)).apply(("move", 3, 2))
    assert s.tokens[2].blip
    assert ("shoot", 2, "bolter") not in s.legal_actions()  # V: an unrevealed chit is hidden
    s = s.apply(("move", 4, 2))
    assert not s.tokens[2].blip and len(s.tokens) == 4
    assert s.tokens[2].sq == (5, 2) and s.tokens[3].sq in {(5, 1), (6, 2), (5, 3)}
    assert not invariant_errors(s)


def test_blip_moving_adjacent_reveals_itself_and_deducts_its_move():
    # V ENEMY CHITS: "Chits may move 10 inches ... Deduct the chit's move from the revealed model"
    blips = {"blips": [{"at": [7, 2], "models": ["Stealer"]}]}
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 8, 3)], force_b=blips, first=1)
    s = s.apply(("activate", 2))
    assert s.budget == 10 and s.acted  # a chit only moves
    for x in (6, 5, 4):
        s = s.apply(("move", x, 2))
    assert s.tokens[2].blip and s.active == 2
    s = s.apply(("move", 3, 2))  # now adjacent to the marine
    assert s.tokens[2].blip == () and s.active == -1 and s.tokens[2].spent == 4
    s = s.apply(("activate", 2))
    assert s.budget == 6 - 4 and not s.acted and ("melee", 0) in s.legal_actions()


def test_manhole_is_a_full_move():
    # X: "Treat manholes as a 6" ladder"; V: "Tall ladders (3"-6") cost 1 full movement."
    board = "#######\n#..#..#\n#######"
    s = state(board, [at("Marine", 1, 1)], [at("Stealer", 5, 1)], grid={"manholes": [[[2, 1], [4, 1]]]})
    s = s.apply(("activate", 0)).apply(("move", 2, 1))
    assert not any(a[0] == "manhole" for a in s.legal_actions())  # already moved
    s = replace(s.apply(("end",)).apply(("activate", 1)).apply(("end",)), player=0)
    s = s.apply(("activate", 0))
    s = s.apply(("manhole", 4, 1))
    assert s.tokens[0].sq == (4, 1) and s.budget == 0


def test_wounded_in_its_own_turn_ignores_the_wound_for_that_turn():
    # VIII WOUND: "If you are wounded during your turn, you may ignore the effects of the wound for
    # the rest of that turn (you're still wounded)."
    s = state(HALL, [at("Marine", 2, 2), at("Marine", 1, 3)], [at("Stealer", 3, 2)])
    s = s.apply(("activate", 0)).apply(("melee", 2))
    law = cached_law(s.pending[4])
    hurt = next(k for k, ((ds, as_, *_), _) in enumerate(law) if as_[0] == WOUNDED and ds[0] == NONE)
    s = s.apply(("attack", hurt))
    assert s.tokens[0].cond == WOUNDED and "move" in kinds(s)  # a wounded model could not move now
    s = s.apply(("end",)).apply(("activate", 1)).apply(("end",)).apply(("activate", 2)).apply(("end",))
    s = s.apply(("activate", 0))
    assert ("extra",) not in s.legal_actions()  # the next turn: wounded as usual
