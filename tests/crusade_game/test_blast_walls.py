"""An area effect does not pass a building's walls (rules-crusade VI; reading ``blast_walls``).

VI: "You may not spread an area or line effect weapon's attack between two buildings or sectors,
nor between a building and targets inside." VIII EXPLODE: "make an attack from the weapon, centered
on the bearer (SFT=1"A, FT=2"A, HFT=3"A)"; X: "Area effect for hazards will hit the square they are
in, plus all 8 adjacent squares." II: "If your target is in cover and is not less than an inch
away, add 1 to their armor value"; VI: models inside buildings are "treated as in cover".
Dice faces: red 0 0 0 1 2 3, white 0 0 0 0 1 2; the fractions are counted by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from grimdice.engine.game import TERMINAL
from grimdice.systems.crusade.damage import NONE
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.fails import explosion_radius, explosion_shot
from grimdice.systems.crusade.game.many import cached_joint
from grimdice.systems.crusade.game.play import play_game
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import initial_state, invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER, at, scenario, state
from tests.crusade_game.table_helpers import active, put, table, table_scenario, table_state
from tests.crusade_game.test_table_sight import hab

RED = (0, 0, 0, 1, 2, 3)
BOMB = {"name": "bomb", "dice": "2R", "kind": "grenade", "effects": ["X", "A 2"]}
CHARGE = {"name": "charge", "dice": "2R", "kind": "ranged", "effects": ["A 2"]}


def _at_most(armour: int) -> Fraction:
    """P(2R totals at most ``armour``): the roll does no damage."""
    return Fraction(sum(a + b <= armour for a, b in product(RED, RED)), 36)


def _unharmed(s) -> Fraction:
    """P(the pending explosion roll leaves its model's condition as it is)."""
    law = cached_law(s.pending[4])
    return Fraction(sum(p for (ds, *_), p in law if ds[0] == NONE)).limit_denominator(1000)


def _blasts(s) -> list[int]:
    """The models the pending explosion rolls at: this one, then those queued."""
    return [s.pending[3], *(f[2] for f in s.pending[6] if f[0] == "explode")]


def test_a_failed_bomb_at_a_hab_does_not_reach_the_stealer_inside():
    # a bomb (2R, EXPLODE, AREA 2) forcing entry fails (both reds at 3): its attack is "centered on
    # the bearer"; the Stealer inside, 2" away, is behind the hab's wall ("nor between a building
    # and targets inside"); the marine outside beside the bomber is reached
    bomber = dict(MARINE, weapons=[*MARINE["weapons"], BOMB])
    s = active(
        table_state(
            table(buildings=[hab()]),
            [put("Marine", 3, 3), put("Guard", 3, 4)],
            [put("Stealer", 5, 5, 0)],
            profiles=[bomber, dict(MARINE, name="Guard"), STEALER],
        )
    )
    west = s.setup.board.indoors((5, 5, 0))
    tried = s.apply(("force", west, "bomb"))
    assert dict(tried.chance_outcomes())[("force", 1, "bomb")] == pytest.approx(1 / 36)
    boom = tried.apply(("force", 1, "bomb"))
    assert boom.pending[:4] == ("attack", "explode", 0, 0)
    assert _blasts(boom) == [0, 1]  # the bomber, the guard beside him; not the Stealer (token 2)
    # the bomber at the centre (no cover within 1"), armour 2: unharmed when 2R totals at most 2
    assert _unharmed(boom) == _at_most(2) == Fraction(22, 36)
    guard = boom.apply(("attack", 0))
    assert guard.pending[3] == 1
    data = json.loads(guard.pending[4])
    assert data["range"] == 1 and data["cover"] == "none"  # in the open, seen whole
    assert _unharmed(guard) == Fraction(22, 36)


def _inside(**kw):
    """A DETONATE bomber inside the hab's west sector at (5, 3); Stealers 2" from him: in the west
    sector, in the east sector, outside; its blast (2R, AREA 2) detonated."""
    bomber = dict(MARINE, name="Bomber", abilities=["DETONATE"], weapons=[CHARGE])
    stealers = [put("Stealer", 5, 5, 0), put("Stealer", 7, 3, 0), put("Stealer", 3, 3)]
    s = active(
        table_state(
            table(buildings=[hab()]), [put("Bomber", 5, 3, 0)], stealers, profiles=[bomber, STEALER], **kw
        )
    )
    s = s.apply(("detonate", "charge"))
    return s.apply(("detonate", 1))


def test_a_blast_inside_a_sector_stays_in_it_and_its_models_keep_their_cover():
    # "between two buildings or sectors, nor between a building and targets inside": the Stealers
    # in the east sector and outside, 2" away, are not reached; the one in the west sector is, and
    # inside a building it is "treated as in cover", 2" away ("not less than an inch"): armour
    # 1 + 1, unharmed when 2R totals at most 2 (without cover: at most 1, 15/36)
    boom = _inside()
    board = boom.setup.board
    assert [board.range((5, 3, 0), boom.tokens[k].sq) for k in (1, 2, 3)] == [2, 2, 2]
    assert _blasts(boom) == [0, 1]
    stealer = boom.apply(("attack", 0))
    data = json.loads(stealer.pending[4])
    assert data["range"] == 2 and data["cover"] == "full"
    assert _unharmed(stealer) == _at_most(2) == Fraction(22, 36)
    assert _at_most(1) == Fraction(15, 36)


LANE = """
############
#....#.....#
#....#.....#
#..........#
############
"""


def test_on_a_grid_a_blast_does_not_pass_a_wall():
    # a DETONATE bomber at (4, 1) with a 2-square blast: the Stealers at (6, 1) and (6, 2), 2
    # squares away behind the wall at (5, 1)-(5, 2), are not reached; those at (3, 3) and (4, 3)
    # are, nearest first, then in reading order
    bomber = dict(MARINE, name="Bomber", abilities=["DETONATE"], weapons=[CHARGE])
    foes = [at("Stealer", 6, 1), at("Stealer", 6, 2), at("Stealer", 3, 3), at("Stealer", 4, 3)]
    s = state(LANE, [at("Bomber", 4, 1)], foes, profiles=[bomber, STEALER])
    boom = s.apply(("activate", 0)).apply(("detonate", "charge")).apply(("detonate", 1))
    assert _blasts(boom) == [0, 3, 4]


CORNER = """
##########
#........#
#...#....#
#..#.....#
##########
"""


def test_on_a_grid_the_hazard_area_skips_a_corner_behind_two_walls():
    # X: the 3x3 squares around the target, and "Diagonal attacking is allowed if one of the two
    # pinching squares is open": around the target at (4, 3), the Stealer at (3, 2) is pinched by
    # the walls at (3, 3) and (4, 2), and not reached; the one at (5, 2) is pinched by (4, 2) and
    # the open (5, 3), and reached
    gun = {"name": "mortar", "dice": "2W+1R", "kind": "ranged", "effects": ["AREA 2", "RELOAD"]}
    foes = [at("Stealer", 4, 3), at("Stealer", 3, 2), at("Stealer", 5, 2)]
    s = state(CORNER, [at("Marine", 8, 3)], foes, profiles=[dict(MARINE, weapons=[gun]), STEALER])
    fired = s.apply(("activate", 0)).apply(("shoot", 1, "mortar"))
    assert fired.pending[1] == "many" and fired.pending[6] == (1, 3)
    # two independent rolls of 2W+1R, each a fail (two dice at their maximum) with chance `one`
    one = Fraction(1, 6) * Fraction(1, 6) * Fraction(5, 6) * 3 + Fraction(1, 6) ** 3
    law = cached_joint(fired.pending[4])
    assert sum(p for (_, _, failed, *_), p in law if failed) == pytest.approx(float(1 - (1 - one) ** 2))


def _walked(setup, seeds) -> tuple[int, int]:
    """Random games of ``setup``, replayed: every state sound, and every explosion's roll at a
    model within its radius of the bearer that the blast reaches (the bearer, or one the board's
    ``blast_reaches`` lets it reach); returns how many explosions were rolled and how many alive
    models within their radius they left out behind a wall."""
    rolled = left_out = 0
    for seed in seeds:
        log = play_game(setup, ("random", "random"), seed)
        s = initial_state(setup)
        for a in log["actions"]:
            s = s.apply(a)
            assert not invariant_errors(s)
            if s.pending[:2] != ("attack", "explode"):
                continue
            i, j, weapon = s.pending[2], s.pending[3], s.pending[5]
            board, centre = s.setup.board, s.tokens[i].sq
            radius = explosion_radius(s, i, weapon)
            for k in (j, *(f[2] for f in s.pending[6] if f[0] == "explode" and f[1] == i)):
                assert k == i or board.blast_reaches(centre, s.tokens[k].sq, s.doors())
                assert board.range(centre, s.tokens[k].sq) <= radius
            if j == i:
                rolled += 1
                queued = {j, *(f[2] for f in s.pending[6] if f[0] == "explode" and f[1] == i)}
                left_out += sum(
                    1
                    for k, t in enumerate(s.tokens)
                    if t.alive and not t.blip and k not in queued and board.range(centre, t.sq) <= radius
                )
        assert s.current_player() == TERMINAL
    return rolled, left_out


def test_random_table_games_keep_blasts_on_their_side_of_the_walls():
    bomber = dict(MARINE, name="Bomber", move=2, abilities=["DETONATE"], weapons=[CHARGE])
    a = [put("Bomber", 3, 3), put("Bomber", 3, 4), put("Bomber", 5, 3, 0)]
    b = [put("Stealer", 5, 5, 0), put("Stealer", 7, 3, 0), put("Stealer", 3, 6), put("Stealer", 8, 4, 0)]
    data = table_scenario(table(buildings=[hab()]), a, b, profiles=[bomber, dict(STEALER, move=2)], turns=3)
    rolled, left_out = _walked(build_setup(data), range(6))
    assert rolled and left_out  # the seeds' games blast, and a wall keeps some model out


def test_random_grid_games_keep_blasts_on_their_side_of_the_walls():
    bomber = dict(MARINE, name="Bomber", move=2, abilities=["DETONATE"], weapons=[CHARGE])
    a = [at("Bomber", 4, 1), at("Bomber", 4, 2)]
    b = [at("Stealer", 6, 1), at("Stealer", 6, 2), at("Stealer", 3, 3)]
    data = scenario(LANE, a, b, profiles=[bomber, dict(STEALER, move=2)], turns=3)
    rolled, left_out = _walked(build_setup(data), range(6))
    assert rolled and left_out


def test_a_malfunction_roll_at_the_melee_opponent_is_no_blast():
    # VIII MALFUNCTION: "roll the weapon dice vs. the user's armor (in melee, also roll against the
    # opponent)": no area, so the opponent beside the user inside the hab is rolled at range 0
    # without cover; the same model caught in an explosion there is 1" away, "treated as in cover"
    bomber = dict(MARINE, name="Bomber", weapons=[CHARGE])
    s = table_state(
        table(buildings=[hab()]),
        [put("Bomber", 5, 3, 0)],
        [put("Stealer", 5, 4, 0)],
        profiles=[bomber, STEALER],
    )
    melee = json.loads(explosion_shot(s, 0, "charge", 1, blast=False))
    assert melee["range"] == 0 and "cover" not in melee
    caught = json.loads(explosion_shot(s, 0, "charge", 1))
    assert caught["range"] == 1 and caught["cover"] == "full"
