"""The shared rule table: one parser for every system's rule texts, and the rule index."""

import pytest

from grimdice.engine.rules import Param, Reading, Rule, RuleTable
from grimdice.errors import ScenarioError

TABLE = RuleTable(
    "demo",
    [
        Rule("Rending", Param.ROLL, "weapon", "wounds on X+ are AP 2", "demo p.1", example="Rending (5+)"),
        Rule("Poisoned", Param.ROLL, "weapon", "wounds on X+", "demo p.2", default=4),
        Rule("Sustained Hits", Param.DICE, "weapon", "extra hits", "demo p.3", bounds=(0, 6)),
        Rule("AP", Param.COUNT, "weapon", "armour piercing", "demo p.4", bounds=(1, 6), combine="max"),
        Rule("P", Param.COUNT, "weapon", "piercing on crits", "demo p.4", field="piercing"),
        Rule("Anti-", Param.ROLL, "weapon", "critical wound on X+", "demo p.5", keyed=True, field="anti"),
        Rule("Blast", Param.DISTANCE, "weapon", "hits around", "demo p.6"),
        Rule("Large Blast", Param.FLAG, "weapon", "a bigger blast", "demo p.6"),
        Rule("Pistol", Param.FLAG, "weapon", "shoot in melee", "demo p.7", effect=False),
        Rule("Tough", Param.COUNT, "unit", "X wounds", "demo p.8", verified=False, reading="assumed X"),
    ],
    readings=[Reading("melee-chart", "WS chart", "7th ed.", "the 7th-edition values")],
    distances={"circle": 2.0},
)


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("Rending (5+)", "rending", 5),
        ("rending 5+", "rending", 5),
        ("Rending(5)", "rending", 5),
        ("[RENDING 4+]", "rending", 4),
        ("Poisoned", "poisoned", 4),
        ("AP1", "ap", 1),
        ("ap 2", "ap", 2),
        ("P1", "piercing", 1),
        ("Blast circle", "blast", 2.0),
        ('Blast 3"', "blast", 3.0),
        ("Large Blast", "large_blast", True),
        ("Tough(3)", "tough", 3),
    ],
)
def test_one_parser_reads_the_ways_players_write_rules(text, key, value):
    assert TABLE.parse([text], "w") == {key: value}


def test_dice_keyed_and_combined_values():
    out = TABLE.parse(["Sustained Hits D3", "Anti-Infantry 4+", "anti-monster 5+", "AP1", "AP3"], "w")
    assert out["sustained_hits"].dist.mean() == pytest.approx(2.0)
    assert out["anti"] == {"infantry": 4, "monster": 5}
    assert out["ap"] == 3  # combine="max": the best is kept


def test_no_effect_rules_are_accepted_and_dropped():
    assert TABLE.parse(["Pistol"], "w") == {}


def test_a_prefix_is_not_a_match_inside_a_word():
    assert TABLE.match("pistol")[0].name == "Pistol"
    assert TABLE.match("pxyz") is None


@pytest.mark.parametrize(
    "items, where, words",
    [
        (["Flaming"], "w.0", ["unknown rule", "allowed:", "Rending X+"]),
        (["Rending"], "w.0", ["needs its value", "Rending (5+)"]),
        (["Rending 7+"], "w.0", ["2+ to 6+", "7+"]),
        (["Rending x+"], "w.0", ["X+"]),
        (["Large Blast 3"], "w.0", ["takes no value"]),
        (["AP9"], "w.0", ["1 to 6"]),
        (["Blast banana"], "w.0", ["not a distance", "circle"]),
        ([3], "w.0", ["is text"]),
        ("Rending", "w", ["a list"]),
        (["x" * 10_000], "w.0", ["unknown rule"]),
    ],
)
def test_errors_name_the_field_and_what_is_allowed(items, where, words):
    with pytest.raises(ScenarioError) as e:
        TABLE.parse(items, "w")
    assert e.value.field == where
    for w in words:
        assert w in str(e.value)
    assert len(str(e.value)) < 1000  # a huge input is quoted as a short excerpt


def test_index_rows_markdown_and_unverified_notes():
    rows = TABLE.rows()
    assert [r["rule"] for r in rows][:2] == ["Rending X+", "Poisoned X+"]
    assert rows[-1]["kind"] == "reading" and rows[-1]["verified"].startswith("no:")
    md = TABLE.markdown()
    assert md.count("\n") == len(rows) + 1
    assert set(TABLE.unverified()) == {"tough", "melee-chart"}
    assert "7th-edition" in TABLE.note("melee-chart")


def test_a_table_refuses_a_name_given_twice_and_unexplained_unverified_rules():
    with pytest.raises(ValueError):
        RuleTable(
            "x", [Rule("A", Param.FLAG, "w", "", ""), Rule("B", Param.FLAG, "w", "", "", aliases=("a",))]
        )
    with pytest.raises(ValueError):
        Rule("A", Param.FLAG, "w", "", "", verified=False)
