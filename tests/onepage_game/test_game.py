"""The One Page 40k game: rules of the turn sequence, movement, shooting, melee and scoring, the
combat laws against ``calculate()``, seeded play, exact replay and bad input."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from grimdice.dice import Dist
from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.engine.playing import sample
from grimdice.engine.table.bases import coherent
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.errors import ScenarioError
from grimdice.systems.base import calculate
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy, play, replay, states
from grimdice.systems.onepage.game.batch import GameJob, run_games
from grimdice.systems.onepage.game.setup import load_army_side
from tests.agreement import assert_agree

MARINES = "examples/armies/onepage-marines-army.yaml"
ORKS = "examples/armies/onepage-orks-army.yaml"


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


SHOOTERS = {"name": "Shooters", "size": 5, "quality": 4, "equipment": ["Assault Rifle"], "cost": 50}
TARGETS = {"name": "Targets", "size": 5, "quality": 5, "equipment": ["Hand Weapon"], "cost": 60}


def duel(a: dict, b: dict, table: Table | None = None, gap: float = 10.0) -> GameState:
    """Unit 0 (south) faces unit 1 (north), ``gap`` inches between the front ranks' centres."""
    setup = Setup(
        (army_from_mapping(army("A", a), "a"), army_from_mapping(army("B", b), "b")), table or Table()
    )
    s = deploy(setup, 0, 0)
    return replace(s, anchors=((36.0, 20.0), (36.0, 20.0 + gap)))


def models_law(s: GameState, unit: int, col: int) -> Dist:
    out: dict[int, float] = {}
    for i, p in s.chance_outcomes():
        k = s.setup.units[unit].size - s.combat_table()[i][0][col].models  # routed: removed from play
        out[k] = out.get(k, 0.0) + p
    return Dist.from_mapping(out)


def test_shooting_law_is_calculates_law_and_the_hand_fraction() -> None:
    s = duel(SHOOTERS, TARGETS)
    s = s.apply(["hold", 0])
    assert s.current_player() == 0 and s.phase == "shoot"
    assert ["shoot", 1] in s.legal_actions()
    c = s.apply(["shoot", 1])
    assert c.current_player() == CHANCE
    game = models_law(c, 1, 0)
    r = calculate(
        {
            "system": "onepage",
            "attack": "shooting",
            "attacker": SHOOTERS,
            "defender": TARGETS,
            "conditions": {"distance": 24, "in_range": 5, "action": "hold"},
        }
    )
    exact = r.stages["models_destroyed"]
    for k in range(6):
        assert game[k] == pytest.approx(exact[k], abs=1e-12)
    # 5 shots, hit 4+ (1/2), block 5+ fails 4/6: a model per shot with 1/3
    assert game.mean() == pytest.approx(float(Fraction(5, 3)), abs=1e-12)
    # sampling the chance node (as play() does) agrees with the exact law
    rng = np.random.default_rng(5)
    n = 3000
    counts: dict[int, float] = {}
    outs = c.chance_outcomes()
    for _ in range(n):
        k = 5 - c.apply(sample(outs, rng)).units[1].models
        counts[k] = counts.get(k, 0) + 1 / n
    assert_agree({"models": game}, {"models": Dist.from_mapping(counts)}, n)


def test_melee_law_is_calculates_law() -> None:
    s = duel(TARGETS, SHOOTERS, gap=6.0)
    acts = s.legal_actions()
    assert ["assault", 0, 1] in acts
    c = s.apply(["assault", 0, 1])
    assert c.current_player() == CHANCE
    assert c.gap(0, 1) == pytest.approx(0.0, abs=1e-2)  # the charge ends in base contact
    r = calculate({"system": "onepage", "attack": "melee", "attacker": TARGETS, "defender": SHOOTERS})
    got = models_law(c, 1, 1)
    for k in range(6):
        assert got[k] == pytest.approx(r.stages["models_destroyed"][k], abs=1e-12)
    # after the melee the survivors separate ("must move back by 1"")
    for i, _ in c.chance_outcomes():
        after = c.apply(i)
        if after.alive(0) and after.alive(1):
            assert after.gap(0, 1) >= 0.99


def test_out_of_range_and_blocked_sight_are_not_targets() -> None:
    s = duel(SHOOTERS, TARGETS, gap=40.0)  # Assault Rifle: 24"
    assert s.valid_targets(0) == []
    wall = Terrain(
        "ruins",
        np.array([[20.0, 24.0], [52.0, 24.0], [52.0, 26.0], [20.0, 26.0]]),
        frozenset({"blocks_sight"}),
    )
    s = duel(SHOOTERS, TARGETS, table=Table(terrain=(wall,)))
    assert s.valid_targets(0) == []
    crater = Terrain(
        "crater", np.array([[20.0, 24.0], [52.0, 24.0], [52.0, 26.0], [20.0, 26.0]]), frozenset({"cover"})
    )
    s = duel(SHOOTERS, TARGETS, table=Table(terrain=(crater,)))
    assert s.valid_targets(0) == [1] and s.shot_key(0, 1)[2] is True  # behind cover


