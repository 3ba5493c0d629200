"""A unit may narrow its formation to pass a gap (``game/shapes.py``). The guide moves models, not
blocks: "All members of the unit must remain within 1" of at least one other member at all times,
and must remain within 12" of all other members at all times"; "Units may not move within 1" of
other units"; "Units may not move into or through impassable terrain"; "If any model of a unit moves
through difficult terrain at any point of its move, the unit may not move more than its Walk action
distance"; "roll one die for each model that moved into or across the dangerous terrain"."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
import shapely

from grimdice.engine.frozen import replace
from grimdice.engine.table.blocks import EPS
from grimdice.systems.onepage.ai.players import ai_player
from grimdice.systems.onepage.game import GameState, moving
from grimdice.systems.onepage.game.dangerous import models_through
from grimdice.systems.onepage.game.invariants import violations
from grimdice.systems.onepage.game.places import shape_of, turned
from grimdice.systems.onepage.game.setup import BLOCK, COLUMN, GAP, block, column, formation
from grimdice.systems.onepage.game.shapes import first_reshape, least_squares_order, order, paths, with_shape
from grimdice.systems.onepage.movement import move_distance
from tests.onepage_game.test_table_legality import POST, rect, state_of


def reshape_ok(
    state: GameState, u: int, shape: int, move: tuple[float, float], full: float
) -> tuple[bool, int]:
    """(legal, models whose path meets dangerous terrain) for unit ``u`` moving its anchor by ``move``
    and changing to ``shape`` within an allowance of ``full`` inches (see the module text): every
    model's path no longer than ``full`` (the Walk distance where a path meets difficult terrain,
    Strider and Flying apart), checked as a block's move is (``moving.paths_ok``): the plain
    reference the game's ``shapes.first_reshape`` (one compiled pass over the lengths) is held to,
    and the count ``dangerous.models_through`` rolls for."""
    ax, ay = state.anchors[u]
    a, start, n = state.models(u), shape_of(state, u), state.units[u].models
    end = np.array([round(ax + move[0], 3), round(ay + move[1], 3)])  # as GameState.moved places it
    b = turned(state.setup, u, state.flip(u), shape)[:n] + end  # its models there (places.models)
    if start != shape:
        b = b[order(state, u, start, shape)]
    lengths = np.hypot(b[:, 0] - a[:, 0], b[:, 1] - a[:, 1])
    longest = float(lengths.max()) if len(lengths) else 0.0
    if longest > full + EPS:
        return False, 0
    first = int(np.argmax(lengths))  # the longest path first: units_clear measures reach by it
    rows = [first, *[i for i in range(len(a)) if i != first]]
    ok, slow, harm = moving.paths_ok(state, u, np.ascontiguousarray(a[rows]), np.ascontiguousarray(b[rows]))
    unit = state.setup.units[u]
    if ok and slow and not unit.has("strider") and longest > move_distance(unit, "walk") + EPS:
        return False, 0
    if not ok or not harm:
        return ok, 0
    return True, models_through(state, u, a, b, True)


MM = 25.4
BOYZ = {"name": "Boyz", "quality": 5, "equipment": ["Pistol", "Hand Weapon"], "cost": 10, "size": 21}
MOB = dict(BOYZ, size=10)
# two rocks from the west and east edges, 6" apart: the lane between them runs north for 16"
ROCKS = (
    rect("west", 0.0, 14.0, 33.0, 30.0, "impassable"),
    rect("east", 39.0, 14.0, 72.0, 30.0, "impassable"),
)


def coherent_by_hand(pts: np.ndarray, radius: float) -> bool:
    """The guide's coherency from first principles: every model within 1" of another (base to base),
    all linked into one group, and every two within 12" (base to base)."""
    n = len(pts)
    gap = [[math.dist(pts[i], pts[j]) - 2 * radius for j in range(n)] for i in range(n)]
    if any(gap[i][j] > 12.0 + 1e-9 for i in range(n) for j in range(n)):
        return False
    linked, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in range(n):
            if j not in linked and gap[i][j] <= 1.0 + 1e-9:
                linked.add(j)
                todo.append(j)
    return len(linked) == n


def wide(pts: np.ndarray) -> int:
    return len({round(float(x), 6) for x in pts[:, 0]})


