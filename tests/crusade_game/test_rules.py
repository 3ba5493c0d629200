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
    jam = next(("attack", k) for k, ((_, _, wa, _), _) in enumerate(law) if wa)
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


def test_explode_attacks_the_bearer_and_models_near_him():
    # VIII EXPLODE: "On a fail, make an attack from the weapon, centered on the bearer (SFT=1"A,
    # FT=2"A, HFT=3"A). The weapon is lost."
    flamer = dict(
        MARINE, weapons=[{"name": "flamer", "dice": "2W+1R", "kind": "ranged", "effects": ["X", "SFT"]}]
    )
    marines = [at("Marine", 1, 1), at("Marine", 2, 2), at("Marine", 4, 1)]
    s = state(HALL, marines, [at("Stealer", 8, 1), at("Stealer", 8, 3)], profiles=[flamer, STEALER])
    s = s.apply(("activate", 0)).apply(("shoot", 3, "flamer"))
    law = cached_law(s.pending[4])
    k = next(k for k, ((_, _, wa, _), _) in enumerate(law) if wa)
    s = s.apply(("attack", k))
    assert s.tokens[0].arms[0] == "lost"
    # SFT: 1 square: the bearer, then the marine diagonally adjacent; not the one 3 squares away
    assert s.pending[1] == "explode" and s.pending[3] == 0 and s.pending[6] == (("explode", 0, 1, "flamer"),)
    blast = cached_law(s.pending[4])
    mine = {k: v for k, v in flamer.items() if k != "move"}
    res = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "range": 0,
            "attacker": mine,
            "defender": {**mine, "weapons": []},
        }
    )
    assert sum(p for (ds, *_), p in blast if ds[0] == KILLED) == pytest.approx(
        res.extra["end_state"]["killed"]
    )
    s = s.apply(("attack", 0))
    assert s.pending[3] == 1 and s.pending[6] == ()
    s = s.apply(("attack", 0))
    assert not s.pending


def test_area_weapon_hits_the_three_by_three_squares():
    # X: "Area effect for hazards will hit the square they are in, plus all 8 adjacent squares."
    gun = {"name": "mortar", "dice": "2W+1R", "kind": "ranged", "effects": ["AREA 2", "RELOAD"]}
    mortar = dict(MARINE, weapons=[gun])
    stealers = [at("Stealer", 6, 2), at("Stealer", 7, 3), at("Stealer", 8, 2), at("Stealer", 5, 1)]
    s = state(HALL, [at("Marine", 1, 2)], stealers, profiles=[mortar, STEALER])
    s = s.apply(("activate", 0)).apply(("shoot", 1, "mortar"))
    law = cached_law(s.pending[4])
    miss = next(k for k, ((ds, _, wa, _), _) in enumerate(law) if ds[0] == NONE and not wa)
    s = s.apply(("attack", miss))
    # the models on (5,1) and (7,3) are in the 3x3 around (6,2); (8,2) is not
    assert s.pending[1] == "area" and s.pending[3] == 4 and s.pending[6] == (("area", 0, 2, "mortar"),)
    assert '"range": 1' in s.pending[4]  # its own range from the firer: 4 squares, under a foot
    assert s.tokens[0].arms[0] == UNLOADED and cached_law(s.pending[4])  # the rolls after the first


def test_stuck_weapon_is_recovered_by_an_action_next_to_its_target():
    # VIII STICK: "weapon is stuck in target and can't be used- must spend an action adjacent to
    # target to recover it."
    spear = dict(MARINE, weapons=[{"name": "spear", "dice": "1W+1R", "kind": "melee", "effects": ["STICK"]}])
    s = state(
        HALL, [at("Marine", 1, 1)], [at("Stealer", 2, 1), at("Stealer", 8, 3)], profiles=[spear, STEALER]
    )
    s = s.apply(("activate", 0)).apply(("melee", 1))
    law = cached_law(s.pending[4])
    k = next(k for k, ((ds, _, wa, _), _) in enumerate(law) if wa and ds[0] != KILLED)
    s = s.apply(("attack", k))
    assert s.tokens[0].arms[0] == "stuck@1"
    s = s.apply(("end",))
    while s.player == 1:
        s = s.apply(s.legal_actions()[0]).apply(("end",))
    s = s.apply(("activate", 0))
    assert ("recover", "spear") in s.legal_actions()
    assert s.apply(("recover", "spear")).tokens[0].arms[0] == READY
    away = s.apply(("move", 1, 2))
    assert away.current_player() == 1 and away.legal_actions() == [("pass",), ("zoc", 1)]  # V ZOC
    away = away.apply(("pass",)).apply(("move", 1, 3))
    assert away.current_player() == 0 and ("recover", "spear") not in away.legal_actions()


