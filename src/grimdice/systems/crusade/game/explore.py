"""X sections covered up for exploration (rules-crusade X: "Set the board up before playing- you may
cover up sections if you want (for exploration purposes)").

Reading ``covered_sections`` (ours): a grid scenario's ``board.covered`` lists rectangles of
squares (``[[x0, y0], [x1, y1]]``, corners included) and ``board.explorer`` the exploring force.
What a section covers is what stands in it: the models and blips the scenario puts there for the
other force are not on the board (they neither act nor count for their force) until the section is
uncovered; then each is placed on its square, or when a model stands there on the free square
nearest it (as a revealed blip's models, reading ``blip_placement``), a blip still a blip. The
squares themselves are known to both players (the board is public) and may be entered. A section
is uncovered when a model of the exploring force (not a blip) sees one of its open squares or
stands in or beside it: checked at the start of the game and after each step or knockback of a model
(a door opened is looked through at the model's next step; a model's death that clears a line is
looked through at the next step).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState, token_of


def sections(sc: Any, board: Any, pieces: Any) -> tuple[tuple[frozenset[Any], ...], tuple[int, ...]]:
    """The scenario's covered sections (their squares) and the pieces they hold (indices of the
    other force's pieces inside), checked: on the board, the exploring force not inside."""
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
    held = []
    for k, pc in enumerate(pieces):
        if any(pc.sq in sec for sec in out):
            if pc.side == spec.explorer:
                raise ScenarioError(
                    "board.explorer", f"the exploring force stands in a covered section at {list(pc.sq)}"
                )
            held.append(k)
    if not any(pc.side != spec.explorer for k, pc in enumerate(pieces) if k not in held):
        raise ScenarioError(
            "board.covered", "the other force needs a model or blip outside the covered sections"
        )
    return tuple(out), tuple(held)


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
        squares = [q for q in setup.sections[c] if not setup.grid.is_wall((q[0], q[1]))]
        if any(
            board.range(p, q) <= 1 or board.sight(p, q, doors, occupied) for p in lookers for q in squares
        ):
            s = _place(altered(s, covered=tuple(k for k in s.covered if k != c)), c)
    return s


def _place(s: GameState, c: int) -> GameState:
    """Section ``c``'s pieces, in the scenario's order, each on its square or the nearest free one."""
    setup = s.setup
    for k in setup.unplaced:
        pc = setup.pieces[k]
        if pc.sq not in setup.sections[c]:
            continue
        sq = pc.sq
        taken = s.occupied()
        if sq in taken:
            armour = setup.blip_armour(pc.blip) if pc.blip else setup.profiles[pc.profile].armour
            free = [p for p in setup.board.free_near(sq, armour, s.doors()) if p not in taken]
            if not free:
                continue  # a board with no room left loses the model (not met on sensible boards)
            sq = free[0]
        s = altered(s, tokens=(*s.tokens, altered(token_of(setup, pc), sq=sq)))
    return s


def placed(before: GameState, after: GameState) -> list[int]:
    """The pieces (indices in the scenario's order) placed in a step, in the order appended."""
    gone = [c for c in before.covered if c not in after.covered]
    return [
        k for c in gone for k in after.setup.unplaced if after.setup.pieces[k].sq in after.setup.sections[c]
    ]


def uncovered_at_start(s: GameState) -> list[int]:
    """The pieces placed at the start of the game (their sections seen from the deployment)."""
    setup = s.setup
    gone = [c for c in range(len(setup.sections)) if c not in s.covered]
    return [k for c in gone for k in setup.unplaced if setup.pieces[k].sq in setup.sections[c]]


def unplaced(s: GameState) -> list[int]:
    """The pieces still in covered sections."""
    return [k for c in s.covered for k in s.setup.unplaced if s.setup.pieces[k].sq in s.setup.sections[c]]


__all__ = ["placed", "sections", "uncover", "uncovered_at_start", "unplaced"]
