"""The joint law of a many-target attack's end (rules-crusade VIII LINE, BLAST, FLAMER TEMPLATE,
X", SPLIT FIRE, RAPID FIRE): every target's end state together, and whether a roll failed.

``calculate()`` reports each target's law and the law of the kills and damage summed over them
(:func:`.templates.exact_many`); a game needs the targets' states jointly. This law is built from
the same pieces, so its marginals are ``calculate()``'s: one roll applied to every target (LINE,
BLAST, SPLIT FIRE with the attacker's best split of each total), with the re-rolls and jinks solved
on it; a roll per target (flamer templates, X" areas), independent, or with one re-roll a turn
serving them all (reading ``shots_in_turn``); RAPID FIRE's two aimed shots (reading
``rapid_fire_aim``), the law of the solved turn. Where one roll's total reaches each target (not
RAPID FIRE, not a flamer's rolls with re-rolls) the law also says which targets a knockback moves
(VIII KNOCKBACK); the solved turns do not carry it (nobody moved). Asked for, it also says at
which targets a result above zero was rolled (VIII BURN: "Hidden models that are attacked will be
revealed even if they take no damage, as long as a result greater than zero is rolled on the dice").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import product

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.attack import Attack, knocks_back
from grimdice.systems.crusade.damage import State, is_graze
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.shots import solve_turn
from grimdice.systems.crusade.templates import (
    prepared,
    rerolls_of,
    roll_rerolls,
    single_roll,
    target_states,
    total_high_law,
    turn_of,
)

#: (each target's end state, in the order of ``targets``; whether a knockback moves each; a roll
#: failed (III); whether each took a graze, III, told apart only when asked for; whether a result
#: above zero was rolled at each, VIII BURN, told apart only when asked for)
JointEnd = tuple[tuple[State, ...], tuple[bool, ...], bool, tuple[bool, ...], tuple[bool, ...]]


def _product(
    atks: list[Attack],
    per: list[list[tuple[float, State, int]]],
    totals: Sequence[int | None],
    p: float,
    failed: bool,
    out: dict[JointEnd, float],
    grazes: bool = False,
    rolled: bool = False,
) -> None:
    """Add the targets' independent laws (given one roll: their force fields' dice) at weight ``p``;
    ``totals``: the dice total each target was shot with (None: not shot at); ``grazes``: tell
    each target's graze apart (III: one point of damage with one hit left); ``rolled``: tell apart
    at which targets the dice total is above zero (VIII BURN)."""
    shown = tuple(rolled and t is not None and t > 0 for t in totals)
    for combo in product(*per):
        q = p
        for pp, _, _ in combo:
            q *= pp
        states = tuple(s for _, s, _ in combo)
        moved = tuple(
            t is not None and knocks_back(a, t, end) for a, t, end in zip(atks, totals, states, strict=True)
        )
        grazed = tuple(
            grazes and t is not None and is_graze(a.dfd.start, d)
            for a, t, (_, _, d) in zip(atks, totals, combo, strict=True)
        )
        out[(states, moved, failed, grazed, shown)] += q


def _totals(
    mode: str, n: int, t: int, h: int, split: tuple[int, ...] | None, plus: int
) -> Sequence[int | None]:
    """The dice total each target is shot with: LINE the roll; BLAST the roll at the centre, "highest
    die only" outside; SPLIT FIRE each share less the plus (a share of nothing: not shot at)."""
    if split is not None:
        return [x - plus if x > 0 else None for x in split]
    return [t] + [h if mode == "blast" else t] * (n - 1)


def joint_law(sc: Scenario, grazes: bool = False, rolled: bool = False) -> dict[JointEnd, float]:
    """The joint law of the targets' end states and the fail of a many-target shooting scenario
    (``targets`` given), with the checks and errors of :func:`.templates.exact_many`; ``grazes``:
    also which targets took a graze where one roll's total reaches each (not in the solved turns of
    RAPID FIRE and of a flamer's rolls with re-rolls, which do not carry the damage); ``rolled``:
    also at which targets the dice's total (the share of a split, a BLAST's highest die outside
    its centre) is above zero, and in those solved turns, which do not carry the totals, at which
    targets the rolls did damage (damage needs a total above zero)."""
    if sc.action != "shoot" or not sc.targets:
        raise ScenarioError("targets", "a joint law needs a shooting scenario with targets")
    if sc.volley:
        return volley_joint(sc)
    atks, mode, pool = prepared(sc, exact=True)
    out: dict[JointEnd, float] = defaultdict(float)
    if mode == "rapid_fire" or (mode == "flamer" and any(rerolls_of(atks))):
        final = solve_turn(turn_of(atks, mode, pool), lambda i, t, start: target_states(atks[i], t, start))[0]
        for (states, dmgs, nfail), p in final.items():
            harmed = tuple(rolled and d > 0 for d in dmgs)
            out[(tuple(states), (False,) * len(atks), nfail > 0, (False,) * len(atks), harmed)] += p
        return dict(out)
    if mode == "flamer":  # VIII: "Roll seperately for each target", no re-roll to share
        rolls: dict[tuple[int, bool], float] = defaultdict(float)
        for (t, _, f), p in total_high_law(pool.white, pool.red).items():
            rolls[(t, f)] += p
        for combo in product(rolls.items(), repeat=len(atks)):
            p, failed = 1.0, False
            for (_, f), q in combo:
                p, failed = p * q, failed or f
            totals = [t for (t, _), _ in combo]
            per = [target_states(a, t) for a, ((t, _), _) in zip(atks, combo, strict=True)]
            _product(atks, per, totals, p, failed, out, grazes, rolled)
        return dict(out)
    law = roll_rerolls(atks, mode, pool)[0] if any(rerolls_of(atks)) else total_high_law(pool.white, pool.red)
    for (t, h, f), p in law.items():
        outs, split = single_roll(atks, mode, t, h)
        shares = _totals(mode, len(atks), t, h, split, pool.plus)
        _product(atks, outs, shares, p, bool(f), out, grazes, rolled)
    return dict(out)


def volley_joint(sc: Scenario) -> dict[JointEnd, float]:
    """IX VOLLEY FIRE at ``targets`` (:mod:`.volley_many`, its solved pairing, order and aim): the
    targets' end states and whether a pair failed (III); nobody is moved, grazes and totals are not
    told apart."""
    from grimdice.systems.crusade.volley_many import end_law, volley_targets

    final, _ = end_law(sc, volley_targets(sc))
    out: dict[JointEnd, float] = defaultdict(float)
    none = (False,) * len(sc.targets)
    for (states, _, fails, _), p in final.items():
        out[(states, none, fails > 0, none, none)] += p
    return dict(out)


__all__ = ["JointEnd", "joint_law", "volley_joint"]