def test_infiltrate_starts_hidden():
    # IX INFILTRATE: "You may start Hidden."
    sneak = dict(STEALER, abilities=["INFILTRATE"])
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], profiles=[MARINE, sneak])
    assert s.tokens[1].hidden and not s.tokens[0].hidden


def test_furtive_hides_for_free_unless_it_attacked():
    # IX FURTIVE: "May hide for free if you did not attack that turn (does not cost an action)."
    sneak = dict(MARINE, abilities=["FURTIVE"])
    s = state(
        HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 1)], profiles=[sneak, STEALER], grid={"dark": "all"}
    )
    s = s.apply(("activate", 0))
    hidden = s.apply(("hide",))
    assert hidden.tokens[0].hidden and not hidden.acted
    extra = s.apply(("extra",))
    assert ("hide",) in extra.legal_actions() and extra.apply(("hide",)).tokens[0].hidden
    shot = s.apply(("shoot", 1, "bolter"))
    shot = shot.apply(
        next(o for o, _ in shot.chance_outcomes() if cached_law(shot.pending[4])[o[1]][0][0][0] == NONE)
    )
    assert ("hide",) not in shot.legal_actions()
    plain = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 1)], grid={"dark": "all"}).apply(
        ("activate", 0)
    )
    assert plain.apply(("hide",)).acted and ("hide",) not in plain.apply(("extra",)).legal_actions()


def test_feral_attacks_only_the_nearest():
    # IX FERAL: "You may only attack the nearest target."
    beast = dict(MARINE, abilities=["FERAL"])
    s = state(
        HALL,
        [at("Marine", 1, 2)],
        [at("Stealer", 5, 2), at("Stealer", 8, 2), at("Stealer", 8, 1)],
        profiles=[beast, STEALER],
    )
    s = s.apply(("activate", 0))
    assert {a[1] for a in s.legal_actions() if a[0] == "shoot"} == {1}


def _zoc_game(**kw):
    return state(HALL, [at("Marine", 2, 1), at("Marine", 1, 3)], [at("Stealer", 5, 2)], **kw)


def test_zoc_free_melee_on_a_model_moving_past():
    # V ZOC: "If a troop moves within 1" of an enemy and then tries to move past the enemy, the
    # enemy may choose to make a "free" melee attack on the passer. If the passer is not stunned,
    # killed or KOed by the melee, they may continue their move."
    s = _zoc_game().apply(("activate", 0)).apply(("move", 3, 1)).apply(("move", 4, 1))
    assert s.current_player() == 0  # moving within 1" is free
    s = s.apply(("move", 5, 1))
    assert s.current_player() == 1 and s.legal_actions() == [("pass",), ("zoc", 2)]
    assert s.apply(("pass",)).tokens[0].sq == (5, 1)  # "they can let the passer by"
    z = s.apply(("zoc", 2))
    assert z.current_player() == CHANCE and '"attack_mode": "zoc"' in z.pending[4]
    law = cached_law(z.pending[4])
    # the stealer's SPIKY claws add their dice in a ZOC melee (VIII SPIKY): a stronger attack than
    # an ordinary melee from the same situation
    plain = cached_law(z.pending[4].replace('"attack_mode": "zoc"', '"attack_mode": "normal"'))
    harmed = lambda lw: sum(p for (ds, *_), p in lw if ds[0] != NONE)  # noqa: E731
    assert harmed(law) > harmed(plain)
    killed = next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == KILLED)
    stopped = z.apply(("attack", killed))
    assert not stopped.tokens[0].alive and stopped.active == -1 and stopped.current_player() == 0
    wounded = next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == WOUNDED)
    on = z.apply(("attack", wounded))  # wounded, not stunned, killed or KOed: it goes on
    assert on.tokens[0].sq == (5, 1) and on.budget == 1
    fine = next(k for k, ((ds, *_), _) in enumerate(law) if ds == (NONE, 1))
    assert z.apply(("attack", fine)).tokens[0].sq == (5, 1)


