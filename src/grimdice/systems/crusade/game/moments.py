"""The moments of the enemy turn at which the psychic cards' texts let a card be played, besides a
model's activation (rules-crusade VII, IX FOR ONE TURN; reading ``card_moments``).

IX FOR ONE TURN: "Orders that last one turn may be played at any time". At an enemy attack declared
at a model of the force (PRECOGNANT's moment, :func:`.powers.foresee`), SHIELD, FRENETIC, TRIPPER
and INFERNO (VII: "if you are actually stunned, wounded or killed by the attack", :mod:`.inferno`)
may be played too; a SHIELD on a model the attack rolls at counts in that attack (its +1 armour in
the attack's situation; not in a mind attack, which no armour stops).

VII PSYCHOMETRY: "the psyker that finds the blip must spend an action to play the card". An enemy
blip revealed in its own move beside a psyker of the other force is found by that psyker; its
player may then play PSYCHOMETRY with it at another enemy blip (``("find", side)``; as any card
of the enemy turn, it costs an action from the psyker's following turn).

VII PROJECTION: "May "dissipate" ghost at any time": at an enemy model's activation its player may
also dissipate its ghost (not at a declared attack: the attack's target would go).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from grimdice.systems.crusade.game import powers
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState

Action = tuple[Any, ...]
React = Callable[[GameState, int, str], list[Action]]

#: the cards played at a declared enemy attack (PRECOGNANT's, and IX FOR ONE TURN's "any time")
AT_ATTACK = ("PRECOGNANT", "SHIELD", "FRENETIC", "TRIPPER", "INFERNO")
#: the held attacks a SHIELD changes (a mind attack's roll meets no armour)
SHIELDED = ("shoot", "many", "melee", "ladder", "mob", "zoc", "snap", "ambush")


def at_attack(s: GameState, side: int, react: React) -> list[Action]:
    """The cards ``side`` may play at the attack held for it (``react``: the deck's cards of one
    kind the force may play): a SHIELD only on a model the attack rolls at."""
    assert s.psy is not None and s.psy.held
    held = s.psy.held
    victims = set(powers.victims_of(held)) if held[1] in SHIELDED else set()
    out: list[Action] = []
    for kind in AT_ATTACK:
        cards = react(s, side, kind)
        out.extend(a for a in cards if kind != "SHIELD" or int(a[3]) in victims)
    return out


def shielded(held: tuple[Any, ...], j: int) -> tuple[Any, ...]:
    """The held attack with model ``j``'s armour 1 more (SHIELD, ours: +1 armour) in its situation."""
    data = json.loads(held[4])
    rows = [data["targets"][list(held[6]).index(j)]] if held[1] == "many" else [data["defender"]]
    for row in rows:
        row["armor"] = min(10, row.get("armor", 0) + 1)
    return (*held[:4], json.dumps(data, sort_keys=True), *held[5:])


def shield_held(s: GameState, card: str, j: int) -> GameState:
    """A SHIELD just made on a model the held attack rolls at counts in that attack."""
    psy = s.psy
    if card != "SHIELD" or psy is None or not psy.held or psy.held[1] not in SHIELDED:
        return s
    if j not in powers.victims_of(psy.held):
        return s
    return altered(s, psy=altered(psy, held=shielded(psy.held, j)))


def finding(s: GameState, blip: int, react: React) -> GameState:
    """Enemy blip ``blip`` was just revealed in its own move: the psykers of the other force beside
    it found it (PSYCHOMETRY); its player is asked when it may play the card with one of them."""
    if s.psy is None or s.psy.prompt or s.psy.held:
        return s
    board, doors, sq = s.setup.board, s.doors(), s.tokens[blip].sq
    side = 1 - s.tokens[blip].side
    for i, t in enumerate(s.tokens):
        if t.side == side and t.standing and not t.blip and board.adjacent(t.sq, sq, doors):
            s = powers.found(s, i)
    assert s.psy is not None
    asked = altered(s, psy=altered(s.psy, prompt=("find", side)))
    return asked if react(asked, side, "PSYCHOMETRY") else s


def played(s: GameState) -> GameState:
    """A card just played at PSYCHOMETRY's moment ends it (the card was the moment's one)."""
    if s.psy is None or not asked(s):
        return s
    return altered(s, psy=altered(s.psy, prompt=()))


def asked(s: GameState) -> bool:
    """Whether a PSYCHOMETRY's moment waits on its player (the turn goes on after it)."""
    return s.psy is not None and s.psy.prompt[:1] == ("find",)


__all__ = ["AT_ATTACK", "asked", "at_attack", "finding", "played", "shield_held", "shielded"]
