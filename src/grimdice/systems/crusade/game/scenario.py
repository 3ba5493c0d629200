"""The scenario file of a Rules Crusade game on a grid or a table (a format of ours: the text gives no
scenarios, victory conditions or profiles), and its checks before any game starts.

.. code-block:: yaml

    system: crusade
    kind: game
    board: {type: grid, map: "...", dark: all, manholes: [[[1, 2], [9, 2]]]}
    profiles: [{name: Marine, move: 6, armour: 2, melee: 1W+1R, weapons: [...]}]
    forces:
      - {name: Marines, zone: A, models: [{profile: Marine, at: [1, 2]}, {profile: Marine}]}
      - {name: Stealers, zone: B, blips: [{at: [12, 3], models: [Stealer, Stealer]}]}
    objectives: [{name: Exit, kind: reach, side: 0, squares: [[14, 3]]}]
    first: roll-off      # or 0 / 1: the force that goes first (I)
    turns: 8             # rounds; then hold objectives are scored

A table board is ``board: {type: table, ...}`` (:mod:`.table_scenario`). Profiles are the
calculator's models (:class:`~grimdice.systems.crusade.profiles.Model`: armour, hits, melee dice,
abilities, weapons with effect codes) with a ``move`` in squares (inches on a table). See
``docs/crusade-game.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal, get_args

from pydantic import Discriminator, Field, Tag

from grimdice.engine.grid import MAX_SIDE, Grid, grid_from_map
from grimdice.errors import ScenarioError
from grimdice.io.fields import Flag, Int, StrictModel, Text, UniqueNames
from grimdice.systems.crusade.game import board as boards
from grimdice.systems.crusade.game.board import GridBoard
from grimdice.systems.crusade.game.reinforce import MAX_GROUPS, Group, Reinforcement, groups
from grimdice.systems.crusade.game.table_scenario import TableSpec, build_table
from grimdice.systems.crusade.profiles import MAX_HITS, Model
from grimdice.systems.crusade.units import Fighter, fighter

MAX_MODELS = 40  # models a force places (blips' models apart)
MAX_BLIPS = 20
MAX_BLIP_MODELS = 6
MAX_TURNS = 30
BLIP_MOVE = 10  # V ENEMY CHITS: "Chits may move 10 inches" (squares on a grid, X)

SquareField = tuple[Int, Int]
PlaceField = tuple[Int, Int] | tuple[Int, Int, Int]  # [x, y]; on a table also [x, y, z]


class Profile(Model):
    """A model's profile: the calculator's :class:`Model` and its move in squares (V, X)."""

    move: Int = Field(6, ge=0, le=24)
    hits: Int = Field(1, ge=1, le=MAX_HITS)  # a model in play has a hit to lose (II)


class Placed(StrictModel):
    """A model of a force: its profile's name and, optionally, its square (else the first free
    square of the force's zone, in reading order)."""

    profile: Text
    at: PlaceField | None = None
    crew: list[Int] = Field(default_factory=list, max_length=4)  # VIII ARTILLERY's crew (:mod:`.crew`)


class Blip(StrictModel):
    """V ENEMY CHITS: a blip (hidden until revealed) and the models it stands for."""

    at: PlaceField
    models: list[Text] = Field(min_length=1, max_length=MAX_BLIP_MODELS)


class Force(StrictModel):
    name: Text = Field(min_length=1, max_length=60)
    zone: Text = Field(min_length=1, max_length=1)  # the map letter of its deployment zone
    models: list[Placed] = Field(default_factory=list, max_length=MAX_MODELS)
    blips: list[Blip] = Field(default_factory=list, max_length=MAX_BLIPS)


class Objective(StrictModel):
    """Ours: ``reach`` — the force ``side`` wins at once when one of its models stands on one of
    the squares; ``hold`` — at the end of the last turn each force scores ``points`` for an
    objective only its models stand on; ``item`` — an item lying on its one square, which the
    force ``side`` wins by bringing to one of the ``to`` squares (V PICKING UP, CARRYING;
    ``heavy``: the carrier may move or act, not both)."""

    name: Text = Field(min_length=1, max_length=60)
    kind: Literal["reach", "hold", "item"] = "hold"
    side: Int | None = Field(None, ge=0, le=1)
    squares: list[SquareField] = Field(min_length=1, max_length=50)
    points: Int = Field(1, ge=1, le=100)
    to: list[SquareField] = Field(default_factory=list, max_length=50)
    heavy: Flag = True


