"""IX MINDLESS: "You must always move towards and attack the nearest target, preferrably in melee."
Reading ``mindless``: each step brings the model nearer (by steps) the nearest enemy not hidden;
"move" names no kind of step, so air steps, climbs, drops and hangs are held to it as plain steps
are."""

from __future__ import annotations

from grimdice.systems.crusade.game.climb import CLIMBS
from grimdice.systems.crusade.game.moves import STEPS
from tests.crusade_game.helpers import MARINE, STEALER, at, state
from tests.crusade_game.table_helpers import active, put, table
from tests.crusade_game.test_table import GANGER, RUNNER, block, game

HALL = "############\n#..........#\n#..........#\n#..........#\n############"


def _moving(s) -> set[tuple]:
    return {a for a in s.legal_actions() if a[0] in STEPS or a[0] in CLIMBS}


def test_a_mindless_flier_flies_only_towards_the_nearest_enemy():
    # the bug at (4, 2) between two friends, its enemy at (9, 2): over the friend at (5, 2) it lands
    # nearer (6, 2); over the one at (3, 2) it would land farther (2, 2)
    bug = dict(STEALER, name="Bug", abilities=["MINDLESS", "FLY"])
    friends = [at("Marine", 3, 2), at("Marine", 5, 2)]
    s = state(HALL, [at("Bug", 4, 2), *friends], [at("Stealer", 9, 2)], profiles=[bug, MARINE, STEALER])
    s = s.apply(("activate", 0))
    assert _moving(s) == {("fly", 6, 2)}
    free = dict(bug, abilities=["FLY"])  # without MINDLESS both air steps are offered
    s = state(HALL, [at("Bug", 4, 2), *friends], [at("Stealer", 9, 2)], profiles=[free, MARINE, STEALER])
    assert {("fly", 6, 2), ("fly", 2, 2)} <= _moving(s.apply(("activate", 0)))


def test_a_mindless_climber_comes_down_only_on_the_enemy_s_side():
    # a CLIMB model on a 4" wall one cell thick (x = 4), its enemy to the east at (11, 4): its
    # climbs, falls and hangs down to the west (x = 3) take it away
    brute = dict(RUNNER, name="Brute", abilities=["CLIMB", "MINDLESS"])
    wall = table(terrain=[block(4, 2, 5, 6, 4)])
    s = active(game(wall, [put("Brute", 4, 4, 4)], [put("Ganger", 11, 4)], profiles=[GANGER, RUNNER, brute]))
    got = _moving(s)
    assert got == {(kind, 5, y, 0) for kind in ("climb", "fall", "hang") for y in (3, 4, 5)}
    free = dict(brute, abilities=["CLIMB"])
    s = active(game(wall, [put("Brute", 4, 4, 4)], [put("Ganger", 11, 4)], profiles=[GANGER, RUNNER, free]))
    assert ("climb", 3, 4, 0) in _moving(s) and ("hang", 3, 4, 0) in _moving(s)
