"""X sections covered up for exploration (rules-crusade X: "Set the board up before playing- you may
cover up sections if you want (for exploration purposes)").

Reading ``covered_sections`` (ours): a grid scenario's ``board.covered`` lists rectangles of
squares (``[[x0, y0], [x1, y1]]``, corners included) and ``board.explorer`` the exploring force.
What a section covers is what stands in it: the models and blips the scenario puts there for the
other force are not on the board (they neither act nor count for their force) until the section is
uncovered; then each is placed on its square, or when a model stands there on the free square
nearest it (as a revealed blip's models, reading ``blip_placement``), a blip still a blip (one
with no free square left stays off the board). The
squares themselves are known to both players (the board is public) and may be entered. A section
is uncovered when a model of the exploring force (not a blip) sees one of its open squares or
stands in or beside it (X's adjacency, as for melee and blips: a diagonal pinched between two walls
is not beside): checked at the start of the game and after each step or knockback of a model
(a door opened is looked through at the model's next step; a model's death that clears a line is
looked through at the next step).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, token_of


def sections(
    sc: Any, board: Any, pieces: Any
) -> tuple[tuple[frozenset[Any], ...], tuple[tuple[int, ...], ...]]:
    """The scenario's covered sections (their squares) and the pieces each holds (indices of the
    other force's pieces inside, in order), checked: on the board, the exploring force not inside."""
    spec = sc.board
    if not getattr(spec, "covered", None):
        return (), ()
    grid = board.grid
    out: list[frozenset[Any]] = []
    for n, (a, b) in enumerate(spec.covered):
        x0, x1 = sorted((a[0], b[0]))
        y0, y1 = sorted((a[1], b[1]))
        if not (grid.inside((x0, y0)) and grid.inside((x1, y1))):
            raise ScenarioError(f"board.covered.{n}", f"corners {list(a)}, {list(b)} are off the board")
        squares = frozenset((x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))
        if any(squares & sec for sec in out):
            raise ScenarioError(f"board.covered.{n}", "covered sections may not overlap")
        out.append(squares)
    held: list[list[int]] = [[] for _ in out]
    for k, pc in enumerate(pieces):
        c = next((c for c, sec in enumerate(out) if pc.sq in sec), -1)
        if c >= 0:
            if pc.side == spec.explorer:
                raise ScenarioError(
                    "board.explorer", f"the exploring force stands in a covered section at {list(pc.sq)}"
                )
            held[c].append(k)
    inside = {k for ks in held for k in ks}
    if not any(pc.side != spec.explorer for k, pc in enumerate(pieces) if k not in inside):
        raise ScenarioError(
            "board.covered", "the other force needs a model or blip outside the covered sections"
        )
    return tuple(out), tuple(tuple(ks) for ks in held)


@lru_cache(maxsize=256)
def _open_squares(setup: Setup, c: int) -> tuple[Pos, ...]:
    """Section ``c``'s squares that are not walls (those a model may see or stand beside)."""
    return tuple(q for q in setup.sections[c] if not setup.grid.is_wall((q[0], q[1])))


def uncover(s: GameState, who: Iterable[int] | None = None) -> GameState:
    """Uncover the sections that a model of the exploring force (``who``, or all of them) sees into
    or stands in or beside, and place what they hold."""
    if not s.covered:
        return s
    setup = s.setup
    board, doors = setup.board, s.doors()
    explorer = setup.scenario.board.explorer  # type: ignore[union-attr]
    lookers = [
        t.sq
        for k, t in enumerate(s.tokens)
        if (who is None or k in who) and t.side == explorer and t.alive and not t.blip
    ]
    if not lookers:
        return s
    occupied = s.occupied()
    for c in s.covered:
        squares = _open_squares(setup, c)
        if any(
            p == q or board.adjacent(p, q, doors) or board.sight(p, q, doors, occupied)
            for p in lookers
            for q in squares
        ):
            s = _place(altered(s, covered=tuple(k for k in s.covered if k != c)), c)
    return s


def _place(s: GameState, c: int) -> GameState:
    """Section ``c``'s pieces, in the scenario's order, each on its square or the nearest free one."""
    from grimdice.systems.crusade.game.moves import _free_squares

    setup = s.setup
    for k in setup.held[c]:
        pc = setup.pieces[k]
        sq = pc.sq
        if sq in s.occupied():
            armour = setup.blip_armour(pc.blip) if pc.blip else setup.profiles[pc.profile].armour
            free = _free_squares(s, sq, armour)
            if not free:
                continue  # a board with no room left loses the model (not met on sensible boards)
            sq = free[0]
        s = altered(s, tokens=(*s.tokens, altered(token_of(setup, pc), sq=sq)))
    return s


def placed(before: GameState, after: GameState) -> list[int]:
    """The pieces (indices in the scenario's order) placed in a step, in the order appended: those
    of the sections uncovered whose models follow ``before``'s tokens (one for which no square was
    free is passed over)."""
    setup = after.setup
    new = iter(after.tokens[len(before.tokens) :])
    token = next(new, None)
    out = []
    for c in before.covered:
        if c in after.covered:
            continue
        for k in setup.held[c]:
            pc = setup.pieces[k]
            if token is not None and _is(token, pc):
                out.append(k)
                token = next(new, None)
    return out


def _is(token: Any, pc: Any) -> bool:
    """Whether ``token`` is of piece ``pc`` (its force, profile and blip)."""
    return bool((token.side, token.profile, token.blip) == (pc.side, pc.profile, pc.blip))


def uncovered_at_start(s: GameState) -> list[int]:
    """The pieces placed at the start of the game (their sections seen from the deployment)."""
    return [k for c in range(len(s.setup.sections)) if c not in s.covered for k in s.setup.held[c]]


def unplaced(s: GameState) -> list[int]:
    """The pieces still in covered sections."""
    return [k for c in s.covered for k in s.setup.held[c]]


__all__ = ["placed", "sections", "uncover", "uncovered_at_start", "unplaced"]
