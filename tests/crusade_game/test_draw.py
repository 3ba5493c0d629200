"""The round pictures of ``grimdice replay --png`` (:mod:`grimdice.systems.crusade.game.draw`) read
without the docs: a legend with one entry for each kind of mark in the picture and only those
(X SPACE HULKS: walls, dark sections, doors, "Air ducts", manholes "as a 6" ladder"; VI's table
terrain; objectives, items, covered sections, key points, arrivals, volleys, crews, conditions),
the title wrapped at spaces, and each model's number on its disc with its name in a key beside
the board, no two labels on the board overlapping."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from grimdice.engine.pictures import overlaps
from grimdice.systems.crusade.damage import KILLED, KO, STUNNED, WOUNDED
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import GameState, initial_state
from tests.crusade_game.helpers import at, state
from tests.crusade_game.table_helpers import put, rect, table, table_state

pytest.importorskip("matplotlib")

HALL = """
######
#....#
#....#
######
"""
ROOMS = """
##########
#..::DdD=#
#........#
##########
"""


def _kinds(s: GameState, volleys: Any = (), new: Any = ()) -> list[str]:
    from grimdice.systems.crusade.game.draw_key import legend

    return [kind for kind, _, _ in legend(s, volleys, new)]


def _example(name: str) -> GameState:
    path = Path(f"examples/games/crusade-game-{name}.yaml")
    return initial_state(build_setup(yaml.safe_load(path.read_text())))


def test_a_plain_hall_has_only_its_walls_floor_forces_and_models_in_the_legend():
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 4, 2)])
    assert _kinds(s) == ["force", "force", "wall", "floor", "model"]


def test_each_kind_of_square_door_and_manhole_on_the_board_has_its_entry():
    s = state(ROOMS, [at("Marine", 1, 1)], [at("Stealer", 8, 2)], grid={"manholes": [[[1, 2], [7, 2]]]})
    squares = ["wall", "floor", "dark", "door closed", "door open", "duct", "manhole"]
    assert _kinds(s) == ["force", "force", *squares, "model"]
    lit = state(ROOMS.replace(":", "."), [at("Marine", 1, 1)], [at("Stealer", 8, 2)])
    assert _kinds(lit) == ["force", "force", "wall", "floor", "door closed", "door open", "duct", "model"]


def test_conditions_volleys_and_arrivals_are_in_the_legend_only_when_in_the_picture():
    s = state(HALL, [at("Marine", 1, 1), at("Marine", 2, 1)], [at("Stealer", 4, 2), at("Stealer", 3, 2)])
    hurt = s.with_token(0, cond=STUNNED).with_token(2, cond=KO)
    assert _kinds(hurt) == ["force", "force", "wall", "floor", "model", "S", "KO"]
    hurt = hurt.with_token(3, cond=WOUNDED)
    assert _kinds(hurt)[-3:] == ["S", "W", "KO"]
    volley = [(1, (4, 2), (1, 1))]
    assert _kinds(s, volley, [3]) == ["force", "force", "wall", "floor", "arrived", "volley", "model"]


def test_the_skirmish_tables_terrain_objective_and_models_are_each_in_the_legend():
    """Its YAML: open ground, a rough ruined wall, crates, barricades and a tank trap (raised), a
    gantry (catwalk), the two-sector hab (a building, a sector border), two ladders and no stairs
    or doors; the Hab held for 2 points by either force."""
    s = _example("skirmish")
    terrain = ["ground", "wall", "raised", "catwalk", "building", "rough", "sector border", "ladder"]
    assert _kinds(s) == ["force", "force", *terrain, "objective", "model"]
    from grimdice.systems.crusade.game.draw_key import legend

    hab = next(words for kind, words, _ in legend(s) if kind == "objective")
    assert hab == "Hab: 2 points if alone on it at the end (either force)"


def test_a_fallen_catwalk_is_rubble_in_the_legend():
    catwalk = {"name": "catwalk", "kind": "catwalk", "shape": rect(4, 5, 8, 6), "height": 4}
    s = table_state(table(terrain=[catwalk]), [put("Marine", 1, 5)], [put("Stealer", 11, 7)])
    from grimdice.systems.crusade.game.draw_table import table_legend
    from grimdice.systems.crusade.game.table import TableBoard, piece_key

    board, fallen = s.setup.board, s.setup.with_ruins(frozenset({piece_key(0)})).board
    assert isinstance(board, TableBoard) and isinstance(fallen, TableBoard)
    assert [k for k, _, _ in table_legend(board)] == ["ground", "catwalk"]
    assert [k for k, _, _ in table_legend(fallen)] == ["ground", "rubble"]


def test_the_battles_key_points_and_the_sewers_item_and_objectives_are_in_the_legend():
    battle = _kinds(_example("battle"))
    assert battle.count("key point") == 1 and "key point done" not in battle
    assert "crew" in battle or "crew apart" in battle  # the mortar's crew stands by it
    from grimdice.systems.crusade.game.draw_key import legend

    sewers = _example("sewers")
    words = [w for kind, w, _ in legend(sewers) if kind in ("objective", "item")]
    assert words == [
        "Cache: carrying the item here wins (Gangers)",
        "Drain mouth: 1 point if alone on it at the end (Scavvies)",
        "item (beside its carrier)",
    ]


def test_a_long_title_is_wrapped_at_spaces_to_the_pictures_width():
    from grimdice.systems.crusade.game.draw import FONT, SQUARE, figure

    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 4, 2)])
    title = "Holding the line: a guard line with a mortar team holds against a volleying ork mob"
    title += " that keeps coming"
    fig = figure(s, title + "\nround 2 (end)")
    ax = fig.axes[0]
    drawn = ax.title.get_text()
    assert drawn.split() == (title + " round 2 (end)").split()  # every word whole
    assert len(drawn.splitlines()) >= 3 and drawn.splitlines()[-1] == "round 2 (end)"
    width = ax.title.get_window_extent(fig.canvas.get_renderer()).width
    assert width <= (6 * SQUARE + 2.5) * fig.dpi  # the board's width and its key's
    assert ax.title.get_fontsize() == FONT + 1


def _crowd() -> GameState:
    """Nine models in a 3x3 block on a raised 2" platform, some stunned, wounded, knocked out."""
    block = {"name": "platform", "kind": "block", "shape": rect(4, 2, 7, 5), "height": 2}
    a = [put("Marine", x, y, 2) for x in (4, 5) for y in (2, 3, 4)]
    b = [put("Stealer", 6, y, 2) for y in (2, 3, 4)]
    s = table_state(table(terrain=[block]), a, b)
    return s.with_token(1, cond=STUNNED).with_token(4, cond=KO).with_token(7, cond=WOUNDED)


