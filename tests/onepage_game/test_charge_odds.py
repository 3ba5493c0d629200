"""The AI's next charges valued when first read (``ai/odds.py``, ``threat.charge_odds``): the
prospect at every candidate end is the one a fully valued table gives, and an enemy no end brings
into reach is never valued."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from grimdice.engine.table.blocks import EPS
from grimdice.engine.table.layout import generate_table
from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.ai import threat
from grimdice.systems.onepage.ai.footing import charge_reach
from grimdice.systems.onepage.ai.odds import Odds
from grimdice.systems.onepage.game import GameState
from grimdice.systems.onepage.game.play import play, states
from grimdice.systems.onepage.game.setup import Setup, load_army_side
from tests.onepage_game.test_charge_timing import GANG, RAIDERS
from tests.onepage_game.test_game import duel

ROOT = Path(__file__).resolve().parents[2]


def plain_prospect(
    state: GameState, u: int, end: tuple[float, float] | None, odds: dict[int, float]
) -> float:
    """``threat.prospect`` from a whole table of the positive charges (the oracle): the greatest
    value among the enemies within the charge's reach of ``end`` that do not charge first."""
    reach = charge_reach(state, u, end)
    return max(
        (
            v
            for t, v in odds.items()
            if state.gap(u, t, end) <= reach + EPS and not threat.strikes_first(state, u, t, end)
        ),
        default=0.0,
    )


def test_a_charge_out_of_reach_of_every_end_is_never_valued() -> None:
    """The Gang 22" from the Raiders (within a Run and an Assault): from an end 2" nearer, the
    Raiders are out of its 12" Assault, so the charge is not valued; from 11" nearer it is, and the
    prospect is that value, as the whole table gives it."""
    s = replace(duel(GANG, RAIDERS, Table(), gap=22.0), player=0, activated=(False, True))
    calls: list[int] = []
    full = threat.charge_odds(s, 0)
    lazy = Odds(full.near, lambda t: calls.append(t) or full.value(t))
    ax, ay = s.anchors[0]
    far_end = (ax, ay + 2.0) if s.gap(0, 1, (ax, ay + 2.0)) < s.gap(0, 1) else (ax, ay - 2.0)
    assert threat.prospect(s, 0, far_end, lazy) == 0.0 and calls == []
    step = 11.0 if far_end[1] > ay else -11.0
    near_end = (ax, ay + step)
    assert s.gap(0, 1, near_end) <= 12.0
    assert threat.prospect(s, 0, near_end, lazy) == pytest.approx(dict(full)[1]) and calls == [1]


def test_the_prospect_from_the_lazy_table_is_the_whole_tables_over_seeded_games() -> None:
    files = [ROOT / f"examples/armies/onepage-{n}-army.yaml" for n in ("marines", "orks")]
    armies = (load_army_side(files[0]), load_army_side(files[1]))
    log = play(Setup(armies, generate_table(6)), 6, ("random", "random"))
    compared = positive = 0
    for state in [s for s in states(log) if s.phase == "play" and s.round < 4][::3]:
        for u in state.ready(state.player):
            if not state.on_table(u):
                continue
            lazy, whole = threat.charge_odds(state, u), dict(threat.charge_odds(state, u))
            ends = [
                (state.anchors[u][0] + a[2], state.anchors[u][1] + a[3])
                for a in state.legal_actions()
                if a[0] in ("walk", "run") and a[1] == u
            ]
            for end in [None, *ends]:
                got = threat.prospect(state, u, end, lazy)
                assert got == plain_prospect(state, u, end, whole)
                compared += 1
                positive += got > 0
    assert compared > 100 and positive > 0
