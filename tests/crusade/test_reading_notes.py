"""Each unverified reading a result uses is named in its notes (rules-crusade; the rule table)."""

import pytest

from grimdice.systems.crusade import calculate
from tests.crusade.helpers import fight, gun, model, shoot


def has(res, key: str) -> bool:
    return any(f"crusade, {key})" in n for n in res.notes)


def melee(**kw):
    a = model(name="a", melee="1R", weapons=[gun("1W", ["S"], kind="melee", name="knife")])
    d = model(name="d", melee="1R")
    a.update(kw.pop("attacker", {}))
    d.update(kw.pop("defender", {}))
    return fight(a, d, **kw)


@pytest.mark.parametrize(
    ("sc", "key"),
    [
        (melee(), "pull_back"),
        (
            melee(
                attacker={
                    "weapons": [
                        gun("1W", ["J"], kind="melee", name="axe"),
                        gun("1W", ["J"], kind="pistol", name="p"),
                    ]
                }
            ),
            "melee_fail_weapon",
        ),
        (melee(defender={"abilities": ["SWARM"], "hits": 2}), "swarm_area"),
        (melee(defender={"condition": "ko"}), "ko_defender"),
        (melee(defender={"abilities": ["GRAPPLE"]}), "grapple_side"),
        (melee(attacker={"abilities": ["R"]}), "reroll_fail"),
        (shoot([gun("1R", ["S", "R"], name="a"), gun("1W", ["S"], name="b")]), "combined_reroll"),
        (shoot([gun("1R", ["S", "R"])]), "reroll_fail"),
        (shoot([gun("1R", ["S"])], defender=model(abilities=["JINK"])), "reroll_fail"),
        (shoot([gun("1R", ["S"])], defender=model(abilities=["SWARM"])), "swarm_area"),
    ],
)
def test_reading_is_in_the_notes_when_it_applies(sc, key):
    assert has(calculate(sc), key)


def test_readings_absent_when_they_do_not_apply():
    res = calculate(shoot([gun("1R", ["S"])]))
    for key in ("reroll_fail", "combined_reroll", "swarm_area", "pull_back"):
        assert not has(res, key)
