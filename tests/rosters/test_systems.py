"""Roster units as each system's own scenario input: what is passed on, what is reported as not
modelled, and exact results checked by hand."""

from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from grimdice.adapters.rosters import resolve_scenario, resolve_with_notes
from grimdice.adapters.rosters.sides import accepted, kt_distance, protections, split_rules
from grimdice.errors import ScenarioError
from grimdice.io.rosters.tree import Ability
from grimdice.systems.base import calculate

FIX = Path(__file__).resolve().parent / "fixtures"


def resolve(data):
    return resolve_with_notes(data, FIX)


def test_intercessors_as_a_wh40k_attacker():
    sc, _ = resolve(
        {
            "attacker": {"roster": "marines.ros", "unit": "Intercessor Squad"},
            "defender": {"roster": "orks.ros", "unit": "Lootas"},
        }
    )
    assert sc["system"] == "wh40k"  # from the roster's game system
    rifle = {
        "name": "Bolt rifle",
        "range": 24,
        "A": 2,
        "BS": 3,
        "S": 4,
        "AP": -1,
        "D": 1,
        "abilities": ["Assault", "Heavy"],
    }
    frag = {
        "name": "Astartes grenade launcher - frag",
        "range": 24,
        "A": "D3",
        "BS": 3,
        "S": 4,
        "AP": 0,
        "D": 1,
        "abilities": ["Blast"],
    }
    stats = {"M": 6, "Ld": 6, "OC": 2}
    # pistols are left out (the models have other ranged weapons); multi-mode: the first mode
    assert sc["attacker"]["models"] == [
        {"name": "Intercessor Sergeant", "count": 1, "weapons": [rifle], **stats},
        {"name": "Intercessor", "count": 1, "weapons": [rifle, frag], **stats},
        {"name": "Intercessor #2", "count": 3, "weapons": [rifle], **stats},
    ]
    assert sc["defender"]["models"] == [
        {"name": "Loota", "count": 5, "T": 5, "Sv": 6, "W": 1, "M": 6, "OC": 1}
    ]


def test_weapon_modes_melee_and_names():
    base = {"defender": {"roster": "orks.ros", "unit": "Lootas"}}
    sc, _ = resolve(
        {
            **base,
            "attacker": {
                "roster": "marines.ros",
                "unit": "Hellblaster Squad",
                "weapons": ["Plasma incinerator - supercharge"],
            },
        }
    )
    ws = [w for m in sc["attacker"]["models"] for w in m["weapons"]]
    assert {(w["name"], w["S"], w["AP"], w["D"], tuple(w["abilities"])) for w in ws} == {
        ("Plasma incinerator - supercharge", 8, -3, 2, ("Assault", "Heavy", "Hazardous"))
    }
    sc, _ = resolve({**base, "attacker": {"roster": "marines.ros", "unit": "Captain", "weapons": "melee"}})
    (m,) = sc["attacker"]["models"]
    assert m["weapons"] == [
        {"name": "Master-crafted power weapon", "A": 6, "WS": 2, "S": 5, "AP": -2, "D": 2, "abilities": []}
    ]
    sc, _ = resolve({**base, "attacker": {"roster": "marines.ros", "unit": "Captain"}})
    assert [w["name"] for w in sc["attacker"]["models"][0]["weapons"]] == [
        "Heavy bolt pistol"
    ]  # its only gun
    with pytest.raises(
        ScenarioError, match=r"attacker.weapons: Captain has no weapon 'lascannon'; it has: Heavy bolt"
    ):
        resolve({**base, "attacker": {"roster": "marines.ros", "unit": "Captain", "weapons": ["Lascannon"]}})