@pytest.mark.parametrize("mm", [32, 60])
def test_every_shape_of_1_to_36_models_is_coherent_and_stays_so_as_models_fall(mm: int) -> None:
    radius = mm / MM / 2
    for n in range(1, 37):
        off = formation(n, radius)
        narrow = column(off, radius)
        if narrow is None:  # no narrower coherent block: none of 2 files up to the block's less one
            assert all(
                not coherent_by_hand(block(n, c, 2 * radius + GAP), radius) for c in range(2, wide(off))
            )
            continue
        assert 2 <= wide(narrow) < wide(off)
        for k in range(1, n + 1):  # casualties from the back
            assert coherent_by_hand(narrow[:k], radius), (mm, n, k)
        if wide(narrow) > 2:  # the fewest files: one fewer is not coherent
            assert not coherent_by_hand(block(n, wide(narrow) - 1, 2 * radius + GAP), radius)


def test_a_mob_of_21_boyz_narrows_to_3_files() -> None:
    """32 mm bases 0.5" apart stand 1.76" centre to centre. Two files: 11 ranks, the first and last
    models sqrt(17.6^2 + 1.76^2) - 1.26 = 16.43" apart, over 12"; three files: 7 ranks,
    sqrt(10.56^2 + 3.52^2) - 1.26 = 9.87" apart, coherent."""
    radius = 32 / MM / 2
    narrow = column(formation(21, radius), radius)
    assert narrow is not None and wide(narrow) == 3 and len({round(float(y), 6) for y in narrow[:, 1]}) == 7


def test_the_assignment_makes_the_squared_paths_least() -> None:
    """The one-to-one assignment against every permutation (brute force), on random points."""
    rng = np.random.default_rng(5)
    for n in range(1, 8):
        a, b = rng.uniform(0, 10, (n, 2)), rng.uniform(0, 10, (n, 2))
        order = least_squares_order(a, b)
        assert sorted(order) == list(range(n))
        best = min(
            sum(float(((a[i] - b[p[i]]) ** 2).sum()) for i in range(n))
            for p in itertools.permutations(range(n))
        )
        assert sum(float(((a[i] - b[order[i]]) ** 2).sum()) for i in range(n)) == pytest.approx(best)


def stuck() -> GameState:
    return state_of([BOYZ], [POST], [(36.0, 12.0), (36.0, 44.0)], ROCKS)


def test_a_mob_stuck_behind_two_rocks_narrows_and_the_ai_takes_it_through() -> None:
    s = stuck()
    acts = s.legal_actions()
    # its block (about 8.3" wide) cannot enter the 6" lane: no move in its block gets it north
    assert all(a[3] <= 1.5 for a in acts if a[0] in ("walk", "run") and len(a) != 5)
    assert any(len(a) == 5 and a[4] == "column" for a in acts)
    rng = np.random.default_rng(1)
    while s.phase != "end" and s.round <= 3:
        p = s.current_player()
        if p == 0:
            a = ai_player(s, rng)
        elif p == 1:
            a = ["shoot", -1] if s.phase == "shoot" else ["hold", 1]
        else:
            a = max(s.chance_outcomes(), key=lambda o: o[1])[0]
        after = s.apply(a)
        assert violations(after, s, a) == []
        s = after
    assert s.models(0)[:, 1].max() > 31.0  # the front rank out of the 16" lane by round 3
    assert shape_of(s, 0) == COLUMN


def test_random_players_draw_the_changes_of_shape() -> None:
    s = stuck()
    legal = s.legal_actions()
    rng = np.random.default_rng(3)
    drawn = [s.random_action(rng) for _ in range(200)]
    assert all(a in legal for a in drawn)
    assert any(len(a) == 5 for a in drawn)


def test_a_change_of_shape_round_trips_through_json_and_back_to_the_block() -> None:
    s = stuck()
    a = next(a for a in s.legal_actions() if a[0] == "walk" and len(a) == 5)
    after = s.apply(a)
    while after.phase == "shoot":
        after = after.apply(["shoot", -1])
    assert after.shapes[0] == COLUMN
    back = GameState.from_json(after.setup, json.loads(json.dumps(after.to_json())))
    assert back.shapes == after.shapes and np.array_equal(back.models(0), after.models(0))
    assert with_shape(after, 0, BLOCK).shapes == ()  # every unit in its block: the field left empty


HERE = (36.0, 20.0)  # the mob's anchor on an open table
ASIDE = (6.0, -3.0)  # a Run into the column whose paths leave a spot clear of every start and end


FRIEND, FOE = dict(POST, name="Friend"), dict(POST, name="Foe")


def open_table(
    *units: dict, pieces: tuple[object, ...] = (), at: tuple[float, float] = (0.0, 0.0)
) -> GameState:
    """The mob of 10 at :data:`HERE`, an enemy post far off, and :data:`FRIEND` or :data:`FOE` at ``at``."""
    mine = [MOB, *[u for u in units if u is FRIEND]]
    theirs = [POST, *[u for u in units if u is FOE]]
    anchors = [HERE, *([at] if len(mine) > 1 else []), (60.0, 44.0), *([at] if len(theirs) > 1 else [])]
    return state_of(mine, theirs, anchors, pieces)  # type: ignore[arg-type]


