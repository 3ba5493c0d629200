"""The simple AI's use of the IX abilities' actions (ours: its values)."""

from __future__ import annotations

import numpy as np
import pytest

from grimdice.systems.crusade.ai.abilities import LATCH_SHOOTER, LATCH_VALUE
from grimdice.systems.crusade.ai.players import ai_player, attack_value
from tests.crusade_game.helpers import MARINE, STEALER, at, state

HALL = """
#######
#.....#
#.....#
#.....#
#######
"""

BOMB = {"name": "charge", "dice": "2R", "kind": "ranged", "effects": ["SFT", "RELOAD"]}
BOMBER = dict(MARINE, name="Bomber", armour=3, melee="1W", abilities=["DETONATE"], weapons=[BOMB])
LEECH = dict(STEALER, name="Leech", abilities=["LATCH ON"])


def _bomber(friend: bool):
    a = [at("Bomber", 2, 2)] + ([at("Stealer", 2, 1)] if friend else [])
    b = [at("Stealer", 3, 2)] + ([] if friend else [at("Stealer", 2, 3)])
    s = state(HALL, a, b, profiles=[BOMBER, STEALER])
    return s.apply(("activate", 0)).with_token(0, arms=("unloaded",))


def test_a_blast_among_enemies_pays_and_the_ai_detonates():
    s = _bomber(friend=False)
    assert attack_value(s, ("detonate", "charge")) > 0
    assert ai_player(s, np.random.default_rng(0)) == ("detonate", "charge")


def test_a_blast_on_a_friend_pays_less():
    assert attack_value(_bomber(friend=True), ("detonate", "charge")) < attack_value(
        _bomber(friend=False), ("detonate", "charge")
    )


@pytest.mark.parametrize(
    ("target", "value"), [("Marine", LATCH_VALUE + LATCH_SHOOTER), ("Stealer", LATCH_VALUE)]
)
def test_latching_onto_a_shooter_is_worth_more(target, value):
    s = state(HALL, [at("Leech", 2, 2)], [at(target, 3, 2)], profiles=[LEECH, MARINE, STEALER])
    s = s.apply(("activate", 0))
    assert attack_value(s, ("latch", 1)) == pytest.approx(value)


MOBBER = {"name": "Ganger", "move": 4, "armour": 1, "hits": 1, "melee": "2R", "abilities": ["MOB"]}
BRUTE = dict(MARINE, name="Brute", hits=2, melee="2R+1W", weapons=[])


def test_a_member_keeps_its_action_for_a_mob_that_pays_and_the_lead_makes_it():
    # IX MOB: "Move the models first, then make a single melee attack" (reading mob_joint): alone a
    # ganger's 2 reds lose to the brute's; two together are worth more than the lead's own melee
    a = [at("Ganger", 1, 2), at("Ganger", 2, 2)]
    s = state(HALL, a, [at("Brute", 3, 2)], profiles=[MOBBER, BRUTE])
    member = s.apply(("activate", 1))
    assert attack_value(member, ("join", 2)) > max(0.0, attack_value(member, ("melee", 2)))
    assert ai_player(member, np.random.default_rng(0)) == ("join", 2)
    lead = member.apply(("join", 2)).apply(("end",)).apply(("activate", 0))
    lead = lead.apply(("move", 1, 1)).apply(("move", 2, 1))
    assert ai_player(lead, np.random.default_rng(0)) == ("mob", 2, 1)
    alone = s.with_token(0, done=True).apply(("activate", 1))  # no lead left: no action to keep
    assert ai_player(alone, np.random.default_rng(0)) != ("join", 2)
