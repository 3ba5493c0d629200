"""IX DETONATE in the grid game, from the text's sentences."""

from __future__ import annotations

from fractions import Fraction

import pytest

from grimdice.systems.crusade.damage import KILLED, NONE, STUNNED
from tests.crusade_game.helpers import MARINE, STEALER, at, state

LANE = """
############
#..........#
#..........#
############
"""

#: a red die (0,0,0,1,2,3): a zero on half its faces; a white die (0,0,0,0,1,2): on two thirds
BOMB = {"name": "charge", "dice": "1R", "kind": "ranged", "effects": ["SFT"]}
FUSE = {"name": "fuse", "dice": "1W", "kind": "melee", "effects": ["S"]}


def _bomber(abilities=("DETONATE",)):
    return dict(MARINE, name="Bomber", abilities=list(abilities), weapons=[dict(BOMB), dict(FUSE)])


def _game(*foes, **kw):
    b = [at("Stealer", x, y) for x, y in foes]
    return state(LANE, [at("Bomber", 3, 1)], b, profiles=[_bomber(**kw), STEALER])


def test_may_detonate_as_an_action():
    # IX DETONATE: "May detonate as an action."
    acts = _game((9, 2)).apply(("activate", 0)).legal_actions()
    assert ("detonate", "charge") in acts and ("detonate", "fuse") in acts
    plain = _game((9, 2), abilities=()).apply(("activate", 0)).legal_actions()
    assert not any(a[0] == "detonate" for a in plain)


@pytest.mark.parametrize(("weapon", "zero"), [("charge", Fraction(1, 2)), ("fuse", Fraction(2, 3))])
def test_a_zero_on_the_dice_does_not_explode(weapon, zero):
    # "if you roll a zero on the dice, you do not explode- continue as normal!"
    s = _game((9, 2)).apply(("activate", 0)).apply(("detonate", weapon))
    assert s.acted and s.pending[0] == "detonate"
    law = dict(s.chance_outcomes())
    assert law[("detonate", 0)] == pytest.approx(float(zero))
    assert law[("detonate", 1)] == pytest.approx(float(1 - zero))
    calm = s.apply(("detonate", 0))
    assert not calm.pending and calm.tokens == s.tokens  # nothing happens; the action is spent
    assert all(a[0] not in ("detonate", "shoot", "melee") for a in calm.legal_actions())


def test_the_blast_is_explode_s_attack_on_the_bomber_then_the_models_near():
    # VIII EXPLODE (reused): the weapon's dice at range 0, the bearer first, SFT = 1" around him
    s = _game((4, 2), (4, 1), (9, 2)).apply(("activate", 0)).apply(("detonate", "charge"))
    boom = s.apply(("detonate", 1))
    assert boom.pending[:4] == ("attack", "explode", 0, 0)  # the bomber himself first
    queued = [f[2] for f in boom.pending[6]]
    assert sorted(queued) == [1, 2]  # the two stealers within 1"; the far one (token 3) not
    assert boom.tokens[0].arms == s.tokens[0].arms  # the weapon is not lost


def test_a_blast_can_harm_the_models_near():
    s = _game((4, 1)).apply(("activate", 0)).apply(("detonate", "charge")).apply(("detonate", 1))
    while s.pending and s.pending[0] == "attack":
        hit = [k for k, ((ds, *_), p) in enumerate(_law(s)) if ds[0] != NONE]
        s = s.apply(("attack", hit[0] if s.pending[3] == 1 else 0))
    assert s.tokens[1].cond != NONE


def _law(s):
    from grimdice.systems.crusade.game.combat import cached_law

    return cached_law(s.pending[4])


def test_a_blip_cannot_detonate():
    s = _game((9, 2))
    with pytest.raises(ValueError, match="may not detonate"):
        s.apply(("activate", 0)).with_token(0, blip=("x",)).apply(("detonate", "charge"))


def test_games_with_detonate_keep_the_invariants():
    from grimdice.systems.crusade.game.scenario import build_setup
    from tests.crusade_game.helpers import scenario
    from tests.crusade_game.test_games import _checked_game

    hall = "##########\n#........#\n#........#\n#........#\n##########"
    a, b = [at("Bomber", 1, 1), at("Bomber", 1, 3)], [at("Stealer", 8, 3), at("Stealer", 8, 1)]
    setup = build_setup(scenario(hall, a, b, profiles=[_bomber(), STEALER], turns=4))
    log = _checked_game(setup, ("random", "random"), 1)
    assert "detonate" in {a[0] for a in log["actions"]}  # the seed's game plays the ability


