"""Psychic cards (rules-crusade VII CARDS, MODIFIERS): the data the text gives and its checks."""

from fractions import Fraction
from itertools import product

import icepool
import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.cards import (
    CARDS,
    action_cost,
    card,
    card_roll,
    cards_drawn,
    check_play,
    discarded_on_death,
    range_penalty,
)
from tests.crusade.helpers import FACES

RED, WHITE = FACES["R"], FACES["W"]


def test_every_card_the_text_names_is_listed_with_its_range_rule():
    names = {
        "CLAIRVOYANT", "CURSE", "FRENETIC", "FLASH", "HEAL", "MIND LANCE", "TELEKENISIS", "TRIPPER",
        "INFERNO", "JINX", "JOSTLE", "OBFUSCATE", "PHASE", "TELEPORT", "PRECOGNANT", "PROJECTION",
        "PSYCHOMETRY", "SHIELD",
    }  # fmt: skip
    assert set(CARDS) == names
    # "CURSE, FRENETIC, FLASH, HEAL, MIND LANCE, TELEKENISIS, TRIPPER- Apply range penalties to the roll"
    assert {c.name for c in CARDS.values() if c.range_rule == "roll"} == {
        "CURSE", "FRENETIC", "FLASH", "HEAL", "MIND LANCE", "TELEKENISIS", "TRIPPER"
    }  # fmt: skip
    assert card("jinx").range_rule == card("JOSTLE").range_rule == "victim_weapon"
    assert card("telekinesis").name == "TELEKENISIS"
    with pytest.raises(ScenarioError, match="allowed: CLAIRVOYANT"):
        card("FIREBALL")


def test_range_penalties():
    # II: -1 per full foot; "Range has no effect on ghost" (PROJECTION)
    assert range_penalty("CURSE", 11.9) == 0
    assert range_penalty("CURSE", 24) == 2
    assert range_penalty("PRECOGNANT", 13) == 1  # to the farthest victim
    assert range_penalty("PROJECTION", 30) == 0
    with pytest.raises(ScenarioError, match="distance"):
        range_penalty("CURSE", -1)


def test_drawing_and_discarding():
    # "Player Psykers draw 1 random card / psy level ... Enemy Psykers ... draw 2 random cards / psy level"
    assert cards_drawn(2, "player") == 2
    assert cards_drawn(2, "enemy") == 4
    assert discarded_on_death(3, "player") == 3
    with pytest.raises(ScenarioError, match="level"):
        cards_drawn(0, "player")
    with pytest.raises(ScenarioError, match="side"):
        cards_drawn(1, "neutral")


def test_action_costs():
    assert action_cost("CURSE") == (1, 0)  # "All psy cards take 1 action to play"
    assert action_cost("CURSE", enemy_turn=True) == (0, 1)  # "cost 1 action from the following turn"
    assert action_cost("PHASE") == action_cost("TELEPORT", enemy_turn=True) == (0, 0)
    assert action_cost("INFERNO", enemy_turn=True, harmed=True) == (0, 0)
    assert action_cost("INFERNO", enemy_turn=True) == (0, 1)


def test_play_checks():
    levels = {"a": 2, "b": 1}
    # "Models with more than 1 psy level may play 1 card per psy level, as a single action"
    assert check_play([("a", "CURSE"), ("a", "FLASH"), ("b", "PHASE")], levels) == 1
    with pytest.raises(ScenarioError, match=r"played\.2.*Psy level"):
        check_play([("a", "CURSE"), ("a", "FLASH"), ("a", "HEAL")], levels)
    with pytest.raises(ScenarioError, match=r"played\.1.*twice"):  # "each card is only used once per turn"
        check_play([("a", "CURSE"), ("b", "CURSE")], levels)
    with pytest.raises(ScenarioError, match="line of sight"):
        check_play([("a", "CURSE")], levels, los=[False])
    assert check_play([("a", "OBFUSCATE")], levels, los=[False]) == 1  # no LOS needed to the hiders
    with pytest.raises(ScenarioError, match="discard"):
        check_play([("a", "CURSE")], levels, side="enemy", discarded=frozenset({"CURSE"}))
    with pytest.raises(ScenarioError, match="unknown psyker"):
        check_play([("c", "CURSE")], levels)


def test_card_roll_by_hand_and_icepool():
    # 2 reds at 13" (-1) need 3: totals >= 4 are (1,3) (3,1) (2,2) (2,3) (3,2) (3,3): 6/36
    r = card_roll("2R", 3, distance=13)
    assert r["range_penalty"] == 1
    assert r["success"] == pytest.approx(float(Fraction(6, 36)), abs=1e-12)
    die = icepool.Die(RED)
    ref = (2 @ die >= 4).probability(True)
    assert r["success"] == pytest.approx(float(ref), abs=1e-12)
    assert r["incursion"] == pytest.approx(1 / 36, abs=1e-15)  # "max out on all the dice"
    assert card_roll("2R", 3, name="PROJECTION", distance=13)["success"] == pytest.approx(
        float((2 @ die >= 3).probability(True)), abs=1e-12
    )


def test_psychic_hood_rerolls_one_die_optimally():
    # 1 red need 2: 2/6, and with the hood a failed die is re-rolled: 2/6 + 4/6 * 2/6 = 20/36
    assert card_roll("1R", 2, hood=True)["success"] == pytest.approx(float(Fraction(20, 36)), abs=1e-12)
    # brute force over every face and every die for 1W+1R need 3
    kinds = (WHITE, RED)
    total = Fraction(0)
    for faces in product(*kinds):
        best = Fraction(int(sum(faces) >= 3))
        for i, k in enumerate(kinds):
            p = Fraction(sum(sum(faces) - faces[i] + g >= 3 for g in k), 6)
            best = max(best, p)
        total += best / 36
    assert card_roll("1W+1R", 3, hood=True)["success"] == pytest.approx(float(total), abs=1e-12)
