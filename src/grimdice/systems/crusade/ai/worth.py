"""What the simple AI's choices are worth (ours: the AI's values, not rules), shared by the players
(:mod:`.players`) and the cards' values (:mod:`.powers`): the weight of each end state of a model,
and the expected worth of an attack's exact law (the game's ``combat`` and ``many``, cached by
situation) to the model that makes it."""

from __future__ import annotations

from functools import lru_cache

from grimdice.systems.crusade.ai import aim
from grimdice.systems.crusade.damage import KILLED, KO, STUNNED, WOUNDED
from grimdice.systems.crusade.game import deck, many, many_turn
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, Token

#: how much each end state of a model weighs (ours: the AI's values, not rules)
CONDITION_VALUE = {0: 0.0, STUNNED: 0.25, WOUNDED: 0.45, KO: 0.85, KILLED: 1.0}
HIT_VALUE = 0.2
FAIL_VALUE = 0.1
INCURSION_VALUE = 0.6  # an incursion from the warp (its attack on the psyker, a Warp Spawn)


def harm(before: tuple[int, int], after: tuple[int, int]) -> float:
    """The worth of a model's going from ``before`` to ``after`` (condition, hits left)."""
    return CONDITION_VALUE[after[0]] - CONDITION_VALUE[before[0]] + HIT_VALUE * max(0, before[1] - after[1])


def law_value(s: GameState, i: int, j: int, key: str) -> float:
    """The expected harm token ``i``'s attack in the situation ``key`` does to token ``j``, less
    its own harm and fails (an enemy knocked out for good, :func:`out_for_good`: none)."""
    me, them = (s.tokens[i].cond, s.tokens[i].hits), (s.tokens[j].cond, s.tokens[j].hits)
    t = s.tokens[j]
    w = (0.0 if out_for_good(s, t) else aim.weight(s, t)) if t.side != s.tokens[i].side else 1.0
    return _law_worth(key, me, them, w)


def out_for_good(s: GameState, t: Token) -> bool:
    """Whether model ``t`` is knocked out with no card in the scenario's deck to bring it back
    (VIII KNOCKED OUT: "may take no actions or movement"; only VII HEAL lifts it): it is out of
    the game as if killed, so harm to it is worth nothing more to its enemies (ours)."""
    return t.cond == KO and not _heals(s.setup)


@lru_cache(maxsize=64)
def _heals(setup: Setup) -> bool:
    """Whether the scenario's psychic deck holds a HEAL card."""
    return any(c.card == "HEAL" for c in deck.cards_of(setup))


@lru_cache(maxsize=20_000)
def _law_worth(key: str, me: tuple[int, int], them: tuple[int, int], w: float) -> float:
    """:func:`law_value` of the situation ``key`` from the attacker's and the target's (condition,
    hits), harm to the target weighing ``w``."""
    value = 0.0
    for (ds, as_, wa, *_), p in cached_law(key):
        value += p * (w * harm(them, ds) - harm(me, as_) - FAIL_VALUE * bool(wa))
    return value


def many_value(s: GameState, i: int, targets: tuple[int, ...], key: str) -> float:
    """The expected harm of a shot at several models (the game's ``many``): harm to enemies counts for
    (none to one knocked out for good, :func:`out_for_good`), harm to friends (and to the firer)
    against, less the fail's."""
    side = s.tokens[i].side
    before = [(s.tokens[k].cond, s.tokens[k].hits) for k in targets]
    sign = [
        (0.0 if out_for_good(s, s.tokens[k]) else 1.0) if s.tokens[k].side != side else -1.0 for k in targets
    ]
    if many_turn.in_turn(key):  # rolled model by model: from each target's own law
        return many_turn.expected(key, lambda n, st: sign[n] * harm(before[n], st), FAIL_VALUE)
    value = 0.0
    for (states, _, failed, *_), p in many.cached_joint(key):
        lost = sum(g * harm(b, st) for g, b, st in zip(sign, before, states, strict=True))
        value += p * (lost - FAIL_VALUE * failed)
    return value


__all__ = [
    "CONDITION_VALUE",
    "FAIL_VALUE",
    "HIT_VALUE",
    "INCURSION_VALUE",
    "harm",
    "law_value",
    "many_value",
    "out_for_good",
]
