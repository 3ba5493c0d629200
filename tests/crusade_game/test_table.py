"""The table board's rules from the sentences of V MOVEMENT, JUMPING, SCRABBLING, FALLING, II and VI,
each on a hand-built table, the chances counted by hand over the dice faces."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from grimdice.engine.game import CHANCE
from grimdice.systems.crusade.damage import KILLED, NONE, STUNNED
from grimdice.systems.crusade.game.board import FULL
from tests.crusade_game.table_helpers import active, put, rect, steps, table, table_state

RED = (0, 0, 0, 1, 2, 3)
WHITE = (0, 0, 0, 0, 1, 2)
GANGER = {
    "name": "Ganger",
    "move": 4,
    "armour": 1,
    "hits": 1,
    "melee": "1W+1R",
    "weapons": [{"name": "autogun", "dice": "2W", "kind": "ranged", "effects": ["J", "S"]}],
}
RUNNER = dict(GANGER, name="Runner", move=6)


def at_least(need: int, reds: int, whites: int = 0) -> Fraction:
    """P(sum of the faces >= need), counted over every face of every die."""
    rolls = list(itertools.product(*([RED] * reds + [WHITE] * whites)))
    return Fraction(sum(1 for r in rolls if sum(r) >= need), len(rolls))


def game(board, a, b=None, profiles=None):
    return table_state(board, a, b or [put("Ganger", 11, 7)], profiles=profiles or [GANGER, RUNNER])


def block(x0, y0, x1, y1, height, **kw):
    return {
        "name": f"block {x0} {y0}",
        "kind": "block",
        "shape": rect(x0, y0, x1, y1),
        "height": height,
        **kw,
    }


# ---------------------------------------------------------------------- V MOVEMENT
def test_steps_in_inches_a_diagonal_costs_its_length():
    # V: "Move is in inches"; reading diagonal_step
    s = active(game(table(), [put("Ganger", 4, 4)]))
    got = steps(s)
    assert got[("move", 5, 4, 0)] == 1 and got[("move", 4, 3, 0)] == 1
    assert got[("move", 5, 5, 0)] == pytest.approx(math.sqrt(2))
    s = s.apply(("move", 5, 5, 0)).apply(("move", 6, 6, 0))
    assert s.budget == pytest.approx(4 - 2 * math.sqrt(2))
    left = {a[1:] for a in s.legal_actions() if a[0] == "move"}
    assert (7, 6, 0) in left and (7, 7, 0) not in left  # 1.17" left: a straight step, not a diagonal


def test_a_ledge_below_the_head_counts_its_height():
    # V: "move over any obstacle or up any ledge that is less than the height of your model's head-
    # measure the vertical height and count it as part of your move (IE cover is 1")"
    s = active(game(table(terrain=[block(5, 4, 6, 5, 1)]), [put("Ganger", 4, 4)]))
    assert steps(s)[("move", 5, 4, 1)] == 2
    s = s.apply(("move", 5, 4, 1))
    assert s.tokens[0].sq == (5, 4, 1) and s.budget == 2
    assert steps(s)[("move", 6, 4, 0)] == 2  # V JUMPING: down 3" or less: deduct the height


def test_a_ledge_at_head_height_is_no_step():
    s = active(game(table(terrain=[block(5, 4, 6, 5, 2)]), [put("Ganger", 4, 4)]))
    got = steps(s)
    assert ("move", 5, 4, 2) not in got and ("scrabble", 5, 4, 2) not in got  # not rough
    assert got[("jump", 5, 4, 2)] == 1 + 2 * 2  # V JUMPING: "adding 2" ... for every 1" up"
    assert ("jump", 5, 4, 2) not in s.legal_actions()  # 5" costs more than the 4" move


def test_drops_of_three_inches_deduct_the_height_four_or_more_fall():
    s = active(game(table(terrain=[block(4, 4, 5, 5, 3), block(4, 2, 5, 3, 4)]), [put("Ganger", 4, 4)]))
    assert s.tokens[0].sq == (4, 4, 3)  # [x, y] stands on top of the block
    got = steps(s)
    assert got[("move", 5, 4, 0)] == 1 + 3
    s2 = active(game(table(terrain=[block(4, 2, 5, 3, 4)]), [put("Ganger", 4, 2)]))
    got = steps(s2)
    assert ("move", 5, 2, 0) not in got
    assert got[("fall", 5, 2, 0)] == 1 and got[("hang", 5, 2, 0)] == FULL


@pytest.mark.parametrize(
    ("height", "kind", "cond"),
    [
        (4, "fall", STUNNED),
        (7, "fall", STUNNED),
        (8, "fall", KILLED),
        (4, "hang", NONE),
        (8, "hang", STUNNED),
    ],
)
def test_falling_one_hit_per_four_inches_graze_stuns(height, kind, cond):
    # V FALLING: "For every 4" you fall, take 1 hit (graze = stun)"; HANG AND DROP "reduces the jump
    # down distance by 3"": a one-hit model: 1 hit is a graze (stun), 2 hits kill it (III)
    s = active(game(table(terrain=[block(4, 2, 5, 3, height)]), [put("Ganger", 4, 2)]))
    s = s.apply((kind, 5, 2, 0))
    t = s.tokens[0]
    assert t.cond == cond
    if cond != KILLED:
        assert t.sq == (5, 2, 0) and s.budget == 0


# ---------------------------------------------------------------------- ladders and stairs
def test_short_ladders_cost_the_height_tall_ones_a_full_move():
    # V: "Short ladders (<3") cost the height in move. Tall ladders (3"-6") cost 1 full movement."
    short = table(terrain=[block(5, 4, 6, 5, 2)], ladders=[{"at": [4, 4, 0], "to": [5, 4, 2]}])
    s = active(game(short, [put("Ganger", 4, 4)]))
    assert steps(s)[("move", 5, 4, 2)] == 2
    assert s.apply(("move", 5, 4, 2)).budget == 2
    tall = table(terrain=[block(5, 4, 6, 5, 4)], ladders=[{"at": [4, 4, 0], "to": [5, 4, 4]}])
    s = active(game(tall, [put("Ganger", 4, 4)]))
    assert ("ladder", 5, 4, 4) in s.legal_actions()
    assert s.apply(("ladder", 5, 4, 4)).budget == 0
    moved = s.apply(("move", 4, 5, 0)).apply(("move", 4, 4, 0))
    assert ("ladder", 5, 4, 4) not in moved.legal_actions()  # a full move: only before any step


def test_stairs_cost_the_linear_move():
    # V: "Stairs cost the linear move to move up or down"
    board = table(terrain=[block(7, 4, 8, 5, 3)], stairs=[{"at": [4, 4, 0], "to": [7, 4, 3]}])
    s = active(game(board, [put("Ganger", 4, 4)]))
    assert steps(s)[("move", 7, 4, 3)] == 3


def test_a_ladder_held_at_its_far_end_is_not_climbed():
    board = table(terrain=[block(5, 4, 6, 5, 2)], ladders=[{"at": [4, 4, 0], "to": [5, 4, 2]}])
    s = active(game(board, [put("Ganger", 4, 4)], [put("Ganger", 5, 4, 2)]))
    assert ("move", 5, 4, 2) not in steps(s)


# ---------------------------------------------------------------------- V JUMPING, SCRABBLING
GAP = table(terrain=[block(2, 3, 4, 5, 2), block(6, 3, 8, 5, 2)])


def test_a_jump_across_a_gap_is_a_roll_of_the_move_dice():
    # V JUMPING: "roll 1 red for every 2" of move value ... greater than or equal to the distance +
    # your Armor value": move 4 = 2 reds; a 2" gap, armour 1: 3 or more
    s = active(game(GAP, [put("Ganger", 3, 4)]))
    assert s.tokens[0].sq == (3, 4, 2)
    s = s.apply(("jump", 6, 4, 2))
    assert s.current_player() == CHANCE
    law = dict(s.chance_outcomes())
    assert law[("jump", 1)] == pytest.approx(float(at_least(3, reds=2)))
    assert float(at_least(3, reds=2)) == pytest.approx(7 / 18)
    made = s.apply(("jump", 1))
    assert made.tokens[0].sq == (6, 4, 2) and made.budget == 1  # "count the distance as part of your move"
    fell = s.apply(("jump", 0))  # "If the roll is less, you fall": into the gap, 2" (no hit)
    assert fell.tokens[0].sq == (4, 4, 0) and fell.tokens[0].cond == NONE and fell.budget == 0


def test_odd_moves_add_a_white_die_and_gaps_of_an_inch_are_automatic():
    s = active(game(GAP, [put("Runner", 3, 4)]))
    law = dict(s.apply(("jump", 6, 4, 2)).chance_outcomes())
    assert law[("jump", 1)] == pytest.approx(float(at_least(3, reds=3)))
    board = dict(GAP, width=13)
    runner5 = dict(RUNNER, move=5)
    s = active(game(board, [put("Runner", 3, 4)], profiles=[GANGER, runner5]))
    law = dict(s.apply(("jump", 6, 4, 2)).chance_outcomes())
    assert law[("jump", 1)] == pytest.approx(float(at_least(3, reds=2, whites=1)))
    near = table(terrain=[block(2, 3, 4, 5, 2), block(5, 3, 7, 5, 2)])
    s = active(game(near, [put("Ganger", 3, 4)])).apply(("jump", 5, 4, 2))
    assert s.current_player() != CHANCE and s.tokens[0].sq == (5, 4, 2)  # "gaps of 1" or less"


def test_a_jump_up_adds_two_inches_per_inch():
    # "You may jump to a higher height by adding 2" to the distance for every 1" up": onto a 2"
    # block beside: 0 + 4 + armour 1 = 5 on 3 reds (move 6)
    s = active(game(table(terrain=[block(5, 4, 6, 5, 2)]), [put("Runner", 4, 4)]))
    s = s.apply(("jump", 5, 4, 2))
    assert dict(s.chance_outcomes())[("jump", 1)] == pytest.approx(float(at_least(5, reds=3)))
    assert s.apply(("jump", 0)).tokens[0].sq == (4, 4, 0)


def test_scrabbling_is_a_full_move_failure_stays_at_the_bottom():
    # V SCRABBLING: ">= 1 + your Armor value"; "counts as a full move"; "Failing a scrabble simply
    # leaves you at the bottom (you don't fall)"
    s = active(game(table(terrain=[block(5, 4, 6, 5, 4, rough=True)]), [put("Ganger", 4, 4)]))
    assert steps(s)[("scrabble", 5, 4, 4)] == FULL
    s = s.apply(("scrabble", 5, 4, 4))
    assert dict(s.chance_outcomes())[("scrabble", 1)] == pytest.approx(float(at_least(2, reds=2)))
    up, down = s.apply(("scrabble", 1)), s.apply(("scrabble", 0))
    assert up.tokens[0].sq == (5, 4, 4) and up.budget == 0
    assert down.tokens[0].sq == (4, 4, 0) and down.budget == 0 and down.tokens[0].cond == NONE


def test_both_boards_answer_the_board_protocol():
    from grimdice.systems.crusade.game.board import Board
    from tests.crusade_game.helpers import state

    asked = [n for n in Board.__dict__ if not n.startswith("_")] + list(Board.__annotations__)
    grid = state("#####\n#A.B#\n#####", [{"profile": "Marine"}], [{"profile": "Stealer"}]).setup.board
    for board in (grid, game(table(), [put("Ganger", 0, 0)]).setup.board):
        assert [n for n in asked if not hasattr(board, n)] == [], type(board).__name__
