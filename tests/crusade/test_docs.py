"""The docs' rule table is the rule table (rules-crusade VIII, IX)."""

from pathlib import Path

from grimdice.systems.crusade.rules import RULES

DOC = Path(__file__).resolve().parents[2] / "docs" / "crusade.md"


def test_every_unverified_reading_is_in_the_docs():
    text = DOC.read_text()
    for key in RULES.unverified():
        assert f"`{key}`" in text or key in text
