"""A model's step on the board and what it reveals (V HIDING, V ENEMY CHITS, X blips)."""

from __future__ import annotations

from operator import attrgetter

from grimdice.systems.crusade.damage import KILLED
from grimdice.systems.crusade.game.board import FULL, Pos
from grimdice.systems.crusade.game.explore import uncover
from grimdice.systems.crusade.game.flight import steps_of
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.latch import carry
from grimdice.systems.crusade.game.powers import found
from grimdice.systems.crusade.game.state import READY, GameState, Token

#: the step actions that move a model without a roll (the board's step kinds)
STEPS = ("move", "manhole", "ladder", "fly", "climb")
#: a token's hiding and its blip's models (what a step may reveal)
_HIDDEN, _BLIP = attrgetter("hidden"), attrgetter("blip")


def cost_of(s: GameState, kind: str, to: Pos) -> float:
    """The cost of the active model's step ``kind`` to ``to``, as the board gives it."""
    for k, p, cost in steps_of(s):
        if k == kind and p == to:
            return cost
    raise ValueError(f"no step {kind} to {list(to)} from {list(s.tokens[s.active].sq)}")


def step(s: GameState, sq: Pos, cost: float = 1) -> GameState:
    """Token ``s.active`` steps to ``sq`` for ``cost`` of its move (:data:`~.board.FULL`: its whole
    move, V tall ladders, X manholes). Then blips and hidden models are revealed."""
    i = s.active
    if cost == FULL:
        after = s.changed_by(i, {"sq": sq}, {"budget": 0, "moved": s.moved + 1})
    else:
        after = s.changed_by(i, {"sq": sq}, {"budget": s.budget - cost, "moved": s.moved + cost})
    return reveal_around(carry(s, after, i), i)  # IX LATCH ON: the larger takes the smaller along


def plain_reach(s: GameState, k: int, limit: float, whole: tuple[str, ...] = ()) -> dict[Pos, float]:
    """Where token ``k`` gets from where it stands by plain steps (no doors, climbs, jumps, ladders
    or manholes) costing at most ``limit``, never next to an enemy blip (stepping there would
    reveal it), with the cost of each (its own place 0), in the order found. ``whole``: the step
    kinds costing a whole move (V tall ladders, X manholes) it may also take, as its first step
    only, at the cost of ``limit``."""
    t = s.tokens[k]
    board, doors, occupied = s.setup.board, s.doors(), s.sides()
    blips = [u.sq for u in s.tokens if u.alive and u.blip and u.side != t.side]
    cost: dict[Pos, float] = {t.sq: 0}
    frontier = [t.sq]
    while frontier:  # costs are positive and few: a plain relaxation to a fixed point
        nxt = []
        for p in frontier:
            for kind, q, c in board.steps(p, s.armour_of(t), doors, occupied, t.side, s.breaches):
                if kind in whole and c == FULL and p == t.sq:
                    c = limit  # "cost 1 full movement": nothing after it
                d = cost[p] + c
                if kind not in ("move", *whole) or c < 0 or d > limit + 1e-9:
                    continue
                if d >= cost.get(q, float("inf")):
                    continue
                if any(board.adjacent(q, b, doors) for b in blips):
                    continue
                cost[q] = d
                nxt.append(q)
        frontier = nxt
    return cost


def _sees(s: GameState, a: Token, b: Token) -> bool:
    return s.setup.board.sight(a.sq, b.sq, s.doors(), s.occupied())


def reveal_around(s: GameState, i: int) -> GameState:
    """X: "Stepping in any square adjacent to a blip will reveal the blip" (reading
    ``blip_reveal``: an enemy model steps adjacent to it, or the blip steps adjacent to an enemy
    model; line of sight does not reveal a blip). V HIDING: a hidden model is revealed when "you or
    your enemy moves such that they have direct line of sight to you or are within 1" of you". X:
    the covered sections it sees into are uncovered first (:mod:`.explore`)."""
    s = uncover(s, (i,))
    if not any(map(_HIDDEN, s.tokens)) and not any(map(_BLIP, s.tokens)):  # looked at in C
        return s  # nothing hidden to reveal
    board, doors = s.setup.board, s.doors()
    me = s.tokens[i]
    if me.blip:
        near = any(
            t.alive and not t.blip and t.side != me.side and board.adjacent(me.sq, t.sq, doors)
            for t in s.tokens
        )
        return _found(reveal_blip(s, i, own_turn=True), i) if near else s
    for j, t in enumerate(s.tokens):  # the cheap tests first; t.alive read inline
        if t.blip and t.side != me.side and t.cond != KILLED and board.adjacent(me.sq, t.sq, doors):
            s = found(reveal_blip(s, j, own_turn=False), i)  # VII PSYCHOMETRY: the finder
    me = s.tokens[i]
    for j, t in enumerate(s.tokens):
        if t.side == me.side or t.blip or t.cond == KILLED or not (t.hidden or (me.hidden and t.standing)):
            continue  # nobody hidden to reveal
        close = board.range(me.sq, t.sq) <= 1
        if t.hidden and (close or _sees(s, me, t)):
            s = s.with_token(j, hidden=False)
        if me.hidden and t.standing and (close or _sees(s, t, me)):
            s = s.with_token(i, hidden=False)
            me = s.tokens[i]
    return s


def _found(s: GameState, i: int) -> GameState:
    """VII PSYCHOMETRY: the enemy psykers beside blip ``i``, revealed in its own move, found it."""
    from grimdice.systems.crusade.game import deck, moments

    return moments.finding(s, i, deck.react_actions)


def _free_squares(s: GameState, start: Pos, armour: int) -> list[Pos]:
    """Free positions nearest ``start`` by steps (then reading order), for a blip's other models."""
    occ = s.occupied()
    return [p for p in s.setup.board.free_near(start, armour, s.doors()) if p not in occ]


def reveal_blip(s: GameState, j: int, own_turn: bool) -> GameState:
    """V ENEMY CHITS: "When revealed, replace the chit with a model. Deduct the chit's move from
    the revealed model." The first model takes the blip's square, the others the nearest free
    squares (reading ``blip_placement``). Revealed in its own move, the chit's activation ends and
    its models may still be activated with the chit's squares deducted."""
    b = s.tokens[j]
    spent = s.moved if own_turn else 0
    tokens = list(s.tokens)
    setup = s.setup
    models = []
    for k in b.blip:
        p = setup.profiles[k]
        models.append(Token(b.side, k, b.sq, hits=p.hits, arms=tuple(READY for _ in p.weapons), spent=spent))
    tokens[j] = models[0]
    s = altered(s, tokens=tuple(tokens))
    revealed = [j]
    for m in models[1:]:
        free = _free_squares(s, b.sq, setup.profiles[m.profile].armour)
        if free:  # a board with no room left loses the model (not met on sensible boards)
            s = altered(s, tokens=(*s.tokens, altered(m, sq=free[0])))
            revealed.append(len(s.tokens) - 1)
    if own_turn and s.active == j:
        s = s.idle()
    if not own_turn:  # IX AMBUSH: "May make a free attack when revealed"
        from grimdice.systems.crusade.game.ambush import ambushers

        s = altered(s, ambush=s.ambush + ambushers(s, revealed))
    return s


__all__ = ["plain_reach", "reveal_around", "reveal_blip", "step"]
