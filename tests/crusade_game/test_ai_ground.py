"""Where the AI stands (:mod:`grimdice.systems.crusade.ai.ground`, ours): the enemy shots a position
is exposed to (II: "To fire at an opponent, you must have line of sight (LOS) and they may not be
hidden"; cover from darkness, V: "DARKNESS: Counts as cover"), the shots it gains there (heights
seeing over cover), and hiding (V HIDING: "If you are in cover, you may Hide ... Mark your model as
hidden"), on small hand-built boards where the right choice is clear."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from grimdice.engine.game import CHANCE
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.ai import ground
from grimdice.systems.crusade.ai.players import ai_player
from grimdice.systems.crusade.ai.worth import CONDITION_VALUE, HIT_VALUE
from grimdice.systems.crusade.damage import CONDITIONS, STUNNED
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState
from tests.crusade_game.helpers import MARINE, at, state
from tests.crusade_game.table_helpers import active, put, rect, table
from tests.crusade_game.test_table import GANGER, block, game

KNIFE = dict(MARINE, name="Knife", weapons=[MARINE["weapons"][1]])  # nothing to shoot with
HEAVY = {"name": "heavy bolter", "dice": "2R+1W", "kind": "ranged", "effects": []}
GUNNER = dict(MARINE, name="Gunner", weapons=[HEAVY])
BRUTE = dict(KNIFE, name="Brute")  # an enemy with nothing to shoot with
#: a corridor (y 1) with a dark alcove at (2, 2) below it, walled off from the rest of the corridor
ALCOVE = "\n".join(["###########", "#.........#", "#.:########", "###########"])
HALL = "\n".join(["#########", "#.......#", "#.......#", "#########"])


def _ai(s: GameState) -> tuple[Any, ...]:
    return ai_player(s, np.random.default_rng(0))


def test_a_model_ends_its_move_in_a_dark_alcove_out_of_a_heavy_weapons_sight():
    s = state(ALCOVE, [at("Knife", 2, 1)], [at("Gunner", 9, 1)], profiles=[KNIFE, GUNNER])
    s = altered(s.apply(("activate", 0)), moved=3, budget=1)  # one square of its move left
    board = s.setup.board
    # the corridor ahead is in the heavy bolter's sight; the alcove, a step back from it, is not
    assert board.sight((9, 1), (3, 1), {}) and not board.sight((9, 1), (2, 2), {})
    assert ground.threat(s, (3, 1)) > 2 * ground.STEP_WORTH and ground.threat(s, (2, 2)) == 0
    assert _ai(s) == ("move", 2, 2)


def test_darkness_is_cover_when_the_ai_steps_on_a_grid():
    # two steps as near the gunner, both in its sight: the dark one gives cover (+1 armour), on its
    # way as at its move's end
    s = state(
        HALL, [at("Knife", 1, 1)], [at("Gunner", 7, 2)], profiles=[KNIFE, GUNNER], grid={"dark": [[1, 2]]}
    ).apply(("activate", 0))
    board = s.setup.board
    assert board.sight((7, 2), (1, 2), {}) and board.sight((7, 2), (2, 1), {})
    assert board.cover((7, 2), (1, 2), {}) == "darkness" and board.cover((7, 2), (2, 1), {}) == "none"
    assert 0 < ground.threat(s, (1, 2)) < ground.threat(s, (2, 1))
    assert _ai(s) == ("move", 1, 2)
    assert _ai(altered(s, moved=3, budget=1)) == ("move", 1, 2)


def _holding(enemy: str, at_enemy: tuple[int, int] = (7, 2)) -> GameState:
    """A knife on its dark ``hold`` square (2, 1), an enemy at ``at_enemy``, the knife activated."""
    objectives = [{"name": "Post", "kind": "hold", "squares": [[2, 1]], "points": 1}]
    return state(
        HALL, [at("Knife", 2, 1)], [at(enemy, *at_enemy)], profiles=[KNIFE, GUNNER, BRUTE],
        grid={"dark": [[2, 1]]}, objectives=objectives,
    ).apply(("activate", 0))  # fmt: skip


def test_a_model_with_nothing_to_shoot_hides_from_a_gunner_that_sees_it():
    s = _holding("Gunner")
    assert ("hide",) in s.legal_actions() and s.setup.board.sight((7, 2), (2, 1), {})
    assert _ai(s) == ("hide",)
    assert s.apply(("hide",)).tokens[0].hidden


def test_a_model_nobody_could_shoot_does_not_hide():
    assert _ai(_holding("Brute")) == ("end",)  # no enemy with a ranged weapon
    stunned = _holding("Gunner").with_token(1, cond=STUNNED)  # VIII STUN: "may take no other actions"
    assert ground.threat(stunned, (2, 1)) == 0 and _ai(stunned) == ("end",)


def _expected_harm(attacker: dict[str, Any], defender: dict[str, Any], range_: int, cover: str) -> float:
    """The calculator's shot, weighed as the AI weighs a model's end states (a 1-hit model)."""
    bare = {k: v for k, v in attacker.items() if k != "move"}
    target = {k: v for k, v in defender.items() if k != "move"}
    sc = {
        "system": "crusade",
        "action": "shoot",
        "attacker": bare,
        "defender": target,
        "range": range_,
        "cover": cover,
    }
    end = calculate(sc).extra["end_state"]
    return sum(end[c] * CONDITION_VALUE[k] for k, c in enumerate(CONDITIONS)) + HIT_VALUE * end["killed"]


def test_the_risk_is_the_calculators_shots_of_the_enemies_that_see_the_position():
    s = state(
        HALL, [at("Knife", 1, 1)], [at("Gunner", 7, 2), at("Gunner", 7, 1)], profiles=[KNIFE, GUNNER],
        grid={"dark": [[1, 2]]},
    ).apply(("activate", 0))  # fmt: skip
    lit = 2 * _expected_harm(GUNNER, KNIFE, 5, "none")  # both gunners, 5 squares, no cover
    dark = 2 * _expected_harm(GUNNER, KNIFE, 6, "darkness")  # darkness counts as cover
    assert ground.threat(s, (2, 1)) == pytest.approx(lit, abs=1e-12)
    assert ground.threat(s, (1, 2)) == pytest.approx(dark, abs=1e-12)
    assert dark < lit
    one_down = s.with_token(2, cond=STUNNED)
    assert ground.threat(one_down, (2, 1)) == pytest.approx(lit / 2, abs=1e-12)


SNIPER = dict(
    GANGER, name="Sniper", weapons=[{"name": "long rifle", "dice": "2R+1W", "kind": "ranged", "effects": []}]
)
BLADE = dict(GANGER, name="Blade", weapons=[])
#: a 3" block with a tall ladder up from (4, 4); a 1" wall at x 8 in front of the enemy at (9, 4)
ROOF = table(
    terrain=[
        block(5, 4, 6, 5, 3),
        {"name": "low wall", "kind": "wall", "shape": rect(8, 1, 9, 7), "height": 1},
    ],
    ladders=[{"at": [4, 4, 0], "to": [5, 4, 3]}],
)


def test_a_sniper_climbs_to_a_roof_that_sees_over_the_cover():
    s = active(game(ROOF, [put("Sniper", 4, 4)], [put("Blade", 9, 4)], profiles=[SNIPER, BLADE]))
    board, enemy = s.setup.board, (9, 4, 0)
    # from the ground beside the block the wall hides part of the enemy; from the roof none of it
    assert board.cover((5, 5, 0), enemy, {}) == "front" and board.cover((5, 4, 3), enemy, {}) == "none"
    assert ground.gain(s, (5, 4, 3)) > ground.gain(s, (5, 5, 0)) > 0
    assert _ai(s) == ("ladder", 5, 4, 3)
    rng = np.random.default_rng(0)
    while s.active == 0 and not s.ended:  # the whole activation: up the ladder, then the shot
        if s.current_player() == CHANCE:
            s = s.apply(max(s.chance_outcomes(), key=lambda o: o[1])[0])
            continue
        a = ai_player(s, rng)
        if a[0] == "shoot":
            assert s.tokens[0].sq == (5, 4, 3)
            break
        s = s.apply(a)
    else:
        pytest.fail("the sniper did not shoot")


def test_a_model_whose_move_is_spent_hides_in_the_dark_rather_than_move_on_in_a_gunners_sight():
    s = state(
        HALL, [at("Knife", 1, 1)], [at("Gunner", 7, 2)], profiles=[KNIFE, GUNNER], grid={"dark": [[1, 1]]}
    ).apply(("activate", 0))
    spent = altered(s, moved=4, budget=0)  # its move spent, its action left
    assert ("extra",) in spent.legal_actions() and ground.threat(spent, (1, 1)) > 0
    assert _ai(spent) == ("hide",)
    calm = spent.with_token(1, cond=STUNNED)  # VIII STUN: no enemy could shoot it
    assert _ai(calm) == ("extra",)
