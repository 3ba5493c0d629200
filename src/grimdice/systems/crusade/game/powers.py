"""The further psychic cards VII names, in play (rules-crusade VII MODIFIERS; their effects are ours,
reading ``card_effects``, docs/crusade-game.md): CLAIRVOYANT, FRENETIC, INFERNO, JINX, JOSTLE,
OBFUSCATE, PHASE, PRECOGNANT, PROJECTION, PSYCHOMETRY, TELEKENISIS, TRIPPER.

The text gives how range, sight and actions apply to each: "CLAIRVOYANT- Deduct range penalties
from the roll for each examination/ reveal. ... FRENETIC, ... TELEKENISIS, TRIPPER- Apply range
penalties to the roll. INFERNO- You do not need to deduct an action from your next turn if you are
actually stunned, wounded or killed by the attack. JINX, JOSTLE- deduct range penalties from the
weapon's roll vs. user if any, based on distance to victim. OBFUSCATE- LOS is NOT required to the
models that hide ... PHASE, TELEPORT- does not take an action to play. PRECOGNANT- Range penalties are
based on the distance to the farthest VICTIM of the enemy attack, not the attacker. PROJECTION: May
only create 1 ghost at a time. Ghost starts adjacent to creator and may move during the creator's
turn. May "dissipate" ghost at any time, otherwise ghost lasts until killed. Range has no effect on
ghost. PSYCHOMETRY- the psyker that finds the blip must spend an action to play the card."
"""

from __future__ import annotations

import json
from typing import Any

from grimdice.systems.crusade.damage import KILLED, graze
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.scenario import FURTHER_CARDS
from grimdice.systems.crusade.game.state import GameState, Psy

#: the cards of this module
KINDS = FURTHER_CARDS
#: cards that directly affect an enemy model: VII MODIFIERS "requires the caster to have line of sight"
AT_ENEMY = ("INFERNO", "JINX", "JOSTLE", "TELEKENISIS", "TRIPPER")
#: VII: PHASE, TELEPORT "does not take an action to play"
FREE = ("PHASE", "TELEPORT")
#: effects that last until the start of the turn of the player whose turn they were played in (IX FOR
#: ONE TURN), unless spent before
ONE_TURN = ("SHIELD", "FRENETIC", "TRIPPER")


# ---------------------------------------------------------------------- targets
def targets(s: GameState, i: int, card: str, reach: int) -> list[tuple[int, ...]]:
    """The targets of one of this module's cards played by psyker ``i`` (a model; PHASE a place)."""
    from grimdice.systems.crusade.game.rules import targets_in_sight

    me = s.tokens[i]
    if card in AT_ENEMY:  # VII MODIFIERS: sight of the enemy model affected
        sight = targets_in_sight(s, i)
        if card in ("JINX", "JOSTLE"):
            return [(j,) for j in sight if _weapon(s, j, card)]
        return [(j,) for j in sight]
    if card == "PHASE":
        from grimdice.systems.crusade.game.deck import _teleports

        return list(_teleports(s, i, reach, sight=False))
    if card == "CLAIRVOYANT":  # any enemy blip or hidden model: no sight needed (it is unseen)
        unseen = [j for j, t in enumerate(s.tokens) if t.side != me.side and t.alive and (t.blip or t.hidden)]
        return [(j,) for j in unseen]
    if card == "PSYCHOMETRY":
        if s.psy is None or ("FOUND", i, -1) not in s.psy.effects:
            return []
        return [(j,) for j, t in enumerate(s.tokens) if t.side != me.side and t.alive and t.blip]
    if card == "PRECOGNANT":
        return [] if s.psy is None or not s.psy.held else [(farthest_victim(s, i),)]
    if card == "PROJECTION":  # one ghost at a time, and a free place beside the creator
        return [(i,)] if ghost_of(s, i) < 0 and _beside(s, i) is not None and s.setup.ghost else []
    friends = [j for j, t in enumerate(s.tokens) if t.side == me.side and t.standing and not t.blip]
    if card == "OBFUSCATE":  # VII: "LOS is NOT required to the models that hide"
        return [(j,) for j in friends if not s.tokens[j].hidden]
    return [(j,) for j in friends if not s.tokens[j].done or j == s.active]  # FRENETIC


def _weapon(s: GameState, j: int, card: str) -> str:
    """The victim's weapon JINX (its first ready ranged weapon or pistol) or JOSTLE (its first
    ready melee or spiky weapon) rolls against it (ours), or ""."""
    t = s.tokens[j]
    if t.blip:
        return ""
    kinds = ("ranged", "pistol") if card == "JINX" else ("melee", "spiky")
    for w, state in zip(s.setup.profiles[t.profile].weapons, t.arms, strict=True):
        if not state and w.kind in kinds:
            return w.name
    return ""


def farthest_victim(s: GameState, i: int) -> int:
    """PRECOGNANT: of the held attack's victims, the farthest from psyker ``i`` (by range)."""
    assert s.psy is not None
    victims = victims_of(s.psy.held)
    board, sq = s.setup.board, s.tokens[i].sq
    return max(victims, key=lambda j: (board.range(sq, s.tokens[j].sq), -j))


