"""Profile input: real Leadership values validate; an error quotes the value once."""

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems import calculate


def scenario(ld=7, ap=-1):
    weapon = {"name": "b", "A": 2, "BS": 3, "S": 4, "AP": ap, "D": 1}
    return {
        "system": "wh40k",
        "attacker": {"models": [{"name": "a", "count": 1, "Ld": ld, "weapons": [weapon]}]},
        "defender": {"models": [{"count": 5, "T": 4, "Sv": 3, "W": 1, "Ld": 8}]},
    }


@pytest.mark.parametrize("ld", [6, 7, 8])
def test_leadership_seven_and_eight_plus_are_accepted(ld):
    assert calculate(scenario(ld=ld))["hits"].mean() == pytest.approx(2 * 4 / 6)


def test_error_quotes_the_value_once():
    with pytest.raises(ScenarioError) as e:
        calculate(scenario(ap=5))
    assert str(e.value).count("got 5") == 1
    with pytest.raises(ScenarioError) as e:
        calculate(scenario(ld=13))
    assert e.value.field == "attacker.models.0.Ld"
