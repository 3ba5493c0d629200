"""Audit of issue #11 against the Beginner's Guide v2.21: the rules of the text as they act in the
game that no other test pinned down (each test quotes the sentence it checks; see the "What is
tested where" section of docs/onepage-game.md)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.engine.table.bases import coherent
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy, play, states
from grimdice.systems.onepage.game.moving import KEEP_CLEAR
from grimdice.systems.onepage.game.setup import GAP, MM, load_army_side

MARINES = "examples/armies/onepage-marines-army.yaml"
ORKS = "examples/armies/onepage-orks-army.yaml"
R = 32 / MM / 2  # an Infantry base's radius (32 mm)
STEP = 2 * R + GAP  # centre spacing in a rank
SHOOTERS = {"name": "Shooters", "size": 5, "quality": 4, "equipment": ["Assault Rifle"], "cost": 50}
TARGETS = {"name": "Targets", "size": 5, "quality": 5, "equipment": ["Hand Weapon"], "cost": 60}


def army(name: str, *units: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def rect(name: str, x0: float, y0: float, x1: float, y1: float, *traits: str, height: float = 0.0) -> Terrain:
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    return Terrain(name, corners, frozenset(traits), height)


def duel(a: dict[str, Any], b: dict[str, Any], *pieces: Terrain, gap: float = 10.0) -> GameState:
    """Unit 0 (south, a rank of 5 centred on x = 36 at y = 20) and unit 1 (north) with ``gap``
    inches between the two front ranks' centres; player 0 to act."""
    setup = Setup(
        (army_from_mapping(army("A", a), "a"), army_from_mapping(army("B", b), "b")),
        Table(terrain=tuple(pieces)),
    )
    s = deploy(setup, 0, 0)
    return replace(s, anchors=((36.0, 20.0), (36.0, 20.0 + gap)))


def at_gap(a: dict[str, Any], b: dict[str, Any], gap: float, *pieces: Terrain) -> GameState:
    """As :func:`duel`, with ``gap`` inches between the closest bases of the two units."""
    s = duel(a, b, *pieces, gap=gap + 2 * R)
    assert s.gap(0, 1) == pytest.approx(gap, abs=1e-9)
    return s


# ---------------------------------------------------------------------------- actions


@pytest.mark.parametrize(
    ("rules", "reach"),
    [([], 12.0), (["Fast"], 18.0)],  # "Assault – ... up to 12""; Fast: "+6" when using Run or Assault"
)
def test_an_assault_reaches_12_inches_and_fast_18(rules: list[str], reach: float) -> None:
    """ "If at least one model in the unit is within 12" of an enemy unit, and has a clear path to
    it, then that enemy is a valid target." """
    unit = dict(TARGETS, special_rules=rules)
    assert ["assault", 0, 1] in at_gap(unit, SHOOTERS, reach - 0.1).legal_actions()
    assert ["assault", 0, 1] not in at_gap(unit, SHOOTERS, reach + 0.1).legal_actions()


def test_an_assault_needs_a_clear_path_and_flying_has_one() -> None:
    """ "... and has a clear path to it"; Flying: "may move through other units and impassable
    terrain" (a rock wall across the whole table between the two units)."""
    wall = rect("rock", 0.0, 22.0, 72.0, 23.0, "impassable")
    assert ["assault", 0, 1] not in at_gap(TARGETS, SHOOTERS, 6.0, wall).legal_actions()
    flyer = dict(TARGETS, special_rules=["Flying"])
    assert ["assault", 0, 1] in at_gap(flyer, SHOOTERS, 6.0, wall).legal_actions()


def test_hold_does_not_move_walk_and_hold_shoot_run_does_not() -> None:
    """ "Hold – The unit may not move, and it may shoot. Walk – ... it may shoot after having moved.
    Run – ... it may not shoot at any point." """
    s = duel(SHOOTERS, TARGETS, gap=20.0)
    held = s.apply(["hold", 0])
    assert held.phase == "shoot" and held.anchors[0] == s.anchors[0] and ["shoot", 1] in held.legal_actions()
    walk = next(a for a in s.legal_actions() if a[0] == "walk")
    assert s.apply(walk).phase == "shoot"
    run = next(a for a in s.legal_actions() if a[0] == "run")
    after = s.apply(run)
    assert after.phase == "play" and after.player == 1 and after.activated[0]
    assert all(a[0] != "shoot" for a in after.legal_actions())


