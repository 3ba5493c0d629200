"""A shot from beyond any range it can damage at: the text sets no maximum range, so it is fired
and its dice still fail; the result says so."""

from __future__ import annotations

import pytest

from grimdice.systems.base import calculate


def shot(range_: float) -> dict:
    return {
        "system": "crusade",
        "action": "shoot",
        "range": range_,
        "attacker": {"name": "Trooper", "armour": 1, "hits": 1, "weapons": [{"name": "rifle", "dice": "2W"}]},
        "defender": {"name": "Cultist", "armour": 1, "hits": 1},
    }


def test_a_shot_far_out_of_reach_still_fails_on_its_dice_and_says_why():
    far = calculate(shot(240))  # -20: two whites (at most 4) can never reach armour 1
    assert far.stages["damage"].mean() == 0
    # III: a fail is two maximum faces, whatever the range: both whites on 2, 1/36
    assert far.stages["fail"].pmf[1] == pytest.approx(1 / 36, abs=1e-12)
    assert any("no_maximum_range" in n for n in far.notes)


def test_in_reach_no_such_note():
    near = calculate(shot(14))
    assert near.stages["damage"].mean() > 0
    assert not any("no_maximum_range" in n for n in near.notes)
