"""What a table keeps when a collapse changes it (VI): a ruined table takes over the steps kept from
the positions the collapse cannot reach, and they are the steps it would work out itself."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import yaml

from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.table import TableBoard, piece_key


def _skirmish_board() -> TableBoard:
    data = yaml.safe_load(Path("examples/games/crusade-game-skirmish.yaml").read_text())
    board = build_setup(data).board
    assert isinstance(board, TableBoard)
    return board


def test_a_ruined_table_keeps_only_steps_it_would_work_out_alike():
    board = _skirmish_board()
    positions = board.positions()
    for p in positions:
        board.static_steps(p)  # every position's steps kept
    ruins = [frozenset({k}) for k in range(len(board.sector_names))]
    ruins += [frozenset({piece_key(n)}) for n in range(len(board.structures))]
    ruins.append(frozenset(range(len(board.sector_names))))
    for sectors in ruins:
        ruined = board.ruined(sectors)
        taken = dict(ruined._steps)
        fresh = replace(board, _steps={}).ruined(sectors)  # nothing to take over: all worked out anew
        assert not fresh._steps
        assert 0 < len(taken) < len(positions), sectors  # some kept, not those near the ruin
        for p, steps in taken.items():
            assert fresh.static_steps(p) == steps, (sectors, p)
