"""The AI's valuation follows the scoring rule: "sum the point value of all enemy units they
completely destroyed, or that are pinned" — at the end of the game, so a pin counts in full only
for a unit that has no activation left to recover in."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grimdice.systems.onepage.ai.players import PIN_TEMPO, pin_share, shot_value, worth
from grimdice.systems.onepage.game.state import ROUNDS, combat_law
from tests.onepage_game.test_game import SHOOTERS, TARGETS, duel

# Quality 5+ targets: losing 3 or more of 5 models at once forces a morale test, failed on 1-4
BRITTLE = dict(TARGETS, quality=5)


def test_a_pin_counts_in_full_only_when_the_unit_cannot_recover() -> None:
    s = duel(SHOOTERS, BRITTLE)
    assert pin_share(s, 1) == PIN_TEMPO  # round 1: it idles next activation and recovers
    last = replace(s, round=ROUNDS)
    assert pin_share(last, 1) == PIN_TEMPO  # last round, still to activate: it will recover
    done = replace(last, activated=(False, True))
    assert pin_share(done, 1) == 1.0  # last round, already activated: pinned at the end
    assert pin_share(replace(last, active=1), 1) == 1.0  # acting now (an assaulter)
    pinned = replace(s.units[1], pinned=True)
    cost = s.setup.units[1].cost
    assert worth(s.setup, 1, pinned, PIN_TEMPO) == pytest.approx(PIN_TEMPO * cost)
    assert worth(s.setup, 1, pinned) == cost


def test_shot_value_differs_by_the_pin_share_of_the_pinned_outcomes() -> None:
    """Between a target that can still recover and one that cannot, a shot's expected value differs
    by exactly (1 - PIN_TEMPO) x cost x P(target ends pinned and not destroyed)."""
    s = duel(SHOOTERS, BRITTLE, gap=8.0)
    last = replace(s, round=ROUNDS)
    done = replace(last, activated=(False, True))
    key = last.shot_key(0, 1, None, "hold")
    assert key[1] > 0
    law = combat_law(s.setup, "shoot", 0, s.units[0], 1, s.units[1], key)
    p_pin = sum(p for (st,), p in law if st.pinned and not st.destroyed)
    assert p_pin > 0.01
    cost = s.setup.units[1].cost
    gap = shot_value(done, 0, 1, None, "hold") - shot_value(last, 0, 1, None, "hold")
    assert gap == pytest.approx((1 - PIN_TEMPO) * cost * p_pin, abs=1e-9)
