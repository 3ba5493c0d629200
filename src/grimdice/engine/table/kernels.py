"""Compiled loops (Numba) for the table questions a game asks most: whole bases swept against terrain
and against other bases, lines through terrain and through bases.

Each kernel answers exactly what the NumPy function it stands for answers, element by element with
the same floating-point operations in the same order (no fast-math), so a game is the same whichever
computes it; it only skips the temporary arrays and the per-call overhead that dominate on the few
dozen elements a move or a line of sight has. The NumPy function each one mirrors is named in its
text, and ``tests/table/test_kernels.py`` checks them equal on random tables.

Numba compiles each kernel on first use and keeps the machine code on disk (``cache=True``), so only
the first game on a machine pays the compilation. Only the games import this module: the
calculators never load Numba.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from grimdice.engine.table.reach_kernels import BOX_MARGIN, _box, _box_gap, _empty_box, _reach_box

#: the terrain's tolerance (``terrain.EPS``)
TERRAIN_EPS = 1e-9

#: every piece's padded polygon as edge starts and ends ``(k, n, 2)`` and its bounds ``(k, 4)``
#: (``Table.polygons``)
Polygons = tuple[np.ndarray, np.ndarray, np.ndarray]
#: the edges of the pieces that block sight, where each piece's run of them starts, which piece each
#: run is, and :data:`Polygons` (``lines.sight_terrain``)
Sight = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
#: the bases of the units on the table (centres, radii), where each unit's bases start among them,
#: and which units count (``Standing``'s arrays and a mask)
Units = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@njit(cache=True, inline="always")
def _crossing(px: float, py: float, rx: float, ry: float, qx: float, qy: float, sx: float, sy: float) -> bool:
    """``terrain.crossing`` for one segment and one edge."""
    denom = rx * sy - ry * sx
    if not abs(denom) > TERRAIN_EPS:
        return False
    qpx, qpy = qx - px, qy - py
    t = (qpx * sy - qpy * sx) / denom
    u = (qpx * ry - qpy * rx) / denom
    return t > TERRAIN_EPS and t < 1 - TERRAIN_EPS and u >= -TERRAIN_EPS and u <= 1 + TERRAIN_EPS


@njit(cache=True, inline="always")
def _square_point_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """``sweeps._square_point_segment`` for one point and one segment."""
    dx, dy = bx - ax, by - ay
    wx, wy = px - ax, py - ay
    ll = dx * dx + dy * dy
    num = wx * dx + wy * dy
    t = num / ll if ll > 0 else 0.0
    t = min(max(t, 0.0), 1.0)
    ex, ey = wx - t * dx, wy - t * dy
    return ex * ex + ey * ey


@njit(cache=True)
def _inside(poly: Polygons, j: int, x: float, y: float) -> bool:
    """``Table.pieces_at`` for one point and piece ``j`` of the padded polygons: the bounding box,
    then even-odd ray casting."""
    qa, qb, box = poly
    if not (x >= box[j, 0] and x <= box[j, 2] and y >= box[j, 1] and y <= box[j, 3]):
        return False
    odd = False
    for e in range(qa.shape[1]):
        ax, ay, bx, by = qa[j, e, 0], qa[j, e, 1], qb[j, e, 0], qb[j, e, 1]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            odd = not odd
    return odd


@njit(cache=True)
def paths_touch(
    starts: np.ndarray,
    ends: np.ndarray,
    keep: np.ndarray,
    radius: float,
    poly: Polygons,
) -> np.ndarray:
    """``(C, k)``: whether the bases of ``radius`` moving from ``starts[c]`` to ``ends[c]`` (``(C, n,
    2)``: a group of ``n`` bases per candidate) touch piece ``j`` anywhere on the way (the pieces
    ``keep`` marks, tested only where the piece's box meets the box around the candidate's paths):
    a path comes within ``radius`` of an edge (crosses it, ends near it, or passes near a corner;
    ``_square_point_segment``, ``terrain.crossing``) or starts or ends inside
    the piece (``Table.inside``). ``blocks.blocks_touch`` and ``sweeps.sweeps_touch_pieces``."""
    out = np.zeros((ends.shape[0], poly[2].shape[0]), dtype=np.bool_)
    for c in range(ends.shape[0]):
        _touching(starts[c], ends[c], radius, poly, keep, out[c], False)
    return out


@njit(cache=True)
def _touching(
    s: np.ndarray,
    e: np.ndarray,
    radius: float,
    poly: Polygons,
    keep: np.ndarray,
    row: np.ndarray,
    first: bool,
) -> bool:
    """:func:`paths_touch` for one group of paths ``s[i]``-``e[i]``, into ``row`` (the pieces after
    the first one touched left unset when ``first``); whether one is touched."""
    box = poly[2]
    r = max(radius - TERRAIN_EPS, 0.0)
    lo_x, lo_y, hi_x, hi_y = np.inf, np.inf, -np.inf, -np.inf
    for i in range(s.shape[0]):
        lo_x, lo_y = min(lo_x, s[i, 0], e[i, 0]), min(lo_y, s[i, 1], e[i, 1])
        hi_x, hi_y = max(hi_x, s[i, 0], e[i, 0]), max(hi_y, s[i, 1], e[i, 1])
    lo_x, lo_y, hi_x, hi_y = lo_x - radius, lo_y - radius, hi_x + radius, hi_y + radius
    hit = False
    for j in range(box.shape[0]):
        if keep[j] and not (box[j, 2] < lo_x or box[j, 3] < lo_y or box[j, 0] > hi_x or box[j, 1] > hi_y):
            row[j] = False  # ``row`` may hold an earlier group's answers (block_moves)
            for i in range(s.shape[0]):
                if _path_touches(s[i, 0], s[i, 1], e[i, 0], e[i, 1], poly, j, r * r):
                    row[j] = True
                    break
            hit |= row[j]
            if hit and first:
                break
    return hit


@njit(cache=True, inline="always")
def _path_touches(sx: float, sy: float, ex: float, ey: float, poly: Polygons, j: int, r2: float) -> bool:
    """:func:`paths_touch` for the path ``(sx, sy)``-``(ex, ey)`` and piece ``j``."""
    qa, qb = poly[0], poly[1]
    for g in range(qa.shape[1]):
        ax, ay, bx, by = qa[j, g, 0], qa[j, g, 1], qb[j, g, 0], qb[j, g, 1]
        if (
            _crossing(sx, sy, ex - sx, ey - sy, ax, ay, bx - ax, by - ay)
            or _square_point_segment(sx, sy, ax, ay, bx, by) < r2
            or _square_point_segment(ex, ey, ax, ay, bx, by) < r2
            or _square_point_segment(ax, ay, sx, sy, ex, ey) < r2
        ):
            return True
    return _inside(poly, j, ex, ey) or _inside(poly, j, sx, sy)


@njit(cache=True)
def _unit_limits(
    a: np.ndarray, radius: float, units: Units, longest: float, sweeping: bool, tolerances: tuple[float, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`units_clear`'s bases to test, each one's least gap allowed at the end, whether it
    may not be passed over (none unless ``sweeping``), and each unit's :func:`_reach_box`: from the
    signed gap ``before`` of its unit to the bases ``a`` (``bases.base_distances``). With ``keep >=
    0`` only the units a move of ``longest`` can reach are tested (a move of length L changes no
    gap by more than L: those within L plus ``keep`` and 0.001), else all that ``among`` marks."""
    keep, eps, slack = tolerances[0], tolerances[1], tolerances[2]
    reach = longest + keep + 0.001 if keep >= 0 else np.inf
    pts, radii, starts, among = units
    k_count, m, n = starts.shape[0], pts.shape[0], a.shape[0]
    limit = np.full(m, -np.inf)
    sweep = np.zeros(m, dtype=np.bool_)
    test = np.zeros(m, dtype=np.bool_)
    a_box = _box(a, 0, n, _empty_box())
    for k in range(k_count):
        if not among[k]:
            continue
        stop = starts[k + 1] if k + 1 < k_count else m
        widest = radii[starts[k] : stop].max() if stop > starts[k] else 0.0
        if _box_gap(a_box, _box(pts, starts[k], stop, _empty_box())) - BOX_MARGIN - radius - widest >= reach:
            continue  # its gap is at least the reach: out of reach
        before = np.inf
        for i in range(n):
            for j in range(starts[k], stop):
                dx, dy = a[i, 0] - pts[j, 0], a[i, 1] - pts[j, 1]
                before = min(before, math.sqrt(dx * dx + dy * dy) - radius - radii[j])
        if not before < reach:
            continue
        for j in range(starts[k], stop):
            test[j] = True
            if keep >= 0:
                limit[j] = min(keep, before) - eps
            sweep[j] = before >= -slack and sweeping
    return test, limit, sweep, _reach_box(radius, units, (test, limit, sweep), slack)