def test_walk_and_run_distances_and_keeping_clear() -> None:
    s = duel(SHOOTERS, TARGETS, gap=20.0)
    for a in s.legal_actions():
        if a[0] in ("walk", "run"):
            length = float(np.hypot(a[2], a[3]))
            assert length <= (6.0 if a[0] == "walk" else 12.0) + 1e-6
            after = s.apply(a)
            assert after.gap(0, 1) >= 1.0 - 1e-6
    fast = dict(SHOOTERS, special_rules=["Fast"])
    s = duel(fast, TARGETS, gap=30.0)
    lengths = [float(np.hypot(a[2], a[3])) for a in s.legal_actions() if a[0] == "walk"]
    assert max(lengths) == pytest.approx(9.0, abs=1e-3)


def test_difficult_terrain_caps_the_move_and_strider_ignores_it() -> None:
    mud = Terrain(
        "mud", np.array([[0.0, 23.0], [72.0, 23.0], [72.0, 30.0], [0.0, 30.0]]), frozenset({"difficult"})
    )
    s = duel(SHOOTERS, TARGETS, table=Table(terrain=(mud,)), gap=26.0)
    north = [a for a in s.legal_actions() if a[0] == "run" and a[3] > 0 and abs(a[2]) < 1e-9]
    assert north and all(a[3] <= 6.0 + 1e-6 for a in north)
    strider = dict(SHOOTERS, special_rules=["Strider"])
    s = duel(strider, TARGETS, table=Table(terrain=(mud,)), gap=26.0)
    north = [a for a in s.legal_actions() if a[0] == "run" and a[3] > 0 and abs(a[2]) < 1e-9]
    assert max(a[3] for a in north) == pytest.approx(12.0)


def test_impassable_terrain_is_never_entered() -> None:
    rock = Terrain(
        "rock", np.array([[30.0, 22.0], [42.0, 22.0], [42.0, 26.0], [30.0, 26.0]]), frozenset({"impassable"})
    )
    s = duel(SHOOTERS, TARGETS, table=Table(terrain=(rock,)), gap=20.0)
    for a in s.legal_actions():
        if a[0] in ("walk", "run"):
            assert not s.apply(a).setup.table.pieces_at(s.apply(a).models(0), "impassable").any()


def test_pinned_unit_idles_and_recovers_and_scores() -> None:
    s = duel(SHOOTERS, TARGETS, gap=20.0)
    s = s.with_unit(0, replace(s.units[0], pinned=True))
    assert s.legal_actions() == [["idle", 0]]
    assert s.returns() == [0.0, 50.0]  # a pinned unit scores for the enemy
    s2 = s.apply(["idle", 0])
    assert not s2.units[0].pinned and s2.player == 1
    dead = s.with_unit(1, replace(s.units[1], alive=(0,)))
    assert dead.returns() == [60.0, 50.0]


def test_roll_off_deployment_and_turn_order() -> None:
    setup = Setup((load_army_side(MARINES), load_army_side(ORKS)), Table())
    s = GameState(setup)
    assert s.current_player() == CHANCE and s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    s = s.apply(1)  # army 2 wins the roll-off: chooses a side, deploys first, goes first
    assert s.current_player() == 1
    s = s.apply(["side", "north"])
    assert s.south == 0 and s.phase == "deploy" and s.player == 1  # the orks place their army first
    deciders = []
    while s.phase in ("deploy", "scout"):  # then the marines, then their Scouts
        deciders.append((s.phase, s.player))
        s = s.apply(s.legal_actions()[0])
    assert deciders == [("deploy", 1)] * 5 + [("deploy", 0)] * 3 + [("scout", 0)]
    assert s.phase == "power"  # the orks' Weirdboy: the round's power dice (psychic.py)
    s = s.apply(s.chance_outcomes()[0][0])
    assert s.phase == "play" and s.current_player() == 1
    for u in range(len(setup.units)):
        y = s.models(u)[:, 1]
        r = setup.radii[u]
        if setup.owner[u] == s.south:
            assert y.max() + r <= 12.0 + 1e-9
        else:
            assert y.min() - r >= 36.0 - 1e-9
        assert coherent(s.models(u), np.full(len(y), r))
    # alternate activations; the player that finishes first starts the next round
    seen = []
    while s.round == 1:
        if s.current_player() == CHANCE:
            s = s.apply(0)
            continue
        if s.phase == "play":
            seen.append(s.player)
        a = s.legal_actions()[0]  # hold, then no shot
        s = s.apply(a if s.phase == "play" else ["shoot", -1])
    n0, n1 = 4, 5  # marines field 4 units, orks 5
    assert seen[: 2 * n0] == [1, 0] * n0 and seen[2 * n0 :] == [1] * (n1 - n0)
    assert s.round == 2 and s.player == 0  # the marines finished activating first


