"""The free steps from a table's positions (:mod:`.table_free`): the kept shortcut (the steps
without sectors, reused while no model holds one of their ends) gives the steps the plain walk
over every step gives, whatever the models around and the forced entries."""

from __future__ import annotations

import numpy as np

from grimdice.systems.crusade.game.table_free import FORCED_REACH, free_steps, open_steps
from tests.crusade_game.test_table_kept import _skirmish_board


def plain_free(board, p, found, occupied, side, breaches):
    """The reference, read from VI step by step with nothing kept: a step to a position a model
    holds is not free; a step into a sector that only enemy models hold needs a forced entry of
    that sector within 3" ("any troops within 3" of the marker and adjacent to the building may
    move in")."""
    out = []
    for kind, to, cost, into in found:
        if to in occupied:
            continue
        if into >= 0:
            inside = {s for q, s in occupied.items() if board.indoors(q) == into}
            forced = any(k == into and board.range(p, m) <= FORCED_REACH for m, k in breaches)
            if inside and side not in inside and not forced:
                continue
        out.append((kind, to, cost))
    return out


def test_the_kept_steps_are_the_plain_walks_steps():
    board = _skirmish_board()
    positions = board.positions()
    rng = np.random.default_rng(5)
    checked = {"free": 0, "blocked": 0, "entering": 0}
    for n in range(600):
        p = positions[int(rng.integers(len(positions)))]
        found = board.static_steps(p)
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
        want = plain_free(board, p, found, occupied, side, breaches)
        assert list(free_steps(board, p, found, occupied, side, breaches)) == want, p
        assert open_steps(board, p, found, occupied, side, breaches) == want, p
        assert list(board.steps(p, 0, {}, occupied, side, breaches)) == want, p
        got = want
        entering = any(st[3] >= 0 for st in found)
        checked["entering" if entering else "blocked" if len(got) < len(found) else "free"] += 1
    assert all(v > 0 for v in checked.values()), checked