@njit(cache=True)
def _block_clear(
    a: np.ndarray, b: np.ndarray, radius: float, units: Units, limits: tuple[np.ndarray, ...], slack: float
) -> bool:
    """One candidate of :func:`units_clear`: the bases moved from ``a`` to ``b`` end no closer
    than ``limit[j]`` to a tested base ``j`` (signed base-to-base gaps) and pass over none that
    ``sweep`` marks (``sweeps.sweeps_meet_bases``); ``limits``: :func:`_unit_limits`. A unit whose
    :func:`_reach_box` the block's ends (or paths) stay clear of is not tested base by base."""
    pts, radii, starts = units[0], units[1], units[2]
    test, limit, sweep, boxes = limits
    n, m, k_count = a.shape[0], pts.shape[0], starts.shape[0]
    near = _box(b, 0, n, _empty_box())
    for k in range(k_count):
        if _box_gap(boxes[k], near) - BOX_MARGIN - radius >= boxes[k, 4]:
            continue
        for i in range(n):
            for j in range(starts[k], starts[k + 1] if k + 1 < k_count else m):
                if test[j]:
                    dx, dy = b[i, 0] - pts[j, 0], b[i, 1] - pts[j, 1]
                    if math.sqrt(dx * dx + dy * dy) - radius - radii[j] < limit[j]:
                        return False
    near = _box(a, 0, n, near)  # the paths' box: the ends' and the starts'
    for k in range(k_count):
        if _box_gap(boxes[k], near) - BOX_MARGIN >= boxes[k, 5]:
            continue
        for i in range(n):
            sx, sy, ex, ey = a[i, 0], a[i, 1], b[i, 0], b[i, 1]
            for j in range(starts[k], starts[k + 1] if k + 1 < k_count else m):
                if sweep[j]:
                    reach = max(radius + radii[j] - slack, 0.0)
                    if _square_point_segment(pts[j, 0], pts[j, 1], sx, sy, ex, ey) < reach * reach:
                        return False
    return True


