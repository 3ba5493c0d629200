"""V CHARGE's reach: the least move a charger spends to stand beside its target, by its own steps.

V CHARGE: "All troops may make an additional half move (round down to nearest inch) before
meleeing"; V MOVEMENT: "measure the vertical height and count it as part of your move", ladders,
jumps and climbs against the move. Reading ``charge_reach``: the way from a position to beside the
target is made of the steps the game offers the model there (:func:`.flight.steps_of`'s steps:
the board's moves, ladders, stairs and manholes, IX CLIMB's climbs, IX FLY and JUMP PACK's air
steps, IX LATCH ON and IX BIG's limits), each at its cost in the direction taken, through the
other models as they stand (the model's own place left free once it has stepped off it); a closed
door on the way is opened (its cost) and stepped through; a rolled step (a jump, a scrabble) counts
when the game offers it (a chance above nought), as the player may try it (a failed roll may leave
it short); a fall ends the move (reading ``fall_ends_move``), so it counts only as the last step,
onto a position beside the target, and only when it leaves the model unharmed (a harmed model's
turn's doings are over); a step costing the whole move (V tall ladders, X manholes, a scrabble, a
hang) only as the first step of a model that has not moved, onto a position beside the target.
The least cost is a best-first search
(A*, the cells across, less the one beside, as a lower bound: every step costs at least an
inch, a square, for each cell it crosses in x or in y), bounded by the move the charger has for it.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Sequence

from grimdice.systems.crusade.game import big, climb, flight, latch
from grimdice.systems.crusade.game.board import FULL, Doors, Pos, Step
from grimdice.systems.crusade.game.climber import climbs, climbs_from
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState
from grimdice.systems.crusade.game.table import TableBoard
from grimdice.systems.crusade.game.table_parts import answers
from grimdice.systems.crusade.movement import falling

EPS = 1e-9
FAR = 10**6
#: steps that never bring the model nearer (a door closed)
_NEVER = ("close",)


Edge = tuple[Pos, float, bool]
#: the last search's steps from each position, for a plain walker or climber, with what they
#: depend on (the setup, the model's profile, force and harm, the other models' places, the doors
#: and the forced entries): the next search of the same model among the same models reads them
_last: list[tuple[tuple[object, ...], dict[Pos, list[Edge]]]] = [((), {})]


class Way:
    """The active model's steps from any position (the state ``s`` as it stands, the model moved
    there): for a plain walker or climber from the board with the models' places and the doors
    kept (and its steps from each position kept for the next search while those stay, ``_last``),
    for a flier, a latched or a BIG model from the state with the model moved."""

    def __init__(self, s: GameState, own: bool) -> None:
        t = self.t = s.tokens[s.active]
        self.s, self.own = s, own
        self.doors = s.doors()
        self.sides = {q: side for q, side in s.sides().items() if q != t.sq}
        self.slow = flight.flies(s, t) or latch.partner(s, s.active) >= 0 or big.is_big(s, s.active)
        self.kept: dict[Pos, list[Edge]] = {}
        if not self.slow:
            others = frozenset(self.sides.items())
            key: tuple[object, ...] = (
                s.setup,
                t.profile,
                t.side,
                t.blip,
                t.cond,
                t.hits,
                s.open_doors,
                s.breaches,
                others,
            )
            was, kept = _last[0]  # one read: another thread may replace it
            if was == key:
                self.kept = kept
            else:
                _last[0] = (key, self.kept)

    def steps(self, p: Pos, doors: Doors | None = None) -> tuple[GameState, Sequence[Step]]:
        """The state with the model at ``p`` (the state itself when it is there: its steps kept
        when ``own``, a state the game is in) and its steps there (``doors``: the doors as they
        would be)."""
        s = self.s
        if doors is None and self.t.sq == p:
            return s, big.entering(s, flight.steps_of(s) if self.own else flight.steps_from(s))
        if self.slow or doors is not None:
            x = s.with_token(s.active, sq=p)
            if doors is not None:
                x = altered(x, open_doors=frozenset(q for q, up in doors.items() if up))
            return x, big.entering(x, flight.steps_from(x))
        return s, flight.walks(s, altered(self.t, sq=p), self.doors, self.sides)

    def edges(self, p: Pos, whole: bool) -> list[Edge]:
        """Where each step offered at ``p`` takes the model, its cost and whether it ends the move
        (a fall, :func:`.climb.fall`: only one that leaves the model unharmed, as a harmed one ends
        its turn's doings); a closed door's opening joined to the step through it; whole-move
        steps only when ``whole``; a jump or a scrabble when its chance is above nought."""
        if whole:
            return self._edges(p, whole)
        got = self.kept.get(p)
        if got is None:
            got = self.kept[p] = self._edges(p, whole)
        return got

    def _edges(self, p: Pos, whole: bool) -> list[Edge]:
        x, found = self.steps(p)
        out: list[Edge] = []
        for kind, to, cost in found:
            if kind in _NEVER or (cost == FULL and not whole):
                continue  # a whole-move step: the model's first (``whole``: at its own place)
            if kind in climb.CLIMBS and self._chance(x, p, kind, to) <= 0:
                continue
            if cost == FULL:
                if kind != "hang" or harmless(self.s, p[2] - to[2] - climb.HANG_DROP):
                    out.append((to, FULL, True))
            elif kind == "fall":
                if harmless(self.s, p[2] - to[2]):
                    out.append((to, cost, True))
            elif kind == "open":
                _, through = self.steps(p, {**self.doors, to: True})
                out.extend((q, cost + c, False) for k, q, c in through if k == "move" and q == to)
            else:
                out.append((to, cost, False))
        return out

    def _chance(self, x: GameState, p: Pos, kind: str, to: Pos) -> float:
        """The chance of a jump or a scrabble from ``p`` (``x``: the state, the model there or
        not)."""
        if x.tokens[x.active].sq == p or kind != "jump":
            return climb.chance(x, kind, to)
        return climb.jump_odds(x, *x.setup.board.gap_of(p, to))  # type: ignore[attr-defined]


def harmless(s: GameState, height: float) -> bool:
    """Whether the active model takes no harm from a fall of ``height`` (V FALLING: "For every
    4" you fall, take 1 hit"; IX FLY: "You may ignore damage from a fall")."""
    t = s.tokens[s.active]
    body = s.setup.fighters[t.profile].body
    return falling(max(0.0, height), (t.cond, t.hits), body, fly=body.fly)[0] == t.cond


def shut_out(s: GameState, aim: Pos) -> bool:
    """Whether the active model, outside the sector the target at ``aim`` stands in, has no way
    into it: the sector holds enemies and none of its friends (VI: "any troops within 3" of the
    marker ... may move in"), has no forced entry, and no step of the table (a roof hatch, stairs,
    a catwalk: VI "you do not have to force entry") leads into it without one (a plain walker's
    and a climber's steps: :meth:`.table.TableBoard.steps`, :mod:`.climber`)."""
    board, t = s.setup.board, s.tokens[s.active]
    if not isinstance(board, TableBoard) or flight.flies(s, t):
        return False
    k = board.indoors(aim)
    if k < 0 or board.indoors(t.sq) == k or any(into == k for _, into in s.breaches):
        return False
    inside = {side for q, side in s.sides().items() if board.indoors(q) == k}
    return bool(inside) and t.side not in inside and k not in _free_ways_in(board, climbs(s, t))


def _free_ways_in(board: TableBoard, climber: bool) -> frozenset[int]:
    """The sectors some step of the empty table enters without a forced entry; kept with the table."""
    kept = answers(board.memo, "free_ways_in")
    got = kept.get(climber)
    if got is None:
        found = set()
        for p in board.positions():
            here = board.indoors(p)
            for _, to, _, into in (*board.static_steps(p), *(climbs_from(board, p) if climber else ())):
                there = board.indoors(to)
                if there >= 0 and there != here and into < 0:
                    found.add(there)
        got = kept[climber] = frozenset(found)
    return got


def least(s: GameState, goals: Collection[Pos], aim: Pos, bound: float, whole: bool, own: bool) -> float:
    """The least move from where the active model stands to one of ``goals`` (the positions
    beside the target at ``aim``) by its steps (reading ``charge_reach``), or :data:`FAR` when it
    is more than ``bound``; ``whole``: a whole-move step may be the first (then nothing follows
    it); ``own``: ``s`` is a state of the game (its steps kept, :func:`.flight.steps_of`)."""
    start = s.tokens[s.active].sq
    if start in goals:
        return 0.0
    ax, ay = aim[0], aim[1]

    def under(p: Pos) -> float:  # each step costs at least the cells it crosses (in x or in y)
        return max(abs(p[0] - ax), abs(p[1] - ay), 1) - 1

    way = Way(s, own)
    best: dict[Pos, float] = {start: 0.0}
    todo: list[tuple[float, float, Pos]] = [(under(start), -0.0, start)]  # the farthest first of ties
    limit = bound + EPS
    while todo:
        _, g, p = heapq.heappop(todo)
        g = -g
        if g > best[p]:
            continue
        if p in goals:
            return g
        for q, c, last in way.edges(p, whole and p == start):
            d = bound if c == FULL else g + c
            if last:  # nothing follows it: there, or no way
                if q in goals and d <= limit:
                    return d
                continue
            if d < best.get(q, FAR) and d + under(q) <= limit:
                best[q] = d
                heapq.heappush(todo, (d + under(q), -d, q))
    return FAR


__all__ = ["Way", "harmless", "least", "shut_out"]
