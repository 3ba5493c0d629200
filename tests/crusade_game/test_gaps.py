"""Rules that act at the edges of other rules: a knockback's move revealing, BLAST snap fire, a
latcher hit by a snap shot or a shot at several models, PRECOGNANT at the other attacks, handing
an item over."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import NONE, STUNNED
from grimdice.systems.crusade.game.combat import PUSH_DEFENDER, cached_law
from grimdice.systems.crusade.game.many import cached_joint
from grimdice.systems.crusade.game.state import invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER, at, state

HALL = """
##########
#........#
#........#
#........#
##########
"""
SHOTGUN = {"name": "shotgun", "dice": "2W", "kind": "ranged", "effects": ["KB", "W"]}


def _pushed(s):
    """The state after the pending shot's outcome that knocks the target back unharmed."""
    law = cached_law(s.pending[4])
    k = next(k for k, ((ds, *_, push), _) in enumerate(law) if push == PUSH_DEFENDER and ds[0] == NONE)
    return s.apply(("attack", k))


def test_a_knocked_back_model_reveals_a_blip_beside_its_new_square():
    # V HIDING: "if you or your enemy moves such that ... are within 1" of you, you will be
    # Revealed"; X: "Stepping in any square adjacent to a blip will reveal the blip"
    pusher = dict(MARINE, weapons=[SHOTGUN])
    blips = {"blips": [{"at": [7, 3], "models": ["Marine"]}]}
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 5, 2)], profiles=[pusher, STEALER], force_a=blips)
    assert s.tokens[1].blip and s.tokens[1].side == 0
    s = _pushed(s.apply(("activate", 0)).apply(("shoot", 2, "shotgun")))
    assert s.tokens[2].sq == (6, 2)  # one square away from the firer, beside the blip at (7, 3)
    assert not s.tokens[1].blip and s.tokens[1].sq == (7, 3)
    assert not invariant_errors(s)


def test_a_knocked_back_model_is_revealed_by_an_enemy_it_comes_within_1_of():
    # V HIDING: "if you ... moves such that they ... are within 1" of you, you will be Revealed"
    pusher = dict(MARINE, weapons=[SHOTGUN])
    s = state(
        HALL,
        [at("Marine", 2, 2), at("Marine", 7, 1)],
        [at("Stealer", 5, 2)],
        profiles=[pusher, STEALER],
    )
    s = s.with_token(1, hidden=True)  # a hidden marine the stealer comes beside
    s = _pushed(s.apply(("activate", 0)).apply(("shoot", 2, "shotgun")))
    assert s.tokens[2].sq == (6, 2)
    assert not s.tokens[1].hidden


def _bare(profile: dict) -> dict:
    return {k: v for k, v in profile.items() if k != "move"}


def _blaster(effects: list[str]) -> dict:
    """A stealer with SNAP FIRE and a pistol of ``effects``."""
    pistol = {"name": "blaster", "dice": "1W+1R", "kind": "pistol", "effects": effects}
    return dict(STEALER, abilities=["SNAP FIRE"], weapons=[pistol])


