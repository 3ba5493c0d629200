"""The random player's draw (``GameState.random_action``): a legal action drawn without listing
every legal action.

The distribution (ours, a property of the random player): the legal actions are grouped by
**kind**, the action's name (``"shoot"``, ``"melee"``, ``"reload"``, ``"end"`` ...), except that
every step of the board (``move``, ``jump``, ``fall``, ``hang``, ``scrabble``, ``ladder``,
``fly``, ``manhole``, ``open``, ``close``) is one kind, :data:`STEP`; a kind is drawn uniformly
among the kinds present, then one of its distinct actions uniformly. So a model ends its
activation, steps, shoots or hides about as often as each other, whatever the number of places it
may step to or targets it may shoot at.

In an ordinary decision of the active model in its own turn (no question put to a player, no
INFILTRATE placing, no HORROR's last attack, not MINDLESS) only the kinds drawn are built: a
kind is drawn among those the model may have, its actions built (the same rules' functions as
:func:`.rules.legal_actions`), and a kind found empty is dropped and another drawn. Any other
decision draws from the grouped :func:`.rules.legal_actions`. Both give the distribution above;
``tests/crusade_game/test_sampling.py`` checks that the kinds built are exactly the legal actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from grimdice.systems.crusade.game import (
    climb,
    deck,
    detonate,
    dive,
    entry,
    fists,
    infiltrate,
    items,
    ladder,
    latch,
    mob,
    moves,
    psychic,
    ruin,
)
from grimdice.systems.crusade.game import rules as r
from grimdice.systems.crusade.game.fails import recover_actions
from grimdice.systems.crusade.game.state import JAMMED, READY, UNLOADED, GameState, has_code

Action = tuple[Any, ...]
#: the kind of every board step
STEP = "step"
STEP_NAMES = frozenset((*moves.STEPS, *climb.CLIMBS, "open", "close"))
#: a source of actions: the kinds it may give, and the thunk that builds them
Source = tuple[tuple[str, ...], Callable[[], list[Action]]]


def kind_of(a: Action) -> str:
    """The kind an action is drawn as (see the module text)."""
    return STEP if a[0] in STEP_NAMES else str(a[0])


def random_action(s: GameState, rng: np.random.Generator) -> Action:
    """One legal action of ``s``, drawn as the module text says (uniform draws from ``rng``)."""
    sources = sources_of(s)
    if sources is None:
        return _grouped_draw(s.legal_actions(), rng)
    kinds: dict[str, list[int]] = {}
    for n, (names, _) in enumerate(sources):
        for k in names:
            kinds.setdefault(k, []).append(n)
    built: dict[int, list[Action]] = {}
    left = list(kinds)
    while left:
        kind = left[_below(rng, len(left))]
        acts: list[Action] = []
        for n in kinds[kind]:
            if n not in built:
                built[n] = sources[n][1]()
            acts.extend(a for a in built[n] if kind_of(a) == kind)
        if acts:
            distinct = list(dict.fromkeys(acts))
            return distinct[_below(rng, len(distinct))]
        left.remove(kind)
    return _grouped_draw(s.legal_actions(), rng)  # not met: "end" is always there


def _below(rng: np.random.Generator, n: int) -> int:
    """A uniform draw of 0 .. n - 1."""
    return min(int(rng.random() * n), n - 1)


def _grouped_draw(acts: list[Action], rng: np.random.Generator) -> Action:
    groups: dict[str, list[Action]] = {}
    for a in dict.fromkeys(acts):
        groups.setdefault(kind_of(a), []).append(a)
    got = list(groups.values())[_below(rng, len(groups))]
    return got[_below(rng, len(got))]


def ordinary(s: GameState) -> bool:
    """An ordinary decision of the active model in its own turn (see the module text)."""
    if s.ended or s.pending or s.active < 0 or s.control or s.ambush or s.zoc or s.snap:
        return False
    if (s.psy is not None and s.psy.prompt) or infiltrate.placing(s):
        return False
    return not s.tokens[s.active].last and not r._mindless(s)


def sources_of(s: GameState) -> list[Source] | None:
    """The sources of an ordinary decision's actions (:func:`.rules.legal_actions`' parts, in its
    order); None for any other decision."""
    if not ordinary(s):
        return None
    i = s.active
    t = s.tokens[i]
    wounded = r._wounded(s, i)
    acting = r.may_act(s)
    full = acting and not (s.charged or (wounded and s.moved > 0))
    seen: list[tuple[list[int], list[int]]] = []

    def foes() -> tuple[list[int], list[int]]:
        """(adjacent enemies, enemies in sight), FERAL's nearest only, as :func:`.rules._actions`."""
        if not seen:
            adjacent, sight = r.adjacent_enemies(s, i), r.targets_in_sight(s, i)
            if s.setup.fighters[t.profile].has("feral") or any(
                has_code(s.setup.profiles[t.profile].abilities, c) for c in ("FERAL", "MINDLESS")
            ):
                adjacent, sight = r._nearest(s, i, adjacent, sight)
            seen.append((adjacent, sight))
        return seen[0]

    def melee() -> list[Action]:
        out = [("melee", j) for j in foes()[0]] if acting else []
        if s.meleed:  # IV: each adjacent enemy in turn
            out.extend(("melee", j) for j in r.adjacent_enemies(s, i) if j not in s.meleed)
        return out

    out: list[Source] = []
    if full:
        out.extend(_full_sources(s, foes, wounded))
    out.append((("melee",), melee))
    out.append((("cast", "dissipate"), lambda: deck.cast_actions(s)))
    hide = (full and r._may_hide(s, free=False)) or r._may_hide(s, free=True)
    out.append((("hide",), lambda: [("hide",)] if hide else []))
    out.append(((STEP,), lambda: r._moves(s) if r.may_move(s) else []))
    out.append((("drop",), lambda: [("drop",)] if items.carries(s, i) else []))
    out.append((("end",), lambda: [("end",)]))
    return out


