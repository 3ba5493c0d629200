"""Psychic cards in a game (rules-crusade VII CARDS, MODIFIERS): dealt from the scenario's deck (a
format of ours, ``psychic.deck``), held by each force, played as actions.

The text's rules: "Player Psykers draw 1 random card / psy level, and may keep psychic cards for the
duration of the game. Enemy Psykers ... draw 2 random cards / psy level, and must discard cards
after use." (each draw a chance node before the first turn; which force is the "player" is the
scenario's ``psychic.player``); "All psy cards take 1 action to play. Models with more than 1 psy
level may play 1 card per psy level, as a single action." "Cards played during an enemy turn cost 1
action from the following turn (declare which model is spending the action and mark them so you
remember)" (the other player may play cards when the enemy activates a model, reading
``card_window``; the model that spends the action is its player's choice, :mod:`.owed`); "you may
reassign their cards as long as each psyker does not use more cards per turn than his Psy level, and
each card is only used once per turn" (the cards are the force's); "If a player psyker is killed,
you must choose and discard a number of cards equivelant to his psy level"; "Any Psychic attack that
directly affects an enemy model requires the caster to have line of sight"; range penalties (-1 per
12 squares) apply to the rolls; PHASE, TELEPORT "does not take an action to play". What each card
does is ours (reading ``card_effects``, docs/crusade-game.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.cards import card_roll
from grimdice.systems.crusade.damage import KILLED, NONE, STUNNED, graze
from grimdice.systems.crusade.game import (
    choices,
    inferno,
    moments,
    owed,
    powers,
    psychic,
)  # choices imports this
from grimdice.systems.crusade.game.activation import may_act, wounded
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.scenario import Card, Setup
from grimdice.systems.crusade.game.state import GameState, Psy, next_event
from grimdice.systems.crusade.rolls import parse_pool

Action = tuple[Any, ...]
ENEMY_CARDS = ("CURSE", "FLASH", "MIND LANCE")  # cards that directly affect an enemy model (LOS)


def cards_of(setup: Setup) -> list[Card]:
    return list(setup.scenario.psychic.deck) if setup.scenario.psychic else []


def draws(setup: Setup) -> tuple[int, ...]:
    """The force drawing each card, in the order of the scenario's models (blips' models too): VII,
    1 card per Psy level for the player's psykers, 2 for the enemy's."""
    player = setup.scenario.psychic.player if setup.scenario.psychic else 0
    out: list[int] = []
    for pc in setup.pieces:
        for k in pc.blip or (pc.profile,):
            n = int(setup.fighters[k].fx.get("psy") or 0)
            out += [pc.side] * n * (1 if pc.side == player else 2)
    return tuple(out)


def check_deck(setup: Setup) -> None:
    """The deck's dice, and enough cards for every psyker's draw (errors name ``psychic.deck``)."""
    deck = cards_of(setup)
    for n, c in enumerate(deck):
        parse_pool(c.dice, f"psychic.deck.{n}.dice")
    need = len(draws(setup))
    if deck and not need:
        raise ScenarioError("psychic.deck", "a deck needs psykers (a profile with Psy-N) to draw it")
    if deck and len(deck) < need:
        raise ScenarioError("psychic.deck", f"the psykers draw {need} cards; the deck has {len(deck)}")


def deal(s: GameState) -> GameState:
    """Before the first turn: the draws, each a chance node (what was pending waits behind them)."""
    deck = cards_of(s.setup)
    if not deck:
        return s
    psy = Psy(deck=tuple(range(len(deck))), draws=draws(s.setup))
    held = ((s.pending,) if s.pending else ()) + s.events
    return altered(s, psy=psy, pending=("draw",), events=held)


def draw_outcomes(s: GameState) -> list[tuple[Action, float]]:
    """VII: "draw ... random cards": each card left in the deck alike."""
    assert s.psy is not None
    return [(("draw", k), 1.0 / len(s.psy.deck)) for k in s.psy.deck]


def drawn(s: GameState, outcome: Action) -> GameState:
    assert s.psy is not None
    k, side = int(outcome[1]), s.psy.draws[0]
    hands = list(s.psy.hands)
    hands[side] = tuple(sorted((*hands[side], k)))
    psy = altered(
        s.psy, deck=tuple(c for c in s.psy.deck if c != k), hands=(hands[0], hands[1]), draws=s.psy.draws[1:]
    )
    s = altered(s, psy=psy)
    return altered(s, pending=("draw",)) if psy.draws else next_event(s)


# ---------------------------------------------------------------------- who may play what
def _count(psy: Psy, i: int) -> int:
    return dict(psy.cast).get(i, 0)


def _card(s: GameState, k: int) -> Card:
    return cards_of(s.setup)[k]


def playable(s: GameState, side: int) -> list[int]:
    """The force's cards not yet played this turn, one of each kind of card."""
    assert s.psy is not None
    seen: dict[Card, int] = {}
    for k in s.psy.hands[side]:
        if k not in s.psy.used:
            seen.setdefault(_card(s, k), k)
    return list(seen.values())


