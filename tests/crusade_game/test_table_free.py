"""The free steps from a table's positions (:mod:`.table_free`): the kept shortcut (the steps
without sectors, reused while no model holds one of their ends) gives the steps the plain walk
over every step gives, whatever the models around and the forced entries."""

from __future__ import annotations

import numpy as np

from grimdice.systems.crusade.game.table_free import free_steps
from tests.crusade_game.test_table_kept import _skirmish_board


def test_the_kept_steps_are_the_plain_walks_steps():
    board = _skirmish_board()
    positions = board.positions()
    rng = np.random.default_rng(5)
    checked = {"free": 0, "blocked": 0, "entering": 0}
    for n in range(600):
        p = positions[int(rng.integers(len(positions)))]
        found = board._static(p)
        ends = [st[1] for st in found]
        # models on some of the steps' ends (of either force) and elsewhere on the table
        near = (
            [ends[int(k)] for k in rng.integers(0, max(len(ends), 1), int(rng.integers(0, 3)))]
            if ends
            else []
        )
        far = [positions[int(k)] for k in rng.integers(0, len(positions), 6)]
        occupied = {q: int(rng.integers(2)) for q in near + far if q != p}
        breaches = ((far[0], board.indoors(far[0])),) if n % 3 == 0 else ()
        side = n % 2
        got = free_steps(board, p, found, occupied, side, breaches)
        assert got == free_steps(board, p, found, occupied, side, breaches, kept=False), p
        assert got == board.steps(p, 0, {}, occupied, side, breaches)
        entering = any(st[3] >= 0 for st in found)
        checked["entering" if entering else "blocked" if len(got) < len(found) else "free"] += 1
    assert all(v > 0 for v in checked.values()), checked
