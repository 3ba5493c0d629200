"""The AI's charge timing, on hand-built positions: a unit does not count on charging an enemy that
will charge it first from where it ends (``threat.strikes_first``), and in the last round a charge
is weighed by the chance to win it brings, not only its expected points (``players.melee_odds``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from grimdice.systems.onepage.ai import threat
from grimdice.systems.onepage.ai.players import WIN, ai_player, melee_odds, melee_value, worth
from grimdice.systems.onepage.game.state import ROUNDS, combat_law
from tests.onepage_game.test_game import TARGETS, duel
from tests.onepage_game.test_table_legality import state_of

GANG = {"name": "Gang", "size": 5, "quality": 4, "equipment": ["Hand Weapon"], "special_rules": ["Furious"]}
GANG["cost"] = 100
RAIDERS = dict(GANG, name="Raiders")


def test_a_charge_prospect_does_not_count_an_enemy_that_charges_first() -> None:
    """Two mobs whose charges each favour the charger, 20.7" apart. Ending 10.7" from the Raiders,
    the Gang is within their Assault distance: while they still activate this round they charge
    first, so the Gang's own next charge on them is not counted; once they have activated it is."""
    s = replace(duel(GANG, RAIDERS, gap=22.0), player=0)
    odds = threat.charge_odds(s, 0)
    assert odds[1] > 0 and melee_odds(s, 1, 0, threat.charge_key(s, 1, 0)) > 0
    end = (36.0, 30.0)
    assert s.gap(0, 1, end) < 12.0
    assert threat.strikes_first(s, 0, 1, end)
    assert threat.prospect(s, 0, end) == 0.0
    done = replace(s, activated=(False, True))
    assert threat.prospect(done, 0, end) == pytest.approx(odds[1])


def last_round(lead_points: int) -> tuple:
    """A Quality 4 Gang of 3 (100 points) 4" from the Targets (60 points) in the last round; the
    Gang's player leads by ``lead_points``: the points of an enemy unit already destroyed."""
    gang = dict(GANG, size=3)
    gone = {"name": "Gone", "quality": 5, "equipment": ["Hand Weapon"], "cost": lead_points}
    s = state_of([gang], [TARGETS, gone], [(36.0, 20.0), (36.0, 24.0), (10.0, 40.0)])
    s = replace(s, round=ROUNDS, activated=(False, True, True), player=0)
    units = list(s.units)
    units[2] = replace(units[2], routed=True)  # "Routed": removed from play, scores as destroyed
    return replace(s, units=tuple(units))


def test_in_the_last_round_a_charge_that_risks_the_lead_is_not_made() -> None:
    """The charge gains points on average (the Targets destroyed or pinned 67 %, the Gang 23 %), but
    leading by 50 the Gang's loss turns a win into a loss while the Targets' changes nothing: the
    charge is worth its points less WIN x the chance of losing the lead, and the AI holds. Leading
    by 500 (no outcome changes the result) it is worth its expected points, and the AI charges."""
    safe = last_round(500)
    law = combat_law(
        safe.setup, "melee", 0, safe.units[0], 1, safe.units[1], safe.charged(0, 1).melee_key(0, 1)
    )
    points = sum(
        p * ((worth(safe.setup, 1, s[1], 1.0, 0.0) - 0.0) - worth(safe.setup, 0, s[0], 1.0, 0.0))
        for s, p in law
    )
    lost = sum(
        p for s, p in law if worth(safe.setup, 0, s[0], 1.0, 0.0) - worth(safe.setup, 1, s[1], 1.0, 0.0) > 50
    )
    assert points > 0 and 0.1 < lost < 0.5
    assert melee_value(safe, 0, 1) == pytest.approx(points)
    assert ai_player(safe, np.random.default_rng(0)) == ["assault", 0, 1]
    close = last_round(50)
    assert melee_value(close, 0, 1) == pytest.approx(points - WIN * lost)
    assert melee_value(close, 0, 1) < 0
    assert ai_player(close, np.random.default_rng(0))[0] != "assault"
