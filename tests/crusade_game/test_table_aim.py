"""The AI contests a ``hold`` objective split between a building's two sectors (ours: its choices,
not rules): it goes for the enemies standing on the objective, through a forced entry (VI), rather
than standing by the sector's wall, and values a forced entry into their sector."""

from __future__ import annotations

import numpy as np

from grimdice.systems.crusade.ai import aim, objectives
from grimdice.systems.crusade.ai.players import ai_player, attack_value
from grimdice.systems.crusade.game import entry
from tests.crusade_game.table_helpers import active, put, rect, table, table_state
from tests.crusade_game.test_table import GANGER

KNIFE = dict(GANGER, name="Knife", weapons=[{"name": "knife", "dice": "1W", "kind": "melee"}])
SECTORS = [{"name": "west", "shape": rect(6, 2, 8, 6)}, {"name": "east", "shape": rect(8, 2, 10, 6)}]
HAB = {"name": "hab", "shape": rect(6, 2, 10, 6), "height": 4, "armoured": False, "sectors": SECTORS}
HOLD = {"name": "Hab", "kind": "hold", "squares": [[7, 3], [8, 3], [9, 3]], "points": 1}


def hab_game(a, b, hold=HOLD):
    return table_state(table(buildings=[HAB]), a, b, profiles=[KNIFE, GANGER], objectives=[hold])


def test_an_enemy_inside_a_sector_is_reached_from_beside_it_in_its_sector():
    # VI: no melee through walls nor across sector borders: the goals are the positions beside the
    # enemy in its own sector, not its cell
    s = hab_game([put("Knife", 7, 4)], [put("Ganger", 8, 4)])
    goals = set(aim.contacts(s, 0))
    board = s.setup.board
    assert (8, 4, 0) not in goals and (7, 4, 0) not in goals  # the wall between the sectors
    assert goals == {p for p in goals if board.indoors(p) == 1}
    assert {(8, 3, 0), (9, 5, 0), (9, 3, 0)} <= goals


def test_the_enemies_on_the_objective_are_the_goals_when_some_stand_there():
    s = hab_game([put("Knife", 7, 5)], [put("Ganger", 8, 3), put("Ganger", 11, 7)])
    goals = set(aim.contacts(s, 0))
    assert goals and all(max(abs(p[0] - 8), abs(p[1] - 3)) == 1 for p in goals)  # beside (8, 3)


def test_after_a_forced_entry_the_ai_steps_in_beside_the_enemy_holding_the_objective():
    # a friend already stands on the objective's west square: this one goes to fight
    s = active(hab_game([put("Knife", 7, 4), put("Knife", 7, 3)], [put("Ganger", 8, 3)]))
    assert not any(a[0] == "move" and a[1] == 8 for a in s.legal_actions())  # enemies alone: no way in
    s = s.apply(("force", 1, ""))  # a melee: base dice and the knife
    s = s.apply(("force", 1))  # made: a marker where the model stands
    moves = {a[1:] for a in s.legal_actions() if a[0] == "move"}
    assert (8, 4, 0) in moves
    step = ai_player(s, np.random.default_rng(0))
    assert step[0] == "move" and s.setup.board.indoors(step[1:]) == 1
    assert max(abs(step[1] - 8), abs(step[2] - 3)) == 1  # beside the enemy, in its sector


def test_a_forced_entry_to_contest_the_objective_outweighs_nothing_and_is_chosen():
    s = active(hab_game([put("Knife", 7, 4)], [put("Ganger", 8, 3)]))
    force = ("force", 1, "")  # a melee: base dice and the knife (it has no fail: nothing spent)
    assert force in s.legal_actions()
    assert aim.force_value(s, force) == aim.FORCE_WORTH * entry.chance(s, 1, "") > 0
    assert ai_player(s, np.random.default_rng(0)) == force
    empty = active(hab_game([put("Knife", 7, 4)], [put("Ganger", 8, 5)]))  # not on the objective
    assert aim.force_value(empty, force) == 0


def test_a_holder_leaves_a_contested_objective_only_when_a_friend_stays_on_it():
    board_squares = {(7, 3), (8, 3), (9, 3)}
    alone = hab_game([put("Knife", 7, 3)], [put("Ganger", 8, 3)])
    assert aim.keeps_hold(alone, 0, board_squares)
    two = hab_game([put("Knife", 7, 3), put("Knife", 6, 3)], [put("Ganger", 8, 3)])
    assert aim.keeps_hold(two, 0, board_squares)  # the friend is not on the objective's squares
    both = hab_game(
        [put("Knife", 7, 3), put("Knife", 7, 2)],
        [put("Ganger", 8, 3)],
        dict(HOLD, squares=[[7, 3], [7, 2], [8, 3]]),
    )
    assert not aim.keeps_hold(both, 0, {(7, 3), (7, 2), (8, 3)})
    uncontested = hab_game([put("Knife", 7, 3)], [put("Ganger", 11, 7)])
    assert aim.keeps_hold(uncontested, 0, board_squares)


def test_a_model_on_a_hold_square_does_not_shuffle_to_another():
    s = hab_game([put("Knife", 7, 3)], [put("Ganger", 11, 7)])
    goals = set(objectives.goals(s, 0, 0))
    assert (7, 3, 0) not in goals and (8, 3, 0) not in goals and (11, 7, 0) in goals


def test_the_ai_s_distances_follow_only_the_steps_it_takes():
    # a block 2" high in the way: the board's steps jump onto it (V JUMPING), the AI walks round
    crates = {"name": "crates", "kind": "block", "shape": rect(4, 0, 6, 7), "height": 2}
    s = table_state(
        table(terrain=[crates]), [put("Knife", 1, 3)], [put("Ganger", 10, 3)], profiles=[KNIFE, GANGER]
    )
    board = s.setup.board
    goal = [(10, 3, 0)]
    walk, any_step = aim.distances(s, goal), board.distances(goal)
    assert walk[(1, 3, 0)] > any_step[(1, 3, 0)]  # the jump onto the crates is no step of the AI's
    for p, d in walk.items():
        assert d >= any_step[p]
        if d:  # a step the AI takes leads one nearer
            nxt = [to for kind, to, _, _ in board.static_steps(p) if kind in aim.WALKS]
            assert min(walk.get(q, 10**6) for q in nxt) == d - 1


def test_far_from_the_objective_the_ai_hurries_rather_than_take_a_weak_shot():
    hold = dict(HOLD, squares=[[11, 6]])
    far = active(
        table_state(
            table(w=24),
            [put("Ganger", 0, 0)],
            [put("Ganger", 14, 0)],
            profiles=[KNIFE, GANGER],
            objectives=[hold],
        )
    )
    shots = [a for a in far.legal_actions() if a[0] == "shoot"]
    assert shots and 0 < attack_value(far, shots[0]) < aim.HURRY_WORTH
    assert aim.hurries(far, attack_value(far, shots[0]), far.legal_actions())
    first = ai_player(far, np.random.default_rng(0))  # no weak shot: a step towards the objective
    dist = aim.distances(far, [(11, 6)])
    assert first[0] == "move" and dist[first[1:]] < dist[far.tokens[0].sq]
    near = active(
        table_state(
            table(),
            [put("Ganger", 10, 6)],
            [put("Ganger", 5, 0)],
            profiles=[KNIFE, GANGER],
            objectives=[hold],
        )
    )
    value = attack_value(near, ("shoot", 1, "autogun"))
    assert not aim.hurries(near, value, near.legal_actions())