def targets(s: GameState, i: int, k: int) -> list[tuple[int, ...]]:
    """The targets of card ``k`` played by psyker ``i``: a model, or a square (TELEPORT)."""
    return list(_targets(s, i, k))


def _targets(s: GameState, i: int, k: int) -> Iterator[tuple[int, ...]]:
    """:func:`targets`, one at a time (a card window asks whether there is any)."""
    c, me = _card(s, k), s.tokens[i]
    if c.card in powers.KINDS:
        yield from powers.targets(s, i, c.card, c.range)
    elif c.card in ENEMY_CARDS:  # VII MODIFIERS: line of sight to the enemy model affected
        sight = choices.targets_in_sight(s, i)
        yield from (
            (j,) for j in (psychic.mind_targets(s, i, sight, lance=True) if c.card == "MIND LANCE" else sight)
        )
    elif c.card == "TELEPORT":
        yield from _teleports(s, i, c.range)
    else:
        friends = [j for j, t in enumerate(s.tokens) if t.side == me.side and t.alive and not t.blip]
        if c.card == "HEAL":
            yield from (
                (j,) for j in friends if s.tokens[j].cond != NONE or s.tokens[j].hits < _max_hits(s, j)
            )
            return
        shielded = {e[1] for e in s.psy.effects if e[0] == "SHIELD"} if s.psy else set()
        yield from ((j,) for j in friends if s.tokens[j].standing and j not in shielded)


def _max_hits(s: GameState, j: int) -> int:
    return s.setup.profiles[s.tokens[j].profile].hits


def _teleports(s: GameState, i: int, reach: int, sight: bool = True) -> Iterator[Pos]:
    """TELEPORT (ours): a free place the psyker sees, within the card's range (the board's unit);
    PHASE (ours, ``sight`` False): one it need not see (through walls); one at a time."""
    board, doors, occ = s.setup.board, s.doors(), s.occupied()
    me = s.tokens[i]
    armour = s.armour_of(me)
    for sq in board.within(me.sq, reach):
        if sq in occ or not board.enterable(sq, armour) or (sq in doors and not doors[sq]):
            continue
        if not sight or board.sight(me.sq, sq, doors, occ):
            yield sq


def _may_cast(s: GameState, i: int) -> bool:
    """VII: a standing psyker that played fewer cards this turn than its Psy level."""
    t = s.tokens[i]
    return s.psy is not None and t.standing and _count(s.psy, i) < psychic.level(s, t)


def cast_actions(s: GameState) -> list[Action]:
    """The active psyker's cards in its own turn: with its action (or, having played a card with
    it, more cards as the same action), TELEPORT and PHASE without one; PROJECTION's dissipations."""
    if s.psy is None:
        return []  # no deck in this game
    i = s.active
    out: list[Action] = powers.dissipations(s)
    if not _may_cast(s, i) or s.charged or s.tokens[i].last or s.round == 0:  # IX INFILTRATE: a move only
        return out
    acting = s.psy.casting or (may_act(s) and not (wounded(s, i) and s.moved > 0))
    for k in playable(s, s.tokens[i].side):
        if acting or (_card(s, k).card in powers.FREE and not s.risen):  # VIII STUN: no free actions
            out.extend(("cast", i, k, *tg) for tg in targets(s, i, k))
    return out