def test_flying_runs_over_impassable_terrain_others_may_not() -> None:
    """Impassable: "Units may not move into or through impassable terrain"; Flying: "may move through
    ... impassable terrain"."""
    wall = rect("rock", 0.0, 22.0, 72.0, 24.0, "impassable")

    def furthest_north(unit: dict[str, Any]) -> float:
        s = duel(unit, TARGETS, wall, gap=26.0)
        return max(a[3] for a in s.legal_actions() if a[0] == "run" and abs(a[2]) < 1e-9)

    assert furthest_north(SHOOTERS) < 2.0 - R  # stops short of the wall
    assert furthest_north(dict(SHOOTERS, special_rules=["Flying"])) == pytest.approx(12.0)


# ---------------------------------------------------------------------------- shooting


def test_only_the_models_that_see_the_target_shoot() -> None:
    """ "All models in a unit that have line of sight to an enemy unit and that have a weapon that is
    within range of that unit may fire" - a wall hides every target model from the westmost shooter
    only (every line from any part of its base to the targets enters the wall; the others' pass east
    of it)."""
    s = duel(SHOOTERS, TARGETS)
    assert s.shot_key(0, 1)[1] == 5
    wall = rect("wall", 0.0, 21.0, 34.2, 21.5, "blocks_sight")
    s = duel(SHOOTERS, TARGETS, wall)
    assert s.valid_targets(0) == [1]
    assert s.shot_key(0, 1)[1] == 4


def test_cover_needs_the_majority_of_the_target_models() -> None:
    """ "If the majority of models in a unit are within or behind a piece of cover terrain, then the
    unit counts as having the Armored special rule against shooting attacks": 2 of 5 target models in
    a crater are no cover, 3 of 5 are."""
    xs = 36.0 + STEP * np.arange(-2, 3)  # the target rank's centres, y = 30
    two = rect("crater", 31.0, 29.0, float(xs[1] + 0.5), 31.0, "cover")
    three = rect("crater", 31.0, 29.0, float(xs[2] + 0.5), 31.0, "cover")
    assert duel(SHOOTERS, TARGETS, two).shot_key(0, 1)[2] is False
    assert duel(SHOOTERS, TARGETS, three).shot_key(0, 1)[2] is True


def test_a_target_above_the_shooters_counts_as_in_cover() -> None:
    """Elevation: "If a unit is the target of a ranged attack that is from lower elevation, then it
    counts as being in Cover." - and not the other way round."""
    hill_north = rect("hill", 20.0, 28.0, 52.0, 34.0, height=3.0)
    hill_south = rect("hill", 20.0, 16.0, 52.0, 22.0, height=3.0)
    assert duel(SHOOTERS, TARGETS).shot_key(0, 1)[3] is False
    assert duel(SHOOTERS, TARGETS, hill_north).shot_key(0, 1)[3] is True
    assert duel(SHOOTERS, TARGETS, hill_south).shot_key(0, 1)[3] is False


def test_the_higher_unit_strikes_first_in_melee() -> None:
    """ "If a unit assaults an enemy unit from higher elevation, or is assaulted by a unit from lower
    elevation, then it gets the Strikes First special rule for that melee." (the key's first two
    entries: attacker higher, defender higher; the heights where the assault move ends)"""
    down = at_gap(TARGETS, SHOOTERS, 1.5, rect("hill", 20.0, 10.0, 72.0, 22.0, height=3.0))
    assert down.apply(["assault", 0, 1]).pending[3][:2] == (True, False)
    up = at_gap(TARGETS, SHOOTERS, 1.5, rect("hill", 20.0, 22.3, 72.0, 40.0, height=3.0))
    assert up.apply(["assault", 0, 1]).pending[3][:2] == (False, True)
    flat = at_gap(TARGETS, SHOOTERS, 1.5)
    assert flat.apply(["assault", 0, 1]).pending[3][:2] == (False, False)


# ---------------------------------------------------------------------------- melee, morale, score


