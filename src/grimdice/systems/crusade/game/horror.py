"""IX HORROR in the grid game: a killed horror lies face down and rolls on its next turn.

IX: "HORROR: Once killed, place the model face down and on it's next turn, roll a red die: 0= Dead-
remove from play. 1= Languishing: roll again next turn. 2= Makes a last attack, then dies. 3= Makes
a last attack and is alive again, with 1 hit."

Reading ``horror_rise``: a face-down horror keeps its square but does not stand (a force with only
face-down models is beaten); its roll is a chance node at the start of its player's turn; a "last
attack" is an activation with no move whose only actions are attacks (then ``end``); with a 2 it is
killed for good when that activation ends.
"""

from __future__ import annotations

from functools import lru_cache

from grimdice.systems.crusade.damage import KILLED, NONE
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, Token, has_code

NORMAL, FACE_DOWN, GONE = 0, 1, 2
#: a red die: faces 0, 0, 0, 1, 2, 3
FACES = ((0, 0.5), (1, 1 / 6), (2, 1 / 6), (3, 1 / 6))


def is_horror(s: GameState, t: Token) -> bool:
    return not t.blip and has_code(s.setup.profiles[t.profile].abilities, "HORROR")


@lru_cache(maxsize=64)
def in_play(setup: Setup) -> bool:
    """Whether a profile of the game has HORROR."""
    return any(has_code(p.abilities, "HORROR") for p in setup.profiles)


def lay_down(s: GameState) -> GameState:
    """Killed horrors are placed face down."""
    if not in_play(s.setup):  # no HORROR model in the game: no look at the models
        return s
    for i, t in enumerate(s.tokens):
        if t.cond == KILLED and t.horror == NORMAL and is_horror(s, t):
            s = s.with_token(i, horror=FACE_DOWN)
    return s


def waiting(s: GameState) -> list[int]:
    """The player's face-down horrors, which roll at the start of its turn."""
    return [i for i, t in enumerate(s.tokens) if t.side == s.player and t.horror == FACE_DOWN]


def rise(s: GameState, i: int, face: int) -> GameState:
    """The red die's result for face-down horror ``i``."""
    if face == 0:
        return s.with_token(i, horror=GONE)
    if face == 1:
        return s
    # 2: a last attack, then dead for good; 3: a last attack and alive again with 1 hit
    return s.with_token(i, cond=NONE, hits=1, last=face, done=False, horror=GONE if face == 2 else NORMAL)


def after_last(s: GameState, i: int) -> GameState:
    """The end of a last attack's activation."""
    t = s.tokens[i]
    if t.last == 2:
        return s.with_token(i, cond=KILLED, last=0)
    return s.with_token(i, last=0) if t.last else s


__all__ = ["FACES", "FACE_DOWN", "GONE", "after_last", "is_horror", "lay_down", "rise", "waiting"]
