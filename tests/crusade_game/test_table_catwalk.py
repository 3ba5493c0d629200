"""VI: "You may not melee through walls (exception: models on catwalks may melee a blocking model)",
"You may not melee through walls unless from a catwalk" (reading ``catwalk_melee``), on hand-built
tables: a catwalk beside a building's wall."""

from __future__ import annotations

from grimdice.engine.game import CHANCE
from grimdice.systems.crusade.game import catwalk, situation
from grimdice.systems.crusade.game.flight import steps_of
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.rules import adjacent_enemies
from tests.crusade_game.table_helpers import active, put, rect, table
from tests.crusade_game.test_table import GANGER, game

HAB = {"name": "hab", "shape": rect(6, 2, 10, 6), "height": 4, "armoured": False}


def walk(height=3):
    """A catwalk along x 3-5 on row 2, its east end (5, 2) touching the hab's wall at (6, 2)."""
    return {"name": "gantry", "kind": "catwalk", "shape": rect(3, 2, 6, 3), "height": height}


def board(height=3):
    return table(terrain=[walk(height)], buildings=[HAB])


def melees(s):
    return {a[1] for a in s.legal_actions() if a[0] == "melee"}


def test_a_model_on_a_catwalk_melees_the_enemy_blocking_its_way_through_the_wall():
    s = active(game(board(), [put("Ganger", 5, 2, 3)], [put("Ganger", 6, 2)]))
    b = s.setup.board
    me, enemy = s.tokens[0].sq, s.tokens[1].sq
    assert catwalk.on_catwalk(b, me) and b.indoors(enemy) == 0
    assert not b.adjacent(me, enemy, {})  # IV: a wall between them, 3" apart
    assert ("move", *enemy) in {(k, *to) for k, to, _, _ in b.static_steps(me)}  # its way in: a 3" drop
    assert catwalk.blockers(s, 0) == [1] and melees(s) == {1}
    # the corner cell touching the wall is a way in too
    corner = active(game(board(), [put("Ganger", 5, 2, 3)], [put("Ganger", 6, 3)]))
    assert melees(corner) == {1}


def test_the_melee_from_the_catwalk_is_the_calculators_melee():
    s = active(game(board(), [put("Ganger", 5, 2, 3)], [put("Ganger", 6, 2)]))
    after = s.apply(("melee", 1))
    assert after.current_player() == CHANCE
    assert after.pending[0] == "attack" and after.pending[4] == situation.melee(s, 0, 1, 1)


def test_no_melee_through_the_wall_from_the_ground_nor_from_inside():
    # VI: "You may not melee through walls" but from a catwalk: under the catwalk on the ground
    under = active(game(board(), [put("Ganger", 5, 2, 0)], [put("Ganger", 6, 2)]))
    assert not catwalk.on_catwalk(under.setup.board, under.tokens[0].sq)
    assert melees(under) == set() and catwalk.blockers(under, 0) == []
    # the model inside may not melee out at the catwalk model (it is not on a catwalk)
    inside = active(game(board(), [put("Ganger", 6, 2)], [put("Ganger", 5, 2, 3)]))
    assert melees(inside) == set() and adjacent_enemies(inside, 0) == []


def test_only_the_models_where_a_step_lands_block_it():
    # an enemy inside two cells from the catwalk's end blocks nothing
    far = active(game(board(), [put("Ganger", 5, 2, 3)], [put("Ganger", 7, 2)]))
    assert melees(far) == set()
    # a catwalk in the middle of its length does not touch the wall
    mid = active(game(board(), [put("Ganger", 4, 2, 3)], [put("Ganger", 6, 2)]))
    assert melees(mid) == set()


def test_a_high_catwalk_blocked_below_a_drop_of_4_or_more():
    # V JUMPING: down 4" or more is a fall or a hang and drop: still the model's way in
    s = active(game(board(height=6), [put("Ganger", 5, 2, 6)], [put("Ganger", 6, 2)]))
    kinds = {k for k, to, _, _ in s.setup.board.static_steps(s.tokens[0].sq) if to == s.tokens[1].sq}
    assert kinds == {"fall", "hang"}
    assert melees(s) == {1}


def test_a_destroyed_catwalk_is_no_catwalk():
    s = game(board(), [put("Ganger", 5, 2, 3)], [put("Ganger", 6, 2)])
    ruined = s.setup.with_ruins(frozenset({-2})).board  # the first piece destroyed (VI)
    assert not catwalk.on_catwalk(ruined, (5, 2, 3)) and not catwalk.on_catwalk(ruined, (5, 2, 0))


def test_a_climber_s_climb_down_off_the_catwalk_is_a_way_in():
    # IX CLIMB: "May climb up or down any surface as part of your move": the steps the game offers
    # a climber on a 6" catwalk include its climb down into the hab, beside its fall and hang
    climber = dict(GANGER, name="Climber", abilities=["CLIMB"])
    s = active(
        game(board(height=6), [put("Climber", 5, 2, 6)], [put("Ganger", 6, 2)], profiles=[GANGER, climber])
    )
    ways = catwalk.ways_in(s, 0)
    assert s.tokens[1].sq in ways and melees(s) == {1}
    alone = active(game(board(height=6), [put("Climber", 5, 2, 6)], profiles=[GANGER, climber]))
    offered = {to for kind, to, _ in steps_of(alone) if kind == "climb"}
    assert {(6, 2, 0), (6, 3, 0)} <= offered and {(6, 2, 0), (6, 3, 0)} <= ways


def test_a_big_model_on_a_catwalk_is_blocked_only_at_a_forced_entry():
    # IX BIG: "They may only enter a building directly through a Forced Entry marker": off the
    # catwalk it has no way into the hab, so no model inside blocks it
    ogryn = dict(GANGER, name="Ogryn", abilities=["BIG"])
    s = active(game(board(), [put("Ogryn", 5, 2, 3)], [put("Ganger", 6, 2)], profiles=[GANGER, ogryn]))
    assert catwalk.blockers(s, 0) == [] and melees(s) == set()
    # a forced entry made from where it stands: its way in, and the enemy on it blocks it
    forced = altered(s, breaches=((s.tokens[0].sq, s.setup.board.indoors(s.tokens[1].sq)),))
    assert catwalk.blockers(forced, 0) == [1] and melees(forced) == {1}
