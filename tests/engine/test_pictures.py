"""The layout shared by every game's round pictures (:mod:`grimdice.engine.pictures`): titles
wrapped at spaces, the legend's entries drawn as given, the key's sides, and labels kept apart."""

from __future__ import annotations

import pytest

from grimdice.engine.pictures import (
    board_axes,
    draw_key,
    draw_legend,
    line,
    numbered_key,
    overlaps,
    patch,
    place_labels,
    shorten,
    wrap_title,
)


def test_a_title_is_broken_at_spaces_into_lines_that_fit_and_keeps_its_own_breaks():
    title = "The long march of the seventh company across the ash wastes of Armageddon\nround 3"
    wrapped = wrap_title(title, 3.0, 10)  # 3 inches at 10 pt: 36 characters a line
    lines = wrapped.splitlines()
    assert wrapped.split() == title.split()
    assert all(len(text) <= 36 for text in lines) and len(lines) == 4
    assert lines[-1] == "round 3"
    assert wrap_title("short", 10.0, 10) == "short"


def test_a_name_longer_than_the_key_holds_is_cut_to_end_in_dots():
    assert shorten("Sergeant Brutus", 15) == "Sergeant Brutus"
    cut = shorten("Sergeant Brutus of the Fists", 15)
    assert cut == "Sergeant Bru..." and len(cut) == 15


def test_the_board_axes_leave_the_margins_for_the_tick_labels():
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    fig, ax = board_axes(4.0, 2.0)
    try:
        assert tuple(fig.get_size_inches()) == (4.5, 2.5) and fig.axes == [ax]
        x0, y0, w, h = ax.get_position().bounds
        assert (x0 * 4.5, y0 * 2.5, w * 4.5, h * 2.5) == pytest.approx((0.4, 0.3, 4.0, 2.0))
    finally:
        plt.close(fig)


def test_the_key_lists_each_sides_heading_then_its_entries():
    key = numbered_key([("Blues", [" 0  Boyz", " 1  Gun"]), ("Reds", [])])
    assert key == [("Blues", 0, True), (" 0  Boyz", 0, False), (" 1  Gun", 0, False), ("Reds", 1, True)]


def test_overlapping_boxes_are_found_in_pairs_and_touching_ones_are_not():
    boxes = [(0.0, 0.0, 2.0, 1.0), (1.0, 0.5, 3.0, 2.0), (2.0, 0.0, 3.0, 0.6), (5.0, 5.0, 6.0, 6.0)]
    assert overlaps(boxes) == [(1, 0), (2, 1)]  # box 2 only touches box 0's right edge


def test_labels_wanted_on_one_spot_are_put_apart_and_clear_of_the_boxes_taken():
    taken = [(4.0, 4.0, 6.0, 5.0)]
    wanted = [(5.0, 4.5), (5.0, 4.5), (5.0, 4.5), (20.0, 20.0)]
    sizes = [(2.0, 1.0)] * 4
    spots = place_labels(wanted, sizes, taken, bounds=(0.0, 0.0, 30.0, 30.0))
    boxes = [(x - 1, y - 0.5, x + 1, y + 0.5) for x, y in spots]
    assert overlaps(taken + boxes) == []
    assert spots[3] == (20.0, 20.0)  # a free label stays where it is wanted
    assert all(abs(x - 5) <= 4 and abs(y - 4.5) <= 4 for x, y in spots[:3])  # the others near it


def test_a_label_is_kept_inside_the_bounds():
    ((x, y),) = place_labels([(0.2, 0.2)], [(2.0, 1.0)], bounds=(0.0, 0.0, 10.0, 10.0))
    assert x - 1 >= 0 and y - 0.5 >= 0


def test_the_legend_and_the_key_draw_their_entries_as_given():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 3))
    entries = [patch("cover", "cover", fc="green"), line("moved", "move", c="grey")]
    shown = draw_legend(ax, entries, 4.0, 3.0, 8)
    assert [t.get_text() for t in shown.get_texts()] == ["cover", "moved"]
    assert draw_legend(ax, [], 4.0, 3.0, 8) is None
    key = draw_key(
        ax, numbered_key([("Blues", [" 0  Boyz"]), ("Reds", [" 1  Gun"])]), ("blue", "red"), 3.0, 8, "Units"
    )
    texts = key.get_texts()
    assert [t.get_text() for t in texts] == ["Blues", " 0  Boyz", "Reds", " 1  Gun"]
    assert [t.get_color() for t in texts] == ["blue", "blue", "red", "red"]
    assert [t.get_fontweight() for t in texts][::2] == ["bold", "bold"]
    assert key in ax.artists
    plt.close(fig)
