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
from functools import partial
from typing import Any

import numpy as np

from grimdice.systems.crusade.game import (
    artillery,
    burn,
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
from grimdice.systems.crusade.game.answers import ADJACENT, SIGHT, LastAnswer
from grimdice.systems.crusade.game.fails import recover_actions
from grimdice.systems.crusade.game.state import JAMMED, READY, UNLOADED, GameState, has_code
from grimdice.systems.crusade.game.table import TableBoard

Action = tuple[Any, ...]
#: the kind of every board step
STEP = "step"
STEP_NAMES = frozenset((*moves.STEPS, *climb.CLIMBS, "open", "close"))
#: a source of actions: the kinds it may give, and the thunk that builds them
Source = tuple[tuple[str, ...], Callable[["_Decision"], list[Action]]]


def kind_of(a: Action) -> str:
    """The kind an action is drawn as (see the module text)."""
    return STEP if a[0] in STEP_NAMES else str(a[0])


def random_action(s: GameState, rng: np.random.Generator) -> Action:
    """One legal action of ``s``, drawn as the module text says (uniform draws from ``rng``)."""
    if not ordinary(s):
        return _grouped_draw(s.legal_actions(), rng)
    d = _Decision(s)
    sources, kinds, where = _tables(d)
    left = list(kinds)
    built: dict[int, list[Action]] = {}
    draw = rng.random  # _below, inlined: the draw made at every kind tried
    while left:
        k = int(draw() * len(left))
        k = min(k, len(left) - 1)
        kind = left[k]
        acts: list[Action] = []
        for n, alone in where[kind]:
            got = built.get(n)
            if got is None:
                got = built[n] = sources[n][1](d)
            if got:
                acts.extend(got if alone else [a for a in got if kind_of(a) == kind])
        if acts:
            distinct = list(dict.fromkeys(acts)) if len(acts) > 1 else acts
            return distinct[_below(rng, len(distinct))]
        left[k] = left[-1]  # the kind is empty: drop it, draw again among the others
        left.pop()
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


class _Decision:
    """An ordinary decision's state, what its sources share: the active model, its wound, whether
    it may take its action in full (not only a melee, :func:`.rules._actions`), and the enemies
    beside it and in its sight (each worked out once, at the first source asking)."""

    def __init__(self, s: GameState) -> None:
        self.s = s
        self.i = s.active
        self.t = s.tokens[s.active]
        self.wounded = r._wounded(s, s.active)
        self.acting = r.may_act(s)
        self.full = self.acting and not (s.charged or (self.wounded and s.moved > 0))
        self._adjacent: list[int] | None = None
        self._sight: list[int] | None = None
        self._hidden: list[int] | None = None

    def _feral(self) -> bool:
        s, t = self.s, self.t
        return s.setup.fighters[t.profile].has("feral") or any(
            has_code(s.setup.profiles[t.profile].abilities, c) for c in ("FERAL", "MINDLESS")
        )

    def adjacent(self) -> list[int]:
        """The enemies beside the model (FERAL's nearest only, as :func:`.rules._actions`)."""
        if self._adjacent is None:
            if self._feral():
                self._foes()
            else:
                self._adjacent = _kept(ADJACENT, r.adjacent_enemies, self)
        assert self._adjacent is not None
        return self._adjacent

    def sight(self) -> list[int]:
        """The enemies in its sight, not hidden (FERAL's nearest only)."""
        if self._sight is None:
            if self._feral():
                self._foes()
            else:
                self._sight = _kept(SIGHT, r.targets_in_sight, self)
        assert self._sight is not None
        return self._sight

    def hidden(self) -> list[int]:
        """VIII BURN: the hidden enemies in its sight, when it holds a ready BURN weapon."""
        if self._hidden is None:
            if self._feral():
                self._foes()
            else:
                self._hidden = self._burnable()
        assert self._hidden is not None
        return self._hidden

    def _burnable(self) -> list[int]:
        return burn.hidden_in_sight(self.s, self.i) if burn.ready(self.s, self.i) else []

    def _foes(self) -> None:
        """FERAL: the nearest enemies beside and in sight (hidden ones apart), all three at once."""
        s, i = self.s, self.i
        hid = self._burnable()
        adjacent, seen = r._nearest(s, i, r.adjacent_enemies(s, i), r.targets_in_sight(s, i) + hid)
        self._adjacent = adjacent
        self._sight = [j for j in seen if j not in hid]
        self._hidden = [j for j in seen if j in hid]

    def has(self, code: str) -> bool:
        """Whether the model (not a blip) has the ability ``code``."""
        return not self.t.blip and has_code(self.s.setup.profiles[self.t.profile].abilities, code)


def _kept(kept: LastAnswer, ask: Callable[[GameState, int], list[int]], d: _Decision) -> list[int]:
    """``ask(s, i)``, kept for the next decision that moves nobody (:mod:`.answers`)."""
    got = kept.get(d.s, d.i)
    return got if got is not None else kept.keep(d.s, d.i, ask(d.s, d.i))


def _melee(d: _Decision) -> list[Action]:
    out: list[Action] = [("melee", j) for j in d.adjacent()] if d.acting else []
    if d.s.meleed:  # IV: each adjacent enemy in turn
        out.extend(("melee", j) for j in r.adjacent_enemies(d.s, d.i) if j not in d.s.meleed)
    return out


def _hide(d: _Decision) -> list[Action]:
    may = (d.full and r._may_hide(d.s, free=False)) or r._may_hide(d.s, free=True)
    return [("hide",)] if may else []


def _shots(d: _Decision) -> list[Action]:
    s, t = d.s, d.t
    out: list[Action] = []
    for k, w in enumerate(s.setup.profiles[t.profile].weapons):
        if w.kind in r.RANGED and t.arms[k] == READY:
            seen = d.sight() + d.hidden() if burn.burns(s, d.i, w.name) else d.sight()  # VIII BURN
            out.extend(r._shots(s, d.i, w.name, artillery.targets(s, d.i, w.name, seen)))  # VIII BARRAGE
    return out


def _tend(d: _Decision) -> list[Action]:
    """VIII RELOAD and JAM: the weapons to reload or unjam."""
    out: list[Action] = []
    for k, w in enumerate(d.s.setup.profiles[d.t.profile].weapons):
        if d.t.arms[k] in (UNLOADED, JAMMED):
            out.append(("reload" if d.t.arms[k] == UNLOADED else "unjam", w.name))
    return out


def _moving(d: _Decision) -> list[Action]:
    """An extra move; a charge (V CHARGE)."""
    if d.wounded or has_code(d.s.setup.profiles[d.t.profile].abilities, "SHAMBLE"):
        return []
    charge = r._charge(d.s, d.t)
    return [("extra",), *([("charge",)] if charge > 0 and d.s.budget + charge > 0 else [])]


# The sources below look at the enemies only past the cheap checks their rules' functions make
# first (the answer is the same: those functions find nothing without them).
def _dive(d: _Decision) -> list[Action]:
    board = d.s.setup.board
    if d.wounded or d.s.budget <= 0 or not isinstance(board, TableBoard) or board.indoors(d.t.sq) >= 0:
        return []
    return dive.actions(d.s, d.sight(), d.s.budget)


def _fists(d: _Decision) -> list[Action]:
    return fists.actions(d.s, d.i, d.sight()) if fists.pistols(d.s, d.i) is not None else []


def _mind(d: _Decision) -> list[Action]:
    if not psychic.level(d.s, d.t):
        return []
    return [("mind", j) for j in psychic.mind_targets(d.s, d.i, d.sight())]


#: the sources of a model's action in full (:func:`.rules._actions`), in its order
FULL_SOURCES: tuple[Source, ...] = (
    (("shoot",), _shots),
    (("fists",), _fists),
    (("detonate",), lambda d: detonate.actions(d.s, d.i)),
    (("mind",), _mind),
    (("latch",), lambda d: latch.actions(d.s, d.i, d.adjacent()) if d.has("LATCH ON") else []),
    (("mob",), lambda d: mob.actions(d.s, d.i, d.adjacent()) if mob.size(d.s, d.i) > 1 else []),
    (("join",), lambda d: mob.joins(d.s, d.i, d.adjacent()) if mob.leads(d.s, d.i) else []),
    (("dive",), _dive),
    (("ladder_melee",), lambda d: ladder.actions(d.s)),
    (("reload", "unjam"), _tend),
    (("recover",), lambda d: recover_actions(d.s)),
    (("pickup",), lambda d: items.pickup_actions(d.s)),
    (("force", "close_entry"), lambda d: entry.actions(d.s)),
    (("shoot_sector", "melee_sector", "shoot_piece", "melee_piece"), lambda d: ruin.actions(d.s)),
    (("extra", "charge"), _moving),
)
#: the sources of every ordinary decision (:func:`.rules.legal_actions`' other parts)
SOURCES: tuple[Source, ...] = (
    (("melee",), _melee),
    (("cast", "dissipate"), lambda d: deck.cast_actions(d.s)),
    (("hide",), _hide),
    ((STEP,), lambda d: r._moves(d.s) if r.may_move(d.s) else []),
    (("drop",), lambda d: [("drop",)] if items.carries(d.s, d.i) else []),
    (("end",), lambda d: [("end",)]),
)


def _table(
    sources: tuple[Source, ...],
) -> tuple[tuple[Source, ...], tuple[str, ...], dict[str, list[tuple[int, bool]]]]:
    """The sources, their kinds, and the sources of each kind (each with whether it gives that
    kind alone)."""
    where: dict[str, list[tuple[int, bool]]] = {}
    for n, (names, _) in enumerate(sources):
        for k in names:
            where.setdefault(k, []).append((n, len(names) == 1))
    return sources, tuple(where), where


#: IX VOLLEY FIRE (a scenario's option): the weapons' shots and volleys
VOLLEY_SOURCES: tuple[Source, ...] = ((("shoot", "volley"), _shots), *FULL_SOURCES[1:])
#: a decision's sources, kinds and sources by kind: with the action in full (True) or not, and in
#: full with volley fire on
_TABLES = {
    True: _table(FULL_SOURCES + SOURCES),
    False: _table(SOURCES),
    "volley": _table(VOLLEY_SOURCES + SOURCES),
}


def _tables(d: _Decision) -> Any:
    """The decision's sources, kinds and sources by kind (:data:`_TABLES`)."""
    return _TABLES["volley" if d.full and d.s.setup.scenario.options.volley_fire else d.full]


def sources_of(s: GameState) -> list[tuple[tuple[str, ...], Callable[[], list[Action]]]] | None:
    """The sources of an ordinary decision's actions (:func:`.rules.legal_actions`' parts), each
    bound to the state; None for any other decision."""
    if not ordinary(s):
        return None
    d = _Decision(s)
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


__all__ = ["STEP", "kind_of", "ordinary", "random_action", "sources_of", "support"]