def react_actions(s: GameState, side: int, only: str = "") -> list[Action]:
    """The cards the other player may play in the enemy turn (any standing psyker of its force;
    ``only``: cards of that kind)."""
    return list(_reacts(s, side, only))


def _reacts(s: GameState, side: int, only: str = "") -> Iterator[Action]:
    """:func:`react_actions`, one at a time (whether there is any: the first)."""
    if s.psy is None:
        return
    for i, t in enumerate(s.tokens):
        if t.side == side and not t.blip and _may_cast(s, i):
            pays = owed.payable(s, i)  # VII: "All psy cards take 1 action to play"
            for k in playable(s, side):
                c = _card(s, k).card
                if (not only or c == only) and (pays or c in powers.FREE):
                    yield from (("cast", i, k, *tg) for tg in _targets(s, i, k))


def prompt_actions(s: GameState) -> list[Action]:
    assert s.psy is not None
    if s.psy.prompt[0] == "react":  # VII PROJECTION: "May "dissipate" ghost at any time"
        side = int(s.psy.prompt[1])
        return [("pass",), *react_actions(s, side), *powers.dissipations(s, side)]
    if s.psy.prompt[0] == "foresee":  # an enemy attack declared: PRECOGNANT (IX FOR ONE TURN)
        return [("pass",), *moments.at_attack(s, int(s.psy.prompt[1]), react_actions)]
    if s.psy.prompt[0] == "find":  # VII PSYCHOMETRY: "the psyker that finds the blip"
        return [("pass",), *react_actions(s, int(s.psy.prompt[1]), "PSYCHOMETRY")]
    if s.psy.prompt[0] == "pay":  # VII: "declare which model is spending the action"
        return owed.actions(s)
    side = int(s.psy.prompt[1])
    seen: dict[Card, int] = {}
    for k in s.psy.hands[side]:
        seen.setdefault(_card(s, k), k)
    return [("discard", k) for k in seen.values()]


# ---------------------------------------------------------------------- playing
def cast(s: GameState, a: Action, payer: int = -1) -> GameState:
    """Play card ``a[2]`` by psyker ``a[1]`` at ``a[3:]``: its action cost (VII; in the enemy turn
    model ``payer``'s, as declared, :func:`.owed.mark`), the card kept (player psykers) or discarded
    (enemy psykers), then its effect or its roll."""
    assert s.psy is not None
    i, k, target = int(a[1]), int(a[2]), tuple(int(x) for x in a[3:])
    c, side = _card(s, k), s.tokens[i].side
    psy = s.psy
    react = bool(psy.prompt)
    player = s.setup.scenario.psychic.player if s.setup.scenario.psychic else 0
    if side == player:
        psy = altered(psy, used=(*psy.used, k))
    else:  # VII: enemy psykers "must discard cards after use"
        hands = list(psy.hands)
        hands[side] = tuple(x for x in hands[side] if x != k)
        psy = altered(psy, hands=(hands[0], hands[1]))
    cast = dict(psy.cast)
    cast[i] = cast.get(i, 0) + 1
    psy = altered(psy, cast=tuple(sorted(cast.items())))
    if c.card not in powers.FREE:  # VII: PHASE, TELEPORT "does not take an action to play"
        if react:
            psy = owed.mark(s, psy, i, payer)  # VII: "declare which model is spending the action"
            if c.card == "INFERNO":  # VII INFERNO: no action owed if harmed by the attack
                psy = inferno.awaiting(s, psy, i)
            s, psy = owed.spent_now(s, psy)  # VII: in its own turn the active model's action, now
        else:
            psy = altered(psy, casting=True)
            s = altered(s, acted=True)
    s = altered(s, psy=psy)
    if c.card in ENEMY_CARDS or c.card in powers.AT_ENEMY:  # V HIDING: "If you attack ... Revealed"
        s = s.with_token(i, hidden=False)
    if c.card in powers.FREE:
        from grimdice.systems.crusade.game.moves import reveal_around

        return reveal_around(s.with_token(i, sq=target), i)
    if c.card == "MIND LANCE":
        return altered(
            s, pending=("attack", "lance", i, target[0], psychic.mind_situation(s, i, target[0]), c.card)
        )
    if c.card in powers.KINDS:
        return powers.cast(s, i, c.card, k, target[0])
    return altered(s, pending=("card", i, k, target[0]))


