"""IX INFILTRATE's free move in a blip game.

IX: "INFILTRATE: You may start Hidden. During Blip games, you may take a free move at the start of
the game." Reading ``infiltrate``: a game is a blip game when a force has blips; then, when a model
has INFILTRATE, a round 0 comes after the roll-off and before the first round: each player in turn
(the first player first) may activate its INFILTRATE models (not those in a blip), each for its move
and no action; the other models wait. Round 1 then starts as usual.
"""

from __future__ import annotations

from grimdice.systems.crusade.game.state import GameState, Token, has_code


def _infiltrator(s: GameState, t: Token) -> bool:
    return not t.blip and has_code(s.setup.profiles[t.profile].abilities, "INFILTRATE")


def first_round(s: GameState) -> int:
    """0 in a blip game with an INFILTRATE model (its free move), else 1."""
    blips = any(t.blip for t in s.tokens)
    return 0 if blips and any(_infiltrator(s, t) for t in s.tokens) else 1


def may_activate(s: GameState, i: int) -> bool:
    """In round 0 only INFILTRATE models move."""
    return s.round != 0 or _infiltrator(s, s.tokens[i])


__all__ = ["first_round", "may_activate"]
