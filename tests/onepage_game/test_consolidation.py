"""Consolidation moves (consolidation.py) and melee hits on a Vehicle by facing (facing.py).

"If the defending unit was completely destroyed ... then the assaulting unit may move by up to 3".
If the defending unit was not completely destroyed, then the assaulting unit must move back by 1",
separating itself from the defending unit." / "If the Vehicle is hit in the front facing you must
roll two dice and pick the lowest result. If the Vehicle is hit in the side or you are not sure, then
only roll one die. If the Vehicle is hit in the rear facing you must roll two dice and pick the
highest result."
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from grimdice.engine.game import CHANCE
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.ai import ai_player
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy, play, replay
from grimdice.systems.onepage.game.consolidation import CONSOLIDATE, KIND
from grimdice.systems.onepage.game.facing import heading

BRUTES = {"name": "Brutes", "size": 5, "quality": 2, "equipment": ["Power Fist"], "cost": 50}
VICTIM = {"name": "Victim", "quality": 6, "equipment": ["Pistol"], "cost": 20}
BYSTANDER = {"name": "Bystander", "quality": 5, "equipment": ["Pistol"], "cost": 20}
TANK = {"name": "Tank", "quality": 4, "equipment": ["Pistol"], "special_rules": ["Vehicle", "Tough(12)"]}


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def state_of(
    a: list[dict], b: list[dict], anchors: list[tuple[float, float]], table: Table | None = None
) -> GameState:
    setup = Setup(
        (army_from_mapping(army("A", *a), "a"), army_from_mapping(army("B", *b), "b")), table or Table()
    )
    return replace(deploy(setup, 0, 0), anchors=tuple(anchors))


def melee(s: GameState, u: int, t: int) -> GameState:
    c = replace(s, player=s.setup.owner[u]).apply(["assault", u, t])
    assert c.current_player() == CHANCE and c.pending[0] == "melee"
    return c


def test_destroying_the_defender_offers_moves_up_to_3_inches_else_1_inch_back() -> None:
    s = melee(state_of([BRUTES], [VICTIM, BYSTANDER], [(36.0, 20.0), (36.0, 26.0), (50.0, 26.0)]), 0, 1)
    start = s.anchors[0]
    kinds = set()
    for i, _p in s.chance_outcomes():
        after = s.apply(i)
        brutes, victim = after.units[0], after.units[1]
        if brutes.destroyed:
            continue
        if victim.destroyed:
            kinds.add("destroyed")
            assert after.phase == KIND and after.current_player() == 0 and after.active == 0
            acts = after.legal_actions()
            assert acts[0] == [KIND, 0, 0.0, 0.0]  # "may move": staying is legal
            assert len(acts) > 1
            for a in acts:
                assert math.hypot(a[2], a[3]) <= CONSOLIDATE + 1e-9
                end = (after.anchors[0][0] + a[2], after.anchors[0][1] + a[3])
                assert after.placement_ok(0, after.anchors[0], end)[0]  # the other moves' checks
                moved = after.apply(a)
                assert moved.phase == "play" and moved.activated[0]
                assert moved.gap(0, 2) >= min(1.0, after.gap(0, 2)) - 1e-6  # never within 1" of others
            stay = after.apply(acts[0])
            assert stay.anchors[0] == after.anchors[0] and stay.phase == "play"
        else:
            kinds.add("alive")
            assert after.phase == "play" and after.activated[0]
            back = math.dist(after.anchors[0], s.anchors[0])
            assert back == pytest.approx(1.0, abs=2e-3)  # "must move back by 1""
            assert after.gap(0, 1) > s.gap(0, 1)  # "separating itself from the defending unit"
    assert kinds == {"destroyed", "alive"}
    assert start == s.anchors[0]


def destroyed_outcome(s: GameState) -> GameState:
    for i, _p in s.chance_outcomes():
        after = s.apply(i)
        if after.phase == KIND:
            return after
    raise AssertionError("no outcome destroys the defender")


def test_the_ai_consolidates_into_cover_and_the_state_round_trips() -> None:
    wood = Terrain(
        "wood", np.array([[30.0, 26.0], [44.0, 26.0], [44.0, 32.0], [30.0, 32.0]]), frozenset({"cover"})
    )
    s = melee(
        state_of(
            [BRUTES], [VICTIM, BYSTANDER], [(36.0, 20.0), (36.0, 26.0), (60.0, 44.0)], Table(terrain=(wood,))
        ),
        0,
        1,
    )
    c = destroyed_outcome(s)
    back = GameState.from_json(c.setup, json.loads(json.dumps(c.to_json())))
    assert back == c and back.legal_actions() == c.legal_actions()
    choice = ai_player(c, np.random.default_rng(0))
    assert choice in c.legal_actions() and choice != c.legal_actions()[0]
    after = c.apply(choice)
    assert not wood.contains(c.models(0)).any()
    assert wood.contains(after.models(0)).all()  # it moved into the wood
    assert math.hypot(choice[2], choice[3]) <= CONSOLIDATE + 1e-9


def test_a_consolidation_through_dangerous_terrain_rolls_for_it() -> None:
    mines = Terrain(
        "mines", np.array([[20.0, 17.0], [52.0, 17.0], [52.0, 40.0], [20.0, 40.0]]), frozenset({"dangerous"})
    )
    s = melee(state_of([BRUTES], [VICTIM], [(36.0, 12.0), (36.0, 17.0)], Table(terrain=(mines,))), 0, 1)
    c = destroyed_outcome(s)
    north = [a for a in c.legal_actions() if a[3] > 2.0]
    assert north
    d = c.apply(north[0])
    assert d.current_player() == CHANCE and d.pending[0] == "dangerous" and d.action == KIND
    for i, _p in d.chance_outcomes():
        assert d.apply(i).phase in ("play", "end")  # the rolls end the activation


def test_a_vehicle_consolidates_forwards_or_reverses_half() -> None:
    s = melee(state_of([dict(TANK, cost=100)], [VICTIM], [(36.0, 20.0), (36.0, 25.0)]), 0, 1)
    c = destroyed_outcome(s)
    h = heading(c, 0)
    for a in c.legal_actions()[1:]:
        length = math.hypot(a[2], a[3])
        off = abs((math.atan2(a[3], a[2]) - h + math.pi) % (2 * math.pi) - math.pi)
        assert off <= math.pi / 2 + 1e-6 or length <= CONSOLIDATE / 2 + 1e-6


def immobile_given_wounded(c: GameState, col: int) -> float:
    wounded = immobile = 0.0
    for i, p in c.chance_outcomes():
        st = c.combat_table()[i][0][col]
        if st.damage[0] and not st.destroyed:
            wounded += p
            immobile += p * st.immobile
    assert wounded > 0
    return immobile / wounded


@pytest.mark.parametrize(
    ("brutes_at", "face", "want"),
    [
        ((36.0, 31.0), "front", Fraction(1, 9)),  # lowest of two dice is 5+: (2/6)^2
        ((46.0, 24.0), "side", Fraction(1, 3)),  # one die
        ((36.0, 14.0), "rear", Fraction(5, 9)),  # highest of two dice is 5+: 1 - (4/6)^2
    ],
)
def test_melee_hits_on_a_vehicle_use_the_facing_the_assaulters_come_from(
    brutes_at: tuple[float, float], face: str, want: Fraction
) -> None:
    s = state_of([TANK], [dict(BRUTES, size=2)], [(36.0, 24.0), brutes_at])
    c = melee(s, 1, 0)
    assert c.pending[3][4] == face
    assert immobile_given_wounded(c, 1) == pytest.approx(float(want), abs=1e-12)


def test_an_assaulting_vehicle_turns_to_its_target_and_is_struck_in_front() -> None:
    s = state_of([TANK], [dict(BRUTES, size=2)], [(36.0, 24.0), (46.0, 30.0)])
    c = melee(s, 0, 1)
    assert c.pending[3][4] == "front"
    assert immobile_given_wounded(c, 0) == pytest.approx(1 / 9, abs=1e-12)
    tanks = state_of([TANK], [dict(TANK, name="Other")], [(36.0, 24.0), (46.0, 24.0)])
    both = melee(tanks, 0, 1)  # hits the other's side, is hit in front: one facing for both strikes
    assert both.pending[3][4] == "side"


def test_games_with_consolidations_replay_exactly() -> None:
    setup = Setup(
        (
            army_from_mapping(army("A", BRUTES, dict(BRUTES, name="More")), "a"),
            army_from_mapping(army("B", VICTIM, dict(VICTIM, name="V2"), BYSTANDER), "b"),
        ),
        Table(),
    )
    seen = 0
    for seed, players in ((1, ("ai", "random")), (2, ("random", "random"))):
        log = play(setup, seed, players)
        seen += sum(1 for e in log["events"] if e["phase"] == KIND)
        again = replay(json.loads(json.dumps(log)))
        assert again["events"] == log["events"] and again["scores"] == log["scores"]
        assert log == play(setup, seed, players)
    assert seen