class Board(StrictModel):
    type: Literal["grid"] = "grid"
    map: Text = Field(min_length=1, max_length=MAX_SIDE * (MAX_SIDE + 2))  # rows ending in \n or \r\n
    dark: Literal["all"] | list[SquareField] = Field(default_factory=list, max_length=4096)
    manholes: list[tuple[SquareField, SquareField]] = Field(default_factory=list, max_length=20)
    covered: list[tuple[SquareField, SquareField]] = Field(
        default_factory=list, max_length=20
    )  # X (:mod:`.explore`)
    explorer: Int = Field(0, ge=0, le=1)  # the force that uncovers them


#: the psychic cards a scenario's deck may hold: every card VII names (their effects are ours)
FurtherCard = Literal[  # their effects in :mod:`.powers`
    "CLAIRVOYANT",
    "FRENETIC",
    "INFERNO",
    "JINX",
    "JOSTLE",
    "OBFUSCATE",
    "PHASE",
    "PRECOGNANT",
    "PROJECTION",
    "PSYCHOMETRY",
    "TELEKENISIS",
    "TRIPPER",
]
CardName = Literal["HEAL", "SHIELD", "CURSE", "FLASH", "MIND LANCE", "TELEPORT", FurtherCard]
CARD_NAMES: tuple[str, ...] = get_args(CardName)
FURTHER_CARDS: tuple[str, ...] = get_args(FurtherCard)


class Card(StrictModel):
    """A card of the deck (ours, see ``docs/crusade-game.md``): its name, the dice it rolls and the
    total it needs (after VII's range penalty), and how far it reaches in squares (TELEPORT, PHASE)."""

    card: CardName
    dice: Text = Field("2R", max_length=20)
    need: Int = Field(2, ge=0, le=40)
    range: Int = Field(6, ge=1, le=64)


class Options(StrictModel):
    """The text's optional rules a scenario turns on: IX VOLLEY FIRE ("(Optional) In Battle games",
    :mod:`.volley`): the forces that may volley, or ``true`` for both."""

    volley_fire: Flag | list[Int] = False


class Psychic(StrictModel):
    """VII CARDS in play (ours): which force's psykers are the text's "player psykers" (the other
    force's are "enemy psykers"), and the deck both draw from."""

    player: Int = Field(0, ge=0, le=1)
    deck: list[Card] = Field(default_factory=list, max_length=60)


def _board_kind(v: Any) -> str:
    return str(v.get("type", "grid")) if isinstance(v, Mapping) else str(getattr(v, "type", "grid"))


def _check_board(data: Any) -> None:
    """The board's fields checked first, so that an error names ``board.x`` (not the union's tag)."""
    from grimdice.io.scenario import validate

    board = data.get("board") if isinstance(data, Mapping) else None
    if not isinstance(board, Mapping):
        return
    kind = board.get("type", "grid")
    if kind not in ("grid", "table"):
        raise ScenarioError("board.type", f"'grid' or 'table', got {kind!r}")
    validate(TableSpec if kind == "table" else Board, board, where="board")


class GameScenario(StrictModel):
    system: Literal["crusade"]
    kind: Literal["game"]
    title: Text = Field("", max_length=200)
    board: Annotated[
        Annotated[Board, Tag("grid")] | Annotated[TableSpec, Tag("table")], Discriminator(_board_kind)
    ]
    profiles: Annotated[list[Profile], UniqueNames] = Field(min_length=1, max_length=20)
    forces: list[Force] = Field(min_length=2, max_length=2)
    objectives: list[Objective] = Field(default_factory=list, max_length=10)
    first: Literal["roll-off"] | Int = "roll-off"
    turns: Int = Field(8, ge=1, le=MAX_TURNS)
    psychic: Psychic | None = None
    options: Options = Field(default_factory=Options)
    reinforcements: list[Reinforcement] = Field(default_factory=list, max_length=MAX_GROUPS)  # X


@dataclass(frozen=True)
class Piece:
    """A model (or an unrevealed blip) on the board at the start: side, profile index (-1 for a
    blip), square, and a blip's models (profile indices)."""

    side: int
    profile: int
    sq: boards.Pos
    blip: tuple[int, ...] = ()