def test_defender_with_leader_invulnerable_and_feel_no_pain():
    sc, notes = resolve(
        {
            "attacker": {"roster": "marines.ros", "unit": "Captain"},
            "defender": {"roster": "orks.ros", "unit": "Boyz+Warboss", "cover": True},
        }
    )
    d = sc["defender"]
    assert [m["name"] for m in d["models"]] == ["Boy", "Boss Nob"]  # largest group allocated first
    assert d["leaders"] == [
        {"name": "Warboss", "count": 1, "T": 5, "Sv": 4, "W": 6, "FNP": 6, "M": 6, "Ld": 6, "OC": 1}
    ]
    assert d["cover"] is True  # merged from the scenario
    assert "Warboss: ability Might is Right" in notes and "Boyz: ability Waaagh!" in notes
    assert not any("Feel No Pain" in n for n in notes)  # it was read
    sc, _ = resolve(
        {
            "attacker": {"roster": "orks.ros", "unit": "Lootas"},
            "defender": {"roster": "marines.ros", "unit": "Captain"},
        }
    )
    assert sc["defender"]["models"][0]["invulnerable"] == 4


def test_unknown_weapon_abilities_are_kept_by_name():
    sc, notes = resolve(
        {
            "attacker": {"roster": "orks.ros", "unit": "Warboss", "weapons": "melee"},
            "defender": {"roster": "marines.ros", "unit": "Captain"},
        }
    )
    squig = next(w for w in sc["attacker"]["models"][0]["weapons"] if w["name"] == "Attack squig")
    assert squig["abilities"] == ["Extra Attacks"]
    assert "Attack squig: weapon ability Waaagh! Energy" in notes
    ok, refused = accepted(
        "wh40k", ["Lethal Hits", "Sustained Hits D3", "Anti-Infantry 4+", "Waaagh! Energy", "Psychic"]
    )
    assert ok == ["Lethal Hits", "Sustained Hits D3", "Anti-Infantry 4+", "Psychic"] and refused == [
        "Waaagh! Energy"
    ]


@pytest.mark.parametrize(
    ("system", "good", "bad"),
    [
        ("wh40k", "Lethal Hits", "Waaagh! Energy"),
        ("heresy", "Rending (5+)", "Warp Pact"),
        ("killteam", "AP1", "Waaagh!"),
    ],
)
def test_roster_rules_are_read_by_the_systems_rule_table(system, good, bad):
    assert accepted(system, [good, bad]) == ([good], [bad])


def test_a_system_without_a_rule_table_cannot_read_rosters(monkeypatch):
    import types

    import grimdice.systems.base as base

    monkeypatch.setattr(base, "get_system", lambda name: types.ModuleType("bare"))
    with pytest.raises(ScenarioError, match="rosters cannot be read for 'bare' yet"):
        accepted("bare", ["Lethal Hits"])


def test_readings_of_roster_text():
    assert split_rules('Heavy 3, Blast (3"), Rending (6+)') == ["Heavy 3", 'Blast (3")', "Rending (6+)"]
    assert split_rules("-") == [] and split_rules(None) == []
    assert kt_distance("3⬤") == 6.0 and kt_distance('6"') == 6.0 and kt_distance("⬟") == 6.0
    inv, fnp, used = protections(
        [
            Ability("Iron Halo", "The bearer has a 4+ invulnerable save."),
            Ability("Feel No Pain", "5+"),
            Ability(
                "Aura", "While this model is leading a unit, models in that unit have a 5+ invulnerable save."
            ),
        ]
    )
    assert (inv, fnp, used) == (4, 5, ["Iron Halo", "Feel No Pain"])


def test_exact_result_by_hand_wh40k():
    """Captain's heavy bolt pistol (1 shot, BS 2+, S4 AP-1 D1) at Boyz (T5, Sv 5+, W1):
    hit 5/6, wound 5+ = 1/3, save 5+ worsened to 6+ fails 5/6."""
    sc = resolve_scenario(
        {
            "attacker": {"roster": "marines.ros", "unit": "Captain"},
            "defender": {"roster": "orks.rosz", "unit": "Boyz"},
        },
        FIX,
    )
    r = calculate(sc)
    p = Fraction(5, 6) * Fraction(1, 3) * Fraction(5, 6)
    assert r.stages["damage"].mean() == pytest.approx(float(p), abs=1e-12)
    assert r.stages["models_destroyed"][1] == pytest.approx(float(p), abs=1e-12)


