"""The simple AI's worth of the further psychic cards (the game's ``powers``; ours, as the attacks' values
of :mod:`.worth`): each card's gain times the chance of its roll, less the incursion's risk."""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.ai.worth import CONDITION_VALUE, INCURSION_VALUE, law_value, many_value
from grimdice.systems.crusade.ai.worth import harm as _harm
from grimdice.systems.crusade.damage import KILLED, KO, STUNNED, graze
from grimdice.systems.crusade.game import deck, moments, powers
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.obfuscate import outcomes
from grimdice.systems.crusade.game.psychic import mind_law
from grimdice.systems.crusade.game.situation import push_square
from grimdice.systems.crusade.game.state import GameState

#: what the action a card played in the enemy turn owes the psyker's next turn is worth (ours)
OWED_ACTION = 0.05
#: small gains (ours): a model revealed, a ghost made, a model hidden, a move changed
SMALL = {
    "CLAIRVOYANT": 0.1,
    "PSYCHOMETRY": 0.1,
    "PROJECTION": 0.1,
    "OBFUSCATE": 0.1,
    "FRENETIC": 0.05,
    "TRIPPER": 0.1,
}


def power_value(s: GameState, a: tuple[Any, ...]) -> float:
    """The expected worth of playing one of the game's ``powers`` cards (PHASE none)."""
    i, k = int(a[1]), int(a[2])
    card = deck.cards_of(s.setup)[k].card
    if card == "PHASE":
        return 0.0
    j = int(a[3])
    t = s.tokens[j]
    if card in ("JINX", "JOSTLE"):  # the victim's own weapon at it: no card roll, no incursion
        key = powers.cast(s, i, card, k, j).pending[4]
        return sum(p * _harm((t.cond, t.hits), ds) for (ds, *_), p in cached_law(key))
    if card == "OBFUSCATE":  # SMALL a model hidden, less the incursion
        law = outcomes(s, i, deck.cards_of(s.setup)[k].dice, j)
        return sum(p * (SMALL[card] * o[1] - INCURSION_VALUE * o[2]) for o, p in law)
    ok, inc, _ = deck.card_chances(s, i, k, j)
    if card == "INFERNO":
        body = s.setup.fighters[t.profile].body
        gain = CONDITION_VALUE[graze((t.cond, t.hits), "wound", body)[0]] - CONDITION_VALUE[t.cond]
    elif card == "TELEKENISIS":
        body = s.setup.fighters[t.profile].body
        blocked = push_square(s, i, j) is None
        stun = CONDITION_VALUE[graze((t.cond, t.hits), "stun", body)[0]] - CONDITION_VALUE[t.cond]
        gain = stun if blocked else 0.02
    elif card == "PRECOGNANT":
        gain = max(0.0, held_value(s))
    else:
        gain = SMALL.get(card, 0.0)
    return ok * gain - INCURSION_VALUE * inc


def held_value(s: GameState) -> float:
    """The expected worth to its maker of the attack a PRECOGNANT would stop."""
    assert s.psy is not None
    held = s.psy.held
    if held[1] == "many":
        return many_value(s, held[2], held[6], held[4])
    if held[1] == "mob":  # IX MOB: the harm to the target (the mob's own risk apart)
        them = (s.tokens[held[3]].cond, s.tokens[held[3]].hits)
        return sum(p * _harm(them, ds) for (ds, *_), p in cached_law(held[4]))
    if held[1] in ("mind", "blast", "lance"):  # the first roll's end (the incursion apart)
        me, them = s.tokens[held[2]], s.tokens[held[3]]
        return sum(
            p * (_harm((them.cond, them.hits), ds) - _harm((me.cond, me.hits), as_))
            for ((ds, as_, *_), _), p in mind_law(held[4])
        )
    return law_value(s, held[2], held[3], held[4])


def shield_value(s: GameState, a: tuple[Any, ...]) -> float:
    """A SHIELD on a model the held attack rolls at: the card's chance times what its +1 armour
    takes off the attack's worth to its maker, less the incursion's risk."""
    assert s.psy is not None
    i, k, j = int(a[1]), int(a[2]), int(a[3])
    ok, inc, _ = deck.card_chances(s, i, k, j)
    shielded = altered(s, psy=altered(s.psy, held=moments.shielded(s.psy.held, j)))
    return ok * (held_value(s) - held_value(shielded)) - INCURSION_VALUE * inc


def inferno_value(s: GameState, a: tuple[Any, ...]) -> float:
    """An INFERNO at a declared attack: its wound's worth, and when it would leave the held
    attack's attacker stunned, knocked out or killed (the attack not made, :mod:`..game.inferno`),
    the card's chance times that attack's worth to its maker."""
    assert s.psy is not None
    i, k, j = int(a[1]), int(a[2]), int(a[3])
    value = power_value(s, a)
    t = s.tokens[j]
    if j != int(s.psy.held[2]):
        return value
    after = graze((t.cond, t.hits), "wound", s.setup.fighters[t.profile].body)[0]
    if after in (STUNNED, KO, KILLED):
        value += deck.card_chances(s, i, k, j)[0] * max(0.0, held_value(s))
    return value


def foresee_choice(s: GameState, actions: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """At a declared enemy attack: the PRECOGNANT, SHIELD or INFERNO worth most, when it is worth more than
    nothing, else pass (FRENETIC and TRIPPER are kept for the psyker's own turn)."""
    casts = []
    for a in actions:
        card = deck.cards_of(s.setup)[int(a[2])].card if a[0] == "cast" else ""
        if card == "PRECOGNANT":
            casts.append((power_value(s, a), a))
        elif card == "SHIELD":
            casts.append((shield_value(s, a), a))
        elif card == "INFERNO":
            casts.append((inferno_value(s, a), a))
    best = max(casts, default=(0.0, ("pass",)))
    return best[1] if best[0] > 0 else ("pass",)


def find_choice(s: GameState, actions: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """At a blip found in the enemy turn: the PSYCHOMETRY worth more than the action it owes."""
    casts = [(power_value(s, a), a) for a in actions if a[0] == "cast"]
    best = max(casts, default=(0.0, ("pass",)))
    return best[1] if best[0] > OWED_ACTION else ("pass",)


__all__ = [
    "OWED_ACTION",
    "find_choice",
    "foresee_choice",
    "held_value",
    "inferno_value",
    "power_value",
    "shield_value",
]
