"""The AI on a hand-built table: of the steps as near its goal, it takes the one fewer enemies see
(II: line of sight from where they stand; a wall hides the model behind it)."""

from __future__ import annotations

import numpy as np

from grimdice.systems.crusade.ai.players import _goals, ai_player, exposure
from grimdice.systems.crusade.damage import KO
from tests.crusade_game.table_helpers import active, put, rect, table
from tests.crusade_game.test_table import GANGER, game

KNIFE = dict(GANGER, name="Knife", weapons=[])  # no ranged weapon: it steps rather than shoots
WALL = {"name": "wall", "kind": "wall", "shape": rect(5, 0, 7, 4), "height": 3}  # cells x 5-6, y 0-3


def test_the_ai_advances_behind_a_wall_rather_than_in_the_open():
    s = active(
        game(table(terrain=[WALL]), [put("Knife", 4, 5)], [put("Ganger", 11, 1)], profiles=[KNIFE, GANGER])
    )
    board, enemy = s.setup.board, s.tokens[1].sq
    dist = board.distances(_goals(s, 0, 0))
    open_step, covered = (5, 5, 0), (5, 4, 0)
    # both a step nearer the enemy; the enemy sees the open one over the table, the wall hides the other
    assert dist[open_step] == dist[covered] == dist[s.tokens[0].sq] - 1
    assert board.sight(enemy, open_step, {}) and not board.sight(enemy, covered, {})
    assert ("move", *open_step) in s.legal_actions() and ("move", *covered) in s.legal_actions()
    assert exposure(s, open_step) == 1 and exposure(s, covered) == 0
    assert ai_player(s, np.random.default_rng(0)) == ("move", *covered)


def test_exposure_counts_the_standing_enemies_that_see_a_position():
    s = active(
        game(
            table(terrain=[WALL]),
            [put("Knife", 4, 5)],
            [put("Ganger", 11, 1), put("Ganger", 11, 6)],
            profiles=[KNIFE, GANGER],
        )
    )
    board = s.setup.board
    for p in [(5, 4, 0), (5, 5, 0), (8, 7, 0), (0, 0, 0)]:
        seen_by = sum(board.sight(s.tokens[k].sq, p, {}) for k in (1, 2))
        assert exposure(s, p) == seen_by
    knocked_out = s.with_token(2, cond=KO)  # no longer standing: it watches nothing
    assert exposure(knocked_out, (5, 5, 0)) == board.sight(s.tokens[1].sq, (5, 5, 0), {})
