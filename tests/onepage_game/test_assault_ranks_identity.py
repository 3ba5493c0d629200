"""The Assault placement (assault_ranks.placed: the greedy taking of spots compiled, the capped plan
made only where it could strike more) ends every model where the plain NumPy placement below does,
on hand-built crowded charges and on every Assault of seeded random and AI games.

The reference is the placement written as the module's docstring reads, whole arrays per model
placed; it shares the module's path test (``_paths``) and so checks the compiled tests and choices
(``spot_kernels``), the order of the tests and the skipping, not the paths."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from grimdice.engine.table.bases import base_distances, coherent
from grimdice.engine.table.sweeps import bases_in
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.game import assault_ranks as ar
from grimdice.systems.onepage.game.setup import MM


def _reference_to_others(c: ar.Charge, spots: np.ndarray) -> np.ndarray:
    return ar.nearest(spots, c.ra, c.pts, c.rp) if len(c.rp) else np.zeros(len(spots))


def _reference_standable(c: ar.Charge, spots: np.ndarray, gaps: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """On the table, over no target base nor impassable terrain, not within 1" of another unit."""
    ok = c.table.on_table(spots, c.ra)
    ok &= gaps[0] >= -ar.EPS
    if len(c.table.terrain):
        ok &= ~bases_in(c.table, spots, c.ra, "impassable")
    if len(c.rp):
        ok &= gaps[1] >= min(ar.KEEP_CLEAR, float(c.before.min(initial=ar.KEEP_CLEAR))) - ar.EPS
    return np.asarray(ok)


def _reference_strike_spots(c: ar.Charge) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
    rings = [ar.ring(c.d, c.ra + c.rd + g + ar.TIGHT, c.ra / 3) for g in ar.RANKS]
    spots = np.concatenate(rings)
    tier = np.concatenate([np.full(len(r), k) for k, r in enumerate(rings)])
    gaps = ar._gaps(c, spots), _reference_to_others(c, spots)
    ok = _reference_standable(c, spots, gaps)
    return spots[ok], tier[ok], (gaps[0][ok], gaps[1][ok])


def _reference_options(
    c: ar.Charge, pos: np.ndarray, movers: np.ndarray, spots: np.ndarray, can: np.ndarray, g: Any = None
) -> np.ndarray:
    """The spots each waiting model may take now: reachable, over no base of its unit, within 1" of
    one and 12" of all (the gaps ``g`` to the models at ``pos``)."""
    if g is None:
        g = base_distances(spots, c.ra, pos, c.ra, signed=True)
    over, link, far = g < -ar.EPS, g <= ar.LINK + ar.EPS, g > ar.SPAN + ar.EPS
    free = (over.sum(axis=1)[None, :] - over[:, movers].T) == 0
    linked = (link.sum(axis=1)[None, :] - link[:, movers].T) > 0
    spanned = (far.sum(axis=1)[None, :] - far[:, movers].T) == 0
    return np.asarray(can & free & linked & spanned)


def _reference_ranked(c: ar.Charge, slow_ok: bool) -> np.ndarray:
    pos = c.a.copy()
    gap = ar._gaps(c, pos)
    movers = np.flatnonzero(gap > 2 * ar.TIGHT)
    if not len(movers) or c.reach <= ar.EPS:
        return pos
    spots, tier, (to_target, to_others) = _reference_strike_spots(c)
    can = ar._paths(c, movers, spots, slow_ok, to_others) if len(spots) else np.zeros((len(movers), 0), bool)
    can &= to_target[None, :] < gap[movers, None] - ar.EPS
    some = can.any(axis=0)
    spots, tier, can = spots[some], tier[some], can[:, some]
    moves: list[tuple[int, np.ndarray]] = []
    waiting = np.ones(len(movers), dtype=bool)
    near = gap[movers] <= ar.STRIKE_REACH + ar.EPS
    while can.any():
        g = base_distances(spots, c.ra, pos, c.ra, signed=True)
        options = _reference_options(c, pos, movers, spots, can & waiting[:, None], g)
        counts = options.sum(axis=1)
        if not counts.any():
            break
        k = int(np.lexsort((counts, near, counts == 0))[0])
        i = int(movers[k])
        contested = options.sum(axis=0) - options[k]
        travel = np.linalg.norm(spots - c.starts[i], axis=1)
        snug = np.round(np.delete(np.maximum(g, 0.0), i, axis=1).min(axis=1), 1) if len(pos) > 1 else travel
        j = int(np.lexsort((travel, contested, snug, tier, ~options[k]))[0])
        moves.append((i, pos[i].copy()))
        pos[i] = spots[j]
        waiting[k] = False
        can[k] = False
    pos = _reference_closer(c, pos, movers[waiting], moves, slow_ok)
    while moves and not coherent(pos, np.full(len(pos), c.ra)):
        i, back = moves.pop()
        pos[i] = back
    return pos


