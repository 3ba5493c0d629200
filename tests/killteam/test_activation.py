"""Action rules (Heavy, Unwieldy, Limited, Silent, Rng, Blast) checked on a described activation."""

import pytest

from grimdice.errors import RuleError
from tests.killteam.helpers import gun, operative, run


def shoot(rules, activation=None, distance=None, **target):
    shot = {"activation": activation} if activation is not None else {}
    if distance is not None:
        shot["distance"] = distance
    return run(gun(A=1, rules=rules), operative(**target), shots=[shot])


def test_limited_once_per_battle():
    shoot(["Limited"], {"uses_before": 0})
    with pytest.raises(RuleError, match="Limited: it can be selected once per battle"):
        shoot(["Limited"], {"uses_before": 1})


def test_heavy_refused_after_a_normal_move_allowed_after_a_dash():
    with pytest.raises(RuleError, match=r"Heavy: no Charge, Fall Back or Normal Move.*normal move"):
        shoot(["Heavy"], {"actions": ["normal move", "shoot"]})
    with pytest.raises(RuleError, match="Heavy"):
        shoot(["Heavy"], {"actions": ["shoot", "Fall Back"]})
    shoot(["Heavy"], {"actions": ["dash", "shoot"]})
    shoot([], {"actions": ["normal move", "shoot"]})


def test_silent_may_shoot_on_a_conceal_order():
    shoot(["Silent"], {"order": "conceal"})
    with pytest.raises(RuleError, match="Conceal order"):  # the operative's own order by default
        run(
            gun(A=1),
            operative(),
            attacker={"name": "s", "W": 8, "order": "conceal", "weapons": [gun(A=1)]},
            shots=[{"activation": {}}],
        )
    with pytest.raises(
        RuleError, match="Conceal order cannot perform a Shoot action unless the weapon is Silent"
    ):
        shoot([], {"order": "conceal"})


def test_rng_refuses_a_far_target():
    shoot(["Rng pentagon"], distance=6)
    with pytest.raises(RuleError, match='Rng 6": target is 7" away'):
        shoot(["Rng pentagon"], distance=7)
    with pytest.raises(RuleError, match='Rng 2"'):
        run(gun(rules=['Rng 2"']), operative(distance="square"))


def test_unwieldy_needs_the_extra_ap_and_no_overwatch():
    shoot(["Unwieldy"], {"actions": ["shoot"], "APL": 2})
    with pytest.raises(RuleError, match="needs 3 AP but only 2 are available \\(Unwieldy"):
        shoot(["Unwieldy"], {"actions": ["dash", "shoot"], "APL": 2})
    shoot([], {"actions": ["dash", "shoot"], "APL": 2})
    with pytest.raises(RuleError, match="Unwieldy: it cannot make a shooting attack by an Overwatch"):
        shoot(["Unwieldy"], {"actions": ["overwatch"]})


def test_blast_no_overwatch():
    with pytest.raises(RuleError, match="Blast: it cannot make a shooting attack by an Overwatch"):
        shoot(["Blast circle"], {"actions": ["overwatch"]})
    shoot([], {"actions": ["overwatch"]})


def test_core_activation_limits():
    with pytest.raises(RuleError, match="same action more than once"):
        shoot([], {"actions": ["shoot", "shoot"]})
    with pytest.raises(RuleError, match="no Shoot or Overwatch"):
        shoot([], {"actions": ["dash"]})
    with pytest.raises(RuleError, match="needs 3 AP but only 2"):
        shoot([], {"actions": ["dash", "normal move", "shoot"]})
