"""VIII ARTILLERY and BARRAGE, IX BERSERK in the grid game (readings ``artillery``, ``barrage``,
``berserk``), from the text's sentences."""

from __future__ import annotations

import json

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import CONDITIONS
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.state import READY, UNLOADED
from tests.crusade_game.helpers import MARINE, STEALER, at, state
from tests.crusade_game.test_many import _bare

LONG = "\n".join(["#" * 21, "#" + "." * 19 + "#", "#" + "." * 19 + "#", "#" + "." * 19 + "#", "#" * 21])
WALLED = "\n".join(
    ["#" * 21, "#" + "." * 19 + "#", "#....#" + "." * 14 + "#", "#" + "." * 19 + "#", "#" * 21]
)


def _gunner(effects):
    return dict(MARINE, weapons=[{"name": "gun", "dice": "2R", "kind": "ranged", "effects": effects}])


def _game(effects, ours, theirs, board=LONG):
    return state(
        board, [at("Marine", *q) for q in ours], [at("Stealer", *q) for q in theirs],
        profiles=[_gunner(effects), STEALER],
    ).apply(("activate", 0))  # fmt: skip


def _shots(s):
    return sorted(int(a[1]) for a in s.legal_actions() if a[0] == "shoot")


def test_barrage_has_a_minimum_range_of_8():
    # VIII BARRAGE: "Minimum range 8"": the stealer 7 squares off is no target, the one 8 off is
    s = _game(["BARRAGE", "S"], [(1, 2)], [(8, 2), (9, 1)])
    assert _shots(s) == [2]
    assert _shots(_game(["S"], [(1, 2)], [(8, 2), (9, 1)])) == [1, 2]


def test_barrage_fires_indirect_at_a_target_a_friend_sees():
    # "May fire indirect- if any allied model has line of sight, the Artillery may fire even if it
    # does not": the wall at (5, 2) hides the stealer at (14, 2) from the firer, not from its friend
    s = _game(["BARRAGE", "S"], [(1, 2), (10, 1)], [(14, 2)], board=WALLED)
    board = s.setup.board
    assert not board.sight((1, 2), (14, 2), {}, s.occupied())  # the wall at (5, 2) is in the way
    assert board.sight((10, 1), (14, 2), {}, s.occupied())
    assert _shots(s) == [2]
    alone = _game(["BARRAGE", "S"], [(1, 2)], [(14, 2)], board=WALLED)
    assert _shots(alone) == []
    plain = _game(["S"], [(1, 2), (10, 1)], [(14, 2)], board=WALLED)
    assert _shots(plain) == []  # only BARRAGE fires indirect


def test_barrage_shot_at_8_to_11_squares_equals_calculate():
    # "Treat the target as over 1' in range even if it isn't (so it will always be at a -1)"
    s = _game(["BARRAGE", "S"], [(1, 2)], [(10, 2)]).apply(("shoot", 1, "gun"))
    key = json.loads(s.pending[4])
    assert key["range"] >= 8
    by_hand = {"system": "crusade", "action": "shoot", "attacker": _bare(_gunner(["BARRAGE", "S"])),
               "defender": _bare(STEALER), "range": 9}  # fmt: skip
    res = calculate(by_hand).extra["end_state"]
    for c, cond in enumerate(CONDITIONS):
        got = sum(p for (ds, *_), p in cached_law(s.pending[4]) if ds[0] == c)
        assert got == pytest.approx(res[cond], abs=1e-12)


def test_artillery_fires_only_before_moving_and_then_may_not_move():
    # VIII ARTILLERY: "May not move and fire"
    s = _game(["ARTILLERY", "S"], [(1, 2)], [(6, 2)])
    assert _shots(s) == [1]
    assert _shots(s.apply(("move", 2, 2))) == []
    fired = s.apply(("shoot", 1, "gun"))
    done = fired.apply(fired.chance_outcomes()[0][0])
    assert not [a for a in done.legal_actions() if a[0] == "move"]


def test_artillery_needs_an_action_to_reload_after_each_shot():
    # VIII ARTILLERY: "Requires 2 actions to operate- one to fire and one to reload"
    s = _game(["ARTILLERY", "S"], [(1, 2)], [(6, 2)])
    assert s.tokens[0].arms == (READY,)
    fired = s.apply(("shoot", 1, "gun"))
    for outcome, _ in fired.chance_outcomes():
        assert fired.apply(outcome).tokens[0].arms == (UNLOADED,)


def test_berserk_may_melee_after_its_extra_move():
    # IX BERSERK: "May melee after taking extra move (this is different from the normal Charge rules!)"
    berserker = dict(STEALER, name="Berserker", abilities=["BERSERK"])
    plain = dict(STEALER, name="Plain")
    for profile, melees in ((berserker, True), (plain, False)):
        s = state(LONG, [at(profile["name"], 1, 2)], [at("Marine", 9, 2)], profiles=[profile, MARINE])
        s = s.apply(("activate", 0)).apply(("extra",))
        for x in range(2, 9):
            s = s.apply(("move", x, 2))
        assert (("melee", 1) in s.legal_actions()) is melees
        if melees:  # its action left is the melee only
            assert not [a for a in s.legal_actions() if a[0] in ("shoot", "extra", "hide", "charge")]