@dataclass(frozen=True, eq=False)
class Setup:
    """Everything fixed for a game: the checked scenario, its board and resolved profiles."""

    scenario: GameScenario
    board: boards.Board
    profiles: tuple[Profile, ...]
    fighters: tuple[Fighter, ...]
    pieces: tuple[Piece, ...]
    first: int | None  # None: a roll-off decides
    spawn: tuple[int, ...] = ()  # VII INCURSION: each profile's Warp Spawn profile index, or -1
    ghost: tuple[int, ...] = ()  # VII PROJECTION: each profile's ghost profile index, or -1
    crews: tuple[tuple[int, int], ...] = ()  # VIII ARTILLERY: (crew token, artillery token)
    groups: tuple[Group, ...] = ()  # X reinforcements (:mod:`.reinforce`)
    sections: tuple[frozenset[boards.Pos], ...] = ()  # X covered sections' squares (:mod:`.explore`)
    unplaced: tuple[int, ...] = ()  # ... and the pieces they hold (indices of ``pieces``)
    held: tuple[tuple[int, ...], ...] = ()  # ... each section's pieces
    ruins: frozenset[int] = frozenset()  # a table's collapsed sectors (VI), on a derived setup
    _derived: dict[frozenset[int], Setup] = field(default_factory=dict, repr=False)

    def with_ruins(self, sectors: frozenset[int]) -> Setup:
        """The setup whose table has ``sectors`` collapsed into rubble (VI), kept per set of
        sectors so that equal states share it."""
        if sectors == self.ruins:
            return self
        if sectors not in self._derived:
            board = self.board.ruined(sectors)  # type: ignore[attr-defined]
            self._derived[sectors] = replace(self, board=board, ruins=sectors, _derived=self._derived)
        return self._derived[sectors]

    @property
    def grid(self) -> Grid:
        """The square grid of a grid board (drawing and the web page draw it)."""
        if not isinstance(self.board, GridBoard):
            raise TypeError("not a grid board")
        return self.board.grid

    def blip_armour(self, models: tuple[int, ...]) -> int:
        """Reading ``blip_ducts``: a blip enters an air duct only if all its models could."""
        return max(self.profiles[i].armour for i in models)


def profile_index(sc: GameScenario, name: str, where: str) -> int:
    names = [p.name for p in sc.profiles]
    if name not in names:
        raise ScenarioError(where, f"no profile {name!r}; allowed: {', '.join(names)}")
    return names.index(name)


def square_at(board: boards.Board, sq: Sequence[int], armour: int, where: str) -> boards.Pos:
    """The position a scenario's ``[x, y]`` (on a table also ``[x, y, z]``) names, checked."""
    if isinstance(board, GridBoard):
        grid = board.grid
        if len(sq) != 2:
            raise ScenarioError(where, f"a square on a grid is [x, y], got {list(sq)}")
        s = (int(sq[0]), int(sq[1]))
        if not grid.inside(s):
            raise ScenarioError(where, f"square {list(s)} is off the {grid.width} x {grid.height} board")
        if not grid.enterable(s, armour):
            what = "a wall" if grid.is_wall(s) else "an air duct (armour 1 or less only)"
            raise ScenarioError(where, f"square {list(s)} is {what}")
        return s
    p = board.at(int(sq[0]), int(sq[1])) if len(sq) == 2 else tuple(int(v) for v in sq)
    if not board.inside(p):
        raise ScenarioError(where, f"position {list(sq)} is off the table")
    if not board.enterable(p, armour):
        raise ScenarioError(where, f"position {list(p)} is no place to stand (inside a wall, or in the air)")
    return p


def _place(sc: GameScenario, board: boards.Board) -> list[Piece]:
    taken: dict[boards.Pos, str] = {}
    pieces: list[Piece] = []

    def put(sq: boards.Pos, where: str) -> None:
        if sq in taken:
            raise ScenarioError(where, f"square {list(sq)} already holds {taken[sq]}")
        taken[sq] = where

    for f, force in enumerate(sc.forces):
        zone = board.zone(force.zone)
        for j, m in enumerate(force.models):
            where = f"forces.{f}.models.{j}"
            k = profile_index(sc, m.profile, f"{where}.profile")
            if m.at is not None:
                sq = square_at(board, m.at, sc.profiles[k].armour, f"{where}.at")
            else:
                free = [s for s in zone if s not in taken and board.enterable(s, sc.profiles[k].armour)]
                if not zone:
                    raise ScenarioError(
                        f"forces.{f}.zone", f"no square {force.zone!r} on the board; give 'at'"
                    )
                if not free:
                    raise ScenarioError(where, f"no free square left in zone {force.zone!r}; give 'at'")
                sq = free[0]
            put(sq, where)
            pieces.append(Piece(f, k, sq))
        for j, b in enumerate(force.blips):
            where = f"forces.{f}.blips.{j}"
            ks = tuple(profile_index(sc, n, f"{where}.models.{i}") for i, n in enumerate(b.models))
            sq = square_at(board, b.at, max(sc.profiles[k].armour for k in ks), f"{where}.at")
            put(sq, where)
            pieces.append(Piece(f, -1, sq, ks))
    return pieces


