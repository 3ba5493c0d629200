"""What a replayed game shows of its battle rules, worked out once for the pictures (:mod:`.draw`)
and the page (:mod:`grimdice.web.crusade_frames`):

- X covered sections: the squares of the sections still covered (their models are not on the board
  until the section is uncovered, :mod:`.explore`, so they are not drawn);
- X reinforcements: each group's key points, and whether the group has models still to come
  (:mod:`.reinforce`); the models that entered in a step;
- IX VOLLEY FIRE: an arrow from every firer to every target of a volley (:mod:`.volley`);
- VIII ARTILLERY: each crew model beside its gun, and whether it has the gun's front cover
  (:mod:`.crew`, reading ``artillery_crew``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grimdice.systems.crusade.game import arrive, volley
from grimdice.systems.crusade.game.crew import in_cover
from grimdice.systems.crusade.game.state import GameState

Square = tuple[int, int]


def covered_squares(s: GameState) -> list[Square]:
    """The squares of the sections still covered in ``s``, sorted."""
    return sorted((int(q[0]), int(q[1])) for c in s.covered for q in s.setup.sections[c])


def key_points(s: GameState) -> list[tuple[int, Square, bool]]:
    """Each reinforcement group's key points: (force, square, models of the group still to come)."""
    out = []
    for g, grp in enumerate(s.setup.groups):
        coming = arrive.entered(s, g) < len(grp.models)
        out += [(grp.side, (int(p[0]), int(p[1])), coming) for p in grp.points]
    return out


def arrived(before: GameState, after: GameState) -> list[int]:
    """The models (token numbers) that came onto the board in the step from ``before`` to
    ``after``: reinforcements and the models of a section uncovered."""
    new = range(len(before.tokens), len(after.tokens))
    if before.covered == after.covered and not any(
        arrive.entered(before, g) != arrive.entered(after, g) for g in range(len(after.setup.groups))
    ):
        return []  # appended otherwise (a revealed blip's models, a Warp Spawn, a ghost)
    return list(new)


def crew_marks(s: GameState) -> list[tuple[int, int, bool]]:
    """Each crew model on the board with its gun: (crew token, gun token, in the gun's cover: within
    1" of the gun while it stands)."""
    out = []
    for crewman, gun in s.setup.crews:
        c, g = s.tokens[crewman], s.tokens[gun]
        if c.alive and c.on_board and g.alive:
            out.append((crewman, gun, in_cover(s, crewman, gun)))
    return out


def volley_arrows(s: GameState, a: Sequence[Any]) -> list[tuple[int, Square, Square]]:
    """A volley declared in ``s`` (``["volley", weapon, n, *targets, *others]``): (force, from,
    to) from every firer (the declaring model first) to every target; none for another action."""
    if not a or a[0] != "volley":
        return []
    _, targets, others = volley.parts(tuple(a))
    side = s.tokens[s.active].side
    return [(side, _square(s, k), _square(s, j)) for k in (s.active, *others) for j in targets]


def volleys_by_round(states: Sequence[GameState], actions: Sequence[Any]) -> dict[int, list[Any]]:
    """The arrows of the volleys declared in each round (:func:`volley_arrows`)."""
    out: dict[int, list[Any]] = {}
    for s, a in zip(states, actions, strict=False):
        arrows = volley_arrows(s, a)
        if arrows:
            out.setdefault(s.round, []).extend(arrows)
    return out


def _square(s: GameState, k: int) -> Square:
    sq = s.tokens[k].sq
    return (int(sq[0]), int(sq[1]))


__all__ = ["arrived", "covered_squares", "crew_marks", "key_points", "volley_arrows", "volleys_by_round"]
