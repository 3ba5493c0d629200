"""IX TWO FISTED in the grid game, from the text's sentence."""

from __future__ import annotations

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import NONE
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import READY, UNLOADED
from tests.crusade_game.helpers import MARINE, STEALER, at, scenario, state
from tests.crusade_game.test_games import _checked_game

LANE = """
############
#..........#
############
"""

LEFT = {"name": "left", "dice": "1W", "kind": "pistol", "effects": ["S", "RELOAD"]}
RIGHT = {"name": "right", "dice": "1W+1R", "kind": "pistol", "effects": ["S"]}


def _gunslinger(weapons=(LEFT, RIGHT), abilities=("TWO FISTED",)):
    return dict(MARINE, name="Gunslinger", abilities=list(abilities), weapons=[dict(w) for w in weapons])


def _game(x: int, **kw):
    gun = _gunslinger(**kw)
    return state(LANE, [at("Gunslinger", 1, 1)], [at("Stealer", x, 1)], profiles=[gun, STEALER])


def test_two_pistols_fire_as_one_attack_at_6_or_less():
    # IX TWO FISTED: "may fire each pistol at 6" range or less as a single attack"
    near = _game(7).apply(("activate", 0))  # 6 squares away
    acts = near.legal_actions()
    assert ("fists", 1) in acts and ("shoot", 1, "left") in acts and ("shoot", 1, "right") in acts
    far = _game(8).apply(("activate", 0))  # 7 squares away
    assert ("fists", 1) not in far.legal_actions() and ("shoot", 1, "left") in far.legal_actions()


@pytest.mark.parametrize(
    "kw",
    [
        {"abilities": ()},  # not TWO FISTED
        {"weapons": (LEFT, RIGHT, {"name": "knife", "dice": "1W", "kind": "melee", "effects": ["S"]})},
        {"weapons": (LEFT, dict(RIGHT, kind="ranged"))},  # "two pistols"
        {"weapons": (LEFT,)},
    ],
)
def test_only_a_two_fisted_model_with_two_pistols_and_no_other_weapons(kw):
    s = _game(4, **kw).apply(("activate", 0))
    assert not any(a[0] == "fists" for a in s.legal_actions())


def test_not_with_a_pistol_unloaded():
    s = _game(4)
    s = s.with_token(0, arms=(UNLOADED, READY)).apply(("activate", 0))
    assert not any(a[0] == "fists" for a in s.legal_actions())


def test_the_single_attack_is_the_calculator_s_combined_fire_of_both_pistols():
    s = _game(4).apply(("activate", 0)).apply(("fists", 1))
    assert s.pending[1] == "shoot" and s.acted and s.pending[5] == "left & right"
    law = cached_law(s.pending[4])
    gun = {k: v for k, v in _gunslinger().items() if k != "move"}
    foe = {k: v for k, v in STEALER.items() if k != "move"}
    res = calculate(
        {"system": "crusade", "range": 3, "attacker": gun, "defender": foe, "weapons": ["left", "right"]}
    )
    unharmed = sum(p for (ds, *_), p in law if ds[0] == NONE)
    assert unharmed == pytest.approx(res.extra["end_state"]["unharmed"])
    alone = cached_law(s.pending[4].replace('"weapons": ["left", "right"]', '"weapons": ["left"]'))
    assert sum(p for (ds, *_), p in alone if ds[0] == NONE) > unharmed  # two dice pools, not one
    # both pistols were fired: the RELOAD one is unloaded after the attack
    miss = next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == NONE)
    after = s.apply(("attack", miss))
    assert after.tokens[0].arms[0] == UNLOADED


def _duel():
    """Two gunslingers against AMBUSH stealers, some in a blip, in a small hall."""
    hall = "##########\n#........#\n#........#\n#........#\n##########"
    lurker = dict(STEALER, abilities=["AMBUSH"])
    blips = {"blips": [{"at": [5, 2], "models": ["Stealer", "Stealer"]}]}
    return build_setup(
        scenario(
            hall,
            [at("Gunslinger", 1, 1), at("Gunslinger", 1, 3)],
            [at("Stealer", 8, 3)],
            profiles=[_gunslinger(), lurker],
            force_b=blips,
            turns=4,
        )
    )


@pytest.mark.parametrize(("seed", "kind"), [(0, "fists"), (5, "half")])
def test_games_with_two_fisted_and_ambush_keep_the_invariants(seed, kind):
    log = _checked_game(_duel(), ("random", "random"), seed)
    assert kind in {a[0] for a in log["actions"]}  # the seed's game plays the ability
