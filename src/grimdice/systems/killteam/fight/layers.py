"""The Resolve Successful Hits step solved for every starting position at once, layer by layer.

The positions are those of :class:`~grimdice.systems.killteam.fight.state.ResolutionState` in a
compact form: one row of small integers ``(side to move, attacker normal, critical, defender
normal, critical, attacker wounds, defender wounds, attacker Stun unused, defender Stun unused)``.
The critical strikes already made are left out: they add the same amount to every continuation
of a position, so they never change a choice (only whether a side's Stun is still unused does,
which the last two columns keep). A *layer* is the set of positions with the same number of dice
left; every move removes one die (a strike) or two (a parry, or a critical strike with Stun), so
a layer only depends on the two below it.

:func:`solve_layers` finds every position reachable from every starting position (forward,
layer by layer, with ``numpy.unique``, keeping every move's children: :class:`Step`), then
solves the layers from the last die up, reusing those children: for each
move in the preference order (strike normal, strike critical, parry normal with normal, normal
with critical, critical with critical) the child positions are looked up at once
(``numpy.searchsorted`` on packed codes) and each side keeps the first move with the best keys.
The features of a fight's end are whole numbers, so each side's lexicographic keys are packed
into one integer and compared exactly (the solver of :mod:`grimdice.engine.game` compares them
with a tolerance that whole numbers never come within). Same positions, same moves, same
tie-break as ``expectimax`` on ``ResolutionState`` (tested), at a fraction of the cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from grimdice.systems.killteam.fight.state import Duel, Move

S, AN, AC, DN, DC, WA, WD, FA, FD = range(9)  # columns of a position row
END = 2  # "side to move" of a finished fight (only in children, never stored)
MOVES = tuple(Move)


@dataclass(frozen=True)
class Children:
    """The positions after each move (in :data:`MOVES` order) from each position of a layer (all
    with the same side to move)."""

    legal: np.ndarray  # (moves, n) bool
    rows: np.ndarray  # (9, moves, n) the position after the move (side to move END when the fight ends)


#: per move (in :data:`MOVES` order): the dice it resolves, the mover's normal and critical hits
#: and the opponent's normal and critical hits (a strike spends one die; a parry one of each side)
SPENT = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [0, 1, 0, 1]], dtype=np.int64)
#: the dice columns of a position, the mover's first, by side to move
DICE_OF = ([AN, AC, DN, DC], [DN, DC, AN, AC])


@dataclass
class Layers:
    """Every reachable position, solved, by layer (dice left): packed codes (sorted), the move
    chosen, and the fight's end from it ``(attacker wounds, defender wounds, critical strikes to
    come per side)`` as a (4, n) array."""

    duel: Duel
    radix: np.ndarray
    codes: dict[int, np.ndarray]
    move: dict[int, np.ndarray]
    end: dict[int, np.ndarray]
    _joined: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=dict, repr=False
    )

    def ends(self, rows: np.ndarray) -> np.ndarray:
        """The ends of positions (columns of ``rows``), every one solved (up to wounds that
        cannot be lost: see :func:`canonical`)."""
        if not rows.shape[1]:
            return np.zeros((4, 0), dtype=np.int64)
        canon = canonical(self.duel, rows)
        return self.found(rows, canon, encode(canon, self.radix))

    def found(
        self, rows: np.ndarray, canon: np.ndarray, want: np.ndarray, dice: tuple[int, int] | None = None
    ) -> np.ndarray:
        """:meth:`ends` of ``rows`` (none empty) given their canonical positions ``canon``, those
        positions' codes ``want`` (already worked out by :func:`reachable`) and, if known, the
        range of dice left ``(lo, hi)`` they lie within."""
        codes, _, end = self._joined_for(dice if dice is not None else _dice(canon))
        out = end[:, self._index(codes, want)]  # a copy
        out[0] += rows[WA] - canon[WA]
        out[1] += rows[WD] - canon[WD]
        return out

    def moves(self, rows: np.ndarray) -> np.ndarray:
        """The moves chosen at positions (columns of ``rows``), every one solved."""
        if not rows.shape[1]:
            return np.zeros(0, dtype=np.int8)
        canon = canonical(self.duel, rows)
        codes, move, _ = self._joined_for(_dice(canon))
        return move[self._index(codes, encode(canon, self.radix))]

    def _joined_for(self, dice: np.ndarray | tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        lo, hi = dice if isinstance(dice, tuple) else (int(dice.min()), int(dice.max()))
        if (lo, hi) not in self._joined:  # layers lo..hi, all solved: their codes sorted together
            layers = [n for n in range(lo, hi + 1) if n in self.codes]
            self._joined[(lo, hi)] = (
                np.concatenate([self.codes[n] for n in layers]),
                np.concatenate([self.move[n] for n in layers]),
                np.concatenate([self.end[n] for n in layers], axis=1),
            )
        return self._joined[(lo, hi)]

    @staticmethod
    def _index(codes: np.ndarray, want: np.ndarray) -> np.ndarray:
        idx = np.searchsorted(codes, want)
        if np.any(idx >= codes.size) or np.any(codes[np.minimum(idx, codes.size - 1)] != want):
            raise KeyError("a position outside the solved layers")
        return idx


def canonical(duel: Duel, rows: np.ndarray) -> np.ndarray:
    """The positions with each operative's wounds cut to one more than the most damage the
    opponent's remaining dice can deal. Such an operative cannot be incapacitated any more, so
    the wounds it has beyond that only shift both sides' keys of every continuation alike: the
    same moves are best, and the fight ends with those extra wounds added back."""
    att, dfd = duel.fighters
    out = rows.copy()
    out[WD] = np.minimum(rows[WD], rows[AN] * att.normal_damage + rows[AC] * att.critical_damage + 1)
    out[WA] = np.minimum(rows[WA], rows[DN] * dfd.normal_damage + rows[DC] * dfd.critical_damage + 1)
    return out


def encode(rows: np.ndarray, radix: np.ndarray) -> np.ndarray:
    """One int64 per position (column of ``rows``): the dice left first (so a layer's codes are
    contiguous and below the next layer's), then the columns in radix ``radix`` (one product with
    the place values: the dice left count in place ``prod(radix)``)."""
    place = np.cumprod(radix[::-1])[::-1]  # place[i] = prod(radix[i:])
    weights = np.append(place[1:], 1)
    weights[[AN, AC, DN, DC]] += place[0]
    return weights @ rows


def _dice(rows: np.ndarray) -> np.ndarray:
    return rows[AN] + rows[AC] + rows[DN] + rows[DC]


def children(duel: Duel, rows: np.ndarray, side: int) -> Children:
    """Every move played by ``side`` from every position of ``rows`` (all with ``side`` to move;
    the rules as in ``ResolutionState.apply``), all at once: a move is legal when the dice it
    resolves are held (Brutal: the opponent parries only with critical hits); a strike deals its
    damage (the fight ends when an operative is incapacitated), Stun discards one of the
    opponent's normal hits at the first critical strike."""
    me, them = duel.fighters[side], duel.fighters[1 - side]
    cols = DICE_OF[side]
    c_wt, c_fm = (WD, FA) if side == 0 else (WA, FD)
    n = rows.shape[1]
    dice = rows[cols]  # (4, n): mover normal, critical, opponent normal, critical
    legal = (dice[None] >= SPENT[:, :, None]).all(axis=1)  # (moves, n)
    if them.rules.brutal:
        legal[Move.PARRY_NORMAL] = False
    left = dice[None] - SPENT[:, :, None]  # (moves, 4, n)
    out = np.repeat(rows[:, None, :], len(MOVES), axis=1)
    if me.rules.stun:  # the first critical strike discards one of the opponent's normal hits
        left[Move.STRIKE_CRIT, 2] -= (rows[c_fm] > 0) & (dice[2] > 0)
        out[c_fm, Move.STRIKE_CRIT] = 0
    out[cols] = left.transpose(1, 0, 2)
    damage = np.zeros(len(MOVES), dtype=np.int64)
    damage[Move.STRIKE_NORMAL], damage[Move.STRIKE_CRIT] = me.normal_damage, me.critical_damage
    wounds = out[c_wt] = np.maximum(rows[c_wt][None, :] - damage[:, None], 0)
    alive = (wounds > 0) | (damage[:, None] == 0)
    mine, theirs = left[:, 0] + left[:, 1], left[:, 2] + left[:, 3]
    out[S] = np.where(alive & (theirs > 0), 1 - side, np.where(alive & (mine > 0), side, END))
    assert out.shape == (9, len(MOVES), n)
    return Children(legal, out)