def test_play_is_seeded_and_replays_exactly() -> None:
    setup = Setup((load_army_side(MARINES), load_army_side(ORKS)), Table())
    log = play(setup, 7, ("random", "random"))
    assert log == play(setup, 7, ("random", "random"))
    back = json.loads(json.dumps(log))
    again = replay(back)
    assert again["events"] == log["events"] and again["scores"] == log["scores"]
    end = states(back)[-1]
    assert end.current_player() == TERMINAL and end.round == 4
    for u in range(len(setup.units)):
        if end.alive(u):
            assert coherent(end.models(u), np.full(end.units[u].models, setup.radii[u]))
    tampered = dict(back, actions=[*back["actions"][:-3], ["walk", 0, 99.0, 0.0]])
    with pytest.raises(ScenarioError):
        states(tampered)


def test_batches_are_the_same_on_one_or_two_workers() -> None:
    job = GameJob((load_army_side(MARINES), load_army_side(ORKS)), Table(), ("random", "random"))
    one = run_games(job, 2, 3, workers=1)
    two = run_games(job, 2, 3, workers=2)
    assert one == two and one[0] != one[1]


def test_bad_armies_tables_and_deployments() -> None:
    with pytest.raises(ScenarioError, match="kind"):
        army_from_mapping({"system": "onepage", "units": [SHOOTERS]}, "a")
    with pytest.raises(ScenarioError, match="base"):
        army_from_mapping(army("A", dict(SHOOTERS, base=5)), "a")
    over = army("A", dict(SHOOTERS, cost=900))
    over["points"] = 750
    with pytest.raises(ScenarioError, match="exceeds"):
        army_from_mapping(over, "a")
    big = army("A", *[dict(SHOOTERS, name=f"S{i}", size=100, cost=1) for i in range(8)])
    setup = Setup((army_from_mapping(big, "a"), army_from_mapping(army("B", TARGETS), "b")), Table())
    with pytest.raises(ScenarioError, match="deployment"):
        GameState(setup).apply(0).apply(["side", "south"])
    with pytest.raises(ScenarioError, match="72"):
        Setup(setup.armies, Table(width=60.0))


def test_states_serialise_to_json_and_hash() -> None:
    setup = Setup((load_army_side(MARINES), load_army_side(ORKS)), Table())
    log = play(setup, 2, ("random", "random"))
    for s in states(log)[::7]:
        back = GameState.from_json(s.setup, json.loads(json.dumps(s.to_json())))
        assert back == s and hash(back) == hash(s)
        if back.current_player() >= 0:
            assert back.legal_actions() == s.legal_actions()


def test_a_log_of_another_version_is_refused_by_name() -> None:
    """A log of an earlier version (1: before consolidation, power dice and Limited weapons; 2: before
    the 1" move back was a full move; 3: before the assaulting models moved on one by one; 4: before
    Relentless split fire; 5: before whole bases along whole paths; 6: before each model fired a
    weapon in range of it; 7: before the players placed their units; 8: before the assaulting models
    were placed rank by rank; 9: before a large unit's block tried more directions and lengths; 10:
    before the random player drew a unit, a kind of action and an instance; 11: before an Assault
    took another clear line where the straight one was blocked; 12: before a disembarking unit kept 1"
    from every unit but its transport; 13: before a Walk or Run could go in two legs; 14: before the AI's
    count of a charge's strikers was kept by where the units stand; 15: before the AI estimated the
    strikers of the charges it imagines; 16: before an Assault could go round in two legs; 17: before
    the AI's melee units weighed the Run they lose in difficult terrain; 18: before the AI's exposure
    was capped at what a unit is worth; 19: before a unit could change to a column) would not replay to
    the same game:
    it is refused with the field and both versions named, not replayed wrongly."""
    from grimdice.systems.onepage.game.play import LOG_VERSION

    assert LOG_VERSION == 20
    for old in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19):
        with pytest.raises(ScenarioError) as err:
            states({"version": old, "setup": {}, "actions": []})
        assert err.value.field == "version"
        assert f"version {old};" in err.value.message and "version 20 only" in err.value.message
