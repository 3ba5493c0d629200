"""Shots at several models in the grid game (VIII FLAMER TEMPLATE, LINE, BLAST, SPLIT FIRE, RAPID
FIRE): which models the board puts in reach, and the game's law equal to ``calculate()``'s for the
same situation built by hand."""

from __future__ import annotations

import json

import numpy as np
import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.ai.players import ai_player, attack_value
from grimdice.systems.crusade.damage import CONDITIONS, KILLED
from grimdice.systems.crusade.game import many
from grimdice.systems.crusade.game.combat import cached_law
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


def _armed(name: str, dice: str, effects: list[str], abilities: list[str] | None = None) -> dict:
    w = {"name": name, "dice": dice, "kind": "ranged", "effects": effects}
    return dict(MARINE, weapons=[w], abilities=abilities if abilities is not None else MARINE["abilities"])


def _bare(profile: dict) -> dict:
    return {k: v for k, v in profile.items() if k != "move"}


def _activated(profile: dict, marines: list[tuple[int, int]], stealers: list[tuple[int, int]], **kw):
    """A HALL game with marines of ``profile`` and stealers on the squares given, the first
    marine activated."""
    ours, theirs = [at("Marine", *q) for q in marines], [at("Stealer", *q) for q in stealers]
    return state(HALL, ours, theirs, profiles=[profile, STEALER], **kw).apply(("activate", 0))


def _by_hand(attacker: dict, targets: list[dict]):
    """``calculate()`` of the attacker's shot at ``targets``, written by hand."""
    data = {"system": "crusade", "action": "shoot", "attacker": _bare(attacker), "targets": targets}
    return calculate({**data, "defender": {"name": "unused"}})


def _same_marginals(key: str, res) -> None:
    law = cached_joint(key)
    assert sum(p for _, p in law) == pytest.approx(1.0, abs=1e-12)
    for n, name in enumerate(res.targets):
        for c, cond in enumerate(CONDITIONS):
            got = sum(p for (states, *_), p in law if states[n][0] == c)
            assert got == pytest.approx(res.targets[name].extra["end_state"][cond], abs=1e-9)


def test_flamer_template_rolls_at_every_model_it_touches_friends_included():
    # VIII FLAMER TEMPLATE: "Roll seperately for each target touched by the template"; SFT "4" long,
    # 2" Dia" (reading grid_template): from (1,1) towards (4,1) it covers columns 2-5 of rows 1-2
    flamer = _armed("hand flamer", "1W+1R", ["SFT", "W"])
    s = _activated(flamer, [(1, 1), (3, 2)], [(4, 1), (7, 1), (5, 3)])
    flames_as_by_hand(s, flamer, (1, 1))


def flames_as_by_hand(s, flamer: dict, ranges: tuple[int, int]) -> None:
    """Marine 0 (activated) flames stealer 2 at (4, 1), catching marine 1 at (3, 2) and not
    stealer 3 at (7, 1), 6 away: the law is ``calculate()``'s at the ``ranges`` given."""
    shots = [a for a in s.legal_actions() if a[0] == "shoot"]
    assert ("shoot", 2, "hand flamer") in shots
    assert ("shoot", 3, "hand flamer") not in shots  # 6 squares: beyond the template
    s = s.apply(("shoot", 2, "hand flamer"))
    assert s.pending[1] == "many" and s.pending[6] == (2, 1)  # the target, then the friend at (3,2)
    target = {**_bare(STEALER), "name": "stealer", "range": ranges[0], "cover": "none"}
    friend = {**_bare(MARINE), "name": "friend", "range": ranges[1], "cover": "none"}
    _same_marginals(s.pending[4], _by_hand(flamer, [target, friend]))
    after = s.apply(("attack", 0))
    assert not after.pending and not invariant_errors(after)


def test_line_hits_every_model_on_the_line_beyond_the_target():
    # VIII LINE: "Draw a line from the firer through any eligible models. Apply the roll to ALL
    # eligible models in the line"
    lascannon = _armed("las", "2W+2R", ["LINE", "K"])
    s = _activated(lascannon, [(1, 2), (8, 2)], [(3, 2), (5, 2), (5, 1)]).apply(("shoot", 2, "las"))
    assert s.pending[6] == (2, 3, 1)  # (3,2), then (5,2) and the friend at (8,2); not (5,1)
    assert [t["range"] for t in json.loads(s.pending[4])["targets"]] == [1, 1, 7]


def test_blast_centre_and_the_models_around_it():
    # VIII BLAST: "Center applies the total roll, and Outside applies highest die only"; X: the 3x3
    grenade = _armed("frag", "2W+1R", ["B", "AREA 2", "S"])
    s = _activated(grenade, [(1, 2)], [(5, 2), (6, 3), (7, 2)]).apply(("shoot", 1, "frag"))
    assert s.pending[6] == (1, 2)  # (7,2) is two squares from the centre
    data = json.loads(s.pending[4])
    _same_marginals(s.pending[4], calculate(data))


