"""The AI's worth of an attack at a knocked-out enemy (:func:`grimdice.systems.crusade.ai.worth.out_for_good`,
ours): VIII KNOCKED OUT "may take no actions or movement" and only VII HEAL lifts it, so with no
HEAL card in the scenario's deck a knocked-out enemy is out of the game and a shot at it is worth
only its cost (its fails); with a HEAL card its kill still counts."""

from __future__ import annotations

import numpy as np
import pytest

from grimdice.systems.crusade.ai.players import ai_player, attack_value
from grimdice.systems.crusade.ai.worth import FAIL_VALUE
from grimdice.systems.crusade.damage import KILLED, KO
from grimdice.systems.crusade.game import situation
from grimdice.systems.crusade.game.combat import cached_law
from tests.crusade_game.test_psychic import activate, dealt, psy_scenario

NO_HEAL = ("CURSE", "SHIELD", "FLASH", "TELEPORT")
WITH_HEAL = ("CURSE", "HEAL", "SHIELD", "FLASH")


def _marine_shooting(deck):
    """The marine (token 1) activated, the magus (token 2) knocked out, the stealer (3) standing."""
    s = dealt(psy_scenario(deck=deck), range(len(deck)))
    s = s.with_token(2, cond=KO)
    return activate(s, 1)


def _law(s, j):
    return cached_law(situation.shot(s, 1, j, "bolter"))


@pytest.mark.parametrize("deck", [NO_HEAL, ()])
def test_a_shot_at_a_knocked_out_enemy_no_card_can_heal_is_worth_only_its_fails(deck):
    s = _marine_shooting(deck)
    fails = sum(p for (_, _, wa, *_), p in _law(s, 2) if wa)
    assert fails > 0
    assert attack_value(s, ("shoot", 2, "bolter")) == pytest.approx(-FAIL_VALUE * fails, abs=1e-12)
    assert attack_value(s, ("shoot", 3, "bolter")) > 0
    assert ai_player(s, np.random.default_rng(0)) == ("shoot", 3, "bolter")


def test_with_a_heal_card_in_the_deck_killing_a_knocked_out_enemy_still_counts():
    s = _marine_shooting(WITH_HEAL)
    killed = sum(p for (ds, *_), p in _law(s, 2) if ds[0] == KILLED)
    assert killed > 0
    assert attack_value(s, ("shoot", 2, "bolter")) > 0
