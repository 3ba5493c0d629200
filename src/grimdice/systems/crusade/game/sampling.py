"""The random player's draw (``GameState.random_action``): a legal action drawn without listing
every legal action.

The distribution (ours, a property of the random player): the legal actions are grouped by
**kind**, the action's name (``"shoot"``, ``"melee"``, ``"reload"``, ``"end"`` ...), except that
every step of the board (``move``, ``jump``, ``fall``, ``hang``, ``scrabble``, ``ladder``,
``fly``, ``manhole``, ``open``, ``close``) is one kind, :data:`STEP`, and every attack at a
building's sector, a barricade or a catwalk (VI: ``shoot_sector``, ``melee_sector``,
``shoot_piece``, ``melee_piece``) is one kind, :data:`STRUCTURE`; a kind is drawn uniformly
among the kinds present, then one of its distinct actions uniformly. So a model ends its
activation, steps, shoots at a model, attacks a wall or hides about as often as each other,
whatever the number of places it may step to or targets it may shoot at.

In an ordinary decision of the active model in its own turn (no question put to a player, no
INFILTRATE placing, no HORROR's last attack, not MINDLESS) only the kinds drawn are built: a
kind is drawn among those the model may have, its actions built (the same rules' functions as
:func:`.choices.legal_actions`), and a kind found empty is dropped and another drawn. Any other
decision draws from the grouped :func:`.choices.legal_actions`. Both give the distribution above;
``tests/crusade_game/test_sampling.py`` checks that the kinds built are exactly the legal actions.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any

import numpy as np

from grimdice.systems.crusade.game import choices as c
from grimdice.systems.crusade.game import climb, deck, infiltrate, moves
from grimdice.systems.crusade.game.activation import activatable, mindless_profile
from grimdice.systems.crusade.game.choices import Decision
from grimdice.systems.crusade.game.items import has_items
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, has_code

Action = tuple[Any, ...]
#: the kind of every board step
STEP = "step"
STEP_NAMES = frozenset((*moves.STEPS, *climb.CLIMBS, "open", "close"))
#: the kind of every attack at a sector, a barricade or a catwalk (VI)
STRUCTURE = "structure"
STRUCTURE_NAMES = frozenset(("shoot_sector", "melee_sector", "shoot_piece", "melee_piece"))
#: a source of actions: the kinds it may give, and the builder (:mod:`.choices`) that builds them
Source = tuple[tuple[str, ...], Callable[[Decision], list[Action]]]


def kind_of(a: Action) -> str:
    """The kind an action is drawn as (see the module text)."""
    name = a[0]
    return STEP if name in STEP_NAMES else STRUCTURE if name in STRUCTURE_NAMES else str(name)


def _kinds(names: tuple[str, ...]) -> tuple[str, ...]:
    """The kinds a builder giving the actions ``names`` gives (:func:`kind_of`)."""
    return tuple(dict.fromkeys(kind_of((n,)) for n in names))


def random_action(s: GameState, rng: np.random.Generator) -> Action:
    """One legal action of ``s``, drawn as the module text says (uniform draws from ``rng``)."""
    try:
        draw = rng.next_random  # type: ignore[attr-defined]  # a Stream's plain scalar draw
    except AttributeError:
        draw = rng.random
    if s.active < 0:
        if _choosing(s):  # which model to activate: one kind
            draw()  # the kind's draw (:func:`_grouped_draw`)
            models = activatable(s)  # :func:`.activation.activations`' models, in order
            n = len(models)
            k = int(draw() * n)
            return ("activate", models[k if k < n else n - 1])
        return _grouped_draw(s.legal_actions(), rng)
    if not ordinary(s):
        return _grouped_draw(s.legal_actions(), rng)
    d = Decision(s, kept=True)
    sources, slots, never = _plan(s.setup, -1 if d.t.blip else d.t.profile, d.full)
    left = list(slots)  # each kind's source, or the kind and its sources (see _plan)
    built = list(never)  # each source's actions once built (None: not yet)
    n = len(left)  # the kinds still in the draw: left[:n]
    while n:
        k = int(draw() * n)
        if k >= n:
            k = n - 1
        one = left[k]
        if type(one) is int:  # the kind of one source alone
            acts = built[one]
            if acts is None:
                acts = built[one] = sources[one][1](d)
        else:
            acts = _gathered(d, sources, one[1], built, one[0])
        if acts:
            m = len(acts)
            if m > 1:
                acts = list(dict.fromkeys(acts))
                m = len(acts)
            k = int(draw() * m)
            return acts[k if k < m else m - 1]
        n -= 1
        left[k] = left[n]  # the kind is empty: drop it, draw again among the others
    return _grouped_draw(s.legal_actions(), rng)  # not met: "end" or a melee is always there


def _gathered(
    d: Decision,
    sources: tuple[Source, ...],
    found: list[tuple[int, bool]],
    built: list[Any],
    kind: str,
) -> list[Action]:
    """The actions of ``kind`` from its sources ``found`` (each with whether it gives that kind
    alone), each source built once a decision (``built``)."""
    acts: list[Action] = []
    for n, alone in found:
        got = built[n]
        if got is None:
            got = built[n] = sources[n][1](d)
        if got:
            acts.extend(got if alone else [a for a in got if kind_of(a) == kind])
    return acts


def _below(rng: np.random.Generator, n: int) -> int:
    """A uniform draw of 0 .. n - 1."""
    return min(int(rng.random() * n), n - 1)


def _grouped_draw(acts: list[Action], rng: np.random.Generator) -> Action:
    groups: dict[str, list[Action]] = {}
    for a in dict.fromkeys(acts):
        groups.setdefault(kind_of(a), []).append(a)
    got = list(groups.values())[_below(rng, len(groups))]
    return got[_below(rng, len(got))]


def _choosing(s: GameState) -> bool:
    """A choice of the model to activate (:func:`.choices.legal_actions`), no model being active."""
    return not (s.ended or s.pending or (s.psy is not None and s.psy.prompt) or s.control)


def ordinary(s: GameState) -> bool:
    """An ordinary decision of the active model in its own turn (see the module text)."""
    if s.ended or s.pending or s.active < 0 or s.control or s.ambush or s.zoc or s.snap:
        return False
    if (s.psy is not None and s.psy.prompt) or (s.round == 0 and infiltrate.placing(s)):
        return False
    t = s.tokens[s.active]
    return not t.last and not (not t.blip and mindless_profile(s.setup, t.profile))


def _melee(d: Decision) -> list[Action]:
    """IV: a melee with the model's action, or at the enemies beside it not yet meleed."""
    return [*(c.melee(d) if d.acting else []), *c.more_melee(d)]


