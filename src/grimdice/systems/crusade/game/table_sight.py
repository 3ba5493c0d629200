"""Sight on a Rules Crusade table (II, VI): lines from a model's eyes to another model's feet,
middle and head, worked out in batches by the compiled lattice walk
(:func:`grimdice.engine.table.lattice_kernel.clear_lines`). "Place models inside buildings on top
of the roof for LOS purposes" is the board's ``eye_level``; "You may not fire between sectors":
no sight between two sectors."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.table_parts import answers

if TYPE_CHECKING:
    from grimdice.systems.crusade.game.table import TableBoard

HEAD = 1.5  # reading head_height: a model's eyes and head are 1.5" above its feet
SAMPLES = (0.1, 0.5, 1.0)  # the target's body seen at its feet, middle and head (share of HEAD)
ALL_SEEN = (1 << len(SAMPLES)) - 1  # every sample seen: no cover
LINES_AT_ONCE = 200_000  # lines of sight worked out together (memory: some tens of bytes a line)


def ends_of(board: TableBoard, tos: list[Pos]) -> list[Any]:
    """``tos``, the points of :data:`SAMPLES` of a model at each (sample by sample), their sectors."""
    eyes = [board.eye_level(b) for b in tos]
    points = [(b[0] + 0.5, b[1] + 0.5, e + f * HEAD) for f in SAMPLES for b, e in zip(tos, eyes, strict=True)]
    return [tos, np.array(points, float), [board.indoors(b) for b in tos]]


def seen_table(
    board: TableBoard, froms: list[Pos], tos: list[Pos], ends: np.ndarray, inside: list[int]
) -> dict[Pos, dict[Pos, int]]:
    """Which of :data:`SAMPLES` of a model at each of ``tos`` a model at each of ``froms`` sees, as
    bits (bit k: sample k seen; ``ends``, ``inside``: :func:`ends_of`); none between two sectors."""
    clear_lines = (_KERNEL or _kernel())[1]
    eyes = np.array([(a[0] + 0.5, a[1] + 0.5, board.eye_level(a) + HEAD) for a in froms], float)
    weights = (1 << np.arange(len(SAMPLES)))[:, None]
    sectors = np.array(inside, int)
    outdoors = sectors == -1
    out: dict[Pos, dict[Pos, int]] = {}
    batch = max(1, LINES_AT_ONCE // len(ends))
    for k in range(0, len(froms), batch):
        n = len(froms[k : k + batch])
        starts = np.repeat(eyes[k : k + n], len(ends), axis=0)
        clear = clear_lines(starts, np.tile(ends, (n, 1)), board.lattice.top)
        bits = (clear.reshape(n, len(SAMPLES), len(tos)) * weights).sum(axis=1)
        for a, row in zip(froms[k : k + n], bits, strict=True):
            here = board.indoors(a)
            if here >= 0:  # inside a sector: none seen in another sector
                row = np.where(outdoors | (sectors == here), row, 0)
            out[a] = dict(zip(tos, row.tolist(), strict=True))
    return out


def seen_pair(board: TableBoard, a: Pos, b: Pos) -> int:
    """:func:`seen_table`'s bits for one pair (the same points, lines and sectors), kept in the
    board's ``memo``: a collapse's table, whose rows are asked of few targets each, and a start
    that is not a position work out only the pairs asked."""
    kept = answers(board.memo, "sight")
    got = kept.get((a, b))
    if got is None:
        here, there = board.indoors(a), board.indoors(b)
        if here >= 0 and there not in (-1, here):
            got = 0  # inside a sector: none seen in another sector
        else:
            clear_bits = (_KERNEL or _kernel())[0]
            e = board.eye_level(b)
            z0, z1, z2 = [e + f * HEAD for f in SAMPLES]
            x, y = b[0] + 0.5, b[1] + 0.5
            eye = board.eye_level(a) + HEAD
            got = clear_bits(board.lattice.top, a[0] + 0.5, a[1] + 0.5, eye, x, y, z0, z1, z2)
        kept[a, b] = got
    return got


#: the compiled walk's :func:`~grimdice.engine.table.lattice_kernel.clear_bits` and
#: :func:`~grimdice.engine.table.lattice_kernel.clear_lines`, fetched at the first sight asked (its
#: module loads Numba) and kept: an import statement at every pair costs more than a kept pair's
#: look-up
_KERNEL: list[Any] = []


def _kernel() -> list[Any]:
    from grimdice.engine.table.lattice_kernel import clear_bits, clear_lines

    _KERNEL[:] = [clear_bits, clear_lines]
    return _KERNEL


__all__ = ["ALL_SEEN", "HEAD", "LINES_AT_ONCE", "SAMPLES", "ends_of", "seen_pair", "seen_table"]