def start_rows(duel: Duel, n_att: int, n_def: int) -> np.ndarray:
    """The first position (columns) of every pair of retained dice ``(an, ac)``, ``(dn, dc)``
    within the bounds, in the order of ``hit_pairs`` for each side (the attacker's outer); a pair
    where neither side holds a die gets side to move END."""
    att, dfd = duel.fighters
    a = [(x, y) for x in range(n_att + 1) for y in range(n_att + 1 - x)]
    d = [(x, y) for x in range(n_def + 1) for y in range(n_def + 1 - x)]
    rows = np.array(
        [
            (
                0 if an + ac else 1 if dn + dc else END,
                an,
                ac,
                dn,
                dc,
                att.wounds,
                dfd.wounds,
                int(att.rules.stun),
                int(dfd.rules.stun),
            )
            for an, ac in a
            for dn, dc in d
        ],
        dtype=np.int64,
    )
    return np.ascontiguousarray(rows.T)


def radix_of(duel: Duel, n_att: int, n_def: int) -> np.ndarray:
    att, dfd = duel.fighters
    return np.array([3, n_att + 1, n_att + 1, n_def + 1, n_def + 1, att.wounds + 1, dfd.wounds + 1, 2, 2])


def _sides(rows: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """The positions of a layer split by the side to move (codes sort side 0 first)."""
    k = int(np.searchsorted(rows[S], 1))
    return [(0, rows[:, :k]), (1, rows[:, k:])]


@dataclass(frozen=True)
class Step:
    """Every move played by one side from the positions of a layer that side is to move in: the
    positions after them, which of them go on, and those (canonical) with their packed codes."""

    side: int
    children: Children
    going: np.ndarray  # (moves, n) bool: legal and the fight goes on
    canon: np.ndarray  # (9, going.sum()) canonical(children.rows[:, going])
    codes: np.ndarray  # (going.sum(),) encode(canon)


@dataclass(frozen=True)
class Reached:
    """A layer's positions (sorted by code), their codes, and each side's moves from them."""

    rows: np.ndarray
    codes: np.ndarray
    steps: list[Step]


def reachable(duel: Duel, starts: np.ndarray, radix: np.ndarray) -> dict[int, Reached]:
    """Every position reachable from ``starts`` where a side is to move, by layer (dice left),
    each layer's columns sorted by code, with every move's children (worked out here once, and
    reused by :func:`solve_layers`)."""
    starts = canonical(duel, starts[:, starts[S] != END])
    top = int(_dice(starts).max()) if starts.size else 0
    pending: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {n: [] for n in range(top + 1)}
    dice = _dice(starts)
    for n in range(top + 1):
        part = starts[:, dice == n]
        pending[n].append((part, encode(part, radix)))
    layers: dict[int, Reached] = {}
    for n in range(top, 0, -1):
        waiting = pending.pop(n)
        codes, first = np.unique(np.concatenate([c for _, c in waiting]), return_index=True)
        rows = np.concatenate([r for r, _ in waiting], axis=1)[:, first]
        steps = []
        for side, part in _sides(rows):
            if not part.shape[1]:
                continue
            ch = children(duel, part, side)
            going = ch.legal & (ch.rows[S] != END)
            kids = canonical(duel, ch.rows[:, going])
            kid_codes = encode(kids, radix)
            steps.append(Step(side, ch, going, kids, kid_codes))
            two = _dice(kids) == n - 2
            pending[n - 1].append((kids[:, ~two], kid_codes[~two]))
            if n >= 2:
                pending[n - 2].append((kids[:, two], kid_codes[two]))
        layers[n] = Reached(rows, codes, steps)
    return layers


def objective_radix(
    duel: Duel, keys_terms: list[list[tuple[int, int, int]]], n_att: int, n_def: int
) -> list[list[tuple[int, int, int]]]:
    """Per side, per key: (feature column of the end features, sign, how many values it takes)."""
    att, dfd = duel.fighters
    counts = [att.wounds + 1, dfd.wounds + 1, 2, 2, n_att + 1, n_def + 1]
    return [[(i, sign, counts[i]) for i, sign, _ in terms] for terms in keys_terms]


def packed_keys(end: np.ndarray, terms: list[tuple[int, int, int]]) -> np.ndarray:
    """One side's lexicographic keys of each fight's end (columns of ``end``), packed into one
    non-negative integer (a larger integer is exactly a lexicographically better key vector)."""
    wa, wd = end[0], end[1]
    feats = [wa, wd, (wa == 0).astype(np.int64), (wd == 0).astype(np.int64), end[2], end[3]]
    key = np.zeros(end.shape[1], dtype=np.int64)
    for i, sign, count in terms:
        key = key * count + (feats[i] if sign > 0 else count - 1 - feats[i])
    return key


def solve_layers(
    duel: Duel, starts: np.ndarray, radix: np.ndarray, terms: list[list[tuple[int, int, int]]]
) -> Layers:
    """Solve every position reachable from ``starts`` (see the module text): each side keeps, at
    each position, the first legal move (in :data:`MOVES` order) with the best packed keys."""
    layers = reachable(duel, starts, radix)
    solved = Layers(duel, radix, {}, {}, {})
    for n in sorted(layers):
        layer = layers[n]
        moves, ends = [], []
        for step in layer.steps:
            ch, going, side = step.children, step.going, step.side
            width = going.shape[1]
            end = np.zeros((4, *going.shape), dtype=np.int64)  # (4, moves, n)
            end[0], end[1] = ch.rows[WA], ch.rows[WD]
            if going.any():
                end[:, going] = solved.found(ch.rows[:, going], step.canon, step.codes, (n - 2, n - 1))
            end[2 + side, Move.STRIKE_CRIT] += 1
            key = packed_keys(end.reshape(4, -1), terms[side]).reshape(going.shape)
            best = np.argmax(np.where(ch.legal, key, -1), axis=0)  # ties: the earlier move
            moves.append(best.astype(np.int8))
            ends.append(end[:, best, np.arange(width)])
        solved.codes[n] = layer.codes
        solved.move[n] = np.concatenate(moves)
        solved.end[n] = np.concatenate(ends, axis=1)
    return solved


__all__ = [
    "END",
    "Layers",
    "canonical",
    "children",
    "encode",
    "objective_radix",
    "packed_keys",
    "radix_of",
    "solve_layers",
    "start_rows",
]
