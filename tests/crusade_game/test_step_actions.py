"""The board's steps as actions (:func:`.choices.board_steps`): the actions kept with a table's
kept steps give what the plain filter of the steps gives, in every state of played games."""

from __future__ import annotations

from pathlib import Path

import yaml

from grimdice.engine import playing
from grimdice.systems.crusade.game import choices, climb, flight
from grimdice.systems.crusade.game.activation import activatable
from grimdice.systems.crusade.game.board import FULL
from grimdice.systems.crusade.game.play import _root
from grimdice.systems.crusade.game.sampling import ordinary
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import GameState

ROOT = Path(__file__).resolve().parents[2]


def _plain(s: GameState) -> list[tuple[object, ...]]:
    """V: each board step the move left pays for (a whole move first, a roll with a chance)."""
    full = s.moved == 0 and s.budget >= s.move_of(s.tokens[s.active])
    return [
        (kind, *to)
        for kind, to, cost in flight._steps_of(s)
        if (full if cost == FULL else cost <= s.budget + 1e-9)
        and (kind not in climb.CLIMBS or climb.chance(s, kind, to) > 0)
    ]


def _states(name: str, seeds: range) -> list[GameState]:
    setup = build_setup(yaml.safe_load((ROOT / "examples/games" / name).read_text()))
    out = []
    for seed in seeds:
        game = playing.play_game(_root(setup), [playing.random_bot] * 2, seed)
        out += [s for s in game.states if s.active >= 0 and ordinary(s)]
    return out


def test_the_kept_step_actions_are_the_plain_filters():
    states = _states("crusade-game-skirmish.yaml", range(6))
    for s in states + states:  # the second time, every kept tuple's actions are kept
        assert choices.board_steps(s) == _plain(s)
    assert len(states) > 300


def test_the_kept_activatable_models_are_the_players_models():
    """I: after round 0, the player's models not yet activated and standing, asked twice."""
    for s in _states("crusade-game-skirmish.yaml", range(3)):
        idle = s.idle()
        want = [i for i, t in enumerate(idle.tokens) if t.side == idle.player and t.standing and not t.done]
        if idle.round > 0:
            assert activatable(idle) == want
            assert activatable(idle) == want
