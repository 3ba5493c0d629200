"""The One Page dispatch (onepage/evaluate.py): which readings a melee notes, from its units alone."""

from __future__ import annotations

from grimdice.systems.onepage.evaluate import melee_keys
from tests.onepage.helpers import unit

FISTS = ["Fists/Claws"]  # A1


def test_plain_melee_notes_only_who_strikes():
    # 2 x (A1 + 1 assault bonus) = 4 attacks at 5 wounds; 5 x A1 = 5 strike back at 2 x Tough(3) = 6
    a = unit("A", 2, 4, FISTS, rules=["Tough(3)"])
    d = unit("D", 5, 4, FISTS)
    assert melee_keys(a, d) == ["who_strikes"]


def test_weapon_rules_the_assault_bonus_lacks_and_rending_in_melee():
    # OP40k 2.21 Melee: "the assaulting unit receives a bonus of 1 Attack per assaulting model" (a
    # bonus attack has no weapon rules); Rending's text says "firing": its melee use is a reading
    a = unit("A", 2, 4, ["Claws (A1, Rending)"], rules=["Tough(3)"])
    d = unit("D", 5, 4, FISTS)
    assert melee_keys(a, d) == ["who_strikes", "assault_bonus", "rending"]


def test_attacks_up_to_the_last_wound_and_furious():
    # 5 x (A1 + 1 assault bonus + 1 Furious) = 15 attacks: at 5 x Tough(3) = 15 wounds the last may
    # be reached (wounds beyond it are lost), at 5 x Tough(6) = 30 not; 5 strike back at 10 wounds
    a = unit("A", 5, 4, FISTS, rules=["Furious", "Tough(2)"])
    assert melee_keys(a, unit("D", 5, 4, FISTS, rules=["Tough(3)"])) == [
        "who_strikes",
        "melee_wounds",
        "furious",
    ]
    assert melee_keys(a, unit("D", 5, 4, FISTS, rules=["Tough(6)"])) == ["who_strikes", "furious"]
