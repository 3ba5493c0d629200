"""The AI's next charge from difficult terrain (``ai/footing.py``): a unit ending a move with a base
in a forest moves through it when it next moves, so its next Assault reaches only its Walk."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.ai import footing, threat
from tests.onepage_game.test_charge_timing import GANG, RAIDERS
from tests.onepage_game.test_game import duel
from tests.onepage_game.test_table_legality import rect

# a forest west of the line between the two mobs: the Gang's row at x = 28 has a base in it, at 44 none
FOREST = rect("forest", 14.0, 26.0, 26.0, 36.0, "difficult", "cover")


def test_a_charge_from_a_forest_reaches_only_the_walk() -> None:
    """The Gang (Furious, its charge favours it) ends 6.8" from the Raiders, who have activated (they
    do not charge first): from the open its next charge is counted, from the forest (over its 6"
    Walk) it is not; a Strider gang treats the forest as open."""
    s = replace(duel(GANG, RAIDERS, Table(terrain=(FOREST,)), gap=22.0), player=0, activated=(False, True))
    odds = threat.charge_odds(s, 0)
    assert odds[1] > 0
    in_forest, in_open = (28.0, 34.0), (44.0, 34.0)  # mirror images about the Raiders' centre line
    for end in (in_forest, in_open):
        assert 6.0 < s.gap(0, 1, end) < 12.0
    assert footing.in_difficult(s, 0, in_forest) and not footing.in_difficult(s, 0, in_open)
    assert footing.charge_reach(s, 0, in_forest) == 6.0 and footing.charge_reach(s, 0, in_open) == 12.0
    assert threat.prospect(s, 0, in_open) == pytest.approx(odds[1])
    assert threat.prospect(s, 0, in_forest) == 0.0
    strider = replace(
        duel(dict(GANG, special_rules=["Furious", "Strider"]), RAIDERS, Table(terrain=(FOREST,)), gap=22.0),
        player=0,
        activated=(False, True),
    )
    assert footing.charge_reach(strider, 0, in_forest) == 12.0
    assert threat.prospect(strider, 0, in_forest) == pytest.approx(threat.charge_odds(strider, 0)[1])