def test_blast_snap_fire_hits_the_models_around_the_attacker():
    # IX SNAP FIRE: "Your snap fire attack may only hit the attacking model, unless it is a BLAST
    # weapon ... treat as a point blank range attack ... You may not reroll"
    gunner = _blaster(["B", "S", "R"])
    s = state(
        HALL, [at("Marine", 2, 2), at("Marine", 1, 3)], [at("Stealer", 3, 2)], profiles=[MARINE, gunner]
    )
    s = s.apply(("activate", 0)).apply(("melee", 2)).apply(("snap", "blaster"))
    # the attacker first, then the models of the 3x3 blast around it: the firer, the friend
    assert s.pending[1] == "many" and s.pending[2:4] == (2, 0) and s.pending[6] == (0, 2, 1)
    assert s.pending[8:] == ("snap",)
    bare, shooter = _bare(MARINE), _bare(gunner)
    shooter["weapons"] = [dict(gunner["weapons"][0], effects=["B", "S"])]  # no re-roll
    res = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "attacker": shooter,
            "defender": {"name": "unused"},
            "targets": [
                {**bare, "name": "a", "range": 0},
                {**_bare(STEALER), "name": "b", "range": 0},
                {**bare, "name": "c", "range": 0},
            ],
        }
    )
    law = cached_joint(s.pending[4])
    for n, name in enumerate(res.targets):
        got = sum(p for (states, *_), p in law if states[n][0] == STUNNED)
        assert got == pytest.approx(res.targets[name].extra["end_state"]["stunned"], abs=1e-12)
    # the attacker untouched: the melee goes ahead; stunned: "the melee does not take place"
    k = next(k for k, ((st, *_), _) in enumerate(law) if st[0][0] == NONE)
    assert s.apply(("attack", k)).pending[1] == "melee"
    k = next(k for k, ((st, *_), _) in enumerate(law) if st[0][0] == STUNNED and st[2][0] == STUNNED)
    after = s.apply(("attack", k))
    assert not after.pending and after.tokens[1].cond == STUNNED and not invariant_errors(after)


def test_a_plain_pistol_snap_fires_at_the_attacker_alone():
    # IX SNAP FIRE: "Your snap fire attack may only hit the attacking model"
    s = state(
        HALL,
        [at("Marine", 2, 2), at("Marine", 1, 3)],
        [at("Stealer", 3, 2)],
        profiles=[MARINE, _blaster(["S"])],
    )
    s = s.apply(("activate", 0)).apply(("melee", 2)).apply(("snap", "blaster"))
    assert s.pending[1] == "snap" and s.pending[3] == 0


LEECH = dict(STEALER, name="Leech", abilities=["LATCH ON"])


def _latched(weapon: dict, mine: list[dict], theirs: list[dict]):
    """The leech (token 0) latched onto the first enemy (token 2), the marines armed with ``weapon``."""
    s = state(HALL, mine, theirs, profiles=[LEECH, dict(MARINE, weapons=[weapon])])
    return s.apply(("activate", 0)).apply(("latch", 2)).apply(("end",))


def test_a_shot_at_several_models_at_a_latcher_hits_its_target_too():
    # IX LATCH ON: "Ranged attacks vs. the latcher will hit BOTH the latcher and the target!"
    storm = {"name": "storm", "dice": "3W+1R", "kind": "ranged", "effects": ["*", "W"]}
    mine, theirs = [at("Leech", 3, 1), at("Marine", 1, 3)], [at("Marine", 4, 1), at("Marine", 8, 3)]
    s = _latched(storm, mine, theirs).apply(("activate", 1))
    shot = s.apply(("shoot", 0, "storm", 3))  # SPLIT FIRE at the leech and the far marine
    assert shot.pending[1] == "many" and shot.pending[6] == (0, 3)
    assert shot.pending[7] == (("shoot", 1, 2, "storm"),)
    law = cached_joint(shot.pending[4])
    k = next(k for k, ((st, *_), _) in enumerate(law) if st[0][0] == NONE and st[1][0] == NONE)
    second = shot.apply(("attack", k))
    assert second.pending[1:4] == ("shoot", 1, 2)  # the leech's target, shot on its own roll
    # a shot at several models that rolls at the target already: no second roll at it
    blast = dict(storm, effects=["B", "W"])
    s = _latched(blast, [at("Leech", 3, 1), at("Marine", 1, 3)], [at("Marine", 4, 1)]).apply(("activate", 1))
    shot = s.apply(("shoot", 0, "storm"))
    assert shot.pending[1] == "many" and 2 in shot.pending[6] and shot.pending[7] == ()


