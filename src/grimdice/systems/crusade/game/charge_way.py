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
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState
from grimdice.systems.crusade.movement import falling

EPS = 1e-9
FAR = 10**6
#: steps that never bring the model nearer (a door closed)
_NEVER = ("close",)


class Way:
    """The active model's steps from any position (the state ``s`` as it stands, the model moved
    there): for a plain walker or climber from the board with the models' places and the doors
    kept, for a flier, a latched or a BIG model from the state with the model moved."""

    def __init__(self, s: GameState, kept: bool) -> None:
        self.s, self.t, self.kept = s, s.tokens[s.active], kept
        self.doors = s.doors()
        self.sides = {q: side for q, side in s.sides().items() if q != self.t.sq}
        self.slow = flight.flies(s, self.t) or latch.partner(s, s.active) >= 0 or big.is_big(s, s.active)

    def steps(self, p: Pos, doors: Doors | None = None) -> tuple[GameState, Sequence[Step]]:
        """The state with the model at ``p`` (the state itself when it is there: its steps kept
        when ``kept``, a state the game is in) and its steps there (``doors``: the doors as they
        would be)."""
        s = self.s
        if doors is None and self.t.sq == p:
            return s, big.entering(s, flight.steps_of(s) if self.kept else flight.steps_from(s))
        if self.slow or doors is not None:
            x = s.with_token(s.active, sq=p)
            if doors is not None:
                x = altered(x, open_doors=frozenset(q for q, up in doors.items() if up))
            return x, big.entering(x, flight.steps_from(x))
        return s, flight.walks(s, altered(self.t, sq=p), self.doors, self.sides)

    def edges(self, p: Pos, whole: bool) -> list[tuple[Pos, float, bool]]:
        """Where each step offered at ``p`` takes the model, its cost and whether it ends the move
        (a fall, :func:`.climb.fall`: only one that leaves the model unharmed, as a harmed one ends
        its turn's doings); a closed door's opening joined to the step through it; whole-move
        steps only when ``whole``; a jump or a scrabble when its chance is above nought."""
        x, found = self.steps(p)
        out: list[tuple[Pos, float, bool]] = []
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


def least(s: GameState, goals: Collection[Pos], aim: Pos, bound: float, whole: bool, kept: bool) -> float:
    """The least move from where the active model stands to one of ``goals`` (the positions
    beside the target at ``aim``) by its steps (reading ``charge_reach``), or :data:`FAR` when it
    is more than ``bound``; ``whole``: a whole-move step may be the first (then nothing follows
    it); ``kept``: ``s`` is a state of the game (its steps kept, :func:`.flight.steps_of`)."""
    start = s.tokens[s.active].sq
    if start in goals:
        return 0.0
    ax, ay = aim[0], aim[1]

    def under(p: Pos) -> float:  # each step costs at least the cells it crosses (in x or in y)
        return max(abs(p[0] - ax), abs(p[1] - ay), 1) - 1

    way = Way(s, kept)
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


__all__ = ["Way", "harmless", "least"]