def longest(s: GameState, move: tuple[float, float]) -> tuple[float, np.ndarray, np.ndarray]:
    """The longest model path of a change to the column with ``move``, and all paths."""
    a, b = paths(s, with_shape(s.moved(0, *move), 0, COLUMN), 0)
    return float(np.hypot(*(b - a).T).max()), a, b


def clear_spot() -> tuple[float, float]:
    """The point on a model's path of the :data:`ASIDE` change farthest from every model's start and
    end (over 3": a piece there meets only paths, a unit there stands over 1" from every end)."""
    _, a, b = longest(open_table(), ASIDE)
    ends = np.vstack([a, b])
    spots = [a[k] + (b[k] - a[k]) * t for k in range(len(a)) for t in np.linspace(0.1, 0.9, 17)]
    best = max(spots, key=lambda p: float(np.hypot(*(ends - p).T).min()))
    assert np.hypot(*(ends - best).T).min() > 3.0
    return float(best[0]), float(best[1])


def piece_on_path(name: str, trait: str) -> tuple[GameState, object]:
    """A 0.4" square piece of ``trait`` at :func:`clear_spot`."""
    x, y = clear_spot()
    piece = rect(name, x - 0.2, y - 0.2, x + 0.2, y + 0.2, trait)
    return open_table(pieces=(piece,)), piece


def test_a_change_of_shape_is_refused_when_a_path_is_longer_than_the_allowance() -> None:
    s = open_table()
    far = longest(s, (0.0, 4.0))[0]
    assert 4.0 < far < 12.0
    assert reshape_ok(s, 0, COLUMN, (0.0, 4.0), far + 0.01)[0]
    assert not reshape_ok(s, 0, COLUMN, (0.0, 4.0), far - 0.01)[0]


def test_a_change_of_shape_is_refused_when_a_path_crosses_impassable_terrain() -> None:
    assert reshape_ok(open_table(), 0, COLUMN, ASIDE, 12.0)[0]
    s, _ = piece_on_path("rock", "impassable")
    assert not reshape_ok(s, 0, COLUMN, ASIDE, 12.0)[0]
    assert (
        first_reshape(s, 0, COLUMN, [ASIDE], 12.0) == -1
        and first_reshape(open_table(), 0, COLUMN, [ASIDE], 12.0) == 0
    )


def on_path_with(rules: list[str], trait: str) -> GameState:
    """:func:`piece_on_path`'s piece of ``trait`` before a mob of 10 with ``rules``."""
    x, y = clear_spot()
    piece = rect("p", x - 0.2, y - 0.2, x + 0.2, y + 0.2, trait)
    return state_of([dict(MOB, special_rules=rules)], [POST], [HERE, (60.0, 44.0)], (piece,))


def test_a_strider_changes_shape_through_difficult_terrain_at_a_run() -> None:
    """Strider: "treat difficult terrain as open terrain when moving", so the Run's change through
    mud, refused to a mob without it, is allowed, by the reference and by the compiled pass."""
    s = on_path_with(["Strider"], "difficult")
    assert 6.0 < longest(s, ASIDE)[0] <= 12.0
    assert reshape_ok(s, 0, COLUMN, ASIDE, 12.0)[0]
    assert first_reshape(s, 0, COLUMN, [ASIDE], 12.0) == 0


def test_a_flier_changes_shape_over_impassable_terrain() -> None:
    """Flying: "may move through other units and impassable terrain", so a path over a rock does
    not refuse the change."""
    s = on_path_with(["Flying"], "impassable")
    assert reshape_ok(s, 0, COLUMN, ASIDE, 12.0)[0]
    assert first_reshape(s, 0, COLUMN, [ASIDE], 12.0) == 0


def test_a_change_of_shape_is_refused_when_a_path_crosses_another_unit_s_base() -> None:
    x, y = clear_spot()
    for other in (FRIEND, FOE):
        assert not reshape_ok(open_table(other, at=(x, y)), 0, COLUMN, ASIDE, 12.0)[0]
        assert reshape_ok(open_table(other, at=(x, y - 8.0)), 0, COLUMN, ASIDE, 12.0)[0]  # off the paths


