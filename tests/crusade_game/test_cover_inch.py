"""II COVER: "If your target is in cover and is not less than an inch away, add 1 to their armor
value." A target touching the firer (a square or cell beside) is less than an inch away.

The bolter's 2W+1R (white 0,0,0,0,1,2; red 0,0,0,1,2,3) at a Stealer (armour 1, one hit) kills it
when the roll beats the armour by 2 or more (one over is a graze). Of the 216 rolls, 77 total 3 or
more (no cover: armour 1) and 38 total 4 or more (cover: armour 2).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from grimdice.systems.crusade.damage import KILLED
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.situation import range_key, shot
from tests.crusade_game.helpers import at, state
from tests.crusade_game.table_helpers import active, put, rect, table, table_state

OPEN = Fraction(77, 216)  # 2W+1R totals 3 or more
COVERED = Fraction(38, 216)  # 2W+1R totals 4 or more

HALL = """
##############
#............#
#............#
#............#
##############
"""


def killed(s, a: int = 0, t: int = 1) -> float:
    """The chance token ``a``'s bolter kills token ``t``, as the game rolls it."""
    return sum(p for (ds, *_), p in cached_law(shot(s, a, t, "bolter")) if ds[0] == KILLED)


@pytest.mark.parametrize(
    ("where", "chance"),
    [((2, 1), OPEN), ((2, 2), OPEN), ((3, 1), COVERED), ((3, 3), COVERED)],
    ids=["beside", "diagonal", "two-away", "two-diagonal"],
)
def test_grid_target_in_the_dark_beside_the_firer_gets_no_cover(where, chance):
    # reading grid_cover: darkness is full cover; a target on a square beside the firer's touches
    # it (less than an inch away): no +1; two squares away there is an inch between them
    s = state(HALL, [at("Marine", 1, 1)], [at("Stealer", *where)], grid={"dark": [list(where)]})
    assert s.setup.board.cover(s.tokens[0].sq, s.tokens[1].sq, {}) == "darkness"
    assert killed(s) == pytest.approx(float(chance), abs=1e-12)


def hab() -> dict:
    return {
        "name": "hab",
        "shape": rect(3, 2, 10, 6),
        "height": 4,
        "sectors": [{"name": "room", "shape": rect(3, 2, 10, 6)}],
    }


@pytest.mark.parametrize(
    ("where", "chance"),
    [((5, 3), OPEN), ((5, 4), OPEN), ((6, 3), COVERED), ((6, 5), COVERED)],
    ids=["beside", "diagonal", "two-away", "two-across"],
)
def test_table_target_in_a_building_touching_the_firer_gets_no_cover(where, chance):
    # VI: models inside buildings are "treated as in cover"; reading table_range: a target on a
    # cell beside the firer's (within 1") touches it: no +1; 2" away (or sqrt 5") it has the +1
    s = table_state(table(buildings=[hab()]), [put("Marine", 4, 3)], [put("Stealer", *where)])
    s = active(s)
    assert s.setup.board.cover(s.tokens[0].sq, s.tokens[1].sq, {}) == "full"
    assert ("shoot", 1, "bolter") in s.legal_actions()
    assert killed(s) == pytest.approx(float(chance), abs=1e-12)


def test_range_penalty_stays_every_full_foot():
    # II RANGE: "Subtract 1 from the roll for every foot of distance ... (so shots under 12" are at
    # full strength)": the calculator's range keeps the full feet; only touching models go to 0
    assert [range_key(n) // 12 for n in (0, 1, 2, 11, 12, 13, 23, 24, 25)] == [0, 0, 0, 0, 1, 1, 1, 2, 2]
    assert [range_key(n) >= 1 for n in (0, 1, 2, 3, 12, 13)] == [False, False, True, True, True, True]
