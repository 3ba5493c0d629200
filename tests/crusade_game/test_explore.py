"""X sections covered for exploration in the grid game ("you may cover up sections if you want (for
exploration purposes)"; reading ``covered_sections``): what a section holds is off the board until a
model of the exploring force sees into it, then placed; the checks naming the field; games replayed."""

from __future__ import annotations

import json

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.game.play import play_game
from grimdice.systems.crusade.game.replay import replay
from grimdice.systems.crusade.game.state import GameState, invariant_errors
from tests.crusade_game.helpers import at, scenario, state

# a hall (x 1-5) and, behind the wall at x 6 with a door at (6, 2), a room (x 7-11)
ROOMS = "\n".join(["#############", "#.....#.....#", "#.....D.....#", "#.....#.....#", "#############"])
ROOM = [[7, 1], [11, 3]]


def _state(stealers, covered=(ROOM,), explorer=0, marines=((1, 2),), **kw) -> GameState:
    return state(
        ROOMS, [at("Marine", *q) for q in marines], [at("Stealer", *q) for q in stealers],
        grid={"covered": [list(c) for c in covered], "explorer": explorer}, **kw,
    )  # fmt: skip


def _stealers(s: GameState) -> list[tuple[int, ...]]:
    return [t.sq for t in s.tokens if t.side == 1]


def test_a_covered_sections_models_wait_until_an_explorer_sees_into_it():
    s = _state([(3, 3), (9, 2), (10, 3)], marines=((1, 1),))
    assert _stealers(s) == [(3, 3)]  # the two in the room are not on the board
    s = s.apply(("activate", 0))
    for q in ((2, 1), (3, 1), (4, 1), (5, 1)):
        s = s.apply(("move", *q))
    s = s.apply(("extra",)).apply(("move", 5, 2))
    assert _stealers(s) == [(3, 3)] and s.covered == (0,)  # the door is closed: nothing seen
    s = s.apply(("open", 6, 2))
    assert s.covered == (0,)  # looked through at the next step
    s = s.apply(("move", 4, 2))  # it sees into the room through the door
    assert s.covered == () and _stealers(s) == [(3, 3), (9, 2), (10, 3)]
    assert not invariant_errors(s)


def test_the_other_forces_steps_uncover_nothing():
    s = _state([(3, 3), (9, 2)], marines=((1, 1),))
    s = s.apply(("activate", 0)).apply(("end",)).apply(("activate", 1))
    for q in ((4, 3), (5, 3), (5, 2)):
        s = s.apply(("move", *q))
    s = s.apply(("open", 6, 2)).apply(("move", 6, 2)).apply(("move", 7, 2))
    assert s.covered == (0,)


def test_a_section_seen_from_the_start_is_uncovered_at_once():
    s = _state([(2, 3), (9, 2)], covered=([[3, 1], [4, 3]], ROOM))
    assert s.covered == (1,)  # the marine at (1, 2) sees into the hall's section


def test_a_piece_whose_square_is_taken_goes_to_the_nearest_free_one_and_a_blip_stays_a_blip():
    s = _state([(3, 3), (9, 2)], force_b={"blips": [{"at": [10, 2], "models": ["Stealer", "Stealer"]}]})
    assert len(s.tokens) == 2
    s = s.apply(("activate", 0)).apply(("end",)).apply(("activate", 1))
    for q in ((4, 3), (5, 3), (5, 2)):
        s = s.apply(("move", *q))
    s = s.apply(("open", 6, 2)).apply(("move", 6, 2)).apply(("move", 7, 2)).apply(("extra",))
    s = (
        s.apply(("move", 8, 2)).apply(("move", 9, 2)).apply(("end",))
    )  # the stealer stands on the covered piece's square
    s = s.apply(("activate", 0)).apply(("move", 2, 2))  # the marine sees down the row through the door
    placed = list(s.tokens[2:])
    assert s.covered == () and len(placed) == 2
    assert placed[0].sq != (9, 2) and max(abs(placed[0].sq[0] - 9), abs(placed[0].sq[1] - 2)) == 1
    assert placed[1].blip == (1, 1) and placed[1].sq == (10, 2)


@pytest.mark.parametrize(
    ("covered", "explorer", "field"),
    [
        (([[7, 1], [14, 3]],), 0, "board.covered.0"),  # off the board
        ((ROOM, [[11, 3], [11, 3]]), 0, "board.covered.1"),  # overlapping
        ((ROOM,), 1, "board.explorer"),  # the exploring force inside
        (([[1, 1], [5, 3]],), 0, "board.explorer"),  # the marine inside the hall
    ],
)
def test_bad_sections_are_refused_naming_the_field(covered, explorer, field):
    with pytest.raises(ScenarioError) as err:
        _state([(9, 2)] if explorer == 0 else [(2, 3), (9, 2)], covered=covered, explorer=explorer)
    assert err.value.field in (field, "board.covered")


def test_the_other_force_needs_a_model_outside():
    with pytest.raises(ScenarioError) as err:
        _state([(9, 2)])
    assert err.value.field == "board.covered"


@pytest.mark.parametrize("players", [("random", "random"), ("ai", "random"), ("random", "ai")])
def test_games_with_covered_sections_keep_the_invariants_and_replay(players):
    data = scenario(
        ROOMS, [at("Marine", 1, 1), at("Marine", 1, 3)], [at("Stealer", 4, 3), at("Stealer", 9, 2)],
        grid={"covered": [ROOM], "explorer": 0}, turns=6,
        objectives=[{"name": "Room", "kind": "reach", "side": 0, "squares": [[11, 2]]}],
    )  # fmt: skip
    for seed in (1, 2, 3):
        log = play_game(data, players, seed)
        assert "forces.1.models.1" in {m["from"] for m in log["models"]}
        again, states, problems = replay(json.loads(json.dumps(log)))
        assert problems == [] and again == log
        assert all(not invariant_errors(s) for s in states)