def _board(sc: GameScenario) -> boards.Board:
    """The scenario's board: a grid from its map (zone letters on the map), or a table."""
    zones = [f.zone for f in sc.forces]
    if sc.forces[0].name == sc.forces[1].name:
        raise ScenarioError("forces.1.name", "the forces need different names (a game's log names them)")
    if zones[0] == zones[1]:
        raise ScenarioError("forces.1.zone", "the forces need different zone letters")
    if isinstance(sc.board, TableSpec):
        board = build_table(sc.board)
        for f, z in enumerate(zones):
            if z not in board.zones:
                allowed = ", ".join(sorted(board.zones)) or "none given in board.zones"
                raise ScenarioError(f"forces.{f}.zone", f"no zone {z!r}; allowed: {allowed}")
        for z in sorted(board.zones):
            if not board.zone(z):
                raise ScenarioError(
                    f"board.zones.{z}", "no cell of the zone is a place to stand (a wall fills it)"
                )
        return board
    for f, z in enumerate(zones):
        if not z.isalpha() or z in "Dd":
            raise ScenarioError(f"forces.{f}.zone", f"a map letter other than D/d, got {z!r}")
    try:
        grid = grid_from_map(
            sc.board.map,
            markers=tuple(zones),
            dark=sc.board.dark if sc.board.dark == "all" else [(s[0], s[1]) for s in sc.board.dark],
            links=[((a[0], a[1]), (b[0], b[1])) for a, b in sc.board.manholes],
        )
    except ScenarioError as exc:
        if exc.field.startswith("board.map."):  # an unknown square: a mistyped zone letter?
            _zone_mistyped(sc.board.map, zones)
        raise
    return GridBoard(grid)


def _zone_mistyped(text: str, zones: Sequence[str]) -> None:
    """When the map holds a letter no force names and a force's zone letter is not on it, the
    force's zone letter is the mistake: an error naming ``forces.N.zone``."""
    letters = sorted({c for c in text if c.isalpha() and c not in "Dd"})
    if set(letters) <= set(zones):
        return
    for f, z in enumerate(zones):
        if z not in letters:
            raise ScenarioError(
                f"forces.{f}.zone", f"no square {z!r} on board.map; its letters: {', '.join(letters)}"
            )


def build_setup(data: Any) -> Setup:
    """Validate a game scenario (a mapping or a :class:`GameScenario`) and check it: weapon and
    ability codes, squares on the board and out of walls, one model a square, zones on the map, a
    path between the forces. Every error names its field."""
    from grimdice.io.scenario import validate

    if not isinstance(data, GameScenario):
        _check_board(data)
    sc = data if isinstance(data, GameScenario) else validate(GameScenario, data)
    board = _board(sc)
    fighters = []
    for i, p in enumerate(sc.profiles):
        if p.melee is None:
            raise ScenarioError(f"profiles.{i}.melee", "a game profile needs its base melee dice, e.g. 1W+1R")
        fighters.append(fighter(p, f"profiles.{i}"))
    pieces = _place(sc, board)
    for f in range(2):
        if not any(pc.side == f for pc in pieces):
            raise ScenarioError(f"forces.{f}", "a force needs at least one model or blip")
    a = next(pc.sq for pc in pieces if pc.side == 0)
    b = next(pc.sq for pc in pieces if pc.side == 1)
    if not (board.connected(a, b) or board.connected(b, a)):
        field = "board.map" if isinstance(board, GridBoard) else "board"
        raise ScenarioError(field, f"no path between the forces ({list(a)} to {list(b)})")
    first = sc.first
    if first != "roll-off" and first not in (0, 1):
        raise ScenarioError("first", f"'roll-off', 0 or 1, got {first!r}")
    from grimdice.systems.crusade.game.crew import crews
    from grimdice.systems.crusade.game.explore import sections
    from grimdice.systems.crusade.game.goals import check_objectives
    from grimdice.systems.crusade.game.psychic import psychic_setup
    from grimdice.systems.crusade.game.volley import check

    check(sc)
    arriving = groups(sc, board, pieces)
    check_objectives(sc, board, pieces, arriving)
    covered, each = sections(sc, board, pieces)
    held = tuple(sorted(k for ks in each for k in ks))

    return psychic_setup(
        Setup(
            sc,
            board,
            tuple(sc.profiles),
            tuple(fighters),
            tuple(pieces),
            None if first == "roll-off" else int(first),
            crews=crews(sc, pieces, held),
            groups=arriving,
            sections=covered,
            unplaced=held,
            held=each,
        )
    )


__all__ = [
    "BLIP_MOVE",
    "CARD_NAMES",
    "FURTHER_CARDS",
    "Card",
    "GameScenario",
    "Options",
    "Piece",
    "Profile",
    "Psychic",
    "Setup",
    "build_setup",
]
