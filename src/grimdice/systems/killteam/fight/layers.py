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
layer by layer, with ``numpy.unique``; every move from every position of a layer, either side to
move, played at once by :func:`played` and kept: :class:`Reached`), then solves the layers from
the last die up, reusing those children: their positions are looked up at once
(``numpy.searchsorted`` on packed codes) and each side keeps, per position, the first move in the
preference order (strike normal, strike critical, parry normal with normal, normal with critical,
critical with critical) with the best keys (one ``argmax`` over the moves). Each solved position
also points at the position its move leads to (:meth:`Layers.follow`).
The features of a fight's end are whole numbers, so each side's lexicographic keys are packed
into one integer and compared exactly (the solver of :mod:`grimdice.engine.game` compares them
with a tolerance that whole numbers never come within). Same positions, same moves, same
tie-break as ``expectimax`` on ``ResolutionState`` (tested), at a fraction of the cost.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from grimdice.systems.killteam.fight.state import Duel, Move

S, AN, AC, DN, DC, WA, WD, FA, FD = range(9)  # columns of a position row
END = 2  # "side to move" of a finished fight (only in children, never stored)
MOVES = tuple(Move)


@dataclass(frozen=True)
class Children:
    """The positions after each move (in :data:`MOVES` order) from each position of a layer."""

    legal: np.ndarray  # (moves, n) bool
    rows: np.ndarray  # (9, moves, n) the position after the move (side to move END when the fight ends)


#: per move (in :data:`MOVES` order): the dice it resolves, the mover's normal and critical hits
#: and the opponent's normal and critical hits (a strike spends one die; a parry one of each side)
SPENT = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [0, 1, 0, 1]], dtype=np.int64)
#: the dice columns of a position, the mover's first, with the defender to move
DEFENDER_FIRST = [DN, DC, AN, AC]