def test_a_pinned_defender_strikes_last() -> None:
    """ "Pinned units have the Strikes Last special rule in melee for as long as they are pinned":
    one Quality 6+ model with a Hand Weapon assaults another. It has 2 + 1 (the assault bonus)
    attacks, the defender 2; an attack wounds with 1/6 x 5/6 = 5/36. Simultaneous strikes kill the
    assaulter with 1 - (31/36)^2; a pinned defender strikes only if it survived: (31/36)^3 x that."""
    one = {"name": "One", "quality": 6, "equipment": ["Hand Weapon"], "cost": 10}

    def assaulter_killed(pinned: bool) -> float:
        s = at_gap(one, dict(one, name="Other"), 2.0)
        s = s.with_unit(1, replace(s.units[1], pinned=pinned))
        c = s.apply(["assault", 0, 1])
        assert c.current_player() == CHANCE
        return sum(p for i, p in c.chance_outcomes() if sum(c.combat_table()[i][0][0].alive) == 0)

    miss = Fraction(31, 36)
    assert assaulter_killed(False) == pytest.approx(float(1 - miss**2), abs=1e-12)
    assert assaulter_killed(True) == pytest.approx(float(miss**3 * (1 - miss**2)), abs=1e-12)


def test_routed_units_leave_play_and_score_as_destroyed() -> None:
    """ "Units that rout ... flee the battle. The unit is removed from play as a casualty." and the
    score: "the point value of all enemy units they completely destroyed, or that are pinned"."""
    s = duel(SHOOTERS, TARGETS, gap=20.0)
    s = s.with_unit(1, replace(s.units[1], routed=True))  # models still standing, but routed
    assert not s.alive(1) and s.enemies(0) == [] and s.valid_targets(0) == []
    assert s.returns() == [60.0, 0.0]
    both = s.with_unit(0, replace(s.units[0], pinned=True))
    assert both.returns() == [60.0, 50.0] and both.winner() == 0
    assert both.with_unit(1, replace(s.units[1], routed=False)).winner() == 1


# ---------------------------------------------------------------------------- whole games


@pytest.fixture(scope="module")
def game() -> tuple[dict[str, Any], list[GameState]]:
    """One random-vs-random game of the bundled armies on a generated table (every action legal,
    so every rule of movement is exercised many times)."""
    from grimdice.engine.table.layout import generate_table

    setup = Setup((load_army_side(MARINES), load_army_side(ORKS)), generate_table(3))
    log = play(setup, 5, ("random", "random"))
    return log, states(log)


def test_every_unit_stays_coherent_all_game(game: tuple[dict[str, Any], list[GameState]]) -> None:
    """ "All members of the unit must remain within 1" of at least one other member at all times, and
    must remain within 12" of all other members at all times." """
    _, sts = game
    for s in sts[::3]:
        for u in range(len(s.units)):
            if s.anchors and s.alive(u) and s.on_table(u) and s.units[u].models > 1:
                pts = s.models(u)
                assert coherent(pts, np.full(len(pts), s.setup.radii[u])), (s.round, u)


def test_walks_and_runs_never_end_within_1_inch_of_another_unit(
    game: tuple[dict[str, Any], list[GameState]],
) -> None:
    """ "Units may not move within 1" of other units (friendly or enemy) when walking and running."
    (a unit already closer may not come closer)"""
    log, sts = game
    moves = 0
    for s, a, after in zip(sts, log["actions"], sts[1:], strict=False):
        if isinstance(a, list) and a and a[0] in ("walk", "run"):
            u = int(a[1])
            for v in range(len(s.units)):
                if v != u and s.alive(v) and s.on_table(v):
                    assert after.gap(u, v) >= min(KEEP_CLEAR, s.gap(u, v)) - 1e-6, (a, v)
            moves += 1
    assert moves > 10