@njit(cache=True)
def units_clear(
    a: np.ndarray, bs: np.ndarray, radius: float, units: Units, sweeping: bool, tolerances: tuple[float, ...]
) -> np.ndarray:
    """``(C,)``: the block of bases of ``radius`` moved straight from ``a`` to ``bs[c]`` keeps clear
    of the units ``among`` marks (``units``: centres ``pts``, radii, the start of each unit's
    bases among them, ``among``; ``tolerances``: ``keep``, ``eps``, ``slack``): with ``keep >= 0``,
    it ends no closer than ``keep`` to a unit, nor closer than it already was to one nearer
    (signed gaps: bases in contact may not move onto each other, less ``eps``), testing only the
    units a move of its length can reach (within its length plus ``keep`` and 0.001); and
    (``sweeping``) no base passes over a base of a unit it did not start over (within ``slack``)
    on the way. ``moving.kept_clear`` and ``moving.swept_clear`` in one pass."""
    slack = tolerances[2]
    c_count = bs.shape[0]
    out = np.ones(c_count, dtype=np.bool_)
    if c_count == 0 or a.shape[0] == 0:
        return out
    longest = 0.0
    for c in range(c_count):
        dx, dy = bs[c, 0, 0] - a[0, 0], bs[c, 0, 1] - a[0, 1]
        longest = max(longest, math.sqrt(dx * dx + dy * dy))
    limits = _unit_limits(a, radius, units, longest, sweeping, tolerances)
    for c in range(c_count):
        out[c] = _block_clear(a, bs[c], radius, units, limits, slack)
    return out


