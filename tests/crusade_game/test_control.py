"""IX CONTROL in the game, from the text's sentence: "Instead of killing a target, may take control
of them for 1 turn: move and attack as normal." """

from __future__ import annotations

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import KILLED, NONE
from grimdice.systems.crusade.game.combat import cached_law
from tests.crusade_game.helpers import MARINE, STEALER, at, state

LANE = """
##########
#........#
#........#
##########
"""

MASTER = dict(MARINE, name="Master", abilities=["CONTROL"])


def _shot(abilities=("CONTROL",)):
    s = state(
        LANE,
        [at("Master", 1, 1)],
        [at("Stealer", 5, 1), at("Stealer", 8, 2)],
        profiles=[dict(MASTER, abilities=list(abilities)), STEALER],
    )
    return s.apply(("activate", 0)).apply(("shoot", 1, "bolter"))


def _kill(s):
    return next(k for k, ((ds, *_), _) in enumerate(cached_law(s.pending[4])) if ds[0] == KILLED)


def test_the_choice_comes_with_every_kill_and_only_then():
    s = _shot()
    law = cached_law(s.pending[4])
    master = {k: v for k, v in MASTER.items() if k != "move"}
    foe = {k: v for k, v in STEALER.items() if k != "move"}
    res = calculate(
        {"system": "crusade", "range": 4, "attacker": master, "defender": foe, "weapons": ["bolter"]}
    )
    offered = sum(p for k, (_, p) in enumerate(law) if s.apply(("attack", k)).control)
    assert offered == pytest.approx(res.extra["end_state"]["killed"])
    after = s.apply(("attack", _kill(s)))
    assert after.current_player() == 0 and after.legal_actions() == [("pass",), ("control", 1)]
    assert not _shot(abilities=()).apply(("attack", _kill(s))).control  # no CONTROL: a kill


def test_passing_kills():
    s = _shot()
    dead = s.apply(("attack", _kill(s))).apply(("pass",))
    assert dead.tokens[1].cond == KILLED and not dead.control


def test_control_for_the_controller_s_next_turn():
    s = _shot()
    s = s.apply(("attack", _kill(s))).apply(("control", 1))
    t = s.tokens[1]
    assert t.cond == NONE and t.side == 0 and t.owner == 1  # not killed: it fights for the master
    assert ("activate", 1) not in s.legal_actions()  # not in the rest of this turn
    s = s.apply(("end",))
    assert s.player == 1 and ("activate", 1) not in s.legal_actions()  # nor by its owner
    s = s.apply(("activate", 2)).apply(("end",))
    assert s.player == 0 and ("activate", 1) in s.legal_actions()  # the controller's next turn
    mine = s.apply(("activate", 1))
    assert ("melee", 2) in mine.legal_actions() or any(a[0] == "move" for a in mine.legal_actions())
    s = s.apply(("activate", 0)).apply(("end",)).apply(("activate", 1)).apply(("end",))
    assert s.player == 1 and s.tokens[1].side == 1 and s.tokens[1].owner == -1  # its owner's again
    assert ("activate", 1) in s.legal_actions()


def test_the_kill_is_not_counted_when_control_is_taken():
    from grimdice.systems.crusade.game.record import Book

    s = _shot()
    book = Book(s)
    killed = s.apply(("attack", _kill(s)))
    book.step(s, killed)
    assert book.kills[0] == 1
    book.step(killed, killed.apply(("control", 1)))
    assert book.kills[0] == 0
