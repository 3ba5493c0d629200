"""The players place their armies (deployment.py): "the winner gets to deploy first. He first chooses
one table side to deploy on, and then places all of his army within 12" of his table edge. Once he
is done the opposing player places all of his army within 12" of the opposite table edge."
The places offered, the order of the decisions, the AI's choices (ai/deploying.py), replays."""

from __future__ import annotations

import json

import numpy as np
import pytest
import shapely

from grimdice.engine.table.bases import Base, closest_distance
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.ai import deploying, threat
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, play, replay, states
from grimdice.systems.onepage.game.deployment import (
    ON_TABLE,
    UNPLACED,
    ZONE_MOST,
    placed,
    zone_grid,
    zone_positions,
)
from grimdice.systems.onepage.game.invariants import game_violations, zone_violations
from grimdice.systems.onepage.game.setup import MM

LINE = {"name": "Line", "size": 5, "quality": 4, "equipment": ["Assault Rifle"], "cost": 50}
MOB = {
    "name": "Mob",
    "size": 20,
    "quality": 5,
    "equipment": ["Pistol", "Hand Weapon"],
    "special_rules": ["Furious"],
    "cost": 120,
}
SEER = {"name": "Seer", "quality": 4, "equipment": ["Pistol"], "special_rules": ["Psyker(1)"], "cost": 40}
SCOUT = {"name": "Scout", "size": 3, "quality": 4, "equipment": ["Rifle"], "special_rules": ["Scout"]}
GUNS = {"name": "Guns", "size": 10, "quality": 4, "equipment": ["Assault Rifle"], "cost": 100}
LONG = {"name": "Long", "size": 5, "quality": 3, "equipment": ['Long Rifle (36", A2)'], "cost": 100}


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def rect(name: str, x: float, y: float, w: float, h: float, *traits: str) -> Terrain:
    return Terrain(
        name, np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=float), frozenset(traits)
    )


def setup_of(a: list[dict], b: list[dict], table: Table | None = None) -> Setup:
    return Setup(
        (army_from_mapping(army("A", *a), "a"), army_from_mapping(army("B", *b), "b")),
        table if table is not None else Table(),
    )


def start(a: list[dict], b: list[dict], table: Table | None = None, winner: int = 0) -> GameState:
    """Roll-off won by ``winner``; army A takes the south edge."""
    return GameState(setup_of(a, b, table)).apply(winner).apply(["side", "south" if winner == 0 else "north"])


def bases(s: GameState, u: int, anchor: tuple[float, float]) -> list[Base]:
    return [Base(x, y, 2 * s.setup.radii[u] * MM) for x, y in s.models(u, anchor)]