def test_a_change_of_shape_through_difficult_terrain_is_capped_at_the_walk() -> None:
    s, _ = piece_on_path("mud", "difficult")
    assert 6.0 < longest(s, ASIDE)[0] <= 12.0
    assert reshape_ok(open_table(), 0, COLUMN, ASIDE, 12.0)[0]
    assert not reshape_ok(s, 0, COLUMN, ASIDE, 12.0)[0]  # a Run's change, through the mud
    assert first_reshape(s, 0, COLUMN, [ASIDE], 12.0) == -1
    assert longest(s, (0.0, 2.0))[0] <= 6.0 and reshape_ok(s, 0, COLUMN, (0.0, 2.0), 12.0)[0]


def test_dangerous_terrain_is_rolled_for_the_models_whose_paths_cross_it() -> None:
    s, piece = piece_on_path("wire", "dangerous")
    _, a, b = longest(s, ASIDE)
    radius = 32 / MM / 2
    poly = shapely.Polygon(piece.corners)  # type: ignore[attr-defined]
    near = [shapely.LineString([a[k], b[k]]).distance(poly) for k in range(len(a))]
    assert all(abs(d - radius) > 0.02 for d in near)  # no path grazes the piece's edge
    crossing = sum(d < radius for d in near)
    assert crossing >= 1
    assert reshape_ok(s, 0, COLUMN, ASIDE, 12.0) == (True, crossing)
    after = s.apply(["run", 0, *ASIDE, "column"])
    assert after.pending == ("dangerous", 0, 0, (crossing,))


def test_a_unit_keeps_its_column_through_an_assault() -> None:
    s = with_shape(state_of([BOYZ], [POST], [(36.0, 20.0), (36.0, 30.0)]), 0, COLUMN)
    a = next(a for a in s.legal_actions() if a[0] == "assault")
    after = s.apply(a)
    assert shape_of(after, 0) == COLUMN
    assert violations(after, s, a) == []


def test_a_change_of_shape_may_not_end_within_1_inch_of_another_unit() -> None:
    """ "Units may not move within 1" of other units": a unit 0.5" beyond where the longest path ends
    refuses the change, 3" beyond it does not. The first model's path (2.51") is far shorter than the
    longest (7.15"): the unit stands farther than the first path and 1" from every start, so the 1"
    test must reach as far as the longest path."""
    move = (-3.0, 6.0)
    _, a, b = longest(open_table(), move)
    lengths = np.hypot(*(b - a).T)
    i = int(lengths.argmax())
    assert lengths[0] < lengths[i] - 4.0
    way = (b[i] - a[i]) / lengths[i]
    for gap, ok in ((0.5, False), (3.0, True)):
        x, y = b[i] + way * (gap + 2 * 32 / MM / 2)
        assert reshape_ok(open_table(FOE, at=(float(x), float(y))), 0, COLUMN, move, 12.0)[0] is ok


def test_a_unit_leaves_its_transport_in_its_block() -> None:
    """A unit that embarked in its column disembarks (or is placed as a wreck's survivors) in its
    block: ``transport.from_hull`` and ``transport.unload`` place the deployment's formation."""
    from grimdice.systems.onepage.game import transport

    truck = {
        "name": "Truck",
        "quality": 4,
        "equipment": ["Rifle"],
        "special_rules": ["Vehicle", "Transport(12)"],
    }
    s = state_of([MOB, truck], [POST], [(36.0, 10.0), (36.0, 20.0), (60.0, 44.0)])
    s = replace(with_shape(s, 0, COLUMN), place=(1, -1, -1))  # the mob aboard the truck, in its column
    assert shape_of(transport.from_hull(s, 0, 1), 0) == BLOCK
    assert shape_of(transport.unload(s, 0, 1), 0) == BLOCK


def shape_changes(s: GameState) -> list[list]:
    return [a for a in s.legal_actions() if a[0] in ("walk", "run") and len(a) == 5]


def test_a_block_in_the_open_is_offered_no_column_and_a_column_its_block() -> None:
    s = state_of([BOYZ], [POST], [(36.0, 12.0), (36.0, 40.0)])  # no terrain: every line open
    assert shape_changes(s) == []
    narrow = with_shape(s, 0, COLUMN)
    back = shape_changes(narrow)
    assert back and all(a[4] == "block" for a in back)
    assert [0.0, 0.0] in [a[2:4] for a in back]  # in place too


def test_a_column_whose_lines_are_cut_short_keeps_its_column() -> None:
    # a wall across the table 3" ahead of the mob's front rank: every line to the enemy is cut short
    wall = rect("wall", 0.0, 15.0, 72.0, 16.0, "impassable")
    s = state_of([BOYZ], [POST], [(36.0, 12.0), (36.0, 44.0)], (wall,))
    assert {a[4] for a in shape_changes(s)} == {"column"}  # its block is offered the column
    assert shape_changes(with_shape(s, 0, COLUMN)) == []  # and its column is not offered the block
