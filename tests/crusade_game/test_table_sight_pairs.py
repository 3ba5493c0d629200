"""Sight worked out one pair at a time (a collapse's table, VI; a start that is not a position)
gives the bits the whole rows give: the same lines, points and sectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml

from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.table import TableBoard, piece_key
from grimdice.systems.crusade.game.table_sight import ends_of, seen_pair, seen_table


def _skirmish_board() -> TableBoard:
    data = yaml.safe_load(Path("examples/games/crusade-game-skirmish.yaml").read_text())
    board = build_setup(data).board
    assert isinstance(board, TableBoard)
    return board


def _rows(board: TableBoard, froms: list) -> dict:
    return seen_table(board, froms, *ends_of(board, board.positions()))


def test_pairs_on_a_collapse_equal_its_rows():
    board = _skirmish_board()
    ruins = [frozenset({k}) for k in range(len(board.sector_names))]
    ruins += [frozenset({piece_key(n)}) for n in range(len(board.structures))]
    rng = np.random.default_rng(2)
    for sectors in ruins:
        ruined = board.ruined(sectors)
        positions = ruined.positions()
        froms = [positions[k] for k in rng.choice(len(positions), 40, replace=False)]
        rows = _rows(ruined, froms)
        for a in froms:
            for b in positions:
                assert seen_pair(ruined, a, b) == rows[a][b], (sectors, a, b)
                assert ruined.sight(a, b, {}) == (rows[a][b] != 0)
        assert not ruined._seen_rows  # nothing worked out by rows there
        seen = {bits for row in rows.values() for bits in row.values()}
        assert {0, 7} <= seen and len(seen) > 2  # hidden, seen whole and seen in part all met


def test_a_start_that_is_no_position_is_worked_out_as_a_row_would_be():
    board = _skirmish_board()
    positions = board.positions()
    off = [(x, y, z + 5) for x, y, z in positions[::23]]  # in the air: no position
    assert not any(board.enterable(p, 0) for p in off)
    rows = seen_table(board, off, *ends_of(board, positions))
    for a in off:
        for b in positions[::5]:
            assert board._seen(a, b) == rows[a][b]
