"""An Assault in two legs (``game/charge_legs.py``): where every straight line to the target is
blocked, the block goes round through one waypoint, each leg checked with whole bases, ending in
base contact; logged, replayed and checked by the invariants."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from grimdice.engine.table.layout import generate_table
from grimdice.systems.onepage.game import GameState, charge_legs, charge_paths, legs, moving
from grimdice.systems.onepage.game.invariants import game_violations, violations
from grimdice.systems.onepage.game.play import play, replay
from grimdice.systems.onepage.game.setup import Setup, load_army_side
from tests.onepage_game.test_game import TARGETS
from tests.onepage_game.test_table_legality import GUARD, POST, rect, state_of

ROOT = Path(__file__).resolve().parents[2]
BOYZ = dict(TARGETS, name="Boyz", special_rules=["Furious"])  # five models in one 7" row
# a wall 8" wide and 3" in front of the mob's row (32.5"-39.5" across): every line from a model of
# the mob to the post at (37, 14.5), and every line turned off it, meets the wall
WALL = rect("wall", 30.0, 11.0, 38.0, 12.0, "impassable")
MOB_AT, POST_AT = (36.0, 8.0), (37.0, 14.5)


def assault_of(s: GameState) -> list:
    """The one Assault action of ``s``."""
    return next(a for a in s.legal_actions() if a[0] == "assault")


def test_a_mob_blocked_by_a_wall_goes_round_in_two_legs_into_base_contact() -> None:
    s = state_of([BOYZ], [POST], [MOB_AT, POST_AT], (WALL,))
    direct = moving.direct_vector(s, 0, 1)
    assert not charge_paths.clear(s, 0, 1, direct)
    assert not any(charge_paths.clear(s, 0, 1, m) for m in charge_paths.alternatives(s, 0, 1))
    acts = [a for a in s.legal_actions() if a[0] == "assault"]
    assert len(acts) == 1 and len(acts[0]) == 5  # ["assault", 0, 1, wx, wy]
    a = acts[0]
    (wx, wy), (dx, dy) = legs.waypoint(a), s.charge_vector(0, 1)
    assert math.hypot(wx, wy) + math.hypot(dx - wx, dy - wy) <= 12.0 + 1e-6  # within the Assault
    after = s.apply(a)
    assert after.phase == "combat" and after.pending[:3] == ("melee", 0, 1)
    # the first bases touch, none overlaps: the gap from the block to the post is 0
    assert after.gap(0, 1) == pytest.approx(0.0, abs=2e-3)
    assert violations(after, s, a) == []  # both legs clear of the wall, the models' own moves legal
    # the same end in one straight move crosses the wall: the invariant sees it
    assert any("impassable" in v for v in violations(after, s, ["assault", 0, 1]))
    assert after.charge[3:] == (round(MOB_AT[0] + wx, 3), round(MOB_AT[1] + wy, 3))
    assert after.pending[3][2] >= 1  # some of the mob strike


def test_an_assault_whose_waypoint_is_not_the_rules_path_is_refused() -> None:
    """The path is the one ``charge_paths`` finds; an action naming another (or none) is refused
    before anything moves, so the dangerous terrain roll and the log never read a path not taken."""
    s = state_of([BOYZ], [POST], [MOB_AT, POST_AT], (WALL,))
    for wrong in (["assault", 0, 1], ["assault", 0, 1, -3.0, 0.0]):
        with pytest.raises(ValueError, match="path goes through"):
            s.apply(wrong)
    open_table = state_of([BOYZ], [POST], [MOB_AT, POST_AT])
    with pytest.raises(ValueError, match="path goes straight"):
        open_table.apply(["assault", 0, 1, 1.0, 1.0])


def test_without_the_wall_the_assault_is_one_straight_leg() -> None:
    s = state_of([BOYZ], [POST], [MOB_AT, POST_AT])
    assert ["assault", 0, 1] in s.legal_actions()
    assert moving.charge_leg(s, 0, 1) is None


def test_a_leg_through_another_units_base_or_impassable_terrain_is_refused() -> None:
    """The waypoint east of the wall is reached only past a guard standing there, or through a
    rock; with the guard on the first leg's way or the rock on the second's, that path is refused."""
    s = state_of([BOYZ], [POST], [MOB_AT, POST_AT], (WALL,))
    first = legs.waypoint(assault_of(s))
    assert charge_legs.through(s, 0, 1, first, 12.0) is not None
    # a guard (the mob's own side) standing on the first leg: through it is refused
    mx, my = MOB_AT[0] + first[0] / 2, MOB_AT[1] + first[1] / 2
    guarded = state_of([BOYZ, GUARD], [POST], [MOB_AT, (mx + 4.0, my), POST_AT], (WALL,))
    assert not guarded.placement_ok(0, MOB_AT, legs.waypoint_anchor(guarded, 0, first))[0]
    assert charge_legs.through(guarded, 0, 2, first, 12.0) is None
    # a rock on the second leg: from the waypoint every line to the post meets it
    rock = rect("rock", 36.5, 12.6, 44.0, 13.2, "impassable")
    rocky = state_of([BOYZ], [POST], [MOB_AT, POST_AT], (WALL, rock))
    assert charge_legs.through(rocky, 0, 1, first, 12.0) is None
    # and an Assault action carrying a leg into the rock breaks the invariants
    bad = ["assault", 0, 1, 0.0, 4.0]  # straight north into the wall
    after = s.apply(["assault", 0, 1, *first])
    assert any("impassable" in v for v in violations(after, s, bad))


def test_difficult_terrain_on_a_leg_caps_both_at_the_walk() -> None:
    """Mud on the way round: the two legs together are over the Walk's 6", so the path through the
    mud is refused; Strider treats the mud as open."""
    mud = rect("mud", 38.6, 8.0, 46.0, 11.5, "difficult")
    s = state_of([BOYZ], [POST], [MOB_AT, POST_AT], (WALL, mud))
    first = legs.waypoint(assault_of(state_of([BOYZ], [POST], [MOB_AT, POST_AT], (WALL,))))
    assert math.hypot(*first) > 6.0
    assert charge_legs.through(s, 0, 1, first, 12.0) is None
    strider = state_of([dict(BOYZ, special_rules=["Strider"])], [POST], [MOB_AT, POST_AT], (WALL, mud))
    assert charge_legs.through(strider, 0, 1, first, 12.0) is not None


def _game_with_two_leg_assault() -> dict:
    files = [ROOT / f"examples/armies/onepage-{n}-army.yaml" for n in ("marines", "orks")]
    armies = (load_army_side(files[0]), load_army_side(files[1]))
    for seed in range(1, 40):
        log = play(Setup(armies, generate_table(seed)), seed, ("random", "random"))
        if any(isinstance(a, list) and a[0] == "assault" and len(a) == 5 for a in log["actions"]):
            return log
    raise AssertionError("no seeded game with a two-leg Assault")


@pytest.mark.slow
def test_a_two_leg_assault_round_trips_through_json_replays_and_keeps_the_invariants(tmp_path: Path) -> None:
    log = json.loads(json.dumps(_game_with_two_leg_assault()))
    again = replay(log)
    assert again["violations"] == []  # every state, both legs of every two-leg move checked
    assert all(log[k] == again[k] for k in log)
    bent = [e for e in log["events"] if "via" in e and e["action"][0] == "assault"]
    assert bent
    for e in bent:  # the waypoint is the first leg from where the unit stood
        assert e["via"] == pytest.approx(list(np.add(e["from"], e["action"][3:5])), abs=1e-3)
    pytest.importorskip("matplotlib")
    from grimdice.systems.onepage.game.draw import draw_rounds

    pngs = draw_rounds(log, tmp_path)
    assert len(pngs) == 4 and all(p.read_bytes()[:4] == b"\x89PNG" for p in pngs)


def test_the_state_after_a_two_leg_assault_round_trips_through_json() -> None:
    s = state_of([BOYZ], [POST], [MOB_AT, POST_AT], (WALL,))
    a = assault_of(s)
    after = s.apply(json.loads(json.dumps(a)))
    back = GameState.from_json(after.setup, json.loads(json.dumps(after.to_json())))
    assert back == after
    assert game_violations([s, after], [a]) == []


def test_no_embarking_in_two_legs() -> None:
    """A transport behind the wall: its path goes round in two legs, but embarking is one straight
    move into contact, so it is not offered (the embark moves the block straight)."""
    from dataclasses import replace

    from grimdice.engine.table.terrain import Table
    from grimdice.systems.onepage.game import Setup, army_from_mapping, deploy
    from grimdice.systems.onepage.game.deployment import ON_TABLE
    from tests.onepage_game.test_transport import ENEMY, RHINO, SQUAD, army

    setup = Setup(
        (army_from_mapping(army("A", SQUAD, RHINO), "a"), army_from_mapping(army("B", ENEMY), "b")),
        Table(terrain=(WALL,)),
    )
    s = replace(deploy(setup, 0, 0), anchors=(MOB_AT, (37.0, 15.5), (10.0, 44.0)), place=(ON_TABLE,) * 3)
    assert s.charge_ok(0, 1) and moving.charge_leg(s, 0, 1) is not None  # round the wall only
    assert not [a for a in s.legal_actions() if a[0] == "embark"]
    open_table = replace(s, setup=Setup(setup.armies, Table()))
    assert ["embark", 0, 1] in open_table.legal_actions()
