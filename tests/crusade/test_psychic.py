"""Mind war and mind lance (rules-crusade VII) against hand fractions."""

from fractions import Fraction as Fr
from itertools import product

import pytest

from grimdice.errors import ScenarioError
from tests.crusade.helpers import close, end, model, run

R = (0, 0, 0, 1, 2, 3)
W = (0, 0, 0, 0, 1, 2)


def war(att, dfd, **kw):
    sc = {"system": "crusade", "action": "mindwar", "attacker": att, "defender": dfd}
    sc.update(kw)
    return sc


def test_mind_war_one_red_per_level_graze_stuns():
    res = run(war(model(abilities=["Psy-1"]), model(abilities=["Psy-1"]), parry="never"))
    kill = sum(Fr(1, 36) for a, b in product(R, R) if a - b >= 2)
    stun = sum(Fr(1, 36) for a, b in product(R, R) if a - b == 1)
    assert close(end(res, "killed"), kill) and close(end(res, "stunned"), stun)
    assert close(
        res.extra["attacker_end_state"]["stunned"], sum(Fr(1, 36) for a, b in product(R, R) if b > a)
    )


def test_attacker_alone_takes_range_penalties():
    res = run(war(model(abilities=["Psy-1"]), model(abilities=["Psy-1"]), parry="never", range=12))
    kill = sum(Fr(1, 36) for a, b in product(R, R) if a - 1 - b >= 2)
    assert close(end(res, "killed"), kill)


def test_incursion_every_die_at_maximum():
    res = run(war(model(abilities=["Psy-2"]), model(abilities=["Psy-1"])))
    assert close(res.extra["resolved"]["incursion"], Fr(1, 36))


def test_mind_lance_on_non_psyker_one_white_no_parry():
    with pytest.raises(ScenarioError) as e:
        run(war(model(abilities=["Psy-1"]), model()))
    assert e.value.field == "defender.abilities"
    res = run(war(model(abilities=["Psy-1"]), model(), psychic_attack="mind lance"))
    kill = sum(Fr(1, 36) for a, b in product(R, W) if a - b >= 2)
    assert close(end(res, "killed"), kill) and res.extra["choices"]["defender_parries"] == 0
    with pytest.raises(ScenarioError) as e:
        run(war(model(), model(abilities=["Psy-1"])))
    assert e.value.field == "attacker.abilities"


def test_incursion_attack_two_reds_at_range_zero_no_parry():
    res = run(war(model(abilities=["Psy-1"]), model(abilities=["Psy-1"]), range=30))
    inc = res.extra["resolved"]["incursion_psyker_end_state"]
    kill = sum(Fr(1, 6**3) for a, b, d in product(R, R, R) if a + b - d >= 2)
    assert close(inc["killed"], kill)


def test_warp_spawn_replaces_a_psyker_killed_by_an_incursion():
    # VII: an incursion (every die at its maximum: 1/6 for Psy-1) attacks with "OO" (2 reds) at
    # range 0, no parry; if the psyker dies he becomes a Warp Spawn with his hits + 2
    res = run(war(model(abilities=["Psy-1"], hits=1), model(abilities=["Psy-1"])))
    kill = sum(Fr(1, 6**3) for a, b, d in product(R, R, R) if a + b - d >= 2)
    spawn = res.extra["resolved"]["warp_spawn"]
    assert close(spawn["chance"], Fr(1, 6) * kill)
    assert spawn["profile"]["hits"] == 3 and spawn["profile"]["melee"] == "6R"
