"""The AI values what a move's end offers its next activation only where the move can still be the
best (ai/outlook_bound.py, ``choosing.choose``'s ``later``): the bound is never below the plain
outlook, and the AI's choices equal those of valuing every move's outlook first."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from grimdice.systems.onepage.ai import choosing, outlook_bound, reply_bound, threat
from grimdice.systems.onepage.ai.players import ai_player, moved_to, nearest_gap
from grimdice.systems.onepage.game.state import GameState
from tests.onepage_game.test_ai_memos import fresh, played


def candidates(s: GameState) -> list[tuple[int, tuple[float, float]]]:
    """Every Walk and Run end of the units that may move in ``s``."""
    return [(a[1], moved_to(s, a[1], (a[2], a[3]))) for a in s.legal_actions() if a[0] in ("walk", "run")]


def test_the_bound_is_at_least_the_outlook_at_every_candidate_end() -> None:
    """At every Walk and Run end of states of seeded games, ``OutlookBound.at`` (the nearest enemy's
    gap) is at least ``threat.outlook`` there, and ``charge_bound`` at least each charge's value."""
    checked = tight = 0
    for seed in (5, 11):
        for s in played(seed)[::4][:8]:
            odds_of: dict[int, Any] = {}
            for u, end in candidates(s):
                if u not in odds_of:
                    odds_of[u] = threat.charge_odds(s, u)
                    for t in odds_of[u].near:
                        assert outlook_bound.charge_bound(s, u, t) >= odds_of[u].value(t)
                odds = odds_of[u]
                bound = outlook_bound.outlook_bound(s, u, odds).at(s, u, end, nearest_gap(s, u, end))
                plain = threat.outlook(s, u, end, odds)
                assert bound >= plain
                tight += bound == plain
                checked += 1
    assert checked > 200 and tight > 0  # some bounds are exact: a far end's (no charge, no shot)


def test_a_bound_a_later_value_and_the_choice() -> None:
    """``choose`` given upper bounds and the values later picks what it picks given the values."""
    rng = np.random.default_rng(7)
    checked = 0
    for s in played(11)[::5][:6]:
        acts = s.legal_actions()
        values = [float(x) for x in rng.uniform(-60.0, 60.0, len(acts))]
        moves = [i for i, a in enumerate(acts) if a[0] in threat.MOVES]
        later = {i: (lambda v=values[i]: v) for i in moves[::2]}
        bounds = [v + (float(rng.uniform(0.0, 80.0)) if i in later else 0.0) for i, v in enumerate(values)]
        assert choosing.choose(fresh(s), acts, bounds, threat.WEIGHT, later) == choosing.choose(
            fresh(s), acts, values
        )
        checked += 1
    assert checked >= 3
    s = played(11)[0]
    acts = s.legal_actions()
    hold = next(i for i, a in enumerate(acts) if a[0] not in threat.MOVES)
    with pytest.raises(ValueError, match="move"):
        choosing.choose(s, acts, [0.0] * len(acts), threat.WEIGHT, {hold: lambda: 0.0})


def test_the_ai_picks_what_it_picks_with_every_outlook_valued(monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI's choice at states of seeded games equals its choice when ``choose`` is handed every
    move's full value (every later value computed first)."""
    plain = choosing.choose
    given = [0]

    def eager(
        state: GameState, acts: list[Any], values: list[float], weight: float, later: Any = None
    ) -> Any:
        given[0] += len(later or ())
        full = [later[i]() if later and i in later else v for i, v in enumerate(values)]
        return plain(state, acts, full, weight)

    rng = np.random.default_rng(3)
    checked = 0
    for seed in (5, 11):
        for s in played(seed)[::3][:6]:
            want = ai_player(fresh(s), rng)
            with monkeypatch.context() as m:
                m.setattr(choosing, "choose", eager)
                assert ai_player(fresh(s), rng) == want
            checked += 1
    assert checked >= 8 and given[0] > 100


def test_an_exposure_shown_over_its_limit_by_the_shots_alone_is_over_it() -> None:
    """``threat.exposure`` with a limit, which first sums the enemies' shots alone
    (``reply_bound.shots_exceed``), is over the limit exactly when the full exposure is, and equals it
    otherwise, at Walk and Run ends of states of seeded games and limits around the full value."""
    checked = shown = 0
    for s in played(5)[::5][:5]:
        ends = candidates(s)
        for u, end in ends[:: max(1, len(ends) // 12)]:
            full = threat.exposure(fresh(s), u, end)
            for limit in (0.0, 0.5 * full, full - 1e-6, full, full + 1.0):
                warm = fresh(s)
                seen = threat.exposure(warm, u, end, limit)
                if full > limit:
                    assert seen > limit
                else:
                    assert seen == full
                placed = threat.placed_at(warm, u, end)
                most = threat.stake(placed, u)
                order = sorted(placed.enemies(u), key=lambda v: warm.gap(u, v, end))
                if most > 0 and reply_bound.shots_exceed(
                    warm, placed, (u, end, -1), order, (most, limit), {}
                ):
                    assert full > limit
                    shown += 1
                checked += 1
    assert checked > 100 and shown > 10
