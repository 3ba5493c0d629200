"""Answers the rules keep for the next question about the same state: the models the player may
activate (:func:`.activation.activatable`), read in every state of played games, asked twice."""

from __future__ import annotations

from pathlib import Path

import yaml

from grimdice.engine import playing
from grimdice.systems.crusade.game.activation import activatable
from grimdice.systems.crusade.game.play import _root
from grimdice.systems.crusade.game.scenario import build_setup

ROOT = Path(__file__).resolve().parents[2]


def test_the_kept_activatable_models_are_the_players_models():
    """I: after round 0, the player's models not yet activated and standing, however asked."""
    setup = build_setup(yaml.safe_load((ROOT / "examples/games/crusade-game-skirmish.yaml").read_text()))
    asked = 0
    for seed in range(3):
        game = playing.play_game(_root(setup), [playing.random_bot] * 2, seed)
        for s in game.states:
            idle = s.idle()
            if idle.round == 0 or idle.ended:
                continue
            want = [
                i for i, t in enumerate(idle.tokens) if t.side == idle.player and t.standing and not t.done
            ]
            got = activatable(idle)
            assert got == want
            got.append(-1)  # the caller's list: the kept answer is not changed by it
            assert activatable(idle) == want  # the kept answer
            other = idle.idle(player=1 - idle.player)  # the same tokens, the other player
            assert activatable(other) == [
                i for i, t in enumerate(other.tokens) if t.side == other.player and t.standing and not t.done
            ]
            asked += 1
    assert asked > 300
