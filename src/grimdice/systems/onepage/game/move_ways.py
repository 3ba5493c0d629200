"""The directions a unit's candidate Walk or Run moves are tried along (``moving.moves``): the
compass, towards each enemy unit (stopping over 1" away) and into each cover piece in reach; a large
unit tries more of them and finer lengths."""

from __future__ import annotations

import math

import numpy as np

DIRECTIONS = tuple((math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8))
FRACTIONS = np.array([1.0, 0.5, 0.25])  # each direction's lengths tried, longest first
# A large unit's block is wide: a straight move must pass whole between terrain pieces, so it tries
# twice the compass directions, turns off the line to the nearest enemy unit, and finer lengths.
LARGE = 10  # models: a unit this large or larger is a large unit
LARGE_DIRECTIONS = tuple((math.cos(k * math.pi / 8), math.sin(k * math.pi / 8)) for k in range(16))
LARGE_TURNS = tuple(math.radians(a) for a in (-60.0, -30.0, 30.0, 60.0))  # off the nearest enemy's line
LARGE_FRACTIONS = np.array([1.0, 0.75, 0.5, 0.25])
COMPASS = ([x for x, _ in DIRECTIONS], [y for _, y in DIRECTIONS])  # the directions' x and y apart
LARGE_COMPASS = ([x for x, _ in LARGE_DIRECTIONS], [y for _, y in LARGE_DIRECTIONS])

Way = tuple[float, float, float]  # a unit vector and a length


def ways(
    fulls: tuple[float, ...], large: bool, towards: list[Way], covers: list[Way]
) -> tuple[list[float], list[float], list[float], list[int]]:
    """Every allowance's directions, one allowance after another, as flat lists (``ux``, ``uy``,
    ``length``; each allowance's count in ``sizes``): the compass at the allowance; ``towards`` each
    enemy unit (its gap less the 1" kept, as the length's cap) and, for a ``large`` unit,
    :func:`around_nearest`; each of ``covers`` (its distance) within the allowance."""
    compass_x, compass_y = LARGE_COMPASS if large else COMPASS
    aimed = towards + around_nearest(towards) if large else towards
    ux: list[float] = []
    uy: list[float] = []
    length: list[float] = []
    sizes: list[int] = []
    for full in fulls:
        ux += compass_x
        uy += compass_y
        length += [full] * len(compass_x)
        for x, y, g in aimed:
            ux.append(x)
            uy.append(y)
            length.append(min(full, g))
        for x, y, d in covers:
            if d <= full:
                ux.append(x)
                uy.append(y)
                length.append(d)
        sizes.append(len(ux) - sum(sizes))
    return ux, uy, length, sizes


def around_nearest(towards: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """The directions :data:`LARGE_TURNS` off the line to the nearest enemy unit (of ``towards``:
    unit vector and gap less the 1" kept clear, the gap kept as the length's cap): a large unit's
    ways around a piece of terrain between it and the enemy (none when there is no enemy)."""
    if not towards:
        return []
    ux, uy, g = min(towards, key=lambda t: t[2])
    return [
        (ux * math.cos(a) - uy * math.sin(a), ux * math.sin(a) + uy * math.cos(a), g) for a in LARGE_TURNS
    ]


__all__ = [
    "DIRECTIONS",
    "FRACTIONS",
    "LARGE",
    "LARGE_DIRECTIONS",
    "LARGE_FRACTIONS",
    "LARGE_TURNS",
    "around_nearest",
    "ways",
]
