"""I: "each model, one at a time" of the player activates once a turn: the models offered
(:func:`.activation.activatable`, read inline after round 0) are exactly those
:func:`.activation.can_activate` allows (its own side, not yet done, standing; in round 0 only
IX INFILTRATE models), the turn going on (:func:`.rules.settle` asks the same) while one is left, at
every state of played games of every bundled scenario."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from grimdice.systems.crusade.game import activation, rules
from grimdice.systems.crusade.game.play import play_game
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import GameState

EXAMPLES = sorted(Path("examples/games").glob("crusade-game-*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_models_offered_are_those_that_may_activate(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    setup = build_setup(yaml.safe_load(path.read_text()))
    states: list[GameState] = []
    real = activation.activatable

    def seen(s: GameState) -> list[int]:
        states.append(s)
        return real(s)

    monkeypatch.setattr(rules, "activatable", seen)  # what settle asks: is a model left?
    for seed in range(2):
        play_game(setup, ("random", "random"), seed)
    assert len(states) > 20
    rounds = set()
    for s in states:
        want = [i for i in range(len(s.tokens)) if activation.can_activate(s, i)]
        assert list(activation.activatable(s)) == want
        assert activation.activations(s) == [("activate", i) for i in want]
        rounds.add(s.round)
    assert len(rounds) >= 2
