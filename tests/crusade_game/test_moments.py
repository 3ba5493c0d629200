"""Cards played in the enemy turn at the moments the cards' texts name, besides a model's
activation (reading card_moments): IX FOR ONE TURN's "any time" at a declared attack (SHIELD),
PSYCHOMETRY's "the psyker that finds the blip", PROJECTION's "dissipate ghost at any time"."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.ai.players import ai_player
from grimdice.systems.crusade.damage import KILLED, NONE
from grimdice.systems.crusade.game.combat import cached_law
from tests.crusade_game.helpers import MARINE, STEALER, at
from tests.crusade_game.test_powers import GUNNER, LONG, SEER, activate, game, law
from tests.crusade_game.test_psychic import cast, dealt


def _held(deck, gun="1R"):
    """The gunner (at 3, 3) shoots the marine (at 14, 1); the seer stands at 1, 1."""
    gunner = dict(GUNNER, weapons=[dict(GUNNER["weapons"][0], dice=gun), GUNNER["weapons"][1]])
    data = game(deck, [at("Seer", 1, 1), at("Marine", 14, 1)], [at("Gunner", 3, 3)])
    data["profiles"] = [MARINE, STEALER, SEER, gunner]
    s = dealt(data, [0, 1])
    s = activate(activate(s, 0).apply(("end",)), 1).apply(("end",))
    return s.apply(("activate", 2)).apply(("pass",)).apply(("shoot", 1, "zapper"))


def test_shield_is_played_at_a_declared_shot_at_the_model_it_rolls_at():
    # IX FOR ONE TURN: "Orders that last one turn may be played at any time": SHIELD at the moment
    # an enemy shot is declared, on the model it rolls at only
    s = _held(["SHIELD", "HEAL"])
    assert s.psy.prompt == ("foresee", 0) and not s.pending
    assert s.legal_actions() == [("pass",), ("cast", 0, 0, 1)]  # the marine, not the seer
    rolled = cast(s, ("cast", 0, 0, 1))
    # VII SHIELD: "Range penalties are based on distance the shield is placed": 13 squares, -1; the
    # 1R (need 1) needs a 2 or a 3; all dice at their maximum (a 3) is an incursion
    assert law(rolled) == {("card", 1, 1): Fraction(1, 6), ("card", 1, 0): Fraction(1, 6),
                           ("card", 0, 0): Fraction(2, 3)}  # fmt: skip
    assert 0 in rolled.psy.owed  # VII: "Cards played during an enemy turn cost 1 action"
    missed = rolled.apply(("card", 0, 0))
    assert missed.pending == s.psy.held  # the shot goes on as declared
    made = rolled.apply(("card", 1, 0))
    key = made.pending[4]
    assert made.pending[:4] == ("attack", "shoot", 2, 1) and json.loads(key)["defender"]["armor"] == 3
    # the marine's armour 2 + 1: the zapper's 1R (at most 3) no longer harms it; unshielded, a 3
    harmed = sum(p for (ds, *_), p in cached_law(key) if ds[0] != NONE)
    before = sum(p for (ds, *_), p in cached_law(s.psy.held[4]) if ds[0] != NONE)
    assert harmed == 0 and before == pytest.approx(1 / 6)
    res = calculate(json.loads(key))  # the calculator's, for the same situation
    assert res.extra["end_state"]["unharmed"] == pytest.approx(1.0)


def test_the_ai_shields_a_model_when_it_pays():
    shield = {"card": "SHIELD", "dice": "3W", "need": 1}
    s = _held([shield, "HEAL"], gun="2R+1W")
    assert ai_player(s, np.random.default_rng(0)) == ("cast", 0, 0, 1)
    weak = _held([{"card": "SHIELD", "dice": "1R", "need": 3}, "HEAL"], gun="2R+1W")  # -1: never
    assert ai_player(weak, np.random.default_rng(0)) == ("pass",)


BLIPS = "\n".join(["#" * 12, "#" + "." * 10 + "#", "#" + "." * 10 + "#", "#" * 12])


def _found(deck):
    """An enemy blip steps beside the seer in the enemy turn; another blip waits far off."""
    data = game(deck, [at("Seer", 1, 1)], [], board=BLIPS)
    data["forces"][1]["blips"] = [
        {"at": [3, 1], "models": ["Stealer"]},
        {"at": [10, 2], "models": ["Stealer"]},
    ]
    s = dealt(data, [0, 1])
    s = activate(s, 0).apply(("end",))
    return s.apply(("activate", 1)).apply(("move", 2, 1))


def test_psychometry_at_a_blip_found_in_the_enemy_turn():
    # VII: "PSYCHOMETRY- the psyker that finds the blip must spend an action to play the card": the
    # blip revealed beside the seer is found by it; the card reveals the other blip, an action owed
    s = _found(["PSYCHOMETRY", "HEAL"])
    assert not s.tokens[1].blip and s.psy.prompt == ("find", 0) and s.current_player() == 0
    assert s.legal_actions() == [("pass",), ("cast", 0, 0, 2)]
    rolled = s.apply(("cast", 0, 0, 2))
    made = rolled.apply(next(o for o, _ in rolled.chance_outcomes() if o[1] and not o[2]))
    assert not made.tokens[2].blip and 0 in made.psy.owed and not made.psy.prompt
    assert made.current_player() == 1  # the enemy's turn goes on
    passed = s.apply(("pass",))
    assert passed.tokens[2].blip and passed.current_player() == 1
    assert _found(["HEAL", "CURSE"]).psy.prompt == ()  # no card for the moment: not asked


def test_the_ai_plays_psychometry_when_it_finds_a_blip():
    s = _found([{"card": "PSYCHOMETRY", "dice": "2R", "need": 1}, "HEAL"])
    assert ai_player(s, np.random.default_rng(0)) == ("cast", 0, 0, 2)


def test_a_ghost_is_dissipated_at_an_enemy_activation():
    # VII PROJECTION: "May "dissipate" ghost at any time": in the enemy turn too, at its card window
    data = game(["PROJECTION", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 12, 3)], board=LONG)
    s = activate(dealt(data, [0, 1]), 0).apply(("cast", 0, 0, 0))
    s = s.apply(next(o for o, _ in s.chance_outcomes() if o[1] and not o[2]))
    ghost = len(s.tokens) - 1
    assert s.tokens[ghost].side == 0
    s = s.apply(("end",))
    s = s.apply(("activate", ghost)).apply(("end",)) if s.current_player() == 0 else s
    enemy = s.apply(("activate", 1))
    assert enemy.psy.prompt == ("react", 0) and ("dissipate", ghost) in enemy.legal_actions()
    gone = enemy.apply(("dissipate", ghost))
    assert gone.tokens[ghost].cond == KILLED and gone.psy.prompt == ("react", 0)
    assert gone.apply(("pass",)).current_player() == 1
