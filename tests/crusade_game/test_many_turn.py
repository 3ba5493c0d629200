"""Every model a template, line or area reaches is rolled at (VIII LINE EFFECT: "Apply the roll to
ALL eligible models in the line"; FLAMER TEMPLATE: "Roll seperately for each target touched by the
template"; BLAST: "Center applies the total roll, and Outside applies highest die only"), past one
chance node model by model (:mod:`grimdice.systems.crusade.game.many_turn`): the game's law by hand
and equal to the calculator's."""

from __future__ import annotations

import json
from collections import defaultdict
from fractions import Fraction

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.ai.worth import many_value
from grimdice.systems.crusade.damage import CONDITIONS, KILLED, NONE, WOUNDED
from grimdice.systems.crusade.game import many, many_turn
from grimdice.systems.crusade.game.many import cached_joint
from grimdice.systems.crusade.game.play import Recorder
from grimdice.systems.crusade.game.state import GameState, invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER, at, state

HALL = """
##############
#............#
#............#
#............#
##############
"""
SQUARE = [(x, y) for x in (8, 9, 10) for y in (1, 2, 3)]  # the 3x3 around (9, 2): token 5


def _armed(name: str, dice: str, effects: list[str]) -> dict:
    return dict(MARINE, weapons=[{"name": name, "dice": dice, "kind": "ranged", "effects": effects}])


def _shot(weapon: dict, stealers: list[tuple[int, int]], target: int) -> GameState:
    """Marine 0 at (1, 2) fires its one weapon at stealer ``target`` (stealers at ``stealers``)."""
    s = state(HALL, [at("Marine", 1, 2)], [at("Stealer", *q) for q in stealers], profiles=[weapon, STEALER])
    return s.apply(("activate", 0)).apply(("shoot", target, weapon["weapons"][0]["name"]))


def _law(s: GameState) -> dict:
    """The pending shot's whole law, every node walked: {end: p}."""
    out: dict = defaultdict(float)

    def walk(s: GameState, p: float) -> None:
        for a, q in s.chance_outcomes():
            nxt = many.advance(s, a)
            if nxt is None:
                out[many.end(s, a)] += p * q
            else:
                walk(nxt, p * q)

    walk(s, 1.0)
    return dict(out)


def _chance(law: dict, test) -> float:
    return sum(p for (states, *_), p in law.items() if test(states))


def test_a_blast_at_the_middle_of_nine_rolls_at_all_nine_with_one_roll():
    # BLAST 2R at the centre of 9 stealers (armour 1, 1 hit; W): the centre takes the total, the 8
    # others the highest die; a graze (1 damage) wounds, 2 or more kill
    launcher = _armed("launcher", "2R", ["B", "W"])
    s = _shot(launcher, SQUARE, 5)
    assert sorted(s.pending[6]) == list(range(1, 10)) and s.pending[6][0] == 5
    assert many_turn.in_turn(s.pending[4])
    law = _law(s)
    assert sum(law.values()) == pytest.approx(1.0, abs=1e-12)
    centre, outside = 0, range(1, 9)
    # the centre: total 0-1 none (15/36), 2 wounded (7/36), 3 or more killed (14/36)
    assert _chance(law, lambda st: st[centre][0] == KILLED) == pytest.approx(14 / 36)
    assert _chance(law, lambda st: st[centre][0] == WOUNDED) == pytest.approx(7 / 36)
    # one roll for all: the 8 outside are killed together on a highest die of 3 (11/36), wounded
    # together on a 2 (9/36), never some and not others
    assert _chance(law, lambda st: all(st[n][0] == KILLED for n in outside)) == pytest.approx(11 / 36)
    assert _chance(law, lambda st: all(st[n][0] == WOUNDED for n in outside)) == pytest.approx(9 / 36)
    assert _chance(law, lambda st: len({st[n] for n in outside}) > 1) == 0
    assert sum(p for (_, _, failed, *_), p in law.items() if failed) == pytest.approx(1 / 36)  # 3 and 3


def test_every_one_of_nine_models_takes_its_end_state():
    launcher = _armed("launcher", "2R", ["B", "W"])
    s = _shot(launcher, SQUARE, 5)
    nodes = 0
    while s.pending:  # the last outcome of every node: the roll 0, 0, nobody harmed
        a, _ = s.chance_outcomes()[-1]
        s, nodes = s.apply(a), nodes + 1
    assert nodes == 10  # the roll, then each of the 9 models
    s = _shot(launcher, SQUARE, 5)
    rolls = [roll for roll, _ in many_turn.shot_of(s.pending[4]).roll]  # (total, highest, failed)
    s = s.apply(("attack", rolls.index((6, 3, True))))  # the roll 3 and 3: every model killed
    while s.pending:
        s = s.apply(s.chance_outcomes()[0][0])
    assert [s.tokens[k].cond for k in range(1, 10)] == [KILLED] * 9
    assert not invariant_errors(s)