def _hide(d: Decision) -> list[Action]:
    """V HIDING as the action, or IX FURTIVE's free hide (:func:`.hiding.may_hide`: where the model
    may not hide as its action, it may not hide for free either, so the free hide is asked only
    when the action is not in full)."""
    return c.hide(d) if d.full else c.free_hide(d)


#: the sources of a model's action in full (:data:`.choices.FULL_ACTION`), in its order; its melee
#: and its hide are drawn with the other melees and hides (:data:`SOURCES`)
FULL_SOURCES: tuple[Source, ...] = tuple(
    (_kinds(names), build) for names, build in c.FULL_ACTION if names not in (("melee",), ("hide",))
)
#: the sources of every ordinary decision (:func:`.choices.legal_actions`' other parts)
SOURCES: tuple[Source, ...] = (
    (("melee",), _melee),
    (("cast", "dissipate"), lambda d: deck.cast_actions(d.s)),
    (("hide",), _hide),
    ((STEP,), c.steps),
    (("drop",), c.drop),
    (("end",), c.ending),
)


def _table(
    sources: tuple[Source, ...],
) -> tuple[tuple[Source, ...], tuple[str, ...], dict[str, Any]]:
    """The sources, their kinds, and the sources of each kind (each with whether it gives that
    kind alone; a kind given by one source alone: that source's index)."""
    where: dict[str, list[tuple[int, bool]]] = {}
    for n, (names, _) in enumerate(sources):
        for k in names:
            where.setdefault(k, []).append((n, len(names) == 1))
    lone = {k: found[0][0] if len(found) == 1 and found[0][1] else found for k, found in where.items()}
    return sources, tuple(where), lone