def _shot_at_bomber():
    """A marine's bolter (2W+1R) shoots the bomber (armour 2, 1 hit) across the lane."""
    b = [at("Marine", 9, 1)]
    s = state(LANE, [at("Bomber", 3, 1)], b, profiles=[_bomber(), STEALER, MARINE])
    s = s.apply(("activate", 0)).apply(("end",)).apply(("activate", 1))
    return s.apply(("shoot", 0, "bolter"))


def _p_total(dice: list[tuple[int, ...]], want: int) -> Fraction:
    from itertools import product

    rolls = list(product(*dice))
    return Fraction(sum(sum(r) == want for r in rolls), len(rolls))


WHITE, RED = (0, 0, 0, 0, 1, 2), (0, 0, 0, 1, 2, 3)


def test_the_law_tells_a_graze_from_more_harm():
    # III: "A graze result occurs if only one point of damage is done to a target with 1 hit
    # remaining": a roll of exactly armour + 1 = 3 on 2W+1R; 4 or more is more than a graze
    from grimdice.systems.crusade.game.combat import GRAZE_DEFENDER

    law = _law(_shot_at_bomber())
    grazed = sum(p for (_, _, _, _, marks), p in law if marks & GRAZE_DEFENDER)
    assert grazed == pytest.approx(float(_p_total([WHITE, WHITE, RED], 3)))
    assert all(ds[0] == STUNNED for (ds, _, _, _, m), _ in law if m & GRAZE_DEFENDER)  # bolter's S
    more = sum(p for (ds, *_), p in law if ds[0] == KILLED)
    assert more == pytest.approx(float(sum(_p_total([WHITE, WHITE, RED], t) for t in (4, 5, 6, 7))))


def test_will_detonate_if_grazed_but_not_if_hit_harder():
    # IX DETONATE: "Will detonate if grazed (but not if hit with more than graze damage)"
    from grimdice.systems.crusade.game.combat import GRAZE_DEFENDER

    s = _shot_at_bomber()
    law = _law(s)
    graze = next(k for k, ((*_, m), _) in enumerate(law) if m & GRAZE_DEFENDER)
    boom = s.apply(("attack", graze))
    assert boom.pending[:3] == ("detonate", 0, 0)  # the bomber's first weapon, its zero roll
    assert dict(boom.chance_outcomes())[("detonate", 0)] == pytest.approx(0.5)
    assert boom.apply(("detonate", 1)).pending[:4] == ("attack", "explode", 0, 0)
    killed = next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == KILLED)
    assert not s.apply(("attack", killed)).pending
    miss = next(k for k, ((ds, *_), _) in enumerate(law) if ds[0] == NONE)
    assert not s.apply(("attack", miss)).pending


def test_a_model_without_detonate_marks_no_graze():
    from grimdice.systems.crusade.game.combat import GRAZE_DEFENDER

    b = [at("Marine", 9, 1)]
    s = state(LANE, [at("Bomber", 3, 1)], b, profiles=[_bomber(abilities=()), STEALER, MARINE])
    s = s.apply(("activate", 0)).apply(("end",)).apply(("activate", 1)).apply(("shoot", 0, "bolter"))
    assert not any(m & GRAZE_DEFENDER for (*_, m), _ in _law(s))


def test_a_shot_at_several_models_that_grazes_the_bomber_sets_it_off():
    # IX DETONATE: "Will detonate if grazed (but not if hit with more than graze damage)"; VIII
    # LINE: "Apply the roll to ALL eligible models in the line" (the joint law tells each graze)
    from grimdice.systems.crusade.game.many import cached_joint

    las = dict(MARINE, weapons=[{"name": "las", "dice": "2W+1R", "kind": "ranged", "effects": ["LINE", "S"]}])
    a = [at("Bomber", 3, 1), at("Stealer", 2, 1)]
    s = state(LANE, a, [at("Marine", 9, 1)], profiles=[_bomber(), STEALER, las])
    s = s.apply(("activate", 0)).apply(("end",)).apply(("activate", 1)).apply(("end",))
    s = s.apply(("activate", 2)).apply(("shoot", 0, "las"))
    assert s.pending[1] == "many" and s.pending[6] == (0, 1)
    law = cached_joint(s.pending[4])
    grazed = sum(p for (_, _, _, g, _), p in law if g[0])
    assert grazed == pytest.approx(float(_p_total([WHITE, WHITE, RED], 3)))  # armour 2: exactly 3
    k = next(k for k, ((*_, g, _), _) in enumerate(law) if g[0])
    assert s.apply(("attack", k)).pending[:3] == ("detonate", 0, 0)
    harder = next(k for k, ((st, *_), _) in enumerate(law) if st[0][0] == KILLED)
    assert not s.apply(("attack", harder)).pending
    other = next(k for k, ((st, _, _, g, _), _) in enumerate(law) if g[1] and not g[0])
    assert not s.apply(("attack", other)).pending  # the stealer grazed: it has no DETONATE
