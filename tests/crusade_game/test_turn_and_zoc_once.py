"""IV: "If adjacent to multiple targets, you may melee each in turn" (reading ``melee_in_turn``:
from where the first melee was made, while the model stands there); IX SNAP FIRE: "If you do
knockback, deduct 1" from their charge move" (reading ``snap_fire``: a charger's inch from its
half move); V ZOC: "If a troop moves within 1" of an enemy and then tries to move past the enemy,
the enemy may choose to make a "free" melee attack on the passer" (reading ``zoc_once``: once per
passer per move)."""

from __future__ import annotations

import copy

from grimdice.systems.crusade.damage import NONE
from grimdice.systems.crusade.game.combat import PUSH_ATTACKER, PUSH_DEFENDER, cached_law
from tests.crusade_game.helpers import MARINE, STEALER, at, state
from tests.crusade_game.test_snap_back import GUNFIGHTER

HALL = "##############\n#............#\n#............#\n#............#\n##############"
PUSHER = dict(
    copy.deepcopy(MARINE),
    name="Pusher",
    armour=1,
    abilities=[],
    weapons=[{"name": "maul", "dice": "1W", "kind": "melee", "effects": ["KB"]}],
)


def _outcome(s, push: int | None, after: bool = True):
    """The pending attack's first outcome harming nobody whose knockback marks are ``push`` (None:
    any; then, ``after``, the chance nodes after it, each its first outcome)."""
    law = cached_law(s.pending[4])
    k = next(
        n for n, ((ds, as_, *_, p), _) in enumerate(law) if ds[0] == as_[0] == NONE and push in (None, p)
    )
    s = s.apply(("attack", k))
    while s.pending and after:
        s = s.apply(s.chance_outcomes()[0][0])
    return s


def _between(first: str = "Pusher"):
    """A stealer at (5, 2) melees the model at (4, 2); a marine stands at (7, 2), two squares on."""
    a = [at(first, 4, 2), at("Marine", 4, 1), at("Marine", 7, 2)]
    s = state(HALL, a, [at("Stealer", 5, 2)], profiles=[PUSHER, MARINE, STEALER], first=1)
    return s.apply(("activate", 3)).apply(("melee", 0))


def test_a_knockback_ends_the_melees_in_turn():
    # the pusher's maul knocks the stealer back to (6, 2), beside the marine at (7, 2), which was
    # never beside (5, 2) where the stealer made its first melee: no melee at it in turn
    s = _outcome(_between(), PUSH_ATTACKER)
    assert s.tokens[3].sq == (6, 2) and s.active == 3
    assert not any(a[0] == "melee" for a in s.legal_actions())


def test_the_melees_in_turn_from_the_first_melee_s_place():
    # no knockback (a marine at (4, 2)): the stealer stays at (5, 2) and may melee the marine at
    # (4, 1) beside it in turn
    s = _outcome(_between("Marine"), 0)
    assert s.tokens[3].sq == (5, 2) and ("melee", 1) in s.legal_actions()
    assert ("melee", 2) not in s.legal_actions()  # (7, 2) is not beside (5, 2)


def test_a_snap_knockback_takes_the_inch_from_the_charge_move():
    # a charger already beside its target charges (6 + a half move of 3 = 9), is knocked back by the
    # snap shot (an inch less: 8, of which 2 are its charge move's) and melees: 6 of its normal move
    # are left, as without the knockback
    charger = dict(STEALER, name="Charger")
    s = state(
        HALL,
        [at("Charger", 2, 2)],
        [at("Gunfighter", 3, 2), at("Gunfighter", 12, 3)],
        profiles=[charger, GUNFIGHTER],
    )
    s = s.apply(("activate", 0)).apply(("charge", 1))
    assert s.budget == 9 and s.charging == (1, 3)
    s = _outcome(s.apply(("melee", 1)).apply(("snap", "pistol")), PUSH_DEFENDER, after=False)
    assert s.budget == 8 and s.charging == (1, 2) and s.pending[:2] == ("attack", "melee")
    s = _outcome(s, None)
    assert s.budget == 6 and s.charging == () and s.active == 0


def _charge_past_a_guard():
    """The stealer at (10, 2) charges the marine at (2, 2); the marine at (6, 1) stands beside its way
    at (7, 2), (6, 2) and (5, 2)."""
    s = state(
        HALL, [at("Marine", 2, 2), at("Marine", 6, 1)], [at("Stealer", 10, 2), at("Stealer", 12, 2)], first=1
    )
    s = s.apply(("activate", 2)).apply(("charge", 0))
    s = s.apply(("move", 9, 2)).apply(("move", 8, 2)).apply(("move", 7, 2))
    asked = s.apply(("move", 6, 2))  # out of (7, 2), beside the guard: past it
    assert asked.zoc and asked.legal_actions() == [("pass",), ("zoc", 1)]
    return asked


def _walk_on(s):
    """The rest of the charger's way, each step's ZOC asked of nobody."""
    for x in (5, 4, 3):
        s = s.apply(("move", x, 2))
        assert not s.zoc and s.current_player() == 1
    return s


def test_a_guard_that_passed_has_no_second_zoc_on_the_passer():
    s = _walk_on(_charge_past_a_guard().apply(("pass",)))
    assert s.tokens[2].sq == (3, 2) and ("melee", 0) in s.legal_actions()


def test_a_guard_that_made_its_free_melee_has_no_second():
    s = _outcome(_charge_past_a_guard().apply(("zoc", 1)), 0)  # the free melee harms nobody
    assert s.tokens[2].sq == (6, 2)
    _walk_on(s)


def test_another_passer_is_asked_again():
    # once per passer: the second stealer, in its own activation, passes the same guard
    s = _walk_on(_charge_past_a_guard().apply(("pass",))).apply(("end",)).apply(("activate", 3))
    for x in (11, 10, 9, 8, 7):
        s = s.apply(("move", x, 2))
    assert s.apply(("move", 6, 2)).zoc[2] == (1,)
