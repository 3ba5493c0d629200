"""V CHARGE, IV's melees in turn, IX SHAMBLE's charge and IX TALL and BIG hiding in the dark, each
from a sentence of the Rules Crusade text."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from grimdice.systems.crusade.ai.players import ai_player
from grimdice.systems.crusade.damage import KILLED, NONE
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.situation import shot
from grimdice.systems.crusade.game.state import GameState
from tests.crusade_game.helpers import MARINE, STEALER, at, state
from tests.crusade_game.table_helpers import put, rect, table, table_state

HALL = """
##############
#............#
#............#
#............#
##############
"""
DARK_CORNER = HALL.replace("#............#", "#:...........#", 1)


def kinds(s: GameState) -> set[str]:
    return {a[0] for a in s.legal_actions()}


def walk(s: GameState, *squares: tuple[int, int]) -> GameState:
    """The active model's steps to each square in turn, each one a legal move (V ZOC: the enemy
    lets it by)."""
    for sq in squares:
        a = ("move", *sq)
        assert a in s.legal_actions(), (a, s.legal_actions())
        s = s.apply(a)
        while s.zoc:
            s = s.apply(("pass",))
    return s


def both_stand(s: GameState) -> GameState:
    """The pending melee's outcome in which both models stand unharmed, no weapon failing."""
    law = cached_law(s.pending[4])
    k = next(
        k for k, ((ds, as_, wa, wd, _), _) in enumerate(law) if ds[0] == as_[0] == NONE and wa == wd == ""
    )
    return s.apply(("attack", k))


def test_charge_adds_half_the_move_at_a_target():
    # V CHARGE: "All troops may make an additional half move (round down to nearest inch) before
    # meleeing": the Stealer (move 6) charges the Marine 8 squares away, 6 + 3 squares of move.
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 10, 1)], first=1).apply(("activate", 1))
    assert ("charge", 0) in s.legal_actions()
    s = s.apply(("charge", 0))
    assert s.budget == 9 and kinds(s) == {"move", "end"}
    s = walk(s, *((x, 1) for x in range(9, 1, -1)))
    assert s.tokens[1].sq == (2, 1) and s.legal_actions()[0] == ("melee", 0)
    assert kinds(s) == {"melee", "move"}  # no end: it melees (or steps on beside it, (2, 2))


def test_the_half_move_is_spent_before_meleeing():
    # V CHARGE: "an additional half move ... before meleeing": after the melee the charger has at
    # most what is left of its normal move. Beside the Marine, it charges (9 squares of move), melees
    # without stepping, and has its own 6 left, not 9.
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 2, 1)], first=1).apply(("activate", 1))
    s = both_stand(s.apply(("charge", 0)).apply(("melee", 0)))
    assert s.active == 1 and s.budget == 6
    far = walk(s, *((x, 1) for x in range(3, 9)))
    assert not any(a[0] == "move" for a in far.legal_actions())  # 6 squares, no more
    # having come 8 squares (2 of them of its half move), nothing is left after the melee
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 10, 1)], first=1).apply(("activate", 1))
    s = walk(s.apply(("charge", 0)), *((x, 1) for x in range(9, 1, -1)))
    s = both_stand(s.apply(("melee", 0)))
    assert s.budget == 0 and not any(a[0] == "move" for a in s.legal_actions())


def test_the_half_move_goes_only_towards_the_target():
    # V CHARGE: the half move is made "before meleeing" the model charged (reading charge): a step
    # into it must leave the charger able to reach its target; within its normal move it walks freely
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 10, 1)], first=1).apply(("activate", 1))
    s = s.apply(("charge", 0))
    assert ("move", 10, 2) in s.legal_actions()  # within its normal move
    s = walk(s, *((x, 1) for x in range(9, 3, -1)))  # 6 squares: the normal move spent, at (4, 1)
    acts = s.legal_actions()
    assert ("move", 3, 1) in acts and ("move", 4, 2) in acts  # 2 squares from beside it either way
    assert ("move", 5, 1) not in acts and ("move", 4, 3) not in acts  # 3 away: it would fall short
    s = s.apply(("move", 3, 1))
    assert ("end",) not in s.legal_actions()  # the half move is started: on to the melee


def test_no_charge_at_a_hidden_model_nor_out_of_reach():
    # V CHARGE: "You may not charge Hidden models."
    s = state(DARK_CORNER, [at("Marine", 1, 1)], [at("Stealer", 9, 1)], first=1)
    hidden = s.with_token(0, hidden=True).apply(("activate", 1))
    assert "charge" not in kinds(hidden)
    assert ("charge", 0) in s.apply(("activate", 1)).legal_actions()
    # 6 + 3 squares of move: a target 10 squares from beside it is out of reach
    far = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 12, 1)], first=1).apply(("activate", 1))
    assert "charge" not in kinds(far)


def test_a_charge_melees_its_target():
    # V CHARGE: the half move is "before meleeing" the model charged: with two Marines beside it,
    # the charger melees the one it charged
    s = state(HALL, [at("Marine", 1, 1), at("Marine", 3, 1)], [at("Stealer", 2, 1)], first=1)
    s = s.apply(("activate", 2)).apply(("charge", 1))
    assert s.legal_actions()[0] == ("melee", 1) and ("melee", 0) not in s.legal_actions()


