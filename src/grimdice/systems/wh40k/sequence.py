"""Exact hit and wound stages of the 10th edition attack sequence for one weapon group.

Per attack the outcome is a small joint distribution over *wound tokens* (normal wounds, and
Critical Wounds of a Devastating Wounds weapon), built from the six faces of each roll:

* a failed hit gives nothing;
* a normal hit makes one Wound roll;
* a Critical Hit makes one Wound roll, or wounds automatically with Lethal Hits (an automatic
  wound is not a Critical Wound), and with Sustained Hits X also scores X further hits, which
  are normal hits and make their own Wound rolls;
* Torrent: every attack hits automatically (no Hit roll, so no Critical Hits).

The group's total is that per-attack joint summed over the random number of attacks, which is
each model's A (plus bonuses) summed over the models.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.expr import DiceExpr
from grimdice.dice.joint import Joint
from grimdice.engine.pipeline import CategoryRoll
from grimdice.systems.wh40k.rolls import CRIT, FACES, FAIL, NORMAL, roll_result
from grimdice.systems.wh40k.units import WeaponGroup


def attacks(g: WeaponGroup) -> Dist:
    """Total attacks of the group: every model rolls its own A; bonuses are per model."""
    return (g.attacks.dist + g.attack_bonus).repeat(g.models).clip(0)


def _faces(faces: frozenset[int]):
    return lambda f: np.isin(f, sorted(faces))


def hit_roll(g: WeaponGroup) -> CategoryRoll:
    """The group's Hit roll (categories CRIT, NORMAL, FAIL; its re-roll), for both engines."""
    return CategoryRoll(
        lambda f: roll_result(f, g.hit_target, g.hit_modifier, g.critical_hit),
        3,
        reroll=_faces(g.hit_reroll_faces()),
    )


def wound_roll(g: WeaponGroup) -> CategoryRoll:
    """The group's Wound roll (categories CRIT, NORMAL, FAIL; its re-roll), for both engines."""
    return CategoryRoll(
        lambda f: roll_result(f, g.wound_target, g.wound_modifier, g.critical_wound),
        3,
        reroll=_faces(g.wound_reroll_faces()),
    )


@lru_cache(maxsize=256)
def _roll_probs(target: int, modifier: int, critical: int, reroll: frozenset[int]) -> np.ndarray:
    """``[P(critical), P(normal), P(fail)]`` of one Hit or Wound roll (the same law for every
    group with these numbers, computed once; read-only)."""
    probs = CategoryRoll(lambda f: roll_result(f, target, modifier, critical), 3, reroll=_faces(reroll)).probs
    probs = np.array(probs)
    probs.setflags(write=False)
    return probs


def hit_probs(g: WeaponGroup) -> np.ndarray:
    """``[P(critical hit), P(normal hit), P(miss)]`` for one attack (after rerolls)."""
    if g.ab.torrent:
        return np.array([0.0, 1.0, 0.0])
    return _roll_probs(g.hit_target, g.hit_modifier, g.critical_hit, g.hit_reroll_faces())


def wound_probs(g: WeaponGroup) -> np.ndarray:
    """``[P(critical wound), P(normal wound), P(fail)]`` for one Wound roll (after rerolls)."""
    return _roll_probs(g.wound_target, g.wound_modifier, g.critical_wound, g.wound_reroll_faces())


def wound_roll_tokens(g: WeaponGroup) -> Joint:
    """One Wound roll as a joint over (normal wound tokens, devastating wound tokens)."""
    return _wound_roll_tokens(tuple(wound_probs(g)), g.ab.devastating_wounds)


def _wound_roll_tokens(probs: tuple[float, float, float], devastating: bool) -> Joint:
    pc, pn, pf = probs
    if devastating:
        return Joint.categorical([pn, pc, pf])
    return Joint.categorical([pn + pc, 0.0, pf])


def per_attack(g: WeaponGroup) -> tuple[Dist, Joint]:
    """(hits, wound tokens) of a single attack."""
    ab = g.ab
    return _per_attack(
        tuple(hit_probs(g)), tuple(wound_probs(g)), ab.devastating_wounds, ab.lethal_hits, ab.sustained_hits
    )


@lru_cache(maxsize=256)
def _per_attack(
    hit: tuple[float, float, float],
    wound: tuple[float, float, float],
    devastating: bool,
    lethal: bool,
    sustained: DiceExpr | None,
) -> tuple[Dist, Joint]:
    """(The laws for these numbers, built once: every group with them shares these immutable values.)"""
    pc, pn, pf = hit
    roll = _wound_roll_tokens(wound, devastating)
    extra = sustained.dist if sustained is not None else Dist.constant(0)
    crit_self = Joint.categorical([1.0, 0.0, 0.0]) if lethal else roll
    crit = crit_self + roll.sum_of(extra)
    nothing = Joint.unit(2)
    tokens = Joint.mixture([pf, pn, pc], [nothing, roll, crit])
    hits = Dist.mixture([pf, pn, pc], [Dist.constant(0), Dist.constant(1), extra + 1])
    return hits, tokens


