"""What a replayed game shows of the battle rules (:mod:`grimdice.systems.crusade.game.marks`, drawn
by ``grimdice replay --png`` and the page): covered sections and the models they hide, key points
and the models that arrive on them, a volley's arrows, crews beside their gun."""

from __future__ import annotations

from pathlib import Path

import pytest

from grimdice.systems.crusade.damage import KO
from grimdice.systems.crusade.game import marks
from tests.crusade_game import test_crew, test_explore, test_reinforce, test_volley


def test_a_covered_sections_models_are_hidden_until_it_is_uncovered():
    s = test_explore._state([(3, 3), (9, 2), (10, 3)], marines=((1, 1),))
    room = [(x, y) for x in range(7, 12) for y in range(1, 4)]
    assert marks.covered_squares(s) == sorted(room)
    assert [t.sq for t in s.tokens] == [(1, 1), (3, 3)]  # the room's two stealers are not drawn
    s = s.apply(("activate", 0))
    for q in ((2, 1), (3, 1), (4, 1), (5, 1)):
        s = s.apply(("move", *q))
    s = s.apply(("extra",)).apply(("move", 5, 2)).apply(("open", 6, 2))
    before = s
    assert marks.covered_squares(before) == sorted(room)
    after = before.apply(("move", 4, 2))  # it sees into the room through the door
    assert marks.covered_squares(after) == []
    assert marks.arrived(before, after) == [2, 3]
    assert [after.tokens[k].sq for k in (2, 3)] == [(9, 2), (10, 3)]
    assert marks.arrived(after, after.apply(("move", 3, 2))) == []


def test_key_points_are_marked_and_the_models_arriving_on_them_found():
    group = {"force": 1, "turn": 2, "points": [[14, 1], [14, 5]], "models": ["Stealer", "Stealer"]}
    s = test_reinforce._state([group])
    assert marks.key_points(s) == [(1, (14, 1), True), (1, (14, 5), True)]
    s = test_reinforce._end_turn(test_reinforce._end_turn(s))  # the stealers' turn 1 ends
    seen = []
    while len(s.tokens) == 2:  # the marines' turn 2, to the start of the stealers'
        nxt = s.apply(next((a for a in s.legal_actions() if a[0] == "activate"), ("end",)))
        seen.append(marks.arrived(s, nxt))
        s = nxt
    assert seen[:-1] == [[]] * (len(seen) - 1) and seen[-1] == [2, 3]
    assert [s.tokens[k].sq for k in (2, 3)] == [(14, 1), (14, 5)]
    assert marks.key_points(s) == [(1, (14, 1), False), (1, (14, 5), False)]  # the group has all come


def test_a_volley_has_an_arrow_from_every_firer_to_every_target():
    s = test_volley._game(test_volley.GUARDS, [(8, 3), (9, 4)])
    volley = next(a for a in s.legal_actions() if a[0] == "volley" and a[2] == 2)
    targets, firers = volley[3:5], (0, *volley[5:])
    assert len(firers) >= 2
    arrows = marks.volley_arrows(s, list(volley))  # as a log reads back
    assert sorted(arrows) == sorted((0, s.tokens[k].sq, s.tokens[j].sq) for k in firers for j in targets)
    assert marks.volley_arrows(s, ("end",)) == []


def test_a_crew_is_marked_in_its_guns_cover_only_within_an_inch_of_it_standing():
    assert marks.crew_marks(test_crew._game((13, 2))) == [(2, 1, True)]
    assert marks.crew_marks(test_crew._game((11, 2))) == [(2, 1, False)]
    assert marks.crew_marks(test_crew._game((13, 2)).with_token(1, cond=KO)) == [(2, 1, False)]
    assert marks.crew_marks(test_crew._game((13, 2), crew=())) == []


@pytest.mark.slow  # draws pictures with matplotlib
def test_the_round_pictures_are_drawn_with_the_marks(tmp_path: Path):
    from grimdice.systems.crusade.game.draw import draw_rounds

    group = {"force": 1, "turn": 1, "points": [[14, 1]], "models": ["Stealer"]}
    states = [test_reinforce._state([group])]
    while not states[-1].ended and states[-1].round < 2:
        acts = states[-1].legal_actions()
        states.append(states[-1].apply(next((a for a in acts if a[0] == "activate"), ("end",))))
    files = draw_rounds(states, tmp_path, [("end",)] * (len(states) - 1))
    assert [f.name for f in files] == ["round-1.png", "round-2.png"]
    assert all(f.stat().st_size > 0 for f in files)
