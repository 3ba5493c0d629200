"""IX AMBUSH's free shot with a template, line, area or SPLIT FIRE weapon at every model it reaches
(RAPID FIRE once: "may not rapid fire"), and hidden models caught by a template, line or area
(reading ``hidden_caught``: V HIDING, VIII BURN), against ``calculate()`` for the same situation."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import CONDITIONS, NONE
from grimdice.systems.crusade.game import many
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.state import invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER, at, state
from tests.crusade_game.test_many import _bare, _by_hand, _same_marginals

HALL = "##########\n#........#\n#........#\n#........#\n##########"


def _lurker(name, dice, effects):
    weapon = {"name": name, "dice": dice, "kind": "ranged", "effects": effects}
    return dict(STEALER, name="Lurker", abilities=["AMBUSH"], weapons=[weapon])


def _revealed(lurker, marines=((2, 2), (3, 1)), blip_at=(5, 2)):
    """Marine 0 steps next to a blip holding one AMBUSH lurker: revealed in the marines' turn."""
    blips = {"blips": [{"at": list(blip_at), "models": ["Lurker"]}]}
    ours = [at("Marine", *q) for q in marines]
    s = state(HALL, ours, [at("Stealer", 8, 3)], profiles=[MARINE, STEALER, lurker], force_b=blips)
    s = s.apply(("activate", 0)).apply(("move", 3, 2)).apply(("move", 4, 2))
    k = next(i for i, t in enumerate(s.tokens) if t.profile == 2)
    assert s.ambush == (k,) and s.current_player() == 1
    return s, k


def test_an_ambusher_s_flamer_rolls_at_every_model_its_template_touches():
    # IX AMBUSH "a free attack"; VIII FLAMER TEMPLATE: "Roll seperately for each target touched"
    flamer = _lurker("hand flamer", "1W+1R", ["SFT", "W"])
    s, k = _revealed(flamer)
    assert ("shoot", 0, "hand flamer") in s.legal_actions()
    fired = s.apply(("shoot", 0, "hand flamer"))
    assert fired.pending[:3] == ("attack", "many", k) and fired.pending[6] == (0, 1)
    assert fired.pending[6] == many.reached(s, k, 0, "hand flamer")
    data = json.loads(fired.pending[4])
    assert data["moved"] is False  # the ambusher did not move
    near = {**_bare(MARINE), "name": "target", "range": 1, "cover": "none"}
    friend = {**_bare(MARINE), "name": "other", "range": 1, "cover": "none"}
    _same_marginals(fired.pending[4], _by_hand(flamer, [near, friend]))
    law = many.cached_joint(fired.pending[4])
    after = fired.apply(("attack", next(n for n, ((st, *_), _) in enumerate(law) if st[0][0] == NONE)))
    assert after.ambush == (~k,) and after.current_player() == 1  # then its half move
    assert not invariant_errors(after)


def test_an_ambusher_may_split_fire_at_two_named_targets():
    gun = _lurker("storm", "3W+1R", ["*", "W"])
    s, _ = _revealed(gun, marines=((2, 2), (7, 1)))
    assert ("shoot", 0, "storm", 1) in s.legal_actions()
    fired = s.apply(("shoot", 0, "storm", 1))
    assert fired.pending[1] == "many" and fired.pending[6] == (0, 1)
    rows = json.loads(fired.pending[4])["targets"]
    targets = [
        {**_bare(MARINE), "name": f"t{n}", "range": r["range"], "cover": "none"} for n, r in enumerate(rows)
    ]
    _same_marginals(fired.pending[4], _by_hand(gun, targets))


def test_an_ambusher_may_not_rapid_fire():
    # IX AMBUSH: "(but may not rapid fire)": one shot at one target, no pair of targets
    gun = _lurker("bolter", "2W", ["RAP", "W"])
    s, _ = _revealed(gun, marines=((2, 2), (7, 1)))
    acts = s.legal_actions()
    assert ("shoot", 0, "bolter") in acts and not any(len(a) == 4 for a in acts)
    fired = s.apply(("shoot", 0, "bolter"))
    assert fired.pending[1] == "ambush"
    data = json.loads(fired.pending[4])
    assert data["range"] <= many.RAPID_RANGE  # within 6": rapid fire would fire twice
    plain = dict(gun, weapons=[dict(gun["weapons"][0], effects=["W"])])  # the same gun, no RAPID FIRE
    once = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "attacker": _bare(plain),
            "defender": _bare(MARINE),
            "range": data["range"],
        }
    )
    for c, cond in enumerate(CONDITIONS):
        got = sum(p for (ds, *_), p in cached_law(fired.pending[4]) if ds[0] == c)
        assert got == pytest.approx(once.extra["end_state"][cond], abs=1e-9)


