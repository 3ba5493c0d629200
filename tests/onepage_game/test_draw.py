"""The round pictures of ``grimdice replay --png`` for One Page 40k
(:mod:`grimdice.systems.onepage.game.draw`) read without the docs: a legend with one entry for each
kind of mark in the picture and only those (the armies, each kind of terrain piece by its traits:
"Impassable Terrain", "Cover Terrain", "Difficult Terrain", "Dangerous Terrain", line of sight
blocked, elevation; pinned units, Vehicles' fronts, the round's arrows), every unit once in a key
beside the table by the number on its bases, the title (armies, round, score) wrapped at spaces, and
no two labels on the table overlapping."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from grimdice.engine.pictures import overlaps
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.draw_key import arrows, fallen, legend, title, unit_key, unit_line

BOYZ = {"name": "Boyz", "quality": 5, "size": 10, "equipment": ["Pistol"], "cost": 50}
GUN = {"name": "Gun", "quality": 2, "equipment": ["Pistol"], "cost": 10}
BOSS = {"name": "Boss", "quality": 3, "equipment": ["Pistol"], "special_rules": ["Tough(3)"], "cost": 40}
TANK = {"name": "Tank", "quality": 4, "equipment": ["Pistol"], "special_rules": ["Vehicle", "Tough(6)"]}


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def piece(name: str, x: float, y: float, traits: tuple[str, ...] = (), height: float = 0.0) -> Terrain:
    corners = np.array([[x, y], [x + 4, y], [x + 4, y + 4], [x, y + 4]], dtype=float)
    return Terrain(name, corners, frozenset(traits), height)


def game(a: tuple[dict, ...], b: tuple[dict, ...], terrain: tuple[Terrain, ...] = ()) -> GameState:
    armies = (army_from_mapping(army("Blues", *a), "a"), army_from_mapping(army("Reds", *b), "b"))
    return deploy(Setup(armies, Table(72.0, 48.0, terrain)), 0, 0)


FOREST = piece("forest 1", 10, 20, ("cover", "difficult"))
ROCKS = piece("rocks 2", 30, 20, ("impassable", "blocks_sight"))
HILL = piece("hill 3", 50, 20, height=3.0)


def _kinds(s: GameState, marks: Any = (), gone: Any = ()) -> list[str]:
    return [kind for kind, _, _ in legend(s, marks, gone)]


def test_the_legend_lists_the_armies_each_kind_of_terrain_on_the_table_and_the_units_numbers():
    s = game((BOYZ,), (GUN,), (FOREST, ROCKS, HILL))
    terrain = ["terrain impassable+blocks_sight", "terrain cover+difficult", "terrain open raised"]
    assert _kinds(s) == ["army", "army", *terrain, "number"]
    words = {kind: w for kind, w, _ in legend(s)}
    assert words["terrain cover+difficult"] == (
        "forest: cover: Armored against shooting; difficult: no further than a Walk"
    )
    assert words["terrain open raised"] == "hill: raised, its height on it: a unit above another is elevated"
    bare = game((BOYZ,), (GUN,), (piece("minefield 1", 10, 20, ("dangerous",)),))
    assert _kinds(bare) == ["army", "army", "terrain dangerous", "number"]


def test_pinned_units_and_vehicles_fronts_are_in_the_legend_only_when_on_the_table():
    s = game((BOYZ,), (TANK,))
    assert _kinds(s) == ["army", "army", "number", "front"]
    pinned = replace(s, units=(replace(s.units[0], pinned=True), s.units[1]))
    assert _kinds(pinned) == ["army", "army", "number", "pinned", "front"]
    gone = replace(pinned, units=(pinned.units[0], replace(s.units[1], alive=(0,))))
    assert _kinds(gone) == ["army", "army", "number", "pinned"]  # the tank destroyed: no front drawn


def test_each_kind_of_arrow_of_the_round_has_its_entry():
    s = game((BOYZ, GUN), (BOYZ,))
    walk = ["walk", 0, 0.0, 6.0]
    moved = s.apply(walk)
    marks = arrows([(s, walk, moved)])
    assert marks == [("move", 0, (tuple(s.anchors[0]), tuple(moved.anchors[0])))]
    assert _kinds(s, marks)[-1] == "move"
    held = moved.apply(["hold", 1])
    aimed = held.apply(["shoot", 2])
    assert aimed.phase == "combat" and aimed.pending[0] == "shoot"
    outcome = aimed.chance_outcomes()[0][0]
    shot = arrows([(aimed, outcome, aimed.apply(outcome))])
    assert [(k, side) for k, side, _ in shot] == [("shot", 0)]
    assert _kinds(s, marks + shot)[-2:] == ["move", "shot"]


def test_a_unit_destroyed_in_the_round_is_drawn_where_it_last_stood_and_keyed():
    s = game((BOYZ,), (GUN,))
    dead = replace(s, units=(s.units[0], replace(s.units[1], alive=(0,))))
    steps = [(s, ["hold", 0], dead)]
    where = fallen(steps)
    assert list(where) == [1] and where[1] == ((float(s.anchors[1][0]), float(s.anchors[1][1])),)
    assert _kinds(dead, (), list(where)) == ["army", "army", "fallen", "number"]
    assert unit_line(dead, 1, gone=[1]) == " 1  Gun (destroyed this round)"
    assert unit_line(dead, 1) == " 1  Gun (destroyed)"


def test_every_unit_is_in_the_key_once_with_models_and_wounds_left():
    s = game((BOYZ, BOSS), (BOYZ, GUN))
    hurt = (replace(s.units[0], alive=(7,), pinned=True), replace(s.units[1], damage=(2,)))
    s = replace(s, units=(*hurt, s.units[2], replace(s.units[3], alive=(0,))))
    key = unit_key(s, melee={2})
    assert [text for text, _, head in key if head] == ["Blues", "Reds"]
    lines = [text for text, _, head in key if not head]
    for u in range(4):
        assert sum(line.split()[0] == str(u) for line in lines) == 1
    assert lines == [
        " 0  Boyz  7/10 (pinned)",
        " 1  Boss  1/1, 1/3 wounds",
        " 2  Boyz  10/10 (in melee)",
        " 3  Gun (destroyed)",
    ]
    assert [side for _, side, head in key if not head] == [0, 0, 1, 1]
    off = replace(s, place=(-1, -2, 0, -1))  # the Boss in reserve, the Reds' Boyz aboard unit 0
    assert unit_line(off, 1) == " 1  Boss  1/1, 1/3 wounds (in reserve)"
    assert unit_line(off, 2) == " 2  Boyz  10/10 (aboard unit 0)"


def test_the_title_names_the_armies_round_and_score_and_wraps_at_spaces():
    pytest.importorskip("matplotlib")
    from grimdice.systems.onepage.game.draw import FONT, KEY_WIDTH, SCALE, figure

    s = game((BOYZ,), (GUN,))
    s = replace(s, units=(s.units[0], replace(s.units[1], pinned=True)))
    head = title(s, 2)
    assert head == (
        "Blues (blue) vs Reds (red)\n"
        "round 2 of 4 (end): score Blues 10, Reds 0 (enemy units destroyed or pinned)"
    )
    long = "A very long name for an army that goes on " * 8
    fig = figure(s, [], long + "\n" + head)
    ax = fig.axes[0]
    drawn = ax.title.get_text()
    assert drawn.split() == (long + " " + head).split()  # every word whole
    assert len(drawn.splitlines()) >= 4
    width = ax.title.get_window_extent(fig.canvas.get_renderer()).width
    assert width <= (72 * SCALE + KEY_WIDTH) * fig.dpi
    assert ax.title.get_fontsize() == FONT + 1


def _crowd() -> GameState:
    """Six units standing within a few inches of each other on a 2" hill."""
    guns = ({**GUN, "label": "Gun A"}, {**GUN, "label": "Gun B"})
    s = game((BOYZ, *guns, BOSS), (BOYZ, GUN), (piece("hill 1", 34, 22, height=2.0),))
    spots = ((34.0, 22.0), (36.0, 24.0), (36.5, 24.5), (35.5, 23.5), (36.0, 25.0), (37.0, 24.0))
    return replace(s, anchors=spots)


