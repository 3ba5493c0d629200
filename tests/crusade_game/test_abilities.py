"""The grid game's special abilities, zone of control and items (V, IX), from the text's sentences."""

from __future__ import annotations

import numpy as np
import pytest

from grimdice.engine.game import CHANCE
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.ai.players import ai_player, random_player
from grimdice.systems.crusade.damage import KILLED, KO, NONE, STUNNED, WOUNDED
from grimdice.systems.crusade.game.combat import cached_law
from tests.crusade_game.helpers import MARINE, STEALER, at, state

HALL = """
##########
#........#
#........#
#........#
##########
"""


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
    # V ZOC: the passer may continue "If the passer is not stunned"; VIII STUN: "may take no other
    # actions or movement": its activation is over
    stunner = dict(STEALER, weapons=[{"name": "claws", "dice": "1W", "kind": "spiky", "effects": ["S"]}])
    z = _zoc_game(profiles=[MARINE, stunner]).apply(("activate", 0))
    z = z.apply(("move", 3, 1)).apply(("move", 4, 1)).apply(("move", 5, 1)).apply(("zoc", 2))
    stun = next(k for k, ((ds, *_), _) in enumerate(cached_law(z.pending[4])) if ds[0] == STUNNED)
    stopped = z.apply(("attack", stun))
    assert stopped.tokens[0].sq == (4, 1) and stopped.tokens[0].cond == STUNNED
    assert stopped.active == -1 and stopped.tokens[0].done
    assert ("activate", 0) not in stopped.legal_actions()


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
    assert not stopped.pending and stopped.current_player() == 0  # no melee
    assert stopped.active == -1 and stopped.tokens[0].done  # VIII STUN: "may take no other actions"
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


def test_players_always_choose_a_legal_action_for_mindless_models():
    drone = dict(MARINE, abilities=["MINDLESS"], weapons=[{"name": "stub", "dice": "1W", "kind": "ranged"}])
    s = state(HALL, [at("Marine", 4, 2)], [at("Stealer", 8, 2)], profiles=[drone, STEALER]).apply(
        ("activate", 0)
    )
    rng = np.random.default_rng(0)
    assert ("end",) not in s.legal_actions()
    assert ai_player(s, rng) in s.legal_actions() and random_player(s, rng) in s.legal_actions()


def test_horror_lies_face_down_and_rolls_on_its_next_turn():
    # IX HORROR: "Once killed, place the model face down and on it's next turn, roll a red die:
    # 0= Dead- remove from play. 1= Languishing: roll again next turn. 2= Makes a last attack, then
    # dies. 3= Makes a last attack and is alive again, with 1 hit."
    ghoul = dict(STEALER, abilities=["HORROR"])
    s = state(
        HALL, [at("Marine", 2, 2)], [at("Stealer", 3, 2), at("Stealer", 8, 3)], profiles=[MARINE, ghoul]
    )
    s = s.apply(("activate", 0)).apply(("melee", 1))
    law = cached_law(s.pending[4])
    s = s.apply(("attack", next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == KILLED)))
    assert s.tokens[1].horror == 1 and s.occupant((3, 2)) == 1 and not s.tokens[1].standing
    s = s.apply(("end",))
    assert s.pending == ("horror", 1)
    assert dict(s.chance_outcomes()) == pytest.approx(
        {("horror", 0): 1 / 2, ("horror", 1): 1 / 6, ("horror", 2): 1 / 6, ("horror", 3): 1 / 6}
    )
    assert s.apply(("horror", 0)).occupant((3, 2)) == -1  # dead, removed
    languish = s.apply(("horror", 1))
    assert languish.tokens[1].horror == 1 and ("activate", 1) not in languish.legal_actions()
    last = s.apply(("horror", 2)).apply(("activate", 1))
    assert last.budget == 0 and {a[0] for a in last.legal_actions()} == {"melee", "end"}
    assert last.apply(("end",)).tokens[1].cond == KILLED  # then dies
    back = s.apply(("horror", 3)).apply(("activate", 1)).apply(("end",))
    assert back.tokens[1].cond == NONE and back.tokens[1].hits == 1 and back.tokens[1].standing


def test_ambush_free_attack_when_revealed():
    # IX AMBUSH: "May make a free attack when revealed (but may not rapid fire)"
    lurker = dict(STEALER, abilities=["AMBUSH"])
    blips = {"blips": [{"at": [5, 2], "models": ["Stealer", "Stealer"]}]}
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 8, 3)], profiles=[MARINE, lurker], force_b=blips)
    s = s.apply(("activate", 0)).apply(("move", 3, 2)).apply(("move", 4, 2))  # adjacent: revealed
    assert s.tokens[2].blip == () and s.ambush == (2, 3) and s.current_player() == 1
    assert ("melee", 0) in s.legal_actions() and ("pass",) in s.legal_actions()
    s = s.apply(("melee", 0))
    assert s.pending[1] == "ambush" and s.pending[2] == 2
    law = cached_law(s.pending[4])
    s = s.apply(("attack", next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == NONE)))
    assert s.current_player() == 1 and s.ambush == (~2, 3)  # "and may then make a half move"
    s = s.apply(("pass",))  # it stays
    assert s.current_player() == 1 and s.ambush == (3,)  # the second revealed model's choice
    s = s.apply(("pass",))
    assert s.current_player() == 1 and s.ambush == (~3,)  # a half move, attack or not
    s = s.apply(("pass",))
    assert s.current_player() == 0 and s.active == 0 and s.budget == 2  # the marine goes on
    plain = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 8, 3)], force_b=blips)
    plain = plain.apply(("activate", 0)).apply(("move", 3, 2)).apply(("move", 4, 2))
    assert plain.ambush == () and plain.current_player() == 0


