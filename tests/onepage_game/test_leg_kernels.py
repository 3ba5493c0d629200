"""The two-leg search's compiled passes (``engine/table/leg_kernels.py``) against the plain code they
stand for: the waypoints and their ranking (``legs.first_legs``, ``legs.rock_ahead`` and the NumPy
of the search), and the second legs (one waypoint at a time with the one-start tests), at the
positions of seeded random games, towards every enemy unit and towards random points of the table."""

from __future__ import annotations

import math

import numpy as np

from grimdice.systems.onepage.game import legs, moving
from tests.onepage_game.test_shapes import reshape_ok
from tests.onepage_game.test_two_legs import _searched_positions, check_second_legs


def _plain_scores(s, u: int, t: int, goal, full: float):
    """The waypoints and their scores as the search computed them with NumPy around two compiled
    calls (``first_legs``, then ``rock_ahead`` on the way on)."""
    firsts = legs.first_legs(s, u, goal, full)
    if firsts is None:
        return None
    wx, wy = firsts
    ax, ay = s.anchors[u]
    cx, cy = goal
    far = np.maximum(np.hypot(cx - ax - wx, cy - ay - wy), legs.EPS)
    left = full - np.hypot(wx, wy)
    hoped = np.maximum(0.0, far - left)
    offset = math.hypot(cx - ax, cy - ay) - s.gap(u, t)
    go = np.clip(np.minimum(left, far - offset - 1.0 - legs.SHORT), 0.0, None)
    blocked = legs.rock_ahead(s, u, (wx, wy), ((cx - ax - wx) / far, (cy - ay - wy) / far), go)
    return wx, wy, hoped, hoped + 1000.0 * blocked


def _goals(s, u: int, rng: np.random.Generator):
    """Every enemy unit with its centre, then two random points of the table aimed at as if they
    were the nearest enemy's centre."""
    enemies = s.enemies(u)
    for t in enemies:
        yield t, moving.unit_centre(s, t)
    for _ in range(2):
        yield (
            enemies[0],
            (float(rng.uniform(0, s.setup.table.width)), float(rng.uniform(0, s.setup.table.depth))),
        )


def _searches(seeds: tuple[int, int], games: int, rng_seed: int):
    """(state, unit, aimed-at unit, goal, allowance): the searched positions of seeded random games,
    each towards every goal of :func:`_goals`, with a Walk's and a Run's allowance."""
    rng = np.random.default_rng(rng_seed)
    for s, u, _t, _goal in _searched_positions(seeds, games):
        for t, goal in _goals(s, u, rng):
            for full in (6.0, 12.0):
                yield s, u, t, goal, full


def test_waypoint_scores_equal_the_plain_search() -> None:
    checked = rocks = 0
    for s, u, t, goal, full in _searches((3, 8), 6, 7):
        want = _plain_scores(s, u, t, goal, full)
        got = legs.waypoint_scores(s, u, t, goal, full)
        if want is None:
            assert len(got[0]) == 0
            continue
        for w, g in zip(want, got, strict=True):
            assert w.tolist() == g.tolist()
        checked += len(got[0])
        rocks += int((got[3] >= 1000.0).sum())
    assert checked >= 500 and rocks >= 5  # many waypoints, some with rock on the way on


def test_second_legs_towards_random_points_are_each_waypoints_own() -> None:
    found = nones = 0
    for s, u, t, goal, full in _searches((4, 9), 7, 11):
        more, none = check_second_legs(s, u, t, goal, full)
        found += more
        nones += none
    assert found >= 50 and nones >= 20


def test_the_first_legal_change_of_shape_is_the_one_reshape_ok_finds_first() -> None:
    """``shapes.first_reshape`` (every length in one compiled pass) against the tests' plain ``reshape_ok``
    move by move: the large units of seeded random games, both shapes, random ways and lengths
    (some in place), the Walk and the Run and a random allowance."""
    from grimdice.systems.onepage.game import shapes
    from grimdice.systems.onepage.game.setup import BLOCK, COLUMN

    rng = np.random.default_rng(5)
    legal = refused = 0
    for s, u, _t, _goal in _searched_positions((2, 7), 3):
        if not shapes.offered(s, u):
            continue
        for shape in (BLOCK, COLUMN):
            for full in (6.0, 12.0, float(rng.uniform(1.0, 14.0))):
                angle, length = rng.uniform(0, 2 * math.pi), rng.uniform(0.0, 14.0)
                moves = [(0.0, 0.0)] if rng.random() < 0.2 else []
                for share in (1.0, 0.75, 0.5, 0.25):
                    d = length * share
                    moves.append((moving.trunc3(math.cos(angle) * d), moving.trunc3(math.sin(angle) * d)))
                oks = [reshape_ok(s, u, shape, m, full)[0] for m in moves]
                want = oks.index(True) if True in oks else -1
                assert shapes.first_reshape(s, u, shape, moves, full) == want
                legal += want >= 0
                refused += oks.count(False)
    assert legal >= 20 and refused >= 20


def test_centres_kept_with_the_standing_are_the_mean_of_the_models_at_the_anchor() -> None:
    """``places.standing_centre`` (kept with the standing rows, carried to the standing of a move
    made from them) equals the mean of each unit's models at its anchor (``places.models_at``), at
    every state of seeded random games in the order they are played."""
    from grimdice.engine.playing import play_game, random_bot
    from grimdice.engine.table.layout import generate_table
    from grimdice.systems.onepage.game import GameState, Setup
    from grimdice.systems.onepage.game.places import models_at
    from tests.onepage_game.test_two_legs import ROOT, load_army_side

    files = [ROOT / f"examples/armies/onepage-{n}-army.yaml" for n in ("marines", "orks")]
    armies = (load_army_side(files[0]), load_army_side(files[1]))
    checked = carried = 0
    for seed in (3, 4):
        game = play_game(GameState(Setup(armies, generate_table(seed))), [random_bot, random_bot], seed)
        for s in game.states:
            if not s.anchors:
                continue
            st = s.standing()
            carried += bool(st.__dict__.get("_centres"))
            for u in st.ids:
                want = models_at(s, u, s.anchors[u]).mean(axis=0)
                assert moving.unit_centre(s, u) == (float(want[0]), float(want[1]))
                checked += 1
    assert checked >= 1000 and carried >= 20