@njit(cache=True)
def block_moves(
    a: np.ndarray,
    base: np.ndarray,
    anchor: tuple[float, float],
    ux: np.ndarray,
    uy: np.ndarray,
    steps: np.ndarray,
    radius: float,
    size: tuple[float, float],
    terrain: tuple[Polygons, np.ndarray, np.ndarray],
    slow: float,
    others: Units,
    sweeping: bool,
    tolerances: tuple[float, float, float, float],
) -> np.ndarray:
    """``(W, F)``: for each direction ``w``, the first of its steps ``f`` (longest first) by which the
    block of bases of ``radius`` (``a``: where they stand, ``base``: their offsets from the
    ``anchor``) may move to ``anchor + steps[w, f] * (ux[w], uy[w])``, marked True (the shorter
    steps are not tested and stay False; a direction without a legal step has none): a step of
    0.5" at least, every base on the table (``size``: width, depth; ``Table.spans_on_table``), not
    into or through a piece ``terrain`` marks impassable, nor through one it marks difficult when the
    step is longer than ``slow`` (``terrain``: :data:`Polygons`, the impassable and difficult
    masks; both masks empty for Flying), then clear of the other units (``others``: centres, radii,
    block starts, the units to keep clear of; :func:`units_clear` with ``keep`` and ``sweeping``:
    False for Flying). ``tolerances``:
    the table's, the game's, the contact slack and the distance kept. ``moving.lanes`` and
    ``moving.kept_clear`` in one pass. The units tested are those a move of the longest step can
    reach (``units_clear``'s limits, taken once for all steps)."""
    poly, impassable, difficult = terrain
    slow_keep, row = impassable | difficult, np.zeros(impassable.shape[0], dtype=np.bool_)
    table_eps, eps, slack, keep = tolerances
    w_count, f_count, n = steps.shape[0], steps.shape[1], a.shape[0]
    good = np.zeros((w_count, f_count), dtype=np.bool_)
    one = np.empty((1, n, 2))
    longest = 0.0  # the longest move of any step that may be tested (_unit_limits)
    for w in range(w_count):
        for f in range(f_count):
            step = steps[w, f]
            if n and step >= 0.5:
                dx = base[0, 0] + (anchor[0] + ux[w] * step) - a[0, 0]
                dy = base[0, 1] + (anchor[1] + uy[w] * step) - a[0, 1]
                longest = max(longest, math.sqrt(dx * dx + dy * dy))
    limits = _unit_limits(a, radius, others, longest, sweeping, (keep, eps, slack))
    for w in range(w_count):
        for f in range(f_count):
            step = steps[w, f]
            if not step >= 0.5:
                continue
            ex, ey = anchor[0] + ux[w] * step, anchor[1] + uy[w] * step
            lo_x, lo_y, hi_x, hi_y = np.inf, np.inf, -np.inf, -np.inf
            for i in range(n):
                one[0, i, 0], one[0, i, 1] = base[i, 0] + ex, base[i, 1] + ey
                lo_x, lo_y = min(lo_x, one[0, i, 0]), min(lo_y, one[0, i, 1])
                hi_x, hi_y = max(hi_x, one[0, i, 0]), max(hi_y, one[0, i, 1])
            if not (
                lo_x - radius >= -table_eps
                and lo_y - radius >= -table_eps
                and hi_x + radius <= size[0] + table_eps
                and hi_y + radius <= size[1] + table_eps
            ):
                continue
            if _touching(a, one[0], radius, poly, slow_keep if step > slow + eps else impassable, row, True):
                continue
            if _block_clear(a, one[0], radius, others, limits, slack):
                good[w, f] = True
                break
    return good


