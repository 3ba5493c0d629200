"""The rule table: every rule of the seed text is in ``RULES``, the docs show the table, and results
that used an unverified reading carry its note."""

import re
from pathlib import Path

import pytest

from grimdice.engine.rules import normalise
from grimdice.systems.killteam import RULES, calculate
from grimdice.systems.killteam.fight import fight_result
from grimdice.systems.killteam.rules import FIGHT_REROLL_ORDER, OBSCURED, parse_rules
from tests.killteam.helpers import fighter, gun, operative, run, scenario

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT.parent / "shared" / "rules" / "kill-team-2021-weapon-rules.txt"  # beside the clone


@pytest.mark.skipif(not SEED.exists(), reason="seed rules text not available")
def test_every_rule_of_the_seed_text_is_in_the_table():
    names = re.findall(r"^([A-Z][A-Za-z ]*?)\s*x?\+?:\s*$", SEED.read_text(encoding="utf-8"), re.M)
    assert len(names) == 26
    table = {normalise(r.name) for r in RULES}
    assert {normalise(n) for n in names} == table


def test_parse_through_the_table():
    r = parse_rules(["AP1", "[AP2]", "lethal 5+", "Blast circle", "rng ⬟", "Psychic Action", "P1"], "w")
    assert (r.ap, r.lethal, r.blast, r.rng, r.piercing) == (2, 5, 2.0, 6.0, 1)  # AP: the best one
    assert parse_rules(["AP2", "AP1"], "w").ap == 2


def test_unverified_readings_are_marked():
    assert set(RULES.unverified()) == {"fusillade", "reap", "splash", FIGHT_REROLL_ORDER, OBSCURED}


def test_a_fight_with_rerolls_carries_the_reroll_order_note():
    note = RULES.note(FIGHT_REROLL_ORDER)
    res = fight_result(fighter("a", 3, 2, 3, 2, 3, relentless=True), fighter("d", 3, 2, 3, 2, 3))
    assert note in res.notes and note in res.to_json()["notes"]
    plain = fight_result(fighter("a", 3, 2, 3, 2, 3), fighter("d", 3, 2, 3, 2, 3))
    assert note not in plain.notes


def test_scenario_fight_carries_the_notes():
    blade = {"name": "blade", "A": 3, "WS": 3, "D": "3/4", "rules": ["Balanced"], "critical": ["Reap 1"]}
    sc = {
        "system": "killteam",
        "action": "fight",
        "attacker": {"name": "a", "W": 8, "weapons": [blade]},
        "target": {"name": "d", "W": 8, "weapons": [{"name": "b", "A": 2, "WS": 4, "D": "2/3"}]},
        "nearby": [{"name": "n", "W": 8, "distance_to_target": 1}],
    }
    notes = calculate(sc).notes
    assert RULES.note(FIGHT_REROLL_ORDER) in notes and RULES.note("reap") in notes


def test_shooting_notes_for_lost_symbols_and_obscured():
    near = [
        operative(name="n", W=5, distance_to_target=1),
        operative(name="o", W=5, distance_to_target=1, obscured=True),
    ]
    res = run(gun(rules=["Fusillade"], critical=["Splash 1"]), operative(W=6), nearby=near)
    for key in ("fusillade", "splash", OBSCURED):
        assert RULES.note(key) in res.notes
    assert run().notes == []
    assert calculate(scenario()).notes == []


def test_compared_targets_keep_the_notes():
    near = [operative(name="n", W=5, distance_to_target=1)]
    sc = scenario(gun(critical=["Splash 1"]), nearby=near)
    del sc["target"]
    sc["targets"] = [operative(name="x", W=6), operative(name="y", W=7)]
    assert RULES.note("splash") in calculate(sc).notes
