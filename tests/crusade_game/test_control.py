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


def _p_at_least(dice: list[tuple[int, ...]], want: int) -> float:
    from itertools import product

    rolls = list(product(*dice))
    return sum(sum(r) >= want for r in rolls) / len(rolls)


WHITE, RED = (0, 0, 0, 0, 1, 2), (0, 0, 0, 1, 2, 3)


def test_control_after_a_shot_at_several_models():
    # "Instead of killing a target, may take control of them": a LINE shot's first enemy killed
    from grimdice.systems.crusade.game.many import cached_joint

    las = {"name": "las", "dice": "2W+1R", "kind": "ranged", "effects": ["LINE", "S"]}
    s = state(
        LANE,
        [at("Master", 1, 1)],
        [at("Stealer", 4, 1), at("Stealer", 6, 1)],
        profiles=[dict(MASTER, weapons=[las]), STEALER],
    )
    s = s.apply(("activate", 0)).apply(("shoot", 1, "las"))
    assert s.pending[1] == "many" and s.pending[6] == (1, 2)
    law = cached_joint(s.pending[4])
    offered = sum(p for k, (_, p) in enumerate(law) if s.apply(("attack", k)).control)
    # both stealers armour 1, one hit, the same roll: 3 or more kills (2 damage or more)
    assert offered == pytest.approx(_p_at_least([WHITE, WHITE, RED], 3), abs=1e-12)
    k = next(k for k, (_, p) in enumerate(law) if s.apply(("attack", k)).control)
    after = s.apply(("attack", k))
    assert after.control[:2] == (0, 1) and after.legal_actions() == [("pass",), ("control", 1)]
    taken = after.apply(("control", 1))
    assert taken.tokens[1].side == 0 and taken.tokens[1].cond == NONE
    assert taken.tokens[2].cond == KILLED  # one choice an attack: the second is killed


def test_control_after_a_zoc_melee_in_the_enemy_s_turn():
    # V ZOC: "the enemy may choose to make a "free" melee attack on the passer"; IX CONTROL for
    # "1 turn": the controller's next turn, then the owner's again
    s = state(
        LANE,
        [at("Stealer", 1, 1), at("Stealer", 8, 1)],
        [at("Master", 4, 2), at("Master", 8, 2)],
        profiles=[STEALER, MASTER],
    )
    s = s.apply(("activate", 0)).apply(("move", 2, 1)).apply(("move", 3, 1)).apply(("move", 4, 1))
    assert s.legal_actions() == [("pass",), ("zoc", 2)]
    z = s.apply(("zoc", 2))
    k = next(k for k, ((ds, *_), _) in enumerate(cached_law(z.pending[4])) if ds[0] == KILLED)
    killed = z.apply(("attack", k))
    assert killed.current_player() == 1 and killed.legal_actions() == [("pass",), ("control", 0)]
    taken = killed.apply(("control", 0))
    t = taken.tokens[0]
    assert t.side == 1 and t.owner == 0 and t.cond == NONE and taken.active == -1  # its move ends
    assert taken.player == 0 and ("activate", 0) not in taken.legal_actions()
    s = taken.apply(("activate", 1)).apply(("end",))
    assert s.player == 1 and ("activate", 0) in s.legal_actions()  # the controller's next turn
    s = s.apply(("activate", 2)).apply(("end",)).apply(("activate", 3)).apply(("end",))
    s = s.apply(("activate", 0)).apply(("end",))  # the controlled model, last
    assert s.player == 0 and s.tokens[0].side == 0 and s.tokens[0].owner == -1  # its owner's again