def test_a_snap_shot_at_a_latcher_hits_its_target_too():
    # IX LATCH ON: "Ranged attacks vs. the latcher will hit BOTH"; IX SNAP FIRE: a point blank shot
    s = state(
        HALL,
        [at("Leech", 3, 1)],
        [at("Stealer", 4, 1), at("Marine", 3, 2)],
        profiles=[LEECH, _blaster(["S"]), MARINE],
    )
    s = s.apply(("activate", 0)).with_token(0, latch=2)  # latched onto the marine below it
    s = s.apply(("melee", 1)).apply(("snap", "blaster"))
    assert s.pending[1:4] == ("snap", 1, 0) and s.pending[6] == (("snap", 1, 2, "blaster"),)
    law = cached_law(s.pending[4])
    second = s.apply(("attack", next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == NONE)))
    assert second.pending[1:4] == ("snap", 1, 2)
    assert '"range": 0' in second.pending[4]


def _seer_game(a, b, profiles=None, **kw):
    """A card game (the seer's force holds PRECOGNANT and HEAL, each 1R need 1) on the long hall."""
    from tests.crusade_game.test_powers import PROFILES, game
    from tests.crusade_game.test_psychic import dealt

    return dealt(game(["PRECOGNANT", "HEAL"], a, b, profiles=profiles or PROFILES, **kw), [0, 1])


def test_precognant_at_a_zoc_melee_in_the_psyker_s_own_turn():
    # VII PRECOGNANT at "the enemy attack" (IX FOR ONE TURN: "may be played at any time"): a ZOC
    # melee; foreseen, it is not made and the passer "may continue their move" (V ZOC)
    from tests.crusade_game.test_powers import activate, law

    s = _seer_game([at("Seer", 1, 3), at("Marine", 2, 1)], [at("Gunner", 5, 2)])
    s = activate(s, 1).apply(("move", 3, 1)).apply(("move", 4, 1)).apply(("move", 5, 1))
    s = s.apply(("zoc", 2))
    assert s.psy.prompt == ("foresee", 0) and s.psy.held[:4] == ("attack", "zoc", 2, 1)
    assert s.current_player() == 0 and ("cast", 0, 0, 1) in s.legal_actions()
    # VII: its action is this turn's, the seer's (not yet activated) or the active marine's
    assert s.apply(("cast", 0, 0, 1)).legal_actions() == [("pay", 0), ("pay", 1)]
    rolled = s.apply(("cast", 0, 0, 1)).apply(("pay", 0))  # 1R, need 1, the marine 4 squares away: 1/2
    assert sum(p for o, p in law(rolled).items() if o[1]) == Fraction(1, 2)
    foreseen = rolled.apply(("card", 1, 0))
    assert not foreseen.pending and not foreseen.zoc and foreseen.tokens[1].sq == (5, 1)
    assert foreseen.tokens[1].cond == NONE and foreseen.active == 1  # its move goes on
    assert rolled.apply(("card", 0, 0)).pending[:4] == ("attack", "zoc", 2, 1)  # failed: it is made


def test_precognant_at_a_snap_shot_and_at_the_melee_after_it():
    # VII PRECOGNANT at a snap shot (IX SNAP FIRE) in the psyker's own turn; the melee after it
    # (the attacker not stunned or killed) is an enemy attack the other force may foresee too
    from tests.crusade_game.test_powers import GUNNER, SEER, activate

    pistol = {"name": "pistol", "dice": "1W", "kind": "pistol", "effects": ["S"]}
    gunfighter = dict(GUNNER, abilities=["SNAP FIRE"], weapons=[pistol])
    profiles = [MARINE, STEALER, SEER, gunfighter]
    s = _seer_game([at("Seer", 1, 3), at("Marine", 4, 1)], [at("Gunner", 5, 1)], profiles=profiles)
    s = activate(s, 1).apply(("melee", 2)).apply(("snap", "pistol"))
    assert s.psy.prompt == ("foresee", 0) and s.psy.held[:4] == ("attack", "snap", 2, 1)
    foreseen = s.apply(("cast", 0, 0, 1)).apply(("card", 1, 0))
    assert foreseen.pending[:4] == ("attack", "melee", 1, 2)  # no snap shot: the melee goes ahead


