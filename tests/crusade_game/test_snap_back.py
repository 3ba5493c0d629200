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