def _full_sources(
    s: GameState, foes: Callable[[], tuple[list[int], list[int]]], wounded: bool
) -> list[Source]:
    """The sources of a model's action (:func:`.rules._actions` when it is not limited to a melee)."""
    i = s.active
    t = s.tokens[i]
    p = s.setup.profiles[t.profile]

    def shots() -> list[Action]:
        out: list[Action] = []
        for k, w in enumerate(p.weapons):
            if w.kind in r.RANGED and t.arms[k] == READY:
                out.extend(r._shots(s, i, w.name, foes()[1]))
        return out

    def tend() -> list[Action]:
        out: list[Action] = []
        for k, w in enumerate(p.weapons):
            if t.arms[k] in (UNLOADED, JAMMED):
                out.append(("reload" if t.arms[k] == UNLOADED else "unjam", w.name))
        return out

    def moving() -> list[Action]:
        if wounded or has_code(p.abilities, "SHAMBLE"):
            return []
        charge = r._charge(s, t)
        return [("extra",), *([("charge",)] if charge > 0 and s.budget + charge > 0 else [])]

    return [
        (("shoot",), shots),
        (("fists",), lambda: fists.actions(s, i, foes()[1])),
        (("detonate",), lambda: detonate.actions(s, i)),
        (("mind",), lambda: [("mind", j) for j in psychic.mind_targets(s, i, foes()[1])]),
        (("latch",), lambda: latch.actions(s, i, foes()[0])),
        (("mob",), lambda: mob.actions(s, i, foes()[0])),
        (("dive",), lambda: dive.actions(s, foes()[1], s.budget) if not wounded and s.budget > 0 else []),
        (("ladder_melee",), lambda: ladder.actions(s)),
        (("reload", "unjam"), tend),
        (("recover",), lambda: recover_actions(s)),
        (("pickup",), lambda: items.pickup_actions(s)),
        (("force", "close_entry"), lambda: entry.actions(s)),
        (("shoot_sector", "melee_sector", "shoot_piece", "melee_piece"), lambda: ruin.actions(s)),
        (("extra", "charge"), moving),
    ]


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


__all__ = ["STEP", "kind_of", "ordinary", "random_action", "sources_of", "support"]
