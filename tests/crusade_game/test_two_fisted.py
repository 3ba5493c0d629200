"""IX TWO FISTED in the grid game, from the text's sentence."""

from __future__ import annotations

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import NONE
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.frozen import altered
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


@pytest.mark.parametrize(("seed", "kind"), [(0, "fists"), (18, "half")])
def test_games_with_two_fisted_and_ambush_keep_the_invariants(seed, kind):
    log = _checked_game(_duel(), ("random", "random"), seed)
    assert kind in {a[0] for a in log["actions"]}  # the seed's game plays the ability


def _two(x1: int, x2: int, **kw):
    gun = _gunslinger(**kw)
    foes = [at("Stealer", x1, 1), at("Stealer", x2, 2)]
    hall = "############\n#..........#\n#..........#\n############"
    return state(hall, [at("Gunslinger", 1, 2)], foes, profiles=[gun, STEALER])


def test_each_pistol_at_its_own_target_within_6():
    # IX TWO FISTED: "may fire each pistol at 6" range or less": each pistol at its own target
    acts = _two(4, 7).apply(("activate", 0)).legal_actions()
    assert ("fists", 1, 2) in acts and ("fists", 2, 1) in acts
    far = _two(4, 8).apply(("activate", 0)).legal_actions()  # token 2 is 7 squares away
    assert ("fists", 1) in far and not any(a[0] == "fists" and 2 in a[1:] for a in far)


def test_two_targets_are_two_single_shots_each_the_calculator_s():
    s = _two(4, 7).apply(("activate", 0)).apply(("fists", 1, 2))
    assert s.acted and s.pending[1:6:2] == ("shoot", 1, "left")
    gun = {k: v for k, v in _gunslinger().items() if k != "move"}
    foe = {k: v for k, v in STEALER.items() if k != "move"}

    def unharmed(weapon: str, rng: int) -> float:
        sc = {"system": "crusade", "range": rng, "attacker": gun, "defender": foe, "weapons": [weapon]}
        return calculate(sc).extra["end_state"]["unharmed"]

    law = cached_law(s.pending[4])
    assert sum(p for (ds, *_), p in law if ds[0] == NONE) == pytest.approx(unharmed("left", 3))
    miss = next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == NONE)
    s2 = s.apply(("attack", miss))  # then the right pistol at the second target
    assert s2.pending[1:6:2] == ("shoot", 2, "right")
    assert s2.tokens[0].arms[0] == UNLOADED  # the left pistol (RELOAD) was fired
    law2 = cached_law(s2.pending[4])
    assert sum(p for (ds, *_), p in law2 if ds[0] == NONE) == pytest.approx(unharmed("right", 6))
    done = s2.apply(("attack", 0))
    assert not done.pending and done.active == 0


def test_an_ambusher_fires_both_pistols_too():
    # IX AMBUSH "May make a free attack when revealed": a TWO FISTED ambusher's is both pistols
    from grimdice.systems.crusade.game import ambush

    s = _two(4, 7, abilities=("TWO FISTED", "AMBUSH"))
    s = s.apply(("activate", 0))
    s = altered(s, ambush=(0,))
    acts = ambush.actions(s)
    assert ("fists", 1) in acts and ("fists", 1, 2) in acts
    shot = s.apply(("fists", 1, 2))
    assert shot.pending[1] == "ambush" and '"moved": false' in shot.pending[4]


def test_a_mindless_model_and_a_horror_s_last_attack_fire_both_pistols_too():
    # IX MINDLESS: "attack the nearest target"; IX HORROR: "Makes a last attack"
    drone = _game(4, abilities=("TWO FISTED", "MINDLESS")).apply(("activate", 0))
    acts = drone.legal_actions()
    assert ("fists", 1) in acts and ("end",) not in acts  # it must attack
    horror = _game(4, abilities=("TWO FISTED", "HORROR"))
    last = horror.with_token(0, last=2).apply(("activate", 0))
    assert ("fists", 1) in last.legal_actions() and last.budget == 0
