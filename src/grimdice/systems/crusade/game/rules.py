"""The rules of a Rules Crusade game on its board (:mod:`.board`): what may be done in a state, and
what it leads to (section I turn order, II shooting, III fails, IV melee, V movement, hiding and
chits, VI buildings, VIII weapon effects and conditions, X the grid). See ``docs/crusade-game.md``
for each rule and the readings of ours (what the text leaves out).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.actions import shamble_move
from grimdice.systems.crusade.damage import NONE, STUNNED, WOUNDED
from grimdice.systems.crusade.game import (
    ambush,
    artillery,
    big,
    burn,
    catwalk,
    climb,
    control,
    deck,
    detonate,
    dive,
    entry,
    fists,
    flight,
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
from grimdice.systems.crusade.game.board import FULL
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.fails import recover_actions
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import (
    JAMMED,
    READY,
    UNLOADED,
    GameState,
    Token,
    has_code,
    turn_start,
)
from grimdice.systems.crusade.game.table import piece_key
from grimdice.systems.crusade.game.victory import hold_score, reached_by

Action = tuple[Any, ...]
RANGED = ("ranged", "pistol", "grenade")
EPS = 1e-9  # a table's diagonal steps cost irrational lengths


# ---------------------------------------------------------------------- what may be done
def can_activate(s: GameState, i: int) -> bool:
    """I: each model of the player, once a turn; VIII KNOCKED OUT: "may take no actions or movement"."""
    t = s.tokens[i]
    return t.side == s.player and t.standing and not t.done and infiltrate.may_activate(s, i)


def _wounded(s: GameState, i: int) -> bool:
    """VIII WOUND limits the model (IX FRENZY: "If wounded, you may still move and take an action";
    VIII WOUND: "If you are wounded during your turn, you may ignore the effects of the wound for
    the rest of that turn")."""
    t = s.tokens[i]
    return t.cond == WOUNDED and not s.setup.fighters[t.profile].has("frenzy") and i not in s.fresh_wounds


def may_move(s: GameState) -> bool:
    """VIII WOUND: "They may either move or perform an action, not both. Exception: they may move
    and melee" (reading ``wound_order``: the move comes before the melee)."""
    t = s.tokens[s.active]
    if items.burdened(s) and s.acted and not s.pick_first:
        return False  # V CARRYING: "you may either move or spend an action, not both"
    return s.budget > 0 and not (not t.blip and _wounded(s, s.active) and s.acted)


def may_act(s: GameState) -> bool:
    return not s.acted and not (items.burdened(s) and s.moved > 0)


def enemies(s: GameState, side: int) -> list[int]:
    return [i for i, t in enumerate(s.tokens) if t.alive and t.side != side]


def targets_in_sight(s: GameState, i: int) -> list[int]:
    """II: the enemy models ``i`` has line of sight to, not hidden (blips are hidden, V)."""
    me = s.tokens[i]
    doors, occ, board = s.doors(), s.occupied(), s.setup.board
    return [
        j
        for j, t in enumerate(s.tokens)
        if t.alive and t.side != me.side and not t.hidden and board.sight(me.sq, t.sq, doors, occ)
    ]


def adjacent_enemies(s: GameState, i: int) -> list[int]:
    """IV / X: adjacent enemy models (diagonals if a pinching square is open), not blips; VI: catwalks'."""
    me = s.tokens[i]
    doors, board = s.doors(), s.setup.board
    return [
        j
        for j, t in enumerate(s.tokens)
        if t.alive and t.side != me.side and not t.blip and board.adjacent(me.sq, t.sq, doors)
    ] + catwalk.blockers(s, i)


def _moves(s: GameState) -> list[Action]:
    """The board's steps (:meth:`~.board.Board.steps`) the move left pays for; a whole-move step
    (V: a tall ladder; X: a manhole) only before any other step, with the whole move left."""
    steps = big.entering(s, flight.steps_of(s))  # IX FLY, JUMP PACK: air steps; IX BIG: entries
    full = s.moved == 0 and s.budget >= s.move_of(s.tokens[s.active])
    out, budget, climbs = [], s.budget + EPS, climb.CLIMBS
    for kind, to, cost in steps:
        if not (full if cost == FULL else cost <= budget):
            continue
        if kind in climbs and climb.chance(s, kind, to) <= 0:
            continue
        out.append((kind, *to))
    return out


def _actions(s: GameState) -> list[Action]:
    i = s.active
    t = s.tokens[i]
    fx = s.setup.fighters[t.profile]
    weapons = s.setup.profiles[t.profile].weapons
    wounded = _wounded(s, s.active)
    out: list[Action] = []
    adjacent, sight = adjacent_enemies(s, i), targets_in_sight(s, i)
    hid = burn.hidden_in_sight(s, i) if burn.ready(s, i) else []  # VIII BURN: "may fire at hidden models"
    if fx.has("feral") or any(
        has_code(s.setup.profiles[t.profile].abilities, c) for c in ("FERAL", "MINDLESS")
    ):
        adjacent, seen = _nearest(s, i, adjacent, sight + hid)
        sight, hid = [j for j in seen if j not in hid], [j for j in seen if j in hid]
    melee = [("melee", j) for j in adjacent]
    if s.charged or (wounded and s.moved > 0):
        return melee  # V CHARGE then melee; VIII WOUND: move and melee only
    for k, w in enumerate(weapons):
        if w.kind in RANGED and t.arms[k] == READY:
            seen = sight + hid if burn.burns(s, i, w.name) else sight
            out.extend(_shots(s, i, w.name, artillery.targets(s, i, w.name, seen)))  # VIII BARRAGE
    out.extend(fists.actions(s, i, sight))  # IX TWO FISTED
    out.extend(detonate.actions(s, i))  # IX DETONATE
    out.extend(("mind", j) for j in psychic.mind_targets(s, i, sight))  # VII MIND WAR
    out.extend(melee)
    out.extend(latch.actions(s, i, adjacent))  # IX LATCH ON: "As a melee attack"
    out.extend(mob.actions(s, i, adjacent))  # IX MOB: a joint melee
    out.extend(mob.joins(s, i, adjacent))  # ... and the action a member keeps for it
    if not wounded and s.budget > 0:
        out.extend(dive.actions(s, sight, s.budget))  # V DIVE ATTACK on a table
    out.extend(ladder.actions(s))  # V: a ladder blocked by an enemy at the opposite end
    for k, w in enumerate(weapons):
        if t.arms[k] == UNLOADED:
            out.append(("reload", w.name))  # VIII RELOAD
        elif t.arms[k] == JAMMED:
            out.append(("unjam", w.name))  # VIII JAM
    out.extend(recover_actions(s))  # VIII STICK
    out.extend(items.pickup_actions(s))  # V PICKING UP
    out.extend(entry.actions(s))  # VI FORCE ENTRY on a table
    out.extend(ruin.actions(s))  # VI: firing at a building's sector
    if _may_hide(s, free=False):
        out.append(("hide",))
    if not wounded and not has_code(s.setup.profiles[t.profile].abilities, "SHAMBLE"):
        out.append(("extra",))  # IX SHAMBLE: "The model may not take extra move"
        charge = _charge(s, t)
        if charge > 0 and s.budget + charge > 0:
            out.append(("charge",))
    return out


def _shots(s: GameState, i: int, weapon: str, sight: list[int]) -> list[Action]:
    """II: a shot at each target in sight; a flamer template only at a target it reaches (reading
    ``grid_template``); SPLIT FIRE and RAPID FIRE also at two targets the player names."""
    if many.mode(s, i, weapon) == "template":
        sight = [j for j in sight if many.reached(s, i, j, weapon)]
    out: list[Action] = [("shoot", j, weapon) for j in sight] + volley.actions(s, i, weapon, sight)
    out.extend(("shoot", a, weapon, b) for a, b in many.named_targets(s, i, weapon, sight))
    return out


def _nearest(s: GameState, i: int, adjacent: list[int], sight: list[int]) -> tuple[list[int], list[int]]:
    """IX FERAL: "You may only attack the nearest target" (reading ``feral``: the nearest of the
    enemies it could attack, by range in squares; ties all allowed)."""
    here, board = s.tokens[i].sq, s.setup.board
    both = set(adjacent) | set(sight)
    if not both:
        return adjacent, sight
    near = min(board.range(here, s.tokens[j].sq) for j in both)
    keep = {j for j in both if board.range(here, s.tokens[j].sq) == near}
    return [j for j in adjacent if j in keep], [j for j in sight if j in keep]


def _may_hide(s: GameState, free: bool) -> bool:
    """V HIDING: "If you are in cover, you may Hide" (on a grid: darkness, air ducts); IX BIG and
    TALL may not; IX FURTIVE: "May hide for free if you did not attack" (``free``; VIII STUN: not risen)."""
    t = s.tokens[s.active]
    if t.blip or t.hidden or not s.setup.board.can_hide(t.sq):
        return False
    abilities = s.setup.profiles[t.profile].abilities
    if s.setup.fighters[t.profile].has("big") or has_code(abilities, "TALL"):
        return False
    return not free or (has_code(abilities, "FURTIVE") and not s.attacked and not s.risen)


def _charge(s: GameState, t: Token) -> int:
    """V CHARGE: a half move before meleeing, not with 2 armour (power armour apart: NSB read as
    power armour), 3 armour, a heavy weapon or a wound."""
    return _charge_of(s.setup, t.profile, t.cond == WOUNDED)


@lru_cache(maxsize=1024)
def _charge_of(setup: Setup, profile: int, wounded: bool) -> int:
    from grimdice.systems.crusade.movement import charge_distance

    p = setup.profiles[profile]
    heavy = any(has_code(w.effects, "HEAVY") for w in p.weapons)
    return charge_distance(p.move, p.armour, setup.fighters[profile].has("nsb"), heavy, wounded)


def legal_actions(s: GameState) -> list[Action]:
    """The player's choices: which model to activate, then its steps and its one action (I)."""
    if s.ended or s.pending:
        return []
    if s.psy is not None and s.psy.prompt:  # VII: a card window or a discard
        return deck.prompt_actions(s)
    if s.control:  # IX CONTROL: the killer's player chooses
        return control.actions(s)
    if s.active < 0:
        return [("activate", i) for i in range(len(s.tokens)) if can_activate(s, i)]
    if infiltrate.placing(s):  # IX INFILTRATE in a battle game: where it starts
        return infiltrate.placements(s)
    if s.ambush:  # IX AMBUSH: the revealed model's player chooses
        return ambush.actions(s)
    if s.zoc:  # V ZOC: the enemy's player chooses
        return [("pass",), ("zoc", s.zoc[2][0])]
    if s.snap:  # IX SNAP FIRE: the defender's player chooses
        return [("pass",), *(("snap", w) for w in snap.pistols(s, s.snap[1]))]
    out: list[Action] = []
    if s.tokens[s.active].last:  # IX HORROR: a last attack, no move
        return [a for a in _actions(s) if a[0] in ("shoot", "melee", "fists")] + [("end",)]
    if may_act(s):
        out.extend(_actions(s))
    out.extend(deck.cast_actions(s))  # VII CARDS
    mindless = _mindless(s)
    if mindless and out:  # IX MINDLESS: "attack the nearest target, preferrably in melee"
        melee = [a for a in out if a[0] == "melee"]
        out = melee or [a for a in out if a[0] in ("shoot", "fists")] or out
    elif s.meleed:  # IV: "If adjacent to multiple targets, you may melee each in turn"
        out.extend(("melee", j) for j in adjacent_enemies(s, s.active) if j not in s.meleed)
    if _may_hide(s, free=True):
        out.append(("hide",))
    if may_move(s):
        out.extend(_toward_nearest(s, _moves(s)) if mindless else _moves(s))
    if items.carries(s, s.active):
        out.append(("drop",))  # V CARRYING: "You may drop the item at any time during your turn for free"
    if not (mindless and may_act(s) and any(a[0] in ("melee", "shoot", "fists") for a in out)):
        out.append(("end",))
    return out


def _mindless(s: GameState) -> bool:
    t = s.tokens[s.active]
    return not t.blip and has_code(s.setup.profiles[t.profile].abilities, "MINDLESS")


def _toward_nearest(s: GameState, moves: list[Action]) -> list[Action]:
    """IX MINDLESS: "You must always move towards ... the nearest target" (reading ``mindless``:
    each step nearer, by steps, the nearest enemy not hidden, by range as FERAL's; it may stop)."""
    me, board = s.tokens[s.active], s.setup.board
    targets = [s.tokens[j].sq for j in enemies(s, me.side) if not s.tokens[j].hidden]
    if not targets:
        return moves
    near = min(board.range(me.sq, sq) for sq in targets)
    dist = board.distances(sq for sq in targets if board.range(me.sq, sq) == near)
    here = dist.get(me.sq, 10**6)
    return [a for a in moves if a[0] != "move" or dist.get(tuple(a[1:]), 10**6) < here]


# ---------------------------------------------------------------------- chance
def chance_outcomes(s: GameState) -> Sequence[tuple[Action, float]]:
    kind = s.pending[0]
    if kind == "first":  # I: "roll off for first player"
        return [(("first", 0), 0.5), (("first", 1), 0.5)]
    if kind == "attack" and s.pending[1] in psychic.MIND:
        return psychic.outcomes(s)
    if kind == "attack" and s.pending[8:9] == ("volley",):  # IX VOLLEY FIRE: III's failing firer
        return volley.outcomes(s)
    if kind == "attack":
        law = many.cached_joint(s.pending[4]) if s.pending[1] == "many" else cached_law(s.pending[4])
        return [(("attack", k), p) for k, (_, p) in enumerate(law)]
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
    return settle(waits.carry_on(deck.foresee(s) if dive else s, how))  # VII PRECOGNANT: a dive's melee


def _answer(s: GameState, a: Action) -> GameState | None:
    """The answer to a question put to a player in the mover's turn (a card window, an ambush, a
    ZOC, a snap shot), or None when none is put."""
    if s.psy is not None and s.psy.prompt:
        return settle(deck.decide(s, a))
    if s.control:
        return settle(control.decide(s, a))
    if s.ambush:  # VII PRECOGNANT: at the attacks in the mover's turn too
        return settle(deck.foresee(ambush.decide(s, a)))
    if s.zoc:
        return settle(deck.foresee(zoc.decide(s, a)))
    if s.snap:
        return settle(deck.foresee(snap.decide(s, a)))
    return None


#: the actions that change the state in one rule's step
_SIMPLE = {
    "cast": lambda s, a: deck.cast(s, a),  # VII CARDS
    "dissipate": lambda s, a: deck.dissipate(s, int(a[1])),  # VII PROJECTION
    "mind": lambda s, a: psychic.declare(s, s.active, int(a[1])),  # VII MIND WAR
    "end": lambda s, a: end_activation(s),
    "place": lambda s, a: infiltrate.place(s, a),  # IX INFILTRATE: out of sight
    "pickup": lambda s, a: items.pick_up(s, int(a[1])),
    "drop": lambda s, a: items.drop(s, s.active),
    "force": lambda s, a: entry.start(s, int(a[1]), str(a[2])),  # VI FORCE ENTRY
    "close_entry": lambda s, a: entry.close(s, int(a[1])),
    "shoot_sector": lambda s, a: ruin.start(s, int(a[1]), str(a[2])),  # VI DAMAGE
    "melee_sector": lambda s, a: ruin.start(s, int(a[1]), ""),  # VI: "meleeing from the inside"
    "shoot_piece": lambda s, a: ruin.start(s, piece_key(int(a[1])), str(a[2])),  # VI Barricades
    "melee_piece": lambda s, a: ruin.start(s, piece_key(int(a[1])), ""),
    "dive": lambda s, a: dive.start(s, int(a[1])),  # V DIVE ATTACK
    "ladder_melee": lambda s, a: ladder.start(s, int(a[1])),  # V: a ladder blocked at its far end
    "latch": lambda s, a: latch.start(s, int(a[1])),  # IX LATCH ON
    "mob": lambda s, a: mob.start(s, a),  # IX MOB
    "join": lambda s, a: mob.join(s, int(a[1])),
}


def apply(s: GameState, a: Action) -> GameState:
    """The state after action or chance outcome ``a`` (its legality is the caller's check)."""
    if s.pending:
        return _resolve_pending(s, a)
    answered = _answer(s, a)
    if answered is not None:
        return answered
    kind = a[0]
    if kind == "activate":
        return deck.on_activate(activate(s, int(a[1])), int(a[1]))
    if kind in _SIMPLE:  # VII PRECOGNANT: a mind attack may be foreseen
        return settle(deck.foresee(_SIMPLE[kind](s, a)))
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
        who = zoc.guards(s, to) if kind in ("move", "fly") else ()
        return zoc.offer(s, to, cost, who) if who else settle(moves.step(s, to, cost))
    return settle(deck.foresee(resolve.act(s, a)))  # VII PRECOGNANT: a shot or melee too


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
    return altered(s.idle(), risen=t.cond == STUNNED, **now)  # VIII STUN: "not even "free" actions"


def end_activation(s: GameState) -> GameState:
    if s.active < 0:
        return s
    return horror.after_last(s.with_token(s.active, done=True), s.active).idle()


def out_of_action(s: GameState, side: int) -> bool:
    """A force with no model standing (blips count) is beaten (ours: ``victory``)."""
    return not any(t.side == side and t.standing for t in deck.counted(s))  # VII PROJECTION: no ghosts


def finish(s: GameState, winner: int) -> GameState:
    return altered(s, winner=winner, ended=True, active=-1, pending=())


def settle(s: GameState) -> GameState:
    """After every step: end the game if a force is out of action or a ``reach`` objective is
    reached; end an activation that can do nothing more; pass the turn when the player has no
    model left to activate (I), and end the game after the last turn (hold objectives scored)."""
    if s.ended or s.pending or s.control or moments.asked(s):  # VII PSYCHOMETRY's moment first
        return s
    s = horror.lay_down(s)  # IX HORROR: "Once killed, place the model face down"
    up = {t.side for t in deck.counted(s) if t.standing}  # out_of_action, both forces in one pass
    for side in (0, 1):
        if side not in up:
            return finish(s, 1 - side)
    s = deck.mourn(s)  # VII: a killed player psyker's cards
    s = items.drop_fallen(s)  # V: "If you are stunned, killed or KOed, you will drop the item"
    reached = reached_by(s)
    if reached is None:
        reached = items.delivered(s)
    if reached is not None:
        return finish(s, reached)
    if s.active >= 0 and not s.tokens[s.active].standing:
        s = end_activation(s)
    for _ in range(3):
        if s.active >= 0 or any(can_activate(s, i) for i in range(len(s.tokens))):
            return s
        s = next_turn(s)
        if s.ended:
            return s
    return s


def next_turn(s: GameState) -> GameState:
    """I: the other player's turn; after both, the next round; after the last, the game ends."""
    player = 1 - s.player
    rnd = s.round + (player == s.first)
    if rnd > s.setup.scenario.turns:
        a, b = hold_score(s)
        return finish(s, 0 if a > b else 1 if b > a else -1)
    s = latch.release(control.release(s, player), player)  # IX CONTROL: "for 1 turn"; LATCH ON
    tokens = tuple(
        altered(t, done=False, spent=0, snapped=0) if t.side == player else altered(t, spent=0, snapped=0)
        for t in s.tokens
    )
    s = deck.new_turn(
        altered(s, tokens=tokens, player=player, round=rnd, fresh_wounds=frozenset()), s.player, player
    )
    return turn_start(s)


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
