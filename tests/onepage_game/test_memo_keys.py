"""The geometry memo's keys name everything an answer depends on: answers read from a memo filled over
a whole game equal the answers computed afresh, state by state; and answers read from shared lines
equal those computed apart."""

from __future__ import annotations

from typing import Any

from grimdice.engine.game import TERMINAL
from grimdice.engine.playing import play_game, random_bot
from grimdice.engine.table.layout import generate_table
from grimdice.systems.onepage.game import GameState, make_setup
from grimdice.systems.onepage.game.screening import near_screens
from grimdice.systems.onepage.game.setup import load_army_side
from grimdice.systems.onepage.game.state import deploy
from tests.onepage_game.test_game import MARINES, ORKS


def answers(s: GameState, u: int, t: int) -> tuple[Any, ...]:
    return (s.sight(u, t), s.firers(u, t), s.shot_key(u, t, action="hold"), s.valid_targets(u, action="hold"))


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
                # the terrain-then-screens test (here and 2" away, as an AI's candidate would be)
                ax, ay = s.anchors[u]
                for anchor in (None, (ax + 1.5, ay - 2.0)):
                    assert s.firing_sight(u, t, anchor)[2:] == s.sight(u, t, anchor), (u, t, anchor)
                checked += 1
                narrowed += len(near) < len(on.ids) - 2  # some unit left out of the key
                screened += bool(near)
    assert checked > 100 and narrowed > 50 and screened > 20
