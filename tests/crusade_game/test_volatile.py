"""VIII VOLATILE in the grid game (reading ``volatile``): "If the bearer is killed by more than a
graze, the weapon Explodes (as explode Fail result)"."""

from __future__ import annotations

import json

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import KILLED
from grimdice.systems.crusade.game.combat import GRAZE_DEFENDER, cached_law
from grimdice.systems.crusade.game.state import LOST, invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER, at, state

HALL = "##########\n#........#\n#........#\n#........#\n##########"
TANK = {"name": "tank", "dice": "2R", "kind": "ranged", "effects": ["V", "SFT", "K"]}
BURNER = dict(STEALER, name="Burner", weapons=[TANK])
GUN = dict(MARINE, weapons=[{"name": "gun", "dice": "2R+1W", "kind": "ranged", "effects": ["K"]}])


def _shot():
    """Marine 0 at (1, 2) shoots the burner at (4, 2); a stealer stands beside it at (5, 2)."""
    s = state(HALL, [at("Marine", 1, 2)], [at("Burner", 4, 2), at("Stealer", 5, 2)],
              profiles=[GUN, STEALER, BURNER])  # fmt: skip
    return s.apply(("activate", 0)).apply(("shoot", 1, "gun"))


def test_killed_by_more_than_a_graze_the_weapon_explodes_and_is_lost():
    s = _shot()
    law = cached_law(s.pending[4])
    big = next(
        n for n, ((ds, _, _, _, push), _) in enumerate(law) if ds[0] == KILLED and not push & GRAZE_DEFENDER
    )
    after = s.apply(("attack", big))
    assert after.tokens[1].cond == KILLED and after.tokens[1].arms == (LOST,)
    # VIII EXPLODE "centered on the bearer (SFT=1"A ...)": the stealer beside it is rolled at
    assert after.pending[:4] == ("attack", "explode", 1, 2) and not invariant_errors(after)


def test_killed_by_a_graze_the_weapon_does_not_explode():
    s = _shot()
    law = cached_law(s.pending[4])
    graze = next(
        n for n, ((ds, _, _, _, push), _) in enumerate(law) if ds[0] == KILLED and push & GRAZE_DEFENDER
    )
    after = s.apply(("attack", graze))
    assert after.tokens[1].cond == KILLED and after.tokens[1].arms == ("",) and not after.pending


def test_the_chance_of_the_explosion_is_calculate_s():
    s = _shot()
    law = cached_law(s.pending[4])
    explodes = sum(p for (ds, _, _, _, push), p in law if ds[0] == KILLED and not push & GRAZE_DEFENDER)
    res = calculate(json.loads(s.pending[4]))
    assert explodes == pytest.approx(res.extra["defender_volatile_explodes"], abs=1e-12)
    assert 0 < explodes < sum(p for (ds, *_), p in law if ds[0] == KILLED)
