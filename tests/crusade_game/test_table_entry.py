"""VI FORCE ENTRY with any kind of attack (reading ``forced_entry``): "make any kind of attack on the
building while adjacent, and roll > the building's armor. Do not add +1 for area/line effect. +P
still adds 1 to your roll however." The roll is the attack's own: III's fails and VIII RELOAD leave
the weapons as any attack does; a melee is the model's melee (IV), SPIKY's dice not added (VIII).
Dice faces: white 0 0 0 0 1 2, red 0 0 0 1 2 3; the fractions are counted by hand."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from grimdice.engine.playing import sample
from grimdice.systems.crusade.ai.players import ai_player
from grimdice.systems.crusade.game.state import JAMMED, LOST, READY, UNLOADED
from tests.crusade_game.helpers import MARINE, STEALER
from tests.crusade_game.table_helpers import active, put, table, table_state
from tests.crusade_game.test_table import GANGER
from tests.crusade_game.test_table_sight import hab

MUSKET = {"name": "musket", "dice": "2R", "kind": "ranged", "effects": ["J", "RELOAD"]}
CHAIN = {"name": "chain", "dice": "1W", "kind": "melee", "effects": ["J"]}


def _beside(profile, stealer=STEALER):
    """``profile`` at (3, 3), beside the hab's west sector, which a Stealer holds; activated."""
    board = table(buildings=[hab()])
    s = active(
        table_state(
            board, [put(profile["name"], 3, 3)], [put("Stealer", 5, 5, 0)], profiles=[profile, stealer]
        )
    )
    return s, s.setup.board.indoors((5, 5, 0))


def _marine(*weapons):
    return dict(MARINE, weapons=[*MARINE["weapons"], *weapons])


def _law(s, action):
    return {o: Fraction(p).limit_denominator(1000) for o, p in s.apply(action).chance_outcomes()}


def _forces(s):
    return [a for a in s.legal_actions() if a[0] == "force"]


def test_a_reload_weapon_is_unloaded_and_its_fail_jams_it():
    # VIII RELOAD: "You must spend an action to reload for each shot"; III: "A weapon fails if it
    # rolls a maximum value on two or more dice. The firing result still applies"; VIII JAM.
    # 2R > armour 1: 21 of the 36 rolls; both reds at 3 (a fail, and made): 1 of them
    s, west = _beside(_marine(MUSKET))
    assert ("force", west, "musket") in _forces(s)
    law = _law(s, ("force", west, "musket"))
    assert law == {
        ("force", 1): Fraction(20, 36),
        ("force", 1, "musket"): Fraction(1, 36),
        ("force", 0): Fraction(15, 36),
    }
    tried = s.apply(("force", west, "musket"))
    for outcome, state in (
        (("force", 1), UNLOADED),
        (("force", 0), UNLOADED),
        (("force", 1, "musket"), JAMMED),
    ):
        after = tried.apply(outcome)
        assert after.tokens[0].arms[-1] == state
        assert len(after.breaches) == outcome[1]
    assert ("force", west, "musket") not in _forces(tried.apply(("force", 0)).apply(("end",)))


def test_a_jam_weapon_jams_only_on_its_fail():
    # the bolter 2W+1R (J): two maximum dice of three, 16 of 216 rolls, all over armour 1
    s, west = _beside(MARINE)
    law = _law(s, ("force", west, "bolter"))
    assert law[("force", 1, "bolter")] == Fraction(16, 216)
    assert sum(p for o, p in law.items() if o[1]) == Fraction(16, 27)
    tried = s.apply(("force", west, "bolter"))
    assert tried.apply(("force", 1)).tokens[0].arms[0] == READY
    assert tried.apply(("force", 1, "bolter")).tokens[0].arms[0] == JAMMED


def test_a_melee_forced_entry_rolls_the_base_and_melee_weapon_dice_together():
    # IV: the melee dice (1W+1R) and the melee weapon's (1W) rolled together (III: "Dice for melees
    # ... must be rolled together for fail purposes"): 2W+1R > 1 in 16 of 27; a fail 2 of 27
    s, west = _beside(dict(MARINE, weapons=[MARINE["weapons"][0], CHAIN]))
    forces = _forces(s)
    assert ("force", west, "") in forces and ("force", west, "chain") not in forces  # one melee
    law = _law(s, ("force", west, ""))
    assert law == {
        ("force", 1): Fraction(14, 27),
        ("force", 1, "chain"): Fraction(2, 27),
        ("force", 0): Fraction(11, 27),
    }
    after = s.apply(("force", west, "")).apply(("force", 1, "chain"))
    assert after.tokens[0].arms == (READY, JAMMED) and after.breaches == (((3, 3, 0), west),)


