"""The AI's shortcuts agree with the plain computation (ai/threat.py, ai/choosing.py): the enemy's
reply on a unit where it stands read once per state for the unit's exposure and its friends'
``rest_of``, and ``choose`` computing a unit's exposure where it stands only when one of its moves'
stake bound can still be the best."""

from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np
import pytest

from grimdice.systems.onepage.ai import choosing, threat
from grimdice.systems.onepage.ai.players import moved_to
from grimdice.systems.onepage.game.batch import GameJob, game_seeds
from grimdice.systems.onepage.game.play import states
from grimdice.systems.onepage.game.setup import load_army_side
from grimdice.systems.onepage.game.state import GameState
from grimdice.systems.onepage.game.transport import from_hull
from tests.onepage_game.test_game import MARINES, ORKS


def played(seed: int) -> list[GameState]:
    """The states of play (before round 3) of a seeded random game of the bundled armies where the
    player to act has at least three legal actions."""
    armies = (load_army_side(MARINES), load_army_side(ORKS))
    log = GameJob(armies, None, ("random", "random"), keep_log=True)(game_seeds(seed, 1)[0])
    return [s for s in states(log) if s.phase == "play" and s.round <= 2 and len(s.legal_actions()) >= 3]


def fresh(s: GameState) -> GameState:
    """``s`` without the values kept on it (a copy of its fields only)."""
    out = copy.copy(s)
    for name in ("_replies", "_favours", "_bands", "_charges"):
        out.__dict__.pop(name, None)
    return out


def test_a_reply_where_the_unit_stands_is_the_plain_reply_value() -> None:
    """``reply_here`` (kept on the state) equals ``reply_value`` on the state with the unit acting,
    and a unit's exposure where it stands is the same whether its friends' ``rest_of`` filled the
    table first or not."""
    checked = 0
    for s in played(5)[::9][:3]:
        me = s.player
        units = [u for u in s.standing().sides[me]]
        for u in units:
            plain = threat.exposure(fresh(s), u)
            warm = fresh(s)
            for v in warm.enemies(u):
                threat.rest_of(warm, v, u)
                for w in units:
                    if w != u:
                        assert threat.reply_here(warm, v, w) == threat.reply_value(
                            threat.placed_at(fresh(s), w, None), v, w
                        )
            assert threat.exposure(warm, u) == plain
            checked += 1
    assert checked >= 3


def full_choice(s: GameState, acts: list[Any], values: list[float]) -> Any:
    """Every move valued in full (its exposure at the end less where it stands), then the first best."""
    full = list(values)
    for i, a in enumerate(acts):
        if a[0] in threat.MOVES:
            u = a[1]
            aboard = a[0] == "disembark" or not s.on_table(u)
            start = from_hull(s, u, s.place[u]) if aboard else s
            end, skip = choosing.move_end(start, a)
            here = 0.0 if aboard else threat.exposure(s, u)
            full[i] -= threat.WEIGHT * (threat.exposure(start, u, end, math.inf, skip) - here)
    return choosing.first_best(acts, full)


def counting(asked: set[int]) -> Any:
    """``threat.exposure`` noting in ``asked`` the units whose exposure where they stand it gave."""
    plain = threat.exposure

    def counted(state: GameState, u: int, end: Any = None, *rest: Any) -> float:
        if end is None:
            asked.add(u)
        return plain(state, u, end, *rest)

    return counted


def test_choose_skipping_exposures_by_the_stake_bound_is_the_full_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With spread values (one unit's moves 1000 points below the others), ``choose`` leaves out that
    unit's exposure where it stands, and picks what valuing every move in full picks."""
    rng = np.random.default_rng(23)
    skipped = checked = 0
    for s in played(11)[::5][:6]:
        acts = s.legal_actions()
        units = {a[1] for a in acts if a[0] in threat.MOVES and s.on_table(a[1])}
        low = min(units, default=-1)  # its moves far below the others: its exposure is not needed
        values = [
            float(x) - (1000.0 if a[1] == low else 0.0)
            for x, a in zip(rng.uniform(-60.0, 60.0, len(acts)), acts, strict=True)
        ]
        want = full_choice(s, acts, values)
        asked: set[int] = set()
        with monkeypatch.context() as m:
            m.setattr(choosing, "exposure", counting(asked))
            assert choosing.choose(fresh(s), acts, values) == want
        skipped += len(units - asked)
        checked += 1
    assert checked >= 3 and skipped > 0


def test_the_moves_end_is_where_its_vector_takes_the_unit() -> None:
    s = played(5)[0]
    a = next(a for a in s.legal_actions() if a[0] == "walk")
    assert choosing.move_end(s, a) == (moved_to(s, a[1], (a[2], a[3])), -1)
