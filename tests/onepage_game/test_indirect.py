"""Indirect fire when some models see the target and others do not (firing.parts).

"All models in a unit that have line of sight to an enemy unit and that have a weapon that is within
range of that unit may fire one of their weapons at it." / Indirect: "Weapons with this special rule
may be fired at enemies that are not within line of sight, however when fired at targets not within
line of sight they count as being in Cover." / Cover: "the unit counts as having the Armored special
rule against shooting attacks" / Armored: "On a 4+ the hit is ignored."
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from grimdice.engine.table.terrain import Table, Terrain
from tests.onepage_game.test_firing import SQUAD, TARGETS, duel, law, shooting

# a wall that hides the targets from every part of the squad's right-hand model's base only
WALL = Terrain(
    "wall", np.array([[37.0, 24.0], [60.0, 24.0], [60.0, 26.0], [37.0, 26.0]]), frozenset({"blocks_sight"})
)


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    from math import comb

    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def test_models_without_sight_fire_their_indirect_weapons_with_the_target_in_cover() -> None:
    s = shooting(duel(SQUAD, TARGETS, (36.0, 40.0), Table(terrain=(WALL,))))
    assert s.firing_sight(0, 1)[2] == 4  # four models see, the fifth does not
    key = s.shot_key(0, 1)
    assert key[1] == 5 and key[7] == (1, 48.0)  # the fifth fires its Mortar blind
    # the first four in listed order (the Rifles) see: 4 attacks, hit on 4+ (1/2), Quality 5+ block
    # fails 2/3; the Mortar: 6 attacks, hit 1/2, Cover ignores half the hits, the block fails 2/3
    rifles = binomial(4, Fraction(1, 2) * Fraction(2, 3))
    mortar = binomial(6, Fraction(1, 2) * Fraction(1, 2) * Fraction(2, 3))
    lost = sum(p * q * min(i + j, 5) for i, p in rifles.items() for j, q in mortar.items())
    got = sum(p * (5 - st[0].models) for st, p in law(s, key).items())
    assert got == pytest.approx(float(lost), abs=1e-12)
    open_ = shooting(duel(SQUAD, TARGETS, (36.0, 40.0)))  # all see: the Mortar fires without Cover
    assert open_.shot_key(0, 1)[7] is False


def test_a_unit_of_indirect_weapons_fires_its_blind_model_with_the_target_in_cover() -> None:
    mortars = {"name": "Mortars", "size": 5, "quality": 4, "equipment": ['Mortar (48", A6, Indirect)']}
    s = shooting(duel(mortars, TARGETS, (36.0, 40.0), Table(terrain=(WALL,))))
    key = s.shot_key(0, 1)
    assert key[1] == 5 and key[7] == (1, 48.0)
    # four Mortars with sight, one without (its hits: Cover)
    seen = binomial(24, Fraction(1, 2) * Fraction(2, 3))
    blind = binomial(6, Fraction(1, 2) * Fraction(1, 2) * Fraction(2, 3))
    lost = sum(p * q * min(i + j, 5) for i, p in seen.items() for j, q in blind.items())
    got = sum(p * (5 - st[0].models) for st, p in law(s, key).items())
    assert got == pytest.approx(float(lost), abs=1e-12)


def walled_setup():
    """Two squads with Indirect weapons and two targets across a row of sight-blocking walls, so some
    models see a target and others do not."""
    from grimdice.systems.onepage.game import Setup, army_from_mapping
    from tests.onepage_game.test_firing import army

    walls = tuple(
        Terrain(
            f"wall {x}",
            np.array([[x, 23.0], [x + 3, 23.0], [x + 3, 25.0], [x, 25.0]]),
            frozenset({"blocks_sight"}),
        )
        for x in (8.0, 20.0, 32.0, 44.0, 56.0)
    )
    setup = Setup(
        (
            army_from_mapping(army("A", SQUAD, dict(SQUAD, name="Second")), "a"),
            army_from_mapping(army("B", TARGETS, dict(TARGETS, name="More")), "b"),
        ),
        Table(terrain=walls),
    )
    return setup


def uniform(state: Any, rng: np.random.Generator) -> Any:
    """A player uniform over all legal actions (the random player draws a unit, then a kind)."""
    acts = state.legal_actions()
    return acts[int(rng.integers(len(acts)))]


def mixed(sts: list[Any]) -> list[Any]:
    """The states about to resolve a shooting with models firing with and without sight."""
    return [s for s in sts if s.pending[:1] == ("shoot",) and isinstance(s.pending[3][7], tuple)]


def test_games_with_indirect_fire_in_part_replay_exactly() -> None:
    import json

    from grimdice.engine.playing import play_game, replay_actions
    from grimdice.systems.onepage.game import GameState, play, replay, states

    setup = walled_setup()
    log = play(setup, 2, ("ai", "random"))
    again = replay(json.loads(json.dumps(log)))
    assert again["events"] == log["events"] and again["scores"] == log["scores"]
    assert mixed(states(again))  # a shooting with models firing with and without sight
    for seed in range(1, 9):  # seeded uniformly random games until one holds such a shooting too
        game = play_game(GameState(setup), [uniform, uniform], seed)
        assert replay_actions(GameState(setup), json.loads(json.dumps(game.actions))) == game.states
        if mixed(game.states):
            break
    else:
        raise AssertionError("no random game with models firing with and without sight")


def test_a_state_with_a_shooting_in_part_blind_serialises_and_hashes() -> None:
    """A pending shooting whose key holds its blind (Indirect) part comes back from JSON equal to
    itself and hashable: JSON turns the part's tuple into a list, which from_json must undo at every
    depth, not only at the key's top level."""
    import json

    from grimdice.systems.onepage.game import GameState, play, states

    setup = walled_setup()
    log = play(setup, 2, ("ai", "random"))
    both = [s for s in states(log) if s.pending[:1] == ("shoot",) and isinstance(s.pending[3][7], tuple)]
    assert both
    for s in both:
        back = GameState.from_json(s.setup, json.loads(json.dumps(s.to_json())))
        assert back == s and hash(back) == hash(s)
