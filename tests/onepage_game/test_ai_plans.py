"""The AI's plans on hand-built positions: the enemy's reply shared among the targets each enemy
could pick (threat.py), charges taken only when the exact melee law favours them, transports that
carry infantry into range and shelter units without a gun, and the last round played for the
score (players.py, choices.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from grimdice.systems.onepage.ai import choices, threat
from grimdice.systems.onepage.ai.players import PIN_TEMPO, ai_player, waiting, worth
from grimdice.systems.onepage.game.deployment import ON_TABLE
from grimdice.systems.onepage.game.state import ROUNDS, GameState, combat_law
from tests.onepage_game.test_consolidation import BRUTES, state_of
from tests.onepage_game.test_game import SHOOTERS, TARGETS
from tests.onepage_game.test_transport import RHINO, SQUAD

OTHERS = dict(TARGETS, name="Others")


def shot_points(s: GameState, v: int, u: int) -> float:
    """The expected points ``v``'s exact shooting law (on Hold, where both stand) scores on ``u``:
    a pin at :data:`PIN_TEMPO` (round 1), attrition; computed here from the law itself."""
    key = replace(s, active=u).shot_key(v, u, None, "hold")
    law = combat_law(s.setup, "shoot", v, s.units[v], u, s.units[u], key)
    base = worth(s.setup, u, s.units[u], PIN_TEMPO)
    return sum(p * (worth(s.setup, u, st, PIN_TEMPO) - base) for (st,), p in law)


def test_an_enemy_with_two_targets_threatens_each_in_proportion_to_what_it_offers() -> None:
    """The Shooters (unit 0: 24" rifles) have two targets in range, the Targets (unit 1, 16" away)
    and the Others (unit 2, farther off: fewer rifles reach). They shoot one of them: the Targets'
    exposure is what the Shooters take from them times the share b1 / (b1 + b2) of the Shooters'
    choice, below the whole b1 that a plain sum over enemies would count. With the Others out of
    range the Shooters have no other pick: the whole b1."""
    s = state_of([SHOOTERS], [TARGETS, OTHERS], [(36.0, 20.0), (30.0, 36.0), (52.0, 40.0)])
    b1, b2 = shot_points(s, 0, 1), shot_points(s, 0, 2)
    assert b1 > 0 and b2 > 0
    got = threat.exposure(s, 1)
    assert got == pytest.approx(b1 * b1 / (b1 + b2), rel=1e-9)
    assert got < b1 - 1e-6  # a plain sum would count all of b1
    alone = state_of([SHOOTERS], [TARGETS, OTHERS], [(36.0, 20.0), (30.0, 36.0), (70.0, 46.0)])
    assert shot_points(alone, 0, 2) == 0.0
    assert threat.exposure(alone, 1) == pytest.approx(shot_points(alone, 0, 1), rel=1e-9)


def melee_points(s: GameState, u: int, t: int) -> float:
    """The expected points to ``u`` of its charge on ``t`` from where both stand, from the exact
    melee law (both sides' strikes, the loser's morale): points taken less points given away."""
    at = replace(s, active=u)
    key = at.charged(u, t).melee_key(u, t)
    law = combat_law(s.setup, "melee", u, s.units[u], t, s.units[t], key)
    bu, bt = worth(s.setup, u, s.units[u], PIN_TEMPO), worth(s.setup, t, s.units[t], PIN_TEMPO)
    return sum(p * ((worth(s.setup, t, b) - bt) - (worth(s.setup, u, a) - bu)) for (a, b), p in law)


def first_unit_acts(s: GameState, u: int) -> Any:
    s = replace(s, player=s.setup.owner[u], activated=tuple(v != u for v in range(len(s.units))))
    return ai_player(s, np.random.default_rng(0))


def test_a_charge_is_taken_when_the_exact_odds_favour_it_and_refused_when_not() -> None:
    """Brutes (Quality 2, power fists) 3" from the Targets (Quality 5, hand weapons): the exact melee
    law favours the Brutes' charge, and the AI takes it; the Targets' charge on the Brutes is
    against them (the Brutes strike back), and the AI does anything else."""
    s = state_of([BRUTES], [dict(TARGETS, cost=120)], [(36.0, 20.0), (36.0, 24.0)])
    assert 0 < s.gap(0, 1) < 3.0
    assert melee_points(s, 0, 1) > 0
    assert first_unit_acts(s, 0) == ["assault", 0, 1]
    assert melee_points(s, 1, 0) < 0
    assert first_unit_acts(s, 1)[0] != "assault"


GUNS = dict(SHOOTERS, name="Guns", size=10, quality=2, cost=100)
TRUCK = dict(RHINO, name="Truck", equipment=["Hand Weapon"])  # no gun of its own


def carrying(enemy_y: float) -> GameState:
    """The Squad (unit 1, 24" rifles) aboard the Truck (unit 0) at the south edge, the Shooters
    (unit 2) straight north of it at ``enemy_y``."""
    s = state_of([TRUCK, SQUAD], [SHOOTERS], [(36.0, 6.0), (36.0, 6.0), (36.0, enemy_y)])
    return replace(s, place=(ON_TABLE, 0, ON_TABLE))


def test_a_transport_carries_its_infantry_into_range_and_they_walk_out_and_shoot() -> None:
    """The Squad cannot reach the Shooters 40" off by disembarking (6" Walk, 24" rifles): the
    Truck, which has no gun, moves so that they can next activation (its passengers' next shot,
    threat.carried, rises from 0); then the Squad disembarks and shoots rather than stay inside."""
    s = carrying(47.0)
    assert threat.carried(s, 0) == 0.0
    a = first_unit_acts(s, 0)
    assert a[0] in ("walk", "run") and a[1] == 0
    end = (s.anchors[0][0] + a[2], s.anchors[0][1] + a[3])
    assert threat.carried(s, 0, end) > 0.0
    moved = replace(s.moved(0, a[2], a[3]), round=2)
    out = first_unit_acts(moved, 1)
    assert out[0] == "disembark"
    shot = moved.apply(out)
    assert shot.phase == "shoot" and ["shoot", 2] in shot.legal_actions()


def test_a_unit_without_a_gun_deploys_inside_a_transport_and_one_with_a_gun_does_not() -> None:
    s = state_of([TRUCK, TARGETS, SQUAD], [SHOOTERS], [(36.0, 6.0), (20.0, 6.0), (50.0, 6.0), (36.0, 40.0)])
    s = replace(s, phase="deploy", todo=(1, 2), player=0)
    assert choices.deployment_choice(s, [["deploy", 1], ["embark", 1, 0]]) == ["embark", 1, 0]
    s = replace(s, todo=(2,))
    assert choices.deployment_choice(s, [["deploy", 2], ["embark", 2, 0]]) == ["deploy", 2]


def test_a_unit_under_fire_embarks_and_one_out_of_reach_does_not() -> None:
    """The Targets (hand weapons) stand next to their Truck, 16" from ten Quality 2 rifles (no
    charge on them pays): embarking takes them out of the rifles' reply (threat.exposure), which
    the AI values; 50" away nothing threatens them and they close in instead."""
    near = state_of([TRUCK, TARGETS], [GUNS], [(36.0, 10.0), (36.0, 16.0), (36.0, 32.0)])
    assert threat.exposure(near, 1) > 0 and ["embark", 1, 0] in near.legal_actions()
    assert first_unit_acts(near, 1) == ["embark", 1, 0]
    far = state_of([TRUCK, TARGETS], [GUNS], [(20.0, 2.0), (20.0, 8.0), (60.0, 46.0)])
    assert threat.exposure(far, 1) == 0.0
    assert first_unit_acts(far, 1)[0] != "embark"


