"""A game's attacks as chance nodes: the exact joint law of one attack's end, from the single-attack
engine the ``crusade`` calculator runs (:func:`grimdice.systems.crusade.attack.build` and the solved
contest :func:`grimdice.systems.crusade.contest.solve`).

``calculate()`` reports an attack's marginals (the defender's condition, the attacker's, each side's
fail); a game needs them jointly, and which weapon failed. :func:`attack_law` walks the same solved
contest (the defender's parry and both sides' re-rolls played by its policy, solved when the walk
meets its first decision: a roll with no parry nor re-roll to choose is walked unsolved; every roll
and re-roll weighted), resolves each finished roll-off with the attack's own ``outcome`` (the attacker's
pull-back choice and force-field dice included), and draws the failing weapon uniformly among the
weapons used (III: "randomize amongst all weapons used"), and marks who is moved by a knockback
(VIII KNOCKBACK, IX THROW) so that the game can move him (IX MOB: the attacker's end is then
every mob model's end state, the lead first), and, where a side's rules read it (IX
DETONATE: "Will detonate if grazed"; IX LATCH ON: "Any graze ... on the latcher will dislodge
them"), who took a graze (III: "only one point of damage ... to a target with 1 hit remaining").
Its marginals are ``calculate()``'s (``tests/crusade_game/test_combat.py``). Laws are cached by
situation.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import Any, cast

from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.systems.crusade.attack import build, knocks_back
from grimdice.systems.crusade.contest import Game, solve
from grimdice.systems.crusade.contest.solver import check_size
from grimdice.systems.crusade.contest.states import P_ROLL
from grimdice.systems.crusade.damage import State, is_graze, moved_back
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.resolution import D_THROW, THROW, Attack

#: (defender end state, attacker end state, attacker's failing weapon or "", defender's or "",
#: marks: who a knockback moves, :data:`PUSH_DEFENDER` | :data:`PUSH_ATTACKER`, and who took a
#: graze, :data:`GRAZE_DEFENDER` | :data:`GRAZE_ATTACKER`)
Outcome = tuple[State, State, str, str, int]
PUSH_DEFENDER, PUSH_ATTACKER = 1, 2
GRAZE_DEFENDER, GRAZE_ATTACKER = 4, 8
#: the abilities whose rules read a graze: only their situations' laws tell it apart (the others
#: keep their outcomes fewer)
GRAZE_READERS = ("DETONATE", "LATCH ON")


def _reads_grazes(sc: Scenario) -> bool:
    from grimdice.systems.crusade.game.volatile import carried  # VIII VOLATILE: "more than a graze"

    return (
        reads_grazes(*sc.attacker.abilities, *sc.defender.abilities)
        or sc.latch != "none"
        or carried(sc.defender, sc.attacker)
    )


def reads_grazes(*abilities: object) -> bool:
    """Whether one of the ``abilities`` codes reads a graze (:data:`GRAZE_READERS`)."""
    codes = {str(c).strip().upper() for c in abilities}
    return any(c in codes for c in GRAZE_READERS)


def _split_fail(failed: bool, names: tuple[str, ...]) -> list[tuple[str, float]]:
    """III: the failing weapon is drawn uniformly among the weapons used."""
    if not failed or not names:
        return [("", 1.0)]
    return [(n, 1.0 / len(names)) for n in names]


def _melee_push(atk: Attack, pull: int, tie: bool, ds: State, as_: State) -> int:
    """VIII KNOCKBACK on a melee tie, IX THROW ("thrown 1" as a knockback"): who is moved, each by
    the other's size."""
    fx = atk.outcome.fx  # type: ignore[attr-defined]
    push = 0
    if (pull == THROW or (tie and fx.a_tie_kb)) and moved_back(ds, atk.dfd.body, atk.att.body.size):
        push |= PUSH_DEFENDER
    if (pull == D_THROW or (tie and fx.d_tie_kb)) and moved_back(as_, atk.att.body, atk.dfd.body.size):
        push |= PUSH_ATTACKER
    return push


def law_of(sc: Scenario) -> tuple[tuple[Outcome, float], ...]:
    """The exact joint law of the attack ``sc`` (a single attack, one target), most likely first."""
    out: dict[Outcome, float] = defaultdict(float)
    for (o, _), p in joint_law(sc).items():
        out[o] += p
    return tuple(sorted(out.items(), key=lambda kv: (-kv[1], repr(kv[0]))))


def joint_law(sc: Scenario) -> dict[tuple[Outcome, bool], float]:
    """The law of the attack's end jointly with whether every die of the attacker's first roll
    showed its maximum (VII INCURSION: "If you max out on all the dice rolled"; the first roll, as
    the calculator reads it, reading ``incursion``)."""
    atk = build(sc)
    check_size(atk.spec)  # what solve refuses, refused before the walk
    game = Game(atk.spec)
    policy: dict[Any, Any] | None = None  # solved at the first decision met (a shot may have none)
    att_names = tuple(a.name for a in atk.arms)
    def_names = tuple(a.name for a in atk.def_arms)
    shooting = not atk.spec.dfd.pool.n  # a shot, or a melee at a structure (no defender dice)
    pool = atk.spec.att.pool
    top = 2 * pool.white + 3 * pool.red  # the dice's maxima (white 2, red 3)
    grazes = _reads_grazes(sc)
    out: dict[tuple[Outcome, bool], float] = defaultdict(float)
    stack: list[tuple[Any, float, bool]] = [(game.root(), 1.0, False)]
    while stack:
        key, p, maxed = stack.pop()
        player = game.player(key)
        if player == CHANCE:
            first = key[0] == P_ROLL
            stack.extend(
                (k, p * q, game.faces[0][k[2]].total == top if first else maxed)
                for k, q in game.outcomes(key)
                if q > 0
            )
            continue
        if player != TERMINAL:
            if policy is None:
                policy = solve(atk.spec, game).policy
            stack.append((game.child(key, policy[key]), p, maxed))
            continue
        _, parry, a, d = key[:4]
        fa, fd = game.faces[0][a], game.faces[1][d]
        ends: list[tuple[State, State, int, float]] = []
        if shooting:
            for g, q in atk.ff_def:
                ds, dmg, _ = atk.outcome(fa.total, g)[:3]
                push = PUSH_DEFENDER * knocks_back(atk, fa.total, ds)
                push |= GRAZE_DEFENDER * (grazes and is_graze(atk.dfd.start, dmg))
                ends.append((ds, atk.att.start, push, q))
        else:
            pull = atk.options(fa.total, fd.total, parry)
            for ga, qa in atk.ff_att:
                for gd, qd in atk.ff_def:
                    ds, as_, dmg, admg, tie = atk.outcome(fa.total, fd.total, parry, pull, ga, gd)
                    push = _melee_push(atk, pull, bool(tie), ds, as_)
                    if atk.mob is not None:  # IX MOB: every mob model's end, the lead first
                        rest = atk.mob(fa.total, fd.total, parry, pull)[1:]
                        as_ = cast(State, (as_, *rest))
                    if grazes:
                        push |= GRAZE_DEFENDER * is_graze(atk.dfd.start, dmg)
                        push |= GRAZE_ATTACKER * (atk.mob is None and is_graze(atk.att.start, admg))
                    ends.append((ds, as_, push, qa * qd))
        for ds, as_, push, q in ends:
            for wa, ra in _split_fail(fa.failed, att_names):
                for wd, rd in _split_fail(bool(fd.n) and fd.failed, def_names):
                    out[((ds, as_, wa, wd, push), maxed and pool.n > 0)] += p * q * ra * rd
    return out


@lru_cache(maxsize=20_000)
def cached_law(situation: str) -> tuple[tuple[Outcome, float], ...]:
    """:func:`law_of` of a situation given as the JSON text of its single-attack scenario."""
    import json

    return law_of(Scenario.model_validate(json.loads(situation)))


__all__ = [
    "GRAZE_ATTACKER",
    "GRAZE_DEFENDER",
    "PUSH_ATTACKER",
    "PUSH_DEFENDER",
    "Outcome",
    "cached_law",
    "joint_law",
    "law_of",
]
