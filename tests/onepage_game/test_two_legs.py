"""Two-leg moves (``game/legs.py``): a Walk or Run through one waypoint, each leg checked along its
whole path with whole bases as a one-leg move, dangerous terrain rolled once per model, logged,
replayed and drawn."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from grimdice.engine.table.layout import generate_table
from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy, legs
from grimdice.systems.onepage.game.invariants import violations
from grimdice.systems.onepage.game.play import play, replay
from grimdice.systems.onepage.game.setup import load_army_side
from tests.onepage_game.test_dangerous import ENEMY, WALKERS, army
from tests.onepage_game.test_table_legality import POST, RUNNER, rect, state_of

ROOT = Path(__file__).resolve().parents[2]
# a wall 3" deep across the table with a 3.5" gap offset from the runner at (40, 8): no straight
# line from the runner passes through the gap (it would have to cross 5.5" sideways before the wall
# and no more than 2.2" within it), so only a move that turns reaches the far side
WEST = rect("west", 0.0, 12.0, 45.0, 15.0, "impassable")
EAST = rect("east", 48.5, 12.0, 72.0, 15.0, "impassable")
BEYOND = 15.0  # the wall's far edge


def behind(s: GameState, a: list) -> bool:
    """Whether move ``a`` ends with the whole base past the wall."""
    return s.anchors[0][1] + a[3] - s.setup.radii[0] > BEYOND


def test_a_run_reaches_the_far_side_of_an_offset_gap_in_two_legs() -> None:
    s = state_of([RUNNER], [POST], [(40.0, 8.0), (47.0, 26.0)], (WEST, EAST))
    runs = [a for a in s.legal_actions() if a[0] == "run"]
    assert not any(behind(s, a) for a in runs if legs.waypoint(a) is None)
    two = [a for a in runs if legs.waypoint(a) is not None]
    assert two and all(behind(s, a) for a in two)
    a = two[0]
    (dx, dy), (wx, wy) = (a[2], a[3]), legs.waypoint(a)
    assert math.hypot(wx, wy) + math.hypot(dx - wx, dy - wy) <= 12.0 + 1e-9  # within the Run
    after = s.apply(a)
    assert after.anchors[0] == (round(40.0 + dx, 3), round(8.0 + dy, 3))
    assert violations(after, s, a) == []  # each leg clear of the wall and the post
    # the same end in one straight leg crosses the wall
    assert not s.placement_ok(0, (40.0, 8.0), after.anchors[0])[0]
    assert violations(after, s, ["run", 0, dx, dy])  # the invariant sees the straight path cross it


def test_a_leg_through_another_units_base_is_refused() -> None:
    """A post stands 4" north of the runner: up through it and then west is refused on its first
    leg, west and then up past it is legal; the same for a second leg through the post."""
    s = state_of([RUNNER], [POST], [(40.0, 8.0), (40.0, 12.0)])
    assert not legs.legal(s, 0, (-4.0, 8.0), (0.0, 8.0), 12.0)  # first leg over the post's base
    assert legs.legal(s, 0, (-4.0, 8.0), (-4.0, 0.0), 12.0)
    s = state_of([RUNNER], [POST], [(36.0, 8.0), (40.0, 12.0)])
    assert not legs.legal(s, 0, (4.0, 8.0), (4.0, 0.0), 12.0)  # second leg over the post's base
    assert legs.legal(s, 0, (4.0, 8.0), (0.0, 8.0), 12.0)
    after = s.apply(["run", 0, 4.0, 8.0, 4.0, 0.0])
    assert any("moves through Post" in v for v in violations(after, s, ["run", 0, 4.0, 8.0, 4.0, 0.0]))


def test_a_leg_into_impassable_terrain_is_refused() -> None:
    rock = rect("rock", 38.0, 11.0, 42.0, 13.0, "impassable")
    s = state_of([RUNNER], [POST], [(40.0, 8.0), (60.0, 40.0)], (rock,))
    assert not legs.legal(s, 0, (-5.0, 7.0), (0.0, 7.0), 12.0)  # first leg into the rock
    assert legs.legal(s, 0, (-5.0, 7.0), (-5.0, 0.0), 12.0)  # round it
    assert not legs.legal(s, 0, (0.0, 7.0), (-5.0, 0.0), 12.0)  # second leg into the rock
    assert not legs.legal(s, 0, (-7.0, 8.0), (-5.0, 0.0), 6.0)  # longer than the Walk in all
    after = s.apply(["run", 0, -5.0, 7.0, 0.0, 7.0])
    assert any("impassable" in v for v in violations(after, s, ["run", 0, -5.0, 7.0, 0.0, 7.0]))


def test_difficult_terrain_on_either_leg_caps_the_whole_move_at_walk_distance() -> None:
    mud = rect("mud", 30.0, 11.0, 50.0, 13.0, "difficult")
    s = state_of([RUNNER], [POST], [(40.0, 8.0), (60.0, 40.0)], (mud,))
    assert legs.legal(s, 0, (2.0, 4.0), (0.0, 4.0), 12.0)  # 6" in all through the mud
    assert not legs.legal(s, 0, (5.0, 4.0), (0.0, 4.0), 12.0)  # 9" in all, the first leg in the mud
    assert not legs.legal(s, 0, (5.0, 4.0), (5.0, 0.0), 12.0)  # the second leg in the mud
    assert legs.legal(s, 0, (-7.0, -2.0), (-5.0, 0.0), 12.0)  # 7" clear of it


def test_dangerous_terrain_is_rolled_once_per_model_over_both_legs() -> None:
    """Five models walk into a minefield and back out: each crossed it on both legs, and each
    rolls one die (the chance node's key: 5 models, not 10)."""
    mines = rect("mines", 20.0, 24.0, 52.0, 26.0, "dangerous")
    setup = Setup(
        (army_from_mapping(army("A", WALKERS), "a"), army_from_mapping(army("B", ENEMY), "b")),
        Table(terrain=(mines,)),
    )
    s = replace(deploy(setup, 0, 0), anchors=((36.0, 21.0), (36.0, 40.0)))
    a = ["walk", 0, 0.0, 1.0, 0.0, 3.5]  # 3.5" north into the mines, 2.5" back south
    assert legs.legal(s, 0, (0.0, 1.0), (0.0, 3.5), 6.0)
    before = s.models(0)
    assert (before[:, 1] + s.setup.radii[0] < 24.0).all()  # they start outside the mines
    after = s.apply(a)
    assert after.pending == ("dangerous", 0, 0, (5,))
    assert s.apply(["walk", 0, 0.0, 1.0]).phase == "shoot"  # the straight move meets no mine
    total = sum(p for _, p in after.chance_outcomes())
    assert total == pytest.approx(1.0)


def _game_with_two_legs() -> dict:
    files = [ROOT / f"examples/armies/onepage-{n}-army.yaml" for n in ("marines", "orks")]
    armies = (load_army_side(files[0]), load_army_side(files[1]))
    for seed in range(1, 12):
        log = play(Setup(armies, generate_table(seed)), seed, ("random", "random"))
        if any(isinstance(a, list) and a[0] in ("walk", "run") and len(a) == 6 for a in log["actions"]):
            return log
    raise AssertionError("no seeded game with a two-leg move")


def test_a_two_leg_move_round_trips_through_json_and_replays(tmp_path: Path) -> None:
    log = json.loads(json.dumps(_game_with_two_legs()))
    again = replay(log)
    assert again["violations"] == []  # every state, both legs of every two-leg move checked
    assert all(log[k] == again[k] for k in log)
    bent = [e for e in log["events"] if "via" in e]
    assert bent and all(e["action"][0] in ("walk", "run") and len(e["action"]) == 6 for e in bent)
    for e in bent:  # the waypoint is the first leg from where the unit stood
        assert e["via"] == pytest.approx(list(np.add(e["from"], e["action"][4:6])), abs=1e-3)
    pytest.importorskip("matplotlib")
    from grimdice.systems.onepage.game.draw import draw_rounds

    pngs = draw_rounds(log, tmp_path)
    assert len(pngs) == 4 and all(p.read_bytes()[:4] == b"\x89PNG" for p in pngs)


def _searched_positions(seeds: tuple[int, int], every: int):
    """(state, unit, its nearest enemy, that enemy's centre) where a two-leg search may run: a
    ready unit on the table (not a Vehicle, not Flying) at every ``every``-th state of seeded
    random games between the bundled armies, two units a state."""
    from grimdice.engine.playing import play_game, random_bot
    from grimdice.systems.onepage.game import facing, moving

    files = [ROOT / f"examples/armies/onepage-{n}-army.yaml" for n in ("marines", "orks")]
    armies = (load_army_side(files[0]), load_army_side(files[1]))
    for seed in seeds:
        game = play_game(GameState(Setup(armies, generate_table(seed))), [random_bot, random_bot], seed)
        for s in game.states[::every]:
            if s.phase != "play":
                continue
            for u in s.ready(s.player)[:2]:
                if not s.on_table(u) or facing.is_vehicle(s, u) or s.setup.units[u].has("flying"):
                    continue
                for t in s.enemies(u)[:1]:
                    yield s, u, t, moving.unit_centre(s, t)


def test_the_search_cut_at_a_distance_is_the_whole_search_within_it() -> None:
    """``legs.around(..., within)`` (the search a Walk or Run makes, skipping the waypoints and
    checks that cannot end within ``within``) gives the whole search's move when that ends within
    ``within`` and None otherwise, at the positions of seeded random games."""
    found = cut = 0
    for s, u, t, goal in _searched_positions((2, 5), 4):
        whole = legs.around(s, u, t, goal, 12.0)
        d = whole[1] if whole else 0.0
        for within in [d + 0.5, d, d - 1e-6, d - 2.0] if whole else [0.0, 30.0]:
            want = whole if whole is not None and whole[1] <= within else None
            assert legs.around(s, u, t, goal, 12.0, within) == want
            cut += want is None and whole is not None
        found += whole is not None
    assert found >= 3 and cut >= 3  # both answers met


def _second_leg_one_by_one(s: GameState, u: int, t: int, first, goal, full: float):
    """A second leg found for one waypoint with the one-start tests: the block at the waypoint's
    anchor (``GameState.models``), its gap to ``t`` and ``moving.block_moves`` from there."""
    from grimdice.engine.table.blocks import EPS, blocks_gaps
    from grimdice.systems.onepage.game import moving

    wx, wy = first
    mx, my = mid = legs.waypoint_anchor(s, u, first)
    st = s.standing()
    a = s.models(u, mid)
    gap = float(blocks_gaps(a[None], float(s.setup.radii[u]), st.pts, st.radii, st.starts)[0, st.at[t]])
    far = math.hypot(goal[0] - mx, goal[1] - my)
    left = min(full - math.hypot(wx, wy), gap - 1.0 - legs.SHORT)
    if far < EPS or left < 0.5:
        return None
    vx, vy = (goal[0] - mx) / far, (goal[1] - my) / far
    steps = np.array([[left * share for share in legs.SECOND]])
    good = moving.block_moves(s, u, np.array([vx]), np.array([vy]), steps, at=mid)[0]
    if not good.any():
        return None
    go = float(steps[0, int(good.argmax())])
    dx, dy = moving.trunc3(wx + vx * go), moving.trunc3(wy + vy * go)
    ax, ay = s.anchors[u]
    return (dx, dy, wx, wy), math.hypot(goal[0] - ax - dx, goal[1] - ay - dy)


def test_second_legs_from_all_waypoints_at_once_are_each_waypoints_own() -> None:
    """``legs.second_legs`` (every waypoint's block, gaps and second leg in one pass) equals the
    second leg found waypoint by waypoint with the one-start tests, at the positions of seeded
    random games (every waypoint the search tries towards the nearest enemy unit)."""
    legs_found = nones = 0
    for s, u, t, goal in _searched_positions((2, 6), 5):
        for full in (6.0, 12.0):
            found, none = check_second_legs(s, u, t, goal, full)
            legs_found += found
            nones += none
    assert legs_found >= 20 and nones >= 5


def check_second_legs(s: GameState, u: int, t: int, goal, full: float) -> tuple[int, int]:
    """``legs.second_legs`` from every waypoint the search tries towards ``goal`` equals the second
    leg found waypoint by waypoint with the one-start tests; (second legs found, waypoints without)."""
    got = legs.first_legs(s, u, goal, full)
    if got is None:
        return 0, 0
    firsts = list(zip(got[0].tolist(), got[1].tolist(), strict=True))
    want = [_second_leg_one_by_one(s, u, t, w, goal, full) for w in firsts]
    assert legs.second_legs(s, u, t, firsts, goal, full) == want
    return sum(w is not None for w in want), sum(w is None for w in want)
