"""The rules of a Rules Crusade game on its board (:mod:`.board`): what may be done in a state
(:mod:`.choices`), and what it leads to (section I turn order, II shooting, III fails, IV melee, V
movement, hiding and chits, VI buildings, VIII weapon effects and conditions, X the grid). See
``docs/crusade-game.md`` for each rule and the readings of ours (what the text leaves out).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grimdice.systems.crusade.actions import shamble_move
from grimdice.systems.crusade.damage import KO, NONE, STUNNED
from grimdice.systems.crusade.game import (
    ambush,
    charge,
    climb,
    control,
    deck,
    dive,
    entry,
    horror,
    inferno,
    infiltrate,
    items,
    ladder,
    latch,
    many,
    mob,
    moments,
    moves,
    powers,
    psychic,
    resolve,
    ruin,
    snap,
    volley,
    waits,
    zoc,
)
from grimdice.systems.crusade.game.activation import activatable
from grimdice.systems.crusade.game.choices import (
    adjacent_enemies,
    legal_actions,
    targets_in_sight,
)
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.frozen import altered, altered_by
from grimdice.systems.crusade.game.situation import MELEE
from grimdice.systems.crusade.game.state import IDLE, GameState, Token, turn_start
from grimdice.systems.crusade.game.table import piece_key
from grimdice.systems.crusade.game.victory import by_place, hold_score, reached_by

Action = tuple[Any, ...]


# ---------------------------------------------------------------------- chance
def chance_outcomes(s: GameState) -> Sequence[tuple[Action, float]]:
    kind = s.pending[0]
    if kind == "first":  # I: "roll off for first player"
        return [(("first", 0), 0.5), (("first", 1), 0.5)]
    if kind == "attack" and s.pending[1] in psychic.MIND:
        return psychic.outcomes(s)
    if kind == "attack" and s.pending[8:9] == ("volley",):  # IX VOLLEY FIRE: III's failing firer
        return volley.outcomes(s)
    if kind == "attack" and s.pending[1] == "many":  # VIII: one node, or a node a model in turn
        return many.outcomes(s)
    if kind == "attack":
        return [(("attack", k), p) for k, (_, p) in enumerate(cached_law(s.pending[4]))]
    if kind == "draw":  # VII: a random card
        return deck.draw_outcomes(s)
    if kind == "card":
        return deck.card_outcomes(s)
    if kind in ("jump", "scrabble"):  # V JUMPING, SCRABBLING
        return climb.outcomes(s)
    if kind == "force":  # VI FORCE ENTRY
        return entry.outcomes(s)
    if kind == "dive":  # V DIVE ATTACK
        return dive.outcomes(s)
    if kind in ("sector", "collapse", "collateral"):  # VI DAMAGE
        return ruin.outcomes(s)
    if kind in ("unjam", "detonate", "reinforce"):  # VIII JAM; IX DETONATE: a zero; X reinforcements
        p = s.pending[3]
        return [((kind, 1), p), ((kind, 0), 1 - p)]
    if kind == "horror":  # IX HORROR: a red die
        return [(("horror", face), p) for face, p in horror.FACES]
    if kind == "shamble":  # IX SHAMBLE: 2 reds + 4
        return [(("shamble", m), p) for m, p in shamble_move().to_dict().items() if p > 0]
    raise ValueError(f"no chance event {s.pending!r}")


# ---------------------------------------------------------------------- transitions
def _resolve_pending(s: GameState, a: Action) -> GameState:
    """A chance outcome: a card drawn or played, a mind attack, or an attack, roll or event (then
    what waited on it: an ambusher's turn, a snap-fired melee, a ZOC step)."""
    if s.pending[0] in ("draw", "card"):  # VII PRECOGNANT: what waited on the attack it held
        how = waits.held_how(s)
        s = deck.drawn(s, a) if s.pending[0] == "draw" else deck.card_done(s, a)
        return settle(waits.carry_on(s, how))
    if s.pending[0] == "attack" and s.pending[1] in psychic.MIND:  # then a held attack, or what waited
        how = waits.held_how(s)
        return settle(waits.carry_on(powers.resume(inferno.struck(s, psychic.resolve(s, a))), how))
    how = s.pending[1] if s.pending[0] == "attack" else ""
    dive = s.pending[0] == "dive"
    s = inferno.struck(s, resolve.resolve(s, a))  # VII INFERNO: the psyker harmed by the attack
    return settle(waits.carry_on(powers.foresee(s) if dive else s, how))  # VII PRECOGNANT: a dive's melee


def _answer(s: GameState, a: Action) -> GameState:
    """The answer to a question put to a player in the mover's turn (a card window, an ambush, a
    ZOC, a snap shot; :func:`apply` asks only when one is put)."""
    if s.psy is not None and s.psy.prompt:
        return settle(deck.decide(s, a))
    if s.control:
        return settle(control.decide(s, a))
    if s.snap:  # IX SNAP FIRE: asked first (a ZOC's or an ambusher's melee waits on it)
        return settle(powers.foresee(snap.decide(s, a)))
    if s.ambush:  # VII PRECOGNANT: at the attacks in the mover's turn too
        return settle(powers.foresee(ambush.decide(s, a)))
    return settle(powers.foresee(zoc.decide(s, a)))


#: the actions that change the state in one rule's step
_SIMPLE = {
    "cast": lambda s, a: deck.cast(s, a),  # VII CARDS
    "dissipate": lambda s, a: powers.dissipate(s, int(a[1])),  # VII PROJECTION
    "mind": lambda s, a: psychic.declare(s, s.active, int(a[1])),  # VII MIND WAR
    "end": lambda s, a: end_activation(s),
    "place": lambda s, a: infiltrate.place(s, a),  # IX INFILTRATE: out of sight
    "pickup": lambda s, a: items.pick_up(s, int(a[1])),
    "drop": lambda s, a: items.drop(s, s.active),
    "force": lambda s, a: entry.start(s, int(a[1]), str(a[2])),  # VI FORCE ENTRY
    "close_entry": lambda s, a: entry.close(s, int(a[1])),
    "shoot_sector": lambda s, a: ruin.start(s, int(a[1]), str(a[2])),  # VI DAMAGE
    "melee_sector": lambda s, a: ruin.start(s, int(a[1]), MELEE),  # VI: "meleeing from the inside"
    "shoot_piece": lambda s, a: ruin.start(s, piece_key(int(a[1])), str(a[2])),  # VI Barricades
    "melee_piece": lambda s, a: ruin.start(s, piece_key(int(a[1])), MELEE),
    "dive": lambda s, a: dive.start(s, int(a[1])),  # V DIVE ATTACK
    "ladder_melee": lambda s, a: ladder.start(s, int(a[1])),  # V: a ladder blocked at its far end
    "latch": lambda s, a: latch.start(s, int(a[1])),  # IX LATCH ON
    "mob": lambda s, a: mob.start(s, a),  # IX MOB
    "join": lambda s, a: mob.join(s, int(a[1])),
}


def apply(s: GameState, a: Sequence[Any]) -> GameState:
    """The state after action or chance outcome ``a`` (its legality is the caller's check; a list,
    as a log holds it, is read as its tuple). :meth:`.state.GameState.apply` itself. Then IV's
    first melee's place and V CHARGE's half move after its melee (:func:`.charge.mark`)."""
    after = _apply(s, a if type(a) is tuple else tuple(a))
    if after.charging or (after.meleed and after.melee_moved < 0):
        return charge.mark(after)
    return after


def _apply(s: GameState, a: Action) -> GameState:
    if s.pending:
        return _resolve_pending(s, a)
    if (s.psy is not None and s.psy.prompt) or s.control or s.ambush or s.zoc or s.snap:
        return _answer(s, a)  # a question put to a player
    kind = a[0]
    if kind == "activate":
        return deck.on_activate(activate(s, int(a[1])), int(a[1]))
    if kind in _SIMPLE:  # VII PRECOGNANT: a mind attack may be foreseen (only with cards)
        after = _SIMPLE[kind](s, a)
        return settle(after if after.psy is None else powers.foresee(after))
    if kind in ("open", "close"):
        sq = tuple(int(v) for v in a[1:])
        doors = s.open_doors | {sq} if kind == "open" else s.open_doors - {sq}
        return altered(s, open_doors=doors, budget=s.budget - 1, moved=s.moved + 1)
    if kind in climb.CLIMBS:
        to = tuple(map(int, a[1:]))
        return settle(climb.start(s, kind, to, moves.cost_of(s, kind, to)))
    if kind in moves.STEPS:
        to = tuple(map(int, a[1:]))
        cost = moves.cost_of(s, kind, to)
        who = zoc.guards(s, to) if kind in ("move", "fly", "climb") else ()
        return zoc.offer(s, to, cost, who) if who else settle(_stepped(s, moves.step(s, to, cost)))
    after = resolve.act(s, a)  # VII PRECOGNANT: a shot or melee too
    return settle(after if after.psy is None else powers.foresee(after))


def activate(s: GameState, i: int) -> GameState:
    """Start model ``i``'s activation: its move (less what a revealed chit already moved, V); a
    stunned model gets up and makes a half move, no action (VIII STUN)."""
    t = s.tokens[i]
    move = s.move_of(t)
    budget, acted = move - t.spent, t.blip != () or s.round == 0  # a chit, an infiltrator only move
    if budget < 0:  # V: "this may require extra move and prevent an action"
        budget, acted = max(0, budget + move), True
    if t.cond == STUNNED:
        s = s.with_token(i, cond=NONE)
        budget, acted = min(budget, move // 2), True
    if t.last:  # IX HORROR: a last attack, without moving
        budget = 0
    now = {"active": i, "budget": budget, "acted": acted, "origin": t.sq, "carried": items.carries(s, i)}
    now["risen"] = t.cond == STUNNED  # VIII STUN: "not even "free" actions"
    return altered_by(s, IDLE | now)


def end_activation(s: GameState) -> GameState:
    if s.active < 0:
        return s
    if s.tokens[s.active].last:  # IX HORROR: the end of a last attack
        return horror.after_last(s.with_token(s.active, done=True), s.active).idle()
    return _calm_too(s, s.changed_by(s.active, _DONE, IDLE))


_DONE = {"done": True}


def out_of_action(s: GameState, side: int) -> bool:
    """A force with no model standing (blips count) is beaten (ours: ``victory``)."""
    return not any(t.side == side and t.standing for t in powers.counted(s))  # VII PROJECTION: no ghosts


def finish(s: GameState, winner: int) -> GameState:
    return altered(s, winner=winner, ended=True, active=-1, pending=())


def settle(s: GameState) -> GameState:
    """After every step: end the game if a force is out of action or a ``reach`` objective is
    reached; end an activation that can do nothing more (:func:`stopped`); pass the turn when the
    player has no model left to activate (I), and end the game after the last turn (hold
    objectives scored)."""
    if s.ended or s.pending or s.control or (s.psy is not None and moments.asked(s)):  # VII PSYCHOMETRY first
        return s
    calm = _CALM[0]  # one read: another thread may replace it
    if not (s.tokens is calm[0] and s.setup is calm[1] and s.items is calm[2] and s.psy is calm[3]):
        after = _deaths_and_goals(s)  # not the calm state's (:data:`_CALM`)
        if after.ended:
            return after
        if after is s:
            _CALM[0] = (s.tokens, s.setup, s.items, s.psy)
        s = after
    if s.active >= 0:
        if s.tokens[s.active].cond == NONE or not stopped(s):  # NONE: the common case, read first
            return s
        s = end_activation(s)
    for _ in range(3):
        if s.active >= 0 or activatable(s):  # I: the player has a model left to activate
            return s
        s = next_turn(s)
        if s.ended:
            return s
    return s


def stopped(s: GameState) -> bool:
    """Whether the active model's activation is over by what befell it: knocked out or killed; or
    stunned (VIII STUN: "may take no other actions or movement"; V ZOC: the passer goes on only "if
    not stunned"; IX SNAP FIRE: "If you stun or kill them, the melee does not take place"), by its
    own melee, a ZOC's, a snap shot, a knockback, a fall, its own weapon, a dive or a latch, once
    no question put in its turn is still open (IX AMBUSH: the other ambushers and their half
    moves, V ZOC, IX SNAP FIRE; each ends with a step that settles)."""
    cond = s.tokens[s.active].cond
    if cond >= KO:
        return True
    return cond == STUNNED and not (s.snap or s.zoc or s.ambush or (s.psy is not None and s.psy.prompt))


#: the tokens, setup, items and cards of the last state :func:`_deaths_and_goals` left alone (what
#: it reads: the same objects give the same answer)
_CALM: list[tuple[Any, ...]] = [((), None, (), None)]


def _calm_too(before: GameState, after: GameState) -> GameState:
    """``after``, whose tokens differ from ``before``'s in what :func:`_deaths_and_goals` does not
    read (the models' ``done``, ``spent`` and ``snapped``), with the same setup, items and cards:
    when ``before`` was calm, so is ``after`` (:data:`_CALM`)."""
    calm = _CALM[0]
    if (  # before was calm (:data:`_CALM`), and after has its setup, items and cards
        before.tokens is calm[0]
        and after.setup is calm[1] is before.setup
        and after.items is calm[2] is before.items
        and after.psy is calm[3] is before.psy
    ):
        _CALM[0] = (after.tokens, after.setup, after.items, after.psy)
    return after


def _stepped(before: GameState, after: GameState) -> GameState:
    """``after``, a step of ``before``'s active model (:func:`.moves.step`: it moved, took a latched
    model along, revealed hidden models or blips): when ``before`` was calm, the scenario has no
    objective a place ends the game by (:func:`.victory.by_place`) and no model changed what
    :func:`_deaths_and_goals` reads besides places (its condition, force, profile, blip, HORROR
    state; no model added), so is ``after`` (:data:`_CALM`)."""
    calm = _CALM[0]
    now, was = after.tokens, before.tokens
    if was is not calm[0] or len(now) != len(was) or by_place(after.setup):
        return after
    i = before.active
    if now[:i] == was[:i] and now[i + 1 :] == was[i + 1 :]:  # the others the same (compared in C)
        return after if _read(now[i]) != _read(was[i]) else _calm_too(before, after)
    for a, b in zip(now, was, strict=True):
        if a is not b and _read(a) != _read(b):
            return after
    return _calm_too(before, after)


def _read(t: Token) -> tuple[Any, ...]:
    """What :func:`_deaths_and_goals` reads of a model but its place."""
    return (t.cond, t.side, t.profile, t.blip, t.horror)


def _deaths_and_goals(s: GameState) -> GameState:
    """What deaths and objectives do at once: the game's end when a force is out of action or an
    objective is reached; the dead laid down (IX HORROR), their cards (VII) and items (V) dealt
    with. The state itself when there is nothing to do."""
    s = horror.lay_down(s)  # IX HORROR: "Once killed, place the model face down"
    beaten = _beaten(s)  # out_of_action, both forces in one pass
    if beaten >= 0:
        return finish(s, 1 - beaten)
    s = deck.mourn(s)  # VII: a killed player psyker's cards
    s = items.drop_fallen(s)  # V: "If you are stunned, killed or KOed, you will drop the item"
    reached = reached_by(s)
    if reached is None:
        reached = items.delivered(s)
    return finish(s, reached) if reached is not None else s


def _beaten(s: GameState) -> int:
    """The first force (0, then 1) with no model standing (blips count; VII PROJECTION: ghosts do
    not), or -1."""
    up = [False, False]
    for t in powers.counted(s):
        if t.cond < KO:  # Token.standing, read inline: every step asks
            up[t.side] = True
            if up[1 - t.side]:
                return -1
    return 0 if not up[0] else 1 if not up[1] else -1


def _fresh(t: Token, player: int) -> Token:
    """A token at the start of ``player``'s turn: nothing spent nor snapped, the player's not yet
    activated (the token itself when it is so already)."""
    if (t.done and t.side == player) or t.snapped or type(t.spent) is not int or t.spent:
        return altered_by(t, _UNSPENT_OWN if t.side == player else _UNSPENT)
    return t


_UNSPENT = {"spent": 0, "snapped": 0}
_UNSPENT_OWN = {"done": False, **_UNSPENT}


def next_turn(s: GameState) -> GameState:
    """I: the other player's turn; after both, the next round; after the last, the game ends."""
    player = 1 - s.player
    rnd = s.round + (player == s.first)
    if rnd > s.setup.scenario.turns:
        a, b = hold_score(s)
        return finish(s, 0 if a > b else 1 if b > a else -1)
    s = latch.release(control.release(s, player), player)  # IX CONTROL: "for 1 turn"; LATCH ON
    tokens = tuple([_fresh(t, player) for t in s.tokens])  # a list first: no generator to resume
    fresh = _calm_too(s, altered(s, tokens=tokens, player=player, round=rnd, fresh_wounds=frozenset()))
    return turn_start(deck.new_turn(fresh, s.player, player))


__all__ = [
    "activate",
    "adjacent_enemies",
    "apply",
    "chance_outcomes",
    "hold_score",
    "legal_actions",
    "settle",
    "targets_in_sight",
]
