"""Copies of the game's frozen records with fields changed (:mod:`.frozen`), and the table's kept
paths (:class:`~grimdice.systems.crusade.game.table.Nearest`) against a search from all goals."""

from __future__ import annotations

import dataclasses

import pytest

from grimdice.engine.table.lattice import breadth_first
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import Token
from grimdice.systems.crusade.game.table_sight import HEAD, SAMPLES
from tests.crusade_game.table_helpers import put, rect, table
from tests.crusade_game.test_table import block, game


def test_altered_equals_dataclasses_replace_and_leaves_the_original():
    t = Token(side=1, profile=2, sq=(3, 4, 0), hits=2, arms=("", "jammed"))
    for changes in ({"sq": (5, 5, 1)}, {"cond": 2, "hits": 1}, {"done": True, "arms": ("lost",)}, {}):
        new = altered(t, **changes)
        same = dataclasses.replace(t, **changes)
        assert new == same and hash(new) == hash(same)
        assert new is not t
    assert t == Token(side=1, profile=2, sq=(3, 4, 0), hits=2, arms=("", "jammed"))


def test_altered_refuses_a_field_the_record_does_not_have():
    with pytest.raises(TypeError, match="no field 'square'"):
        altered(Token(0, 0, (0, 0, 0)), square=(1, 1, 0))


def test_table_distances_are_a_search_from_all_goals_at_once():
    s = game(table(terrain=[block(3, 1, 5, 4, 2)]), [put("Ganger", 0, 0)])
    board = s.setup.board
    graph = board.graph()
    back: dict = {}
    for p, tos in graph.items():
        for q in tos:
            back.setdefault(q, []).append(p)
    goals = [(6, 2), (0, 0, 0), (4, 2)]
    aims = [g for g0 in goals for g in board._expand(g0)]
    expected = breadth_first(aims, lambda q: back.get(q, ()))
    found = board.distances(goals)
    assert dict(found.items()) == expected
    assert found.get((99, 99, 0), -7) == -7


def test_kept_sight_equals_each_line_of_sight_alone():
    """The table's sight, kept row by row for every pair of positions, equals the three lines
    from the eyes to the feet, middle and head (reading ``table_sight``) drawn one by one."""
    hab = {"name": "hab", "shape": rect(6, 2, 9, 6), "height": 4, "armoured": False}
    board_data = table(terrain=[block(3, 1, 5, 4, 2), block(9, 6, 10, 8, 3)], buildings=[hab])
    s = game(board_data, [put("Ganger", 0, 0)])
    board = s.setup.board
    spots = board.positions()
    for a in spots[::5]:
        eye = (a[0] + 0.5, a[1] + 0.5, board.eye_level(a) + HEAD)
        for b in spots:
            apart = board.indoors(a) >= 0 and board.indoors(b) not in (-1, board.indoors(a))
            ends = [(b[0] + 0.5, b[1] + 0.5, board.eye_level(b) + f * HEAD) for f in SAMPLES]
            lines = [board.lattice.clear(eye, end) for end in ends]
            assert board.sight(a, b, {}) == (any(lines) and not apart)
            if board.sight(a, b, {}) and board.indoors(b) < 0:
                assert board.cover(a, b, {}) == ("none" if all(lines) else "front")


def test_kept_sectors_beside_are_the_other_sectors_of_the_cells_around():
    sectors = [{"name": "west", "shape": rect(6, 2, 8, 6)}, {"name": "east", "shape": rect(8, 2, 10, 6)}]
    hab = {"name": "hab", "shape": rect(6, 2, 10, 6), "height": 4, "armoured": False, "sectors": sectors}
    s = game(table(buildings=[hab]), [put("Ganger", 0, 0)])
    board = s.setup.board
    for p in board.positions():
        x, y = p[0], p[1]
        around = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
        expected = sorted({board.sector_at[c] for c in around if c in board.sector_at} - {board.indoors(p)})
        assert list(board.sectors_beside(p)) == expected
    assert board.sectors_beside((5, 3, 0)) == (0,) and board.sectors_beside((7, 3, 0)) == (1,)


def test_kept_actions_and_steps_equal_fresh_ones_over_a_seeded_skirmish():
    """On every state of a seeded random skirmish game with barricades shot down (a collapse's
    table too), the building and piece attacks kept per table and the steps kept per state equal
    the ones worked out afresh; so do the attacks of the same state with the model's weapons
    unloaded, and with every barricade and catwalk down."""
    from pathlib import Path

    import yaml

    from grimdice.engine.game import CHANCE, TERMINAL
    from grimdice.systems.crusade.game import flight, ruin
    from grimdice.systems.crusade.game.play import play_game
    from grimdice.systems.crusade.game.scenario import build_setup
    from grimdice.systems.crusade.game.state import UNLOADED, initial_state
    from grimdice.systems.crusade.game.table import piece_key

    path = Path(__file__).resolve().parents[2] / "examples/games/crusade-game-skirmish.yaml"
    setup = build_setup(yaml.safe_load(path.read_text()))
    log = play_game(setup, ("random", "random"), 1)
    s, tables, checked = initial_state(setup), set(), 0
    for a in log["actions"]:
        if s.current_player() not in (CHANCE, TERMINAL) and s.active >= 0 and not s.tokens[s.active].blip:
            s.legal_actions()  # fills the kept answers
            board, t = s.setup.board, s.tokens[s.active]
            down = tuple((piece_key(n), 0) for n in range(len(board.structures)))
            unloaded = s.with_token(s.active, arms=tuple(UNLOADED for _ in t.arms))
            for v in (s, unloaded, altered(s, sector_hits=down)):
                assert ruin.actions(v) == ruin._structure_actions(v, board)
            assert flight.steps_of(s) == flight._steps_of(s)
            tables.add(id(s.setup.board))
            checked += 1
        s = s.apply(tuple(a))
    assert checked > 100 and len(tables) >= 2  # the first table and a collapse's
