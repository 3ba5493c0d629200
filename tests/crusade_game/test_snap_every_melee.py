"""IX SNAP FIRE before every melee: "If you are attacked in melee, before the melee occurs, you may
fire a pistol at your opponent, once per turn- treat as a point blank range attack. ... If you stun
or kill them, the melee does not take place." A ZOC's free melee (V), an ambusher's (IX AMBUSH), a
dive's (V DIVE ATTACK), an awkward melee across a ladder (V) and a mob's (IX MOB) are melees too."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grimdice.systems.crusade.damage import KILLED, KO, NONE, STUNNED
from grimdice.systems.crusade.game.combat import cached_law
from tests.crusade_game.helpers import MARINE, STEALER, at, state
from tests.crusade_game.table_helpers import active, put, table, table_state
from tests.crusade_game.test_table import GANGER, block

HALL = "##############\n#............#\n#............#\n#............#\n##############"
# 2 white dice (faces 0 0 0 0 1 2) at armour 1, one hit: a roll of 2 is a graze (a stun, S), 3 or
# more a kill; 0 or 1 does nothing
PISTOL = {"name": "pistol", "dice": "2W", "kind": "pistol", "effects": ["S"]}
STOPPED = Fraction(1) - Fraction(4, 6) ** 2 - 2 * Fraction(4, 6) * Fraction(1, 6)  # P(roll >= 2) = 1/3
GUNNER = dict(MARINE, name="Gunner", armour=1, abilities=["SNAP FIRE"], weapons=[*MARINE["weapons"], PISTOL])
SNAP = [("pass",), ("snap", "pistol")]


def _outcome(s, stopped: bool):
    """The first outcome of the pending snap shot that stuns or kills the attacker (or does not)."""
    i = s.pending[3]
    law = cached_law(s.pending[4])
    for k, ((ds, *_), _) in enumerate(law):
        if (ds[0] in (STUNNED, KO, KILLED)) == stopped:
            return s.apply(("attack", k))
    raise AssertionError(f"no such outcome at {i}")


def _no_melee(s, j: int) -> None:
    """The snap shot stunned or killed the attacker: "the melee does not take place"."""
    assert not s.ended and not s.pending and not s.snap and s.tokens[j].cond == NONE


def _zoc():
    """The gunner steps past the stealer beside it; the stealer takes its free melee (V ZOC)."""
    b = [at("Stealer", 4, 2), at("Stealer", 12, 1)]  # the second keeps the game going
    s = state(HALL, [at("Gunner", 2, 2)], b, profiles=[GUNNER, STEALER], first=0)
    s = s.apply(("activate", 0)).apply(("move", 3, 2)).apply(("move", 3, 3))
    assert s.zoc and s.legal_actions() == [("pass",), ("zoc", 1)]
    return s.apply(("zoc", 1))


def test_snap_fire_before_a_zoc_free_melee():
    s = _zoc()
    assert s.current_player() == 0 and s.legal_actions() == SNAP  # the passer's player chooses
    passed = s.apply(("pass",))
    assert passed.pending[:4] == ("attack", "zoc", 1, 0)  # the free melee as before
    shot = s.apply(("snap", "pistol"))
    assert shot.pending[:4] == ("attack", "snap", 0, 1)
    stopped = Fraction(0)
    for k, (_, p) in enumerate(cached_law(shot.pending[4])):
        after = shot.apply(("attack", k))
        if after.pending:
            assert after.pending[:4] == ("attack", "zoc", 1, 0)
        else:  # "the melee does not take place": the step is made
            assert after.tokens[0].sq == (3, 3) and not after.zoc and after.current_player() == 0
            stopped += Fraction(p).limit_denominator(10**6)
    assert stopped == STOPPED


def test_snap_fire_is_once_per_turn_at_a_zoc_melee_too():
    s = _outcome(_zoc().apply(("snap", "pistol")), stopped=False)
    missed = next(k for k, ((ds, *_), _) in enumerate(cached_law(s.pending[4])) if ds[0] == NONE)
    s = s.apply(("attack", missed))  # the ZOC melee harms nobody: the step is made
    assert s.tokens[0].snapped and s.tokens[0].sq == (3, 3)
    s = s.apply(("move", 3, 2))  # past the stealer again
    z = s.apply(("zoc", 1))
    assert z.pending[:2] == ("attack", "zoc") and not z.snap  # "once per turn"


def _ambushed():
    lurker = dict(STEALER, abilities=["AMBUSH"])
    blips = {"blips": [{"at": [5, 2], "models": ["Stealer"]}]}
    s = state(HALL, [at("Gunner", 2, 2)], [at("Stealer", 12, 3)], profiles=[GUNNER, lurker], force_b=blips)
    s = s.apply(("activate", 0)).apply(("move", 3, 2)).apply(("move", 4, 2))  # adjacent: revealed
    assert s.ambush and s.ambush[0] == 2 and s.current_player() == 1
    return s.apply(("melee", 0))


def test_snap_fire_before_an_ambusher_s_melee():
    s = _ambushed()
    assert s.current_player() == 0 and s.legal_actions() == SNAP
    assert s.apply(("pass",)).pending[:4] == ("attack", "ambush", 2, 0)
    shot = s.apply(("snap", "pistol"))
    went_on = _outcome(shot, stopped=False)
    assert went_on.pending[:4] == ("attack", "ambush", 2, 0)
    stopped = _outcome(shot, stopped=True)  # no melee; a stunned ambusher has no half move
    assert not stopped.pending and not stopped.snap and not stopped.ambush
    assert stopped.current_player() == 0 and stopped.active == 0


def test_snap_fire_before_a_dive():
    board = table(terrain=[block(3, 2, 5, 5, 2)])
    s = table_state(
        board,
        [put("Marine", 4, 3, 2)],
        [put("Gunner", 6, 3), put("Gunner", 11, 7)],
        profiles=[MARINE, GUNNER],
    )
    s = active(s).apply(("dive", 1)).apply(("dive", 1))  # the jump made: landed beside the gunner
    assert s.tokens[0].sq == (5, 3, 0) and not s.pending
    assert s.current_player() == 1 and s.legal_actions() == SNAP
    assert s.apply(("pass",)).pending[:4] == ("attack", "melee", 0, 1)
    shot = s.apply(("snap", "pistol"))
    assert _outcome(shot, stopped=False).pending[:4] == ("attack", "melee", 0, 1)
    _no_melee(_outcome(shot, stopped=True), 1)


def test_snap_fire_before_the_awkward_melee_across_a_ladder():
    board = table(terrain=[block(5, 4, 6, 5, 2)], ladders=[{"at": [4, 4, 0], "to": [5, 4, 2]}])
    gunner = dict(GANGER, name="Gunner", abilities=["SNAP FIRE"], weapons=[PISTOL])
    s = table_state(
        board,
        [put("Ganger", 4, 4), put("Ganger", 0, 7)],
        [put("Gunner", 5, 4, 2), put("Gunner", 11, 7)],
        profiles=[GANGER, gunner],
    )
    s = active(s).apply(("ladder_melee", 2))
    assert s.current_player() == 1 and s.legal_actions() == SNAP
    melee = s.apply(("pass",)).pending
    assert melee[:4] == ("attack", "ladder", 0, 2) and '"awkward": true' in melee[4]
    shot = s.apply(("snap", "pistol"))
    assert _outcome(shot, stopped=False).pending[:4] == ("attack", "ladder", 0, 2)
    _no_melee(_outcome(shot, stopped=True), 2)


def test_snap_fire_at_a_mob_s_lead():
    ganger = {"name": "Ganger", "move": 4, "armour": 1, "hits": 1, "melee": "2R", "abilities": ["MOB"]}
    s = state(
        HALL,
        [at("Ganger", 2, 2), at("Ganger", 3, 1), at("Ganger", 1, 3)],
        [at("Gunner", 3, 2), at("Gunner", 12, 3)],
        profiles=[ganger, GUNNER],
    )
    s = s.apply(("activate", 0)).apply(("mob", 3, 1))
    assert s.current_player() == 1 and s.legal_actions() == SNAP
    assert s.apply(("pass",)).pending[:4] == ("attack", "mob", 0, 3)
    shot = s.apply(("snap", "pistol"))
    assert shot.pending[:4] == ("attack", "snap", 3, 0)  # "may only hit the attacking model"
    went_on = _outcome(shot, stopped=False)
    assert went_on.pending[:4] == ("attack", "mob", 0, 3) and went_on.pending[6] == (1,)
    _no_melee(_outcome(shot, stopped=True), 3)


def test_the_snap_shot_s_chance_stops_the_melee():
    # the ZOC's snap shot and an ordinary melee's are the same point blank shot
    s = _zoc().apply(("snap", "pistol"))
    law = cached_law(s.pending[4])
    stop = sum(p for (ds, *_), p in law if ds[0] in (STUNNED, KO, KILLED))
    assert stop == pytest.approx(float(STOPPED))
