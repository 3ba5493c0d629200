"""What the active model may do in an ordinary decision of its own turn: the enemies beside it and
in its sight, and the builders of each part of its choices (section I: its moves and its one action;
II shooting, IV melee, V movement, hiding and charges, VI forced entries and buildings, VII cards,
VIII reloading and unjamming, IX the special abilities). :func:`.rules.legal_actions` lists them
all and :mod:`.sampling` (the random player) builds only the kinds it draws, from these same
builders, so that the two give the same actions.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.damage import KILLED, WOUNDED
from grimdice.systems.crusade.game import (
    ambush,
    artillery,
    big,
    burn,
    catwalk,
    charge,
    climb,
    control,
    deck,
    detonate,
    dive,
    entry,
    fists,
    flight,
    items,
    ladder,
    latch,
    many,
    mob,
    psychic,
    ruin,
    snap,
    volley,
)
from grimdice.systems.crusade.game.activation import (
    activations,
    may_act,
    may_move,
    mindless,
    wounded,
)
from grimdice.systems.crusade.game.answers import ADJACENT, SIGHT, LastAnswer
from grimdice.systems.crusade.game.board import FULL
from grimdice.systems.crusade.game.fails import recover_actions
from grimdice.systems.crusade.game.hiding import may_hide
from grimdice.systems.crusade.game.infiltrate import placements, placing
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import (
    JAMMED,
    READY,
    UNLOADED,
    GameState,
    has_code,
    shamblers,
)
from grimdice.systems.crusade.game.table import TableBoard
from grimdice.systems.crusade.units import SHOOTING_KINDS

Action = tuple[Any, ...]
EPS = 1e-9  # a table's diagonal steps cost irrational lengths


# ---------------------------------------------------------------------- the enemies
def enemies(s: GameState, side: int) -> list[int]:
    return [i for i, t in enumerate(s.tokens) if t.alive and t.side != side]


def targets_in_sight(s: GameState, i: int) -> list[int]:
    """II: the enemy models ``i`` has line of sight to, not hidden (blips are hidden, V)."""
    me = s.tokens[i]
    doors, occ, board = s.doors(), s.occupied(), s.setup.board
    return [  # t.alive read inline: every decision asks
        j
        for j, t in enumerate(s.tokens)
        if t.cond != KILLED and t.side != me.side and not t.hidden and board.sight(me.sq, t.sq, doors, occ)
    ]


def adjacent_enemies(s: GameState, i: int) -> list[int]:
    """IV / X: adjacent enemy models (diagonals if a pinching square is open), not blips; VI: catwalks'."""
    me = s.tokens[i]
    doors, board, (x, y) = s.doors(), s.setup.board, me.sq[:2]
    return [  # first the 8 squares (cells) around, where adjacency lies; t.alive read inline
        j
        for j, t in enumerate(s.tokens)
        if -1 <= t.sq[0] - x <= 1
        and -1 <= t.sq[1] - y <= 1
        and t.cond != KILLED
        and t.side != me.side
        and not t.blip
        and board.adjacent(me.sq, t.sq, doors)
    ] + catwalk.blockers(s, i)


def nearest(s: GameState, i: int, adjacent: list[int], sight: list[int]) -> tuple[list[int], list[int]]:
    """IX FERAL: "You may only attack the nearest target" (reading ``feral``: the nearest of the
    enemies it could attack, by range in squares; ties all allowed)."""
    here, board = s.tokens[i].sq, s.setup.board
    both = set(adjacent) | set(sight)
    if not both:
        return adjacent, sight
    near = min(board.range(here, s.tokens[j].sq) for j in both)
    keep = {j for j in both if board.range(here, s.tokens[j].sq) == near}
    return [j for j in adjacent if j in keep], [j for j in sight if j in keep]