def test_ambush_half_move_after_the_attack():
    # IX AMBUSH: "... and may then make a half move": a move of 6 gives 3 squares of plain steps
    lurker = dict(STEALER, abilities=["AMBUSH"])
    blips = {"blips": [{"at": [5, 2], "models": ["Stealer"]}]}
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 8, 3)], profiles=[MARINE, lurker], force_b=blips)
    s = s.apply(("activate", 0)).apply(("move", 3, 2)).apply(("move", 4, 2)).apply(("pass",))
    assert s.ambush == (~2,) and s.current_player() == 1
    ends = {tuple(a[1:]) for a in s.legal_actions() if a[0] == "half"}
    occupied = {(4, 2), (8, 3)}
    hand = {
        (x, y)
        for x in range(1, 9)
        for y in range(1, 4)
        if 0 < abs(x - 5) + abs(y - 2) <= 3 and (x, y) not in occupied and not (x < 4 and y == 2 and x < 4)
    }
    hand -= {(1, 2), (2, 2), (3, 2)}  # behind the marine on its row: longer round it than 3
    hand |= {(3, 1), (3, 3)}
    assert ends == {q for q in hand if abs(q[0] - 5) + abs(q[1] - 2) + 2 * (q[0] < 4 and q[1] == 2) <= 3}
    moved = s.apply(("half", 7, 2))
    assert moved.tokens[2].sq == (7, 2) and moved.ambush == () and moved.current_player() == 0
    assert moved.active == 0 and moved.tokens[0].sq == (4, 2)  # the marine goes on


def test_ambush_no_half_move_when_stunned_or_next_to_a_blip():
    lurker = dict(STEALER, abilities=["AMBUSH"])
    blips = {"blips": [{"at": [5, 2], "models": ["Stealer"]}]}
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 8, 3)], profiles=[MARINE, lurker], force_b=blips)
    s = s.apply(("activate", 0)).apply(("move", 3, 2)).apply(("move", 4, 2))
    assert s.apply(("pass",)).ambush == (~2,)
    stunned = s.with_token(2, cond=STUNNED).apply(("pass",))
    assert stunned.ambush == () and stunned.current_player() == 0  # no half move offered


def test_ambush_half_move_never_steps_next_to_an_enemy_blip():
    # reading ambush_move: stepping next to the mover's own blip would reveal it in its own turn
    lurker = dict(STEALER, abilities=["AMBUSH"])
    blips = {"blips": [{"at": [5, 2], "models": ["Stealer"]}]}
    mine = {"blips": [{"at": [8, 1], "models": ["Marine"]}]}
    kw = {"profiles": [MARINE, lurker], "force_a": mine, "force_b": blips}
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 8, 3)], **kw)
    s = s.apply(("activate", 0)).apply(("move", 3, 2)).apply(("move", 4, 2)).apply(("pass",))
    ends = {tuple(a[1:]) for a in s.legal_actions() if a[0] == "half"}
    near = {(x, y) for x in range(1, 9) for y in range(1, 4) if 0 < abs(x - 5) + abs(y - 2) <= 3}
    assert ends == near - {(4, 2), (8, 3), (3, 2), (2, 2)} - {(7, 1), (7, 2), (8, 2), (8, 1)}


def test_handing_an_item_over_is_a_drop_then_the_other_s_action_to_pick_it_up():
    # V CARRYING: "To hand the object off to another model, you must drop it, and then they must
    # spend an action to pick it up."
    s = _cache_game().apply(("activate", 0)).apply(("pickup", 0)).apply(("end",))
    s = s.apply(("activate", 1)).apply(("move", 2, 3))  # the friend beside the carrier at (3, 2)
    assert not any(a[0] == "pickup" for a in s.legal_actions())  # not from the carrier's hands
    s = s.apply(("end",)).apply(("activate", 2)).apply(("end",)).apply(("activate", 0))
    dropped = s.apply(("drop",))
    assert dropped.items[0] == ((3, 2), -1) and not dropped.acted  # free, where the carrier stands
    s = dropped.apply(("end",)).apply(("activate", 1))
    assert ("pickup", 0) in s.legal_actions()
    taken = s.apply(("pickup", 0))
    assert taken.items[0][1] == 1 and taken.acted  # the friend's action