@dataclass
class Layers:
    """Every reachable position, solved, by layer (dice left): packed codes (sorted), the move
    chosen, and the fight's end from it ``(attacker wounds, defender wounds, critical strikes to
    come per side)`` as a (4, n) array; and for :meth:`follow`, the side to move and the position
    the chosen move leads to (its index in all the layers' positions in code order, -1 at the
    fight's end)."""

    duel: Duel
    radix: np.ndarray
    codes: dict[int, np.ndarray]
    move: dict[int, np.ndarray]
    end: dict[int, np.ndarray]
    side: dict[int, np.ndarray] = field(default_factory=dict)
    next: dict[int, np.ndarray] = field(default_factory=dict)
    _joined: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=dict, repr=False
    )
    _weights: np.ndarray | None = field(default=None, repr=False)

    def ends(self, rows: np.ndarray) -> np.ndarray:
        """The ends of positions (columns of ``rows``), every one solved (up to wounds that
        cannot be lost: see :func:`canonical`)."""
        if not rows.shape[1]:
            return np.zeros((4, 0), dtype=np.int64)
        canon = canonical(self.duel, rows)
        return self.found(rows, canon, self.weights @ canon)

    def found(
        self, rows: np.ndarray, canon: np.ndarray, want: np.ndarray, dice: tuple[int, int] | None = None
    ) -> np.ndarray:
        """:meth:`ends` of ``rows`` (none empty) given their canonical positions ``canon``, those
        positions' codes ``want`` (already worked out by :func:`reachable`) and, if known, the
        range of dice left ``(lo, hi)`` they lie within."""
        return self._found_at(rows, canon, want, dice or (min(self.codes), max(self.codes)))[0]

    def _found_at(
        self, rows: np.ndarray, canon: np.ndarray, want: np.ndarray, dice: tuple[int, int]
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`found`, and where the positions are in the layers ``dice`` sorted together."""
        codes, _, end = self._joined_for(dice)
        at = self._index(codes, want)
        out = end[:, at]  # a copy
        out[0] += rows[WA] - canon[WA]
        out[1] += rows[WD] - canon[WD]
        return out, at

    def moves(self, rows: np.ndarray) -> np.ndarray:
        """The moves chosen at positions (columns of ``rows``), every one solved."""
        if not rows.shape[1]:
            return np.zeros(0, dtype=np.int8)
        codes, move, _ = self._joined_for((min(self.codes), max(self.codes)))
        return move[self._index(codes, self.weights @ canonical(self.duel, rows))]

    def follow(self, rows: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """The solved play from positions (columns of ``rows``, every one solved and none ended),
        move by move: the columns still playing, the side to move and the move it chooses."""
        if not rows.shape[1]:
            return
        codes, _, _ = self._joined_for((min(self.codes), max(self.codes)))
        at = self._index(codes, self.weights @ canonical(self.duel, rows))
        layers = sorted(self.codes)
        side, move, after = (
            np.concatenate([t[n] for n in layers]) for t in (self.side, self.move, self.next)
        )
        origin = np.arange(at.size)
        while at.size:
            yield origin, side[at], move[at]
            at = after[at]
            origin, at = origin[at >= 0], at[at >= 0]

    @property
    def weights(self) -> np.ndarray:
        """:func:`place_values` of the radix."""
        if self._weights is None:
            self._weights = place_values(self.radix)
        return self._weights

    def _joined_for(self, dice: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The codes, moves and ends of the layers ``lo..hi`` (all solved) sorted together."""
        if dice not in self._joined:
            layers = [n for n in range(dice[0], dice[1] + 1) if n in self.codes]
            self._joined[dice] = (
                np.concatenate([self.codes[n] for n in layers]),
                np.concatenate([self.move[n] for n in layers]),
                np.concatenate([self.end[n] for n in layers], axis=1),
            )
        return self._joined[dice]

    @staticmethod
    def _index(codes: np.ndarray, want: np.ndarray) -> np.ndarray:
        idx = np.searchsorted(codes, want)
        if (codes.take(idx, mode="clip") != want).any():  # past the last code, or not a code
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
    contiguous and below the next layer's), then the columns in radix ``radix``."""
    return place_values(radix) @ rows


def place_values(radix: np.ndarray) -> np.ndarray:
    """The weight of each column in :func:`encode` (the dice left count in place ``prod(radix)``)."""
    place = np.cumprod(radix[::-1])[::-1]  # place[i] = prod(radix[i:])
    weights = np.append(place[1:], 1)
    weights[[AN, AC, DN, DC]] += place[0]
    return weights


def _dice(rows: np.ndarray) -> np.ndarray:
    return rows[AN] + rows[AC] + rows[DN] + rows[DC]


def children(duel: Duel, rows: np.ndarray) -> Children:
    """Every move played from every position of ``rows`` (either side to move) at once."""
    after, legal = played(duel, rows, np.arange(len(MOVES))[:, None])
    return Children(legal, after)


def played(duel: Duel, rows: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions after ``moves`` are played by the side to move in ``rows`` (columns; ``moves``
    broadcasts against them: one move per position, or ``(moves, 1)`` for every move from every
    position), the rules as in ``ResolutionState.apply``, and whether each is legal: a move is
    legal when the dice it resolves are held (Brutal: the opponent parries only with critical
    hits); a strike deals its damage (the fight ends when an operative is incapacitated), Stun
    discards one of the opponent's normal hits at the mover's first critical strike."""
    att, dfd = duel.fighters
    side = rows[S]
    by_defender = side == 1
    dice = np.where(by_defender, rows[DEFENDER_FIRST], rows[AN : DC + 1])  # mover n, c, opponent n, c
    dice = dice.reshape(4, *(1,) * (moves.ndim - 1), -1)  # broadcast against the moves
    spent = SPENT.T[:, moves]
    legal = (dice >= spent).all(axis=0)
    brutal = np.array([dfd.rules.brutal, att.rules.brutal])  # the mover's opponent is Brutal
    legal &= ~((moves == Move.PARRY_NORMAL) & brutal[side])
    left = dice - spent
    out = np.empty((9, *legal.shape), dtype=np.int64)
    out[FA], out[FD] = rows[FA], rows[FD]
    if att.rules.stun or dfd.rules.stun:  # the first critical strike discards a normal hit
        stun = np.array([att.rules.stun, dfd.rules.stun])[side] & (moves == Move.STRIKE_CRIT)
        stun &= np.where(by_defender, rows[FD], rows[FA]) > 0
        left[2] -= stun & (left[2] > 0)
        out[FA] &= ~(stun & ~by_defender)
        out[FD] &= ~(stun & by_defender)
    out[AN : DC + 1] = np.where(by_defender, left[[2, 3, 0, 1]], left)
    damage = np.zeros((2, len(MOVES)), dtype=np.int64)
    damage[:, Move.STRIKE_NORMAL] = att.normal_damage, dfd.normal_damage
    damage[:, Move.STRIKE_CRIT] = att.critical_damage, dfd.critical_damage
    dealt = damage[side, moves]
    wounds = np.maximum(np.where(by_defender, rows[WA], rows[WD]) - dealt, 0)  # the opponent's
    out[WA] = np.where(by_defender, wounds, rows[WA])
    out[WD] = np.where(by_defender, rows[WD], wounds)
    alive = (wounds > 0) | (dealt == 0)
    mine, theirs = left[0] + left[1], left[2] + left[3]
    out[S] = np.where(alive & (theirs > 0), 1 - side, np.where(alive & (mine > 0), side, END))
    return out, legal


def start_rows(duel: Duel, n_att: int, n_def: int) -> np.ndarray:
    """The first position (columns) of every pair of retained dice ``(an, ac)``, ``(dn, dc)``
    within the bounds, in the order of ``hit_pairs`` for each side (the attacker's outer); a pair
    where neither side holds a die gets side to move END."""
    att, dfd = duel.fighters
    a = np.nonzero(np.add.outer(np.arange(n_att + 1), np.arange(n_att + 1)) <= n_att)  # (normal, critical)
    d = np.nonzero(np.add.outer(np.arange(n_def + 1), np.arange(n_def + 1)) <= n_def)
    rows = np.zeros((9, a[0].size * d[0].size), dtype=np.int64)
    rows[AN], rows[AC] = (np.repeat(x, d[0].size) for x in a)
    rows[DN], rows[DC] = (np.tile(x, a[0].size) for x in d)
    rows[S] = np.where(rows[AN] + rows[AC] > 0, 0, np.where(rows[DN] + rows[DC] > 0, 1, END))
    rows[WA], rows[WD], rows[FA], rows[FD] = att.wounds, dfd.wounds, att.rules.stun, dfd.rules.stun
    return rows


def radix_of(duel: Duel, n_att: int, n_def: int) -> np.ndarray:
    att, dfd = duel.fighters
    return np.array([3, n_att + 1, n_att + 1, n_def + 1, n_def + 1, att.wounds + 1, dfd.wounds + 1, 2, 2])


@dataclass(frozen=True)
class Reached:
    """A layer's positions (sorted by code: those with the attacker to move first, ``split`` of
    them), their codes, every move from each of them (:class:`Children`, in the positions' order),
    which children go on, and those (canonical) with their packed codes."""

    rows: np.ndarray
    codes: np.ndarray
    split: int
    children: Children
    going: np.ndarray  # (moves, n) bool: legal and the fight goes on
    canon: np.ndarray  # (9, going.sum()) canonical(children.rows[:, going])
    kid_codes: np.ndarray  # (going.sum(),) encode(canon)


def reachable(duel: Duel, starts: np.ndarray, radix: np.ndarray) -> dict[int, Reached]:
    """Every position reachable from ``starts`` where a side is to move, by layer (dice left),
    each layer's columns sorted by code, with every move's children (worked out here once, and
    reused by :func:`solve_layers`)."""
    weights = place_values(radix)
    starts = canonical(duel, starts[:, starts[S] != END])
    top = int(_dice(starts).max()) if starts.size else 0
    pending: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {n: [] for n in range(top + 1)}
    dice = _dice(starts)
    for n in range(top + 1):
        part = starts[:, dice == n]
        pending[n].append((part, weights @ part))
    layers: dict[int, Reached] = {}
    for n in range(top, 0, -1):
        waiting = pending.pop(n)
        codes, first = np.unique(np.concatenate([c for _, c in waiting]), return_index=True)
        rows = np.concatenate([r for r, _ in waiting], axis=1)[:, first]
        k = int(np.searchsorted(rows[S], 1))  # codes sort the attacker to move first
        ch = children(duel, rows)
        going = ch.legal & (ch.rows[S] != END)
        kids = canonical(duel, ch.rows[:, going])
        kid_codes = weights @ kids
        layers[n] = Reached(rows, codes, k, ch, going, kids, kid_codes)
        two = _dice(kids) == n - 2
        pending[n - 1].append((kids[:, ~two], kid_codes[~two]))
        if n >= 2:
            pending[n - 2].append((kids[:, two], kid_codes[two]))
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
    weights, offset = key_weights(terms)
    return weights @ end_features(end) + offset


def key_weights(terms: list[tuple[int, int, int]]) -> tuple[np.ndarray, int]:
    """:func:`packed_keys` as one product: each key is a digit ``feature`` (or ``count - 1 -
    feature`` for a negated key) in place ``prod`` of the later keys' counts; the weights of the
    :func:`end_features` and the offset of the negated digits."""
    weights = np.zeros(6, dtype=np.int64)
    offset, place = 0, 1
    for i, sign, count in reversed(terms):
        weights[i] += sign * place
        offset += 0 if sign > 0 else (count - 1) * place
        place *= count
    return weights, offset


def end_features(end: np.ndarray) -> np.ndarray:
    """The features of fights' ends (columns of ``end``): wounds left, incapacitated (attacker,
    defender), critical strikes (attacker, defender)."""
    wa, wd = end[0], end[1]
    return np.stack([wa, wd, wa == 0, wd == 0, end[2], end[3]])


def solve_layers(
    duel: Duel, starts: np.ndarray, radix: np.ndarray, terms: list[list[tuple[int, int, int]]]
) -> Layers:
    """Solve every position reachable from ``starts`` (see the module text): each side keeps, at
    each position, the first legal move (in :data:`MOVES` order) with the best packed keys."""
    layers = reachable(duel, starts, radix)
    solved = Layers(duel, radix, {}, {}, {})
    attacker, defender = key_weights(terms[0]), key_weights(terms[1])
    first: dict[int, int] = {}  # each layer's first position in all the layers' positions
    solved_so_far = 0
    for n in sorted(layers):
        layer = layers[n]
        first[n], solved_so_far = solved_so_far, solved_so_far + layer.codes.size
        ch, going, k = layer.children, layer.going, layer.split
        end = np.zeros((4, *going.shape), dtype=np.int64)  # (4, moves, n)
        end[0], end[1] = ch.rows[WA], ch.rows[WD]
        child = np.full(going.shape, -1, dtype=np.int64)
        if going.any():
            below = (n - 2, n - 1)
            end[:, going], at = solved._found_at(ch.rows[:, going], layer.canon, layer.kid_codes, below)
            child[going] = at + min(first[m] for m in below if m in first)  # the layers below, in order
        end[2, Move.STRIKE_CRIT, :k] += 1  # the mover's critical strike
        end[3, Move.STRIKE_CRIT, k:] += 1
        feats = end_features(end.reshape(4, -1))
        by = [(w @ feats).reshape(going.shape) + offset for w, offset in (attacker, defender)]
        key = np.where(np.arange(going.shape[1]) < k, *by)  # each side maximises its own keys
        best = np.argmax(np.where(ch.legal, key, -1), axis=0)  # ties: the earlier move
        cols = np.arange(best.size)
        solved.codes[n] = layer.codes
        solved.move[n] = best.astype(np.int8)
        solved.end[n] = end[:, best, cols]
        solved.side[n] = layer.rows[S]
        solved.next[n] = child[best, cols]
    return solved


__all__ = [
    "END",
    "Layers",
    "canonical",
    "children",
    "encode",
    "end_features",
    "key_weights",
    "objective_radix",
    "packed_keys",
    "place_values",
    "played",
    "radix_of",
    "solve_layers",
    "start_rows",
]
