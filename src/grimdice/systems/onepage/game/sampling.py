"""A legal action drawn directly, without listing every legal action: the random player's draw
(:meth:`GameState.random_action`, the game layer's ``random_action(rng)`` hook, see
:func:`grimdice.engine.playing.random_bot`).

The draw, in each kind of decision:

* **Activation** (``play``): one of the player's ready units, uniformly; then one of the kinds of
  action that unit has (Hold, Walk, Run, Assault, Embark; for an embarked unit: stay inside,
  disembark, assault out of it; a Pinned unit has only Idle), uniformly among the kinds with at
  least one legal instance; then one instance of that kind, uniformly (a Walk's or Run's distinct
  moves, its two-leg moves and changes of shape among them (``legs.py``, ``shapes.py``), an
  Assault's targets (two-leg paths among them, ``charge_legs.py``), an Embark's
  transports). Only the drawn unit's drawn kind is built: a kind found empty is dropped and
  another drawn, so every kind drawn has an instance. A Walk's or Run's changes of shape, then
  its two-leg moves, come last and are searched only when the game's stream cannot tell that its
  next draw picks a one-leg move whatever they add (:class:`Partial`, ``Stream.agreed_index``): the
  same draw. An Assault's targets in reach are searched the same way, one target after another
  (:func:`assault_draw`): a target's path search runs only when the draw may need it.
* **Deployment** (``deploy``, ``scout``): one of the player's units still to deploy, uniformly;
  then one of its kinds of choice (a place in its zone, a Scout's place anywhere, the reserve, a
  transport), uniformly among those it has; then one instance. A unit without a choice is dropped.
* **Shooting** (``shoot``): one of its kinds of choice uniformly: no shot, one target (the target
  uniformly among the valid ones, found by drawing enemy units in turn until one is valid, then
  with or without its Limited weapons), or a Relentless unit's split of its fire (then one split
  uniformly).
* **Every other decision** (the table side, consolidation, a Deep Strike arrival's place or
  scatter): uniformly among the legal actions.

So the random player is not uniform over all legal actions: a unit with many moves is drawn as
often as one that may only Hold, and its Walk as often as its Hold. Every action drawn is one of
``legal_actions()`` (the game layer's conformance check verifies it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.table.blocks import EPS
from grimdice.systems.onepage.game import deployment, facing, firing, legs, moving, shapes, transport
from grimdice.systems.onepage.movement import move_distance

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

Builder = Callable[[], "list[list[Any]] | Partial"]


def pick(items: list[Any], rng: np.random.Generator) -> Any:
    """One of ``items``, uniformly (one draw from ``rng``)."""
    return items[int(rng.integers(len(items)))]


class Partial:
    """A kind's instances drawn without building them all: the first instances, then searches
    each adding at most one more (``steps``, called in order); :meth:`draw` runs a search only when
    the draw may need what it finds, and keeps what the searches found (``found``: the instances
    known so far, the searches run being dropped from ``steps``)."""

    def __init__(
        self,
        first: list[list[Any]],
        steps: list[Callable[[], list[list[Any]]]],
        later: tuple[int, Callable[[], list[Callable[[], list[list[Any]]]]]] | None = None,
    ) -> None:
        self.found = list(first)
        self.steps = list(steps)
        self.later = later  # (at most how many, the builder of) searches listed only when needed

    def draw(self, rng: np.random.Generator) -> list[Any] | None:
        """The instance drawn uniformly among all (None when there is none): while searches are
        left, when the stream's next draw picks the same instance among the ``k`` found as among
        any count up to ``k`` plus the searches left (``Stream.agreed_index``), that one of the
        found, the same draw either way; else the next search is run. Searches given ``later``
        are listed only when the draw agrees for no count up to ``k`` plus the most they may be
        (a wider range: when it agrees, it agrees for their own count too)."""
        got = self.found
        if self.later is not None:
            most, build = self.later
            if most and (hit := self._agreed(rng, len(self.steps) + most)) is not None:
                return hit
            self.steps += build()
            self.later = None
        steps = self.steps
        while steps:
            if (hit := self._agreed(rng, len(steps))) is not None:
                return hit
            got += steps.pop(0)()
        return list(pick(got, rng)) if got else None

    def _agreed(self, rng: np.random.Generator, more: int) -> list[Any] | None:
        """The instance of the ``k`` found that the stream's next draw picks whatever up to ``more``
        further instances add (``Stream.agreed_index``), that draw made; None when the stream
        cannot tell (or is not a game stream, or fewer than two are found)."""
        got = self.found
        agreed = getattr(rng, "agreed_index", None)
        if agreed is None or len(got) < 2:
            return None
        i = agreed(len(got), len(got) + more)
        if i is None:
            return None
        rng.integers(len(got))
        return list(got[i])


def first_found(options: Sequence[Builder], rng: np.random.Generator) -> list[Any] | None:
    """An instance of one of ``options`` (each builds its kind's instances when called): a kind
    drawn uniformly among those left, dropped when it has none, then one of its instances (a
    :class:`Partial` kind drawn by its :meth:`~Partial.draw`)."""
    left = list(options)
    while left:
        got = left.pop(int(rng.integers(len(left))))()
        if isinstance(got, Partial):
            found = got.draw(rng)
            if found is not None:
                return found
        elif got:
            return list(pick(got, rng))
    return None


def random_action(s: GameState, rng: np.random.Generator) -> list[Any]:
    """A legal action of the player to act, drawn as the module text says."""
    if s.phase == "play":
        return _drawn(s, s.ready(s.player), lambda u: unit_kinds(s, u), rng)
    if s.phase in deployment.ARMY_PHASES:
        mine = [u for u in s.todo if s.setup.owner[u] == s.player]
        return _drawn(s, mine, lambda u: deployment.choice_kinds(s, u), rng)
    if s.phase == "shoot":
        got = first_found(shot_kinds(s, rng), rng)
        if got is not None:
            return got
    return list(pick(s.legal_actions(), rng))


def shot_kinds(s: GameState, rng: np.random.Generator) -> list[Builder]:
    """The active unit's kinds of shooting choice, as :meth:`GameState.legal_actions` lists them:
    no shot; one target (drawn uniformly among the valid ones: enemies drawn in turn until one is
    valid), fired with or without its Limited weapons; and, for a Relentless unit on Hold with two
    weapon profiles or more, a split of its fire (``firing.split_actions``)."""
    u = s.active

    def one_target() -> list[list[Any]]:
        left = s.enemies(u)
        while left:
            t = left.pop(int(rng.integers(len(left))))
            if s.valid_target(u, t):
                return firing.shoot_actions(s, u, [t])
        return []

    out: list[Builder] = [lambda: [["shoot", -1]], one_target]
    if len(firing.split_weapons(s, u, s.action)) >= 2:
        out.append(lambda: firing.split_actions(s, u, s.valid_targets(u), s.action))
    return out


def _drawn(
    s: GameState, units: list[int], kinds: Callable[[int], Sequence[Builder]], rng: np.random.Generator
) -> list[Any]:
    """A unit of ``units`` drawn uniformly, dropped when none of its ``kinds`` has an instance."""
    left = list(units)
    while left:
        got = first_found(kinds(left.pop(int(rng.integers(len(left))))), rng)
        if got is not None:
            return got
    raise ValueError(f"no legal action in phase {s.phase!r}")


def of_kind(acts: list[list[Any]], kind: str) -> list[list[Any]]:
    """The actions of ``acts`` of one ``kind`` (their first element)."""
    return [a for a in acts if a[0] == kind]


def unit_kinds(s: GameState, u: int) -> list[Builder]:
    """Unit ``u``'s kinds of activation, each as the builder of its instances (a Walk's and a Run's
    as a :class:`Partial` whose searches find the two-leg ones as they are drawn; the same instances,
    in the same order, as :meth:`GameState.unit_actions` lists)."""
    st = s.units[u]
    if st.pinned:
        return [lambda: [["idle", u]]]
    if not s.on_table(u):  # embarked: each kind among its few actions
        acts = transport.embarked_actions(s, u)
        return [partial(of_kind, acts, k) for k in dict.fromkeys(a[0] for a in acts)]
    hold: list[Builder] = [lambda: [["hold", u]]]
    if st.immobile:
        return hold
    return [
        *hold,
        lambda: move_draw(s, u, "walk"),
        lambda: move_draw(s, u, "run"),
        lambda: assault_draw(s, u),
        lambda: transport.embark_actions(s, u),
    ]


def move_actions(
    s: GameState, u: int, kind: str, moves: list[tuple[float, float]] | None = None
) -> list[list[Any]]:
    """Unit ``u``'s Walk or Run actions (``kind``): its block's candidate ``moves`` (computed when
    None: :meth:`GameState.moves`) a Vehicle may make (``facing.allowed``), then its changes of
    shape (``shapes.shape_actions``), then its two-leg moves round what blocks its straight lines
    (``legs.two_leg_moves``)."""
    full = move_distance(s.setup.units[u], kind)
    found = s.moves(u, kind, full) if moves is None else moves
    ones = facing.allowed(s, u, full, found)
    out: list[list[Any]] = [[kind, u, dx, dy] for dx, dy in ones] + shapes.shape_actions(s, u, kind, ones)
    return out + [[kind, u, dx, dy, wx, wy] for dx, dy, wx, wy in legs.two_leg_moves(s, u, kind, ones)]


def move_draw(s: GameState, u: int, kind: str) -> Partial:
    """:func:`move_actions` as the random player draws from them: its one-leg moves, then one search
    per direction of its changes of shape (``shapes.searches``: one compiled check per length, so
    first) and one per goal of its two-leg moves (``legs.searches``), run only when the draw needs
    them."""
    full = move_distance(s.setup.units[u], kind)
    ones = facing.allowed(s, u, full, s.moves(u, kind, full))
    first: list[list[Any]] = [[kind, u, dx, dy] for dx, dy in ones]

    def step(search: Callable[[], list[legs.Leg]]) -> list[list[Any]]:
        return [[kind, u, *leg] for leg in search()]

    def searches() -> list[Callable[[], list[list[Any]]]]:
        goals = [partial(step, search) for search in legs.searches(s, u, kind, ones)]
        return shapes.searches(s, u, kind, ones) + goals

    return Partial(first, [], (legs.most_searches(s, u) + shapes.most_searches(s, u), searches))


def assault_actions(s: GameState, u: int) -> list[list[Any]]:
    """Unit ``u``'s Assault actions: every enemy unit on the table within its Assault distance with
    a valid charge (:meth:`GameState.charge_ok`; a Vehicle's facing, ``facing.charge_allowed``);
    ``["assault", u, t, wx, wy]`` where the path goes in two legs (``charge_legs.py``)."""
    return [a for t in in_reach(s, u) for a in assault_at(s, u, t)]


def assault_draw(s: GameState, u: int) -> Partial:
    """:func:`assault_actions` as the random player draws from them: one search per enemy unit in
    reach (:func:`assault_at`, in the same order), each run only when the draw needs it (its
    path search is the costly part)."""
    return Partial([], [partial(assault_at, s, u, t) for t in in_reach(s, u)])


def in_reach(s: GameState, u: int) -> list[int]:
    """The enemy units on the table within unit ``u``'s Assault distance (its gap to them), in
    :meth:`GameState.standing`'s order: the Assault's possible targets."""
    reach = move_distance(s.setup.units[u], "assault")
    on = s.standing()
    gaps = s.gaps(u)[1]
    return [t for t in on.sides[1 - s.setup.owner[u]] if gaps[on.at[t]] <= reach + EPS]


def assault_at(s: GameState, u: int, t: int) -> list[list[Any]]:
    """Unit ``u``'s Assault action on ``t`` (in reach) as a list: empty when the charge is not
    valid (no clear path, or a Vehicle's facing forbids it)."""
    if not (s.charge_ok(u, t) and facing.charge_allowed(s, u, t)):
        return []
    return [["assault", u, t, *(moving.charge_leg(s, u, t) or ())]]


__all__ = [
    "Partial",
    "assault_actions",
    "assault_draw",
    "move_actions",
    "move_draw",
    "random_action",
    "shot_kinds",
    "unit_kinds",
]
