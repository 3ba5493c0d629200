"""The Assault path search's shortcuts (``charge_paths.held_back``, the Walk cap in
``charge_legs.through``) find what the plain search finds: on hand-built positions, and on every
pair in reach over the states of seeded games, against the search without them."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from grimdice.engine.table.blocks import EPS
from grimdice.engine.table.layout import generate_table
from grimdice.systems.onepage.game import GameState, charge_legs, charge_paths, legs, moving
from grimdice.systems.onepage.game.play import play, states
from grimdice.systems.onepage.game.setup import Setup, load_army_side
from grimdice.systems.onepage.movement import move_distance
from tests.onepage_game.test_charge_legs import BOYZ, MOB_AT, POST_AT, WALL
from tests.onepage_game.test_table_legality import POST, rect, state_of

ROOT = Path(__file__).resolve().parents[2]
SWAMP = rect("swamp", 30.0, 5.0, 42.0, 9.5, "difficult")  # under the mob's row at (36, 8)


def plain_through(
    state: GameState, u: int, t: int, first: tuple[float, float], full: float
) -> charge_legs.Path | None:
    """``charge_legs.through`` without its Walk cap on the second legs: every second leg within the
    Assault's distance looked at, each checked alone in turn (the oracle)."""
    mid = state.moved(u, *first)  # the block at the waypoint, rounded as a move places it
    legal, slow, _ = state.placement_ok(u, state.anchors[u], mid.anchors[u])
    cap = move_distance(state.setup.units[u], "walk")
    strider = state.setup.units[u].has("strider")
    for move in charge_legs.second_legs(mid, u, t, full - math.hypot(*first)) if legal else ():
        clear, difficult = moving.charge_terrain(mid, u, move)
        long = math.hypot(*first) + math.hypot(*move) > cap + EPS
        terrain_ok = clear and not (((slow and not strider) or difficult) and long)
        if terrain_ok and mid.clear_of_friends(u, t, move) and mid.charge_lane_clear(u, t, move):
            x, y = round(mid.anchors[u][0] + move[0], 3), round(mid.anchors[u][1] + move[1], 3)
            return (round(x - state.anchors[u][0], 3), round(y - state.anchors[u][1], 3)), first
    return None


def searches(state: GameState, u: int, t: int, monkeypatch: pytest.MonkeyPatch) -> tuple:
    """(the search as the game runs it, the plain search: no ``held_back``, :func:`plain_through`)."""
    direct = moving.direct_vector(state, u, t)
    fast = charge_paths._searched(state, u, t, direct)
    with monkeypatch.context() as m:
        m.setattr(charge_paths, "held_back", lambda *_: False)
        m.setattr(charge_legs, "through", plain_through)
        plain = charge_paths._searched(state, u, t, direct)
    return fast, plain


def test_a_mob_in_a_swamp_has_no_path_beyond_its_walk_as_the_plain_search_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The mob's row stands in the swamp, the post 6.7" away (base to base) in the open: every move
    starts in the swamp, so it is capped at the 6" Walk and no path reaches; 5.7" away it reaches;
    Strider reaches from 6.7"."""
    far = state_of([BOYZ], [POST], [MOB_AT, (MOB_AT[0], MOB_AT[1] + 8.0)], (SWAMP,))
    assert 6.5 < far.gap(0, 1) < 7.0
    assert charge_paths.held_back(far, 0, 1)
    fast, plain = searches(far, 0, 1, monkeypatch)
    assert fast == plain and not fast[1]
    assert not any(a[0] == "assault" for a in far.legal_actions())
    near = state_of([BOYZ], [POST], [MOB_AT, (MOB_AT[0], MOB_AT[1] + 7.0)], (SWAMP,))
    assert near.gap(0, 1) < 6.0 and not charge_paths.held_back(near, 0, 1)
    assert ["assault", 0, 1] in near.legal_actions()
    strider = dict(BOYZ, special_rules=["Strider"])
    sure = state_of([strider], [POST], [MOB_AT, (MOB_AT[0], MOB_AT[1] + 8.0)], (SWAMP,))
    assert not charge_paths.held_back(sure, 0, 1)
    assert ["assault", 0, 1] in sure.legal_actions()


def test_round_a_wall_from_a_swamp_the_second_legs_past_the_walk_are_not_looked_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The mob in the swamp behind the wall, the post within its Walk: the two-leg path's first leg
    leaves the swamp, so both legs must fit in 6": the search and the plain search agree, waypoint by
    waypoint."""
    s = state_of([BOYZ], [POST], [MOB_AT, POST_AT], (WALL, SWAMP))
    assert s.gap(0, 1) <= 6.0 and not charge_paths.held_back(s, 0, 1)
    fast, plain = searches(s, 0, 1, monkeypatch)
    assert fast == plain
    open_ground = state_of([BOYZ], [POST], [MOB_AT, POST_AT], (WALL,))
    first = legs.waypoint(next(a for a in open_ground.legal_actions() if a[0] == "assault"))
    for k in range(-4, 5):  # waypoints round the one found on open ground
        way = (first[0] + 0.5 * k, first[1])
        assert charge_legs.through(s, 0, 1, way, 12.0) == plain_through(s, 0, 1, way, 12.0)


@pytest.mark.slow
def test_the_search_finds_what_the_plain_search_finds_over_seeded_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = [ROOT / f"examples/armies/onepage-{n}-army.yaml" for n in ("marines", "orks")]
    armies = (load_army_side(files[0]), load_army_side(files[1]))
    pairs = held = 0
    for seed in (3, 8, 11):
        log = play(Setup(armies, generate_table(seed)), seed, ("random", "random"))
        for state in [s for s in states(log) if s.phase == "play"]:
            st = state.standing()
            for u in st.ids:
                for t in st.sides[1 - state.setup.owner[u]]:
                    reach = move_distance(state.setup.units[u], "assault")
                    if state.gap(u, t) > reach + EPS:
                        continue
                    fast, plain = searches(state, u, t, monkeypatch)
                    assert fast == plain, (seed, state.round, u, t)
                    pairs += 1
                    held += charge_paths.held_back(state, u, t)
    assert pairs > 100 and held > 0  # the shortcut was met, not only the searches around it


def test_first_contacts_are_first_contact_direction_by_direction() -> None:
    """``charge_paths.first_contacts`` (every direction at once) gives ``moving.first_contact`` of
    each direction to the last bit: on a hand-built pair (two bases 3" apart along x, radii summing
    to 1": contact after 2" straight on, never going away) and on random blocks."""
    a, b = np.array([[0.0, 0.0]]), np.array([[3.0, 0.0]])
    ws = np.array([(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0)])
    assert charge_paths.first_contacts(a, b, ws, 1.0).tolist() == [2.0, math.inf, math.inf]
    rng = np.random.default_rng(5)
    for _ in range(300):
        a, b = (
            rng.uniform(0, 24, (int(rng.integers(1, 21)), 2)),
            rng.uniform(0, 24, (int(rng.integers(1, 21)), 2)),
        )
        angles = rng.uniform(-math.pi, math.pi, int(rng.integers(1, 16)))
        ws = np.array([(math.cos(x), math.sin(x)) for x in angles])
        reach = float(rng.uniform(0.5, 4.0))
        got = charge_paths.first_contacts(a, b, ws, reach).tolist()
        assert got == [moving.first_contact(a, b, w, reach) for w in ws]