class Decision:
    """An ordinary decision's state, what its builders share: the active model, its wound, whether
    it may take its action (``acting``) and in full (``full``: not only a melee), and the enemies
    beside it and in its sight (each worked out once, at the first builder asking; with ``kept``,
    kept for the next decision that moves nobody, :mod:`.answers`)."""

    #: the enemies beside it, in its sight and hidden in its sight, once found (None: not yet)
    _adjacent: list[int] | None = None
    _sight: list[int] | None = None
    _hidden: list[int] | None = None

    def __init__(self, s: GameState, kept: bool = False) -> None:
        self.s = s
        self.i = i = s.active
        self.t = t = s.tokens[i]
        self.kept = kept
        self.wounded = t.cond == WOUNDED and wounded(s, i)  # the call only for a wounded model
        self.acting = may_act(s)
        self.full = self.acting and not (s.charged or (self.wounded and s.moved > 0))

    def _feral(self) -> bool:
        return _feral_profile(self.s.setup, self.t.profile)

    def adjacent(self) -> list[int]:
        """The enemies beside the model (IX FERAL: the nearest only)."""
        return self._found("_adjacent", lambda: self._ask(ADJACENT, adjacent_enemies))

    def sight(self) -> list[int]:
        """The enemies in its sight, not hidden (IX FERAL: the nearest only)."""
        return self._found("_sight", lambda: self._ask(SIGHT, targets_in_sight))

    def hidden(self) -> list[int]:
        """VIII BURN: "may fire at hidden models": the hidden enemies in its sight, when it holds a
        ready BURN weapon."""
        return self._found("_hidden", self._burnable)

    def _found(self, name: str, find: Callable[[], list[int]]) -> list[int]:
        """The list kept in attribute ``name``, found at the first call (FERAL's three at once)."""
        got: list[int] | None = getattr(self, name)
        if got is None:
            if self._feral():
                self._foes()
            else:
                setattr(self, name, find())
            got = getattr(self, name)
        assert got is not None
        return got

    def _ask(self, kept: LastAnswer, ask: Callable[[GameState, int], list[int]]) -> list[int]:
        if not self.kept:
            return ask(self.s, self.i)
        got = kept.get(self.s, self.i)
        return got if got is not None else kept.keep(self.s, self.i, ask(self.s, self.i))

    def _burnable(self) -> list[int]:
        return burn.hidden_in_sight(self.s, self.i) if burn.ready(self.s, self.i) else []

    def _foes(self) -> None:
        """FERAL: the nearest enemies beside and in sight (hidden ones apart), all three at once."""
        s, i = self.s, self.i
        hid = self._burnable()
        adjacent, seen = nearest(s, i, adjacent_enemies(s, i), targets_in_sight(s, i) + hid)
        self._adjacent = adjacent
        self._sight = [j for j in seen if j not in hid]
        self._hidden = [j for j in seen if j in hid]

    def has(self, code: str) -> bool:
        """Whether the model (not a blip) has the ability ``code``."""
        return not self.t.blip and has_code(self.s.setup.profiles[self.t.profile].abilities, code)


@lru_cache(maxsize=1024)
def _feral_profile(setup: Setup, profile: int) -> bool:
    """IX FERAL (MINDLESS models too: "attack the nearest target"), kept per setup and profile."""
    return setup.fighters[profile].has("feral") or any(
        has_code(setup.profiles[profile].abilities, c) for c in ("FERAL", "MINDLESS")
    )


# ---------------------------------------------------------------------- the builders
def shots(d: Decision) -> list[Action]:
    """II: each ready ranged weapon's shots (VIII BURN: at hidden models too; VIII BARRAGE)."""
    s, t = d.s, d.t
    out: list[Action] = []
    for k, w in enumerate(s.setup.profiles[t.profile].weapons):
        if w.kind in SHOOTING_KINDS and t.arms[k] == READY:
            seen = d.sight() + d.hidden() if burn.burns(s, d.i, w.name) else d.sight()
            out.extend(weapon_shots(s, d.i, w.name, artillery.targets(s, d.i, w.name, seen)))
    return out


