"""X reinforcements in the grid game ("reinforcements may be brought in at key points if the
scenario allows"; reading ``reinforcements``): when they come, where they enter, a blocked point,
their roll's chance by hand, the scenario's checks naming the field, and whole games replayed."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from grimdice.engine.game import CHANCE
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.game.play import play_game
from grimdice.systems.crusade.game.replay import replay
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import GameState, initial_state, invariant_errors
from tests.crusade_game.helpers import at, scenario

FIELD = "\n".join(["#" * 16] + ["#" + "." * 14 + "#"] * 5 + ["#" * 16])


def _data(groups: list[dict], marines=((1, 1),), stealers=((13, 3),), turns: int = 4) -> dict:
    return scenario(
        FIELD, [at("Marine", *q) for q in marines], [at("Stealer", *q) for q in stealers],
        turns=turns, reinforcements=groups,
    )  # fmt: skip


def _state(groups: list[dict], **kw) -> GameState:
    return initial_state(build_setup(_data(groups, **kw)))


def _end_turn(s: GameState) -> GameState:
    """The player's turn played out doing nothing: each model activated and ended."""
    player = s.player
    while s.player == player and not s.ended and s.current_player() != CHANCE:
        acts = s.legal_actions()
        s = s.apply(next((a for a in acts if a[0] == "activate"), ("end",)))
    return s


def _at(s: GameState, side: int) -> list[tuple[int, ...]]:
    return [t.sq for t in s.tokens if t.side == side and t.alive]


def test_a_group_enters_at_the_start_of_its_forces_turn_on_its_points():
    group = {"force": 1, "turn": 2, "points": [[14, 1], [14, 5]], "models": ["Stealer", "Stealer"]}
    s = _state([group])
    assert _at(s, 1) == [(13, 3)]  # turn 1: not yet
    s = _end_turn(s)  # the marines' turn 1 ends: the stealers' turn 1
    assert s.player == 1 and _at(s, 1) == [(13, 3)]
    s = _end_turn(_end_turn(s))  # turn 2 of the stealers
    assert s.player == 1 and s.round == 2
    assert _at(s, 1) == [(13, 3), (14, 1), (14, 5)]
    new = [i for i, t in enumerate(s.tokens) if t.sq in ((14, 1), (14, 5))]
    assert all(("activate", i) in s.legal_actions() for i in new)  # activated that turn as any model


def test_a_blocked_point_is_passed_over_and_models_wait_for_room():
    # the first point holds the stealer already: the first model takes the second, the other waits
    group = {"force": 1, "turn": 1, "points": [[13, 3], [14, 5]], "models": ["Stealer", "Stealer"]}
    s = _end_turn(_state([group]))
    assert s.player == 1 and _at(s, 1) == [(13, 3), (14, 5)]
    assert s.reinforced == (1,)
    moved = s.apply(("activate", 1)).apply(("move", 12, 3)).apply(("end",))
    s = _end_turn(_end_turn(moved))  # the stealers' next turn: the point is free
    assert _at(s, 1)[-1] == (13, 3) and s.reinforced == (2,)
    assert not invariant_errors(s)


@pytest.mark.parametrize(("dice", "need", "chance"), [("1R", 2, Fraction(1, 3)), ("2W", 1, Fraction(5, 9))])
def test_a_group_with_a_roll_comes_when_the_dice_reach_the_need(dice, need, chance):
    # red faces 0 0 0 1 2 3: 2 or more, 2 in 6; two whites (0 0 0 0 1 2) show something: 1 - (4/6)^2
    group = {"force": 1, "turn": 1, "points": [[14, 1]], "models": ["Stealer"], "dice": dice, "need": need}
    s = _end_turn(_state([group]))
    assert s.current_player() == CHANCE and s.pending[0] == "reinforce"
    law = dict(s.chance_outcomes())
    assert law[("reinforce", 1)] == pytest.approx(float(chance), abs=1e-12)
    came = s.apply(("reinforce", 1))
    assert _at(came, 1) == [(13, 3), (14, 1)]
    again = _end_turn(_end_turn(s.apply(("reinforce", 0))))  # failed: rolled again next turn
    assert again.pending[0] == "reinforce" and again.round == 2
    assert _end_turn(_end_turn(came)).pending == ()  # came: no more rolls


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"force": 2}, "reinforcements.0.force"),
        ({"turn": 9}, "reinforcements.0.turn"),
        ({"models": ["Ork"]}, "reinforcements.0.models.0"),
        ({"points": [[0, 0]]}, "reinforcements.0.points.0"),
        ({"points": [[40, 2]]}, "reinforcements.0.points.0"),
        ({"dice": "1Q"}, "reinforcements.0.dice"),
        ({"dice": "1W", "need": 3}, "reinforcements.0.need"),
    ],
)
def test_bad_groups_are_refused_naming_the_field(change, field):
    group = {"force": 1, "turn": 1, "points": [[14, 1]], "models": ["Stealer"], **change}
    with pytest.raises(ScenarioError) as err:
        _state([group])
    assert err.value.field == field


@pytest.mark.parametrize("players", [("random", "random"), ("ai", "random"), ("random", "ai")])
def test_games_with_reinforcements_keep_the_invariants_and_replay(players):
    groups = [
        {"force": 1, "turn": 2, "points": [[14, 1], [14, 5]], "models": ["Stealer"] * 3},
        {"force": 0, "turn": 1, "dice": "1R", "need": 2, "points": [[1, 5]], "models": ["Marine"]},
    ]
    data = _data(groups, marines=((1, 1), (1, 2)))
    for seed in (1, 2):
        log = play_game(data, players, seed)
        origins = {m["from"] for m in log["models"]}
        assert {"reinforcements.0.models.2", "reinforcements.1.models.0"} <= origins
        again, states, problems = replay(json.loads(json.dumps(log)))
        assert problems == [] and again == log
        assert all(not invariant_errors(s) for s in states)
