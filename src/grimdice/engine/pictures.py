"""What a game's round picture explains beside its board, laid out the same way for every game
(matplotlib, the ``plot`` extra, is imported only inside the functions that draw):

- the title broken at word boundaries to the picture's width (:func:`wrap_title`);
- the legend: one entry per kind of mark in the picture, each a (kind, words, style) :data:`Mark`
  made by :func:`patch` or :func:`line`, drawn below the board in as many columns as its width
  holds (:func:`draw_legend`);
- the key of numbered entries, side by side: each side's heading then its entries' lines
  (:func:`numbered_key`), drawn to the right of the board in the sides' colours
  (:func:`draw_key`);
- labels kept apart: each label put at the first free spot near where it belongs
  (:func:`place_labels`), and the pairs of boxes that overlap (:func:`overlaps`), the measure a
  picture's labels are checked with.

It also holds what every game's picture shares: the sides' colours (:data:`SIDE_COLOURS`), a
name cut to the key's width (:func:`shorten`), and the figure with its board's axes
(:func:`board_axes`). A game's own drawing module decides what goes in each (its rules' marks
and words); this module only lays them out.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from math import ceil
from typing import Any

from grimdice.errors import printable

#: one legend entry: its kind, its words, and how its sample is drawn (``patch``: a swatch's
#: :class:`~matplotlib.patches.Patch` keywords; ``line``: a :class:`~matplotlib.lines.Line2D`'s)
Mark = tuple[str, str, dict[str, Any]]
#: one line of a key: its text, its side, and whether it is a side's heading
KeyLine = tuple[str, int, bool]
#: a box as (x0, y0, x1, y1)
Box = tuple[float, float, float, float]
#: each side's colour, the first player's then the second's: its pieces, key lines and marks
SIDE_COLOURS = ("tab:blue", "tab:red")


def patch(label: str, kind: str, **style: Any) -> Mark:
    """A legend entry drawn as a swatch with ``style``'s Patch keywords."""
    return (kind, label, {"patch": style})


def line(label: str, kind: str, **style: Any) -> Mark:
    """A legend entry drawn as a line or marker with ``style``'s Line2D keywords."""
    return (kind, label, {"line": style})


def shorten(name: str, n: int) -> str:
    """``name`` as a key shows it: at most ``n`` characters, a longer one cut to end in ``...``."""
    return name if len(name) <= n else name[: n - 3] + "..."


def board_axes(w: float, h: float) -> tuple[Any, Any]:
    """A figure and its board's axes for a board ``w`` by ``h`` inches: the board with 0.4 inch
    to its left and 0.3 inch below for the tick labels (the key and legend drawn outside it)."""
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(w + 0.5, h + 0.5))
    ax = fig.add_axes((0.4 / (w + 0.5), 0.3 / (h + 0.5), w / (w + 0.5), h / (h + 0.5)))
    return fig, ax


def wrap_title(title: str, width_in: float, fontsize: float) -> str:
    """``title`` broken at spaces into lines that fit ``width_in`` inches at ``fontsize`` points
    (an average character taken as 0.6 of the font size wide); a word longer than a line is cut
    only when it alone is wider than the picture."""
    chars = max(20, int(width_in * 72 / (fontsize * 0.6)))
    return "\n".join(
        textwrap.fill(printable(text), chars, break_on_hyphens=False) for text in title.splitlines()
    )


def numbered_key(sides: Sequence[tuple[str, Sequence[str]]]) -> list[KeyLine]:
    """The key's lines side by side: each side's heading (its name), then its entries' lines."""
    out: list[KeyLine] = []
    for side, (name, entries) in enumerate(sides):
        out.append((printable(name), side, True))
        out += [(text, side, False) for text in entries]
    return out


def draw_key(
    ax: Any,
    lines: Sequence[KeyLine],
    colours: Sequence[str],
    height_in: float,
    fontsize: float,
    title: str,
) -> Any:
    """The key to the right of the board ``ax`` (``height_in`` inches high): each side's heading in
    bold with a disc of its colour, its entries' lines in a fixed-width font and its colour, in as
    many columns as the board's height needs. Returns the key (kept on ``ax`` as an artist)."""
    from matplotlib.lines import Line2D

    rows = max(6, int(height_in * 72 / (fontsize * 1.9)))
    handles = [
        Line2D([], [], ls="", marker="o", color=colours[side], ms=9 if head else 0) for _, side, head in lines
    ]
    key = ax.legend(
        handles,
        [text for text, _, _ in lines],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        ncol=max(1, ceil(len(lines) / rows)),
        fontsize=fontsize,
        title=title,
        title_fontsize=fontsize + 1,
        handlelength=0.8,
        handletextpad=0.4,
        frameon=False,
    )
    for label, (_, side, head) in zip(key.get_texts(), lines, strict=True):
        label.set_color(colours[side])
        label.set_fontfamily("monospace" if not head else "sans-serif")
        if head:
            label.set_fontweight("bold")
    ax.add_artist(key)  # kept when the legend below is made, and not clipped to the board
    key.set_clip_on(False)
    return key