def test_roster_scenario_equals_the_hand_written_one():
    sc = resolve_scenario(
        {
            "attacker": {"roster": "marines.json", "unit": "Hellblaster Squad"},
            "defender": {"roster": "orks.ros", "unit": "Lootas"},
        },
        FIX,
    )
    plasma = {
        "name": "Plasma incinerator - standard",
        "range": 24,
        "A": 2,
        "BS": 3,
        "S": 7,
        "AP": -2,
        "D": 1,
        "abilities": ["Assault", "Heavy"],
    }
    hand = {
        "system": "wh40k",
        "attacker": {"models": [{"name": "Hellblaster", "count": 5, "weapons": [plasma]}]},
        "defender": {"models": [{"name": "Loota", "count": 5, "T": 5, "Sv": 6, "W": 1}]},
    }
    a, b = calculate(sc), calculate(hand)
    for stage in ("hits", "wounds", "damage", "models_destroyed"):
        assert a.stages[stage].pmf == pytest.approx(b.stages[stage].pmf, abs=1e-12)
    # 10 shots, hit 2/3, wound S7 vs T5 3+ = 2/3, save 6+ at AP-2 always fails: unsaved ~ Bin(10, 4/9);
    # 5 Lootas of W1: destroyed = min(unsaved, 5)
    p = Fraction(4, 9)
    pmf = [comb(10, k) * p**k * (1 - p) ** (10 - k) for k in range(11)]
    assert a.stages["unsaved"].mean() == pytest.approx(float(10 * p), abs=1e-12)
    assert a.stages["models_destroyed"].mean() == pytest.approx(
        float(sum(min(k, 5) * q for k, q in enumerate(pmf))), abs=1e-12
    )


def test_heresy_mapping_and_exact_result():
    sc, notes = resolve(
        {
            "attacker": {"roster": "heresy.ros", "unit": "Veletaris Storm Section"},
            "defender": {"roster": "heresy.json", "unit": "Legion Tactical Squad"},
        }
    )
    assert sc["system"] == "heresy"
    vel, prime = sc["attacker"]["models"]
    assert vel["weapons"] == [
        {"name": "Volkite charger", "AP": 5, "range": 15, "A": 2, "S": 5, "rules": ["Assault"]}
    ]
    assert prime["weapons"][0]["A"] == 3 and prime["weapons"][0]["rules"] == ["Heavy", "Pinning"]
    assert "Volkite charger: special rule Deflagrate" in notes
    sgt, _leg = sc["defender"]["models"]
    assert sgt["invulnerable"] == 4 and sgt["character"] is True and "BS" not in sgt
    assert sc["defender"]["type"] == "infantry"
    # melee: Chainsword S User AP -, Shred
    sc2, _ = resolve(
        {
            "attacker": {"roster": "heresy.ros", "unit": "Legion Tactical Squad", "weapons": "melee"},
            "defender": {"roster": "heresy.ros", "unit": "Veletaris Storm Section"},
        }
    )
    leg_melee = sc2["attacker"]["models"][1]["weapons"]
    assert leg_melee == [{"name": "Chainsword", "AP": None, "S": "user", "rules": ["Melee", "Shred"]}]
    # Rapid Fire is read as one shot: 9 Legionaries BS4 (hit on 3+: 2/3) and the sergeant BS5 (2+: 5/6)
    r = calculate(
        resolve_scenario(
            {
                "attacker": {"roster": "heresy.ros", "unit": "Legion Tactical Squad"},
                "defender": {"roster": "heresy.ros", "unit": "Veletaris Storm Section"},
            },
            FIX,
        )
    )
    assert r.stages["hits"].mean() == pytest.approx(float(9 * Fraction(2, 3) + Fraction(5, 6)), abs=1e-12)