def weapon_shots(s: GameState, i: int, weapon: str, sight: list[int]) -> list[Action]:
    """II: a shot at each target in sight; a flamer template only at a target it reaches (reading
    ``grid_template``); SPLIT FIRE and RAPID FIRE also at two targets the player names."""
    if many.mode(s, i, weapon) == "template":
        sight = [j for j in sight if many.reached(s, i, j, weapon)]
    out: list[Action] = [("shoot", j, weapon) for j in sight] + volley.actions(s, i, weapon, sight)
    out.extend(("shoot", a, weapon, b) for a, b in many.named_targets(s, i, weapon, sight))
    return out


def melee(d: Decision) -> list[Action]:
    """IV: a melee at each enemy beside the model; after a charge, at its target (reading ``charge``)."""
    target = charge.melee_target(d.s) if d.s.charging else -1
    if target >= 0:
        return [("melee", target)] if target in d.adjacent() else []
    return [("melee", j) for j in d.adjacent()]


def more_melee(d: Decision) -> list[Action]:
    """IV: "If adjacent to multiple targets, you may melee each in turn": the enemies beside it not
    yet meleed this activation, while it has not moved since its first melee (reading
    ``melee_in_turn``)."""
    if not charge.in_turn(d.s):
        return []
    return [("melee", j) for j in adjacent_enemies(d.s, d.i) if j not in d.s.meleed]


def tend(d: Decision) -> list[Action]:
    """VIII RELOAD and JAM: the weapons to reload or unjam."""
    out: list[Action] = []
    for k, w in enumerate(d.s.setup.profiles[d.t.profile].weapons):
        if d.t.arms[k] == UNLOADED:
            out.append(("reload", w.name))
        elif d.t.arms[k] == JAMMED:
            out.append(("unjam", w.name))
    return out


def moving(d: Decision) -> list[Action]:
    """I: an extra full move; V CHARGE at each enemy it may charge (reading ``charge``). IX SHAMBLE:
    "The model may not take extra move": no extra full move (I: "Take an extra full move"); the
    charge, whose exceptions V CHARGE lists without SHAMBLE, it keeps (reading ``shamble_charge``).
    V CARRYING: "you may either move or spend an action, not both": a carrier does not charge."""
    if d.wounded:
        return []
    extra: list[Action] = [] if d.t.profile in shamblers(d.s.setup) else [("extra",)]
    if items.burdened(d.s):
        return extra
    found = charge.targets(d.s, d.i)
    if found and d._feral():  # IX FERAL: "You may only attack the nearest target"
        here, board, tokens = d.t.sq, d.s.setup.board, d.s.tokens
        near = min(board.range(here, tokens[j].sq) for j in (*found, *d.adjacent(), *d.sight()))
        found = [j for j in found if board.range(here, tokens[j].sq) == near]
    return extra + [("charge", j) for j in found]


def hide(d: Decision) -> list[Action]:
    """V HIDING as the model's action."""
    return [("hide",)] if may_hide(d.s, free=False) else []


def free_hide(d: Decision) -> list[Action]:
    """IX FURTIVE: a hide for free."""
    return [("hide",)] if may_hide(d.s, free=True) else []


# The builders below look at the enemies only past the cheap checks their rules' functions make
# first (the answer is the same: those functions find nothing without them).
def diving(d: Decision) -> list[Action]:
    """V DIVE ATTACK, on a table, outdoors, with move left."""
    board = d.s.setup.board
    if d.wounded or d.s.budget <= 0 or not isinstance(board, TableBoard) or board.indoors(d.t.sq) >= 0:
        return []
    if not dive.below(d.s, d.i):
        return []  # no enemy below to dive onto: no look at its sight
    return dive.actions(d.s, d.sight(), d.s.budget)


def two_fisted(d: Decision) -> list[Action]:
    """IX TWO FISTED."""
    return fists.actions(d.s, d.i, d.sight()) if fists.pistols(d.s, d.i) is not None else []