def test_zoc_not_when_moving_directly_away_or_slipping_through():
    # V ZOC: "this rule does not apply to models that start their move within 1" of an enemy and
    # move directly away from that enemy ... The Slip Thru skill allows the user to ignore enemy ZOCs."
    s = state(HALL, [at("Marine", 4, 2)], [at("Stealer", 5, 2)]).apply(("activate", 0))
    assert s.apply(("move", 3, 2)).current_player() == 0
    assert s.apply(("move", 4, 1)).current_player() == 1  # along the enemy, not away
    slippery = dict(MARINE, abilities=["SLIP THRU"])
    s = state(HALL, [at("Marine", 4, 2)], [at("Stealer", 5, 2)], profiles=[slippery, STEALER])
    assert s.apply(("activate", 0)).apply(("move", 4, 1)).current_player() == 0


def test_zoc_not_by_an_enemy_already_in_contact():
    # V ZOC: "enemies that are already in base to base contact with a non-friendly model may not
    # exercise a ZOC."
    s = state(HALL, [at("Marine", 4, 1), at("Marine", 6, 3)], [at("Stealer", 5, 2)]).apply(("activate", 0))
    assert s.apply(("move", 5, 1)).current_player() == 0


def test_zoc_stun_stops_the_move():
    stunner = dict(STEALER, weapons=[{"name": "claws", "dice": "1W", "kind": "spiky", "effects": ["S"]}])
    z = _zoc_game(profiles=[MARINE, stunner]).apply(("activate", 0))
    z = z.apply(("move", 3, 1)).apply(("move", 4, 1)).apply(("move", 5, 1)).apply(("zoc", 2))
    stun = next(k for k, ((ds, *_), _) in enumerate(cached_law(z.pending[4])) if ds[0] == STUNNED)
    stopped = z.apply(("attack", stun))
    assert stopped.tokens[0].sq == (4, 1) and stopped.budget == 0 and stopped.active == 0
    assert not any(a[0] == "move" for a in stopped.legal_actions())


def test_malfunction_rolls_the_weapon_against_the_user_and_in_melee_the_opponent():
    # VIII MALFUNCTION: "On a fail, roll the weapon dice vs. the user's armor (in melee, also roll
    # against the opponent). The weapon still functions normally."
    axe = {"name": "axe", "dice": "1W+1R", "kind": "melee", "effects": ["M"]}
    brute = dict(MARINE, weapons=[axe])
    s = state(
        HALL, [at("Marine", 1, 1)], [at("Stealer", 2, 1), at("Stealer", 8, 3)], profiles=[brute, STEALER]
    )
    s = s.apply(("activate", 0)).apply(("melee", 1))
    law = cached_law(s.pending[4])
    k = next(k for k, ((ds, as_, wa, _), _) in enumerate(law) if wa and ds[0] != KILLED and as_[0] == NONE)
    s = s.apply(("attack", k))
    assert s.tokens[0].arms[0] == READY  # still functions
    assert (
        s.pending[1] == "malfunction"
        and s.pending[3] == 0
        and s.pending[6] == (("malfunction", 0, 1, "axe"),)
    )
    mine = {k: v for k, v in brute.items() if k != "move"}
    res = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "range": 0,
            "attacker": {**mine, "weapons": [dict(axe, kind="ranged")]},
            "defender": {**mine, "weapons": []},
        }
    )
    got = sum(p for (ds, *_), p in cached_law(s.pending[4]) if ds[0] == KILLED)
    assert got == pytest.approx(res.extra["end_state"]["killed"], abs=1e-12)