def test_places_are_within_12_inches_on_the_table_off_the_rock_and_clear_of_placed_units() -> None:
    """Every place offered has every base within 12" of the south edge, on the table, not over the
    impassable rock (shapely's distances) and over 1" from the unit already placed; every grid
    anchor that passes these checks is offered."""
    rock = rect("rock", 20, 2, 10, 6, "impassable")
    s = start([LINE, MOB], [LINE], Table(terrain=(rock,)))
    assert s.phase == "deploy" and s.current_player() == 0 and s.place == (UNPLACED,) * 3
    first = [a for a in s.legal_actions() if a[1] == 0]
    s = s.apply(first[len(first) // 2])
    acts = [a for a in s.legal_actions() if a[1] == 1]
    assert acts and all(a[0] == "place" for a in acts) and len(acts) <= ZONE_MOST
    poly = shapely.Polygon(rock.corners)
    friend = bases(s, 0, s.anchors[0])
    r = s.setup.radii[1]

    def fits(anchor: tuple[float, float]) -> bool:
        pts = s.models(1, anchor)
        return bool(
            (pts[:, 1] + r <= 12.0 + 1e-9).all()
            and (pts[:, 1] - r >= -1e-9).all()
            and ((pts[:, 0] - r >= -1e-9) & (pts[:, 0] + r <= 72.0 + 1e-9)).all()
            and all(poly.distance(shapely.Point(x, y)) >= r - 1e-9 for x, y in pts)
            and all(closest_distance(b, friend) >= 1.0 - 1e-9 for b in bases(s, 1, anchor))
        )

    offered = {(a[2], a[3]) for a in acts}
    grid = zone_grid(s, 1)
    assert all(fits(a) for a in offered)
    assert offered == {a for a in grid if fits(a)}
    over_rock = [a for a in grid if any(poly.distance(shapely.Point(x, y)) < r for x, y in s.models(1, a))]
    assert over_rock and not offered & set(over_rock)  # a place over impassable rock is not offered


def test_a_unit_that_fits_nowhere_is_refused_naming_deployment() -> None:
    """Rocks 5" apart across the south zone leave room for a lone model but not for a 20-model mob."""
    rocks = tuple(rect(f"r{i}", 5 * i + 4, 0, 1, 12, "impassable") for i in range(14))
    s = start([SEER], [LINE], Table(terrain=rocks))
    assert s.phase == "deploy" and [a[0] for a in s.legal_actions()] == ["place"] * len(s.legal_actions())
    with pytest.raises(ScenarioError) as err:
        start([SEER, MOB], [LINE], Table(terrain=rocks))
    assert (
        err.value.field == "deployment" and 'does not fit within 12" of the south edge' in err.value.message
    )


def test_a_unit_left_without_room_by_its_players_places_stays_out_of_the_battle() -> None:
    """A gap of 20" between two walls: the automatic layout fits both mobs side by side, but a mob
    placed in the middle leaves the other none; it is left out (never on the table, never activated,
    scoring nothing)."""
    walls = (rect("w", 0, 0, 26, 12, "impassable"), rect("e", 46, 0, 26, 12, "impassable"))
    s = start([MOB, dict(MOB, name="Mob 2")], [LINE], Table(terrain=walls))
    middle = min((a for a in s.legal_actions() if a[1] == 0), key=lambda a: abs(a[2] - 36.0))
    s = s.apply(middle)
    assert s.todo == (2,) and s.player == 1  # the other mob could go nowhere: left out
    s = s.apply(s.legal_actions()[0])
    assert s.phase == "play" and s.place[1] == UNPLACED and not s.on_table(1)
    assert 1 not in s.ready(0) and 1 not in s.enemies(2) and s.returns() == [0.0, 0.0]


def test_the_winner_places_all_his_army_one_unit_at_a_time_then_the_other_then_the_scouts() -> None:
    """The roll-off winner (army B, north) places each of his units in the order he chooses, then
    army A, who sees B's army; Scouts last, anywhere over 12" from the enemy."""
    s = start([LINE, SCOUT, GUNS], [LINE, SEER], winner=1)
    seen = []
    while s.phase in ("deploy", "scout"):
        acts = s.legal_actions()
        units = {a[1] for a in acts}
        assert all(s.setup.owner[u] == s.player for u in units)
        seen.append((s.phase, s.player, sorted(units)))
        pick = acts[-1]  # the last unit offered first: the player chooses the order
        if s.phase == "deploy":
            assert pick[0] == "place"
        s = s.apply(pick)
        if pick[0] == "place":
            assert zone_violations(s, pick[1]) == []
    assert seen == [
        ("deploy", 1, [3, 4]),
        ("deploy", 1, [3]),
        ("deploy", 0, [0, 2]),  # B's army stands on the table, and A's Scouts wait
        ("deploy", 0, [0]),
        ("scout", 0, [1]),
    ]
    assert s.phase == "power" and all(p == ON_TABLE for p in s.place)  # B's Seer: the power dice, then play


def replayed(players: tuple[str, str], seed: int) -> None:
    """A whole game replays to the same events and scores, breaks no invariant (deployment zone
    included), and its states read back from JSON equal."""
    wall = rect("wall", 30, 4, 8, 2, "impassable", "blocks_sight")
    setup = setup_of([LINE, SCOUT, GUNS, SEER], [MOB, LINE], Table(terrain=(wall,)))
    log = play(setup, seed, players)
    back = json.loads(json.dumps(log))
    again = replay(back)
    assert again["events"] == log["events"] and again["scores"] == log["scores"]
    assert again["violations"] == []
    sts = states(back)
    assert game_violations(sts, back["actions"]) == []
    deployed = [a for a in back["actions"] if isinstance(a, list) and a[0] in ("place", "scout", "reserve")]
    assert len(deployed) >= len(setup.units) - 1
    for st in sts[:12]:
        assert GameState.from_json(st.setup, json.loads(json.dumps(st.to_json()))) == st


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_replay_exactly_with_every_invariant_kept(seed: int) -> None:
    replayed(("random", "random"), seed)


@pytest.mark.slow
def test_an_ai_game_replays_exactly_with_every_invariant_kept() -> None:
    replayed(("ai", "random"), 3)


def hiding_table() -> Table:
    """A sight-blocking wall across the south zone's west: a lone model behind it (south of it)
    is hidden from the north zone; the east is open."""
    return Table(terrain=(rect("wall", 2, 7, 28, 2, "impassable", "blocks_sight"),))


def test_the_ai_hides_a_fragile_unit_behind_a_wall_from_the_enemy() -> None:
    """B (north) has deployed its guns; A places its Seer: behind the wall, or in the open. The AI
    takes the hidden place whichever is listed first, and it still does with the zone's sight left
    out: the enemy's threat there (threat.exposure) alone hides it."""
    s = start([SEER], [LONG, dict(LONG, name="Long 2")], hiding_table(), winner=1)
    while s.player == 1:
        s = s.apply(s.legal_actions()[len(s.legal_actions()) // 2])
    acts = s.legal_actions()
    hidden = next(a for a in acts if 6 <= a[2] <= 22 and a[3] < 6)
    open_ = next(a for a in acts if a[2] >= 40 and a[3] < 6)
    exposed = threat.exposure(placed(s, 0, open_[2], open_[3]), 0)
    assert exposed > 0 and threat.exposure(placed(s, 0, hidden[2], hidden[3]), 0) == 0
    assert deploying.deploy_choice(s, [open_, hidden]) == hidden
    assert deploying.deploy_choice(s, [hidden, open_]) == hidden
    assert deploying.deploy_choice(s, acts) in [a for a in acts if a[2] <= 30 and a[3] < 7]
    original = deploying.HIDE
    try:
        deploying.HIDE = 0.0  # the zone's sight left out: the open place is the better but for the threat
        before = deploying.values(s, 0, [(open_[2], open_[3]), (hidden[2], hidden[3])])
        assert before[0] > before[1]
        assert deploying.deploy_choice(s, [open_, hidden]) == hidden
    finally:
        deploying.HIDE = original


def test_the_first_player_hides_a_fragile_unit_from_the_enemy_zone() -> None:
    """No enemy stands yet: the AI reads the enemy's zone's sight past the wall."""
    s = start([SEER, LINE], [GUNS], hiding_table())
    acts = [a for a in s.legal_actions() if a[1] == 0]
    assert deploying.deploy_choice(s, s.legal_actions())[1] == 0  # the fragile unit first
    choice = deploying.deploy_choice(s, acts)
    sight = deploying.zone_sight(s, 0, [(a[2], a[3]) for a in acts])
    assert sight.min() == 0.0 < sight.max()
    assert deploying.zone_sight(s, 0, [(choice[2], choice[3])])[0] == 0.0


def test_the_ai_puts_shooting_units_in_cover_and_melee_units_forward() -> None:
    wood = rect("wood", 40, 0, 14, 12, "cover")
    s = start([GUNS, MOB], [LINE], Table(terrain=(wood,)))
    assert deploying.role(s, 0) == "shooting" and deploying.role(s, 1) == "melee"
    gun = deploying.deploy_choice(s, [a for a in s.legal_actions() if a[1] == 0])
    assert 40 <= gun[2] <= 54  # in the wood
    s = s.apply(gun)
    mob = deploying.deploy_choice(s, s.legal_actions())
    front = max(a[3] for a in s.legal_actions())
    assert mob[3] == front  # the front row, nearest the enemy


def test_zone_positions_are_bounded_on_an_open_table() -> None:
    s = start([SEER], [LINE])
    assert 0 < len(zone_positions(s, 0)) <= ZONE_MOST


def test_has_place_answers_whether_the_zone_offers_a_place() -> None:
    """``has_place`` (a few anchors tested first, then the rest) says whether ``zone_positions`` is
    not empty, computed afresh each time: at every deployment step of a game where a friendly block
    fills the west of the zone (the first anchors tested are taken, a place is further east), and
    where two walls leave room for one mob only (none for the other)."""
    from grimdice.systems.onepage.game.cache import MEMO_ATTR
    from grimdice.systems.onepage.game.deployment import has_place

    def afresh(s: GameState, u: int) -> tuple[bool, bool]:
        s.setup.__dict__.pop(MEMO_ATTR, None)
        got = has_place(s, u)
        s.setup.__dict__.pop(MEMO_ATTR, None)
        return got, bool(zone_positions(s, u))

    s = start([MOB, LINE, GUNS, SEER], [LINE, MOB])
    west = min((a for a in s.legal_actions() if a[1] == 0), key=lambda a: (a[3], a[2]))
    s = s.apply(west)
    seen = []
    while s.phase == "deploy":
        for u in s.todo:
            got, want = afresh(s, u)
            assert got == want
            seen.append(got)
        s = s.apply(s.legal_actions()[-1])
    walls = (rect("w", 0, 0, 26, 12, "impassable"), rect("e", 46, 0, 26, 12, "impassable"))
    s = start([MOB, dict(MOB, name="Mob 2")], [LINE], Table(terrain=walls))
    s = s.apply(min((a for a in s.legal_actions() if a[1] == 0), key=lambda a: abs(a[2] - 36.0)))
    assert afresh(s, 1) == (False, False)
    assert all(seen) and len(seen) >= 8