def _centre(s: GameState, u: int) -> tuple[float, float]:
    x, y = s.models(u).mean(axis=0)
    return float(x), float(y)


def test_the_numbers_on_a_crowd_do_not_overlap_and_each_is_in_the_key():
    pytest.importorskip("matplotlib")
    from grimdice.systems.onepage.game.draw import FONT, figure

    s = _crowd()
    fig = figure(s, [], "a crowd")
    ax, renderer = fig.axes[0], fig.canvas.get_renderer()
    texts = [t for t in ax.texts if t.get_text()]
    assert overlaps([t.get_window_extent(renderer) for t in texts]) == []
    numbers = [t for t in texts if t.get_text().isdigit()]
    assert sorted(int(t.get_text()) for t in numbers) == list(range(6))
    assert all(t.get_fontsize() >= FONT for t in numbers)
    assert '2"' in [t.get_text() for t in texts]  # the hill's height
    moved = [t for t in numbers if t.get_position() != pytest.approx(_centre(s, int(t.get_text())))]
    assert moved  # the crowd's numbers cannot all stand on their units
    leaders = {(tuple(ln.get_xdata()), tuple(ln.get_ydata())) for ln in ax.lines}
    for t in moved:
        (x, y), (cx, cy) = t.get_position(), _centre(s, int(t.get_text()))
        assert ((x, cx), (y, cy)) in leaders  # joined to its unit by a line
    key = [t.get_text() for t in ax.artists[0].get_texts()]
    for u, unit in enumerate(s.setup.units):
        assert sum(line.split()[:2] == [str(u), unit.name] for line in key) == 1


def test_a_lone_units_number_is_on_its_bases():
    pytest.importorskip("matplotlib")
    from grimdice.systems.onepage.game.draw import figure

    s = game((BOYZ,), (GUN,))
    ax = figure(s, [], "two units").axes[0]
    spot = {t.get_text(): t.get_position() for t in ax.texts}
    for u in (0, 1):
        assert spot[str(u)] == pytest.approx(tuple(s.models(u).mean(axis=0)))
