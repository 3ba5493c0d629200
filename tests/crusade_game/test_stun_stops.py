"""VIII STUN: a stunned model "may take no other actions or movement"; V ZOC: the passer may
continue its move only "If the passer is not stunned, killed or KOed by the melee"; IX SNAP FIRE:
"If you stun or kill them, the melee does not take place". A model stunned in its own activation
ends it there: no more moves, actions, melees or charges."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grimdice.engine.game import CHANCE
from grimdice.systems.crusade.damage import STUNNED
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.play import play_game
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import initial_state, invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER, at, state
from tests.crusade_game.kitchen import kitchen
from tests.crusade_game.test_snap_every_melee import GUNNER, STOPPED

HALL = "##############\n#............#\n#............#\n#............#\n##############"
STUNNER = dict(STEALER, weapons=[{"name": "claws", "dice": "1W", "kind": "spiky", "effects": ["S"]}])


def _take(s, want, side=0):
    """The pending attack's first outcome leaving model ``side`` of it (0 the attacker's target, 1
    the attacker) in condition ``want``; then the chance nodes after it, each its first outcome."""
    law = cached_law(s.pending[4])
    k = next(n for n, ((ds, as_, *_), _) in enumerate(law) if (ds, as_)[side][0] == want)
    s = s.apply(("attack", k))
    while s.pending:
        s = s.apply(s.chance_outcomes()[0][0])
    return s


def _over(s, i: int) -> None:
    """Model ``i``'s activation is over: it is done, and its player chooses the next model."""
    assert s.active == -1 and s.tokens[i].done and s.tokens[i].cond == STUNNED
    assert ("activate", i) not in s.legal_actions() and not invariant_errors(s)


def test_a_zoc_stun_ends_the_passer_s_activation():
    # V ZOC: the passer goes on "If the passer is not stunned": stunned, no extra move nor shot after
    s = state(
        HALL,
        [at("Marine", 2, 2), at("Marine", 1, 1)],
        [at("Stealer", 4, 1), at("Stealer", 12, 3)],
        first=0,
        profiles=[MARINE, STUNNER],
    )
    s = s.apply(("activate", 0)).apply(("move", 3, 2)).apply(("move", 4, 2))
    assert s.zoc and s.legal_actions() == [("pass",), ("zoc", 2)]
    _over(_take(s.apply(("zoc", 2)), STUNNED), 0)


def test_a_charger_stunned_by_its_target_s_zoc_ends_its_charge():
    # a charger beside its target steps past it; the target's free melee stuns it: no melee
    s = state(
        HALL, [at("Marine", 5, 2), at("Marine", 7, 1)], [at("Stealer", 9, 2), at("Stealer", 12, 3)], first=1
    )
    s = s.apply(("activate", 2)).apply(("charge", 0))
    for sq in [(8, 2), (7, 2), (6, 2)]:
        s = s.apply(("move", *sq))
        while s.zoc:
            s = s.apply(("pass",))
    s = s.apply(("move", 6, 3))
    assert s.zoc and s.zoc[2][0] == 0
    _over(_take(s.apply(("zoc", 0)), STUNNED), 2)


def test_a_snap_shot_that_stuns_the_attacker_ends_its_activation():
    # IX SNAP FIRE: "If you stun or kill them, the melee does not take place": nor a melee at the
    # other gunner beside it, nor a move. The pistol (2W, S) at armour 1 stuns or kills on a roll of 2
    # or more: 1/3 (test_snap_every_melee's STOPPED); exactly then the activation is over.
    a = [at("Gunner", 2, 2), at("Gunner", 2, 1)]
    s = state(HALL, a, [at("Stealer", 3, 2), at("Stealer", 12, 3)], profiles=[GUNNER, STEALER], first=1)
    shot = s.apply(("activate", 2)).apply(("melee", 0)).apply(("snap", "pistol"))
    over = Fraction(0)
    for k, (_, p) in enumerate(cached_law(shot.pending[4])):
        after = shot.apply(("attack", k))
        if after.active == -1:
            over += Fraction(p).limit_denominator(10**6)
        else:
            assert after.pending[:2] == ("attack", "melee")
    assert over == STOPPED == Fraction(1, 3)
    _over(_take(shot, STUNNED), 2)


def test_a_model_its_own_melee_stuns_stops():
    # VIII STUN: the attacker the defender's claws (S) stun "may take no other actions or movement"
    guard = dict(STUNNER, name="Guard")
    a, b = [at("Guard", 4, 2), at("Guard", 4, 1)], [at("Stealer", 5, 2), at("Stealer", 12, 3)]
    s = state(HALL, a, b, first=1, profiles=[guard, STEALER])
    s = s.apply(("activate", 2)).apply(("melee", 0))
    _over(_take(s, STUNNED, side=1), 2)


def test_an_active_stunned_model_is_an_invariant_error():
    s = state(HALL, [at("Marine", 2, 2)], [at("Stealer", 9, 2)], first=0).apply(("activate", 0))
    assert not invariant_errors(s)
    stunned = s.with_token(0, cond=STUNNED)
    assert any("stunned" in e for e in invariant_errors(stunned))


def _no_stunned_actor(s) -> bool:
    """No stunned model is offered anything but the end of its activation in an ordinary decision."""
    if s.current_player() == CHANCE or s.ended or s.active < 0 or s.snap or s.zoc or s.ambush:
        return True
    if (s.psy is not None and s.psy.prompt) or s.control or s.tokens[s.active].cond != STUNNED:
        return True
    return s.legal_actions() in ([], [("end",)])


@pytest.mark.parametrize("seed", [528])  # a random game whose token 3 moved after its own melee stunned it
def test_random_kitchen_games_never_leave_a_stunned_model_acting(seed):
    setup = build_setup(kitchen())
    log = play_game(setup, ("random", "random"), seed)
    s = initial_state(setup)
    for a in log["actions"]:
        s = s.apply(a)
        assert _no_stunned_actor(s) and not invariant_errors(s)