def _reference_closer(
    c: ar.Charge, pos: np.ndarray, left_out: np.ndarray, moves: list[tuple[int, np.ndarray]], slow_ok: bool
) -> np.ndarray:
    for i in left_out[np.argsort(ar._gaps(c, pos[left_out]), kind="stable")]:
        start = c.starts[i]
        near = c.d[np.argsort(np.linalg.norm(c.d - start, axis=1), kind="stable")[: ar.NEAREST]]
        vec = near - start
        length = np.linalg.norm(vec, axis=1)
        unit = vec / np.maximum(length, ar.EPS)[:, None]
        most = np.minimum(c.reach, np.maximum(length - c.ra - c.rd - ar.TIGHT, 0.0))
        straight = start + unit[:, None, :] * (most[:, None] * np.array(ar.FRACTIONS))[:, :, None]
        linked = [ar.ring(np.delete(pos, i, axis=0), 2 * c.ra + g, c.ra) for g in ar.FOLLOW]
        ends = np.concatenate([straight.reshape(-1, 2), *linked])
        gaps = ar._gaps(c, ends)
        closer = gaps < ar._gaps(c, pos[i : i + 1])[0] - ar.EPS
        ends, gaps = ends[closer], gaps[closer]
        to_others = _reference_to_others(c, ends)
        fit = _reference_standable(c, ends, (gaps, to_others))
        ends, gaps = ends[fit], gaps[fit]
        if not len(ends):
            continue
        ok = ar._paths(c, np.array([i]), ends, slow_ok, to_others[fit])
        ok = _reference_options(c, pos, np.array([i]), ends, ok)[0]
        if ok.any():
            j = int(np.lexsort((np.linalg.norm(ends - start, axis=1), np.round(gaps, 6), ~ok))[0])
            moves.append((int(i), pos[i].copy()))
            pos[i] = ends[j]
    return pos


def reference_placed(c: ar.Charge, walk: float | None) -> np.ndarray:
    """Both plans made whenever ``walk`` is given, the capped one kept when more models strike."""
    full = _reference_ranked(c, slow_ok=walk is None)
    if walk is None or walk <= ar.EPS:
        return full
    capped = _reference_ranked(ar.Charge(**{**c.__dict__, "reach": min(c.reach, walk)}), slow_ok=True)
    n_full = int(ar.within_reach(full, c.ra, c.d, c.rd).sum())
    return capped if int(ar.within_reach(capped, c.ra, c.d, c.rd).sum()) > n_full else full


def piece(name: str, x0: float, y0: float, x1: float, y1: float, trait: str) -> Terrain:
    return Terrain(name, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), frozenset({trait}), 0.0)