def test_killteam_operatives():
    sc, notes = resolve(
        {
            "attacker": {"roster": "killteam.ros", "unit": "Intercessor Sniper"},
            "target": {"roster": "killteam.rosz", "unit": "Boy Fighter"},
        }
    )
    assert sc["system"] == "killteam"
    assert sc["shots"] == [{"weapon": "Stalker bolt rifle (heavy)"}]
    a = sc["attacker"]
    assert (a["M"], a["APL"], a["GA"], a["DF"], a["SV"], a["W"]) == (6.0, 3, 1, 3, 3, 13)
    assert a["weapons"][0] == {
        "name": "Stalker bolt rifle (heavy)",
        "A": 4,
        "BS": 2,
        "D": "3/4",
        "rules": ["Heavy", "Lethal 5+", "AP1"],
        "critical": ["MW2"],
    }
    assert "Choppa: rule Very Choppy" in notes and "Intercessor Sniper: ability Camo Cloak" in notes
    assert "target" in sc and "defender" not in sc
    r = calculate(sc)
    assert 0 < r.stages["damage"].mean() < 13
    # the defender key is accepted as the target too, and fights pick melee weapons
    sc, _ = resolve(
        {
            "action": "fight",
            "attacker": {"roster": "killteam.ros", "unit": "Boy Fighter"},
            "defender": {"roster": "killteam.ros", "unit": "Intercessor Gunner"},
        }
    )
    assert sc["weapon"] == "Choppa" and "target" in sc
    calculate(sc)


def test_reference_errors():
    with pytest.raises(ScenarioError, match=r"attacker.roster: no such roster file"):
        resolve(
            {
                "attacker": {"roster": "nope.ros", "unit": "x"},
                "defender": {"roster": "orks.ros", "unit": "Boyz"},
            }
        )
    with pytest.raises(ScenarioError, match=r"defender.unit: no unit 'Gretchin'"):
        resolve(
            {
                "attacker": {"roster": "orks.ros", "unit": "Boyz"},
                "defender": {"roster": "orks.ros", "unit": "Gretchin"},
            }
        )
    with pytest.raises(ScenarioError, match=r"attacker.unit: the name of a unit"):
        resolve({"attacker": {"roster": "orks.ros"}, "defender": {"roster": "orks.ros", "unit": "Boyz"}})
    with pytest.raises(ScenarioError, match=r"unknown system 'chess'"):
        resolve(
            {
                "system": "chess",
                "attacker": {"roster": "orks.ros", "unit": "Boyz"},
                "defender": {"roster": "orks.ros", "unit": "Boyz"},
            }
        )
    # scenario fields still validate (an unknown one is named)
    sc = resolve_scenario(
        {
            "attacker": {"roster": "orks.ros", "unit": "Boyz", "colour": "red"},
            "defender": {"roster": "orks.ros", "unit": "Lootas"},
        },
        FIX,
    )
    with pytest.raises(ScenarioError, match=r"attacker.colour: unknown field"):
        calculate(sc)


def test_wh40k_dash_and_torrent_text(tmp_path):
    from tests.rosters.fixtures import make_fixtures as mk

    flamer = mk.ranged("Flamer", '12"', "D6", "N/A", "4", "-", "1", "Ignores Cover, Torrent")
    unit = mk.sel(
        "Flamer Marine",
        "model",
        profiles=[mk.unit_p("Flamer Marine", *mk.MARINE)],
        selections=[mk.weapon("Flamer", 1, flamer)],
    )
    p = tmp_path / "f.ros"
    p.write_bytes(mk.to_xml(mk.G40K, "x", [("SM", [unit])]))
    sc = resolve_scenario(
        {
            "attacker": {"roster": str(p), "unit": "Flamer Marine"},
            "defender": {"roster": "orks.ros", "unit": "Lootas"},
        },
        FIX,
    )
    (w,) = sc["attacker"]["models"][0]["weapons"]
    assert (w["AP"], w["BS"], w["abilities"]) == (0, 2, ["Ignores Cover", "Torrent"])
    # Torrent hits automatically: D6 hits, S4 vs T5 wounds on 5+ (1/3), Sv 6+ fails 5/6
    r = calculate(sc)
    assert r.stages["hits"].mean() == pytest.approx(3.5, abs=1e-12)
    assert r.stages["unsaved"].mean() == pytest.approx(
        3.5 * float(Fraction(1, 3) * Fraction(5, 6)), abs=1e-12
    )