def card_chances(s: GameState, i: int, k: int, j: int) -> tuple[float, float, bool]:
    """(the chance card ``k`` played by ``i`` at ``j`` succeeds, the chance of an incursion, whether
    a roll with every die at its maximum succeeds)."""
    c = _card(s, k)
    hood = s.setup.fighters[s.tokens[i].profile].has("hood")
    return _chances(c.dice, c.need, c.card, powers.distance(s, i, c.card, j), hood)


@lru_cache(maxsize=4096)
def _chances(dice: str, need: int, card: str, dist: int, hood: bool) -> tuple[float, float, bool]:
    roll = card_roll(dice, need, name=card, distance=dist, hood=hood)
    pool = parse_pool(dice, "dice")
    reach = 2 * pool.white + 3 * pool.red + pool.plus - roll["range_penalty"] >= need
    return roll["success"], roll["incursion"], reach


def card_outcomes(s: GameState) -> list[tuple[Action, float]]:
    """A card's roll (ours: its dice, minus VII's range penalty per 12 squares to the model it
    affects, reach its ``need``; a psychic hood re-rolls one die,
    :func:`grimdice.systems.crusade.cards.card_roll`) jointly with an incursion (every die of the
    roll at its maximum): ``("card", ok, incursion)``; OBFUSCATE's: how many hide
    (:mod:`.obfuscate`)."""
    _, i, k, j = s.pending
    if _card(s, k).card == "OBFUSCATE":
        from grimdice.systems.crusade.game.obfuscate import outcomes

        return outcomes(s, i, _card(s, k).dice, j)
    ok, inc, reach = card_chances(s, i, k, j)
    law = [
        (("card", 1, 1), inc if reach else 0.0),
        (("card", 1, 0), ok - inc if reach else ok),
        (("card", 0, 1), 0.0 if reach else inc),
        (("card", 0, 0), 1.0 - ok - (0.0 if reach else inc)),
    ]
    return [(o, p) for o, p in law if p > 1e-15]


def card_done(s: GameState, outcome: Action) -> GameState:
    """The card's effect if its roll succeeded (reading ``card_effects``), then an incursion."""
    assert s.psy is not None
    _, i, k, j = s.pending
    s = altered(s, pending=())
    if outcome[1]:
        card = _card(s, k).card
        s = powers.effect(s, card, i, j, int(outcome[1])) if card in powers.KINDS else _effect(s, card, j)
        s = moments.shield_held(s, card, j)  # a SHIELD at a declared attack counts in it
        s = inferno.at_held(s, card, j)  # an INFERNO on the attacker of a declared attack
        s = stunned_stops(s, j)
    return psychic.incursion(s, i) if outcome[2] else powers.resume(s)


def stunned_stops(s: GameState, j: int) -> GameState:
    """A model stunned by a card in its own activation (the other player's card window) ends it
    (VIII STUN: it gets up in its next turn)."""
    from grimdice.systems.crusade.game.rules import end_activation

    return end_activation(s) if j == s.active and s.tokens[j].cond == STUNNED else s


def _effect(s: GameState, card: str, j: int) -> GameState:
    assert s.psy is not None
    t = s.tokens[j]
    if card == "HEAL":  # ours: its condition goes, else a hit comes back
        if t.cond != NONE:
            return s.with_token(j, cond=NONE)
        return s.with_token(j, hits=min(_max_hits(s, j), t.hits + 1))
    if card == "CURSE":  # ours: a stun, as a graze (III's combinations)
        cond, hits = graze((t.cond, t.hits), "stun", s.setup.fighters[t.profile].body)
        return s.with_token(j, cond=cond, hits=hits)
    # SHIELD (ours): +1 armour until the next start of this turn's player's turn (IX FOR ONE TURN);
    # FLASH (ours): the model takes no action in its next activation
    until = s.player if card == "SHIELD" else -1
    return altered(s, psy=altered(s.psy, effects=(*s.psy.effects, (card, j, until))))