def victims_of(held: tuple[Any, ...]) -> tuple[int, ...]:
    """The models a held attack rolls at: a shot's targets, a mind blast's, else its one target."""
    if held[1] == "many":
        return tuple(held[6])
    if held[1] == "blast":
        return (held[3], *held[6][0])
    return (held[3],)


def _beside(s: GameState, i: int) -> Pos | None:
    """PROJECTION: "Ghost starts adjacent to creator": the first free place beside it."""
    me = s.tokens[i]
    board, doors, occ = s.setup.board, s.doors(), s.occupied()
    for sq in board.free_near(me.sq, 0, doors):
        if sq not in occ and board.adjacent(me.sq, sq, doors):
            return sq
    return None


# ---------------------------------------------------------------------- playing
def cast(s: GameState, i: int, card: str, k: int, j: int) -> GameState:
    """The card's roll pending (``("card", i, k, j)``), or JINX's and JOSTLE's weapon roll (no card
    roll: "the weapon's roll vs. user", with the range penalty of the distance to the victim)."""
    if card not in ("JINX", "JOSTLE"):
        return altered(s, pending=("card", i, k, j))
    from grimdice.systems.crusade.game.fails import explosion_shot
    from grimdice.systems.crusade.game.situation import range_key

    weapon = _weapon(s, j, card)
    data = json.loads(explosion_shot(s, j, weapon, j))
    data["range"] = range_key(s.setup.board.range(s.tokens[i].sq, s.tokens[j].sq))
    return altered(s, pending=("attack", "jinx", j, j, json.dumps(data, sort_keys=True), weapon))


def distance(s: GameState, i: int, card: str, j: int) -> int:
    """The distance VII's range penalty of the card is measured by: PROJECTION none ("Range has
    no effect on ghost"); else to the model affected (PRECOGNANT: the farthest victim)."""
    return 0 if card == "PROJECTION" else s.setup.board.range(s.tokens[i].sq, s.tokens[j].sq)


def effect(s: GameState, card: str, i: int, j: int, n: int = 1) -> GameState:
    """A card's effect when its roll succeeds (ours, the Psykers table of docs/crusade-game.md);
    ``n``: OBFUSCATE's count of models that hide."""
    from grimdice.systems.crusade.game.moves import reveal_blip

    assert s.psy is not None
    t = s.tokens[j]
    if card in ("CLAIRVOYANT", "PSYCHOMETRY"):  # the blip revealed, the hidden model seen
        return reveal_blip(s, j, own_turn=False) if t.blip else s.with_token(j, hidden=False)
    if card == "OBFUSCATE":
        from grimdice.systems.crusade.game.obfuscate import hide

        return hide(s, i, j, n)
    if card == "INFERNO":  # a wound, as a graze (III's combinations)
        cond, hits = graze((t.cond, t.hits), "wound", s.setup.fighters[t.profile].body)
        return s.with_token(j, cond=cond, hits=hits)
    if card == "TELEKENISIS":  # thrown one place away from the psyker; into an obstacle, a stun
        from grimdice.systems.crusade.game.situation import push_square

        sq = push_square(s, i, j)
        if sq is not None:  # off an edge on a table, it falls (reading knockback_edge)
            from grimdice.systems.crusade.game.edge import falls

            return falls(s, s.with_token(j, sq=sq), (j,))
        cond, hits = graze((t.cond, t.hits), "stun", s.setup.fighters[t.profile].body)
        return s.with_token(j, cond=cond, hits=hits)
    if card == "PRECOGNANT":  # the enemy attack foreseen: it is not made
        return altered(s, psy=altered(s.psy, held=(), prompt=()))
    if card == "PROJECTION":
        return project(s, i)
    if j == s.active:  # FRENETIC, TRIPPER at the model being activated: its move now
        return altered(s, budget=_moved(s, card, j, s.budget))
    return altered(s, psy=altered(s.psy, effects=(*s.psy.effects, (card, j, s.player))))


def _moved(s: GameState, card: str, j: int, budget: float) -> float:
    """FRENETIC (ours): half its move more; TRIPPER (ours): half the move it has."""
    if card == "FRENETIC":
        return budget + s.move_of(s.tokens[j]) // 2
    return budget // 2


def on_activate(s: GameState, psy: Psy, i: int) -> tuple[GameState, Psy]:
    """Model ``i`` activated: a FRENETIC or TRIPPER on it changes its move (then goes); a
    PSYCHOMETRY find is of the previous activation."""
    spent = [e for e in psy.effects if e[1] == i and e[0] in ("FRENETIC", "TRIPPER")]
    for card, _, _ in spent:
        s = altered(s, budget=_moved(s, card, i, s.budget))
    keep = tuple(e for e in psy.effects if e not in spent and e[0] != "FOUND")
    return s, altered(psy, effects=keep)


