"""Transport(X) in the game (transport.py): "may transport up to X Infantry models", embarking "by
moving into contact", disembarking with "a Walk action", deploying inside, and "If an Infantry unit
is within a transport when it is destroyed, then the unit takes D6 automatic hits, and any surviving
models must be placed within 6" of the transport." """

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from grimdice.engine.game import CHANCE
from grimdice.engine.playing import play_game, random_bot, replay_actions
from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.ai import ai_player
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy, play, replay
from grimdice.systems.onepage.game.deployment import ON_TABLE

RHINO = {
    "name": "Rhino",
    "quality": 4,
    "equipment": ["Machinegun"],
    "special_rules": ["Vehicle", "Transport(6)"],
}
SQUAD = {"name": "Squad", "size": 5, "quality": 4, "equipment": ["Assault Rifle"], "cost": 50}
MOB = {"name": "Mob", "size": 10, "quality": 5, "equipment": ["Pistol"], "cost": 60}
WALKER = {"name": "Dread", "quality": 3, "equipment": ["Dreadnought Fist"], "special_rules": ["Walker"]}
ENEMY = {"name": "Enemy", "size": 5, "quality": 5, "equipment": ["Assault Rifle"], "cost": 60}


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def setup_of(*units: dict) -> Setup:
    return Setup(
        (army_from_mapping(army("A", *units), "a"), army_from_mapping(army("B", ENEMY), "b")), Table()
    )


def test_deploying_inside_a_transport_respects_its_capacity() -> None:
    s = (
        GameState(setup_of(RHINO, SQUAD, dict(SQUAD, name="Squad 2"), MOB, WALKER))
        .apply(0)
        .apply(["side", "south"])
    )
    assert s.phase == "deploy" and s.todo == (0, 1, 2, 3, 4, 5)  # army A first, then B
    assert not [a for a in s.legal_actions() if a[0] == "embark"]  # no transport on the table yet
    s = s.apply(next(a for a in s.legal_actions() if a[1] == 0))  # the Rhino first
    # only Infantry units that fit; the Mob (10 models) never fits Transport(6), the Walker is no Infantry
    assert [a for a in s.legal_actions() if a[0] == "embark"] == [["embark", 1, 0], ["embark", 2, 0]]
    s = s.apply(["embark", 1, 0])
    assert s.place[1] == 0 and not s.on_table(1) and s.todo == (2, 3, 4, 5)
    # 5 aboard: the second squad (5 more) exceeds 6 and is no longer offered it
    assert not [a for a in s.legal_actions() if a[0] == "embark"]
    while s.phase == "deploy":
        s = s.apply(s.legal_actions()[0])
    assert s.phase == "play"
    assert 1 not in s.enemies(5) and 1 not in s.valid_targets(5)


def embarked_state() -> GameState:
    s = deploy(setup_of(RHINO, SQUAD), 0, 0)
    s = replace(s, anchors=((36.0, 10.0), (36.0, 16.0), (36.0, 40.0)), place=(ON_TABLE,) * 3)
    return s


def test_embark_by_moving_into_contact_and_disembark_with_a_walk() -> None:
    s = embarked_state()
    assert ["embark", 1, 0] in s.legal_actions()
    far = replace(s, anchors=((36.0, 10.0), (36.0, 30.0), (36.0, 46.0)))  # 20" away: beyond a Run
    assert ["embark", 1, 0] not in far.legal_actions()
    s = s.apply(["embark", 1, 0])
    assert s.place[1] == 0 and s.activated[1] and s.player == 1  # embarking ends the activation
    # next round: the squad may stay inside or Walk out
    s = replace(s, activated=(False, False, False), player=0)
    acts = [a for a in s.legal_actions() if a[1] == 1]
    assert acts[0] == ["idle", 1] and len(acts) > 1
    hull = np.array(s.anchors[0])
    for a in acts[1:]:
        assert a[0] == "disembark"
        assert np.hypot(a[2], a[3]) <= 6.0 + 1e-9  # a Walk from the transport's centre
        out = s.apply(a)
        assert out.on_table(1) and out.phase == "shoot" and out.active == 1  # and may shoot
        gaps = np.hypot(*(out.models(1) - hull).T) - s.setup.radii[0] - s.setup.radii[1]
        assert (gaps >= -1e-6).all()  # no base on the hull
    stay = s.apply(["idle", 1])
    assert stay.place[1] == 0 and stay.activated[1]