def mind(d: Decision) -> list[Action]:
    """VII MIND WAR."""
    if not psychic.level(d.s, d.t):
        return []
    return [("mind", j) for j in psychic.mind_targets(d.s, d.i, d.sight())]


def latching(d: Decision) -> list[Action]:
    """IX LATCH ON: "As a melee attack"."""
    return latch.actions(d.s, d.i, d.adjacent()) if d.has("LATCH ON") else []


def mobbing(d: Decision) -> list[Action]:
    """IX MOB: a joint melee."""
    return mob.actions(d.s, d.i, d.adjacent()) if mob.size(d.s, d.i) > 1 else []


def joining(d: Decision) -> list[Action]:
    """IX MOB: the action a member keeps for a mob."""
    return mob.joins(d.s, d.i, d.adjacent()) if mob.leads(d.s, d.i) else []


def ending(d: Decision) -> list[Action]:
    """The end of the activation; V CHARGE: "an additional half move ... before meleeing": not for
    a charger that has spent some of its half move while it may melee its target or step on
    towards it (reading ``charge``)."""
    if d.s.charging and charge.dipped(d.s) and ((d.acting and melee(d)) or steps(d)):
        return []
    return [("end",)]


def steps(d: Decision) -> list[Action]:
    """V: the board's steps, when the model may still move (IX MINDLESS: towards the nearest enemy)."""
    if not may_move(d.s):
        return []
    return toward_nearest(d.s, board_steps(d.s)) if mindless(d.s) else board_steps(d.s)


def drop(d: Decision) -> list[Action]:
    """V CARRYING: "You may drop the item at any time during your turn for free"."""
    return [("drop",)] if items.carries(d.s, d.i) else []


Builder = Callable[[Decision], list[Action]]
#: the builders of a model's action in full, each with the kinds it gives, in the order of the
#: legal actions (:func:`full_actions`)
FULL_ACTION: tuple[tuple[tuple[str, ...], Builder], ...] = (
    (("shoot",), shots),
    (("fists",), two_fisted),
    (("detonate",), lambda d: detonate.actions(d.s, d.i)),  # IX DETONATE
    (("mind",), mind),
    (("melee",), melee),
    (("latch",), latching),
    (("mob",), mobbing),
    (("join",), joining),
    (("dive",), diving),
    (("ladder_melee",), lambda d: ladder.actions(d.s)),  # V: a ladder blocked at its far end
    (("reload", "unjam"), tend),
    (("recover",), lambda d: recover_actions(d.s)),  # VIII STICK
    (("pickup",), lambda d: items.pickup_actions(d.s)),  # V PICKING UP
    (("force", "close_entry"), lambda d: entry.actions(d.s)),  # VI FORCE ENTRY on a table
    (("shoot_sector", "melee_sector", "shoot_piece", "melee_piece"), lambda d: ruin.actions(d.s)),  # VI
    (("hide",), hide),
    (("extra", "charge"), moving),
)


def full_actions(d: Decision) -> list[Action]:
    """The model's action: in full, or only a melee after a charge (V CHARGE) or a wounded model's
    move (VIII WOUND: move and melee only)."""
    if d.s.charged or (d.wounded and d.s.moved > 0):
        return melee(d)
    out: list[Action] = []
    for _, build in FULL_ACTION:
        out.extend(build(d))
    return out


# ---------------------------------------------------------------------- moves
def board_steps(s: GameState) -> list[Action]:
    """The board's steps (:meth:`~.board.Board.steps`) the move left pays for; a whole-move step
    (V: a tall ladder; X: a manhole) only before any other step, with the whole move left; a
    charger's as :func:`.charge.step_ok` allows (reading ``charge``)."""
    found = big.entering(s, flight.steps_of(s))  # IX FLY, JUMP PACK: air steps; IX BIG: entries
    full = s.moved == 0 and s.budget >= s.move_of(s.tokens[s.active])
    budget, climbs = s.budget + EPS, climb.CLIMBS
    target = charge.melee_target(s) if s.charging else -1  # V CHARGE: its half move's steps
    return [
        (kind,) + to  # noqa: RUF005  (one tuple joined: faster than (kind, *to))
        for kind, to, cost in found
        if (full if cost == FULL else cost <= budget)
        and (kind not in climbs or climb.chance(s, kind, to) > 0)
        and (target < 0 or charge.step_ok(s, kind, to, cost))
    ]