@njit(cache=True)
def _line_blocked(
    px: float,
    py: float,
    ex: float,
    ey: float,
    sight: Sight,
) -> bool:
    """:func:`lines_blocked` for one line from ``(px, py)`` to ``(ex, ey)``."""
    edges, first, pieces, qa, qb, box = sight
    runs, total = first.shape[0], edges.shape[0]
    rx, ry = ex - px, ey - py
    for g in range(runs):
        stop = first[g + 1] if g + 1 < runs else total
        hits = 0
        for k in range(first[g], stop):
            qx, qy = edges[k, 0, 0], edges[k, 0, 1]
            if _crossing(px, py, rx, ry, qx, qy, edges[k, 1, 0] - qx, edges[k, 1, 1] - qy):
                hits += 1
        if hits == 0:
            continue
        j = pieces[g]
        if hits >= 2 or not (_inside((qa, qb, box), j, px, py) or _inside((qa, qb, box), j, ex, ey)):
            return True
    return False


@njit(cache=True)
def lines_blocked(s: np.ndarray, e: np.ndarray, sight: Sight) -> np.ndarray:
    """``lines.sight_blocked``: ``(n,)``, whether line ``i`` crosses the edges of a piece that
    blocks sight (``sight``'s edges, each piece's a run) once, or twice when it starts or ends
    inside that piece."""
    out = np.zeros(s.shape[0], dtype=np.bool_)
    for i in range(s.shape[0]):
        out[i] = _line_blocked(s[i, 0], s[i, 1], e[i, 0], e[i, 1], sight)
    return out


@njit(cache=True, inline="always")
def _screened(
    ax: float, ay: float, ex: float, ey: float, pts: np.ndarray, radii: np.ndarray, eps: float
) -> bool:
    """Whether the segment from ``(ax, ay)`` to ``(ex, ey)`` comes closer to some base's centre
    ``pts[j]`` than its radius (less ``eps``)."""
    vx, vy = ex - ax, ey - ay
    vv = vx * vx + vy * vy
    for j in range(pts.shape[0]):
        wx, wy = pts[j, 0] - ax, pts[j, 1] - ay
        f = (wx * vx + wy * vy) / vv if vv > eps * eps else 0.0
        f = min(max(f, 0.0), 1.0)
        if np.hypot(wx - f * vx, wy - f * vy) < radii[j] - eps:
            return True
    return False


@njit(cache=True)
def pair_lines(a: np.ndarray, ra: float, b: np.ndarray, rb: np.ndarray, rim: float) -> np.ndarray:
    """``sweeps.pair_lines``: ``(P, 9, 4)``, each pair's nine lines (start x, y, end x, y), the
    centre line first, from the centre and the side points ``rim`` of the radius out square to the
    line of centres."""
    p_count = a.shape[0]
    out = np.empty((p_count, 9, 4))
    offs = (0.0, rim, -rim)
    for p in range(p_count):
        vx, vy = b[p, 0] - a[p, 0], b[p, 1] - a[p, 1]
        n = math.sqrt(vx * vx + vy * vy)
        ux, uy = (vx / n, vy / n) if n > 0 else (0.0, 0.0)
        sx, sy = -uy, ux
        for k in range(3):
            for m in range(3):
                line = 3 * k + m
                out[p, line, 0] = a[p, 0] + offs[k] * sx * ra
                out[p, line, 1] = a[p, 1] + offs[k] * sy * ra
                out[p, line, 2] = b[p, 0] + offs[m] * sx * rb[p]
                out[p, line, 3] = b[p, 1] + offs[m] * sy * rb[p]
    return out


