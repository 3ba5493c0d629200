"""Bad input gets a ScenarioError naming the dotted field and what is allowed."""

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.killteam import calculate
from tests.killteam.helpers import gun, operative, scenario


@pytest.mark.parametrize(
    "patch,field,needle",
    [
        (
            {"attacker": {"W": 10, "weapons": [gun(rules=["Flaming"])]}},
            "attacker.weapons.0.rules.0",
            "unknown rule 'Flaming'; allowed: AP X, P X, Barrage",
        ),
        (
            {"attacker": {"W": 10, "weapons": [gun(critical=["MW"])]}},
            "attacker.weapons.0.critical.0",
            "needs its value",
        ),
        (
            {"attacker": {"W": 10, "weapons": [gun(rules=["Lethal 9+"])]}},
            "attacker.weapons.0.rules.0",
            "2+ to 6+",
        ),
        ({"attacker": {"W": 10, "weapons": [gun(D="3-4")]}}, "attacker.weapons.0.D", "normal/critical"),
        ({"attacker": {"W": 10, "weapons": [gun(WS=3)]}}, "attacker.weapons.0", "exactly one of BS"),
        ({"attacker": {"W": 10, "weapons": [gun(BS="3++")]}}, "attacker.weapons.0.BS", "roll"),
        ({"target": operative(Toughness=4)}, "target.Toughness", "unknown field; allowed here:"),
        ({"target": operative(wounds=12)}, "target", "cannot exceed W"),
        ({"target": operative(rules=["Hot"])}, "target.rules", "Invulnerable Save x+"),
        ({"target": operative(distance="hexagon")}, "target.distance", "triangle, circle, square, pentagon"),
        ({"shots": [{"weapon": "lasgun"}]}, "shots.0.weapon", "has no weapon 'lasgun'; it has: gun"),
        ({"shots": [{"attacker": "bob"}]}, "shots.0.attacker", "no operative 'bob'"),
        (
            {"shots": [{"activation": {"actions": ["jump"]}}]},
            "shots.0.activation.actions.0",
            "unknown action",
        ),
        ({"objectives": {"attacker": "fun"}}, "objectives.attacker", "allowed: damage, kill"),
        ({"objectives": {"defender": "kill"}}, "objectives.defender", "allowed: damage, survival"),
    ],
)
def test_bad_input_names_the_field(patch, field, needle):
    sc = scenario() | patch
    with pytest.raises(ScenarioError) as info:
        calculate(sc)
    assert info.value.field == field, info.value
    assert needle in info.value.message, info.value.message


def test_two_ranged_weapons_need_a_shot():
    sc = scenario()
    sc["attacker"] = {"name": "x", "W": 8, "weapons": [gun(name="a"), gun(name="b")]}
    with pytest.raises(ScenarioError, match="name the one used"):
        calculate(sc)


def test_fusillade_split_must_use_all_dice():
    sc = scenario(
        gun(A=4, rules=["Fusillade"]),
        nearby=[operative(name="b", distance_to_target=1)],
        shots=[{"split": {"target": 1, "b": 1}}],
    )
    with pytest.raises(ScenarioError, match="distribute exactly 4"):
        calculate(sc)
