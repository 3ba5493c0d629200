"""Move generation's fast paths against the rules read piece by piece and pair by pair: terrain
touched by many block moves at once, points inside pieces, bases on the table, the gaps between
units, and legal actions asked of states whose memos are warm."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import replace

import numpy as np

from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.engine.playing import sample
from grimdice.engine.table.blocks import blocks, blocks_touch
from grimdice.engine.table.layout import generate_table, table_from_mapping, table_to_mapping
from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.game import GameState, make_setup
from grimdice.systems.onepage.game.setup import load_army_side
from tests.onepage_game.test_speed import MARINES, ORKS, game, mixed_table, touches_piece_by_piece


def test_blocks_touch_is_the_piece_by_piece_rule() -> None:
    rng = np.random.default_rng(11)
    touched = tried = 0
    for table in (mixed_table(), generate_table(3), generate_table(9)):
        k = len(table.terrain)
        for n in (1, 5):
            base = rng.uniform(-2, 2, size=(n, 2))
            start = rng.uniform([4, 4], [68, 44])
            a = base + start
            ends = start + rng.uniform(-12, 12, size=(300, 2))
            ends[:5] = table.terrain[0].corners[0]  # moves ending on a corner
            bs = blocks(base, ends)
            keep = rng.random(k) < 0.7
            got = blocks_touch(table, a, bs, keep, 0.63)
            want = np.array(
                [
                    [keep[j] and touches_piece_by_piece(table, a, bs[c], j, 0.63) for j in range(k)]
                    for c in range(len(bs))
                ]
            )
            assert (got == want).all()
            touched, tried = touched + int(want.sum()), tried + want.size
    assert 0.02 * tried < touched < 0.5 * tried  # moves that touch pieces and moves that do not


def test_inside_and_spans_on_table_equal_the_point_tests() -> None:
    rng = np.random.default_rng(12)
    table = mixed_table()
    pts = rng.uniform([0, 0], [72, 48], size=(200, 3, 2))
    pts[:10, 0] = table.terrain[1].corners[3]  # on a circle's corner
    pieces = rng.integers(len(table.terrain), size=200)
    want = np.array([table.terrain[j].contains(p) for p, j in zip(pts, pieces, strict=True)])
    assert (table.inside(pts, pieces) == want).all() and want.any()
    radius = 0.63
    centres = rng.uniform([-1, -1], [73, 49], size=(300, 4, 2))
    centres[:20, 0, 0] = radius  # a base touching the west edge
    on = np.array([table.on_table(c, radius).all() for c in centres])
    assert (table.spans_on_table(centres.min(axis=1), centres.max(axis=1), radius) == on).all()
    assert on.any() and not on.all()


def test_gaps_are_each_pair_of_bases_closest_distance() -> None:
    s = game(mixed_table())
    s = replace(s, anchors=tuple((30.0 + 7 * (v % 4), 14.0 + 2.5 * v) for v in range(len(s.units))))
    r = s.setup.radii
    for u in range(len(s.units)):
        row = s.gaps(u)[1]
        for i, v in enumerate(s.standing().ids):
            want = min(
                max(math.sqrt((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) - r[u] - r[v], 0.0)
                for p in s.models(u).tolist()
                for q in s.models(v).tolist()
            )
            assert row[i] == want == s.gap(u, v)
        assert s.enemies(u) == [v for v in range(len(s.units)) if s.setup.owner[v] != s.setup.owner[u]]


def random_game(table: Table, seed: int, steps: int) -> Iterator[tuple[int, GameState]]:
    """The step number and state of each player's decision of a random game (the bundled armies on
    ``table``, chance and players drawn from one seeded stream), up to ``steps`` steps."""
    s = GameState(make_setup(load_army_side(MARINES), load_army_side(ORKS), table))
    rng = np.random.default_rng(seed)
    for step in range(steps):
        who = s.current_player()
        if who == TERMINAL:
            return
        if who == CHANCE:
            s = s.apply(sample(s.chance_outcomes(), rng))
            continue
        yield step, s
        acts = s.legal_actions()
        s = s.apply(acts[int(rng.integers(len(acts)))])


def test_legal_actions_with_warm_memos_equal_a_fresh_setups() -> None:
    """Every few states of a random game: the legal actions asked of the game's setup (memos warm
    from the states before) equal those of the same state on a fresh setup (empty memos)."""
    table = generate_table(21)
    checked = 0
    for step, s in random_game(table, 5, 400):
        if s.phase == "play" and step % 3 == 0:
            fresh = GameState.from_json(
                make_setup(load_army_side(MARINES), load_army_side(ORKS), table), s.to_json()
            )
            assert fresh.legal_actions() == s.legal_actions()
            checked += 1
    assert checked >= 10


def test_a_tables_mapping_keeps_its_corners_exactly() -> None:
    """A logged game's table (the setup's JSON) is the table it was played on, to the last bit."""
    table = generate_table(337111886)
    again = table_from_mapping(json.loads(json.dumps(table_to_mapping(table))))
    for a, b in zip(table.terrain, again.terrain, strict=True):
        assert (a.corners == b.corners).all()


def test_models_kept_per_state_follow_each_states_anchors_and_losses() -> None:
    """``GameState.models(u)`` (kept per state) is, at every state of a random game, the first
    ``models`` offsets of the unit's formation in its shape (its block, or its column:
    ``Setup.columns``), flipped for its side, at its anchor in that state."""
    checked = 0
    for _, s in random_game(generate_table(8), 3, 300):
        if s.phase != "play":
            continue
        for u in s.standing().ids:
            flip = 1.0 if s.setup.owner[u] == s.south else -1.0
            n, (ax, ay) = s.units[u].models, s.anchors[u]
            off = s.setup.columns[u] if s.shapes and s.shapes[u] else s.setup.offsets[u]
            want = off[:n] * np.array([1.0, -flip]) + np.array([ax, ay])
            assert np.array_equal(s.models(u), want) and s.models(u) is s.models(u)
            checked += 1
    assert checked > 100
