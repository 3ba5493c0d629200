"""Battle rules meeting each other in the grid game: VIII ARTILLERY's crew beside X covered
sections, IX SHAMBLE models among X reinforcements, and X's "beside" a covered section."""

from __future__ import annotations

import pytest

from grimdice.engine.game import CHANCE
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.game import explore, situation
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.marks import crew_marks
from grimdice.systems.crusade.game.state import token_of
from tests.crusade_game.helpers import MARINE, STEALER, at, state

# a hall (x 1-5) and, behind the wall at x 6 with a door at (6, 2), a room (x 7-11)
ROOMS = "\n".join(["#############", "#.....#.....#", "#.....D.....#", "#.....#.....#", "#############"])
CANNON = {"name": "cannon", "dice": "2R", "kind": "ranged", "effects": ["ARTILLERY"]}
GUN = dict(MARINE, name="Gun", weapons=[CANNON])
ZOMBIE = dict(STEALER, name="Zombie", abilities=["SHAMBLE"])


def _crewed(crew_at: tuple[int, int], covered_at: tuple[int, int] = (9, 2)):
    """Force 1: a marine in the covered room listed first, then a gun at (4, 1) and its crew."""
    return state(
        ROOMS, [at("Stealer", 1, 2)],
        [at("Marine", *covered_at), dict(at("Gun", 4, 1), crew=[2]), at("Marine", *crew_at)],
        profiles=[GUN, MARINE, STEALER], first=0, grid={"covered": [[[7, 1], [11, 3]]], "explorer": 0},
    )  # fmt: skip


def test_a_crews_tokens_skip_the_pieces_in_a_covered_section():
    # the covered marine (piece 1) is not a starting token: the gun is token 1, its crew token 2
    s = _crewed((4, 2))
    names = [(s.setup.profiles[t.profile].name, t.sq) for t in s.tokens]
    assert names == [("Stealer", (1, 2)), ("Gun", (4, 1)), ("Marine", (4, 2))]
    assert s.setup.crews == ((2, 1),)
    # "Provides front cover for 2 crew": the marine beside its gun, seen from the stealer
    assert situation.cover_of(s, s.tokens[2], s.tokens[0]) == "front"
    assert crew_marks(s) == [(2, 1, True)]


def test_a_gun_or_crew_in_a_covered_section_is_refused_naming_the_field():
    with pytest.raises(ScenarioError) as err:
        _crewed((8, 2), covered_at=(9, 2))
    assert err.value.field == "forces.1.models.1.crew"


def _late_zombies(dice: str = "1W", need: int = 1):
    """A marine's force moves first; force 1 has a stealer and, from turn 1 on a roll, a zombie."""
    group = {"force": 1, "models": ["Zombie"], "points": [[10, 1]], "turn": 1, "dice": dice, "need": need}
    s = state(FIELD, [at("Marine", 1, 2)], [at("Stealer", 11, 2)], profiles=[MARINE, STEALER, ZOMBIE],
              first=0, reinforcements=[group])  # fmt: skip
    return s.apply(("activate", 0)).apply(("end",))


FIELD = "\n".join(["#############", "#...........#", "#...........#", "#...........#", "#############"])


def test_shamble_is_rolled_after_the_roll_that_brings_a_shambler():
    # IX SHAMBLE: "roll 2 reds and add 4 to get the move value ... once per turn for ALL the models'
    # move value for that turn": a zombie that comes by the group's roll moves by this turn's roll
    s = _late_zombies()
    assert s.current_player() == CHANCE and s.pending[0] == "reinforce"
    s = s.apply(("reinforce", 1))
    assert s.pending == ("shamble",)
    s = s.apply(("shamble", 6))
    zombie = next(k for k, t in enumerate(s.tokens) if s.setup.profiles[t.profile].name == "Zombie")
    assert s.tokens[zombie].sq == (10, 1) and s.move_of(s.tokens[zombie]) == 6
    assert s.apply(("activate", zombie)).budget == 6


def test_no_shamble_roll_when_the_group_does_not_come():
    s = _late_zombies().apply(("reinforce", 0))
    assert s.current_player() == 1 and not s.pending


# the hall's corner (2, 2) touches the room's square (3, 3) only across the corner of the walls at
# (3, 2) and (2, 3); the room (x 3-5, y 3-4) reaches the hall by (1, 3)
PINCH = "\n".join(["#######", "#..#..#", "#..#..#", "#.#...#", "#.....#", "#######"])


def test_a_diagonal_pinched_by_two_walls_is_not_beside_a_section():
    # X: a section is uncovered by a model in or beside it; beside is X's adjacency (a diagonal
    # between two walls does not touch), as a blip's or a melee's
    s = state(PINCH, [at("Marine", 2, 2)], [at("Stealer", 5, 1), at("Stealer", 5, 4)],
              grid={"covered": [[[3, 3], [5, 4]]], "explorer": 0})  # fmt: skip
    board = s.setup.board
    assert board.range((2, 2), (3, 3)) == 1 and not board.adjacent((2, 2), (3, 3), s.doors())
    assert not any(board.sight((2, 2), q, s.doors(), s.occupied()) for q in s.setup.sections[0])
    assert s.covered == (0,)  # not uncovered from the deployment


def test_placed_names_only_the_pieces_that_came_onto_the_board():
    # a section's piece with no free square is passed over: the record names the others only
    s = state(ROOMS, [at("Marine", 1, 2)], [at("Stealer", 3, 3), at("Marine", 9, 2), at("Stealer", 10, 3)],
              grid={"covered": [[[7, 1], [11, 3]]], "explorer": 0})  # fmt: skip
    assert s.setup.held == ((2, 3),)
    last = token_of(s.setup, s.setup.pieces[3])
    after = altered(s, covered=(), tokens=(*s.tokens, altered(last, sq=(10, 3))))
    assert explore.placed(s, after) == [3]
    both = altered(after, tokens=(*s.tokens, token_of(s.setup, s.setup.pieces[2]), last))
    assert explore.placed(s, both) == [2, 3]