def test_knockback_into_a_wall_or_a_model_stuns():
    # VIII KNOCKBACK: "move the target 1" away from the attacker ... If they move into a wall or
    # piece of cover, or into another model, they take a stun"
    gun = {"name": "shotgun", "dice": "2W", "kind": "ranged", "effects": ["KB", "W"]}
    pusher = dict(MARINE, weapons=[gun])
    walled = state(HALL, [at("Marine", 5, 2)], [at("Stealer", 8, 2)], profiles=[pusher, STEALER])
    s = walled.apply(("activate", 0)).apply(("shoot", 1, "shotgun"))
    assert '"knockback_into": "obstacle"' in s.pending[4]  # the wall at (9, 2)
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 5, 2)], profiles=[pusher, STEALER]).apply(
        ("activate", 0)
    )
    assert '"knockback_into": "open"' in s.apply(("shoot", 1, "shotgun")).pending[4]
    s = state(
        HALL, [at("Marine", 2, 2)], [at("Stealer", 5, 2), at("Stealer", 6, 2)], profiles=[pusher, STEALER]
    )
    key = s.apply(("activate", 0)).apply(("shoot", 1, "shotgun")).pending[4]
    assert '"knockback_into": "obstacle"' in key  # another model behind
    mine, theirs = ({k: v for k, v in p.items() if k != "move"} for p in (pusher, STEALER))
    res = calculate(
        {
            "system": "crusade",
            "range": 3,
            "knockback_into": "obstacle",
            "attacker": mine,
            "defender": theirs,
        }
    )
    stunned = sum(p for (ds, *_), p in cached_law(key) if ds[0] == STUNNED)
    assert stunned == pytest.approx(res.extra["end_state"]["stunned"], abs=1e-12) and stunned > 0
    plain = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 5, 2)]).apply(("activate", 0))
    assert "knockback_into" not in plain.apply(("shoot", 1, "bolter")).pending[4]


def test_shamble_rolls_the_move_each_turn():
    # IX SHAMBLE: "roll 2 reds and add 4 to get the move value. The model may not take extra move.
    # ... you may roll once per turn for ALL the models' move value for that turn."
    zombie = dict(STEALER, abilities=["SHAMBLE"])
    s = state(
        HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3), at("Stealer", 8, 1)], profiles=[MARINE, zombie]
    )
    s = s.apply(("activate", 0)).apply(("end",))
    assert s.current_player() == CHANCE and s.pending == ("shamble",)
    law = dict(s.chance_outcomes())
    # 2 reds (faces 0,0,0,1,2,3) + 4: P(4) = 1/4, P(10) = 1/36
    assert law[("shamble", 4)] == pytest.approx(1 / 4) and law[("shamble", 10)] == pytest.approx(1 / 36)
    s = s.apply(("shamble", 7))
    a = s.apply(("activate", 1))
    assert a.budget == 7 and ("extra",) not in a.legal_actions()
    assert s.apply(("activate", 2)).budget == 7  # one roll for all of them


def test_mindless_moves_to_and_attacks_the_nearest():
    # IX MINDLESS: "You must always move towards and attack the nearest target, preferrably in melee."
    drone = dict(MARINE, abilities=["MINDLESS"])
    s = state(
        HALL, [at("Marine", 4, 2)], [at("Stealer", 8, 2), at("Stealer", 1, 1)], profiles=[drone, STEALER]
    )
    s = s.apply(("activate", 0))
    shots = [a for a in s.legal_actions() if a[0] == "shoot"]
    assert shots == [("shoot", 2, "bolter")]  # the nearest (3 squares against 4)
    assert ("end",) not in s.legal_actions()  # it must attack
    assert {a[1:] for a in s.legal_actions() if a[0] == "move"} == {(3, 2), (4, 1)}  # towards it
    s = state(
        HALL, [at("Marine", 2, 2)], [at("Stealer", 3, 2), at("Stealer", 2, 1)], profiles=[drone, STEALER]
    )
    acts = s.apply(("activate", 0)).legal_actions()
    assert {a[0] for a in acts if a[0] in ("melee", "shoot")} == {"melee"}  # melee preferred


def _gunfighter():
    pistol = {"name": "pistol", "dice": "1W+1R", "kind": "pistol", "effects": ["S", "R", "J"]}
    return dict(STEALER, abilities=["SNAP FIRE"], weapons=[pistol])


