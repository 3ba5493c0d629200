"""A large unit's candidate moves on a hand-built table: its block moves whole, by translation, so a
wide block between two rocks needs more directions and lengths than the 8 compass points at full,
half or quarter length to find a lane between them; every move offered stays legal (whole bases,
whole path, "Units may not move into or through impassable terrain")."""

from __future__ import annotations

from grimdice.systems.onepage.game.invariants import violations
from tests.onepage_game.test_table_legality import rect, state_of

BOYZ = {"name": "Boyz", "quality": 5, "equipment": ["Pistol"], "cost": 10, "size": 20}
POST = {"name": "Post", "quality": 4, "equipment": ["Rifle"], "cost": 10}
# a rock ahead and to the left of the mob, another to its right; the lane between them runs north-east
ROCKS = (
    rect("left", 14.0, 12.0, 37.0, 22.0, "impassable"),
    rect("right", 48.0, 9.0, 60.0, 22.0, "impassable"),
)


def test_a_large_unit_between_two_rocks_advances_through_the_lane_between_them() -> None:
    s = state_of([BOYZ], [POST], [(36.0, 8.0), (36.0, 40.0)], ROCKS)
    runs = [a for a in s.legal_actions() if a[0] == "run"]
    # the 8 compass points and the line to the post reach 3" north at most: the rocks stop the block
    best = max(runs, key=lambda a: a[3])
    assert best[3] > 4.0
    assert best[2] > 0.0  # up the lane, to the north-east
    for a in runs:
        assert violations(s.apply(a)) == []


def test_every_move_of_a_large_unit_keeps_within_its_allowance() -> None:
    s = state_of([BOYZ], [POST], [(36.0, 8.0), (36.0, 40.0)], ROCKS)
    for a in s.legal_actions():
        if a[0] in ("walk", "run"):
            assert (a[2] ** 2 + a[3] ** 2) ** 0.5 <= {"walk": 6.0, "run": 12.0}[a[0]] + 1e-9
