"""Units and armies of One Page 40k v2.21 as the game's state: validated specs -> resolved units.

"In the rules individual miniatures are referred to as "models", whilst groups of one or more
models are referred to as "units"." A :class:`Unit` is a fixed profile (its model groups, Quality,
rules); a :class:`UnitState` is what changes in play (models alive per group, wounds accumulated on
Tough models, pinned, routed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from itertools import permutations
from typing import Any, TypeVar

from grimdice.systems.onepage.weapons import Weapon

SPECIAL = ("monster", "walker", "vehicle")
#: "Monsters always have the Armored, Fear and Relentless special rules." / "Walkers always have the
#: Armored and Relentless special rules" / "Vehicles always have the Armored and Relentless special rules"
INNATE = {
    "monster": ("armored", "fear", "relentless"),
    "walker": ("armored", "relentless"),
    "vehicle": ("armored", "relentless"),
}


@dataclass(frozen=True)
class Group:
    """Identical models of a unit: how many, Tough value, weapons, points per model."""

    name: str
    count: int
    tough: int
    weapons: tuple[Weapon, ...]
    armored: bool
    hero: bool = False
    points: float = 1.0

    @property
    def melee_attacks(self) -> int:
        return sum(w.attacks for w in self.weapons if w.melee)


@dataclass(frozen=True)
class Unit:
    """A unit profile: groups of models (a joined Hero is its own group), Quality and rules."""

    name: str
    quality: int
    groups: tuple[Group, ...]
    rules: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    cost: int = 0
    started_with: int = 0
    casualty_order: str = "optimal"  # Tough(X) with a joined Hero: optimal, hero first, regulars first

    def has(self, rule: str) -> bool:
        return bool(self.rules.get(rule))

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the engine's memos (:func:`memo`): they are rebuilt where the unit lands."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith(MEMO_PREFIX)}

    @cached_property
    def size(self) -> int:
        """Models in the unit, counted once (units are immutable)."""
        return sum(g.count for g in self.groups)

    @cached_property
    def kind(self) -> str:
        """ "Any unit that is not Special (Monsters, Vehicles and Walkers) counts as Infantry." Found
        once (units are immutable)."""
        return next((k for k in SPECIAL if self.has(k)), "infantry")

    @property
    def rolls_vehicle_damage(self) -> bool:
        """Rolls on the Vehicle damage table when wounded: Vehicles, and Walkers, which "follow the
        Vehicle damage rules when taking wounds"."""
        return self.kind in ("vehicle", "walker")

    @property
    def armored(self) -> bool:
        """Armored: "If a unit with this special rule joins a unit without this special rule, you may
        only apply this special rule if at least half of the models in the unit have it." """
        return 2 * sum(g.count for g in self.groups if g.armored) >= self.size

    def initial(self, damage: int = 0) -> UnitState:
        s = UnitState(tuple(g.count for g in self.groups), tuple(0 for _ in self.groups))
        return s if not damage else wound(self, s, damage, self.removal_orders()[0])

    def removal_orders(self) -> list[tuple[int, ...]]:
        """:attr:`all_orders` as a list (computed once per unit)."""
        return list(self.all_orders)

    @cached_property
    def all_orders(self) -> tuple[tuple[int, ...], ...]:
        """Every order in which the defender may remove models ("The defender may remove the models in
        any order"): any order of the regular groups (up to 5 groups; beyond, the fewest melee attacks
        first), a joined Hero/Psyker either first or last — Tough: "you must either accumulate wounds
        on the unit with this special rule first until it is killed, or remove regular models as
        casualties before starting to accumulate wounds on the unit with this special rule". The first
        order (a joined Hero first, then the regular groups with the fewest melee attacks first) is
        the one used where no choice is solved (a unit's starting ``damage``). ``casualty_order``
        (the scenario's ``*_casualty_order``) keeps only the hero-first or the regulars-first orders.

        Whole groups in some order are enough: models of a group are identical, and for an objective
        that adds up per model (points, expected wounds struck back) the best removal kills the
        least valuable group first, which one of these orders does."""
        regular = sorted(
            (i for i, g in enumerate(self.groups) if not g.hero),
            key=lambda i: (self.groups[i].melee_attacks, i),
        )
        heroes = [i for i, g in enumerate(self.groups) if g.hero]
        regs = list(permutations(regular)) if len(regular) <= 5 else [tuple(regular)]
        if not heroes:
            return tuple(regs)
        if not regular:
            return tuple(tuple(p) for p in permutations(heroes))
        out = []
        for r in regs:
            if self.casualty_order != "regulars first":
                out += [tuple(p) + r for p in permutations(heroes)]
            if self.casualty_order != "hero first":
                out.append(r + tuple(heroes))
        return tuple(out)


