"""Whole grid games: invariants on every state, replay, seeds; hostile scenario files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from grimdice.engine import playing
from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.ai.players import ai_player, random_player
from grimdice.systems.crusade.game.play import LOG_VERSION, play_game
from grimdice.systems.crusade.game.replay import replay
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import initial_state, invariant_errors
from tests.crusade_game.helpers import MARINE, at, scenario
from tests.crusade_game.kitchen import kitchen

CORRIDOR = Path("examples/games/crusade-game-corridor.yaml")
HALL = "##########\n#A.......#\n#........#\n#.......B#\n##########"


@pytest.fixture(scope="module")
def setup():
    return build_setup(yaml.safe_load(CORRIDOR.read_text()))


def _checked_game(setup, players, seed):
    log = play_game(setup, players, seed)
    s = initial_state(setup)
    seen = {s}  # states are hashable values (solvers memoise on them)
    for a in log["actions"]:  # replay: each step legal, every state sound
        if s.current_player() == CHANCE:
            assert tuple(a) in [o for o, _ in s.chance_outcomes()]
        else:
            assert tuple(a) in s.legal_actions()
        s = s.apply(a)
        assert not invariant_errors(s)
        seen.add(s)
    assert s.current_player() == TERMINAL
    assert list(s.returns()) == log["returns"]
    return log


@pytest.mark.parametrize("seed", [0, 1])
def test_random_games_keep_the_invariants_and_replay(setup, seed):
    _checked_game(setup, ("random", "random"), seed)


@pytest.mark.parametrize("players", [("random", "random"), ("ai", "random"), ("random", "ai"), ("ai", "ai")])
def test_sewer_games_keep_the_invariants_and_replay(players):
    sewers = build_setup(yaml.safe_load(Path("examples/games/crusade-game-sewers.yaml").read_text()))
    _checked_game(sewers, players, 5)


@pytest.mark.parametrize("seed", [2, 9])
def test_a_game_is_the_game_layer_s_game_of_its_seed(setup, seed):
    """One loop and one chance sampler: the log's steps are the shared layer's game of the seed
    (its chance stream and one stream per player), and the replay rebuilds its states."""
    log = play_game(setup, ("ai", "random"), seed)
    game = playing.play_game(initial_state(setup), [ai_player, random_player], seed)
    assert log["actions"] == [list(a) for a in game.actions]
    assert log["version"] == LOG_VERSION and log["seed"] == seed
    again, states, problems = replay(json.loads(json.dumps(log)))
    assert problems == [] and again == log
    assert [s.tokens for s in states] == [s.tokens for s in game.states]


def test_ai_games_keep_the_invariants_and_replay(setup):
    log = _checked_game(setup, ("ai", "random"), 3)
    assert log["winner"] == "Terminators"
    assert log["notes"] and log["scenario"]["kind"] == "game"


@pytest.mark.parametrize("players", [("random", "random"), ("ai", "random"), ("random", "ai"), ("ai", "ai")])
@pytest.mark.parametrize("seed", [0, 1])
def test_every_rule_at_once_keeps_the_invariants_and_replays(players, seed):
    # blips, doors, a drain, a manhole, an item, SHAMBLE, MINDLESS, FERAL, FURTIVE, SNAP FIRE,
    # INFILTRATE, SLIP THRU, FRENZY, AREA, RELOAD, EXPLODE, MALFUNCTION, STICK, BREAK, KB, a roll-off
    _checked_game(build_setup(kitchen()), players, seed)


def test_a_log_replays_from_its_own_scenario(setup):
    log = play_game(setup, ("ai", "random"), 11)
    again = _checked_game(build_setup(log["scenario"]), ("ai", "random"), 11)
    assert again["actions"] == log["actions"] and again["events"] == log["events"]


def test_same_seed_same_game(setup):
    assert play_game(setup, ("random", "ai"), 7) == play_game(setup, ("random", "ai"), 7)
    assert (
        play_game(setup, ("random", "random"), 7)["actions"]
        != play_game(setup, ("random", "random"), 8)["actions"]
    )


def test_random_player_is_uniform_over_legal_actions(setup):
    s = initial_state(setup).apply(("activate", 0))
    rng = np.random.default_rng(0)
    legal = s.legal_actions()
    counts = {a: 0 for a in legal}
    n = 1500
    for _ in range(n):
        counts[random_player(s, rng)] += 1
    expected = n / len(legal)
    assert all(abs(c - expected) < 5 * np.sqrt(expected) for c in counts.values())


def _error(data) -> ScenarioError:
    with pytest.raises(ScenarioError) as e:
        build_setup(data)
    return e.value


def test_unknown_weapon_code_names_the_field():
    bad = dict(MARINE, weapons=[{"name": "gun", "dice": "2W", "effects": ["LASERZ"]}])
    e = _error(
        scenario(
            HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], profiles=[bad, MARINE | {"name": "Stealer"}]
        )
    )
    assert e.field == "profiles.0.weapons.0.effects.0" and "LASERZ" in e.message


def test_model_inside_a_wall_names_the_field():
    e = _error(scenario(HALL, [at("Marine", 0, 1)], [at("Stealer", 8, 3)]))
    assert e.field == "forces.0.models.0.at" and "wall" in e.message
    e = _error(scenario(HALL, [at("Marine", 1, 1)], [at("Stealer", 40, 3)]))
    assert e.field == "forces.1.models.0.at" and "off the" in e.message


def test_two_models_on_one_square():
    e = _error(scenario(HALL, [at("Marine", 1, 1), at("Marine", 1, 1)], [at("Stealer", 8, 3)]))
    assert e.field == "forces.0.models.1"


def test_no_path_between_the_forces():
    walled = "##########\n#A...#...#\n#....#...#\n#....#..B#\n##########"
    e = _error(scenario(walled, [{"profile": "Marine"}], [{"profile": "Stealer"}]))
    assert e.field == "board.map" and "no path" in e.message


def test_huge_counts_and_unknown_profiles():
    e = _error(scenario(HALL, [{"profile": "Marine"}] * 41, [at("Stealer", 8, 3)]))
    assert e.field == "forces.0.models"
    e = _error(scenario(HALL, [{"profile": "Ogryn"}], [at("Stealer", 8, 3)]))
    assert e.field == "forces.0.models.0.profile" and "Marine" in e.message
    e = _error(scenario(HALL, [{"profile": "Marine"}] * 20, [at("Stealer", 8, 3)]))
    assert e.field.startswith("forces.0.models.") and "zone" in e.message
    e = _error(scenario(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], turns=1000))
    assert e.field == "turns"
    e = _error(scenario("#" * 100, [at("Marine", 1, 1)], [at("Stealer", 8, 3)]))
    assert e.field == "board.map"


def test_strict_fields():
    e = _error(scenario(HALL, [{"profile": "Marine", "at": [1.0, 1]}], [at("Stealer", 8, 3)]))
    assert e.field.startswith("forces.0.models.0.at")
    e = _error(scenario(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], victory="all"))
    assert e.field == "victory"
    e = _error(scenario(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], force_b={"zone": "A"}))
    assert e.field == "forces.1.zone"


def test_objectives_are_checked():
    bad_item = [{"name": "Relic", "kind": "item", "side": 0, "squares": [[2, 2]]}]
    e = _error(scenario(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], objectives=bad_item))
    assert e.field == "objectives.0" and "'to'" in e.message
    walled = [{"name": "Hold", "squares": [[0, 0]]}]
    e = _error(scenario(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], objectives=walled))
    assert e.field == "objectives.0.squares.0" and "wall" in e.message
    far = [{"name": "Relic", "kind": "item", "side": 0, "squares": [[2, 2]], "to": [[30, 1]]}]
    e = _error(scenario(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], objectives=far))
    assert e.field == "objectives.0.to.0"