def decide(s: GameState, a: Action) -> GameState:
    """The other player's choice in a card window (``pass`` or a card), or a discard."""
    assert s.psy is not None
    if a[0] == "pass":  # a PRECOGNANT passed: the held shot goes on
        return powers.resume(altered(s, psy=altered(s.psy, prompt=())))
    if a[0] == "pay":  # VII: the model declared to spend the card's action
        back, card, payer = owed.declared(s, a)
        return moments.played(cast(back, card, payer))
    if a[0] == "cast":  # VII: in the enemy turn, who spends the action is asked first
        asked = owed.ask(s, a, _card(s, int(a[2])).card not in powers.FREE)
        return asked if asked is not None else moments.played(cast(s, a))
    if a[0] == "dissipate":  # the window stays open
        return powers.dissipate(s, int(a[1]))
    side, n = int(s.psy.prompt[1]), int(s.psy.prompt[2])
    hands = list(s.psy.hands)
    hands[side] = tuple(x for x in hands[side] if x != int(a[1]))
    prompt = ("discard", side, n - 1) if n > 1 and hands[side] else ()
    return altered(s, psy=altered(s.psy, hands=(hands[0], hands[1]), prompt=prompt))


# ---------------------------------------------------------------------- turns and deaths
def on_activate(s: GameState, i: int) -> GameState:
    """A model activated: an action owed from the enemy turn (VII) or a FLASH takes its action; the
    other player's card window opens (reading ``card_window``)."""
    if s.psy is None:
        return s
    psy = altered(s.psy, casting=False)
    flashed = [e for e in psy.effects if e[0] == "FLASH" and e[1] == i]
    spends, psyker = owed.pays_now(psy, i)  # INFERNO: spared when harmed by the attack
    if spends or flashed:
        s = altered(s, acted=True)
    gone = (*flashed, *(e for e in psy.effects if e[0] == "INFERNO" and e[1] == psyker))
    psy = altered(owed.paid(psy, i), effects=tuple(e for e in psy.effects if e not in gone))
    s, psy = powers.on_activate(s, psy, i)
    s = altered(s, psy=psy)
    other = 1 - s.player
    if s.round and (next(_reacts(s, other), None) or powers.dissipations(s, other)):  # none in round 0
        s = altered(s, psy=altered(psy, prompt=("react", other)))
    return s


def new_turn(s: GameState, ending: int, starting: int) -> GameState:
    """A turn ends: cards may be played again; SHIELDs, FRENETICs and TRIPPERs of the starting
    player's turn end (IX FOR ONE TURN); the ending player's models have paid the actions they owed."""
    if s.psy is None:
        return s
    psy = owed.kept(s.psy, ending, s)
    paying = {owed.psyker_of(psy, m) for m in psy.owed}  # the psykers whose action is still owed
    effects = tuple(
        e
        for e in psy.effects
        if not (e[0] in powers.ONE_TURN and e[2] == starting)
        and not (e[0] == "INFERNO" and e[1] not in paying)
    )
    return altered(s, psy=altered(psy, used=(), cast=(), casting=False, effects=effects))


def mourn(s: GameState) -> GameState:
    """VII: "If a player psyker is killed, you must choose and discard a number of cards equivelant
    to his psy level" (a decision of its player)."""
    if s.psy is None or s.psy.prompt:
        return s
    player = s.setup.scenario.psychic.player if s.setup.scenario.psychic else 0
    for i, t in enumerate(s.tokens):
        if t.cond == KILLED and t.side == player and i not in s.psy.mourned and psychic.level(s, t):
            n = min(psychic.level(s, t), len(s.psy.hands[player]))
            prompt = ("discard", player, n) if n else ()
            return altered(s, psy=altered(s.psy, mourned=s.psy.mourned | {i}, prompt=prompt))
    return s


def armour_bonus(s: GameState, t: Any) -> int:
    """SHIELD (ours): +1 armour while it lasts."""
    if s.psy is None:
        return 0
    return int(any(e[0] == "SHIELD" and s.tokens[e[1]] == t for e in s.psy.effects))


__all__ = [
    "armour_bonus",
    "card_chances",
    "card_done",
    "card_outcomes",
    "cast",
    "cast_actions",
    "check_deck",
    "deal",
    "decide",
    "draw_outcomes",
    "drawn",
    "mourn",
    "new_turn",
    "on_activate",
    "prompt_actions",
]
