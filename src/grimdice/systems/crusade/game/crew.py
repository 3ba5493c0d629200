"""VIII ARTILLERY's crew in a game (rules-crusade VIII ARTILLERY: "Provides front cover for 2 crew").

A scenario names the crew of a model carrying an ARTILLERY weapon, ``crew: [k, ...]`` on that
model: at most 2 other models of the same force (their indices in its ``models``); neither the
piece nor its crew may stand in an X covered section. Reading
``artillery_crew`` (ours): a crew model within 1" of its artillery model (squares on a grid, X;
whole inches between the feet on a table) while that model stands (not knocked out or killed)
has front cover (II) against every shot, from any side: the piece is its cover, as a wall it
crouches behind; a better cover it already has (darkness, a building) is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.game.state import GameState, Token, has_code

MAX_CREW = 2  # VIII ARTILLERY: "front cover for 2 crew"
REACH = 1  # ours: within 1" of the piece


def crews(sc: Any, pieces: Sequence[Any], held: Sequence[int] = ()) -> tuple[tuple[int, int], ...]:
    """The scenario's crews as (crew token, artillery token) pairs, checked: ``crew`` only on a
    model with an ARTILLERY weapon, at most 2 other models of its force, each crewing one piece,
    neither of them in an X covered section (``held``: the pieces there, left out of the starting
    tokens, so a token's index is its piece's less the held pieces before it)."""
    index: dict[tuple[int, int], int] = {}
    count = [0, 0]
    for n, pc in enumerate(pieces):
        if not pc.blip:
            index[(pc.side, count[pc.side])] = n
            count[pc.side] += 1
    token = {n: n - sum(1 for h in held if h < n) for n in range(len(pieces)) if n not in held}
    out: list[tuple[int, int]] = []
    taken: set[int] = set()
    for f, force in enumerate(sc.forces):
        for j, m in enumerate(force.models):
            if not m.crew:
                continue
            where = f"forces.{f}.models.{j}.crew"
            profile = next(p for p in sc.profiles if p.name == m.profile)
            if not any(has_code(w.effects, "ARTILLERY") for w in profile.weapons):
                raise ScenarioError(where, "only a model with an ARTILLERY weapon has a crew")
            if len(m.crew) > MAX_CREW:
                raise ScenarioError(where, f"at most {MAX_CREW} crew (VIII ARTILLERY), got {len(m.crew)}")
            for k in m.crew:
                if not 0 <= k < len(force.models) or k == j:
                    allowed = f"0 to {len(force.models) - 1}, not {j}"
                    raise ScenarioError(where, f"crew {k} is not another model of this force ({allowed})")
                if k in taken:
                    raise ScenarioError(where, f"model {k} already crews another piece")
                taken.add(k)
                if index[(f, k)] not in token or index[(f, j)] not in token:
                    raise ScenarioError(where, "a gun and its crew may not stand in a covered section (X)")
                out.append((token[index[(f, k)]], token[index[(f, j)]]))
        taken.clear()
    return tuple(out)


def in_cover(s: GameState, crewman: int, gun: int) -> bool:
    """Whether crew token ``crewman`` has its gun's front cover: within 1" of token ``gun`` while
    the gun stands (reading ``artillery_crew``)."""
    piece = s.tokens[gun]
    return piece.standing and s.setup.board.range(s.tokens[crewman].sq, piece.sq) <= REACH


def cover(s: GameState, target: Token, found: str) -> str:
    """``found`` (the board's cover of ``target``), or front cover for a crew model within 1" of
    its artillery model standing (reading ``artillery_crew``)."""
    if found != "none" or not s.setup.crews:
        return found
    for crewman, gun in s.setup.crews:
        if s.tokens[crewman].sq == target.sq and s.tokens[crewman].alive and in_cover(s, crewman, gun):
            return "front"
    return found


__all__ = ["MAX_CREW", "cover", "crews", "in_cover"]