@pytest.mark.parametrize("crowd", ["grid", "table"])
def test_neighbours_labels_do_not_overlap_and_each_number_is_in_the_key(crowd: str):
    from grimdice.systems.crusade.game.draw import FONT, figure

    if crowd == "grid":
        marines = [at("Marine", x, y) for x in (1, 2) for y in (1, 2)]
        s = state(HALL, marines, [at("Stealer", 3, 1), at("Stealer", 3, 2)]).with_token(2, cond=WOUNDED)
        s = s.with_token(5, cond=KILLED, horror=1)  # a HORROR lying face down: still on the board
        assert "horror" in _kinds(s)
    else:
        s = _crowd()
    fig = figure(s, "a crowd")
    ax, renderer = fig.axes[0], fig.canvas.get_renderer()
    texts = [t for t in ax.texts if t.get_text()]
    assert overlaps([t.get_window_extent(renderer) for t in texts]) == []
    numbers = {t.get_text(): t for t in texts if t.get_text().isdigit()}
    assert sorted(numbers, key=int) == [str(i) for i in range(len(s.tokens))]
    assert all(t.get_fontsize() >= FONT for t in numbers.values())
    key = [t.get_text() for t in ax.artists[0].get_texts()]
    for i, tok in enumerate(s.tokens):
        assert sum(line.split()[:2] == [str(i), s.setup.profiles[tok.profile].name] for line in key) == 1
    if crowd == "table":
        assert key[1 + 4] == ' 4  Marine (knocked out, 2" up)'
        assert sum(t.get_text() == '2"' for t in texts) == len(s.tokens)  # each model's height


def test_two_models_in_one_square_stand_side_by_side():
    from grimdice.systems.crusade.game.draw_key import spots

    catwalk = {"name": "catwalk", "kind": "catwalk", "shape": rect(4, 5, 8, 6), "height": 4}
    marines = [put("Marine", 5, 5, 4), put("Marine", 5, 5)]
    s = table_state(table(terrain=[catwalk]), marines, [put("Stealer", 11, 7)])
    (x0, y0, r0), (x1, y1, r1) = spots(s)[0], spots(s)[1]
    assert y0 == y1 and x1 - x0 >= r0 + r1  # apart, in the square
    assert x0 - r0 >= 4.5 and x1 + r1 <= 5.5


def test_a_buildings_name_keeps_clear_of_the_models_in_its_way():
    """The hab (cells 10-14 by 5-10) is named above its top row unless models stand under the name;
    then in the first row of it that is clear."""
    from grimdice.systems.crusade.game.draw import figure

    s = _example("skirmish")
    for blocked in ([], [(12, 4)], [(12, 4), (11, 5)]):
        for i, (x, y) in enumerate(blocked):
            s = s.with_token(i, sq=(x, y, 0))
        fig = figure(s, "hab")
        ax = fig.axes[0]
        renderer = fig.canvas.get_renderer()
        texts = [t for t in ax.texts if t.get_text()]
        assert overlaps([t.get_window_extent(renderer) for t in texts]) == []
        name = next(t for t in texts if t.get_text() == 'hab, roof 4"')
        assert name.get_position() == (12.0, 4 + len(blocked))


def test_a_killed_model_is_not_drawn_and_the_key_names_it_killed():
    from grimdice.systems.crusade.game.draw_key import model_key, spots

    s = state(HALL, [at("Marine", 1, 1), at("Marine", 2, 1)], [at("Stealer", 4, 2)])
    s = s.with_token(1, cond=KILLED).with_token(0, cond=WOUNDED)
    assert sorted(spots(s)) == [0, 2]
    assert [text for text, _, _ in model_key(s)] == [
        "Marines",
        " 0  Marine (wounded)",
        "    killed: 1",
        "Stealers",
        " 2  Stealer",
    ]
