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
