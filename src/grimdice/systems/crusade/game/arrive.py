"""X reinforcements arriving in a game (the scenario's groups, :mod:`.reinforce`; reading
``reinforcements``): at the start of a force's turn its groups due without a roll enter, and
those due with a roll are each a chance node (``("reinforce", group, side, p)``, outcomes
``("reinforce", 1 | 0)``); a group called with models left waiting (every point blocked) enters
again at the start of each turn of its force. ``GameState.reinforced`` holds, per group, -1 before
it is called, else how many of its models have entered."""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import READY, GameState, Token, shamblers


def entered(s: GameState, g: int) -> int:
    """How many models of group ``g`` have entered, or -1 before it is called."""
    return s.reinforced[g] if s.reinforced else -1


def at_turn_start(s: GameState) -> tuple[GameState, tuple[tuple[Any, ...], ...]]:
    """The player's groups due this turn: those called or without a roll enter; the others' rolls
    (chance events, in the groups' order)."""
    rolls: list[tuple[Any, ...]] = []
    for g, grp in enumerate(s.setup.groups):
        if grp.side != s.player or s.round < grp.turn or entered(s, g) >= len(grp.models):
            continue
        if entered(s, g) >= 0 or grp.chance >= 1:
            s = enter(s, g)
        else:
            rolls.append(("reinforce", g, grp.side, grp.chance))
    return s, tuple(rolls)


def shamble_coming(s: GameState, rolls: tuple[tuple[Any, ...], ...]) -> bool:
    """Whether a group rolled for (``rolls``) holds an IX SHAMBLE model: the turn's SHAMBLE roll
    ("once per turn for ALL the models' move value") then follows the groups' rolls, so that the
    models that come have a move."""
    slow = shamblers(s.setup)
    return bool(slow) and any(k in slow for r in rolls for k in s.setup.groups[int(r[1])].models)


def enter(s: GameState, g: int) -> GameState:
    """Group ``g``'s models not yet entered, in order, each on the first of its points that is free
    and that it may stand on; the others wait (a blocked point is passed over)."""
    grp, setup = s.setup.groups[g], s.setup
    done = max(0, entered(s, g))
    taken = s.occupied()
    tokens = list(s.tokens)
    for k in grp.models[done:]:
        p = setup.profiles[k]
        free = [q for q in grp.points if q not in taken and setup.board.enterable(q, p.armour)]
        if not free:
            break
        tokens.append(Token(grp.side, k, free[0], hits=p.hits, arms=tuple(READY for _ in p.weapons)))
        taken.add(free[0])
        done += 1
    counts = list(s.reinforced or (-1,) * len(setup.groups))
    counts[g] = done
    return altered(s, tokens=tuple(tokens), reinforced=tuple(counts))


def resolve(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    """A group's roll: made, it enters."""
    g = int(s.pending[1])
    s = altered(s, pending=())
    return enter(s, g) if outcome[1] else s


def names(before: GameState, after: GameState) -> list[str]:
    """The origins (``reinforcements.G.models.M``) of the models that entered in a step, in the
    order they were appended."""
    out: list[str] = []
    for g in range(len(after.setup.groups)):
        a, b = max(0, entered(before, g)), max(0, entered(after, g))
        out += [f"reinforcements.{g}.models.{m}" for m in range(a, b)]
    return out


def waiting(s: GameState) -> list[tuple[int, str, int]]:
    """The models that have not entered: (force, origin, profile)."""
    out = []
    for g, grp in enumerate(s.setup.groups):
        for m in range(max(0, entered(s, g)), len(grp.models)):
            out.append((grp.side, f"reinforcements.{g}.models.{m}", grp.models[m]))
    return out


__all__ = ["at_turn_start", "enter", "entered", "names", "resolve", "shamble_coming", "waiting"]