def test_a_stealer_forces_entry_with_its_melee_not_its_spiky_claws():
    # VIII SPIKY: "weapon dice are added to melee only if the user is Defending, or if attacking with
    # Overrun, ZOC, or Dive Attack": its 2R alone, > 1 in 21 of 36 (2R+1W would be 49 of 72)
    board = table(buildings=[hab()])
    s = active(table_state(board, [put("Marine", 5, 5, 0)], [put("Stealer", 3, 3)], first=1), 1)
    west = s.setup.board.indoors((5, 5, 0))
    assert _forces(s) == [("force", west, "")]
    assert _law(s, ("force", west, "")) == {("force", 1): Fraction(21, 36), ("force", 0): Fraction(15, 36)}


def test_area_adds_nothing_and_penetrating_adds_one():
    # VI: "Do not add +1 for area/line effect. +P still adds 1 to your roll however."
    frag = {"name": "frag", "dice": "1W+1R", "kind": "grenade", "effects": ["AREA 1"]}
    krak = {"name": "krak", "dice": "1W+1R", "kind": "grenade", "effects": ["+P"]}
    s, west = _beside(_marine(frag, krak))
    made = {w: sum(p for o, p in _law(s, ("force", west, w)).items() if o[1]) for w in ("frag", "krak")}
    assert made == {"frag": Fraction(17, 36), "krak": Fraction(24, 36)}  # 1W+1R > 1; 1W+1R + 1 > 1


def test_barrage_is_never_offered_and_artillery_not_after_a_move():
    # VIII BARRAGE: "Minimum range 8""; ARTILLERY: "May not move and fire"
    gun = {"name": "gun", "dice": "2R", "kind": "ranged", "effects": ["ARTILLERY"]}
    mortar = {"name": "mortar", "dice": "2R", "kind": "ranged", "effects": ["BARRAGE"]}
    s, west = _beside(_marine(gun, mortar))
    assert ("force", west, "gun") in _forces(s) and ("force", west, "mortar") not in _forces(s)
    assert s.apply(("force", west, "gun")).budget == 0  # fired: its move ends
    assert ("force", west, "gun") not in _forces(s.apply(("move", 3, 4, 0)))


def test_an_exploding_weapon_s_fail_makes_its_attack_on_the_bearer():
    # VIII EXPLODE: "On a fail, make an attack from the weapon, centered on the bearer ... The
    # weapon is lost."
    boom = {"name": "plasma", "dice": "2R", "kind": "ranged", "effects": ["EXPLODE"]}
    s, west = _beside(_marine(boom))
    after = s.apply(("force", west, "plasma")).apply(("force", 1, "plasma"))
    assert after.breaches == (((3, 3, 0), west),) and after.tokens[0].arms[-1] == LOST
    assert after.pending[:4] == ("attack", "explode", 0, 0)


def test_the_game_s_draws_follow_the_exact_law():
    # the game draws a chance node's outcome from its law (engine.playing.sample): the musket's
    # forced entries end made and unloaded in 20/36, made and jammed in 1/36, not made in 15/36
    s, west = _beside(_marine(MUSKET))
    tried = s.apply(("force", west, "musket"))
    rng = np.random.default_rng(7)
    n = 20_000
    ends = Counter()
    for _ in range(n):
        after = tried.apply(sample(tried.chance_outcomes(), rng))
        ends[len(after.breaches), after.tokens[0].arms[-1]] += 1
    want = {(1, UNLOADED): Fraction(20, 36), (1, JAMMED): Fraction(1, 36), (0, UNLOADED): Fraction(15, 36)}
    assert set(ends) == set(want)
    for end, p in want.items():
        sd = (float(p) * (1 - float(p)) / n) ** 0.5
        assert ends[end] / n == pytest.approx(float(p), abs=4.5 * sd)


def test_the_ai_forces_entry_with_its_best_attack():
    # a ganger's melee 1W+1R > 1 in 17 of 36, its autogun's 2W in 12 of 36: the melee
    s, west = _beside(GANGER)
    assert _forces(s) == [("force", west, "autogun"), ("force", west, "")]
    assert ai_player(s, np.random.default_rng(0)) == ("force", west, "")
    # the marine's bolter and melee both make it in 16 of 27; the bolter may jam (J), the knife not
    s, west = _beside(MARINE)
    assert ai_player(s, np.random.default_rng(0)) == ("force", west, "")