# ---------------------------------------------------------------------- one re-roll for the unit
#: flag states of the unit's single re-rolls: index ``2 * hit + wound``, 1 meaning still available
FLAG_STATES = 4


def flag_index(hit: bool, wound: bool) -> int:
    return 2 * int(hit) + int(wound)


def _die(categorize, own: frozenset[int], available: bool) -> dict[tuple[int, bool], float]:
    """``{(category, used): p}`` of one die: a face in ``own`` is re-rolled by the group's own
    re-roll (a re-rolled die is never re-rolled again); otherwise a failed die is re-rolled with the
    unit's one re-roll when it is still ``available`` (the first failed die it sees)."""
    out: dict[tuple[int, bool], float] = {}

    def add(key: tuple[int, bool], p: float) -> None:
        out[key] = out.get(key, 0.0) + p

    for f1 in FACES:
        if f1 in own:
            for f2 in FACES:
                add((int(categorize(f2)), False), 1 / 36)
        elif available and int(categorize(f1)) == FAIL:
            for f3 in FACES:
                add((int(categorize(f3)), True), 1 / 36)
        else:
            add((int(categorize(f1)), False), 1 / 6)
    return out


def per_attack_flagged(g: WeaponGroup, hit: bool, wound: bool) -> dict[tuple[bool, bool], np.ndarray]:
    """One attack when the unit's one Hit re-roll (``hit``) and one Wound re-roll (``wound``) may
    still be available: ``{(hit re-roll used, wound re-roll used): table[hits, normal, devastating]}``
    (sub-probabilities summing to 1 over the keys)."""
    hcat = lambda f: roll_result(f, g.hit_target, g.hit_modifier, g.critical_hit)  # noqa: E731
    wcat = lambda f: roll_result(f, g.wound_target, g.wound_modifier, g.critical_wound)  # noqa: E731
    own_w = g.wound_reroll_faces()
    wound_die = {a: _die(wcat, own_w, a) for a in (False, True)}
    hits_law = {(NORMAL, False): 1.0} if g.ab.torrent else _die(hcat, g.hit_reroll_faces(), hit)
    extra = g.ab.sustained_hits.dist if g.ab.sustained_hits is not None else Dist.constant(0)
    dev = g.ab.devastating_wounds
    out: dict[tuple[int, int, int, bool, bool], float] = {}
    for (hc, dh), ph in hits_law.items():
        if hc == FAIL:
            cases = [(0, 0, 0, 1.0)]  # (hits, wound dice, automatic wounds, p)
        elif hc == NORMAL:
            cases = [(1, 1, 0, 1.0)]
        else:
            lethal = g.ab.lethal_hits
            cases = [(1 + x, x + (0 if lethal else 1), int(lethal), px) for x, px in extra.to_dict().items()]
        for hits, dice, auto, px in cases:
            states = {(auto, 0, False): ph * px}
            for _ in range(dice):
                nxt: dict[tuple[int, int, bool], float] = {}
                for (n, d, dw), p in states.items():
                    for (wc, used), q in wound_die[wound and not dw].items():
                        crit = wc == CRIT
                        key = (n + int(wc == NORMAL or (crit and not dev)), d + int(crit and dev), dw or used)
                        nxt[key] = nxt.get(key, 0.0) + p * q
                states = nxt
            for (n, d, dw), p in states.items():
                key5 = (hits, n, d, dh, dw)
                out[key5] = out.get(key5, 0.0) + p
    tables: dict[tuple[bool, bool], np.ndarray] = {}
    shape = tuple(max(k[i] for k in out) + 1 for i in range(3))
    for (h, n, d, dh, dw), p in out.items():
        t = tables.setdefault((dh, dw), np.zeros(shape))
        t[h, n, d] += p
    return tables


def flag_tables(g: WeaponGroup) -> dict[tuple[int, int], np.ndarray]:
    """``{(flag state in, flag state out): table[hits, normal, devastating]}`` of one attack."""
    out = {}
    for hit in (False, True):
        for wound in (False, True):
            for (dh, dw), t in per_attack_flagged(g, hit, wound).items():
                out[(flag_index(hit, wound), flag_index(hit and not dh, wound and not dw))] = t
    return out


def flagged_sum(start: np.ndarray, laws: dict[tuple[int, int], np.ndarray], attacks: Dist) -> np.ndarray:
    """Carry ``start[flag, count]`` through ``attacks`` attacks adding a count with the law
    ``laws[(flag in, flag out)]`` per attack (Horner over the number of attacks)."""
    most = max(len(v) for v in laws.values()) - 1

    def op(R: np.ndarray) -> np.ndarray:
        out = np.zeros((R.shape[0], R.shape[1] + most))
        for (fi, fo), law in laws.items():
            c = np.convolve(R[fi], law)
            out[fo, : c.size] += c
        return out

    def pad(A: np.ndarray, width: int) -> np.ndarray:
        return np.pad(A, ((0, 0), (0, width - A.shape[1])))

    R = attacks[attacks.max] * start
    for k in range(attacks.max - 1, -1, -1):
        R = op(R)
        if attacks[k]:
            R = R + attacks[k] * pad(start, R.shape[1])
    return R
