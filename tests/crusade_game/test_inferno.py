"""VII INFERNO in the enemy turn (reading ``card_inferno``): "You do not need to deduct an action
from your next turn if you are actually stunned, wounded or killed by the attack", played at a
declared enemy attack (IX FOR ONE TURN's moment, reading ``card_moments``) or at the enemy model's
activation; an INFERNO on the attacker of a declared attack changes that attack."""

from __future__ import annotations

import json

import numpy as np

from grimdice.systems.crusade.ai.players import ai_player
from grimdice.systems.crusade.damage import KILLED, NONE, WOUNDED
from tests.crusade_game.helpers import MARINE, STEALER, at
from tests.crusade_game.test_powers import GUNNER, SEER, activate, game
from tests.crusade_game.test_psychic import cast, dealt

ZAPPER = dict(GUNNER["weapons"][0], effects=["W"])  # a graze wounds


def _declared(deck, target=1, gun="2R+1W", gunner_cond=NONE):
    """The gunner (token 2, at 3, 3) declares a shot at ``target`` (0: the seer at 1, 1; 1: the
    marine at 14, 1); the seer's force holds ``deck``'s first card."""
    gunner = dict(GUNNER, weapons=[dict(ZAPPER, dice=gun), GUNNER["weapons"][1]])
    data = game(deck, [at("Seer", 1, 1), at("Marine", 14, 1)], [at("Gunner", 3, 3)])
    data["profiles"] = [MARINE, STEALER, SEER, gunner]
    s = dealt(data, [0, 1])
    s = activate(activate(s, 0).apply(("end",)), 1).apply(("end",))
    s = s.apply(("activate", 2)).apply(("pass",)).with_token(2, cond=gunner_cond)
    return s.apply(("shoot", target, "zapper"))


def _made(rolled):
    """The card's roll succeeded (no incursion)."""
    return rolled.apply(next(o for o, _ in rolled.chance_outcomes() if o[1] and not o[2]))


def _missed(rolled):
    return rolled.apply(next(o for o, _ in rolled.chance_outcomes() if not o[1] and not o[2]))


def test_inferno_is_played_at_a_declared_enemy_attack():
    s = _declared(["INFERNO", "HEAL"])
    assert s.psy.prompt == ("foresee", 0) and not s.pending
    assert ("cast", 0, 0, 2) in s.legal_actions()  # at the gunner, in the seer's sight
    rolled = cast(s, ("cast", 0, 0, 2))
    assert 0 in rolled.psy.owed  # VII: "Cards played during an enemy turn cost 1 action"


def test_an_inferno_that_kills_the_attacker_stops_its_attack():
    # III: "Wound + Wound = Kill": the wounded gunner killed; its shot at the marine is not made
    s = _declared(["INFERNO", "HEAL"], gunner_cond=WOUNDED)
    after = _made(cast(s, ("cast", 0, 0, 2)))
    assert after.tokens[2].cond == KILLED
    assert not after.pending and not after.psy.held and after.tokens[1].cond == NONE


def test_an_inferno_that_wounds_the_attacker_leaves_its_attack_made_wounded():
    s = _declared(["INFERNO", "HEAL"])
    after = _made(cast(s, ("cast", 0, 0, 2)))
    assert after.tokens[2].cond == WOUNDED
    assert after.pending[:4] == ("attack", "shoot", 2, 1)
    assert json.loads(after.pending[4])["attacker"]["condition"] == "wounded"
    assert json.loads(s.psy.held[4])["attacker"]["condition"] == "unharmed"


def _next_turn_acted(s):
    """The seer's next activation after the gunner's ends: whether its action is already spent."""
    return activate(s.apply(("end",)), 0).acted


def test_inferno_s_action_is_spared_when_the_attack_harms_the_psyker():
    # the gunner shoots the seer; the seer's INFERNO at it misses; the shot goes on
    s = _missed(cast(_declared(["INFERNO", "HEAL"], target=0), ("cast", 0, 0, 2)))
    assert s.pending[:4] == ("attack", "shoot", 2, 0)
    ends = s.chance_outcomes()
    wounded = next(o for o, _ in ends if s.apply(o).tokens[0].cond == WOUNDED)
    unharmed = next(o for o, _ in ends if s.apply(o).tokens[0].cond == NONE)
    assert not _next_turn_acted(s.apply(wounded))  # "stunned, wounded or killed by the attack"
    assert _next_turn_acted(s.apply(unharmed))


def test_inferno_s_action_is_owed_when_the_psyker_is_harmed_otherwise():
    # harmed, but not by the attack it was played at (the marine was the target): the action owed
    s = _missed(cast(_declared(["INFERNO", "HEAL"]), ("cast", 0, 0, 2)))
    shot = s.apply(s.chance_outcomes()[0][0])
    assert _next_turn_acted(shot.with_token(0, cond=WOUNDED))


def test_inferno_at_an_activation_waits_on_that_model_s_attack():
    gunner = dict(GUNNER, weapons=[ZAPPER, GUNNER["weapons"][1]])
    data = game(["INFERNO", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 6, 1)])
    data["profiles"] = [MARINE, STEALER, SEER, gunner]
    s = activate(dealt(data, [0, 1]), 0).apply(("end",)).apply(("activate", 1))
    assert s.psy.prompt == ("react", 0)
    s = s.apply(("cast", 0, 0, 1)).apply(("card", 0, 0)).apply(("pass",))
    assert ("INFERNO", 0, 1) in s.psy.effects
    shot = s.apply(("shoot", 0, "zapper"))
    ends = shot.chance_outcomes()
    wounded = next(o for o, _ in ends if shot.apply(o).tokens[0].cond == WOUNDED)
    assert not _next_turn_acted(shot.apply(wounded))
    missed = next(o for o, _ in ends if shot.apply(o).tokens[0].cond == NONE)
    assert _next_turn_acted(shot.apply(missed).with_token(0, cond=WOUNDED))  # harmed, not by it


def test_the_ai_plays_inferno_at_an_attacker_it_would_stop():
    strong = {"card": "INFERNO", "dice": "3W", "need": 1}
    s = _declared([strong, "HEAL"], gunner_cond=WOUNDED)
    assert ai_player(s, np.random.default_rng(0)) == ("cast", 0, 0, 2)