def legend_handles(entries: Sequence[Mark]) -> list[Any]:
    """The matplotlib samples of the legend's ``entries``."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    return [
        Patch(**st["patch"]) if "patch" in st else Line2D([0, 1], [0, 0], **st["line"])
        for _, _, st in entries
    ]


def draw_legend(ax: Any, entries: Sequence[Mark], width_in: float, height_in: float, fontsize: float) -> Any:
    """The legend below the board ``ax`` (``width_in`` by ``height_in`` inches): one entry per
    :data:`Mark`, in as many columns of the widest entry's width as ``width_in`` holds."""
    if not entries:
        return None
    widest = max(len(words) for _, words, _ in entries) * fontsize * 0.55 / 72 + 0.6
    return ax.legend(
        legend_handles(entries),
        [words for _, words, _ in entries],
        loc="upper left",
        bbox_to_anchor=(0.0, -0.45 / height_in),
        ncol=max(1, int(width_in / widest)),
        fontsize=fontsize,
        title="Legend",
        title_fontsize=fontsize + 1,
        frameon=False,
        alignment="left",
    )


def _clash(p: Box, q: Box) -> bool:
    return min(p[2], q[2]) > max(p[0], q[0]) and min(p[3], q[3]) > max(p[1], q[1])


def overlaps(boxes: Sequence[Any]) -> list[tuple[int, int]]:
    """The pairs (i, j), j < i, of ``boxes`` that overlap: each box an (x0, y0, x1, y1) tuple or
    an object with those attributes (matplotlib's ``Bbox``, from a text's window extent)."""
    flat = [b if isinstance(b, tuple) else (b.x0, b.y0, b.x1, b.y1) for b in boxes]
    return [(i, j) for i, p in enumerate(flat) for j, q in enumerate(flat[:i]) if _clash(p, q)]


def _around(step: float, rings: int) -> list[tuple[float, float]]:
    """Offsets from a label's own spot, nearest first: rings of eight directions ``step`` apart."""
    out = [(0.0, 0.0)]
    for k in range(1, rings + 1):
        d = k * step
        out += [(0, d), (0, -d), (d, 0), (-d, 0), (d, d), (-d, d), (d, -d), (-d, -d)]
    return out


def place_labels(
    wanted: Sequence[tuple[float, float]],
    sizes: Sequence[tuple[float, float]],
    taken: Sequence[Box] = (),
    bounds: Box | None = None,
) -> list[tuple[float, float]]:
    """A centre for each label, in order: its ``wanted`` spot if its box (``sizes``: width and
    height, in the same units) overlaps no box already taken (``taken``, then the labels placed
    before it) and lies inside ``bounds``, else the nearest such spot around it; a label with no
    free spot near it keeps its own."""
    boxes = list(taken)
    out = []
    for (x, y), (w, h) in zip(wanted, sizes, strict=True):
        spot = (x, y)
        for dx, dy in _around(max(w, h) / 2, 8):
            b = (x + dx - w / 2, y + dy - h / 2, x + dx + w / 2, y + dy + h / 2)
            inside = bounds is None or (
                b[0] >= bounds[0] and b[1] >= bounds[1] and b[2] <= bounds[2] and b[3] <= bounds[3]
            )
            if inside and not any(_clash(b, q) for q in boxes):
                spot = (x + dx, y + dy)
                break
        w2, h2 = w / 2, h / 2
        boxes.append((spot[0] - w2, spot[1] - h2, spot[0] + w2, spot[1] + h2))
        out.append(spot)
    return out


__all__ = [
    "SIDE_COLOURS",
    "Box",
    "KeyLine",
    "Mark",
    "board_axes",
    "draw_key",
    "draw_legend",
    "legend_handles",
    "line",
    "numbered_key",
    "overlaps",
    "patch",
    "place_labels",
    "shorten",
    "wrap_title",
]