@dataclass(frozen=True)
class UnitState:
    """The state of a unit in play: models alive and wounds on the damaged Tough model per group."""

    alive: tuple[int, ...]
    damage: tuple[int, ...]
    pinned: bool = False
    routed: bool = False
    shaken: bool = False  # Vehicle damage table: "must re-roll successful hits"
    immobile: bool = False  # "may not move or pivot until the end of the game"

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in ("_hash", "models")}

    def __hash__(self) -> int:
        """The dataclass hash (of the fields' tuple), computed once: states key every table of the
        exact engine and the game's memos."""
        try:
            return self._hash  # type: ignore[attr-defined]
        except AttributeError:
            h = hash((self.alive, self.damage, self.pinned, self.routed, self.shaken, self.immobile))
            object.__setattr__(self, "_hash", h)
            return h

    @cached_property
    def models(self) -> int:
        """Models in play (none once Routed), counted once: the game asks it of every unit at every
        step."""
        return 0 if self.routed else sum(self.alive)

    @property
    def destroyed(self) -> bool:
        return self.models == 0


#: entries a unit's memo (:func:`memo`) keeps before it starts again (small answers: states, values)
MEMO_LIMIT = 50_000
#: the same for large answers (a strike's outcome table, tens to hundreds of entries)
TABLES_KEPT = 1_000
MEMO_PREFIX = "_memo_"

T = TypeVar("T")


_MEMOS_ON = [True]


@contextmanager
def memos_off() -> Iterator[None]:
    """Within the block every :func:`memo` starts empty at every call (answers computed afresh): the
    reference the tests and benchmarks compare the memoised engine with."""
    saved = _MEMOS_ON[0]
    _MEMOS_ON[0] = False
    try:
        yield
    finally:
        _MEMOS_ON[0] = saved


def kept(owner: Any, attr: str, limit: int) -> dict[Any, Any]:
    """The dict kept in ``owner.__dict__[attr]`` (created on first use, emptied when it reaches
    ``limit`` entries): the store of every bounded memo of the engine and the game."""
    d: dict[Any, Any] | None = owner.__dict__.get(attr)
    if d is None or len(d) >= limit:
        d = owner.__dict__[attr] = {}
    return d


def answer(memo: dict[Any, Any], key: Any, compute: Callable[[], T]) -> T:
    """``memo[key]``, computed by ``compute()`` and kept the first time it is asked."""
    hit: T | None = memo.get(key)
    if hit is None:
        hit = memo[key] = compute()
    return hit


def memo(unit: Unit, name: str, limit: int | None = None) -> dict[Any, Any]:
    """A get-or-compute memo kept on ``unit`` (units are immutable, so an answer computed from a unit
    and hashable arguments stays right for the unit's life), emptied when it reaches ``limit``
    entries (default :data:`MEMO_LIMIT`; less for large answers). Keyed by the unit object itself:
    two units that compare equal but differ in their rules (not compared) never share answers."""
    if not _MEMOS_ON[0]:
        return {}
    return kept(unit, MEMO_PREFIX + name, MEMO_LIMIT if limit is None else limit)


def recall(unit: Unit, name: str, key: Any, compute: Callable[[], T], limit: int | None = None) -> T:
    """The answer kept for ``key`` in ``unit``'s memo ``name`` (:func:`memo`), computed the first time
    (the memo read straight from the unit while it has room: the exact engine asks at every step)."""
    d: dict[Any, Any] | None = unit.__dict__.get(_ATTR.get(name) or _attr(name))
    if d is None or not _MEMOS_ON[0] or len(d) >= (MEMO_LIMIT if limit is None else limit):
        d = memo(unit, name, limit)
    hit: T | None = d.get(key)
    if hit is None:
        hit = d[key] = compute()
    return hit


_ATTR: dict[str, str] = {}  # memo name -> attribute that holds it


def _attr(name: str) -> str:
    a = _ATTR[name] = MEMO_PREFIX + name
    return a


def wound(
    unit: Unit, state: UnitState, wounds: int, order: Sequence[int], *, single: bool = False
) -> UnitState:
    """:func:`remove_casualties`, memoised per unit."""
    key = (state, wounds, order if isinstance(order, tuple) else tuple(order), single)
    return recall(unit, "wound", key, lambda: remove_casualties(unit, state, wounds, order, single=single))