def test_melee_each_in_turn_without_moving_between():
    # IV: "If adjacent to multiple targets, you may melee each in turn": the successive melees are
    # at the enemies beside it where it made the first; once it moves on, no further melee
    s = state(HALL, [at("Marine", 1, 1), at("Marine", 7, 1)], [at("Stealer", 2, 1)], first=1)
    s = both_stand(s.apply(("activate", 2)).apply(("melee", 0)))
    assert s.budget == 6 and kinds(s) == {"move", "end"}
    s = walk(s, *((x, 1) for x in range(3, 7)))
    assert s.tokens[2].sq == (6, 1) and "melee" not in kinds(s)
    # back where it was: still no second melee after moving
    s = state(HALL, [at("Marine", 1, 1), at("Marine", 3, 1)], [at("Stealer", 2, 1)], first=1)
    s = both_stand(s.apply(("activate", 2)).apply(("melee", 0)))
    assert ("melee", 1) in s.legal_actions()  # from where it stands: the next one in turn
    assert "melee" not in kinds(walk(s, (2, 2), (2, 1)))


def test_shambling_models_charge_but_take_no_extra_move():
    # IX SHAMBLE: "The model may not take extra move" (I: "Take an extra full move"); V CHARGE's
    # exceptions do not include SHAMBLE: half the move rolled this turn
    zombie = dict(copy.deepcopy(STEALER), name="Zombie", abilities=["SHAMBLE"])
    s = state(HALL, [at("Marine", 1, 1)], [at("Zombie", 9, 1)], profiles=[MARINE, zombie], first=1)
    s = s.apply(("shamble", 7)).apply(("activate", 1))
    assert ("charge", 0) in s.legal_actions() and ("extra",) not in s.legal_actions()
    assert s.apply(("charge", 0)).budget == 7 + 3


@pytest.mark.parametrize("ability", ["TALL", "BIG"])
def test_tall_and_big_models_hide_only_in_darkness(ability):
    # IX TALL: "Once revealed, these models cannot take cover or hide, except from smoke/darkness";
    # IX BIG: "Once revealed, can't hide, or take cover except from smoke/darkness"
    tall = dict(copy.deepcopy(MARINE), abilities=[ability])
    dark = state(DARK_CORNER, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], profiles=[tall, STEALER])
    assert ("hide",) in dark.apply(("activate", 0)).legal_actions()
    # on a table: beside a barricade (cover, no darkness) a plain Marine hides, they do not
    wall = {"name": "barricade", "kind": "wall", "shape": rect(5, 2, 6, 5), "height": 2}
    board = table(terrain=[wall])
    plain = table_state(board, [put("Marine", 4, 3)], [put("Stealer", 11, 7)])
    other = table_state(board, [put("Marine", 4, 3)], [put("Stealer", 11, 7)], profiles=[tall, STEALER])
    assert ("hide",) in plain.apply(("activate", 0)).legal_actions()
    assert ("hide",) not in other.apply(("activate", 0)).legal_actions()


def test_the_ai_charges_a_target_its_move_alone_does_not_reach():
    # V CHARGE: the Stealer walks its 6 squares, charges for its 3 more and melees the Marine
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 10, 1)], first=1)
    rng = np.random.default_rng(0)
    played = []
    while not s.pending:
        played.append(ai_player(s, rng))
        s = s.apply(played[-1])
    assert ("charge", 0) in played and played[-1] == ("melee", 0) and s.tokens[1].sq == (2, 1)


def test_a_feral_model_charges_only_the_nearest():
    # IX FERAL: "You may only attack the nearest target": of two Marines (7 and 5 squares away), the
    # nearer is charged
    feral = dict(copy.deepcopy(STEALER), abilities=["FERAL"])
    s = state(
        HALL,
        [at("Marine", 1, 1), at("Marine", 3, 3)],
        [at("Stealer", 8, 1)],
        profiles=[MARINE, feral],
        first=1,
    )
    charges = [a for a in s.apply(("activate", 2)).legal_actions() if a[0] == "charge"]
    assert charges == [("charge", 1)]


@pytest.mark.parametrize("ability", ["TALL", "BIG"])
def test_tall_and_big_models_keep_the_cover_of_darkness(ability):
    # IX TALL: "cannot take cover or hide, except from smoke/darkness"; V DARKNESS: "Counts as
    # cover". The bolter's 2W+1R (white 0,0,0,0,1,2; red 0,0,0,1,2,3) kills a one-hit target of
    # armour 1 on a total of 3 or more (77 of 216 rolls), of armour 1 + 1 for cover on 4 or more (38)
    target = dict(copy.deepcopy(STEALER), abilities=[ability])
    s = state(
        HALL, [at("Marine", 1, 1)], [at("Stealer", 4, 1)], profiles=[MARINE, target], grid={"dark": [[4, 1]]}
    )
    law = cached_law(shot(s, 0, 1, "bolter"))
    assert sum(p for (ds, *_), p in law if ds[0] == KILLED) == pytest.approx(38 / 216, abs=1e-12)
    lit = state(HALL, [at("Marine", 1, 1)], [at("Stealer", 4, 1)], profiles=[MARINE, target])
    law = cached_law(shot(lit, 0, 1, "bolter"))
    assert sum(p for (ds, *_), p in law if ds[0] == KILLED) == pytest.approx(77 / 216, abs=1e-12)