@pytest.mark.parametrize("node", [4, 1])
def test_a_line_applies_one_roll_to_each_model_by_hand(monkeypatch, node):
    # LINE 1R (faces 0,0,0,1,2,3) through 3 stealers: a 3 kills all three (1/6), a 2 wounds all three
    # (1/6), else none; the same in one node and model by model
    monkeypatch.setattr(many, "MAX_NODE", node)
    s = _shot(_armed("las", "1R", ["LINE", "W"]), [(3, 2), (4, 2), (5, 2)], 1)
    assert s.pending[6] == (1, 2, 3) and many_turn.in_turn(s.pending[4]) == (node < 3)
    law = _law(s)
    assert {st: Fraction(p).limit_denominator(1000) for (st, *_), p in law.items()} == {
        ((KILLED, 0),) * 3: Fraction(1, 6),
        ((WOUNDED, 1),) * 3: Fraction(1, 6),
        ((NONE, 1),) * 3: Fraction(4, 6),
    }


@pytest.mark.parametrize("node", [4, 1])
def test_a_template_rolls_separately_for_each_model_by_hand(monkeypatch, node):
    # FLAMER TEMPLATE 1R: each of the 2 stealers its own roll: killed 1/6, wounded 1/6, none 4/6
    monkeypatch.setattr(many, "MAX_NODE", node)
    s = _shot(_armed("flamer", "1R", ["FT", "W"]), [(3, 2), (4, 2)], 1)
    assert s.pending[6] == (1, 2) and many_turn.in_turn(s.pending[4]) == (node < 2)
    law = {st: Fraction(p).limit_denominator(1000) for (st, *_), p in _law(s).items()}
    each = {(KILLED, 0): Fraction(1, 6), (WOUNDED, 1): Fraction(1, 6), (NONE, 1): Fraction(4, 6)}
    assert law == {(a, b): p * q for a, p in each.items() for b, q in each.items()}


@pytest.mark.parametrize(
    ("weapon", "stealers"),
    [
        (("flamer", "2R", ["FT", "W", "KB"]), [(3, 2), (4, 1), (4, 3), (5, 2), (6, 2)]),
        (("launcher", "2W+1R", ["B", "W", "KB"]), [(8, 1), (8, 2), (9, 2), (10, 2), (10, 3), (9, 1)]),
        (("las", "2W+1R", ["LINE", "R", "W"]), [(3, 2), (4, 2), (5, 2), (6, 2), (7, 2)]),
    ],
)
def test_a_shot_rolled_in_turn_is_the_calculators_joint_law(weapon, stealers):
    # more models than one node holds: the walked nodes' law is the calculator's joint law of the
    # same scenario, and the AI's value of it the same
    profile = _armed(*weapon)
    target = 3 if weapon[0] == "launcher" else 1
    s = _shot(profile, stealers, target)
    assert len(s.pending[6]) == len(stealers) and many_turn.in_turn(s.pending[4])
    whole = json.loads(s.pending[4])
    del whole[many_turn.IN_TURN]
    plain = json.dumps(whole, sort_keys=True)
    exact = dict(cached_joint(plain))
    law = _law(s)
    assert law.keys() == exact.keys()
    assert all(law[k] == pytest.approx(p, abs=1e-12) for k, p in exact.items())
    res = calculate(whole)
    for n, name in enumerate(res.targets):
        if n < len(stealers):
            for c, cond in enumerate(CONDITIONS):
                got = _chance(law, lambda st, n=n, c=c: st[n][0] == c)
                assert got == pytest.approx(res.targets[name].extra["end_state"][cond], abs=1e-9)
    assert many_value(s, 0, s.pending[6], s.pending[4]) == pytest.approx(
        many_value(s, 0, s.pending[6], plain), abs=1e-12
    )


def test_the_firers_reroll_serves_its_targets_roll_alone():
    # ours (reached): a template rolled model by model gives the firer's one re-roll a turn (VIII R:
    # "may reroll one of your attack dice once per turn") to its target's roll
    s = _shot(_armed("flamer", "1R", ["FT", "W", "R"]), [(3, 2), (4, 1), (4, 3), (5, 2), (6, 2)], 1)
    shot = many_turn.shot_of(s.pending[4])
    first, later = shot.law(()), shot.law((0,))
    killed = [sum(p for (st, *_), p in law if st[0][0] == KILLED) for law in (first, later)]
    # re-rolled whenever not a 3: killed 1 - (5/6)^2 at the target, 1/6 at the others
    assert killed == pytest.approx([11 / 36, 1 / 6])


def test_the_log_tells_a_shot_rolled_model_by_model_once():
    s = _shot(_armed("launcher", "2R", ["B", "W"]), SQUARE, 5)
    log = Recorder(s)
    while s.pending:
        a = s.chance_outcomes()[0][0]
        nxt = s.apply(a)
        log.step(s, a, nxt)
        s = nxt
    told = [e["text"] for e in log.events]
    assert len(told) == 1 and told[0].startswith("Marine #0 shoots with launcher at Stealer")
    assert told[0].count("hits left") == 9
