"""Who pays the action a card of the enemy turn costs (rules-crusade VII CARDS; reading ``card_payer``).

VII: "Cards played during an enemy turn cost 1 action from the following turn (declare which model
is spending the action and mark them so you remember)." When a psyker plays a card that takes an
action in the enemy turn, its player declares the model of its force that spends it
(``["pay", m]``, asked only when there is a choice): a model that will have an action to spend in
its next activation (standing, not stunned, not a chit, not already marked, not FLASHed). With none,
the psyker itself is marked.

In the player's own turn (a PRECOGNANT's moment at an enemy attack made in it: a ZOC melee, a snap
shot, an ambush) no turn of the enemy's is being played, so VII's "All psy cards take 1 action to
play" is an action of this turn (reading ``card_payer``): a model not yet activated (marked, it
spends it when activated), or the active model while its action is unspent (it spends it at once,
:func:`spent_now`); when no model has one (:func:`payable`), the card is not offered, so its cost
is never left unpaid. The mark is ``Psy.owed`` (the model) and ``Psy.pays`` (the model and the psyker whose
card it pays for, for INFERNO's "You do not need to deduct an action from your next turn if you
are actually stunned, wounded or killed by the attack"); the marked model takes no action in its
next activation. A psyker's further cards in the same turn are the same action ("Models with more
than 1 psy level may play 1 card per psy level, as a single action"): no second mark.
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.damage import STUNNED
from grimdice.systems.crusade.game import inferno
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState, Psy

Action = tuple[Any, ...]


def candidates(s: GameState, side: int) -> list[int]:
    """The models of ``side`` that may spend the action: those that will have one to spend."""
    assert s.psy is not None
    flashed = {e[1] for e in s.psy.effects if e[0] == "FLASH"}
    own = side == s.player
    return [
        m
        for m, t in enumerate(s.tokens)
        if t.side == side
        and not t.blip
        and t.standing
        and t.cond != STUNNED
        and m not in s.psy.owed
        and m not in flashed
        and not (own and (t.done or (m == s.active and s.acted)))
    ]


def payable(s: GameState, i: int) -> bool:
    """Whether psyker ``i``'s card that takes an action may be played now: in the enemy turn always
    (its following turn pays); in its own turn only when the action is already declared for its
    cards this turn or a model of its force has one this turn (:func:`candidates`)."""
    assert s.psy is not None
    side = s.tokens[i].side
    return side != s.player or payer_of(s.psy, i) >= 0 or bool(candidates(s, side))


def payer_of(psy: Psy, i: int) -> int:
    """The model marked for psyker ``i``'s cards this turn, or -1."""
    return next((m for m, k in psy.pays if k == i), -1)


def psyker_of(psy: Psy, m: int) -> int:
    """The psyker whose card marked model ``m`` pays for (``m`` itself when none)."""
    return next((k for p, k in psy.pays if p == m), m)


def ask(s: GameState, a: Action, costs: bool) -> GameState | None:
    """Card ``a`` (``["cast", psyker, card, ...]``) played in the enemy turn: its player asked which
    model spends the action (the prompt keeps the card window's and the card), or None when there
    is nothing to ask (no action, ``costs`` False; the psyker's action already marked; one model or
    none to choose from)."""
    assert s.psy is not None
    i = int(a[1])
    if not costs or payer_of(s.psy, i) >= 0 or len(candidates(s, s.tokens[i].side)) < 2:
        return None
    prompt = ("pay", s.tokens[i].side, s.psy.prompt, tuple(a))
    return altered(s, psy=altered(s.psy, prompt=prompt))


def actions(s: GameState) -> list[Action]:
    """``["pay", m]`` for each model that may spend the action (see :func:`candidates`)."""
    assert s.psy is not None
    return [("pay", m) for m in candidates(s, int(s.psy.prompt[1]))]


def declared(s: GameState, a: Action) -> tuple[GameState, Action, int]:
    """The answer ``["pay", m]``: the state with the card window's prompt back, the card, the payer."""
    assert s.psy is not None
    _, _, before, card = s.psy.prompt
    return altered(s, psy=altered(s.psy, prompt=before)), card, int(a[1])


def mark(s: GameState, psy: Psy, i: int, payer: int = -1) -> Psy:
    """Psyker ``i``'s card of the enemy turn costs an action: ``payer`` (declared), else the model
    already marked for it, the one model that may pay, or the psyker, is marked."""
    if payer < 0:
        payer = payer_of(psy, i)
    if payer < 0:
        able = candidates(altered(s, psy=psy), s.tokens[i].side)
        payer = able[0] if len(able) == 1 else i
    pays = psy.pays if (payer, i) in psy.pays else (*psy.pays, (payer, i))
    return altered(psy, owed=psy.owed | {payer}, pays=pays)


def spent_now(s: GameState, psy: Psy) -> tuple[GameState, Psy]:
    """The active model marked in its own turn spends its action at once (its activation is under
    way); its psyker's further cards this turn stay the same action (``Psy.pays`` keeps it)."""
    a = s.active
    if a < 0 or a not in psy.owed or s.tokens[a].side != s.player:
        return s, psy
    return altered(s, acted=True), altered(psy, owed=psy.owed - {a})


def pays_now(psy: Psy, m: int) -> tuple[bool, int]:
    """Model ``m`` activated: whether it spends a marked action (not when its psyker's INFERNO was
    spared, :func:`.inferno.spared`), and the psyker it paid for (-1 when not marked)."""
    if m not in psy.owed:
        return False, -1
    k = psyker_of(psy, m)
    return not inferno.spared(psy, k), k


def paid(psy: Psy, m: int) -> Psy:
    """Model ``m``'s mark gone (its next activation came)."""
    return altered(psy, owed=psy.owed - {m}, pays=tuple(p for p in psy.pays if p[0] != m))


def kept(psy: Psy, ending: int, s: GameState) -> Psy:
    """At the end of ``ending``'s turn: its models' marks are gone (that turn was their following
    one); the other force's stay."""
    owed = frozenset(m for m in psy.owed if s.tokens[m].side != ending)
    return altered(psy, owed=owed, pays=tuple(p for p in psy.pays if p[0] in owed))


__all__ = [
    "actions",
    "ask",
    "candidates",
    "declared",
    "kept",
    "mark",
    "paid",
    "payable",
    "payer_of",
    "pays_now",
    "psyker_of",
    "spent_now",
]
