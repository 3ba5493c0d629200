"""IX LATCH ON in the game, from the text's sentences."""

from __future__ import annotations

import json

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import NONE
from grimdice.systems.crusade.game.combat import GRAZE_DEFENDER, cached_law
from grimdice.systems.crusade.game.frozen import altered
from tests.crusade_game.helpers import MARINE, STEALER, at, state

HALL = """
##########
#........#
#........#
#........#
##########
"""

LEECH = dict(STEALER, name="Leech", abilities=["LATCH ON"])
BRUTE = dict(MARINE, name="Brute", abilities=["HEAVY"])


def _game(target="Marine", *, latched=True):
    """A leech (force A) beside an enemy at (4, 1); a marine of each force to shoot."""
    profiles = [LEECH, MARINE, BRUTE]
    s = state(
        HALL,
        [at("Leech", 3, 1), at("Marine", 1, 3)],
        [at(target, 4, 1), at("Marine", 8, 3)],
        profiles=profiles,
    )
    if latched:
        s = s.apply(("activate", 0)).apply(("latch", 2)).apply(("end",))
    return s


def test_latching_is_the_latcher_s_melee_action():
    # "As a melee attack, may attach to a target"
    s = _game(latched=False).apply(("activate", 0))
    assert ("latch", 2) in s.legal_actions() and ("melee", 2) in s.legal_actions()
    on = s.apply(("latch", 2))
    assert on.acted and on.tokens[0].latch == 2
    assert not any(a[0] in ("latch", "melee", "shoot") for a in on.legal_actions())
    marine = _game(latched=False).apply(("activate", 1))
    assert not any(a[0] == "latch" for a in marine.legal_actions())  # no LATCH ON


def _calc_unharmed(data: dict) -> float:
    return calculate(data).extra["end_state"]["unharmed"]


def _as_calc(key: str, **change) -> dict:
    data = json.loads(key)
    data.update(change)
    return data


def test_attacks_against_the_target_are_at_plus_1():
    # "Attacks against the target will be at +1."
    s = _game().apply(("activate", 1)).apply(("shoot", 2, "bolter"))
    key = s.pending[4]
    assert json.loads(key)["latch"] == "target"
    law = cached_law(key)
    unharmed = sum(p for (ds, *_), p in law if ds[0] == NONE)
    assert unharmed == pytest.approx(_calc_unharmed(_as_calc(key)))
    assert unharmed < _calc_unharmed(_as_calc(key, latch="none"))


def test_the_target_s_ranged_attacks_are_at_minus_1():
    # "The target's ranged attacks are at -1 while latched on."
    s = _game().apply(("activate", 1)).apply(("end",))  # the marines' turn ends
    s = s.apply(("activate", 2))
    assert not any(a[0] == "move" for a in s.legal_actions())  # "neither model may move"
    shot = s.apply(("shoot", 1, "bolter"))
    assert json.loads(shot.pending[4])["latch"] == "firer"


def test_a_shot_at_the_latcher_hits_both():
    # "Ranged attacks vs. the latcher will hit BOTH the latcher and the target!" (the calculator:
    # "shoot each")
    s = _game().apply(("activate", 1))
    shot = s.apply(("shoot", 0, "bolter"))
    assert shot.pending[6] == (("shoot", 1, 2, "bolter"),)
    law = cached_law(shot.pending[4])
    miss = next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == NONE)
    second = shot.apply(("attack", miss))
    assert second.pending[1:4] == ("shoot", 1, 2) and json.loads(second.pending[4])["latch"] == "target"


def test_a_graze_on_the_latcher_dislodges_it():
    # "Any graze or KB result on the latcher will dislodge them."
    s = _game().apply(("activate", 1)).apply(("shoot", 0, "bolter"))
    law = cached_law(s.pending[4])
    grazed = [k for k, ((*_, m), _) in enumerate(law) if m & GRAZE_DEFENDER]
    assert grazed  # the leech's situation tells a graze apart
    off = s.apply(("attack", grazed[0]))
    assert off.tokens[0].latch == -1
    kept = s.apply(("attack", next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == NONE)))
    assert kept.tokens[0].latch == 2


def test_the_larger_model_moves_taking_the_smaller_along():
    # "neither model may move, unless they are different sizes- in which case the larger model
    # can move, taking the smaller model with them"
    s = _game("Brute").apply(("activate", 1)).apply(("end",)).apply(("activate", 2))
    steps = [a for a in s.legal_actions() if a[0] == "move"]
    assert steps and ("move", 5, 1) in steps
    moved = s.apply(("move", 5, 1))
    assert moved.tokens[2].sq == (5, 1) and moved.tokens[0].sq == (4, 1)
    # of the same size, neither: the leech has its move left after latching, and no step
    on = _game(latched=False).apply(("activate", 0)).apply(("latch", 2))
    assert on.budget > 0 and not any(a[0] == "move" for a in on.legal_actions())


def test_the_latch_lasts_until_the_latcher_s_next_turn():
    # "remain attached for 1 turn- must relatch each turn"
    s = _game().apply(("activate", 1)).apply(("end",))
    assert s.player == 1 and s.tokens[0].latch == 2  # it holds through the enemy's turn
    s = s.apply(("activate", 2)).apply(("end",)).apply(("activate", 3)).apply(("end",))
    assert s.player == 0 and s.tokens[0].latch == -1
    assert ("latch", 2) in s.apply(("activate", 0)).legal_actions()  # it may relatch


def test_only_onto_an_adjacent_enemy():
    s = _game(latched=False).apply(("activate", 0))
    assert ("latch", 3) not in s.legal_actions()  # the far marine
    with pytest.raises(ValueError, match="may not latch"):
        s.apply(("latch", 3))


def test_an_ambusher_s_shot_at_the_latcher_hits_both():
    from grimdice.systems.crusade.game import ambush

    s = _game().apply(("activate", 1)).apply(("end",)).apply(("activate", 2)).apply(("end",))
    s = altered(s.apply(("activate", 3)).with_token(3, sq=(3, 3)), ambush=(3,))  # below the leech
    assert ("shoot", 0, "bolter") in ambush.actions(s)
    shot = s.apply(("shoot", 0, "bolter"))
    assert shot.pending[1] == "ambush" and shot.pending[6] == (("ambush", 3, 2, "bolter"),)
