"""V DIVE ATTACK on the table: the jump as a chance node with V JUMPING's chance, then the
calculator's dive melee (+O, no re-rolls), or a fall and a stun."""

from __future__ import annotations

from itertools import product

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.state import invariant_errors
from tests.crusade_game.helpers import MARINE
from tests.crusade_game.table_helpers import active, put, table, table_state
from tests.crusade_game.test_table import block

R = (0, 0, 0, 1, 2, 3)


def _perch(height=2, at=(6, 3)):
    """A marine on a block ``height``" high, a stealer on the ground at ``at``."""
    board = table(terrain=[block(3, 2, 5, 5, height)])
    return active(table_state(board, [put("Marine", 4, 3, height)], [put("Stealer", *at)]))


def test_a_dive_is_a_jump_of_the_distance_out_plus_one_then_a_melee_with_plus_o():
    # "Measure the distance out from the edge to your target and add 1. You must JUMP this
    # distance": the free place beside the stealer nearest the marine is 1" across, so 2"; move 4:
    # 2 reds >= 2" + armour 2
    s = _perch()
    assert ("dive", 1) in s.legal_actions()
    s = s.apply(("dive", 1))
    assert s.pending[0] == "dive" and s.pending[3] == (5, 3, 0) and s.pending[4] == 2
    made = sum(1 for a, b in product(R, R) if a + b >= 2 + 2) / 36
    assert dict(s.chance_outcomes())[("dive", 1)] == pytest.approx(made)
    after = s.apply(("dive", 1))
    assert after.tokens[0].sq == (5, 3, 0) and after.pending[:4] == ("attack", "melee", 0, 1)
    # "make a melee attack with +O, and neither you nor the defender can reroll": calculate()'s dive
    res = calculate(
        {
            "system": "crusade",
            "action": "melee",
            "attack_mode": "dive",
            "attacker": {k: v for k, v in MARINE.items() if k != "move"},
            "defender": {
                "name": "Stealer",
                "armour": 1,
                "hits": 1,
                "melee": "2R",
                "weapons": [{"name": "claws", "dice": "1W", "kind": "spiky", "effects": ["W"]}],
            },
        }
    )
    law: dict[str, float] = {}
    for (ds, *_), p in cached_law(after.pending[4]):
        law[ds[0]] = law.get(ds[0], 0.0) + p
    killed = res.extra["end_state"]["killed"]
    assert law.get(4, 0.0) == pytest.approx(killed, abs=1e-12)


def test_a_failed_dive_falls_beside_the_target_stunned():
    # "or you will fall and take a stun"
    s = _perch().apply(("dive", 1)).apply(("dive", 0))
    me = s.tokens[0]
    assert me.sq == (5, 3, 0) and me.cond == 1 and s.pending == ()
    assert s.budget == 0 and not any(a[0] in ("move", "melee", "dive") for a in s.legal_actions())
    assert not invariant_errors(s)


def test_no_dive_onto_a_target_level_or_too_far_below_or_across():
    assert not any(a[0] == "dive" for a in _perch(height=4).legal_actions())  # 4" down is a FALL
    assert not any(a[0] == "dive" for a in _perch(at=(10, 3)).legal_actions())  # 6"+1 across
    board = table()
    s = active(table_state(board, [put("Marine", 4, 3)], [put("Stealer", 6, 3)]))
    assert not any(a[0] == "dive" for a in s.legal_actions())  # not lower than the diver


def diver(s, rng):
    """A random player that dives whenever it may."""
    from tests.crusade_game.test_table_games import climber

    dives = [a for a in s.legal_actions() if a[0] == "dive"]
    return dives[int(rng.integers(len(dives)))] if dives else climber(s, rng)


def test_games_with_dives_keep_the_invariants_and_replay():
    from grimdice.systems.crusade.game.scenario import build_setup
    from tests.crusade_game.table_helpers import table_scenario
    from tests.crusade_game.test_table_games import HEIGHTS, _checked

    a = [put("Marine", 4, 2, 2), put("Marine", 7, 2, 2)]  # on the two 2" towers
    data = table_scenario(HEIGHTS, a, [put("Stealer", 13, 2), put("Stealer", 12, 6)], turns=5)
    setup = build_setup(data)
    seen: set[str] = set()
    for seed in (0, 1, 5, 8):  # the seeds' games play a dive
        _, kinds = _checked(setup, (diver, diver), seed)
        seen.update(kinds)
    assert "dive" in seen
