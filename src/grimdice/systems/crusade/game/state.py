"""The state of a Rules Crusade game on its board (a grid or a table, :mod:`.board`), on the
:mod:`grimdice.engine.game` interface: immutable, hashable, ``current_player`` /
``legal_actions`` / ``chance_outcomes`` / ``apply`` / ``returns``. The rules live in :mod:`.rules`;
this module holds the data and its invariants.

Actions are tuples of JSON values (a game log is the seed, the scenario and the actions):
``("activate", i)``, ``("move", x, y)`` (on a table ``("move", x, y, z)``, and ``("ladder", ...)``,
``("jump", ...)``, ``("scrabble", ...)``, ``("fall", ...)``, ``("hang", ...)``, ``("force", sector,
weapon)`` (weapon "": a melee), ``("close_entry", n)``, ``("shoot_sector", sector, weapon)``,
``("melee_sector", sector)``, ``("shoot_piece", n, weapon)``, ``("melee_piece", n)``, ``("dive", j)``,
``("ladder_melee", j)``),
``("open", x, y)``, ``("close", x, y)``, ``("manhole", x, y)``, ``("shoot", target, weapon)`` (SPLIT
FIRE and RAPID FIRE also ``("shoot", target, weapon, target2)``), ``("melee", target)``,
``("charge", target)``, ``("reload", weapon)``, ``("unjam", weapon)``, ``("recover", weapon)``,
``("detonate", weapon)``, ``("hide",)``, ``("extra",)``, ``("pickup", n)``, ``("drop",)``,
``("end",)``, IX's ``("fists", target, *target2)``, ``("latch", target)``, ``("mob", target,
*members)`` and, after a CONTROL model's kill,
``("control", target)`` / ``("pass",)``; the other player's
``("zoc", e)`` / ``("pass",)`` (V ZOC), ``("snap", pistol)`` / ``("pass",)`` (IX SNAP FIRE) and an
ambusher's attack or ``("pass",)`` (IX AMBUSH); a psyker's ``("mind", target)`` and
``("cast", psyker, card, *target)`` (VII), PROJECTION's ``("dissipate", ghost)``, the other player's
cards or ``("pass",)`` in its card window (a PRECOGNANT at a declared attack) and a killed player
psyker's ``("discard", card)``; chance outcomes are ``("first", player)``,
``("draw", card)``, ``("shamble", move)``, ``("horror", face)``, ``("attack", k)`` (the k-th end of
the attack's law), ``("card", ok, incursion)``, ``("unjam", ok)``, ``("detonate", ok)``, VI's
``("force", made)`` or ``("force", made, failed weapon)`` and X's ``("reinforce", ok)``; IX VOLLEY
FIRE's ``("volley", weapon, n, *targets, *others)`` is the active model's action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.systems.crusade.damage import KILLED, KO
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.frozen import altered, altered_by
from grimdice.systems.crusade.game.hidden import observation
from grimdice.systems.crusade.game.scenario import BLIP_MOVE, Piece, Setup

#: a weapon's lasting state (III, VIII): usable, or why not
READY, JAMMED, UNLOADED, LOST, STUCK = "", "jammed", "unloaded", "lost", "stuck"


def has_code(codes: Sequence[str], name: str) -> bool:
    """Whether an effect or ability list carries ``name`` as written (board-only codes included).
    The codes of a list are read once, kept by the list's identity (a profile's lists are read-only)."""
    if not codes:
        return False
    got = _CODE_SETS.get(id(codes))
    if got is None or got[0] is not codes:
        if len(_CODE_SETS) > 4096:
            _CODE_SETS.clear()
        got = _CODE_SETS[id(codes)] = (codes, _codes(tuple(codes)))
    return name in got[1]


#: each list of codes asked about (by identity): the list, kept alive with its entry, and its codes
_CODE_SETS: dict[int, tuple[Sequence[str], frozenset[str]]] = {}


@lru_cache(maxsize=4096)
def _codes(codes: tuple[str, ...]) -> frozenset[str]:
    return frozenset(str(c).strip().upper() for c in codes)


@dataclass(frozen=True)
class Token:
    """A model or an unrevealed blip on the board.

    ``cond`` / ``hits``: its condition (0 unharmed .. 4 killed) and hits left; ``arms``: each
    weapon's state (:data:`READY` ...); ``done``: activated this turn; ``spent``: squares already
    used this turn (a revealed blip's move, V ENEMY CHITS); ``blip``: an unrevealed blip's models
    (profile indices), empty for a model."""

    side: int
    profile: int
    sq: Pos
    cond: int = 0
    hits: int = 1
    hidden: bool = False
    arms: tuple[str, ...] = ()
    done: bool = False
    snapped: int = 0  # IX SNAP FIRE used this turn: the pistols fired (a bit per weapon index)
    horror: int = 0  # IX HORROR: 1 face down (killed, to roll), 2 gone for good
    last: int = 0  # IX HORROR: its die (2 or 3) while it makes its last attack
    spent: float = 0
    blip: tuple[int, ...] = ()
    owner: int = -1  # IX CONTROL: its own force while the other controls it (``side``)
    ruled: int = 0  # IX CONTROL: its owner's turn starts still to come under control
    latch: int = -1  # IX LATCH ON: the model it has latched onto

    @property
    def alive(self) -> bool:
        return self.cond != KILLED

    @property
    def on_board(self) -> bool:
        """It holds its square: alive, or a face-down HORROR (IX)."""
        return self.cond != KILLED or self.horror == 1

    @property
    def standing(self) -> bool:
        """In action: not killed and not knocked out."""
        return self.cond < KO


@dataclass(frozen=True)
class Psy:
    """VII's psychic cards in play (:mod:`.deck`): the deck entries not yet drawn, each force's
    hand (deck entries, sorted), the draws still to make (the drawing force of each), the cards
    played this turn, each psyker's count of cards played this turn (token, count), the models owing
    an action to their following turn (marked, :mod:`.owed`), the lasting card effects (card, token,
    the player whose next turn's start ends it), a decision waiting (``("react", side)``,
    ``("discard", side, n)``, ``("pay", side, ...)``), whether the active psyker's action is playing
    cards, the psykers whose death was dealt with, and an enemy attack held for a PRECOGNANT
    (:mod:`.powers`)."""

    deck: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    draws: tuple[int, ...] = ()
    used: tuple[int, ...] = ()
    cast: tuple[tuple[int, int], ...] = ()
    owed: frozenset[int] = frozenset()
    pays: tuple[tuple[int, int], ...] = ()  # VII: the marked models and the psyker each pays for
    effects: tuple[tuple[str, int, int], ...] = ()
    prompt: tuple[Any, ...] = ()
    casting: bool = False
    mourned: frozenset[int] = frozenset()
    held: tuple[Any, ...] = ()  # PRECOGNANT: an enemy attack waiting on the victims' choice


@dataclass(frozen=True)
class GameState:
    """A game position (see the module text). ``setup`` is shared and compared by identity."""

    setup: Setup
    tokens: tuple[Token, ...]
    open_doors: frozenset[Pos]
    round: int = 0  # 0 before the roll-off, then 1 .. turns
    player: int = 0
    first: int = 0  # the player who goes first each round (I)
    active: int = -1  # the model being activated, or -1
    budget: float = 0  # movement it has left, in the board's unit
    moved: float = 0  # movement it has used this activation
    acted: bool = False  # its action is spent
    charged: bool = False  # V CHARGE: the action left is a melee
    charging: tuple[int, ...] = ()  # V CHARGE: (target, half move) until its melee is over
    meleed: tuple[int, ...] = ()  # IV: opponents meleed in turn this activation
    melee_moved: float = -1  # IV: the move it had used at its first melee (-1: none yet)
    attacked: bool = False  # it attacked this activation (IX FURTIVE)
    risen: bool = False  # VIII STUN: it got up this activation: no free actions either
    origin: Pos | None = None  # where it started its move (V ZOC)
    zoc: tuple[Any, ...] = ()  # a step waiting on enemies' ZOC choices: (position, cost, enemies)
    shamble: int = 0  # IX SHAMBLE: this turn's move of the player's shambling models
    ambush: tuple[int, ...] = ()  # IX AMBUSH: revealed models yet to attack (k) or half move (~k)
    events: tuple[tuple[Any, ...], ...] = ()  # chance events still to come at the turn's start
    snap: tuple[Any, ...] = ()  # a melee waiting on the defender's SNAP FIRE: (i, j, fired, melee)
    items: tuple[tuple[Pos, int], ...] = ()  # per item objective: where it lies, or its carrier
    breaches: tuple[tuple[Pos, int], ...] = ()  # VI forced entries on a table: (marker, sector)
    sector_hits: tuple[tuple[int, int], ...] = ()  # VI: a table's damaged sectors: (sector, hits left)
    rubble: tuple[tuple[str, int], ...] = ()  # VI: a collapse's rolls still to make
    fresh_wounds: frozenset[int] = frozenset()  # the player's models wounded in its own turn (VIII WOUND)
    carried: bool = False  # V CARRYING: the active model carried an item this activation
    pick_first: bool = False  # ... and picked it up before doing anything else
    pending: tuple[Any, ...] = ()  # a chance event (see rules.chance_outcomes)
    winner: int | None = None  # 0, 1, or -1 for a draw, once the game is over
    ended: bool = False
    psy: Psy | None = None  # VII: the psychic cards, in a game with a deck
    control: tuple[int, ...] = ()  # IX CONTROL: a kill its killer may turn into control (i, j, cond, hits)
    mobbing: tuple[tuple[int, ...], ...] = ()  # IX MOB: actions kept for mobs (member, target, round, player)
    reinforced: tuple[int, ...] = ()  # X reinforcements: per group, -1 before it comes, else models entered
    covered: tuple[int, ...] = ()  # X: the sections still covered for exploration (:mod:`.explore`)

    # ------------------------------------------------------------------ the game interface
    def current_player(self) -> int:
        if self.ended:
            return TERMINAL
        if self.pending:
            return CHANCE
        if self.psy is not None and self.psy.prompt:
            return int(self.psy.prompt[1])
        if self.control:  # IX CONTROL: the killer's player, in either turn
            return self.tokens[self.control[0]].side
        if self.snap:
            return self.tokens[self.snap[1]].side
        if self.ambush:
            return self.tokens[self.ambush[0] if self.ambush[0] >= 0 else ~self.ambush[0]].side
        return self.tokens[self.zoc[2][0]].side if self.zoc else self.player

    def legal_actions(self) -> list[tuple[Any, ...]]:
        return (_RULES or _load())[0].legal_actions(self)

    def random_action(self, rng: Any) -> tuple[Any, ...]:
        """A legal action as the random player draws it (:func:`.sampling.random_action`)."""
        return (_RULES or _load())[1].random_action(self, rng)

    def chance_outcomes(self) -> Sequence[tuple[tuple[Any, ...], float]]:
        return (_RULES or _load())[0].chance_outcomes(self)

    def apply(self, action: Sequence[Any]) -> GameState:
        return (_RULES or _load())[0].apply(self, action)

    def returns(self) -> tuple[float, float]:
        """+1 for the winner, -1 for the loser, 0 each for a draw."""
        if self.winner is None or self.winner < 0:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    #: ``observation(player)``: what ``player`` may know of this state (:func:`.hidden.observation`
    #: itself, as the method: the game loop asks at every decision)
    observation = observation

    # ------------------------------------------------------------------ helpers
    def idle(self, **fields: Any) -> GameState:
        """The state with no model being activated (and ``fields`` changed, in the same copy)."""
        return altered_by(self, IDLE | fields if fields else IDLE)

    def with_token(self, i: int, **kw: Any) -> GameState:
        return self.changed_by(i, kw, _NONE)

    def changed(self, i: int, token: dict[str, Any], **fields: Any) -> GameState:
        """The state with token ``i``'s fields ``token`` and its own ``fields`` changed, one copy of
        each; the tokens themselves (the same tuple) when ``token`` changes nothing."""
        return self.changed_by(i, token, fields)

    def changed_by(self, i: int, token: Mapping[str, Any], fields: Mapping[str, Any]) -> GameState:
        """:meth:`changed` with the state's fields given as a mapping."""
        t = self.tokens[i]
        now = t.__dict__
        for k, v in token.items():
            old = now.get(k, _UNSET)  # an unknown field: altered names it
            if type(v) is not type(old) or v != old:
                break
        else:
            return altered_by(self, fields) if fields else self
        tokens = list(self.tokens)
        tokens[i] = altered_by(t, token)
        changes = dict(fields)
        changes["tokens"] = tuple(tokens)
        return altered_by(self, changes)

    def occupant(self, sq: Pos) -> int:
        """The token on a square (killed models leave the board), or -1."""
        for i, t in enumerate(self.tokens):
            if t.sq == sq and (t.cond != KILLED or t.horror == 1):  # on the board
                return i
        return -1

    def occupied(self) -> set[Pos]:
        return {t.sq for t in self.tokens if t.cond != KILLED or t.horror == 1}  # on the board

    def sides(self) -> dict[Pos, int]:
        """Each position holding a token, and the token's force."""
        return {t.sq: t.side for t in self.tokens if t.cond != KILLED or t.horror == 1}

    def doors(self) -> dict[Pos, bool]:
        """Each door square, open or not (read only: a board without doors shares one empty dict)."""
        squares = self.setup.board.door_squares
        return {sq: sq in self.open_doors for sq in squares} if squares else _NO_DOORS

    def move_of(self, t: Token) -> int:
        if t.blip:
            return BLIP_MOVE
        return self.shamble if t.profile in shamblers(self.setup) else self.setup.profiles[t.profile].move

    def armour_of(self, t: Token) -> int:
        return self.setup.blip_armour(t.blip) if t.blip else self.setup.profiles[t.profile].armour


_NO_DOORS: dict[Pos, bool] = {}
_UNSET = object()
_NONE: dict[str, Any] = {}

#: the fields of a state with no model being activated (:meth:`GameState.idle`)
IDLE: dict[str, Any] = {
    "active": -1,
    "budget": 0,
    "moved": 0,
    "acted": False,
    "charged": False,
    "charging": (),
    "meleed": (),
    "melee_moved": -1,
    "attacked": False,
    "risen": False,
    "origin": None,
    "zoc": (),
    "carried": False,
    "pick_first": False,
}

#: :mod:`.rules`, :mod:`.sampling`, :mod:`.arrive` and :mod:`.horror` (which import this module),
#: fetched at the first step and kept: an import at every step would cost more than some steps do
_RULES: list[Any] = []


def _load() -> list[Any]:
    """The rules, the random draw and the turn's start, imported; from then on
    :meth:`GameState.apply` and :meth:`GameState.random_action` are their functions themselves
    (one call a step fewer)."""
    from grimdice.systems.crusade.game import arrive, horror, rules, sampling

    _RULES[:] = [rules, sampling, arrive, horror]
    setattr(GameState, "apply", rules.apply)  # noqa: B010  (a method replaced: mypy would refuse)
    setattr(GameState, "random_action", sampling.random_action)  # noqa: B010
    return _RULES


def token_of(setup: Setup, p: Piece) -> Token:
    """A piece of the scenario as it starts."""
    return Token(
        p.side,
        p.profile,
        p.sq,
        hits=setup.profiles[p.profile].hits if p.profile >= 0 else 1,
        # V: "Treat unrevealed chits as hidden models"; IX INFILTRATE: "You may start Hidden"
        hidden=bool(p.blip) or has_code(setup.profiles[p.profile].abilities, "INFILTRATE"),
        arms=tuple(READY for _ in setup.profiles[p.profile].weapons) if p.profile >= 0 else (),
        blip=p.blip,
    )


def initial_state(setup: Setup) -> GameState:
    """The state before the first turn: every model placed; a roll-off pending unless the
    scenario names the first force (I)."""
    tokens = tuple(token_of(setup, p) for k, p in enumerate(setup.pieces) if k not in setup.unplaced)
    doors = frozenset(sq for sq, is_open in setup.board.doors().items() if is_open)
    items = tuple(
        (setup.board.at(o.squares[0][0], o.squares[0][1]), -1)
        for o in setup.scenario.objectives
        if o.kind == "item"
    )
    from grimdice.systems.crusade.game.deck import deal
    from grimdice.systems.crusade.game.explore import uncover
    from grimdice.systems.crusade.game.infiltrate import first_round

    covered = tuple(range(len(setup.sections)))  # X: the sections covered for exploration
    if setup.first is None:
        return deal(
            uncover(GameState(setup, tokens, doors, pending=("first",), items=items, covered=covered))
        )
    first = setup.first
    s = uncover(
        GameState(setup, tokens, doors, round=1, player=first, first=first, items=items, covered=covered)
    )
    return deal(turn_start(altered(s, round=first_round(s))))  # IX INFILTRATE: round 0


def turn_start(s: GameState) -> GameState:
    """The chance events at the start of a player's turn, each a chance node in turn: IX SHAMBLE
    ("roll 2 reds and add 4 to get the move value ... you may roll once per turn for ALL the
    models' move value for that turn"), then each face-down HORROR's red die; first, the X
    reinforcements due enter or roll (:mod:`.arrive`)."""
    _rules, _sampling, arrive, horror = _RULES or _load()
    s, called = arrive.at_turn_start(s)  # X reinforcements: those due enter, the others roll
    first = (("shamble",),) if shambling(s) else ()
    late = (("shamble",),) if not first and arrive.shamble_coming(s, called) else ()  # after their rolls
    events = first + tuple(("horror", i) for i in horror.waiting(s)) + called + late
    return next_event(s, events)


def shambling(s: GameState) -> bool:
    """Whether a model of the player with IX SHAMBLE stands on the board."""
    slow = shamblers(s.setup)
    return bool(slow) and any(
        t.side == s.player and t.standing and not t.blip and t.profile in slow for t in s.tokens
    )


@lru_cache(maxsize=64)
def shamblers(setup: Setup) -> frozenset[int]:
    """The profiles with IX SHAMBLE, kept per setup."""
    return frozenset(k for k, p in enumerate(setup.profiles) if has_code(p.abilities, "SHAMBLE"))


def next_event(s: GameState, events: tuple[tuple[Any, ...], ...] | None = None) -> GameState:
    """The next turn-start chance event (of ``events``, else of the state's), pending; or none.
    SHAMBLE's roll queued after the reinforcements' rolls is passed over when none of them brought
    a shambling model."""
    left = s.events if events is None else events
    while left and left[0] == ("shamble",) and not shambling(s):
        left = left[1:]
    if not left:
        return altered(s, events=left, pending=())
    return altered(s, pending=left[0], events=left[1:])


def invariant_errors(s: GameState) -> list[str]:
    """What is wrong with a state: two models on one square, a model in a wall or in an air duct
    it may not enter, hits out of bounds, an activation of a token that may not act."""
    board = s.setup.board
    out = []
    seen: dict[Pos, int] = {}
    for i, t in enumerate(s.tokens):
        if not t.on_board:
            continue
        if t.sq in seen:
            out.append(f"tokens {seen[t.sq]} and {i} share square {t.sq}")
        seen[t.sq] = i
        if not board.inside(t.sq) or not board.enterable(t.sq, s.armour_of(t)):
            out.append(f"token {i} stands in a wall or a closed duct at {t.sq}")
        if t.sq in board.door_squares and t.sq not in s.open_doors:
            out.append(f"token {i} stands in a closed door at {t.sq}")
        if not t.blip and not 0 <= t.hits <= s.setup.profiles[t.profile].hits:
            out.append(f"token {i} has {t.hits} hits left")
    if s.active >= 0 and not s.pending and not s.control:  # IX CONTROL: its choice comes first
        t = s.tokens[s.active]
        if t.side != s.player or not t.standing:
            out.append(f"active token {s.active} may not act")
        if s.budget < 0:
            out.append("negative move budget")
    return out


__all__ = [
    "GameState",
    "Psy",
    "Token",
    "has_code",
    "initial_state",
    "invariant_errors",
    "next_event",
    "token_of",
    "turn_start",
]
