"""Furious out of a transport: "they may use an Assault action at Walk distance to disembark from
transports". The whole assault, the block's move and each model's own move on into base contact
(``melee_moves.assaulters_moved``), is at Walk distance: no model moves more than 6" in total."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from grimdice.systems.onepage.game import GameState, deploy, melee_moves
from grimdice.systems.onepage.game.deployment import ON_TABLE
from grimdice.systems.onepage.game.transport import from_hull
from tests.onepage_game.test_transport import RHINO, SQUAD, setup_of

FURIOUS = dict(SQUAD, special_rules=["Furious"])


def aboard(enemy: tuple[float, float]) -> GameState:
    s = deploy(setup_of(RHINO, FURIOUS), 0, 0)
    return replace(s, anchors=((36.0, 10.0), (36.0, 10.0), enemy), place=(ON_TABLE, 0, ON_TABLE))


@pytest.mark.parametrize("enemy", [(42.0, 15.0), (44.0, 15.0), (40.0, 16.0)])
def test_no_model_moves_more_than_a_walk_when_assaulting_out_of_a_transport(
    enemy: tuple[float, float],
) -> None:
    s = aboard(enemy)
    assert ["assault", 1, 2] in s.legal_actions()
    start = from_hull(s, 1, 0).models(1)  # the squad on the hull's centre, where it disembarks from
    c = s.apply(["assault", 1, 2])
    assert c.pending[0] == "melee"
    moved = np.hypot(*(melee_moves.assaulters_moved(c, 1, 2) - start).T)
    assert (moved <= 6.0 + 1e-6).all()  # "at Walk distance"
    # the models did move on past the block's move (the cap binds, it does not freeze them)
    block = float(np.hypot(c.anchors[1][0] - 36.0, c.anchors[1][1] - 10.0))
    assert (moved > block + 0.1).any()


def test_the_same_assault_on_the_table_keeps_its_12_inch_allowance() -> None:
    """On the table the model-by-model moves keep the Assault's 12": some model moves over 6" from
    where the same squad stands on the table (so the cap above is the transport's, not every
    assault's)."""
    s = aboard((44.0, 15.0))
    on = replace(s, place=(ON_TABLE,) * 3)
    assert ["assault", 1, 2] in on.legal_actions()
    start = on.models(1)
    c = on.apply(["assault", 1, 2])
    moved = np.hypot(*(melee_moves.assaulters_moved(c, 1, 2) - start).T)
    assert moved.max() > 6.0 + 0.1