def remove_casualties(
    unit: Unit, state: UnitState, wounds: int, order: Sequence[int], *, single: bool = False
) -> UnitState:
    """Remove casualties for ``wounds`` in removal ``order``.

    Tough(X): "Models with this special rule must accumulate X wounds before being removed as a
    casualty." ... "you must first accumulate them on a single model until it is killed before you
    start accumulating them on another model." A group with a damaged model is finished first.
    ``single``: the "x" rule, "all their wounds must be assigned to a single model" (excess lost).
    """
    alive, damage = list(state.alive), list(state.damage)
    seq = [g for g in range(len(alive)) if damage[g] and alive[g]] + [
        g for g in order if not (damage[g] and alive[g])
    ]
    for g in seq:
        if wounds <= 0:
            break
        if not alive[g]:
            continue
        tough = unit.groups[g].tough
        if single:
            need = tough - damage[g]
            if wounds >= need:
                alive[g] -= 1
                damage[g] = 0
            else:
                damage[g] += wounds
            break
        acc = damage[g] + wounds  # wounds on this group, the damaged model first
        killed = min(alive[g], acc // tough)
        alive[g] -= killed
        wounds = acc - killed * tough
        damage[g] = 0
        if alive[g]:
            damage[g], wounds = wounds, 0
    return UnitState(tuple(alive), tuple(damage), state.pinned, state.routed, state.shaken, state.immobile)


def value(unit: Unit, state: UnitState) -> tuple[float, float]:
    """What the defender keeps: points alive, then the fewest accumulated wounds (as a fraction);
    memoised per unit."""
    return recall(unit, "value", state, lambda: _value(unit, state))


def _value(unit: Unit, state: UnitState) -> tuple[float, float]:
    if state.routed:
        return (0.0, 0.0)
    pts = sum(a * g.points for a, g in zip(state.alive, unit.groups, strict=True))
    dmg = sum(d / g.tough * g.points for d, g in zip(state.damage, unit.groups, strict=True))
    return (pts, -dmg)


@dataclass(frozen=True)
class Removal:
    """The defender's objective when removing casualties (reading ``casualty_order``).

    ``worth``: per model of each group, the expected wounds it strikes back in melee. ``strike_back``:
    the unit still strikes after removing (it was struck first), so it keeps the most expected return
    wounds first (combat resolution counts wounds), then the most points; otherwise the most points
    first, then the most return wounds; last, the fewest accumulated wounds."""

    worth: tuple[float, ...]
    strike_back: bool = False
    placed: int | None = None  # models within 2" of the enemy (None: all), the first alive listed

    def key(self, unit: Unit, state: UnitState) -> tuple[float, float, float]:
        pts, dmg = value(unit, state)
        w, left = 0.0, self.placed if self.placed is not None else state.models
        for a, x in zip(state.alive, self.worth, strict=True):
            k = min(a, left)
            w, left = w + k * x, left - k
        w = 0.0 if state.routed else w
        return (w, pts, dmg) if self.strike_back else (pts, w, dmg)

    @property
    def objective(self) -> str:
        return "most return wounds, then points" if self.strike_back else "most points, then return wounds"


def default_removal(unit: Unit) -> Removal:
    """Worth per model = its melee attacks (when the enemy is unknown)."""
    return Removal(tuple(float(g.melee_attacks) for g in unit.groups))


def choose_order(
    unit: Unit, state: UnitState, wounds: int, removal: Removal | None = None
) -> tuple[int, ...]:
    """The defender's removal order for ``wounds``: the legal order (:meth:`Unit.removal_orders`)
    best for ``removal``'s objective (default :func:`default_removal`); the first listed on ties."""
    return best_removal(unit, state, wounds, removal)[0]


def best_removal(
    unit: Unit, state: UnitState, wounds: int, removal: Removal | None = None
) -> tuple[tuple[int, ...], UnitState]:
    """:func:`choose_order` and the state it leaves (memoised per unit)."""
    return recall(
        unit, "removal", (state, wounds, removal), lambda: _best_removal(unit, state, wounds, removal)
    )


def _best_removal(
    unit: Unit, state: UnitState, wounds: int, removal: Removal | None
) -> tuple[tuple[int, ...], UnitState]:
    orders = unit.all_orders
    if len(orders) == 1:
        return orders[0], wound(unit, state, wounds, orders[0])
    r = removal or default_removal(unit)
    best: tuple[tuple[int, ...], UnitState] | None = None
    best_key = None
    seen: set[UnitState] = set()
    for o in orders:
        s = wound(unit, state, wounds, o)
        if s in seen:  # the same state as an earlier order: the same key, and the first wins ties
            continue
        seen.add(s)
        k = r.key(unit, s)
        if best_key is None or k > best_key:
            best, best_key = (o, s), k
    assert best is not None
    return best


def encode(unit: Unit, s: UnitState) -> int:
    """A unit state as one non-negative integer (mixed radix), for Monte Carlo tallies."""
    code = 0
    for g, a, d in zip(unit.groups, s.alive, s.damage, strict=True):
        code = (code * (g.count + 1) + a) * g.tough + d
    for f in (s.pinned, s.routed, s.shaken, s.immobile):
        code = code * 2 + int(f)
    return code


def decode(unit: Unit, code: int) -> UnitState:
    flags = []
    for _ in range(4):
        code, f = divmod(code, 2)
        flags.append(bool(f))
    immobile, shaken, routed, pinned = flags
    alive, damage = [], []
    for g in reversed(unit.groups):
        code, d = divmod(code, g.tough)
        code, a = divmod(code, g.count + 1)
        alive.append(a)
        damage.append(d)
    return UnitState(tuple(reversed(alive)), tuple(reversed(damage)), pinned, routed, shaken, immobile)


__all__ = [
    "INNATE",
    "SPECIAL",
    "TABLES_KEPT",
    "Group",
    "Removal",
    "Unit",
    "UnitState",
    "answer",
    "best_removal",
    "choose_order",
    "decode",
    "default_removal",
    "encode",
    "kept",
    "memo",
    "memos_off",
    "recall",
    "value",
    "wound",
]