def test_snap_fire_before_the_melee():
    # IX SNAP FIRE: "If you are attacked in melee, before the melee occurs, you may fire a pistol
    # at your opponent, once per turn- treat as a point blank range attack ... You may not reroll
    # or rapid fire when snap firing. If you stun or kill them, the melee does not take place."
    s = state(
        HALL,
        [at("Marine", 2, 2), at("Marine", 1, 3)],
        [at("Stealer", 3, 2)],
        profiles=[MARINE, _gunfighter()],
    )
    s = s.apply(("activate", 0)).apply(("melee", 2))
    assert s.current_player() == 1 and s.legal_actions() == [("pass",), ("snap", "pistol")]
    assert s.apply(("pass",)).pending[1] == "melee"
    z = s.apply(("snap", "pistol"))
    assert z.pending[1] == "snap" and '"range": 0' in z.pending[4] and '"R"' not in z.pending[4]
    mine, theirs = ({k: v for k, v in p.items() if k != "move"} for p in (MARINE, _gunfighter()))
    theirs["weapons"][0]["effects"] = ["S", "J"]  # no re-roll
    theirs["abilities"] = ["SNAP FIRE"]
    res = calculate({"system": "crusade", "range": 0, "attacker": theirs, "defender": mine})
    law = cached_law(z.pending[4])
    assert sum(p for (ds, *_), p in law if ds[0] == STUNNED) == pytest.approx(
        res.extra["end_state"]["stunned"]
    )
    stun = next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == STUNNED)
    stopped = z.apply(("attack", stun))
    assert not stopped.pending and stopped.current_player() == 0 and stopped.acted  # no melee
    miss = next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == NONE)
    assert z.apply(("attack", miss)).pending[1] == "melee"
    # once per turn: the second marine's melee is not offered a snap shot
    on = z.apply(("attack", miss))
    on = on.apply(("attack", 0)) if on.pending else on
    if not on.ended and on.tokens[2].alive:
        on = on.apply(("end",)).apply(("activate", 1)).apply(("move", 2, 3))
        assert on.apply(("melee", 2)).current_player() == CHANCE


def _cache_game(heavy=True, **kw):
    cache = {"name": "Cache", "kind": "item", "side": 0, "squares": [[4, 2]], "to": [[1, 1]], "heavy": heavy}
    objectives = [cache]
    return state(
        HALL, [at("Marine", 3, 2), at("Marine", 1, 3)], [at("Stealer", 8, 3)], objectives=objectives, **kw
    )


def test_pick_up_an_adjacent_item_with_an_action_and_carry_it():
    # V PICKING UP: "You may pick up items by being adjacent to them and spending an action."
    s = _cache_game().apply(("activate", 0))
    assert ("pickup", 0) in s.legal_actions()
    s = s.apply(("pickup", 0))
    assert s.acted and s.items[0][1] == 0
    # "if you haven't done anything prior to picking it up this turn, you may then move but do
    # nothing else"
    s = s.apply(("move", 2, 2))
    assert s.items[0][1] == 0 and ("drop",) in s.legal_actions()
    s = s.apply(("move", 1, 2)).apply(("move", 1, 1))
    assert s.ended and s.winner == 0  # the item brought to its square (ours)


def test_carrying_a_heavy_item_move_or_act_not_both():
    # V CARRYING: "If you were carrying the item any time during your turn, you may either move or
    # spend an action, not both"
    s = _cache_game().apply(("activate", 0)).apply(("move", 3, 1)).apply(("pickup", 0))
    assert not any(a[0] == "move" for a in s.legal_actions())  # moved before picking it up
    s = _cache_game().apply(("activate", 0)).apply(("pickup", 0)).apply(("end",))
    s = s.apply(("activate", 1)).apply(("end",)).apply(("activate", 2)).apply(("end",)).apply(("activate", 0))
    assert s.carried
    moved = s.apply(("move", 3, 1))
    assert not any(a[0] in ("shoot", "extra") for a in moved.legal_actions())
    shot = s.apply(("shoot", 2, "bolter"))
    shot = shot.apply(shot.chance_outcomes()[-1][0])
    assert shot.ended or not any(a[0] == "move" for a in shot.legal_actions())
    light = _cache_game(heavy=False).apply(("activate", 0)).apply(("move", 3, 1)).apply(("pickup", 0))
    assert any(a[0] == "move" for a in light.legal_actions())


def test_items_are_dropped_when_the_carrier_falls_and_guarded_items_cannot_be_taken():
    # V: "If you are stunned, killed or KOed, you will drop the item automatically." "You may not
    # pick up items that an enemy is standing on."
    s = _cache_game().apply(("activate", 0)).apply(("pickup", 0))
    s = s.with_token(0, cond=KO).apply(("end",))
    assert s.items[0] == ((3, 2), -1)
    g = _cache_game()
    g = g.with_token(2, sq=(4, 2)).apply(("activate", 0))
    assert ("pickup", 0) not in g.legal_actions()
