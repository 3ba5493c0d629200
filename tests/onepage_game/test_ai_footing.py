"""The AI's next charge from difficult terrain (``ai/footing.py``): a unit ending a move with a base
in a forest moves through it when it next moves, so its next Assault reaches only its Walk."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.ai import footing, threat
from grimdice.systems.onepage.ai.players import ai_player
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


def test_the_next_run_from_a_forest_loses_the_run_beyond_the_walk() -> None:
    """The guide: "If any model of a unit moves through difficult terrain at any point of its move, the
    unit may not move more than its Walk action distance": ending with a base in the forest, the Gang's next
    Run (12") is cut to its Walk (6"), 6" lost; in the open or as a Strider nothing is lost."""
    s = replace(duel(GANG, RAIDERS, Table(terrain=(FOREST,)), gap=22.0), player=0)
    in_forest, in_open = (28.0, 34.0), (44.0, 34.0)
    assert footing.slowed(s, 0, in_forest) == 6.0 and footing.slowed(s, 0, in_open) == 0.0
    strider = duel(
        dict(GANG, special_rules=["Furious", "Strider"]), RAIDERS, Table(terrain=(FOREST,)), gap=22.0
    )
    assert footing.slowed(strider, 0, in_forest) == 0.0


def test_a_mob_closing_in_does_not_end_its_move_in_a_forest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Gang 39" from the Raiders (nothing in reach either way, no exposure): a Walk north-west
    into the forest is 6" nearer and in cover, which the AI took before it counted the Run it loses
    there; counting it, the Gang runs 12" in the open instead, so that its next move is a full Run."""
    wood = rect("forest", 14.0, 9.0, 36.0, 30.0, "difficult", "cover")
    s = replace(duel(GANG, RAIDERS, Table(terrain=(wood,))), anchors=((40.0, 6.0), (20.0, 44.0)), player=0)
    assert s.gap(0, 1) > 36.0 and threat.exposure(s, 0) == 0.0

    def end(a: list) -> tuple[float, float]:
        return (40.0 + a[2], 6.0 + a[3])

    rng = np.random.default_rng(0)
    new = ai_player(s, rng)
    assert new[0] == "run" and not footing.bogged(s, 0, end(new))
    monkeypatch.setattr(footing, "FOOTING", 0.0)
    old = ai_player(s, rng)
    assert old[0] == "walk" and footing.bogged(s, 0, end(old))
