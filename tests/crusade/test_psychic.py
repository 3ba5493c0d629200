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


def test_mind_blast_rolls_separately_for_each_target():
    # VII: "Mind Blast: FT, roll seperately for each target in the template" (reading mind_blast:
    # a mind-war roll per target; a non-psyker rolls 1 white, no parry)
    from grimdice.systems.crusade import RULES

    sc = war(
        model(abilities=["Psy-1"]),
        model(),
        psychic_attack="mind blast",
        parry="never",
        targets=[model(name="grunt"), model(name="witch", abilities=["Psy-1"], range=12)],
    )
    res = run(sc)
    pa = sum(Fr(1, 36) for a, b in product(R, W) if a - b >= 2)
    pb = sum(Fr(1, 36) for a, b in product(R, R) if a - 1 - b >= 2)
    d = res["models_destroyed"]
    assert close(d[2], pa * pb) and close(d[0], (1 - pa) * (1 - pb))
    assert close(end(res.targets["0: grunt"], "killed"), pa)
    assert RULES.note("mind_blast") in res.notes
    with pytest.raises(ScenarioError, match=r"^targets: "):
        run({**sc, "targets": []})


def test_mind_blast_exact_and_monte_carlo_agree():
    from tests.agreement import assert_agree

    sc = war(
        model(abilities=["Psy-2"]),
        model(),
        psychic_attack="mind blast",
        targets=[model(name="a", hits=2), model(name="b", abilities=["Psy-1"])],
    )
    ex, mc = run(sc), run(sc, simulate=5000, seed=6)
    assert_agree(
        {k: ex[k] for k in ("damage", "models_destroyed")},
        {k: mc[k] for k in ("damage", "models_destroyed")},
        5000,
    )