def test_precognant_at_the_melee_after_the_defender_s_snap_fire():
    # VII PRECOGNANT at "the enemy attack": the melee that follows a snap shot that did not stop it
    from tests.crusade_game.test_powers import GUNNER, SEER
    from tests.crusade_game.test_psychic import cast

    pistol = {"name": "pistol", "dice": "1W", "kind": "pistol", "effects": ["S"]}
    gunfighter = dict(GUNNER, abilities=["SNAP FIRE"], weapons=[pistol])
    profiles = [MARINE, STEALER, SEER, gunfighter]
    s = _seer_game([at("Seer", 1, 3), at("Gunner", 5, 1)], [at("Marine", 6, 1)], profiles=profiles, first=1)
    s = s.apply(("activate", 2))
    s = s.apply(("pass",)) if s.psy.prompt else s  # the card window at the marine's activation
    s = s.apply(("melee", 1)).apply(("snap", "pistol"))
    law = cached_law(s.pending[4])
    miss = next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == NONE)
    after = s.apply(("attack", miss))
    assert after.psy.prompt == ("foresee", 0) and after.psy.held[:4] == ("attack", "melee", 2, 1)
    foreseen = cast(after, ("cast", 0, 0, 1)).apply(("card", 1, 0))
    assert not foreseen.pending and not foreseen.snap and foreseen.tokens[1].cond == NONE


def test_a_graze_on_a_latcher_in_a_shot_at_several_models_dislodges_it():
    # IX LATCH ON: "Any graze or KB result on the latcher will dislodge them"; III: "A graze result
    # occurs if only one point of damage is done to a target with 1 hit remaining"
    las = {"name": "las", "dice": "2W+1R", "kind": "ranged", "effects": ["LINE", "S"]}
    mine, theirs = [at("Leech", 3, 1), at("Marine", 1, 1)], [at("Marine", 3, 2), at("Marine", 5, 1)]
    s = _latched(las, mine, theirs).apply(("activate", 1)).apply(("end",))
    s = s.apply(("activate", 3)).apply(("shoot", 0, "las"))  # along row 1: the leech, then its friend
    assert s.pending[1] == "many" and s.pending[6] == (0, 1)
    law = cached_joint(s.pending[4])
    # the leech: armour 1, one hit; the line's one roll grazes it on a total of exactly 2
    white, red = (0, 0, 0, 0, 1, 2), (0, 0, 0, 1, 2, 3)
    two = Fraction(sum(sum(r) == 2 for r in product(white, white, red)), 216)
    assert sum(p for (_, _, _, g, _), p in law if g[0]) == pytest.approx(float(two))
    k = next(k for k, ((_, _, _, g, _), _) in enumerate(law) if g[0])
    assert s.apply(("attack", k)).tokens[0].latch == -1
    k = next(k for k, ((st, m, *_), _) in enumerate(law) if st[0][0] == NONE and not m[0])
    assert s.apply(("attack", k)).tokens[0].latch == 2


def test_precognant_at_a_mob():
    # VII PRECOGNANT at "the enemy attack": a mob's single melee (IX MOB) is one attack
    from tests.crusade_game.test_powers import GUNNER, SEER
    from tests.crusade_game.test_psychic import cast

    ganger = {"name": "Ganger", "move": 4, "armour": 1, "hits": 1, "melee": "2R", "abilities": ["MOB"]}
    profiles = [MARINE, STEALER, SEER, GUNNER, ganger]
    s = _seer_game(
        [at("Seer", 1, 3), at("Marine", 5, 2)],
        [at("Ganger", 4, 2), at("Ganger", 5, 1)],
        profiles=profiles,
        first=1,
    )
    s = s.apply(("activate", 2))
    s = s.apply(("pass",)) if s.psy.prompt else s  # the card window at the ganger's activation
    s = s.apply(("mob", 1, 3))
    assert s.psy.prompt == ("foresee", 0) and s.psy.held[:4] == ("attack", "mob", 2, 1)
    foreseen = cast(s, ("cast", 0, 0, 1)).apply(("card", 1, 0))
    assert not foreseen.pending and foreseen.tokens[1].cond == NONE and foreseen.tokens[3].done
