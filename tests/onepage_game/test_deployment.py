"""Deep Strike and Scout in the game, from the text's sentences (deployment.py)."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from grimdice.engine.game import CHANCE
from grimdice.engine.playing import play_game, random_bot, replay_actions
from grimdice.engine.table.bases import Base, closest_distance
from grimdice.engine.table.terrain import Table
from grimdice.errors import RuleError
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, play, replay, states
from grimdice.systems.onepage.game.deployment import ON_TABLE, RESERVE, grid
from grimdice.systems.onepage.game.setup import MM
from grimdice.systems.onepage.movement import deep_strike_position, scout_position

LINE = {"name": "Line", "size": 5, "quality": 4, "equipment": ["Assault Rifle"], "cost": 50}
DROP = {"name": "Drop", "size": 3, "quality": 3, "equipment": ["Pistol"], "special_rules": ["Deep Strike"]}
SCOUT = {"name": "Scout", "size": 3, "quality": 4, "equipment": ["Rifle"], "special_rules": ["Scout"]}


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def start(a: list[dict], b: list[dict], winner: int = 0, **chosen: list) -> GameState:
    """Roll-off won by ``winner``, who takes the south edge; the units placed each at its first
    place offered (the choices ``chosen`` by unit name taken instead; ``[]``: stop at its decision),
    up to the Scouts."""
    setup = Setup((army_from_mapping(army("A", *a), "a"), army_from_mapping(army("B", *b), "b")), Table())
    s = GameState(setup).apply(winner).apply(["side", "south"])
    while s.phase == "deploy":
        acts = s.legal_actions()
        want = chosen.get(s.setup.units[acts[0][1]].name)
        if want == []:
            return s
        s = s.apply(want if want is not None else acts[0])
    return s


def bases(s: GameState, u: int, anchor: tuple[float, float] | None = None) -> list[Base]:
    return [Base(x, y, 2 * s.setup.radii[u] * MM) for x, y in s.models(u, anchor)]


def enemy_bases(s: GameState, u: int) -> list[Base]:
    return [b for v in s.enemies(u) for b in bases(s, v)]


def test_deep_strike_reserve_arrival_and_scatter() -> None:
    first = start([LINE, DROP], [LINE], Drop=[])
    # "You may choose not to deploy a unit with this special rule ... and instead keep it off the table"
    assert first.phase == "deploy" and first.current_player() == 0 and first.todo == (1, 2)
    assert first.legal_actions()[-1] == ["reserve", 1] and first.legal_actions()[0][:2] == ["place", 1]
    s = start([LINE, DROP], [LINE], Drop=["reserve", 1])
    assert s.phase == "play" and s.place[1] == RESERVE and not s.on_table(1)
    assert 1 not in s.enemies(2) and 1 not in s.ready(0)  # not a target, not activated in round 1
    # round 1: only the two Line units act, then "After round 1 you may roll one die at the
    # beginning of each round, and on a 4+ you may place the unit"
    while s.round == 1:
        s = s.apply(["hold", s.ready(s.player)[0]] if s.phase == "play" else ["shoot", -1])
    assert s.round == 2 and s.phase == "arrive" and s.current_player() == CHANCE
    assert s.chance_outcomes() == [(0, pytest.approx(0.5)), (1, pytest.approx(float(Fraction(3, 6))))]
    stay = s.apply(0)
    assert stay.phase == "play" and stay.place[1] == RESERVE
    s = s.apply(1)
    assert s.phase == "place" and s.current_player() == 0
    places = s.legal_actions()
    assert places
    for a in places:  # "anywhere on the table, over 12" away from enemy units"
        deep_strike_position(s.setup.units[1], bases(s, 1, (a[2], a[3])), enemy_bases(s, 1), s.round)
    # every grid point that passes movement.py's check is offered (open table; friends over 1")
    offered = {(a[2], a[3]) for a in places}
    friend = bases(s, 0)
    for g in grid():
        try:
            deep_strike_position(s.setup.units[1], bases(s, 1, g), enemy_bases(s, 1), s.round)
            ok = all(closest_distance(b, friend) >= 1.0 for b in bases(s, 1, g))
        except RuleError:
            ok = False
        assert (g in offered) == ok, g
    assert len(offered) < len(grid())
    s = s.apply(places[0])
    # "Then roll one die, and on a 1-2 the opponent may move the unit by up to 12""
    assert s.phase == "scatter_roll" and s.chance_outcomes()[1] == (1, pytest.approx(1 / 3))
    assert s.apply(0).phase == "play" and s.apply(0).on_table(1)
    s = s.apply(1)
    assert s.phase == "scatter" and s.current_player() == 1  # the opponent moves it
    moves = s.legal_actions()
    assert moves[0] == ["scatter", 1, *s.anchors[1]]  # it may stay
    x0, y0 = s.anchors[1]
    for a in moves:
        assert np.hypot(a[2] - x0, a[3] - y0) <= 12.0 + 1e-9
        deep_strike_position(s.setup.units[1], bases(s, 1, (a[2], a[3])), enemy_bases(s, 1), s.round)
    end = s.apply(moves[-1])
    assert end.phase == "play" and end.on_table(1) and 1 in end.ready(0) and 1 in end.enemies(2)


def test_scouts_deploy_last_over_12_from_enemies_and_roll_off() -> None:
    s = start([LINE, SCOUT], [LINE], winner=1)  # army B deploys first; only A has a Scout
    assert s.phase == "scout" and s.current_player() == 0 and s.todo == (1,)
    acts = s.legal_actions()
    # within 12" of its edge as any unit, or "deployed anywhere on the table over 12" away from enemy units"
    assert acts[0][:2] == ["place", 1] and {a[0] for a in acts} == {"place", "scout"}
    for a in acts:
        scout_position(s.setup.units[1], bases(s, 1, (a[2], a[3])), enemy_bases(s, 1))
    s2 = s.apply(acts[-1])
    assert s2.phase == "play" and s2.anchors[1] == (acts[-1][2], acts[-1][3]) and s2.player == 1
    # "If both players have units with this special rule they must roll-off"
    s = start([LINE, SCOUT], [SCOUT, LINE])
    assert s.phase == "scoutoff" and s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    b_first = s.apply(1)
    assert b_first.todo == (2, 1) and b_first.current_player() == 1
    assert s.apply(0).todo == (1, 2)
    # a Scout placed near the middle keeps later Scouts over 12" away from it
    mid = next(a for a in b_first.legal_actions() if a[0] == "scout" and a[3] > 20)
    after = b_first.apply(mid)
    for a in after.legal_actions():
        scout_position(after.setup.units[1], bases(after, 1, (a[2], a[3])), enemy_bases(after, 1))


def reserving(state: GameState, rng: np.random.Generator) -> list:
    """A random player that keeps its Deep Strike units in reserve."""
    acts = state.legal_actions()
    keep = [a for a in acts if isinstance(a, list) and a[0] == "reserve"]
    return keep[0] if keep else random_bot(state, rng)


def test_games_with_reserves_and_scouts_replay_exactly() -> None:
    setup = Setup(
        (
            army_from_mapping(army("A", LINE, DROP, SCOUT), "a"),
            army_from_mapping(army("B", LINE, SCOUT), "b"),
        ),
        Table(),
    )
    kinds: set[str] = set()
    for seed in range(10):  # seeded random games until a Scout's and a zone's places were both played
        if seed >= 2 and {"scout", "place"} <= kinds:
            break
        log = play(setup, seed, ("random", "random"))
        back = json.loads(json.dumps(log))
        assert replay(back)["events"] == log["events"]
        kinds |= {a[0] for a in log["actions"] if isinstance(a, list)}
        for st in states(back)[::5]:
            again = GameState.from_json(st.setup, json.loads(json.dumps(st.to_json())))
            assert again == st
    assert {"scout", "place"} <= kinds
    for seed in range(3):  # a player who keeps every Deep Strike unit in reserve: arrivals replay too
        game = play_game(GameState(setup), [reserving, reserving], seed)
        assert replay_actions(GameState(setup), json.loads(json.dumps(game.actions))) == game.states
        kinds |= {a[0] for a in game.actions if isinstance(a, list)}
        kinds |= {"arrived"} if any(s.phase == "scatter_roll" for s in game.states) else set()
    assert {"reserve", "arrived"} <= kinds
    ai = play(setup, 1, ("ai", "ai"))
    assert replay(json.loads(json.dumps(ai)))["scores"] == ai["scores"]
    assert all(p in (ON_TABLE, RESERVE) for p in states(ai)[-1].place)


def test_a_deployment_that_does_not_fit_names_the_terrain_no_model_may_stand_on_in_that_zone():
    """ "places all of his army within 12" of his table edge": the zone is y 0-12 (south) or 36-48
    (north); impassable and dangerous pieces (partly) in it are named, cover is not, a piece
    touching the other zone is not, and more than five are counted."""
    from grimdice.engine.table.terrain import Terrain
    from grimdice.errors import ScenarioError
    from grimdice.systems.onepage.game.deployment import zone_blockers

    def rect(name, x, y, w, h, *traits):
        return Terrain(name, np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]), frozenset(traits))

    table = Table(
        terrain=(
            rect("wood", 0, 0, 10, 10, "cover"),
            rect("pit", 20, 11.5, 4, 4, "dangerous"),  # 0.5" inside the south zone
            rect("crag", 40, 12.5, 4, 4, "impassable"),  # just outside it
            rect("wall", 50, 40, 4, 4, "impassable", "blocks_sight"),
        )
    )
    assert zone_blockers(table, True) == " (no model may stand on dangerous 'pit' there)"
    assert zone_blockers(table, False) == " (no model may stand on impassable 'wall' there)"
    assert zone_blockers(Table(terrain=table.terrain[:1]), True) == ""
    many = Table(terrain=tuple(rect(f"r{i}", 2 + 9 * i, 1, 8, 11, "impassable") for i in range(7)))
    assert zone_blockers(many, True).endswith("or impassable 'r4' and 2 more there)")
    # an army that is simply too large for an open table: no terrain named
    crowd = [dict(LINE, name=f"L{i}", size=100) for i in range(40)]
    with pytest.raises(ScenarioError) as err:
        start(crowd, [LINE])
    assert err.value.message.endswith('does not fit within 12" of the south edge')
