"""VIII BURN's shots at hidden models (reading ``burn_hidden``): "You may ignore cover and may fire
at hidden models. Hidden models that are attacked will be revealed even if they take no damage, as
long as a result greater than zero is rolled on the dice ... You may not reveal blips!"."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import CONDITIONS, NONE
from grimdice.systems.crusade.game import many
from grimdice.systems.crusade.game.state import invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER, at, state
from tests.crusade_game.test_many import _bare

HALL = "##########\n#........#\n#........#\n#........#\n##########"


def _armed(effects: list[str]) -> dict:
    """A marine whose one gun is a 2-red ranged weapon with ``effects``."""
    return dict(MARINE, weapons=[{"name": "burner", "dice": "2R", "kind": "ranged", "effects": effects}])


def _hidden_stealer(effects: list[str], **kw):
    """Marine 0 at (1, 2), activated; stealer 1 hidden at (4, 2) in its sight."""
    s = state(HALL, [at("Marine", 1, 2)], [at("Stealer", 4, 2)], profiles=[_armed(effects), STEALER], **kw)
    return s.with_token(1, hidden=True).apply(("activate", 0))


def test_a_burn_weapon_may_fire_at_a_hidden_model_in_sight():
    s = _hidden_stealer(["W", "BURN"])
    assert s.setup.board.sight((1, 2), (4, 2), {}, s.occupied())
    assert ("shoot", 1, "burner") in s.legal_actions()


def test_other_weapons_may_not_fire_at_hidden_models():
    # II: "To fire at an opponent, you must have line of sight (LOS) and they may not be hidden"
    s = _hidden_stealer(["W"])
    assert not [a for a in s.legal_actions() if a[0] == "shoot"]


def test_a_burn_weapon_still_needs_line_of_sight():
    walled = "##########\n#........#\n#...#....#\n#........#\n##########"
    s = state(walled, [at("Marine", 1, 2)], [at("Stealer", 6, 2)], profiles=[_armed(["BURN"]), STEALER])
    s = s.with_token(1, hidden=True).apply(("activate", 0))
    assert not s.setup.board.sight((1, 2), (6, 2), {}, s.occupied())
    assert not [a for a in s.legal_actions() if a[0] == "shoot"]


def test_a_burn_weapon_may_not_fire_at_a_blip():
    # VIII BURN: "You may not reveal blips!"
    blips = {"blips": [{"at": [4, 2], "models": ["Stealer"]}]}
    s = state(
        HALL, [at("Marine", 1, 2)], [at("Stealer", 8, 1)], profiles=[_armed(["BURN"]), STEALER], force_b=blips
    )
    s = s.with_token(1, hidden=True).apply(("activate", 0))
    blip = next(k for k, t in enumerate(s.tokens) if t.blip)
    assert not [a for a in s.legal_actions() if a[0] == "shoot" and a[1] == blip]


def _fired(outcome):
    s = _hidden_stealer(["W", "BURN"]).apply(("shoot", 1, "burner"))
    assert s.pending[1] == "many" and s.pending[6] == (1,)
    law = many.cached_joint(s.pending[4])
    return s.apply(("attack", next(n for n, (end, _) in enumerate(law) if outcome(end))))


def test_the_hidden_target_is_revealed_by_a_result_above_zero_harmed_or_not():
    harmed = _fired(lambda end: end[0][0][0] != NONE)
    assert not harmed.tokens[1].hidden and not invariant_errors(harmed)
    unharmed = _fired(lambda end: end[0][0][0] == NONE and end[4][0])
    assert unharmed.tokens[1].cond == NONE and not unharmed.tokens[1].hidden
    zero = _fired(lambda end: end[0][0][0] == NONE and not end[4][0])
    assert zero.tokens[1].cond == NONE and zero.tokens[1].hidden


def test_the_shot_at_a_hidden_model_equals_calculate_and_reveals_with_the_dice_s_chance():
    # the game's shot equals calculate()'s single shot of the same weapon at the same model
    s = _hidden_stealer(["W", "BURN"]).apply(("shoot", 1, "burner"))
    by_hand = {
        "system": "crusade",
        "action": "shoot",
        "attacker": _bare(_armed(["W", "BURN"])),
        "defender": _bare(STEALER),
        "range": json.loads(s.pending[4])["range"],
    }
    law = many.cached_joint(s.pending[4])
    single = calculate(by_hand).extra["end_state"]
    for c, cond in enumerate(CONDITIONS):
        assert sum(p for (st, *_), p in law if st[0][0] == c) == pytest.approx(single[cond], abs=1e-9)
    # 2 reds (0 0 0 1 2 3) at armour 1: a total of 1 reveals it unharmed, 0 keeps it hidden
    totals = Counter(a + b for a, b in product((0, 0, 0, 1, 2, 3), repeat=2))
    unharmed = {True: 0.0, False: 0.0}  # revealed or not
    for (st, *_, r), p in law:
        if st[0][0] == NONE:
            unharmed[r[0]] += p
    assert unharmed[True] == pytest.approx(float(Fraction(totals[1], 36)), abs=1e-12)
    assert unharmed[False] == pytest.approx(float(Fraction(totals[0], 36)), abs=1e-12)
