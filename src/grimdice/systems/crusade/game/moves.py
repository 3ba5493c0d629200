"""A model's step on the grid and what it reveals (V HIDING, V ENEMY CHITS, X blips)."""

from __future__ import annotations

from dataclasses import replace

from grimdice.engine.grid import Square, range_squares
from grimdice.systems.crusade.game.state import READY, GameState, Token


def step(s: GameState, sq: Square, manhole: bool = False) -> GameState:
    """Token ``s.active`` steps to ``sq`` (an orthogonal neighbour; X: "Diagonal move is not
    permitted"), or climbs a manhole (its whole move). Then blips and hidden models are revealed."""
    i = s.active
    s = s.with_token(i, sq=sq)
    s = replace(s, budget=0 if manhole else s.budget - 1, moved=s.moved + 1)
    return reveal_around(s, i)


def _sees(s: GameState, a: Token, b: Token) -> bool:
    return s.setup.grid.sight(a.sq, b.sq, s.doors(), s.occupied())


def reveal_around(s: GameState, i: int) -> GameState:
    """X: "Stepping in any square adjacent to a blip will reveal the blip" (reading
    ``blip_reveal``: an enemy model steps adjacent to it, or the blip steps adjacent to an enemy
    model; line of sight does not reveal a blip). V HIDING: a hidden model is revealed when "you or
    your enemy moves such that they have direct line of sight to you or are within 1" of you"."""
    grid, doors = s.setup.grid, s.doors()
    me = s.tokens[i]
    if me.blip:
        near = any(
            t.alive and not t.blip and t.side != me.side and grid.adjacent(me.sq, t.sq, doors)
            for t in s.tokens
        )
        return reveal_blip(s, i, own_turn=True) if near else s
    for j, t in enumerate(s.tokens):
        if t.alive and t.blip and t.side != me.side and grid.adjacent(me.sq, t.sq, doors):
            s = reveal_blip(s, j, own_turn=False)
    me = s.tokens[i]
    for j, t in enumerate(s.tokens):
        if not t.alive or t.blip or t.side == me.side:
            continue
        close = range_squares(me.sq, t.sq) <= 1
        if t.hidden and (close or _sees(s, me, t)):
            s = s.with_token(j, hidden=False)
        if me.hidden and t.standing and (close or _sees(s, t, me)):
            s = s.with_token(i, hidden=False)
            me = s.tokens[i]
    return s


def _free_squares(s: GameState, start: Square, armour: int) -> list[Square]:
    """Free squares nearest ``start`` by steps (then reading order), for a blip's other models."""
    grid, doors = s.setup.grid, s.doors()

    def passable(sq: Square) -> bool:
        return grid.enterable(sq, armour) and not (sq in doors and not doors[sq])

    reach = grid.step_costs(start, grid.width * grid.height, passable)
    occ = s.occupied()
    return [
        sq for sq, _ in sorted(reach.items(), key=lambda kv: (kv[1], kv[0][1], kv[0][0])) if sq not in occ
    ]


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
    s = replace(s, tokens=tuple(tokens))
    revealed = [j]
    for m in models[1:]:
        free = _free_squares(s, b.sq, setup.profiles[m.profile].armour)
        if free:  # a board with no room left loses the model (not met on sensible boards)
            s = replace(s, tokens=(*s.tokens, replace(m, sq=free[0])))
            revealed.append(len(s.tokens) - 1)
    if own_turn and s.active == j:
        s = s.idle()
    if not own_turn:  # IX AMBUSH: "May make a free attack when revealed"
        from grimdice.systems.crusade.game.ambush import ambushers

        s = replace(s, ambush=s.ambush + ambushers(s, revealed))
    return s


__all__ = ["reveal_around", "reveal_blip", "step"]
