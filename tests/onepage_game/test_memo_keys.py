"""The geometry memo's keys name everything an answer depends on: answers read from a memo filled over
a whole game equal the answers computed afresh, state by state; and answers read from shared lines
equal those computed apart."""

from __future__ import annotations

from typing import Any

import numpy as np

from grimdice.engine.game import TERMINAL
from grimdice.engine.playing import play_game, random_bot
from grimdice.engine.table.blocks import EPS, pair_distances
from grimdice.engine.table.layout import generate_table
from grimdice.engine.table.sweeps import pairs_see
from grimdice.systems.onepage.game import GameState, make_setup
from grimdice.systems.onepage.game.screening import near_screens
from grimdice.systems.onepage.game.setup import load_army_side
from grimdice.systems.onepage.game.state import deploy
from tests.onepage_game.test_game import MARINES, ORKS


def answers(s: GameState, u: int, t: int) -> tuple[Any, ...]:
    return (
        s.firing_sight(u, t),
        s.firers(u, t),
        s.shot_key(u, t, action="hold"),
        s.valid_targets(u, action="hold"),
    )


def sight_apart(s: GameState, u: int, t: int, anchor: tuple[float, float] | None) -> tuple[int, float]:
    """(the models of ``u`` that see a model of ``t`` within the longest range, the farthest one's
    distance) from every pair of models in range, each pair's lines tested alone (no memo, no lines
    shared between pairs, no unit skipped as out of range)."""
    a, b = s.models(u, anchor), s.models(t)
    st = s.standing()
    ra, rb = s.setup.radii[u], s.setup.radii[t]
    d = pair_distances(a[None], ra, b, np.full(len(b), rb))[0]
    best = []
    for i in range(len(a)):
        seen = [
            d[i, j]
            for j in range(len(b))
            if d[i, j] <= s.weapon_range(u) + EPS
            and pairs_see(s.setup.table, a[i], ra, b[j], rb, (st.pts, st.radii, st.owner, u, t))[0]
        ]
        if seen:
            best.append(min(seen))
    return len(best), float(max(best)) if best else 0.0


def fresh(s: GameState, u: int, t: int) -> tuple[Any, ...]:
    """:func:`answers` with an empty geometry memo (the shared one put back after)."""
    kept = s.setup.__dict__.pop("_geometry_memo", None)
    try:
        return answers(s, u, t)
    finally:
        if kept is not None:
            s.setup.__dict__["_geometry_memo"] = kept


def test_sight_and_shot_keys_from_a_warm_memo_equal_fresh_ones() -> None:
    setup = make_setup(load_army_side(MARINES), load_army_side(ORKS), generate_table(4))
    game = play_game(deploy(setup, 0, 0), [random_bot, random_bot], 12)
    checked = narrowed = screened = 0
    for s in game.states[::3]:
        if s.current_player() == TERMINAL or s.phase not in ("play", "shoot"):
            continue
        on = s.standing()
        for u in on.sides[0]:
            for t in on.sides[1]:
                near = near_screens(s, u, t, None)
                assert answers(s, u, t) == fresh(s, u, t), (u, t)
                # a shooting's firers and its sight come from one set of lines: the same sight as
                # each pair's lines tested apart (here and 2" away, as an AI's candidate would be)
                ax, ay = s.anchors[u]
                for anchor in (None, (ax + 1.5, ay - 2.0)):
                    assert s.firing_sight(u, t, anchor)[2:] == sight_apart(s, u, t, anchor), (u, t, anchor)
                checked += 1
                narrowed += len(near) < len(on.ids) - 2  # some unit left out of the key
                screened += bool(near)
    assert checked > 100 and narrowed > 50 and screened > 20
