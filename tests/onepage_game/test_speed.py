"""The game's fast paths answer exactly as the plain ones: terrain tests of all pieces at once,
line of sight, many candidate block positions at once, and the geometry memo."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import shapely

from grimdice.engine.table.bases import base_distances
from grimdice.engine.table.blocks import blocks, blocks_cross, blocks_gaps, pair_distances, sights
from grimdice.engine.table.layout import generate_table, table_from_mapping
from grimdice.engine.table.lines import sight_blocked
from grimdice.engine.table.terrain import Table, Terrain, segments_cross
from grimdice.systems.onepage.ai.choices import expected_loss
from grimdice.systems.onepage.ai.players import danger
from grimdice.systems.onepage.game import GameState, deploy, deployment, make_setup
from grimdice.systems.onepage.game.cache import memo
from grimdice.systems.onepage.game.dangerous import models_through
from grimdice.systems.onepage.game.queries import prefetch
from grimdice.systems.onepage.game.setup import load_army_side
from grimdice.systems.onepage.movement import move_distance

MARINES = "examples/armies/onepage-marines-army.yaml"
ORKS = "examples/armies/onepage-orks-army.yaml"


def mixed_table() -> Table:
    """Rectangles, a circle (16 corners) and a triangle: polygons of different lengths."""
    return table_from_mapping(
        {
            "terrain": [
                {"name": "ruin", "rect": [10, 10, 8, 6], "traits": ["cover", "blocks_sight"]},
                {"name": "wood", "circle": [40, 24, 5], "traits": ["cover", "difficult", "blocks_sight"]},
                {"name": "rock", "shape": [[55, 5], [65, 8], [58, 15]], "traits": ["impassable"]},
                {"name": "hill", "rect": [20, 30, 10, 10], "height": 3},
                {"name": "mire", "rect": [44, 30, 6, 4], "traits": ["dangerous"]},
            ]
        }
    )


def test_pieces_at_is_each_pieces_own_contains() -> None:
    rng = np.random.default_rng(3)
    for table in (mixed_table(), generate_table(5)):
        pts = rng.uniform([0, 0], [72, 48], size=(500, 2))
        pts[:20] = table.terrain[0].corners[0]  # on a corner
        want = np.stack([t.contains(pts) for t in table.terrain], axis=1)
        assert (table.pieces_at(pts) == want).all()
        for trait in ("cover", "impassable", "nothing"):
            mask = np.array([t.has(trait) for t in table.terrain])
            assert (table.pieces_at(pts, trait) == (want & mask[None, :])).all()
        heights = np.array([t.height for t in table.terrain])
        assert (table.height_at(pts) == np.where(want, heights, 0.0).max(axis=1, initial=0.0)).all()
    assert Table().pieces_at(np.zeros((3, 2))).shape == (3, 0)


def test_sight_blocked_is_the_piece_by_piece_rule() -> None:
    """A line is blocked by a sight-blocking piece it crosses once from outside, or twice when it
    starts or ends inside that piece."""
    rng = np.random.default_rng(4)
    generated = next(
        t for t in map(generate_table, range(50)) if sum(p.has("blocks_sight") for p in t.terrain) >= 4
    )
    for table in (mixed_table(), generated):
        s = rng.uniform([0, 0], [72, 48], size=(400, 2))
        e = rng.uniform([0, 0], [72, 48], size=(400, 2))
        want = np.zeros(len(s), dtype=bool)
        for piece in table.terrain:
            if piece.has("blocks_sight"):
                hits = segments_cross(s, e, piece.edges).sum(axis=1)
                inside = piece.contains(s) | piece.contains(e)
                want |= np.where(inside, hits >= 2, hits >= 1)
        assert (sight_blocked(table, s, e) == want).all()
        assert want.any() and not want.all()


def swept_over(piece: Terrain, a: np.ndarray, b: np.ndarray, radius: float) -> np.ndarray:
    """``(n,)``: whether the base of ``radius`` moving from ``a[i]`` to ``b[i]`` passes over the
    piece anywhere (shapely's exact distance from the path to the polygon under the radius)."""
    paths = [
        shapely.LineString([p, q]) if (p != q).any() else shapely.Point(p) for p, q in zip(a, b, strict=True)
    ]
    return np.array([path.distance(piece.polygon) < radius for path in paths], dtype=bool)


def touches_piece_by_piece(table: Table, a: np.ndarray, b: np.ndarray, j: int, radius: float) -> bool:
    """The rule for one move and one piece: some model's base passes over it on the way."""
    return bool(swept_over(table.terrain[j], a, b, radius).any())


def game(table: Table) -> GameState:
    setup = make_setup(load_army_side(MARINES), load_army_side(ORKS), table)
    return deploy(setup, 0, 0)


def test_many_candidates_at_once_equal_one_at_a_time() -> None:
    s = game(mixed_table())
    rng = np.random.default_rng(6)
    crossed = {"difficult": 0, "dangerous": 0}
    for u in range(len(s.units)):
        s = replace(s, anchors=tuple((36.0 + 6 * (v % 4) - 9, 18.0 + 3 * v) for v in range(len(s.units))))
        a = s.models(u)
        ends = np.array(s.anchors[u]) + rng.uniform(-14, 14, size=(40, 2))
        flip = np.array([1.0, -s.flip(u)])
        bs = blocks(s.setup.offsets[u][: s.units[u].models] * flip, ends)
        others = s.others(u)
        gaps = blocks_gaps(bs, s.setup.radii[u], *others[:3])
        traits = ("impassable", "difficult", "cover", "dangerous")
        r = s.setup.radii[u]
        many = {trait: blocks_cross(s.setup.table, a, bs, trait, r) for trait in traits}  # all at once
        for trait in crossed:
            crossed[trait] += int(many[trait].sum())
        for c, end in enumerate(ends):
            b = s.models(u, (float(end[0]), float(end[1])))
            assert (bs[c] == b).all()
            for trait in traits:
                want = any(
                    touches_piece_by_piece(s.setup.table, a, b, j, r)
                    for j, piece in enumerate(s.setup.table.terrain)
                    if piece.has(trait)
                )
                one = blocks_cross(s.setup.table, a, bs[c : c + 1], trait, r)[0]
                assert one == want == s.crosses(u, a, b, trait)
                assert many[trait][c] == want
            assert (gaps[c] == s.gaps_to(u, b, others)).all()
    assert all(0 < k < 40 * len(s.units) for k in crossed.values())  # some cross, some do not


def test_memo_answers_are_those_of_a_fresh_setup() -> None:
    """Legal actions and shooting situations asked of a state with a warm memo equal those of the
    same state on a fresh setup (empty memo)."""
    table = generate_table(12)
    s = game(table)
    for a in (["hold", 0], ["shoot", -1]):
        s.legal_actions()
        s = s.apply(a)
    assert memo(s.setup)
    fresh = GameState.from_json(make_setup(load_army_side(MARINES), load_army_side(ORKS), table), s.to_json())
    assert fresh.legal_actions() == s.legal_actions()
    for u in range(len(s.units)):
        for t in s.enemies(u):
            assert fresh.shot_key(u, t) == s.shot_key(u, t)
            assert fresh.gap(u, t) == s.gap(u, t)


def test_prefetch_answers_as_the_one_at_a_time_methods() -> None:
    """The AI's prefetch pass (gaps, cover, heights, sight, dangerous crossings of many candidate
    anchors at once) leaves in the memo, and hands back, what a fresh setup computes one by one."""
    s = game(mixed_table())
    s = replace(s, anchors=tuple((30.0 + 7 * (v % 4), 16.0 + 3 * v) for v in range(len(s.units))))
    fresh = GameState.from_json(
        make_setup(load_army_side(MARINES), load_army_side(ORKS), s.setup.table), s.to_json()
    )
    rng = np.random.default_rng(8)
    covered = seen = 0
    for u in range(len(s.units)):
        ax, ay = s.anchors[u]
        ends = [(ax + round(dx, 3), ay + round(dy, 3)) for dx, dy in rng.uniform(-12, 12, size=(25, 2))]
        got = prefetch(s, u, ends)
        assert got is not None
        for end, near in zip(ends, got, strict=True):
            assert near == min(fresh.gap(u, t, end) for t in fresh.enemies(u))
            assert danger(s, u, end) == expected_loss(fresh, u, end)
            valid = s.valid_targets(u, end)
            assert valid == fresh.valid_targets(u, end)
            for t in valid:
                key = s.shot_key(u, t, end, "walk")
                assert key == fresh.shot_key(u, t, end, "walk")
                covered += key[2]
                seen += 1
    assert 0 < covered < seen  # some shots from candidates are at targets in cover, some not


def test_prefetch_with_a_warm_memo_after_an_enemy_moved() -> None:
    """Prefetch computes only what the memo lacks: after one enemy unit moves, the second pass's
    answers (new gaps and sight of the moved unit, the rest read back) equal a fresh setup's."""
    s = game(mixed_table())
    s = replace(s, anchors=tuple((30.0 + 7 * (v % 4), 16.0 + 3 * v) for v in range(len(s.units))))
    rng = np.random.default_rng(9)
    ends = {
        u: [(s.anchors[u][0] + dx, s.anchors[u][1] + dy) for dx, dy in rng.uniform(-9, 9, (20, 2))]
        for u in range(len(s.units))
    }
    for u in range(len(s.units)):
        prefetch(s, u, ends[u])
    moved = replace(
        s, anchors=tuple((x + 2.5, y - 1.5) if v == 1 else (x, y) for v, (x, y) in enumerate(s.anchors))
    )
    fresh = GameState.from_json(
        make_setup(load_army_side(MARINES), load_army_side(ORKS), s.setup.table), moved.to_json()
    )
    for u in range(len(s.units)):
        got = prefetch(moved, u, ends[u])
        assert got is not None
        for end, near in zip(ends[u], got, strict=True):
            assert near == min(fresh.gap(u, t, end) for t in fresh.enemies(u))
            assert moved.valid_targets(u, end) == fresh.valid_targets(u, end)
            for t in moved.enemies(u):
                assert moved.firing_sight(u, t, end) == fresh.firing_sight(u, t, end)
                # the terrain sight the prefetch keeps for the AI: that candidate's alone, afresh
                kept = memo(moved.setup).get(
                    ("sight", moved.units[u].alive, moved.placed(u, end), moved.placed(t))
                )
                if kept is not None:
                    a, b = fresh.models(u, end)[None], fresh.models(t)
                    ra, rb = fresh.setup.radii[u], np.full(len(b), fresh.setup.radii[t])
                    d = pair_distances(a, ra, b, rb)
                    assert (
                        kept
                        == sights(fresh.setup.table, a, b, d, fresh.weapon_range(u), [len(b)], ra, rb)[0][0]
                    )


def test_one_placement_equals_the_many_placements_pass() -> None:
    """``placement_ok`` (one compiled pass) answers what ``placements`` (the NumPy pass over many
    ends) answers for the same end: legal, difficult and dangerous terrain, every unit (Flying
    and Strider among them when the armies have them) and random ends up to 14" away."""
    s = game(mixed_table())
    s = replace(s, anchors=tuple((34.0 + 6 * (v % 4) - 9, 16.0 + 3 * v) for v in range(len(s.units))))
    rng = np.random.default_rng(5)
    seen = set()
    for u in range(len(s.units)):
        start = s.anchors[u]
        ends = np.asarray(start) + rng.uniform(-14.0, 14.0, size=(40, 2))
        many = s.placements(u, start, ends)
        for c, end in enumerate(ends.tolist()):
            one = s.placement_ok(u, start, (end[0], end[1]))
            assert one == (bool(many[0][c]), bool(many[1][c]), bool(many[2][c]))
            seen.add(one)
    assert (True, False, False) in seen and (False, False, False) in seen
    assert (True, True, False) in seen or (True, True, True) in seen  # some through difficult terrain


def test_walk_and_run_in_one_pass_equal_separate_passes() -> None:
    """One placements pass for Walk and Run gives each kind's moves as its own pass on a fresh
    setup; every move is legal one at a time (the unmemoised path), and a move longer than Walk
    never crosses difficult terrain (Strider aside)."""
    s = game(mixed_table())
    s = replace(s, anchors=tuple((34.0 + 6 * (v % 4) - 9, 16.0 + 3 * v) for v in range(len(s.units))))
    for u in range(len(s.units)):
        unit = s.setup.units[u]
        fulls = (move_distance(unit, "walk"), move_distance(unit, "run"))
        both = s.moves_within(u, fulls)
        assert s.moves_within(u, fulls) == both  # warm terrain memo
        for full, got in zip(fulls, both, strict=True):
            fresh = GameState.from_json(
                make_setup(load_army_side(MARINES), load_army_side(ORKS), s.setup.table), s.to_json()
            )
            assert fresh.moves_within(u, (full,)) == [got]
            ax, ay = s.anchors[u]
            for dx, dy in got:
                ok, difficult, _ = fresh.placement_ok(u, (ax, ay), (ax + dx, ay + dy))
                assert ok
                for v in fresh.enemies(u) if unit.has("flying") else range(len(s.units)):
                    if v != u:  # "Units may not move within 1" of other units" (unless already closer)
                        assert fresh.gap(u, v, (ax + dx, ay + dy)) >= min(1.0, fresh.gap(u, v)) - 1e-6
                if difficult and not unit.has("strider"):
                    assert np.hypot(dx, dy) <= fulls[0] + 1e-6


def test_valid_positions_are_the_rule_place_by_place() -> None:
    """Deployment places checked all at once equal the rule read one place at a time: bases on the
    table, none in impassable or dangerous terrain, over 12" from enemies, 1" from friends."""
    s = game(mixed_table())
    for u in (0, len(s.units) - 1):
        got = deployment.valid_positions(s, u, deployment.grid())
        r = s.setup.radii[u]
        for ok, anchor in zip(got, deployment.grid(), strict=True):
            pts = s.models(u, anchor)
            want = bool(s.setup.table.on_table(pts, r).all())
            for piece in s.setup.table.terrain:  # no part of a base over impassable or dangerous terrain
                if piece.has("impassable") or piece.has("dangerous"):
                    want &= not swept_over(piece, pts, pts, r).any()
            for v in range(len(s.units)):
                if v == u:
                    continue
                q = s.models(v)
                gap = base_distances(pts, np.full(len(pts), r), q, np.full(len(q), s.setup.radii[v])).min()
                enemy = s.setup.owner[v] != s.setup.owner[u]
                want &= not (gap < 1.0 - 1e-6 or (enemy and gap <= 12.0 + 1e-6))
            assert bool(ok) == want
        assert got.any() and not got.all()


def test_models_through_is_piece_by_piece() -> None:
    s = game(mixed_table())
    rng = np.random.default_rng(10)
    u = 0
    s = replace(
        s, anchors=tuple((46.0, 28.0) if v == u else (5.0 + 6 * v, 44.0) for v in range(len(s.units)))
    )
    a = s.models(u)
    counted = 0
    for _ in range(60):
        b = s.models(u, tuple(np.array(s.anchors[u]) + rng.uniform(-6, 6, 2)))
        hit = np.zeros(len(a), dtype=bool)
        for piece in s.setup.table.terrain:
            if piece.has("dangerous"):
                hit |= swept_over(piece, a, b, s.setup.radii[u])
        assert models_through(s, u, a, b) == int(hit.sum())
        counted += int(hit.sum())
    assert counted > 0