def test_who_goes_first_each_round(game: tuple[dict[str, Any], list[GameState]]) -> None:
    """ "the player that won the deployment roll-off goes first" and "At the beginning of each new round
    the player that finished activating first in the previous round goes first." - recomputed from
    the order in which the players activated."""
    log, sts = game
    acting: dict[int, list[int]] = {}
    for s in sts:
        if s.phase == "play" and s.current_player() in (0, 1):
            acting.setdefault(s.round, []).append(s.current_player())
    assert sorted(acting) == [1, 2, 3, 4] and sts[-1].current_player() == TERMINAL
    assert acting[1][0] == log["actions"][0]  # the roll-off's outcome is the winner
    for r in (2, 3, 4):
        done = [max((i for i, p in enumerate(acting[r - 1]) if p == q), default=-1) for q in (0, 1)]
        finished_first = 0 if done[0] < done[1] else 1
        assert acting[r][0] == finished_first, r


def test_every_chance_node_is_a_law_and_every_decision_has_a_choice(
    game: tuple[dict[str, Any], list[GameState]],
) -> None:
    """The game-state interface: chance outcomes are probabilities summing to 1, a player to act has a
    legal action, and applying an action leaves the state it was applied to unchanged (clone-free)."""
    log, sts = game
    for s, a, after in zip(sts, log["actions"], sts[1:], strict=False):
        if s.current_player() == CHANCE:
            ps = [p for _, p in s.chance_outcomes()]
            assert min(ps) >= 0 and sum(ps) == pytest.approx(1.0, abs=1e-9)
        else:
            assert s.legal_actions() and a in s.legal_actions()
        before = s.to_json()
        assert s.apply(a) == after and s.to_json() == before


def test_an_assault_through_difficult_terrain_is_capped_at_walk_distance() -> None:
    """Difficult: "If any model of a unit moves through difficult terrain at any point of its move, the
    unit may not move more than its Walk action distance for that movement"; Strider: "treat
    difficult terrain as open terrain when moving"."""
    mud = rect("mud", 0.0, 22.0, 72.0, 23.0, "difficult")
    assert ["assault", 0, 1] in at_gap(TARGETS, SHOOTERS, 5.9, mud).legal_actions()
    assert ["assault", 0, 1] not in at_gap(TARGETS, SHOOTERS, 8.0, mud).legal_actions()
    strider = dict(TARGETS, special_rules=["Strider"])
    assert ["assault", 0, 1] in at_gap(strider, SHOOTERS, 8.0, mud).legal_actions()


def test_an_assault_does_not_end_on_a_friendly_unit() -> None:
    """A friendly unit stands between the assaulter and its target: the assault is either not offered
    (no clear path) or ends clear of the friendly unit's bases (no closer than 1" unless it already
    was)."""
    setup = Setup(
        (
            army_from_mapping(army("A", TARGETS, dict(SHOOTERS, name="Friends")), "a"),
            army_from_mapping(army("B", SHOOTERS), "b"),
        ),
        Table(),
    )
    s = deploy(setup, 0, 0)
    s = replace(s, anchors=((36.0, 20.0), (36.0, 28.5), (36.0, 30.0)))
    assert s.gap(0, 2) < 12.0 and s.gap(1, 0) > 1.0
    if ["assault", 0, 2] in s.legal_actions():
        after = s.apply(["assault", 0, 2])
        assert after.gap(0, 1) >= min(KEEP_CLEAR, s.gap(0, 1)) - 1e-6


def test_shaken_in_its_own_activation_lasts_through_the_next() -> None:
    """Shaken: "The Vehicle must re-roll successful hits until the end of its next activation." A
    Walker ("follow the Vehicle damage rules when taking wounds") walks across a minefield and is
    Shaken by the roll: it must still be Shaken when its activation ends (its next one is to come)."""
    walker = dict(SHOOTERS, name="Kan", size=1, special_rules=["Walker", "Tough(3)"], cost=100)
    mines = rect("mines", 0.0, 24.0, 72.0, 26.0, "dangerous")
    s = duel(walker, TARGETS, mines, gap=25.0)
    walk = next(a for a in s.legal_actions() if a[0] == "walk" and abs(a[2]) < 1e-9 and a[3] > 4)
    c = s.apply(walk)
    assert c.current_player() == CHANCE and c.pending[0] == "dangerous"
    shaken = next(i for i, _ in c.chance_outcomes() if c.combat_table()[i][0][0].shaken)
    after = c.apply(shaken).apply(["shoot", -1])
    assert after.activated[0] and after.units[0].shaken
