"""Whole games on the table: invariants on every state, replay, the bundled skirmish; hostile
table scenarios, each with one error naming its field."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.ai.players import random_player
from grimdice.systems.crusade.game.play import TABLE_READINGS, play_game
from grimdice.systems.crusade.game.replay import replay
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import initial_state, invariant_errors
from tests.crusade_game.table_helpers import put, rect, table, table_scenario
from tests.crusade_game.test_table import GANGER, RUNNER, block

SKIRMISH = Path("examples/games/crusade-game-skirmish.yaml")
CLIMBS = ("jump", "scrabble", "fall", "hang", "ladder")
#: a small table of towers, gaps, a rough block, ladders and a building, where models climb
HEIGHTS = table(
    w=14,
    h=8,
    terrain=[
        block(3, 1, 5, 3, 2),
        block(6, 1, 8, 3, 2),
        block(3, 5, 4, 6, 5),
        block(9, 5, 10, 7, 3, rough=True),
        {"name": "wall", "kind": "wall", "shape": rect(6, 4, 7, 7), "height": 3},
        {"name": "barricade", "kind": "barricade", "shape": rect(11, 1, 12, 4)},
    ],
    buildings=[
        {
            "name": "hut",
            "shape": rect(9, 1, 11, 4),
            "height": 4,
            "sectors": [
                {"name": "a", "shape": rect(9, 1, 10, 4)},
                {"name": "b", "shape": rect(10, 1, 11, 4)},
            ],
        }
    ],
    ladders=[
        {"at": [2, 2, 0], "to": [3, 2, 2]},
        {"at": [8, 2, 0], "to": [9, 2, 4]},
        {"at": [2, 5, 0], "to": [3, 5, 5]},
    ],
    stairs=[{"at": [5, 6, 0], "to": [9, 6, 3]}],
)


def climber(s, rng):
    """A random player that climbs, jumps and falls whenever it may."""
    acts = s.legal_actions()
    climbs = [a for a in acts if a[0] in CLIMBS]
    if climbs and rng.random() < 0.7:
        return climbs[int(rng.integers(len(climbs)))]
    return random_player(s, rng)


def _checked(setup, players, seed):
    log = play_game(setup, players, seed)
    s = initial_state(setup)
    kinds = []
    for a in log["actions"]:
        a = tuple(a)
        if s.current_player() == CHANCE:
            assert a in [o for o, _ in s.chance_outcomes()]
        else:
            assert a in s.legal_actions()
        before = s
        s = s.apply(a)
        assert not invariant_errors(s), invariant_errors(s)
        board = s.setup.board
        for t in s.tokens:  # heights respected: every model stands at a height its cell offers
            assert not t.on_board or t.sq[2] in board.lattice.levels_at(t.sq[:2])
        if a[0] in ("move", "ladder", "fall", "hang") and before.current_player() != CHANCE:
            mover = s.tokens[before.active]
            assert mover.sq == a[1:] or s.zoc or not mover.standing  # the step lands where it says
        kinds.append(a[0])
    assert s.current_player() == TERMINAL
    again, _, problems = replay(json.loads(json.dumps(log)))
    assert not problems and again["actions"] == log["actions"] and again["events"] == log["events"]
    return log, kinds


@pytest.fixture(scope="module")
def skirmish():
    return build_setup(yaml.safe_load(SKIRMISH.read_text()))


@pytest.mark.parametrize("players", [("random", "random"), ("ai", "random")])
def test_skirmish_games_keep_the_invariants_and_replay(skirmish, players):
    log, _ = _checked(skirmish, players, 3)
    assert set(TABLE_READINGS) <= set(log["notes"])


def test_climbing_games_keep_the_invariants_and_replay():
    a = [put("Ganger", 2, 2), put("Runner", 2, 5)]  # at the ladders' feet
    data = table_scenario(HEIGHTS, a, [put("Runner", 13, 2), put("Ganger", 8, 2)], turns=6)
    data["profiles"] = [GANGER, RUNNER]
    setup = build_setup(data)
    seen: set[str] = set()
    for seed in range(4):
        _, kinds = _checked(setup, (climber, climber), seed)
        seen.update(kinds)
    assert {"jump", "ladder", "fall"} <= seen


def test_same_seed_same_table_game(skirmish):
    a = play_game(skirmish, ("random", "ai"), 11)
    b = play_game(skirmish, ("random", "ai"), 11)
    assert a == b


# ---------------------------------------------------------------------- hostile files
def _error(data):
    with pytest.raises(ScenarioError) as err:
        build_setup(data)
    return err.value.field, err.value.message


def _skirmish():
    return yaml.safe_load(SKIRMISH.read_text())


def test_a_piece_off_the_table_names_its_field():
    data = _skirmish()
    data["board"]["terrain"][1]["shape"] = rect(22, 14, 26, 17)
    assert _error(data)[0] == "board.terrain.1.shape"


def test_a_model_inside_a_wall_names_its_field():
    data = _skirmish()
    data["forces"][0]["models"][0]["at"] = [6, 5]  # the ruined wall
    field, msg = _error(data)
    assert field == "forces.0.models.0.at" and "no place to stand" in msg
    data["forces"][0]["models"][0]["at"] = [1, 5, 3]  # in the air
    assert _error(data)[0] == "forces.0.models.0.at"


def test_overlapping_pieces_and_sectors_name_their_fields():
    data = _skirmish()
    data["board"]["terrain"][1]["shape"] = rect(10, 5, 12, 7)  # on the hab
    assert _error(data)[0] == "board.buildings.0.shape"
    data = _skirmish()
    data["board"]["buildings"][0]["sectors"][1]["shape"] = rect(12, 5, 14, 11)  # a column left out
    assert _error(data)[0] == "board.buildings.0.sectors"


def test_no_path_between_the_forces_names_the_board():
    data = _skirmish()
    data["board"]["terrain"].append(
        {"name": "rampart", "kind": "wall", "shape": rect(8, 0, 9, 16), "height": 5}
    )
    assert _error(data)[0] == "board"


def test_huge_counts_and_bad_links_and_zones():
    data = _skirmish()
    data["board"]["terrain"] = [copy.deepcopy(data["board"]["terrain"][0]) for _ in range(61)]
    assert _error(data)[0] == "board.terrain"
    data = _skirmish()
    data["board"]["width"] = 1000
    assert _error(data)[0] == "board.width"
    data = _skirmish()
    data["board"]["ladders"] = [{"at": [9, 5, 0], "to": [10, 5, 3]}]  # the roof is at 4"
    assert _error(data)[0] == "board.ladders.0.to"
    data = _skirmish()
    data["forces"][1]["zone"] = "C"
    assert _error(data)[0] == "forces.1.zone"
    data = _skirmish()
    data["board"]["buildings"][0]["armoured"] = True
    assert _error(data)[0] == "board.buildings.0.doors"
    data = _skirmish()
    data["board"]["type"] = "hex"
    assert _error(data)[0].startswith("board")


def test_a_grid_square_with_a_height_is_refused():
    from tests.crusade_game.helpers import scenario

    data = scenario("#####\n#A.B#\n#####", [{"profile": "Marine", "at": [1, 1, 0]}], [{"profile": "Stealer"}])
    assert _error(data) == ("forces.0.models.0.at", "a square on a grid is [x, y], got [1, 1, 0]")


def test_random_player_rng_is_the_layer_s():
    rng = np.random.default_rng(0)
    s = initial_state(build_setup(_skirmish()))
    while s.current_player() == CHANCE:
        s = s.apply(s.chance_outcomes()[0][0])
    assert random_player(s, rng) in s.legal_actions()


def test_games_that_bring_a_building_down_keep_the_invariants_and_replay():
    # VI: sectors shot down collapse into rubble mid-game; the replay rebuilds the same table
    data = _skirmish()
    launcher = {"name": "missile launcher", "dice": "2R+1", "kind": "ranged", "effects": ["K", "+P", "B"]}
    data["profiles"][1]["weapons"].append(launcher)
    setup = build_setup(data)
    seed = next(  # the first seed whose random game brings a sector down with collateral damage
        n
        for n in range(100)
        if "collateral" in [a[0] for a in play_game(setup, ("random", "random"), n)["actions"]]
    )
    log, kinds = _checked(setup, ("random", "random"), seed)
    assert "collateral" in kinds and any("it collapses" in e["text"] for e in log["events"])


def test_a_table_setup_travels_to_workers_without_its_kept_lines(skirmish):
    import pickle

    play_game(skirmish, ("random", "random"), 1)  # fills the board's kept steps and lines
    again = pickle.loads(pickle.dumps(skirmish))
    assert skirmish.board._seen_rows and again.board._seen_rows == {} and again.board._steps == {}
    assert play_game(again, ("ai", "random"), 4) == play_game(skirmish, ("ai", "random"), 4)


def test_games_with_a_hatch_a_catwalk_by_a_building_and_infiltrators_keep_the_invariants():
    # roof hatches, melee and entry off a catwalk (VI), INFILTRATE's start out of sight (IX)
    gantry = {"name": "gantry", "kind": "catwalk", "shape": rect(4, 2, 6, 3), "height": 3}
    hab = {"name": "hab", "shape": rect(6, 1, 10, 6), "height": 3, "hatch": [8, 3]}
    board = table(w=14, h=8, terrain=[gantry], buildings=[hab], ladders=[{"at": [3, 2, 0], "to": [4, 2, 3]}])
    scout = dict(GANGER, name="Scout", abilities=["INFILTRATE"])
    a = [put("Scout", 1, 2), put("Ganger", 5, 2, 3), put("Runner", 1, 5)]
    data = table_scenario(board, a, [put("Runner", 13, 2), put("Ganger", 7, 3)], turns=5)
    data["profiles"] = [GANGER, RUNNER, scout]
    setup = build_setup(data)
    seen: set[str] = set()
    for seed in range(3):
        _, kinds = _checked(setup, ("random", "random"), seed)
        seen.update(kinds)
    _checked(setup, ("ai", "random"), 7)
    assert "place" in seen  # the scout named its start
