"""The melee To Hit chart: the classic values, flagged as a reading in every melee result, or the
scenario's own table (conditions.ws_chart); by hand fractions."""

from grimdice.systems.heresy import calculate
from tests.heresy.helpers import F, approx, assert_names_field, melee, model, run, scenario, weapon

# a table of the book's shape: the attacker's WS row, the target's WS column; here 2+ when the
# attacker's WS is higher, 6+ when lower, 4+ when equal (made up: not the classic values)
CHART = [[2 if a > t else 6 if a < t else 4 for t in range(1, 11)] for a in range(1, 11)]


def notes(r) -> str:
    return " ".join(r.notes)


def test_classic_chart_is_flagged_in_every_melee_result():
    r = run(melee(), model(WS=3), shooter={"A": 1, "WS": 4})
    assert r["hits"][1] == approx(F(4, 6))  # WS 4 against WS 3: 3+
    assert "melee_to_hit_chart" in notes(r)
    fight = scenario(
        melee(),
        model(WS=4, weapons=[melee()], A=1),
        shooter={"A": 1, "T": 4, "W": 1},
        conditions={"fight": True},
    )
    assert "melee_to_hit_chart" in notes(calculate(fight))
    assert "melee_to_hit_chart" not in notes(run(weapon(), model()))  # shooting uses no WS chart


def test_scenario_chart_is_used_and_named():
    lower = run(melee(), model(WS=5), shooter={"A": 1, "WS": 4}, conditions={"ws_chart": CHART})
    assert lower["hits"][1] == approx(F(1, 6))  # the table's 6+ (classic: 4+)
    higher = run(melee(), model(WS=3), shooter={"A": 1, "WS": 4}, conditions={"ws_chart": CHART})
    assert higher["hits"][1] == approx(F(5, 6))  # 2+ (classic: 3+)
    assert "melee_to_hit_chart" not in notes(higher) and "conditions.ws_chart" in notes(higher)


def test_chart_shape_and_values_are_checked():
    short = scenario(melee(), model(), conditions={"ws_chart": CHART[:9]})
    assert_names_field(short, "conditions.ws_chart", "10")
    bad = [row[:] for row in CHART]
    bad[2][3] = 7
    assert_names_field(
        scenario(melee(), model(), conditions={"ws_chart": bad}),
        "conditions.ws_chart",
        "WS 3 against WS 4: 7",
    )
