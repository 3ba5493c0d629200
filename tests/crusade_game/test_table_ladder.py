"""V: "To traverse ladders that are blocked by an enemy at the opposite end, you must spend your
action to awkward melee your opponent- if you tie or lose, you cannot take other actions and must
wait at the starting end of the ladder." On the table, against ``calculate()``."""

from __future__ import annotations

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.state import invariant_errors
from tests.crusade_game.table_helpers import active, put, table
from tests.crusade_game.test_table import GANGER, block, game

LADDER = table(terrain=[block(5, 4, 6, 5, 2)], ladders=[{"at": [4, 4, 0], "to": [5, 4, 2]}])


def _held():
    return active(game(LADDER, [put("Ganger", 4, 4)], [put("Ganger", 5, 4, 2), put("Ganger", 11, 7)]))


def test_the_awkward_melee_across_a_held_ladder_is_calculate_s_awkward_melee():
    s = _held()
    assert ("melee", 1) not in s.legal_actions()  # not adjacent: 2" apart in height
    assert ("ladder_melee", 1) in s.legal_actions()
    s = s.apply(("ladder_melee", 1))
    assert s.pending[:4] == ("attack", "ladder", 0, 1)
    ganger = {k: v for k, v in GANGER.items() if k != "move"}
    res = calculate(
        {"system": "crusade", "action": "melee", "awkward": True, "attacker": ganger, "defender": ganger}
    )
    law: dict[int, float] = {}
    for (ds, *_), p in cached_law(s.pending[4]):
        law[ds[0]] = law.get(ds[0], 0.0) + p
    for k, cond in enumerate(("unharmed", "stunned", "wounded", "ko", "killed")):
        assert law.get(k, 0.0) == pytest.approx(res.extra["end_state"][cond], abs=1e-12)
    plain = calculate({"system": "crusade", "action": "melee", "attacker": ganger, "defender": ganger})
    assert res.extra["end_state"]["killed"] < plain.extra["end_state"]["killed"]  # -1: awkward


def test_a_tie_or_a_loss_waits_at_the_foot_a_win_that_frees_the_top_climbs():
    s = _held().apply(("ladder_melee", 1))
    ends = cached_law(s.pending[4])
    tie = next(k for k, ((ds, as_, *_), _) in enumerate(ends) if ds == (0, 1) and as_ == (0, 1))
    waited = s.apply(("attack", tie))
    assert waited.tokens[0].sq == (4, 4, 0) and waited.budget == 0
    assert not any(a[0] in ("move", "ladder") for a in waited.legal_actions())
    killed = next(k for k, ((ds, *_), _) in enumerate(ends) if ds[0] == 4)
    won = s.apply(("attack", killed))
    assert ("move", 5, 4, 2) in won.legal_actions()  # the far end is free: climbed as any step
    assert not invariant_errors(won)