#: IX VOLLEY FIRE (a scenario's option): the weapons' shots and volleys
VOLLEY_SOURCES: tuple[Source, ...] = ((("shoot", "volley"), c.shots), *FULL_SOURCES[1:])
#: a decision's sources, kinds and sources by kind: with the action in full (True) or not, and in
#: full with volley fire on
_TABLES = {
    True: _table(FULL_SOURCES + SOURCES),
    False: _table(SOURCES),
    "volley": _table(VOLLEY_SOURCES + SOURCES),
}


def _tables(d: Decision) -> Any:
    """The decision's sources, kinds and sources by kind (:data:`_TABLES`)."""
    return _table_of(d.s.setup, d.full)


def _table_of(setup: Setup, full: bool) -> Any:
    """:data:`_TABLES`' entry for an action in full or not, in ``setup``'s scenario."""
    return _TABLES["volley" if full and setup.scenario.options.volley_fire else full]


def _items(setup: Setup, profile: int) -> bool:
    return has_items(setup)


#: what a model's profile must have for a source to give any action at all (V CARRYING: the
#: scenario's items; VII: its deck; IX TWO FISTED, DETONATE, PSY, LATCH ON, MOB): a source that
#: may not is not built (its kind, drawn, is empty); the other sources have no such test
MAY: dict[tuple[str, ...], Callable[[Setup, int], bool]] = {
    ("fists",): lambda setup, p: has_code(setup.profiles[p].abilities, "TWO FISTED"),
    ("detonate",): lambda setup, p: has_code(setup.profiles[p].abilities, "DETONATE"),
    ("mind",): lambda setup, p: bool(setup.fighters[p].fx.get("psy")),
    ("latch",): lambda setup, p: has_code(setup.profiles[p].abilities, "LATCH ON"),
    ("mob",): lambda setup, p: bool(setup.fighters[p].fx.get("mob")),
    ("join",): lambda setup, p: any(f.fx.get("mob") for f in setup.fighters),  # a friend leads
    ("pickup",): _items,
    ("drop",): _items,
    ("cast", "dissipate"): lambda setup, p: setup.scenario.psychic is not None,
}


@lru_cache(maxsize=1024)
def _plan(setup: Setup, profile: int, full: bool) -> tuple[Any, ...]:
    """A decision's sources (:data:`_TABLES`, by whether the action is in full and the scenario's
    volley fire), its kinds in order, each as the index of its source when one source alone gives
    it, else as the kind and its sources; and the sources a model of ``profile`` (-1: a blip) never
    gets an action from (:data:`MAY`): per source, its empty list of actions when it never gives
    one (so a kind it never has is found empty and dropped without a look), else None."""
    sources, kinds, where = _table_of(setup, full)
    never = tuple(
        () if profile >= 0 and names in MAY and not MAY[names](setup, profile) else None
        for names, _ in sources
    )
    slots = tuple(where[k] if type(where[k]) is int else (k, where[k]) for k in kinds)
    return sources, slots, never


def never_built(s: GameState) -> list[tuple[str, ...]]:
    """The sources of an ordinary decision the random draw does not build (for tests)."""
    d = Decision(s)
    sources, _, never = _plan(s.setup, -1 if d.t.blip else d.t.profile, d.full)
    return [sources[n][0] for n, acts in enumerate(never) if acts is not None]


def sources_of(s: GameState) -> list[tuple[tuple[str, ...], Callable[[], list[Action]]]] | None:
    """The sources of an ordinary decision's actions (:func:`.choices.legal_actions`' parts), each
    bound to the state; None for any other decision."""
    if not ordinary(s):
        return None
    d = Decision(s, kept=True)
    return [(names, partial(build, d)) for names, build in _tables(d)[0]]


def support(s: GameState) -> dict[str, set[Action]] | None:
    """Every action of an ordinary decision's sources, by kind (for tests); None for another."""
    sources = sources_of(s)
    if sources is None:
        return None
    out: dict[str, set[Action]] = {}
    for _, build in sources:
        for a in build():
            out.setdefault(kind_of(a), set()).add(a)
    return out


__all__ = [
    "MAY",
    "STEP",
    "STRUCTURE",
    "kind_of",
    "never_built",
    "ordinary",
    "random_action",
    "sources_of",
    "support",
]