def _flaming_hidden(effects):
    """Marine 0 at (1, 2) flames the stealer at (3, 2) with a hand flamer (``effects``); a hidden
    stealer at (4, 1) is under the template: the state before the roll."""
    flamer = dict(
        MARINE, weapons=[{"name": "hand flamer", "dice": "2R", "kind": "ranged", "effects": effects}]
    )
    s = state(
        HALL, [at("Marine", 1, 2)], [at("Stealer", 3, 2), at("Stealer", 4, 1)], profiles=[flamer, STEALER]
    )
    s = s.with_token(2, hidden=True).apply(("activate", 0))
    fired = s.apply(("shoot", 1, "hand flamer"))
    assert fired.pending[6] == (1, 2)  # the hidden stealer is rolled at (it is no blip)
    return fired


def _flamed_hidden(effects, outcome):
    """:func:`_flaming_hidden` after the joint law's first end that ``outcome(end)`` picks."""
    fired = _flaming_hidden(effects)
    law = many.cached_joint(fired.pending[4])
    return fired.apply(("attack", next(n for n, (end, _) in enumerate(law) if outcome(end))))


def test_a_hidden_model_caught_by_a_template_is_revealed_when_the_firer_sees_it():
    # V HIDING: "if you or your enemy moves such that they have direct line of sight to you ...
    # you will be Revealed" (reading hidden_caught): seen from (1, 2), harmed or not
    unharmed = _flamed_hidden(["SFT", "W"], lambda end: end[0][1][0] == NONE)
    assert unharmed.setup.board.sight((1, 2), (4, 1), {}, unharmed.occupied())
    assert not unharmed.tokens[2].hidden


def test_burn_reveals_a_caught_hidden_model_when_a_result_above_zero_is_rolled_at_it():
    # VIII BURN: "Hidden models that are attacked will be revealed even if they take no damage, as
    # long as a result greater than zero is rolled on the dice" (reading hidden_caught)
    burn = ["SFT", "W", "BURN"]
    harmed = _flamed_hidden(burn, lambda end: end[0][1][0] != NONE)
    assert not harmed.tokens[2].hidden
    grazed_nothing = _flamed_hidden(burn, lambda end: end[0][1][0] == NONE and end[4][1])
    assert grazed_nothing.tokens[2].cond == NONE and not grazed_nothing.tokens[2].hidden
    zero = _flamed_hidden(burn, lambda end: end[0][1][0] == NONE and not end[4][1])
    assert zero.tokens[2].cond == NONE and zero.tokens[2].hidden


def test_burn_s_result_above_zero_has_the_chance_of_the_dice():
    # the hidden stealer (armour 1; BURN ignores cover; 3 squares: no range penalty) is rolled at
    # with its own 2 reds (VIII FLAMER TEMPLATE): unharmed after a result above zero when the
    # total is 1, unharmed and still hidden when it is 0
    red = (0, 0, 0, 1, 2, 3)
    law = many.cached_joint(_flaming_hidden(["SFT", "W", "BURN"]).pending[4])
    ones = Fraction(sum(a + b == 1 for a, b in product(red, red)), 36)
    zeros = Fraction(sum(a + b == 0 for a, b in product(red, red)), 36)
    shown = sum(p for (st, *_, r), p in law if st[1][0] == NONE and r[1])
    kept = sum(p for (st, *_, r), p in law if st[1][0] == NONE and not r[1])
    assert shown == pytest.approx(float(ones), abs=1e-12)
    assert kept == pytest.approx(float(zeros), abs=1e-12)
    assert sum(p for (st, *_, r), p in law if st[1][0] != NONE and not r[1]) == 0.0


def test_a_hidden_model_out_of_the_firer_s_sight_stays_hidden():
    # a blast's 3x3 reaches behind a wall the firer does not see past (X, reading grid_area)
    walled = "##########\n#........#\n#....#...#\n#........#\n##########"
    frag = dict(
        MARINE,
        weapons=[{"name": "frag", "dice": "2W+1R", "kind": "grenade", "effects": ["B", "AREA 1", "S"]}],
    )
    s = state(
        walled, [at("Marine", 1, 1)], [at("Stealer", 6, 1), at("Stealer", 7, 2)], profiles=[frag, STEALER]
    )
    s = s.with_token(2, hidden=True).apply(("activate", 0))
    assert not s.setup.board.sight((1, 1), (7, 2), {}, s.occupied())
    fired = s.apply(("shoot", 1, "frag"))
    assert fired.pending[6] == (1, 2)
    law = many.cached_joint(fired.pending[4])
    after = fired.apply(("attack", next(n for n, ((st, *_), _) in enumerate(law) if st[1][0] == NONE)))
    assert after.tokens[2].hidden
