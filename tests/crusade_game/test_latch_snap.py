"""IX LATCH ON is a melee attack, so IX SNAP FIRE answers it. LATCH ON: "As a melee attack, may
attach to a target"; SNAP FIRE: "If you are attacked in melee, before the melee occurs, you may
fire a pistol at your opponent, once per turn ... If you stun or kill them, the melee does not take
place."."""

from __future__ import annotations

from fractions import Fraction

from grimdice.systems.crusade.damage import KILLED, KO, STUNNED
from grimdice.systems.crusade.game.combat import cached_law
from tests.crusade_game.helpers import STEALER, at, state
from tests.crusade_game.test_snap_every_melee import GUNNER, HALL, SNAP, STOPPED

LEECH = dict(STEALER, name="Leech", abilities=["LATCH ON"])  # armour 1, one hit


def _latching():
    """The leech (force A, at 2, 2) beside the gunner (force B, at 3, 2) declares its latch."""
    s = state(HALL, [at("Leech", 2, 2)], [at("Gunner", 3, 2), at("Gunner", 12, 1)], profiles=[LEECH, GUNNER])
    return s.apply(("activate", 0)).apply(("latch", 1))


def test_the_latched_target_may_snap_fire_before_the_latch():
    s = _latching()
    assert s.current_player() == 1 and s.legal_actions() == SNAP  # "before the melee occurs"
    assert s.tokens[0].latch < 0 and s.acted  # the latch waits; the action is spent
    passed = s.apply(("pass",))
    assert passed.tokens[0].latch == 1 and not passed.snap and not passed.pending
    assert passed.current_player() == 0


def test_a_snap_shot_that_stuns_or_kills_the_latcher_stops_the_latch():
    shot = _latching().apply(("snap", "pistol"))
    assert shot.pending[:4] == ("attack", "snap", 1, 0) and shot.tokens[1].snapped
    stopped = Fraction(0)
    for k, ((ds, *_), p) in enumerate(cached_law(shot.pending[4])):
        after = shot.apply(("attack", k))
        assert not after.pending and not after.snap
        if ds[0] in (STUNNED, KO, KILLED):  # "the melee does not take place"
            assert after.tokens[0].latch < 0
            stopped += Fraction(p).limit_denominator(10**6)
        else:
            assert after.tokens[0].latch == 1
    assert stopped == STOPPED  # 1/3: a roll of 2 or more on two white dice


def test_no_snap_fire_without_the_ability_the_latch_is_made_at_once():
    plain = dict(GUNNER, abilities=[])
    s = state(HALL, [at("Leech", 2, 2)], [at("Gunner", 3, 2), at("Gunner", 12, 1)], profiles=[LEECH, plain])
    on = s.apply(("activate", 0)).apply(("latch", 1))
    assert on.tokens[0].latch == 1 and not on.snap
