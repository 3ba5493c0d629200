"""The random player's draw (``GameState.random_action``, :mod:`.sampling`): every draw legal, the
kinds it builds exactly the legal actions, and its distribution: a kind uniformly, then an action."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import yaml

from grimdice.engine import playing
from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.systems.crusade.ai.players import ai_player
from grimdice.systems.crusade.game.sampling import (
    STEP,
    STRUCTURE,
    kind_of,
    never_built,
    ordinary,
    random_action,
    sources_of,
    support,
)
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import GameState, initial_state
from tests.crusade_game.kitchen import kitchen

EXAMPLES = sorted(Path("examples/games").glob("crusade-game-*.yaml"))


def _uniform(state, rng):
    """The uniform player over the whole list (other states than the sampler's own games)."""
    acts = state.legal_actions()
    return acts[int(rng.integers(len(acts)))]


def _states(data, bots, seed) -> list[GameState]:
    setup = build_setup(data)
    game = playing.play_game(initial_state(setup), bots, seed)
    return [s for s in game.states if s.current_player() not in (CHANCE, TERMINAL)]


def _grouped(s: GameState) -> dict[str, set]:
    out: dict[str, set] = {}
    for a in s.legal_actions():
        out.setdefault(kind_of(a), set()).add(a)
    return out


PLAYS = (("uniform", 1), ("random", 2), ("ai", 3))
GAMES = [
    *[(path.stem, bots, seed) for path in EXAMPLES for bots, seed in PLAYS],
    *[("kitchen", bots, seed) for bots, seed in (("uniform", 4), ("uniform", 5), ("random", 6))],
    *[("mobs", bots, seed) for bots, seed in (("uniform", 1), ("random", 2))],
]
BOTS = {"uniform": _uniform, "random": playing.random_bot, "ai": ai_player}


def _mobs():
    """Gangers that mob (IX MOB) and keep their action for a mob, against a brute and a marine."""
    from tests.crusade_game.helpers import MARINE, at, scenario
    from tests.crusade_game.test_mob import BRUTE, GANGER, HALL

    a = [at("Ganger", 1, 1), at("Ganger", 1, 2), at("Ganger", 1, 3), at("Ganger", 2, 2)]
    b = [at("Brute", 4, 2), at("Marine", 5, 1)]
    return scenario(HALL, a, b, profiles=[GANGER, BRUTE, MARINE], turns=4)


def _data(name: str):
    if name in ("kitchen", "mobs"):
        return kitchen() if name == "kitchen" else _mobs()
    return yaml.safe_load(Path(f"examples/games/{name}.yaml").read_text())


@pytest.mark.slow
@pytest.mark.parametrize(("name", "bot", "seed"), GAMES)
def test_the_kinds_built_are_the_legal_actions_and_every_draw_is_legal(name, bot, seed):
    states = _states(_data(name), [BOTS[bot], BOTS[bot]], seed)
    rng = np.random.default_rng(seed)
    checked = 0
    for s in states:
        legal = set(s.legal_actions())
        got = support(s)
        if got is not None:
            assert got == _grouped(s), (s.tokens[s.active], s.budget, s.acted)
            checked += 1
        for _ in range(3):
            assert random_action(s, rng) in legal
    assert checked > 10  # the ordinary decisions are most of a game's


def test_draws_on_the_skirmish_are_legal():
    for s in _states(_data("crusade-game-skirmish"), [playing.random_bot, playing.random_bot], 7)[:200]:
        legal = set(s.legal_actions())
        assert s.random_action(np.random.default_rng(len(legal))) in legal


def _busy_state() -> GameState:
    """An ordinary decision with several kinds and several steps (from a seeded skirmish game)."""
    states = _states(_data("crusade-game-skirmish"), [_uniform, _uniform], 3)
    for s in states:
        groups = _grouped(s)
        if ordinary(s) and len(groups) >= 4 and len(groups.get(STEP, ())) >= 5:
            return s
    raise AssertionError("no such state")


def test_a_kind_is_drawn_uniformly_then_an_action_of_it():
    s = _busy_state()
    groups = _grouped(s)
    rng = np.random.default_rng(0)
    n = 6000
    drawn = Counter(random_action(s, rng) for _ in range(n))
    by_kind = Counter()
    for a, c in drawn.items():
        by_kind[kind_of(a)] += c
    # each kind 1/K of the draws, each action of a kind 1/(K * its count): within 5 standard deviations
    for kind, acts in groups.items():
        p = 1 / len(groups)
        assert abs(by_kind[kind] - n * p) < 5 * (n * p * (1 - p)) ** 0.5, kind
        for a in acts:
            q = p / len(acts)
            assert abs(drawn[a] - n * q) < 5 * (n * q * (1 - q)) ** 0.5 + 1, a
    assert set(drawn) == set().union(*groups.values())


STRUCTURE_ATTACKS = {"shoot_sector", "melee_sector", "shoot_piece", "melee_piece"}


def _walls_and_a_model() -> GameState:
    """An ordinary decision (a seeded skirmish game) with a shot at a model and attacks of two
    names at structures (VI: a sector from inside, a barricade or catwalk)."""
    for s in _states(_data("crusade-game-skirmish"), [_uniform, _uniform], 3):
        names = {a[0] for a in s.legal_actions()}
        if ordinary(s) and "shoot" in names and len(names & STRUCTURE_ATTACKS) >= 2:
            return s
    raise AssertionError("no such state")


def test_the_attacks_at_structures_are_one_kind_drawn_as_often_as_a_shot_at_a_model():
    s = _walls_and_a_model()
    groups = _grouped(s)
    assert {a[0] for a in groups[STRUCTURE]} == {a[0] for a in s.legal_actions()} & STRUCTURE_ATTACKS
    rng = np.random.default_rng(1)
    n = 4000
    drawn = Counter(kind_of(random_action(s, rng)) for _ in range(n))
    p = 1 / len(groups)  # every kind, the four names of structure attacks together one of them
    for kind in (STRUCTURE, "shoot"):
        assert abs(drawn[kind] - n * p) < 5 * (n * p * (1 - p)) ** 0.5, kind


def test_the_game_layer_random_player_uses_the_draw():
    s = _busy_state()
    assert playing.random_bot(s, np.random.default_rng(5)) == s.random_action(np.random.default_rng(5))


def test_conformance_checks_the_draws():
    setup = build_setup(_data("crusade-game-corridor"))
    assert playing.conformance([initial_state(setup)], seeds=(0,)) == []


@pytest.mark.parametrize(
    ("name", "bot", "seed"),
    [(p.stem, "uniform", 7) for p in EXAMPLES] + [("kitchen", "uniform", 8), ("mobs", "uniform", 1)],
)
def test_the_sources_left_unbuilt_give_no_action(name, bot, seed):
    """The draw's shortcut (:data:`.sampling.MAY`): a source it does not build for a model gives
    that model no action in any ordinary decision of a played game."""
    skipped = 0
    for s in _states(_data(name), [BOTS[bot], BOTS[bot]], seed):
        never = never_built(s) if ordinary(s) else []
        for names, build in sources_of(s) or []:
            if names in never:
                assert build() == [], (names, s.tokens[s.active])
                skipped += 1
    assert skipped > 0
