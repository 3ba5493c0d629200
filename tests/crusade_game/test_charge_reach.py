"""V CHARGE's reach, each from a sentence of the Rules Crusade text: "All troops may make an
additional half move (round down to nearest inch) before meleeing", the move measured as V measures
it ("measure the vertical height and count it as part of your move"; jumps, ladders, climbs),
along the steps the game offers the charger, models in the way (reading ``charge_reach``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from grimdice.engine.game import CHANCE
from grimdice.systems.crusade.game import charge, charge_way
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import GameState, initial_state
from tests.crusade_game.helpers import at, state
from tests.crusade_game.table_helpers import active, put, table, table_state
from tests.crusade_game.test_table import GANGER, RUNNER, block

SCALER = dict(RUNNER, name="Scaler", move=12, abilities=["CLIMB"])
FLYER = dict(RUNNER, name="Flyer", move=12, abilities=["FLY"])
JUMPER = dict(RUNNER, name="Runner", move=10)


def go(s: GameState, *actions: tuple) -> GameState:
    """Each action in turn, each legal (V ZOC: the enemy lets it by)."""
    for a in actions:
        assert a in s.legal_actions(), (a, s.legal_actions())
        s = s.apply(a)
        while s.zoc:
            s = s.apply(("pass",))
    return s


@pytest.mark.parametrize(("who", "up"), [("Scaler", "climb"), ("Flyer", "fly")])
def test_a_climb_or_a_flight_up_to_the_target_is_part_of_the_charge(who, up):
    # IX CLIMB: "May climb up or down any surface as part of your move. Measure the distance as
    # normal"; V CHARGE's half move: move 12 + 6. The target stands on a 4" block; 13" across the
    # ground and 5" up beside it make 18", the whole charge.
    ledge = table(w=24, terrain=[block(3, 2, 6, 6, 4)])
    s = table_state(ledge, [put(who, 19, 3, 0)], [put("Ganger", 5, 4, 4)], profiles=[GANGER, SCALER, FLYER])
    s = go(active(s), ("charge", 1), *(("move", x, 3, 0) for x in range(18, 5, -1)))
    assert s.budget == 5 and charge.dipped(s)  # one inch into the half move
    s = go(s, (up, 5, 3, 4))
    assert s.budget == 0 and ("melee", 1) in s.legal_actions()


def test_a_jump_up_is_paid_at_its_cost_up_not_as_a_drop():
    # V JUMPING: a jump up is "the distance + your Armor value" to roll, and counts as part of the
    # move (2" for each 1" up, reading jump); a drop of 3" or less costs its height. The Runner (move
    # 10, 15 charging) reaches the Ganger on a 3" block only by the jump up from the ground beside
    # it, (6, 3): 1" across and 6" up; walking there first takes 8" from (14, 3), 11" from (17, 3).
    ledge = table(w=20, terrain=[block(3, 2, 6, 6, 3)])

    def at_x(x: int) -> GameState:
        return active(
            table_state(ledge, [put("Runner", x, 3, 0)], [put("Ganger", 5, 4, 3)], profiles=[GANGER, JUMPER])
        )

    assert ("charge", 1) not in at_x(17).legal_actions()  # 11" + 7" > 15"
    assert ("charge", 1) not in at_x(15).legal_actions()  # 9" + 7" > 15"
    s = go(at_x(14), ("charge", 1), *(("move", x, 3, 0) for x in range(13, 6, -1)))
    assert s.budget == 8 and ("move", 6, 3, 0) in s.legal_actions()  # the half move's first inch
    s = go(s, ("move", 6, 3, 0))
    assert ("jump", 5, 3, 3) in s.legal_actions()


def test_a_tall_ladder_is_a_charge_s_first_step_only():
    # V: "Tall ladders (3"-6") cost 1 full movement": up the ladder to the Ganger on the 4" tower,
    # from its foot with the whole move, not after a step
    tower = table(terrain=[block(5, 4, 7, 5, 4)], ladders=[{"at": [4, 4, 0], "to": [5, 4, 4]}])

    def at_x(x: int) -> GameState:
        return active(
            table_state(tower, [put("Runner", x, 4, 0)], [put("Ganger", 6, 4, 4)], profiles=[GANGER, RUNNER])
        )

    assert ("charge", 1) not in at_x(2).legal_actions()  # a step to the foot, then no move left
    s = go(at_x(4), ("charge", 1), ("ladder", 5, 4, 4))
    assert ("melee", 1) in s.legal_actions()


DOORWAY = """
###############
#.............#
#####D#########
#.............#
###############
"""


def test_a_door_on_the_way_is_opened_in_the_half_move():
    # V CHARGE: the Stealer (move 6, 9 charging) walks 6 squares, a seventh to the door, opens it
    # (a square, reading door_cost) and steps into the doorway beside the Marine: 9 squares
    def at_x(x: int) -> GameState:
        return state(DOORWAY, [at("Marine", 5, 3)], [at("Stealer", x, 1)], first=1).apply(("activate", 1))

    assert ("charge", 0) not in at_x(13).legal_actions()  # 8 squares to the door, 10 in all
    s = go(at_x(12), ("charge", 0), *(("move", x, 1) for x in range(11, 4, -1)))
    assert s.budget == 2
    s = go(s, ("open", 5, 2), ("move", 5, 2))
    assert ("melee", 0) in s.legal_actions()


CORRIDOR = """
##############
#............#
##############
"""
HALL = """
##############
#............#
#............#
#............#
##############
"""


def test_no_charge_past_a_model_in_the_way():
    # V CHARGE "before meleeing": in a corridor a square wide, a Stealer's friend between it and the
    # Marine leaves it no way beside it
    s = state(CORRIDOR, [at("Marine", 1, 1)], [at("Stealer", 8, 1), at("Stealer", 3, 1)], first=1)
    assert ("charge", 0) not in s.apply(("activate", 1)).legal_actions()


def test_the_half_move_goes_round_models_in_the_way():
    # Two Stealers beside the Marine leave (2, 1) the one square beside it: from (9, 3), 6 squares
    # to (3, 3), then 3 more up to (3, 1) and across to (2, 1). Into the half move, (2, 3) is a dead
    # end (4 squares round), (3, 2) on the way.
    s = state(
        HALL, [at("Marine", 1, 1)], [at("Stealer", 9, 3), at("Stealer", 1, 2), at("Stealer", 2, 2)], first=1
    )
    s = go(s.apply(("activate", 1)), ("charge", 0), *(("move", x, 3) for x in range(8, 2, -1)))
    acts = s.legal_actions()
    assert ("move", 3, 2) in acts and ("move", 2, 3) not in acts
    s = go(s, ("move", 3, 2), ("move", 3, 1), ("move", 2, 1))
    assert ("melee", 0) in s.legal_actions()


def _pick(s: GameState, acts: list, rng: random.Random) -> tuple:
    """A charge when there is one; charging, a step nearer its target (as the crow flies) when
    there is one, else any action but the end; else any action."""
    charges = [a for a in acts if a[0] == "charge"]
    if charges or not s.charging:
        return rng.choice(charges or acts)
    board, target = s.setup.board, s.tokens[s.charging[0]].sq
    here = board.range(s.tokens[s.active].sq, target)
    nearer = [a for a in acts if len(a) > 2 and a[0] != "melee" and board.range(tuple(a[1:]), target) < here]
    melee = [a for a in acts if a[0] == "melee"]
    return rng.choice(melee or nearer or [a for a in acts if a[0] != "end"] or acts)


def _charging_game(setup, seed: int, most: int = 3000) -> tuple[int, int]:
    """A game of random choices that charges whenever it may and, charging, steps on towards its
    target (:func:`_pick`): (the decisions of a charger in its half move, those of one left with
    no melee at its target and no step towards it, no chance outcome having come since its
    charge)."""
    rng = random.Random(seed)
    s, rolled, dipped, stuck = initial_state(setup), False, 0, 0
    for _ in range(most):
        if s.ended:
            break
        if s.current_player() == CHANCE:
            outcomes, weights = zip(*s.chance_outcomes(), strict=True)
            a = rng.choices(outcomes, weights)[0]
            rolled = True
        else:
            acts = s.legal_actions()
            question = bool(s.zoc or s.snap or s.ambush)
            if not question and s.charging and charge.dipped(s):
                dipped += 1
                stuck += ("end",) in acts and not rolled
            rolled = rolled or question
            a = _pick(s, acts, rng)
            rolled = rolled and a[0] != "charge"
        s = s.apply(a)
    return dipped, stuck


#: a table of ledges and a ladder, climbers, fliers and runners on both sides
LEDGES = table(
    w=16,
    h=10,
    terrain=[block(3, 2, 6, 6, 3), block(9, 4, 11, 8, 4), block(12, 1, 14, 3, 2)],
    ladders=[{"at": [8, 5, 0], "to": [9, 5, 4]}],
)
CHARGERS = [GANGER, SCALER, FLYER, JUMPER]


def _setups() -> list:
    out = [
        build_setup(yaml.safe_load(Path(f"examples/games/crusade-game-{name}.yaml").read_text()))
        for name in ("skirmish", "battle", "sewers", "psykers")
    ]
    a = [put("Scaler", 1, 1), put("Flyer", 1, 8), put("Runner", 0, 4), put("Ganger", 4, 4, 3)]
    b = [put("Ganger", 10, 6, 4), put("Scaler", 15, 2), put("Flyer", 14, 8), put("Runner", 13, 2, 2)]
    return [*out, table_state(LEDGES, a, b, profiles=CHARGERS).setup]


@pytest.mark.slow
def test_random_games_leave_no_charger_short_of_its_target():
    # V CHARGE: the half move is made "before meleeing": a charger in its half move always has a
    # way on to its target, unless a roll (a jump, a ZOC melee, a snap shot) has come in between
    seen = 0
    for setup in _setups():
        for seed in range(10):
            dipped, stuck = _charging_game(setup, seed)
            assert stuck == 0, (setup.scenario.title, seed)
            seen += dipped
    assert seen > 0  # chargers did step into their half moves


@pytest.mark.slow
def test_a_sector_shut_to_the_charger_is_out_of_its_reach():
    # VI: a sector held by enemies alone is entered only within 3" of a forced entry, or by a roof
    # hatch, stairs or a catwalk ("you do not have to force entry"): the quick answer that no way
    # leads in is the search's answer, over a move longer than any
    setup = build_setup(yaml.safe_load(Path("examples/games/crusade-game-skirmish.yaml").read_text()))
    shut = 0
    for seed in range(3):
        rng, s = random.Random(seed), initial_state(setup)
        for _ in range(400):
            if s.ended:
                break
            if s.current_player() == CHANCE:
                outcomes, weights = zip(*s.chance_outcomes(), strict=True)
                s = s.apply(rng.choices(outcomes, weights)[0])
                continue
            if s.active >= 0 and not s.tokens[s.active].blip:
                for j, t in enumerate(s.tokens):
                    if t.side != s.tokens[s.active].side and t.alive and charge_way.shut_out(s, t.sq):
                        shut += 1
                        way = charge_way.least(s, charge.beside(s, j), t.sq, 60, False, False)
                        assert way == charge_way.FAR
            s = s.apply(rng.choice(s.legal_actions()))
    assert shut > 0
