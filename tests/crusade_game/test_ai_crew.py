"""The AI's artillery crew (:mod:`grimdice.systems.crusade.ai.crew`, ours): a crew model keeps
within 1" of its standing piece, where VIII ARTILLERY gives it front cover, while an enemy that
shoots stands; without a crew, a shooting enemy or a standing piece it goes on to its goals."""

from __future__ import annotations

import numpy as np

from grimdice.engine.game import CHANCE
from grimdice.systems.crusade.ai.players import ai_player
from grimdice.systems.crusade.damage import KO
from grimdice.systems.crusade.game.state import READY, UNLOADED, GameState
from tests.crusade_game.helpers import STEALER, at, state
from tests.crusade_game.test_crew import GUN, LONG, MARINE, SHOOTER

CLAWS = dict(STEALER, name="Clawed")


def _crew_turn(crew_at, crew=(1,), enemy="Stealer", gun_down=False) -> GameState:
    """The marine (token 1) activated and played by the AI to the end of its activation."""
    gun = dict(at("Gun", 14, 2), crew=list(crew))
    s = state(
        LONG, [gun, at("Marine", *crew_at)], [at(enemy, 2, 2)],
        profiles=[GUN, MARINE, SHOOTER, CLAWS], first=0,
    )  # fmt: skip
    if gun_down:
        s = s.with_token(0, cond=KO)
    s = _activation(s, 1)
    assert s.tokens[2].standing
    return s


def _activation(s: GameState, k: int) -> GameState:
    """Model ``k`` activated and played by the AI to the end of its activation (each chance node:
    its likeliest outcome)."""
    s = s.apply(("activate", k))
    rng = np.random.default_rng(0)
    while s.active == k and not s.ended:
        if s.current_player() == CHANCE:
            s = s.apply(max(s.chance_outcomes(), key=lambda o: o[1])[0])
        else:
            s = s.apply(ai_player(s, rng))
    return s


def _from_gun(s: GameState) -> int:
    return s.setup.board.range(s.tokens[1].sq, (14, 2))


def test_a_crew_beside_its_gun_stays_in_its_cover():
    assert _from_gun(_crew_turn((13, 2))) <= 1
    assert _from_gun(_crew_turn((13, 2), crew=())) > 1  # not its crew: it advances on the enemy


def test_a_crew_away_from_its_gun_goes_back_to_it():
    assert _from_gun(_crew_turn((10, 2))) <= 1


def test_a_crew_goes_on_when_the_cover_is_worth_nothing():
    assert _from_gun(_crew_turn((13, 2), enemy="Clawed")) > 1  # no enemy shoots
    assert _from_gun(_crew_turn((13, 2), gun_down=True)) > 1  # the piece is down: no cover


def _gun_turn(unloaded: bool) -> GameState:
    """The gun (token 0, its cannon unloaded or ready) activated and played by the AI to the end of
    its activation, a stealer 12 squares off."""
    s = state(LONG, [at("Gun", 14, 2)], [at("Stealer", 2, 2)], profiles=[GUN, MARINE, SHOOTER], first=0)
    if unloaded:
        s = s.with_token(0, arms=(UNLOADED,))
    return _activation(s, 0)


def test_the_gun_keeps_its_place_after_reloading():
    # VIII ARTILLERY "May not move and fire": a step would cost its next shot
    s = _gun_turn(unloaded=True)
    assert s.tokens[0].arms == (READY,)  # it reloaded ...
    assert s.tokens[0].sq == (14, 2)  # ... and stayed where it stands


def test_the_gun_fires_from_where_it_stands():
    s = _gun_turn(unloaded=False)
    assert s.tokens[0].arms == (UNLOADED,)  # fired (ARTILLERY: unloaded after each shot)
    assert s.tokens[0].sq == (14, 2)


def test_a_marine_in_the_guns_place_advances():
    # the same place and enemy, a model with no ARTILLERY weapon: it goes on to its goals
    s = state(LONG, [at("Marine", 14, 2)], [at("Stealer", 2, 2)], profiles=[GUN, MARINE, SHOOTER], first=0)
    s = _activation(s, 0)
    assert s.setup.board.range(s.tokens[0].sq, (2, 2)) < 12
