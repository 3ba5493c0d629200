"""VIII ARTILLERY's crew in the grid game (reading ``artillery_crew``): "Provides front cover for 2
crew", checked against ``calculate()`` with and without the cover."""

from __future__ import annotations

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import CONDITIONS, KO
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.state import GameState
from tests.crusade_game.helpers import MARINE, STEALER, at, state
from tests.crusade_game.test_many import _bare

LONG = "\n".join(["#" * 21, "#" + "." * 19 + "#", "#" + "." * 19 + "#", "#" + "." * 19 + "#", "#" * 21])
CANNON = {"name": "cannon", "dice": "2R", "kind": "ranged", "effects": ["ARTILLERY"]}
GUN = dict(MARINE, name="Gun", weapons=[CANNON])
SHOOTER = dict(STEALER, weapons=[{"name": "rifle", "dice": "2W+1R", "kind": "ranged", "effects": []}])


def _game(crew_at, gun_at=(14, 2), crew=(1,), **kw) -> GameState:
    gun = dict(at("Gun", *gun_at), crew=list(crew))
    return state(
        LONG, [at("Stealer", 2, 2)], [gun, at("Marine", *crew_at)],
        profiles=[GUN, MARINE, SHOOTER], first=0, **kw,
    ).apply(("activate", 0))  # fmt: skip


def _killed(s: GameState, target: int) -> float:
    key = s.apply(("shoot", target, "rifle")).pending[4]
    return sum(p for (ds, *_), p in cached_law(key) if ds[0] == CONDITIONS.index("killed"))


def _by_hand(cover: str, range_: int) -> float:
    sc = {"system": "crusade", "action": "shoot", "attacker": _bare(SHOOTER), "defender": _bare(MARINE),
          "range": range_, "cover": cover}  # fmt: skip
    return calculate(sc).extra["end_state"]["killed"]


def test_crew_within_an_inch_of_its_gun_has_front_cover():
    # "Provides front cover for 2 crew": the marine beside its gun is shot as in front cover
    s = _game((13, 2))
    assert _killed(s, 2) == pytest.approx(_by_hand("front", 11), abs=1e-12)
    assert _by_hand("front", 11) < _by_hand("none", 11)


def test_crew_away_from_its_gun_or_not_named_has_none():
    far = _game((11, 2))  # 3 squares from the gun
    assert _killed(far, 2) == pytest.approx(_by_hand("none", 9), abs=1e-12)
    unnamed = _game((13, 2), crew=())  # beside the gun, but not its crew
    assert _killed(unnamed, 2) == pytest.approx(_by_hand("none", 11), abs=1e-12)


def test_crew_loses_the_cover_once_the_gun_is_down():
    # only while the artillery stands
    s = _game((13, 2))
    down = s.with_token(1, cond=KO)
    assert _killed(down, 2) == pytest.approx(_by_hand("none", 11), abs=1e-12)


@pytest.mark.parametrize(
    ("crew", "gun", "field"),
    [
        ((1, 2, 3), "Gun", "forces.1.models.0.crew"),  # more than 2 crew
        ((0,), "Gun", "forces.1.models.0.crew"),  # itself
        ((7,), "Gun", "forces.1.models.0.crew"),  # no such model
        ((1,), "Marine", "forces.1.models.0.crew"),  # no ARTILLERY weapon
    ],
)
def test_bad_crews_are_refused_naming_the_field(crew, gun, field):
    models = [dict(at(gun, 14, 2), crew=list(crew))] + [at("Marine", 13, y) for y in (2, 1, 3)]
    with pytest.raises(ScenarioError) as err:
        state(LONG, [at("Stealer", 2, 2)], models, profiles=[GUN, MARINE, SHOOTER])
    assert err.value.field == field
