"""``settle``'s shortcut (:data:`.rules._CALM`): a state it takes as calm (the same tokens, setup,
items and cards as one that had nothing to do, or a state an activation's end, a new turn or a
step left as calm as the one before) has nothing to do for deaths and objectives either, checked at
every settle of played games (the plain look, :func:`.rules._deaths_and_goals`, gives the state
itself)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from grimdice.systems.crusade.game import rules
from grimdice.systems.crusade.game.play import play_game
from tests.crusade_game.kitchen import kitchen

EXAMPLES = sorted(Path("examples/games").glob("crusade-game-*.yaml"))


@pytest.mark.parametrize("name", [p.stem for p in EXAMPLES] + ["kitchen"])
def test_a_state_settle_takes_as_calm_has_nothing_to_do(name, monkeypatch):
    data = kitchen() if name == "kitchen" else yaml.safe_load(Path(f"examples/games/{name}.yaml").read_text())
    real = rules.settle
    seen = {"calm": 0, "not": 0}

    def checking(s):
        calm = rules._CALM[0]
        taken = s.tokens is calm[0] and s.setup is calm[1] and s.items is calm[2] and s.psy is calm[3]
        if not (s.ended or s.pending or s.control) and taken:
            assert rules._deaths_and_goals(s) is s
            seen["calm"] += 1
        else:
            seen["not"] += 1
        return real(s)

    monkeypatch.setattr(rules, "settle", checking)
    for seed in range(3):
        play_game(data, ("random", "random"), seed)
    assert seen["calm"] > 20 and seen["not"] > 20, seen
