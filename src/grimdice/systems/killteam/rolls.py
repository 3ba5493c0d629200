"""The dice tests of the Kill Team (2021) shooting sequence, as functions of the unmodified D6.

All predicates work on plain ints and on NumPy integer arrays alike, so the exact engine (which
enumerates the six faces) and the Monte Carlo engine (which rolls dice) read the rules in one place.

* Roll Attack Dice (2021 core book): a result of 6 is a critical hit, a result at or above BS/WS
  a normal hit, a 1 always fails; Lethal x+: successful hits of x or more are critical hits.
  Attack dice results of 1 are tracked separately (Ceaseless re-rolls them, Hot punishes them).
* Roll Defence Dice: a result of 6 is a critical save, at or above SV a normal save, 1 fails.
* Resolve successful hits: a normal save cancels a normal hit; a critical save cancels a normal
  or a critical hit; two normal saves cancel a critical hit. The defender chooses the allocation:
  :func:`unsaved_options` lists every achievable (uncancelled critical, uncancelled normal) pair.
"""

from __future__ import annotations

from functools import cache, partial

import numpy as np

from grimdice.engine.pipeline import CategoryRoll

#: attack die categories; ONE is a failed die showing 1 (Ceaseless, Hot)
CRIT, NORMAL, ONE, MISS = 0, 1, 2, 3
FACES = (1, 2, 3, 4, 5, 6)


def _out(x):
    return int(x) if np.ndim(x) == 0 else x


def attack_result(face, bs: int, lethal: int = 6):
    """Category of an attack die: CRIT, NORMAL, ONE (a discarded 1) or MISS."""
    face = np.asarray(face)
    hit = (face >= bs) & (face != 1)
    crit = (face == 6) | (hit & (face >= lethal))
    out = np.where(crit, CRIT, np.where(hit, NORMAL, np.where(face == 1, ONE, MISS)))
    return _out(out)


def save_result(face, sv: int | np.ndarray):
    """Category of a defence die: CRIT (critical save), NORMAL (save) or MISS."""
    face = np.asarray(face)
    ok = (face >= sv) & (face != 1)
    out = np.where(face == 6, CRIT, np.where(ok, NORMAL, MISS))
    return _out(out)


def attack_probs(bs: int, lethal: int = 6) -> np.ndarray:
    """``[P(crit), P(normal), P(one), P(miss)]`` for one attack die."""
    p = np.zeros(4)
    for f in FACES:
        p[attack_result(f, bs, lethal)] += 1 / 6
    return p


def save_probs(sv: int) -> np.ndarray:
    """``[P(critical save), P(normal save), P(fail)]`` for one defence die."""
    p = np.zeros(3)
    for f in FACES:
        p[min(save_result(f, sv), 2)] += 1 / 6
    return p


@cache
def attack_roll(bs: int, lethal: int = 6) -> CategoryRoll:
    """The Roll Attack Dice roll as a core :class:`~grimdice.engine.pipeline.CategoryRoll` (categories
    CRIT, NORMAL, ONE; MISS is the "nothing" category); one instance per characteristic, so the
    Monte Carlo engines' per-face look-up tables are built once."""
    return CategoryRoll(partial(attack_result, bs=bs, lethal=lethal), 4)


def _save_category(face, sv: int):
    return np.minimum(save_result(face, sv), 2)


@cache
def save_roll(sv: int) -> CategoryRoll:
    """The Roll Defence Dice roll as a core CategoryRoll (categories CRIT, NORMAL; 2 is a fail)."""
    return CategoryRoll(partial(_save_category, sv=sv), 3)


def _padded(table: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros((n + 1,) * table.ndim)
    out[tuple(slice(0, s) for s in table.shape)] = table
    out.setflags(write=False)
    return out


@cache
def attack_counts(n: int, bs: int, lethal: int = 6) -> np.ndarray:
    """``P[c, h, o]``: ``n`` attack dice give ``c`` critical hits, ``h`` normal hits and ``o``
    discarded 1s (the rest other misses); shape ``(n+1,)*3``, from the core's pooled counts."""
    return _padded(attack_roll(bs, lethal).pool(n).table, n)


@cache
def save_counts(n: int, sv: int) -> np.ndarray:
    """``P[cs, ns]``: ``n`` defence dice give ``cs`` critical and ``ns`` normal saves."""
    return _padded(save_roll(sv).pool(n).table, n)


def count_items(table: np.ndarray) -> list[tuple[tuple[int, ...], float]]:
    """``[((counts..., rest), P)]`` of a count table of ``n`` dice, in lexicographic order of the
    counts (``rest`` is the number of dice in the last, "nothing" category)."""
    n = table.shape[0] - 1
    idx = np.nonzero(table)
    counts = np.stack([*idx, n - np.sum(idx, axis=0)], axis=1).tolist()
    return [(tuple(c), p) for c, p in zip(counts, table[idx].tolist(), strict=True)]


@cache
def attack_items(n: int, bs: int, lethal: int = 6) -> tuple[tuple[tuple[int, int, int, int], float], ...]:
    """:func:`count_items` of :func:`attack_counts`: every first roll ``(c, h, o, m)`` with its P."""
    # an attack count table has 4 categories, so its items are 4-tuples (a length the type cannot carry)
    return tuple(count_items(attack_counts(n, bs, lethal)))  # type: ignore[arg-type]


def effective_ap(ap: int, piercing: int, crits_retained: int) -> int:
    """APx, and Px (APx if any critical hit is retained); not cumulative: the best one is used."""
    return max(ap, piercing if crits_retained > 0 else 0)


def defence_dice(df: int, ap: int, invulnerable_used: bool) -> int:
    """Defence dice rolled: DF minus APx, but an invulnerable save is not affected by APx."""
    return df if invulnerable_used else max(df - ap, 0)


@cache
def unsaved_options(ch: int, nh: int, cs: int, ns: int) -> tuple[tuple[int, int], ...]:
    """Every (uncancelled critical hits, uncancelled normal hits) the defender can reach.

    ``a`` critical saves on critical hits, ``b`` critical saves on normal hits, ``p`` pairs of
    normal saves on critical hits, ``q`` normal saves on normal hits, each within what is there.
    Saves need not all be used (the defender may leave hits uncancelled; it never helps, but the
    enumeration does not assume it).
    """
    out: list[tuple[int, int]] = []
    for x in range(ch + 1):  # critical hits cancelled: a = min(cs, x) by critical saves (the most
        a = min(cs, x)  # that can), the other x - a by pairs of normal saves
        if x - a > ns // 2:
            break  # and no more can be
        # normal hits cancelled: any y up to the critical saves left plus the normal saves left
        most = min(nh, cs - a + ns - 2 * (x - a))
        out.extend((ch - x, nh - y) for y in range(most + 1))
    return tuple(sorted(out))
