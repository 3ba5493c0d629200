"""The docs name each game's log version as the code writes it (a replay refuses any other)."""

from __future__ import annotations

import re
from pathlib import Path

from grimdice.systems.crusade.game.play import LOG_VERSION as CRUSADE_VERSION
from grimdice.systems.onepage.game.play import LOG_VERSION as ONEPAGE_VERSION

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_game_docs_name_the_log_version():
    onepage = (DOCS / "onepage-game.md").read_text()
    crusade = (DOCS / "crusade-game.md").read_text()
    assert re.findall(r"`version` \((\d+);", onepage) == [str(ONEPAGE_VERSION)]
    assert re.findall(r"the log must be of version (\d+)", crusade) == [str(CRUSADE_VERSION)]


def test_limits_names_both_log_versions():
    limits = (DOCS / "limits.md").read_text()
    found = re.search(r"One Page 40k (\d+), Rules Crusade (\d+)", limits)
    assert found is not None
    assert found.groups() == (str(ONEPAGE_VERSION), str(CRUSADE_VERSION))