def test_split_fire_names_two_targets_and_equals_calculate():
    # VIII SPLIT FIRE: "Split the total up amongst any targets in line of sight. Don't forget to
    # include range penalties and cover bonuses for each target!" (the dark square: full cover)
    gun = _armed("storm", "3W+1R", ["*", "W"])
    s = _activated(gun, [(1, 2)], [(4, 1), (6, 3)], grid={"dark": [[6, 3]]})
    assert ("shoot", 1, "storm", 2) in s.legal_actions()
    s = s.apply(("shoot", 1, "storm", 2))
    assert s.pending[1] == "many" and s.pending[6] == (1, 2)
    near = {**_bare(STEALER), "name": "near", "range": 1, "cover": "none"}
    dark = {**_bare(STEALER), "name": "dark", "range": 1, "cover": "full"}
    _same_marginals(s.pending[4], _by_hand(gun, [near, dark]))


def test_rapid_fire_twice_within_six_squares_once_beyond():
    # VIII RAPID FIRE: "May fire weapon twice if all targets are within 6""
    gun = _armed("bolter", "2W", ["RAP", "W"], abilities=["R"])
    s = _activated(gun, [(1, 2)], [(5, 2), (8, 1), (6, 3)])
    acts = s.legal_actions()
    assert ("shoot", 1, "bolter", 3) in acts  # 4 and 5 squares
    assert ("shoot", 1, "bolter", 2) not in acts  # (8,1) is 7 squares away
    one = s.apply(("shoot", 1, "bolter"))
    assert one.pending[1] == "many" and one.pending[6] == (1,)
    single = {
        "system": "crusade",
        "action": "shoot",
        "attacker": _bare(gun),
        "defender": _bare(STEALER),
        "range": 1,
    }
    _same_marginals(one.pending[4], calculate(single))  # two shots at one target, with the re-roll
    far = s.apply(("shoot", 2, "bolter"))
    assert far.pending[1] == "shoot" and json.loads(far.pending[4])["range"] == 7
    once = calculate({**single, "range": 7})  # one shot beyond 6"
    for c, cond in enumerate(CONDITIONS):
        got = sum(p for (ds, *_), p in cached_law(far.pending[4]) if ds[0] == c)
        assert got == pytest.approx(once.extra["end_state"][cond], abs=1e-9)


def test_the_ai_does_not_flame_its_own_models_when_it_does_not_pay():
    flamer = _armed("flamer", "2W+1R", ["FT", "K"])
    s = _activated(flamer, [(1, 2), (2, 1), (2, 3), (3, 1)], [(3, 2)])
    shot = ("shoot", 4, "flamer")
    assert shot in s.legal_actions()
    assert attack_value(s, shot) < 0  # three marines in the flame for one stealer
    assert ai_player(s, np.random.default_rng(0)) != shot


def test_the_ai_flames_a_pair_of_enemies():
    flamer = _armed("flamer", "2W+1R", ["FT", "K"])
    s = _activated(flamer, [(1, 2)], [(3, 2), (4, 3)])
    shot = ("shoot", 1, "flamer")
    assert s.apply(shot).pending[6] == (1, 2)
    assert attack_value(s, shot) > 0
    assert ai_player(s, np.random.default_rng(0))[0] == "shoot"


def test_a_template_too_large_for_one_node_rolls_at_every_model_in_turn():
    # VIII FLAMER TEMPLATE: "Roll seperately for each target touched by the template"; the
    # calculator refuses a flamer of 3W+3R at 4 targets as one joint law (its joint rolls bound):
    # the game rolls at every model, one chance node a model, never failing mid-game
    flamer = _armed("inferno", "3W+3R", ["HFT", "W"])
    s = _activated(flamer, [(1, 2)], [(3, 2), (4, 1), (4, 3), (5, 2)])
    assert many.reached(s, 0, 1, "inferno") == (1, 2, 3, 4)
    with pytest.raises(ScenarioError):
        cached_joint(many.shot(s, 0, (1, 2, 3, 4), "inferno"))
    s = s.apply(("shoot", 1, "inferno"))
    assert s.pending[1] == "many" and s.pending[6] == (1, 2, 3, 4)
    for _ in range(3):
        s = s.apply(("attack", 0))
        assert many.rolling(s)
    assert not s.apply(("attack", 0)).pending


def test_blast_knockback_moves_the_outside_models_away_from_the_centre():
    # VIII KNOCKBACK: "move the target 1" away from the attacker (or from the center if hit by a
    # blast weapon)"; BLAST: "Knockback will be from the firer for the Center target, and from the
    # Center for all other targets"; the centre's square beyond holds a model: a stun, it stays
    grenade = _armed("krak", "2W+1R", ["B", "AREA 2", "KB"])
    s = _activated(grenade, [(1, 2)], [(5, 2), (6, 2)]).apply(("shoot", 1, "krak"))
    data = json.loads(s.pending[4])
    assert [t["knockback_into"] for t in data["targets"]] == ["obstacle", "open"]
    law = cached_joint(s.pending[4])
    k = next(k for k, ((states, moved, *_), _) in enumerate(law) if moved[1] and states[1][0] != KILLED)
    after = s.apply(("attack", k))
    assert after.tokens[2].sq == (7, 2) and after.tokens[1].sq == (5, 2)
    assert not invariant_errors(after)