def found(s: GameState, i: int) -> GameState:
    """PSYCHOMETRY: psyker ``i`` found (revealed) a blip in its activation."""
    if s.psy is None or ("FOUND", i, -1) in s.psy.effects:
        return s
    return altered(s, psy=altered(s.psy, effects=(*s.psy.effects, ("FOUND", i, -1))))


# ---------------------------------------------------------------------- PRECOGNANT's moment
#: the attacks a PRECOGNANT may stop: shots, melees (a dive's, across a ladder, a mob), mind
#: attacks, and the attacks in the mover's turn (a ZOC melee, a snap shot, an ambush)
FORESEEN = ("shoot", "many", "melee", "mind", "blast", "lance", "ladder", "mob", "zoc", "snap", "ambush")


def foresee(s: GameState) -> GameState:
    """An attack just declared at a model of the other force (IX FOR ONE TURN: such cards "may be
    played at any time"): when that force may play PRECOGNANT, the attack waits (``held``) on its
    choice (``("foresee", side)``)."""
    if s.psy is None or not s.pending or s.pending[0] != "attack" or s.pending[1] not in FORESEEN:
        return s
    side = 1 - s.tokens[s.pending[2]].side
    if s.tokens[s.pending[3]].side != side:
        return s
    held = altered(s, pending=(), psy=altered(s.psy, held=s.pending, prompt=("foresee", side)))
    from grimdice.systems.crusade.game.deck import react_actions
    from grimdice.systems.crusade.game.moments import at_attack  # IX FOR ONE TURN cards too

    return held if at_attack(held, side, react_actions) else s


def resume(s: GameState) -> GameState:
    """The held attack goes on (PRECOGNANT passed or failed), once nothing else is pending."""
    if s.psy is None or not s.psy.held or s.pending:
        return s
    return altered(s, pending=s.psy.held, psy=altered(s.psy, held=(), prompt=()))


# ---------------------------------------------------------------------- PROJECTION's ghost
def ghost_of(s: GameState, i: int) -> int:
    """The ghost psyker ``i`` created that still stands, or -1."""
    if s.psy is None:
        return -1
    for e in s.psy.effects:
        if e[0] == "GHOST" and e[2] == i and s.tokens[e[1]].alive:
            return e[1]
    return -1


def project(s: GameState, i: int) -> GameState:
    """PROJECTION (ours): a ghost of the psyker (its profile's ghost, ``Setup.ghost``) on the first
    free place beside it, for its force; it is activated as its models are."""
    from grimdice.systems.crusade.game.state import Token

    assert s.psy is not None
    sq = _beside(s, i)
    if sq is None:
        return s
    me = s.tokens[i]
    k = s.setup.ghost[me.profile]
    ghost = Token(me.side, k, sq, hits=s.setup.profiles[k].hits)
    effects = (*s.psy.effects, ("GHOST", len(s.tokens), i))
    return altered(s, tokens=(*s.tokens, ghost), psy=altered(s.psy, effects=effects))


def dissipations(s: GameState, side: int | None = None) -> list[tuple[Any, ...]]:
    """PROJECTION: "May "dissipate" ghost at any time": the ghosts of ``side`` standing (by
    default the player's, in its turn; in the enemy turn at its card window, :mod:`.moments`)."""
    if s.psy is None:
        return []
    side = s.player if side is None else side
    return [
        ("dissipate", e[1])
        for e in s.psy.effects
        if e[0] == "GHOST" and s.tokens[e[1]].alive and s.tokens[e[1]].side == side
    ]


def dissipate(s: GameState, g: int) -> GameState:
    """The ghost leaves the board (it ends its activation if it was active)."""
    from grimdice.systems.crusade.game.rules import end_activation

    if s.active == g:
        s = end_activation(s)
    return s.with_token(g, cond=KILLED, hits=0)


def counted(s: GameState) -> tuple[Any, ...]:
    """The tokens that count for victory and objectives: all but PROJECTION's ghosts (ours)."""
    return tuple(t for t in s.tokens if not is_ghost(s, t)) if s.setup.ghost else s.tokens


def is_ghost(s: GameState, t: Any) -> bool:
    """Whether a token is a PROJECTION's ghost (it holds, reaches and carries nothing, ours)."""
    return bool(s.setup.ghost) and not t.blip and t.profile in s.setup.ghost


def ghost_profile(psyker: Any) -> dict[str, Any]:
    """PROJECTION's ghost of a psyker (ours): its move, armour 0, 1 hit, 1 white die of melee,
    no weapons."""
    return {
        "name": f"Ghost ({psyker.name})",
        "move": psyker.move,
        "armour": 0,
        "hits": 1,
        "melee": "1W",
        "abilities": ["ANIMAL"],  # carries no item (V CARRYING)
    }


__all__ = [
    "AT_ENEMY",
    "FREE",
    "KINDS",
    "ONE_TURN",
    "cast",
    "counted",
    "dissipate",
    "dissipations",
    "distance",
    "effect",
    "farthest_victim",
    "foresee",
    "found",
    "ghost_of",
    "ghost_profile",
    "is_ghost",
    "on_activate",
    "project",
    "resume",
    "targets",
]