def test_in_the_last_round_a_unit_out_of_reach_does_not_run_at_the_enemy() -> None:
    """The Targets (hand weapons) far from the Shooters: in round 1 they close in (towards a charge
    later); in the last round no activation is left for a charge, so they hold where they are."""
    s = state_of([TARGETS], [SHOOTERS], [(36.0, 4.0), (36.0, 46.0)])
    assert first_unit_acts(s, 0)[0] in ("walk", "run")
    assert first_unit_acts(replace(s, round=ROUNDS), 0) == ["hold", 0]


def test_in_the_last_round_a_unit_that_can_pin_waits_for_its_target_to_activate() -> None:
    """Ten Quality 2 rifles (unit 0) 16" from a Mob of ten (unit 2, 200 points), which the shooting
    rarely destroys but its morale test often pins; the AI's other unit (1) has nothing to shoot.
    In the last round a pin on the Mob before it activates is idled off, one after lasts to the end
    and scores its points: the AI activates its other unit first; once the Mob has activated, it
    shoots."""
    mob = dict(TARGETS, name="Mob", size=10, cost=200)
    s = state_of([GUNS, OTHERS], [mob], [(36.0, 20.0), (4.0, 4.0), (36.0, 36.0)])
    s = replace(s, round=ROUNDS, player=0, activated=(False, False, False))
    assert waiting(s, s.legal_actions())[0] > 0
    assert ai_player(s, np.random.default_rng(0))[1] == 1
    done = replace(s, activated=(False, False, True))
    assert waiting(done, done.legal_actions()) == {}
    assert ai_player(done, np.random.default_rng(0))[1] == 0
