"""IX SNAP FIRE's knockback (reading ``snap_fire``): "If you do knockback, deduct 1" from their
charge move- if they do not have enough move to get to you as a result, they may not melee you!"."""

from __future__ import annotations

from grimdice.systems.crusade.damage import NONE
from grimdice.systems.crusade.game.combat import PUSH_DEFENDER, cached_law
from tests.crusade_game.helpers import MARINE, STEALER, at, state

HALL = "##########\n#........#\n#........#\n#........#\n##########"
# a pistol that knocks back on a tie or better (VIII KNOCKBACK) and stuns nobody it does not harm
PISTOL = {"name": "pistol", "dice": "1W+1R", "kind": "pistol", "effects": ["KB", "S"]}
GUNFIGHTER = dict(STEALER, name="Gunfighter", abilities=["SNAP FIRE"], weapons=[PISTOL])
BRUTE = dict(MARINE, name="Brute", armour=1, abilities=[])  # a roll of 1 ties: knocked back unharmed


def _snapped(steps):
    """The brute (at 1, 2; move 4) takes ``steps`` squares to (1 + steps, 2), beside the gunfighter
    at (2 + steps, 2), and declares its melee; the gunfighter snap fires."""
    s = state(HALL, [at("Brute", 1, 2)], [at("Gunfighter", 2 + steps, 2)], profiles=[BRUTE, GUNFIGHTER])
    s = s.apply(("activate", 0))
    for x in range(2, 2 + steps):
        s = s.apply(("move", x, 2))
    return s.apply(("melee", 1)).apply(("snap", "pistol"))


def _knocked_unharmed(z):
    law = cached_law(z.pending[4])
    k = next(n for n, ((ds, *_, push), _) in enumerate(law) if ds[0] == NONE and push & PUSH_DEFENDER)
    return z.apply(("attack", k))


def test_a_snap_knockback_costs_the_attacker_an_inch_of_move():
    z = _snapped(1)  # 3 squares of move left
    after = _knocked_unharmed(z)
    assert after.pending[1] == "melee" and after.budget == z.budget - 1
    assert after.tokens[0].sq == (2, 2)  # nobody moves


def test_without_an_inch_of_move_left_the_melee_does_not_take_place():
    z = _snapped(4)  # its whole move spent: no inch left to come back
    assert z.budget < 1
    after = _knocked_unharmed(z)
    assert not after.pending and not after.snap and after.acted and after.current_player() == 0
    unpushed = next(
        n for n, ((ds, *_, push), _) in enumerate(cached_law(z.pending[4])) if ds[0] == NONE and not push
    )
    assert z.apply(("attack", unpushed)).pending[1] == "melee"  # no knockback: the melee goes on


def test_a_two_fisted_model_snap_fires_each_pistol_once_a_turn():
    # IX SNAP FIRE: "If you have Two Fisted (see below), you may use each pistol once per turn to
    # snap fire"
    left = {"name": "left", "dice": "1W", "kind": "pistol", "effects": ["S"]}
    right = {"name": "right", "dice": "1W", "kind": "pistol", "effects": ["S"]}
    for abilities, second in (
        (["SNAP FIRE", "TWO FISTED"], [("pass",), ("snap", "right")]),
        (["SNAP FIRE"], None),
    ):
        duelist = dict(STEALER, name="Duelist", abilities=abilities, weapons=[left, right])
        s = state(
            HALL, [at("Brute", 2, 2), at("Brute", 2, 3)], [at("Duelist", 3, 2)], profiles=[BRUTE, duelist]
        )
        z = s.apply(("activate", 0)).apply(("melee", 2))
        assert z.legal_actions() == [("pass",), ("snap", "left"), ("snap", "right")]
        z = z.apply(("snap", "left"))
        miss = next(n for n, ((ds, *_), _) in enumerate(cached_law(z.pending[4])) if ds[0] == NONE)
        z = z.apply(("attack", miss))
        z = z.apply(z.chance_outcomes()[0][0]) if z.pending else z
        nxt = z.apply(("end",)).apply(("activate", 1)).apply(("melee", 2))
        if second is None:  # once a turn: straight to the melee
            assert nxt.pending[1] == "melee"
        else:
            assert nxt.legal_actions() == second
