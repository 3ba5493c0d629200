"""A losing mob divides the hits (rules-crusade IX MOB): "make a single melee attack that combines
all the attackers' melees together ... If they lose, they must divide the hits up amongst the
models as they see fit until all the hits taken have been assigned, or all the mobbing models are
eliminated."

Reading ``mob_losses`` (unverified): a losing mob takes the whole difference as hits (the text has
it divide "all the hits taken", so IV's "a maximum of one hit" for a losing attacker is read as not
applying to a mob); each model takes its share as damage (reading ``multi_hit``, the defender
choosing the graze among his weapons' codes) and takes hits only until it is eliminated (killed);
hits left when every model is eliminated are lost. The mob divides to minimise, summed over its
models, the number killed, then KO'd or killed, wounded or worse, in any condition, then the hits
lost; ties keep the first division in the order the models are listed (the lead attacker first,
most hits first). The mob's force fields are not rolled against divided hits.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import product

from grimdice.systems.crusade.damage import KILLED, KO, STUNNED, WOUNDED, Body, State, take

Member = tuple[State, Body]


def _hit(m: Member, d: int, codes: frozenset[str]) -> State:
    return take(m[0], d, codes, m[1])


def _capacity(m: Member, codes: frozenset[str]) -> int:
    """The most hits a model takes: up to the one that kills it (0 for a dead model)."""
    s, _ = m
    if s[0] == KILLED:
        return 0
    return next(d for d in range(1, s[1] + 2) if _hit(m, d, codes)[0] == KILLED)


def losses(states: tuple[State, ...], starts: tuple[State, ...]) -> tuple[int, ...]:
    """What the mob minimises: killed, KO'd or killed, wounded or worse, any condition, hits lost."""
    return (
        sum(s[0] == KILLED for s in states),
        sum(s[0] >= KO for s in states),
        sum(s[0] >= WOUNDED for s in states),
        sum(s[0] >= STUNNED for s in states),
        sum(a[1] - s[1] for a, s in zip(starts, states, strict=True)),
    )


def counts(states: tuple[State, ...]) -> tuple[int, int]:
    """How many of the mob are killed, and KO'd or killed."""
    return sum(s[0] == KILLED for s in states), sum(s[0] >= KO for s in states)


def division(members: tuple[Member, ...], codes: frozenset[str]) -> Callable[[int], tuple]:
    """``hits -> (hits per model, end state per model)``: the mob's best division of ``hits``."""
    caps = [_capacity(m, codes) for m in members]
    starts = tuple(s for s, _ in members)

    @cache
    def divide(hits: int) -> tuple[tuple[int, ...], tuple[State, ...]]:
        need = min(hits, sum(caps))  # beyond every model's elimination the hits are lost
        best, best_key = None, None
        for xs in product(*(range(c, -1, -1) for c in caps)):
            if sum(xs) != need:
                continue
            states = tuple(_hit(m, x, codes) if x else m[0] for m, x in zip(members, xs, strict=True))
            key = losses(states, starts)
            if best_key is None or key < best_key:
                best, best_key = (xs, states), key
        assert best is not None  # need <= sum(caps): some division assigns it
        return best

    return divide


__all__ = ["counts", "division", "losses"]
