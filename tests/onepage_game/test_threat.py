"""The enemy's reply at a move's end (game/threat.py): the points the enemy's next activations could
take from a unit where it ends, from the same exact laws the AI reads."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.ai import choosing, players, threat
from grimdice.systems.onepage.ai.players import PIN_TEMPO, ai_player, melee_odds, moved_to, worth
from grimdice.systems.onepage.game.batch import GameJob, game_seeds
from grimdice.systems.onepage.game.play import states
from grimdice.systems.onepage.game.setup import load_army_side
from grimdice.systems.onepage.game.state import ROUNDS, GameState, combat_law
from grimdice.systems.onepage.game.transport import from_hull
from tests.onepage_game.test_game import MARINES, ORKS, SHOOTERS, TARGETS, duel

WALL = Terrain(
    "ruins", np.array([[20.0, 24.0], [52.0, 24.0], [52.0, 26.0], [20.0, 26.0]]), frozenset({"blocks_sight"})
)


def test_in_the_open_within_range_it_is_the_exact_shots_expected_points() -> None:
    """Targets (unit 1) 16" from Shooters (unit 0: 5 Assault Rifles, 24"): out of Assault reach (12"),
    in range and sight: the exposure is the expected points of the Shooters' exact shooting law
    (a pin at its pin share, attrition), computed here from the law itself."""
    s = duel(SHOOTERS, TARGETS, gap=16.0)
    got = threat.exposure(s, 1)
    at = threat.placed_at(s, 1, None)
    key = at.shot_key(0, 1, None, "hold")
    assert key[1] == 5  # all five shooters see and reach
    law = combat_law(s.setup, "shoot", 0, s.units[0], 1, s.units[1], key)
    pin = PIN_TEMPO  # round 1: the Targets would recover from a pin
    base = worth(s.setup, 1, s.units[1], pin)
    want = sum(p * (worth(s.setup, 1, st, pin) - base) for (st,), p in law)
    assert got == pytest.approx(want, abs=1e-12) and got > 0


def walk_shot(s: GameState, v: int, u: int, to: tuple[float, float]) -> float:
    """The expected points of ``v``'s exact shooting law at ``u`` after walking to ``to``, computed
    from the law itself (as the first test does for a shot from where it stands)."""
    at = threat.placed_at(s, u, None)
    key = at.shot_key(v, u, to, "walk")
    law = combat_law(s.setup, "shoot", v, s.units[v], u, s.units[u], key)
    base = worth(s.setup, u, s.units[u], PIN_TEMPO)
    return sum(p * (worth(s.setup, u, st, PIN_TEMPO) - base) for (st,), p in law)


def test_behind_blocking_terrain_the_enemy_walks_to_see_unless_the_walk_cannot_clear_it() -> None:
    """A wall 4"-6" in front of the Shooters hides the Targets from where the Shooters stand, but a
    6" Walk straight at them (terrain ignored: our approximation) passes it: the exposure is the
    exact law of that walked shot (action Walk). A wall 10"-12" out, which the Walk does not clear,
    leaves the Targets unseen: 0 (out of Assault reach too)."""
    s = duel(SHOOTERS, TARGETS, gap=16.0)
    near = replace(s, setup=replace(s.setup, table=Table(terrain=(WALL,))))
    assert near.shot_key(0, 1, None, "hold")[1] == 0  # hidden where the Shooters stand
    to = threat.walked_to(near, 0, 1, near.gap(0, 1), near.weapon_range(0))
    assert to == (36.0, 26.0)  # 6" straight towards the Targets
    assert threat.exposure(near, 1) == pytest.approx(walk_shot(near, 0, 1, to), abs=1e-12)
    assert threat.exposure(near, 1) > 0
    moved = Terrain(WALL.name, WALL.corners + np.array([0.0, 6.0]), WALL.traits)
    far = replace(s, setup=replace(s.setup, table=Table(terrain=(moved,))))
    assert threat.exposure(far, 1) == 0.0


def test_past_range_but_within_range_plus_walk_counts_the_walked_shot() -> None:
    """The Shooters (24" rifles, 6" Walk) reach the Targets 29.7" away (base to base) after a Walk;
    30.7" away they do not (past 24" + 6"), nor 36.9" away."""
    s = duel(SHOOTERS, TARGETS, gap=31.0)
    assert 24.0 < s.gap(0, 1) < 30.0
    to = threat.walked_to(s, 0, 1, s.gap(0, 1), 24.0)
    assert to == (36.0, 26.0)
    want = walk_shot(s, 0, 1, to)
    assert threat.exposure(s, 1) == pytest.approx(want, abs=1e-12) and want > 0
    out = duel(SHOOTERS, TARGETS, gap=32.0)
    assert s.gap(0, 1) + 1.0 == pytest.approx(out.gap(0, 1)) and threat.exposure(out, 1) == 0.0
    assert threat.exposure(s, 1, (70.0, 47.0)) == 0.0  # 36.9" away
    immobile = replace(s, units=(replace(s.units[0], immobile=True), s.units[1]))
    assert threat.walked_to(immobile, 0, 1, s.gap(0, 1), 24.0) is None


def test_a_charge_counts_only_when_it_favours_the_enemy() -> None:
    """Unit 0 (Targets, hand weapons, no gun) within 12" of unit 1 (Shooters): the threat from
    the Targets is their charge's expected value when positive, else nothing."""
    s = duel(SHOOTERS, TARGETS, gap=8.0)
    assert threat.can_charge(s, 1, 0)
    value = threat.exposure(s, 0)
    melee = melee_odds(threat.placed_at(s, 0, None), 1, 0, threat.charge_key(s, 1, 0))
    assert value == pytest.approx(max(0.0, melee), abs=1e-12)
    assert threat.exposure(s, 0, (36.0, 2.0)) == 0.0  # 26" away: no charge, no gun


def test_enemies_weigh_by_when_they_act() -> None:
    s = duel(SHOOTERS, TARGETS, gap=16.0)
    full = threat.exposure(s, 1)
    acted = replace(s, activated=(True, False))
    assert threat.reply_weight(acted, 0) == threat.NEXT
    pinned = replace(s, units=(replace(s.units[0], pinned=True), s.units[1]))
    assert threat.reply_weight(pinned, 0) == threat.NEXT  # it must idle first
    assert threat.exposure(acted, 1) == pytest.approx(threat.NEXT * full, abs=1e-12)
    last = replace(acted, round=ROUNDS)
    assert threat.exposure(last, 1) == 0.0  # the game ends before it acts again


def test_choose_with_its_bound_equals_valuing_every_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound-pruned choice equals the choice from every move's full value, on the AI's
    decisions of a seeded game of the bundled armies; some of those moves' exposures include an
    enemy's walked shot (they differ from the exposure without it), so the bound is checked with
    the enemy's reach as well."""
    armies = (load_army_side(MARINES), load_army_side(ORKS))
    log = GameJob(armies, None, ("random", "random"), keep_log=True)(game_seeds(5, 1)[0])
    checked = walked = 0
    for s in states(log)[::7]:
        if s.phase != "play" or s.round > 2:
            continue
        acts = s.legal_actions()
        if len(acts) < 3:
            continue
        greedy = ai_player(s, np.random.default_rng(0), reply=0.0)
        values = [0.0 if a != greedy else 1.0 for a in acts]  # any values: here the greedy pick's
        full = list(values)
        for i, a in enumerate(acts):
            if a[0] in threat.MOVES:
                u = a[1]
                aboard = a[0] == "disembark"  # a Walk from the hull; aboard, no target
                start = from_hull(s, u, s.place[u]) if aboard else s
                end = moved_to(start, u, (a[2], a[3]))
                seen = threat.exposure(start, u, end)
                full[i] -= threat.WEIGHT * (seen - (0.0 if aboard else threat.exposure(s, u)))
                with monkeypatch.context() as m:
                    m.setattr(threat, "walked_to", lambda *_: None)
                    walked += threat.exposure(start, u, end) != seen
        best = max(full)
        want = next(a for a, v in zip(acts, full, strict=True) if v >= best - 1e-9)
        assert choosing.choose(s, acts, values) == want
        checked += 1
        if checked == 4:
            break
    assert checked >= 2 and walked > 0


def test_greedy_is_the_ai_without_the_reply_and_games_stay_seeded() -> None:
    armies = (load_army_side(MARINES), load_army_side(ORKS))
    seed = game_seeds(3, 1)[0]
    a = GameJob(armies, None, ("ai", "greedy"), keep_log=True)(seed)
    b = GameJob(armies, None, ("ai", "greedy"), keep_log=True)(seed)
    assert a["actions"] == b["actions"] and a["scores"] == b["scores"]
    assert math.isfinite(sum(a["scores"]))


WEIRDBOY = {
    "name": "Weirdboy",
    "quality": 5,
    "equipment": ["Hand Weapon"],
    "special_rules": ["Psyker(1)"],
    "cost": 40,
}


def end_of(s: GameState, a: list[Any]) -> tuple[float, float]:
    return moved_to(s, a[1], (a[2], a[3])) if a[0] in threat.MOVES else s.anchors[a[1]]


def test_a_unit_that_cannot_score_no_longer_runs_into_the_enemys_guns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Orks' Weirdboy (40 points, one model, no gun, a melee it never wins) walked at the nearest
    enemy and was shot in seeded games of the bundled armies (benchmarks/HISTORY.md). A lone model
    does not close in (``players.role``: fragile), so even the greedy AI comes no nearer; the
    greedy AI that closed in with it (its role read as a melee unit's) runs it 12" into the
    Shooters' 24" range, and the enemy's reply alone keeps it where nothing reaches it."""
    s = replace(duel(SHOOTERS, WEIRDBOY, gap=30.0), player=1)
    s = replace(s, anchors=((36.0, 6.0), (36.0, 36.0)))  # 6" from the south edge: room to back away
    assert threat.exposure(s, 1) > 0  # 28.7" away: within the Shooters' 24" range plus their 6" Walk
    rng = np.random.default_rng(0)
    lone = ai_player(s, rng, reply=0.0, reach=0.0)
    assert threat.exposure(s, 1, end_of(s, lone)) <= threat.exposure(s, 1)  # no closer to the guns
    monkeypatch.setattr(players, "role", lambda *_: "melee")
    old, new = ai_player(s, rng, reply=0.0, reach=0.0), ai_player(s, rng)
    assert old[0] == "run" and threat.exposure(s, 1, end_of(s, old)) > 10.0
    assert threat.exposure(s, 1, end_of(s, new)) == 0.0


# Quality 5 (as the Targets), 10 models with carbines (18") and hand weapons, Furious
SHOOTAS = TARGETS | {"name": "Shootas", "size": 10, "equipment": ["Carbine", "Hand Weapon"], "cost": 110}
SHOOTAS["special_rules"] = ["Furious"]


def test_prospect_is_the_best_favourable_charge_within_assault_reach_of_the_end() -> None:
    """The Shootas (unit 1) 20.7" from the Targets (unit 0): no charge from where they stand (12"
    Assault); from 6" closer it is their charge's expected value, read from the melee law of a full
    contact (computed here from melee_odds on charge_key); in the last round nothing (no activation
    is left); for the Targets, whose charge on the Shootas favours the Shootas, nothing."""
    s = duel(dict(TARGETS, cost=120), SHOOTAS, gap=22.0)
    assert s.gap(1, 0) > 12.0 and threat.prospect(s, 1) == 0.0
    end = (36.0, 42.0 - 10.0)
    assert s.gap(1, 0, end) <= 12.0
    at = replace(s, active=1)
    want = melee_odds(at, 1, 0, threat.charge_key(at, 1, 0))
    assert want > 0 and threat.prospect(s, 1, end) == pytest.approx(want, abs=1e-12)
    assert threat.prospect(replace(s, round=ROUNDS), 1, end) == 0.0
    near = replace(s, anchors=(s.anchors[0], end))
    assert melee_odds(replace(near, active=0), 0, 1, threat.charge_key(near, 0, 1)) < 0
    assert threat.prospect(near, 0) == 0.0


def test_a_melee_unit_runs_into_charge_reach_of_a_target_it_beats_rather_than_walk_and_shoot() -> None:
    """The Ork games lost or drawn against random Marines (benchmarks/HISTORY.md) showed the Boyz
    walking and shooting pistols and carbines where a charge next round was worth far more. Here
    the Shootas (18" carbines) 20.7" from the Targets, nothing threatening them: the AI without
    the prospect term walks 6" and shoots; with it, it runs 12" to end within Assault reach of a
    charge that favours it (its expected value, less the 6" walk's shot, is the larger)."""
    s = replace(duel(dict(TARGETS, cost=120), SHOOTAS, gap=22.0), player=1)
    assert threat.exposure(s, 1) == 0.0
    rng = np.random.default_rng(0)
    old, new = ai_player(s, rng, reach=0.0), ai_player(s, rng)
    assert old == ["walk", 1, 0.0, -6.0] and threat.prospect(s, 1, end_of(s, old)) == 0.0
    assert new == ["run", 1, 0.0, -12.0] and threat.prospect(s, 1, end_of(s, new)) > 0.0


def test_the_consolidation_weighs_the_enemys_reply() -> None:
    """Brutes (150 points, Quality 6) destroy a Victim 31" from a line of ten rifles (24" range,
    6" Walk): the greedy consolidation moves 3" towards them (the nearest enemy) into the reach of
    their walked shots; the AI's stays out of it."""
    from tests.onepage_game.test_consolidation import BRUTES, VICTIM, destroyed_outcome, melee, state_of

    guns = dict(SHOOTERS, size=10, cost=100)
    brutes = dict(BRUTES, quality=6, cost=150)
    s = melee(state_of([brutes], [VICTIM, guns], [(36.0, 6.0), (36.0, 12.0), (36.0, 43.0)]), 0, 1)
    c = destroyed_outcome(s)
    assert threat.exposure(c, 0) == 0.0
    rng = np.random.default_rng(0)
    old, new = ai_player(c, rng, reply=0.0, reach=0.0), ai_player(c, rng)
    assert old == ["consolidate", 0, 0.0, 3.0] and threat.exposure(c, 0, end_of(c, old)) > 50.0
    assert threat.exposure(c, 0, end_of(c, new)) == 0.0


MOB = {"name": "Mob", "size": 10, "quality": 5, "equipment": ["Hand Weapon"], "cost": 60}
LONE = {"name": "Lone", "size": 1, "quality": 5, "equipment": ["Hand Weapon"], "cost": 60}


def test_charge_strikers_are_kept_by_where_the_units_stand() -> None:
    """A lone model (unit 0) charging the 10-model Mob (unit 1): from in front of the Mob's ranks
    more of its models reach the charger after their 3" move than when the charge comes at the
    end of its line (the Mob 16" to the side). The two states differ only in the Mob's anchor (same
    models alive): asked one after the other in one game, each gets the count a fresh game's memo
    gives for it, not the one kept for the other place."""
    front, side = (36.0, 30.0), (52.0, 20.0)

    def at(s: GameState, where: tuple[float, float]) -> GameState:
        return replace(s, anchors=(s.anchors[0], where))

    fresh = {where: threat.strikers(at(duel(LONE, MOB), where), 0, 1) for where in (front, side)}
    assert fresh[front][1] > fresh[side][1]  # the places differ in the count
    s = duel(LONE, MOB)
    assert threat.strikers(at(s, front), 0, 1) == fresh[front]
    assert threat.strikers(at(s, side), 0, 1) == fresh[side]