#: the board's steps that move no model (a door opened or closed), which MINDLESS leaves alone
IN_PLACE = ("open", "close")


def toward_nearest(s: GameState, moves: list[Action]) -> list[Action]:
    """IX MINDLESS: "You must always move towards ... the nearest target" (reading ``mindless``:
    each step nearer, by steps, the nearest enemy not hidden, by range as FERAL's; it may stop).
    "move" names no kind of step, so every step that moves the model (plain steps, climbs, jumps,
    drops, ladders, manholes, air steps) lands nearer; opening or closing a door moves it nowhere."""
    me, board = s.tokens[s.active], s.setup.board
    targets = [s.tokens[j].sq for j in enemies(s, me.side) if not s.tokens[j].hidden]
    if not targets:
        return moves
    near = min(board.range(me.sq, sq) for sq in targets)
    dist = board.distances(sq for sq in targets if board.range(me.sq, sq) == near)
    here = dist.get(me.sq, 10**6)
    return [a for a in moves if a[0] in IN_PLACE or dist.get(tuple(a[1:]), 10**6) < here]


# ---------------------------------------------------------------------- the whole list
def legal_actions(s: GameState) -> list[Action]:
    """The player's choices: which model to activate, then its steps and its one action (I)."""
    if s.ended or s.pending:
        return []
    if s.psy is not None and s.psy.prompt:  # VII: a card window or a discard
        return deck.prompt_actions(s)
    if s.control:  # IX CONTROL: the killer's player chooses
        return control.actions(s)
    if s.active < 0:
        return activations(s)
    if placing(s):  # IX INFILTRATE in a battle game: where it starts
        return placements(s)
    return _questions(s) or _own(s, Decision(s))


def _questions(s: GameState) -> list[Action]:
    """The answers to a question put to a player in the mover's turn (IX AMBUSH, V ZOC, IX SNAP
    FIRE), none when none is put."""
    if s.snap:  # IX SNAP FIRE: the defender's player chooses (before a ZOC's or an ambusher's melee)
        return [("pass",), *(("snap", w) for w in snap.pistols(s, s.snap[1]))]
    if s.ambush:  # IX AMBUSH: the revealed model's player chooses
        return ambush.actions(s)
    if s.zoc:  # V ZOC: the enemy's player chooses
        return [("pass",), ("zoc", s.zoc[2][0])]
    return []


def _own(s: GameState, d: Decision) -> list[Action]:
    """The active model's choices in its own activation."""
    if d.t.last:  # IX HORROR: a last attack, no move
        return [a for a in full_actions(d) if a[0] in ("shoot", "melee", "fists")] + [("end",)]
    out: list[Action] = full_actions(d) if d.acting else []
    out.extend(deck.cast_actions(s))  # VII CARDS
    brute = mindless(s)
    if brute and out:  # IX MINDLESS: "attack the nearest target, preferrably in melee"
        hits = [a for a in out if a[0] == "melee"]
        out = hits or [a for a in out if a[0] in ("shoot", "fists")] or out
    else:
        out.extend(more_melee(d))
    out.extend(free_hide(d))
    out.extend(steps(d))
    out.extend(drop(d))
    if not (brute and d.acting and any(a[0] in ("melee", "shoot", "fists") for a in out)):
        out.extend(ending(d))
    return out


__all__ = [
    "FULL_ACTION",
    "Decision",
    "adjacent_enemies",
    "ending",
    "enemies",
    "full_actions",
    "legal_actions",
    "may_act",
    "may_hide",
    "may_move",
    "mindless",
    "targets_in_sight",
    "wounded",
]
