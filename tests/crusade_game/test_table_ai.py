"""The AI on a hand-built table: of the steps as near its goal, it takes the one exposed to fewer
enemy shots (II: line of sight from where they stand; a wall hides the model behind it)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from grimdice.systems.crusade.ai import aim, ground, objectives
from grimdice.systems.crusade.ai.ground import Ground
from grimdice.systems.crusade.ai.players import _best_step, ai_player
from grimdice.systems.crusade.damage import KO
from grimdice.systems.crusade.game.table_parts import Nearest
from tests.crusade_game.table_helpers import active, put, rect, table
from tests.crusade_game.test_ai_ground import _expected_harm
from tests.crusade_game.test_table import GANGER, game

KNIFE = dict(GANGER, name="Knife", weapons=[])  # no ranged weapon: it steps rather than shoots
WALL = {"name": "wall", "kind": "wall", "shape": rect(5, 0, 7, 4), "height": 3}  # cells x 5-6, y 0-3


def test_the_ai_advances_behind_a_wall_rather_than_in_the_open():
    s = active(
        game(table(terrain=[WALL]), [put("Knife", 4, 5)], [put("Ganger", 11, 1)], profiles=[KNIFE, GANGER])
    )
    board, enemy = s.setup.board, s.tokens[1].sq
    dist = board.distances(objectives.goals(s, 0, 0))
    open_step, covered = (5, 5, 0), (5, 4, 0)
    # both a step nearer the enemy; the enemy sees the open one over the table, the wall hides the other
    assert dist[open_step] == dist[covered] == dist[s.tokens[0].sq] - 1
    assert board.sight(enemy, open_step, {}) and not board.sight(enemy, covered, {})
    assert ("move", *open_step) in s.legal_actions() and ("move", *covered) in s.legal_actions()
    assert ground.threat(s, open_step) > 0 and ground.threat(s, covered) == 0
    assert ai_player(s, np.random.default_rng(0)) == ("move", *covered)


def _watched_knife() -> Any:
    """A Knife west of the wall, two Gangers east of it."""
    return active(
        game(
            table(terrain=[WALL]),
            [put("Knife", 4, 5)],
            [put("Ganger", 11, 1), put("Ganger", 11, 6)],
            profiles=[KNIFE, GANGER],
        )
    )


def _shots(s: Any, p: tuple[int, ...], gangers: tuple[int, ...]) -> float:
    """The calculator's shots at a knife at ``p`` of the ``gangers`` that see it, from where they stand."""
    board = s.setup.board
    return sum(
        _expected_harm(GANGER, KNIFE, board.range(s.tokens[k].sq, p), board.cover(s.tokens[k].sq, p, {}))
        for k in gangers
        if board.sight(s.tokens[k].sq, p, {})
    )


def test_threat_sums_the_shots_of_the_standing_enemies_that_see_a_position():
    s = _watched_knife()
    knocked_out = s.with_token(2, cond=KO)  # no longer standing: it shoots nothing
    seen = [ground.threat(s, p) for p in [(5, 4, 0), (5, 5, 0), (8, 7, 0), (0, 0, 0)]]
    assert len(set(seen)) > 2  # seen by none, one or both
    for p in [(5, 4, 0), (5, 5, 0), (8, 7, 0), (0, 0, 0)]:
        assert ground.threat(s, p) == pytest.approx(_shots(s, p, (1, 2)), abs=1e-12)
        assert ground.threat(knocked_out, p) == pytest.approx(_shots(s, p, (1,)), abs=1e-12)


def test_the_best_step_is_the_first_worth_most_when_worth_more_than_staying():
    """Every step's position valued (its steps to the goal, the shots it is exposed to): the first
    step worth most, in any order of the steps; none when no step is worth more than staying."""
    s = _watched_knife()
    dist = aim.distances(s, objectives.goals(s, 0, 0))
    worth = Ground(s, dist).worth
    steps = [a for a in s.legal_actions() if a[0] == "move"]
    assert len({round(worth(a[1:]), 9) for a in steps}) > 2  # the steps differ in worth
    for some in (steps, steps[::-1], steps[1:], steps[:3]):
        top = max(some, key=lambda a: worth(a[1:]))
        want = top if worth(top[1:]) > worth(s.tokens[0].sq) else None
        assert _best_step(s, dist, some) == want
    worse = [a for a in steps if worth(a[1:]) < worth(s.tokens[0].sq)]
    assert worse and _best_step(s, dist, worse) is None


def test_nearest_steps_are_the_least_over_the_goals_and_a_missing_position_gives_the_default():
    near = Nearest(({(0, 0, 0): 3, (1, 0, 0): 1}, {(0, 0, 0): 2}))
    assert near.get((0, 0, 0)) == 2 and near[(1, 0, 0)] == 1
    assert near.get((5, 5, 0)) is None and near.get((5, 5, 0), 7) == 7  # asked again, another default
    assert near.get((0, 0, 0), 9) == 2 and len(near) == 2
