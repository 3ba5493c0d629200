"""Limited weapons are spent one by one (firing.py).

"Limited: Weapons with this special rule may only be fired once per game." The weapon fired is spent,
not the unit's other Limited weapons, and a Limited weapon that the shooting did not fire is not
spent. "All models in a unit that have line of sight ... may fire one of their weapons at it";
Relentless: "may fire all of their weapons when using Hold actions".
"""

from __future__ import annotations

import json
from dataclasses import replace

from grimdice.systems.onepage.game import GameState
from tests.onepage_game.test_firing import TARGETS, duel, law, shooting

TWO = {
    "name": "Grenadier",
    "quality": 4,
    "equipment": ['Missile (48", A6, Limited)', 'Grenade (6", A6, Limited)'],
    "cost": 40,
}


def limited_offered(s: GameState) -> bool:
    return any(len(a) > 2 for a in s.legal_actions())


def test_only_the_limited_weapon_fired_is_spent() -> None:
    far = shooting(duel(TWO, TARGETS, (36.0, 40.0)))  # 20" away: only the Missile reaches
    assert limited_offered(far)
    fired = far.apply(["shoot", 1, "limited"])
    assert fired.spent == ((0, "missile"),)  # the Grenade was not fired: it is not spent
    back = GameState.from_json(fired.setup, json.loads(json.dumps(fired.to_json())))
    assert back == fired
    near = shooting(replace(fired, phase="play", pending=(), anchors=((36.0, 20.0), (36.0, 23.0))))
    assert limited_offered(near)  # the Grenade may still be fired once
    key = near.shot_key(0, 1, limited=False)
    assert key[6] == "missile" and key[8] is False  # the spent Missile is left out, the Grenade fires
    grenade = shooting(duel(dict(TWO, equipment=['Grenade (6", A6, Limited)']), TARGETS, (36.0, 23.0)))
    assert law(near, key) == law(grenade, grenade.shot_key(0, 1, limited=False))
    after = near.apply(["shoot", 1, "limited"])
    assert after.spent == ((0, "grenade"), (0, "missile"))
    last = shooting(replace(after, phase="play", pending=()))
    assert not limited_offered(last) and last.shot_key(0, 1)[8] is True  # both fired: none left


def test_a_limited_weapon_the_plan_does_not_fire_is_not_spent() -> None:
    # one model, one weapon fired: the Plasma Cannon's 6 attacks beat the Dart's 1
    dart = dict(TWO, equipment=['Dart (48", A1, Limited)', "Plasma Cannon"])
    s = shooting(duel(dart, TARGETS, (36.0, 40.0)))
    assert limited_offered(s)
    assert s.apply(["shoot", 1, "limited"]).spent == ()


def test_a_relentless_unit_holding_fires_and_spends_all_its_limited_weapons() -> None:
    both = dict(TWO, special_rules=["Relentless"])
    s = shooting(duel(both, TARGETS, (36.0, 23.0)), "hold")
    assert s.apply(["shoot", 1, "limited"]).spent == ((0, "grenade"), (0, "missile"))
    walking = shooting(duel(both, TARGETS, (36.0, 23.0)), "walk")  # one weapon per model
    assert len(walking.apply(["shoot", 1, "limited"]).spent) == 1
