"""The AI's play with a melee army, on hand-built positions: an Assault takes another clear line
where the straight one to the closest model is blocked (``game/charge_paths.py``), and the AI makes
that charge; a lone model deploys on the table rather than inside a transport; an Assault is
weighed with the enemy's reply where it ends; the last round values the score only."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from grimdice.systems.onepage.ai import choosing, deploying, threat
from grimdice.systems.onepage.ai.players import ATTRITION, ai_player, melee_value, value_of_shot, worth
from grimdice.systems.onepage.game import charge_paths
from grimdice.systems.onepage.game.invariants import violations
from grimdice.systems.onepage.game.moving import direct_vector
from grimdice.systems.onepage.game.state import ROUNDS, combat_law
from tests.onepage_game.test_deploy_choices import MOB, SEER, start
from tests.onepage_game.test_game import SHOOTERS, TARGETS, duel
from tests.onepage_game.test_table_legality import RUNNER, rect, state_of

# a small rock on the straight line from the charger (36, 8) to the closest target model (36, 16)
ROCK = rect("rock", 35.5, 11.0, 36.5, 12.0, "impassable")
NOB = dict(name="Nob", quality=3, equipment=["Power Fist"], special_rules=["Furious", "Tough(6)"], cost=60)


def test_an_assault_takes_another_clear_line_where_the_straight_one_is_blocked() -> None:
    """ "has a clear path to it": the straight line to the closest model crosses the rock; the line
    to another model of the target passes it, so the target is valid and the move ends in contact,
    on no rock and over no base (the invariants)."""
    s = state_of([RUNNER], [TARGETS], [(36.0, 8.0), (36.0, 16.0)], (ROCK,))
    direct = direct_vector(s, 0, 1)
    assert direct == (0.0, pytest.approx(s.gap(0, 1), abs=1e-3))  # straight north, into the rock
    assert not charge_paths.clear(s, 0, 1, direct)
    move, ok = charge_paths.chosen(s, 0, 1, direct)
    assert ok and move != direct and abs(move[0]) > 1.0 and math.hypot(*move) <= 12.0
    assert ["assault", 0, 1] in s.legal_actions()
    after = s.apply(["assault", 0, 1])
    assert violations(after, s, ["assault", 0, 1]) == []
    assert s.charged(0, 1).gap(0, 1) == pytest.approx(0.0, abs=1e-2)  # bases in contact


def test_no_clear_line_leaves_the_target_invalid() -> None:
    """A wall across the whole front: no line is clear, no Assault is offered."""
    wall = rect("wall", 20.0, 11.0, 52.0, 12.0, "impassable")
    s = state_of([RUNNER], [TARGETS], [(36.0, 8.0), (36.0, 16.0)], (wall,))
    assert not s.charge_ok(0, 1)
    assert all(a[0] != "assault" for a in s.legal_actions())


def test_the_ai_charges_where_only_another_line_is_clear() -> None:
    """A melee model whose charge favours it, the straight line blocked: it charges."""
    s = state_of([NOB], [TARGETS], [(36.0, 8.0), (36.0, 16.0)], (ROCK,))
    assert not charge_paths.clear(s, 0, 1, direct_vector(s, 0, 1))
    assert melee_value(s, 0, 1) > 0
    assert ai_player(s, np.random.default_rng(0)) == ["assault", 0, 1]


def test_a_lone_model_deploys_on_the_table_not_inside_a_transport() -> None:
    """A lone model without a gun hides on the table (a transport is the enemy's largest target,
    and its passengers take D6 hits when it is destroyed); a larger unit without a gun still rides."""
    beast = dict(name="Beast", quality=5, equipment=["Gob (A6)"], cost=200)
    beast["special_rules"] = ["Monster", "Tough(6)", "Transport(10)"]
    seer = dict(SEER, equipment=["Hand Weapon"])  # the Weirdboy: no gun
    gang = dict(MOB, name="Gang", size=5, equipment=["Hand Weapon"])
    s = start([beast, seer, gang], [TARGETS])
    s = s.apply(deploying.deploy_choice(s, s.legal_actions()))  # the transport first (a unit rides)
    assert s.setup.units[0].name == "Beast" and s.place[0] >= -1
    acts = s.legal_actions()
    assert ["embark", 1, 0] in acts and ["embark", 2, 0] in acts
    assert not deploying.rides(s, 1) and deploying.rides(s, 2)
    assert deploying.deploy_choice(s, acts) == ["embark", 2, 0]
    s = s.apply(["embark", 2, 0])
    choice = deploying.deploy_choice(s, s.legal_actions())
    assert choice[0] == "place" and choice[1] == 1


def test_an_assault_is_weighed_with_the_enemys_reply_where_it_ends() -> None:
    """choosing.choose takes from an Assault's value WEIGHT x the change of its exposure from where
    the unit stands to the block's end (the target left out: its reply is the melee's own): here
    the charge leaves the Targets' own charge threat behind and stays out of the Shooters' reach,
    so an Assault whose melee value alone is below Hold's is chosen, by that gain only."""
    s = state_of([RUNNER], [TARGETS, SHOOTERS], [(36.0, 8.0), (36.0, 16.0), (60.0, 30.0)])
    s = replace(s, player=0)
    acts = [["hold", 0], ["assault", 0, 1]]
    end, skip = choosing.move_end(s, acts[1])
    assert skip == 1 and end == pytest.approx((36.0, 8.0 + s.gap(0, 1)), abs=1e-3)
    here, there = threat.exposure(s, 0), threat.exposure(s, 0, end, skip=1)
    assert here > 0.0 and there == 0.0
    gain = threat.WEIGHT * (here - there)
    assert choosing.choose(s, acts, [0.0, 0.5 - gain]) == ["assault", 0, 1]
    assert choosing.choose(s, acts, [0.0, -0.5 - gain]) == ["hold", 0]


def test_the_last_round_values_a_shot_by_the_score_only() -> None:
    """Kills that neither destroy nor pin score nothing at the end ("the point value of all enemy
    units they completely destroyed, or that are pinned"): in the last round a shot is worth only
    its chance to destroy or pin; before it, also ATTRITION x the points per model it kills."""
    s = duel(SHOOTERS, TARGETS, gap=10.0)
    key = s.shot_key(0, 1, None, "hold")
    law = combat_law(s.setup, "shoot", 0, s.units[0], 1, s.units[1], key)
    cost = s.setup.units[1].cost
    scored = sum(p * (cost if st[0].destroyed else 0.0) for st, p in law)
    pins = sum(p for st, p in law if st[0].pinned and not st[0].destroyed)
    kills = sum(p * (5 - st[0].models) for st, p in law)
    last = replace(s, round=ROUNDS, activated=(True, True))
    assert value_of_shot(last, 0, 1, key) == pytest.approx(scored + pins * cost, abs=1e-9)
    early = value_of_shot(s, 0, 1, key)
    pin = 0.25  # players.PIN_TEMPO: the target still activates
    assert early == pytest.approx(scored + pins * pin * cost + ATTRITION * cost * kills / 5, abs=1e-9)
    assert worth(s.setup, 1, s.units[1], 1.0, 0.0) == 0.0
