"""Hidden information: a player's observation of a state, and players that decide from it only."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import yaml

from grimdice.engine import playing
from grimdice.engine.game import CHANCE, TERMINAL, observe
from grimdice.systems.crusade.ai.players import ai_player, random_player
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import initial_state

PSYKERS = Path("examples/games/crusade-game-psykers.yaml")


@pytest.fixture(scope="module")
def setup():
    return build_setup(yaml.safe_load(PSYKERS.read_text()))


def _hide_otherwise(s, player):
    """The state with the hidden enemy information changed: the enemy's unrevealed blips' contents
    rotated among them, and one card of the enemy's hand swapped with one of the deck."""
    enemy = 1 - player
    blips = [i for i, t in enumerate(s.tokens) if t.side == enemy and t.blip and t.alive]
    tokens = list(s.tokens)
    for a, b in zip(blips, blips[1:] + blips[:1], strict=True):
        tokens[a] = replace(s.tokens[a], blip=s.tokens[b].blip)
    other = replace(s, tokens=tuple(tokens))
    psy = s.psy
    if psy is not None and psy.hands[enemy] and psy.deck:
        hand, deck = list(psy.hands[enemy]), list(psy.deck)
        hand[0], deck[0] = deck[0], hand[0]
        hands = list(psy.hands)
        hands[enemy] = tuple(sorted(hand))
        other = replace(other, psy=replace(psy, hands=(hands[0], hands[1]), deck=tuple(sorted(deck))))
    return other


def _decision_states(setup, seed):
    game = playing.play_game(initial_state(setup), [random_player, random_player], seed)
    return [s for s in game.states if s.current_player() not in (CHANCE, TERMINAL)]


@pytest.mark.parametrize("seed", [0, 1])
def test_hidden_enemy_information_does_not_change_the_ai_s_decision(setup, seed):
    differing = 0
    for s in _decision_states(setup, seed)[::3]:
        who = s.current_player()
        other = _hide_otherwise(s, who)
        differing += other != s
        assert observe(other, who) == observe(s, who)
        assert other.legal_actions() == s.legal_actions()
        rng_a, rng_b = np.random.default_rng(0), np.random.default_rng(0)
        assert ai_player(other, rng_b) == ai_player(s, rng_a)
    assert differing > 5  # the states compared did differ in what the player may not know


def test_the_observation_hides_blip_contents_and_the_enemy_hand(setup):
    s = initial_state(setup)
    while s.current_player() == CHANCE:  # the draws
        s = s.apply(s.chance_outcomes()[0][0])
    seen = s.observation(0)
    pool = tuple(sorted(k for t in s.tokens if t.side == 1 and t.blip for k in t.blip))  # none revealed
    assert all(t.blip == pool for t in seen.tokens if t.side == 1 and t.blip)
    assert [t.blip for t in seen.tokens if t.side == 0] == [t.blip for t in s.tokens if t.side == 0]
    assert seen.psy.hands[1] == (-1,) * len(s.psy.hands[1]) and seen.psy.hands[0] == s.psy.hands[0]
    assert sorted(seen.psy.deck) == sorted(s.psy.deck + s.psy.hands[1])
    mine = s.observation(1)  # the cult knows its own blips and cards, not the marines' hand
    assert [t.blip for t in mine.tokens] == [t.blip for t in s.tokens]
    assert mine.psy.hands[1] == s.psy.hands[1] and mine.psy.hands[0] == (-1,) * len(s.psy.hands[0])
    assert seen.observation(0) == seen


def test_a_game_without_hidden_information_is_its_own_observation():
    class Open:
        pass

    state = Open()
    assert observe(state, 0) is state
    corridor = build_setup(yaml.safe_load(Path("examples/games/crusade-game-corridor.yaml").read_text()))
    s = initial_state(corridor)
    assert s.observation(1) == s  # the terminators have no blips: nothing hidden from the genestealers
    assert s.observation(0) != s


def test_the_bots_are_given_the_observation(setup):
    given = []

    def spy(state, rng):
        given.append(state)
        return random_player(state, rng)

    game = playing.play_game(initial_state(setup), [spy, random_player], 3)
    truth = [s for s in game.states if s.current_player() == 0]
    assert given == [s.observation(0) for s in truth]
    assert any(g != t for g, t in zip(given, truth, strict=True))