def crowded(seed: int) -> tuple[ar.Charge, float | None]:
    """A block of 5-25 models (ranks of 5, 25-40 mm bases) whose block move stopped short of a
    target unit of 1-12 models, with one or two other units and rock, difficult and dangerous ground
    around, at random places."""
    rng = np.random.default_rng(seed)
    ra, rd = (float(rng.choice([25, 32, 40])) / MM / 2 for _ in range(2))
    n, m = int(rng.integers(5, 26)), int(rng.integers(1, 13))
    step = 2 * ra + 0.05
    a = np.array([(30.0 + step * (k % 5), 16.0 - step * (k // 5)) for k in range(n)])
    shift = np.array([rng.uniform(-2, 2), rng.uniform(1, 5)])
    starts = a - shift
    tstep = 2 * rd + rng.uniform(0.05, 1.0)
    front = 16.0 + ra + rd
    d = np.array(
        [
            (31.0 + tstep * (k % 6) + rng.uniform(-1, 1), front + rng.uniform(0.1, 3) + 2 * rd * (k // 6))
            for k in range(m)
        ]
    )
    others = [np.array([[22.0 + rng.uniform(-2, 2) + 1.1 * k, 20.0 + rng.uniform(-2, 2)] for k in range(3)])]
    if rng.random() < 0.5:
        others.append(np.array([[44.0 + rng.uniform(-2, 2), 18.0 + 1.1 * k] for k in range(4)]))
    pts = np.concatenate(others)
    rp = np.full(len(pts), 0.5)
    x = float(rng.uniform(26, 40))
    pieces = (
        piece("rock", x, 21.0, x + 3.0, 24.0, "impassable"),
        piece("mud", x - 8.0, 12.0, x - 5.0, 18.0, "difficult"),
        piece("mines", x + 6.0, 14.0, x + 8.0, 18.0, "dangerous"),
    )
    before = base_distances(starts, ra, pts, rp, signed=True).min(axis=1)
    c = ar.Charge(
        starts=starts,
        a=a,
        reach=12.0,
        d=d,
        ra=ra,
        rd=rd,
        pts=pts,
        rp=rp,
        before=np.minimum(before, 1.0),
        table=Table(terrain=pieces),
        flying=bool(rng.random() < 0.1),
        block=float(np.linalg.norm(shift)) if rng.random() < 0.5 else None,
    )
    return c, (6.0 if rng.random() < 0.7 else None)


@pytest.mark.parametrize("seed", range(40))
def test_crowded_charges_end_where_the_plain_placement_ends(seed: int) -> None:
    c, walk = crowded(seed)
    assert np.array_equal(ar.placed(c, walk), reference_placed(c, walk))


def assaults_of(players: tuple[str, str], games: int, seed: int) -> list[tuple[ar.Charge, float | None]]:
    """Every Assault's placement inputs in ``games`` seeded games of the bundled armies (gathered as
    ``benchmarks/bench_assault_ranks.py`` gathers them)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks/bench_assault_ranks.py"
    spec = importlib.util.spec_from_file_location("bench_assault_ranks", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return list(bench.assaults(players, games, seed))


@pytest.mark.slow
@pytest.mark.parametrize("players", [("random", "random"), ("ai", "ai")])
def test_every_assault_of_seeded_games_ends_where_the_plain_placement_ends(players: tuple[str, str]) -> None:
    seen = assaults_of(players, 8 if players[0] == "random" else 1, 5)
    assert seen  # the games have Assaults
    for c, walk in seen:
        assert np.array_equal(ar.placed(c, walk), reference_placed(c, walk))


def test_the_compiled_reach_test_is_numpys() -> None:
    """``spot_kernels.within`` (the straight reach of each (model, spot) pair in ``_paths``) against
    the NumPy formula, on random points with limits on the pairs' own distances (exact ties)."""
    from grimdice.engine.table import spot_kernels

    rng = np.random.default_rng(3)
    froms, spots = rng.uniform(0, 20, (9, 2)), rng.uniform(0, 20, (40, 2))
    d = spots[None, :, :] - froms[:, None, :]
    dist = np.sqrt(d[:, :, 0] * d[:, :, 0] + d[:, :, 1] * d[:, :, 1])
    mask = rng.random((9, 40)) < 0.8
    for limit in (0.0, 5.0, float(dist[2, 7]), float(np.median(dist)), 30.0):
        assert np.array_equal(spot_kernels.within(froms, spots, limit, mask), mask & (dist <= limit))