def test_a_destroyed_transport_hits_its_passengers_with_d6_and_unloads_them() -> None:
    s = replace(embarked_state(), place=(ON_TABLE, 0, ON_TABLE))
    wrecked = s.with_unit(0, replace(s.units[0], alive=(0,)))
    c = replace(wrecked, active=2, action="hold").end_activation()
    assert c.current_player() == CHANCE and c.pending == ("transport", 1, 0, ())
    # D6 automatic hits, each wounds on a failed 4+ block (1/2); 5 models
    want: dict[int, Fraction] = {}
    for h in range(1, 7):
        for w in range(h + 1):
            k = min(w, 5)
            want[k] = want.get(k, Fraction(0)) + Fraction(1, 6) * comb(h, w) * Fraction(1, 2) ** h
    got: dict[int, float] = {}
    for i, p in c.chance_outcomes():
        k = 5 - sum(c.combat_table()[i][0][0].alive)
        got[k] = got.get(k, 0.0) + p
    for k, p in want.items():
        assert got.get(k, 0.0) == pytest.approx(float(p), abs=1e-12)
    hull = np.array(s.anchors[0])
    for i, _ in c.chance_outcomes():
        after = c.apply(i)
        assert after.phase == "play" and after.place[1] == ON_TABLE
        if after.alive(1):  # "any surviving models must be placed within 6" of the transport"
            gaps = np.hypot(*(after.models(1) - hull).T) - s.setup.radii[0] - s.setup.radii[1]
            assert (gaps <= 6.0 + 1e-6).all() and (gaps >= 0).all()
            assert 1 in after.enemies(2)


def eager(state: GameState, rng: np.random.Generator) -> list:
    """A random player that embarks and disembarks whenever it may."""
    acts = state.legal_actions()
    keen = [a for a in acts if isinstance(a, list) and a[0] in ("embark", "disembark")]
    return random_bot(state, rng) if not keen else keen[int(rng.integers(len(keen)))]


def test_games_with_transports_replay_exactly() -> None:
    setup = setup_of(RHINO, SQUAD)
    kinds: set[str] = set()
    for seed in range(2):
        game = play_game(GameState(setup), [eager, eager], seed)
        again = replay_actions(GameState(setup), json.loads(json.dumps(game.actions)))
        assert again == game.states and again[-1].returns() == game.states[-1].returns()
        kinds |= {a[0] for a in game.actions if isinstance(a, list)}
    assert {"embark", "disembark"} <= kinds
    log = play(setup, 0, ("random", "random"))
    assert replay(json.loads(json.dumps(log)))["events"] == log["events"]
    # the AI picks a legal action for an embarked unit too
    embarked = deploy(setup, 0, 0)
    embarked = replace(
        embarked, place=(ON_TABLE, 0, ON_TABLE), anchors=((36.0, 10.0), (36.0, 10.0), (36.0, 40.0))
    )
    rng = np.random.default_rng(0)
    a = ai_player(embarked, rng)
    assert a in embarked.legal_actions()


def test_furious_units_may_disembark_by_an_assault_at_walk_distance() -> None:
    def state(squad: dict, enemy_y: float) -> GameState:
        s = deploy(setup_of(RHINO, squad), 0, 0)
        return replace(
            s, anchors=((36.0, 10.0), (36.0, 10.0), (36.0, enemy_y)), place=(ON_TABLE, 0, ON_TABLE)
        )

    furious = dict(SQUAD, special_rules=["Furious"])
    near = state(furious, 16.0)  # 6 - 1.26 = 4.74" from the squad's bases on the hull's centre
    assert ["assault", 1, 2] in near.legal_actions()
    c = near.apply(["assault", 1, 2])
    assert c.on_table(1) and c.pending[0] == "melee" and c.gap(1, 2) == pytest.approx(0.0, abs=1e-2)
    assert ["assault", 1, 2] not in state(furious, 24.0).legal_actions()  # over a Walk away
    assert ["assault", 1, 2] not in state(SQUAD, 16.0).legal_actions()  # not Furious