@njit(cache=True)
def pairs_see(
    a: np.ndarray,
    ra: float,
    b: np.ndarray,
    rb: np.ndarray,
    rim: float,
    sight: Sight,
    screens: tuple[np.ndarray, np.ndarray, np.ndarray],
    own: int,
    target: int,
    eps: float,
) -> np.ndarray:
    """``sweeps.pairs_see`` with the bases ``pts``/``radii`` screening (``screening.open_lines``):
    ``(P,)``, whether base ``a[p]`` sees base ``b[p]`` along the centre line or one of the other
    eight of :func:`pair_lines`, crossing no sight-blocking terrain (:func:`lines_blocked`) nor a
    screening base (a line that comes closer to its centre than its radius, less ``eps``: one that
    grazes it is open). The screening bases are those of ``screens``
    (centres, radii, owning units) whose owner is neither ``own`` nor ``target``
    (every unit's but the two); only those that reach into the box around all the lines are tested
    (``screening.between``: a base outside it cannot screen a line, so the answers do not depend on
    the box)."""
    p_count = a.shape[0]
    ok = np.zeros(p_count, dtype=np.bool_)
    if p_count == 0:
        return ok
    pts, radii, owner = screens
    lines = pair_lines(a, ra, b, rb, rim)
    lo_x, lo_y, hi_x, hi_y = np.inf, np.inf, -np.inf, -np.inf
    for p in range(p_count):
        for line in range(9):
            lo_x = min(lo_x, lines[p, line, 0], lines[p, line, 2])
            lo_y = min(lo_y, lines[p, line, 1], lines[p, line, 3])
            hi_x = max(hi_x, lines[p, line, 0], lines[p, line, 2])
            hi_y = max(hi_y, lines[p, line, 1], lines[p, line, 3])
    near = np.zeros(pts.shape[0], dtype=np.bool_)
    for j in range(pts.shape[0]):
        r = radii[j]
        near[j] = (
            owner[j] != own
            and owner[j] != target
            and pts[j, 0] > lo_x - r
            and pts[j, 0] < hi_x + r
            and pts[j, 1] > lo_y - r
            and pts[j, 1] < hi_y + r
        )
    spts, sradii = pts[near], radii[near]
    for p in range(p_count):
        if not _screened(a[p, 0], a[p, 1], b[p, 0], b[p, 1], spts, sradii, eps) and not _line_blocked(
            a[p, 0], a[p, 1], b[p, 0], b[p, 1], sight
        ):
            ok[p] = True
            continue
        for line in range(1, 9):
            sx, sy, ex, ey = lines[p, line, 0], lines[p, line, 1], lines[p, line, 2], lines[p, line, 3]
            if not _screened(sx, sy, ex, ey, spts, sradii, eps) and not _line_blocked(sx, sy, ex, ey, sight):
                ok[p] = True
                break
    return ok


@njit(cache=True)
def lines_covered(s: np.ndarray, e: np.ndarray, keep: np.ndarray, poly: Polygons) -> np.ndarray:
    """``sweeps.cover_lines``: ``(n,)``, whether ``e[i]`` stands inside a piece ``keep`` marks, or the
    line ``s[i]``-``e[i]`` properly crosses an edge of a marked piece ``s[i]`` is not inside."""
    qa, qb = poly[0], poly[1]
    out = np.zeros(s.shape[0], dtype=np.bool_)
    for i in range(s.shape[0]):
        sx, sy, ex, ey = s[i, 0], s[i, 1], e[i, 0], e[i, 1]
        hit = False
        for j in range(qa.shape[0]):
            if keep[j] and not hit:
                hit = _inside(poly, j, ex, ey)
        for j in range(qa.shape[0]):
            for g in range(qa.shape[1] if keep[j] and not hit else 0):
                ax, ay, bx, by = qa[j, g, 0], qa[j, g, 1], qb[j, g, 0], qb[j, g, 1]
                if _crossing(sx, sy, ex - sx, ey - sy, ax, ay, bx - ax, by - ay):
                    hit = not _inside(poly, j, sx, sy)
                    break
        out[i] = hit
    return out


__all__ = [
    "block_moves",
    "lines_blocked",
    "lines_covered",
    "pair_lines",
    "pairs_see",
    "paths_touch",
    "units_clear",
]
