"""A game's attack law is the single-attack calculator's: its marginals equal ``calculate()``."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import CONDITIONS
from grimdice.systems.crusade.game.combat import law_of
from grimdice.systems.crusade.profiles import Scenario

SHOT = {
    "system": "crusade",
    "action": "shoot",
    "range": 14,
    "cover": "full",
    "attacker": {
        "name": "Marine",
        "armour": 2,
        "abilities": ["R"],
        "weapons": [{"name": "bolter", "dice": "2W+1R", "effects": ["J", "S"]}],
    },
    "defender": {"name": "Stealer", "armour": 1, "hits": 2, "abilities": ["+F"]},
}


def _marginals(law):
    m = {k: defaultdict(float) for k in ("cond", "hits", "acond", "fail", "dfail", "weapon")}
    for (ds, as_, wa, wd, _), p in law:
        m["cond"][ds[0]] += p
        m["hits"][ds[1]] += p
        m["acond"][as_[0]] += p
        m["fail"][int(bool(wa))] += p
        m["dfail"][int(bool(wd))] += p
        if wa:
            m["weapon"][wa] += p
    return m


@pytest.mark.parametrize(
    "sc",
    [SHOT, "examples/crusade-melee.yaml", "examples/crusade-shooting.yaml"],
    ids=["shot-reroll-forcefield", "melee", "shooting"],
)
def test_law_marginals_equal_calculate(sc):
    data = yaml.safe_load(Path(sc).read_text()) if isinstance(sc, str) else sc
    data = {k: v for k, v in data.items() if k not in ("targets", "explode_near")}
    res = calculate(data)
    law = law_of(Scenario.model_validate(data))
    assert sum(p for _, p in law) == pytest.approx(1.0, abs=1e-12)
    m = _marginals(law)
    for c, name in enumerate(CONDITIONS):
        assert m["cond"][c] == pytest.approx(res.extra["end_state"][name], abs=1e-9)
    for h, p in res.stages["hits_left"].to_dict().items():
        assert m["hits"][h] == pytest.approx(p, abs=1e-9)
    assert m["fail"][1] == pytest.approx(res.extra["fail_effects"]["p_fail"], abs=1e-9)
    for w, p in res.extra["fail_effects"]["weapon"].items():
        assert m["weapon"][w] == pytest.approx(p, abs=1e-9)
    if "attacker_end_state" in res.extra:
        for c, name in enumerate(CONDITIONS):
            assert m["acond"][c] == pytest.approx(res.extra["attacker_end_state"][name], abs=1e-9)
    if "defender_fail" in res.stages:
        assert m["dfail"][1] == pytest.approx(res.stages["defender_fail"].mean(), abs=1e-9)


def test_melee_law_is_joint():
    # IV: only the loser takes harm, so the attacker and the defender are never both harmed
    data = yaml.safe_load(Path("examples/crusade-melee.yaml").read_text())
    for (ds, as_, *_), p in law_of(Scenario.model_validate(data)):
        assert p > 0 and not (ds != (0, 2) and as_ != (0, 1))


def test_a_roll_with_nothing_to_choose_is_walked_unsolved(monkeypatch):
    """A shot with no re-roll has no decision in its contest: its law is walked without solving the
    contest (the solver is never asked) and its marginals are still ``calculate()``'s; a melee
    with a parry to choose is solved."""
    from grimdice.systems.crusade.game import combat

    data = {**SHOT, "attacker": {**SHOT["attacker"], "abilities": []}}
    want = calculate(data).extra["end_state"]
    asked = []
    real = combat.solve
    monkeypatch.setattr(combat, "solve", lambda spec, game=None: asked.append(spec) or real(spec, game))
    m = _marginals(law_of(Scenario.model_validate(data)))
    assert not asked
    for c, name in enumerate(CONDITIONS):
        assert m["cond"][c] == pytest.approx(want[name], abs=1e-9)
    melee = yaml.safe_load(Path("examples/crusade-melee.yaml").read_text())
    law_of(Scenario.model_validate(melee))
    assert len(asked) == 1


def test_a_re_roll_game_too_large_to_solve_is_refused_as_the_calculator_refuses_it():
    from grimdice.errors import ScenarioError

    melee = yaml.safe_load(Path("examples/crusade-melee.yaml").read_text())
    mob = {**melee, "mob": [{**melee["attacker"], "name": f"m{i}"} for i in range(3)]}
    mob["attacker"] = {**melee["attacker"], "abilities": ["R", "MOB 6"]}
    with pytest.raises(ScenarioError, match="roll pairs, at most 4000") as err:
        law_of(Scenario.model_validate(mob))
    assert err.value.field == "attacker.melee"
