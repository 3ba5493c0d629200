"""Damage to buildings on a table and their collapse (VI STRUCTURES AND BUILDINGS).

VI: "Normal buildings have 1 armor, and 10 hits per sector. Armored buildings (sloped sides) have 2
armor. You may destroy buildings by ... firing template, special, grenade or heavy weapons at them.
Weapons with line or area effect add +1 to their roll vs. buildings. +P weapons also add 1 to their
roll. When the building has taken all it's hits, it collapses. Roll 2 reds against any targets
inside (graze = W) ... If they survive, place them in amongst the rubble of the building. Roll 2
reds against any connected sectors for collateral damage."

``["shoot_sector", sector, weapon]``: the active model fires such a weapon (reading
``building_weapons``: a template, a grenade, or a weapon with HEAVY, AREA, LINE or BLAST) at a
sector it sees part of, not from inside its building: the calculator's single shot at a
``kind: building`` defender with the sector's hits left, a chance node ``["sector", k]``. A sector
brought to 0 collapses: a chance node per model inside (``["collapse", k]``: 2 reds against its
armour, graze = wound, :func:`~grimdice.systems.crusade.actions.collapse_law`), then one per
connected sector (``["collateral", k]``: hits off its hits left; one it destroys collapses too, its
models rolled for, its own neighbours not); then the sectors become rubble
(:meth:`~.table.TableBoard.ruined`) and models on their roofs fall to the rubble (V FALLING).

``["melee_sector", sector]``: "You may destroy buildings by meleeing from the inside (vs. armor)":
a model inside the sector melees it, the calculator's melee at a building (reading
``structure_melee``), the same chance node. A roll that fails the weapon leaves its lasting state
(III), and EXPLODE's attack or MALFUNCTION's roll (VIII) is made before the collapse's rolls
(reading ``building_explode``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.actions import collapse_law
from grimdice.systems.crusade.damage import Body
from grimdice.systems.crusade.game import resolve as attacks  # resolve imports this module
from grimdice.systems.crusade.game.answers import kept
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.fails import next_blast, weapon_after
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.situation import MELEE, shot_text, structure_melee
from grimdice.systems.crusade.game.state import READY, GameState, has_code
from grimdice.systems.crusade.game.table import TableBoard, key_piece, piece_key
from grimdice.systems.crusade.game.table_parts import answers
from grimdice.systems.crusade.movement import falling
from grimdice.systems.crusade.units import SHOOTING_KINDS

SECTOR_HITS = 10  # VI: "10 hits per sector"
BUILDING_CODES = ("HEAVY", "AREA", "LINE", "B", "BLAST")
MEMO_LIMIT = 100_000  # the most answers :func:`actions` keeps per table (then it starts afresh)


def hits_left(s: GameState, sector: int) -> int:
    """A sector's hits left, or a barricade's or catwalk's (its :func:`~.table.piece_key`; VI: "1 hit")."""
    for k, hits in s.sector_hits:
        if k == sector:
            return hits
    return SECTOR_HITS if sector >= 0 else 1


def _set_hits(s: GameState, sector: int, hits: int) -> GameState:
    rest = tuple((k, h) for k, h in s.sector_hits if k != sector)
    return altered(s, sector_hits=tuple(sorted((*rest, (sector, hits)))))


def _cells(board: TableBoard, sector: int) -> list[tuple[int, int]]:
    return sorted(c for c, k in board.sector_at.items() if k == sector)


def actions(s: GameState) -> list[tuple[Any, ...]]:
    """``["shoot_sector", sector, weapon]`` for each standing sector the active model sees;
    ``["melee_sector", sector]`` for the standing sector it is inside. Kept with the table for
    what they depend on: the setup (its profiles), the model's position, profile and weapons'
    states, and the sectors' and pieces' hits left."""
    board = s.setup.board
    t = s.tokens[s.active]
    if t.blip or not isinstance(board, TableBoard):
        return []
    key = (s.setup, t.sq, t.profile, t.arms, s.sector_hits)
    return list(kept(answers(board.memo, "actions"), key, lambda: _structure_actions(s, board), MEMO_LIMIT))


def _structure_actions(s: GameState, board: TableBoard) -> list[tuple[Any, ...]]:
    t = s.tokens[s.active]
    here = board.indoors(t.sq)
    out: list[tuple[Any, ...]] = []
    if here >= 0 and hits_left(s, here) > 0 and s.setup.profiles[t.profile].melee is not None:
        out.append(("melee_sector", here))  # VI: "meleeing from the inside (vs. armor)"
    weapons = [
        w.name
        for k, w in enumerate(s.setup.profiles[t.profile].weapons)
        if t.arms[k] == READY and w.kind in SHOOTING_KINDS
    ]
    out.extend(_piece_actions(s, board, weapons))
    eligible = _eligible_names(s.setup, t.profile)
    weapons = [w for w in weapons if w in eligible]
    if not weapons:
        return out
    for sector in _roofs_seen(board, t.sq):
        out.extend(("shoot_sector", sector, w) for w in weapons)
    return out


@lru_cache(maxsize=1024)
def _eligible_names(setup: Setup, profile: int) -> frozenset[str]:
    """The names of a profile's weapons that may be fired at a building."""
    names = [w.name for w in setup.profiles[profile].weapons]
    return frozenset(n for n in names if _eligible_weapon(setup, profile, names.index(n)))


def _eligible_weapon(setup: Setup, profile: int, k: int) -> bool:
    w = setup.profiles[profile].weapons[k]
    arm = setup.fighters[profile].arms[k]
    codes = [str(e).split()[0] for e in w.effects]
    return bool(arm.template) or w.kind == "grenade" or any(has_code(codes, c) for c in BUILDING_CODES)


def _view(board: TableBoard, p: Pos, n: int) -> tuple[bool, bool]:
    """From position ``p``: whether it touches barricade or catwalk ``n`` (feet within 1" of its
    top, cells touching) and whether it sees part of its top; kept per table (it does not change)."""
    kept = answers(board.memo, "views")
    if (p, n) not in kept:
        piece = board.structures[n]
        tops = [(x, y, piece.height) for x, y in sorted(piece.cells)]
        near = any(max(abs(p[0] - x), abs(p[1] - y)) <= 1 for x, y, _ in tops)
        touching = abs(p[2] - piece.height) <= 1 and near
        kept[p, n] = (touching, any(board.sight(p, q, {}) for q in tops))
    return kept[p, n]


def _roofs_seen(board: TableBoard, p: Pos) -> tuple[int, ...]:
    """The sectors of other buildings whose roof position ``p`` sees part of (buildings, then
    sectors, in order); kept per table."""
    kept = answers(board.memo, "roofs")
    if p not in kept:
        building = board.building_of(p)
        sectors = []
        for b, bld in enumerate(board.buildings):
            if bld is building:
                continue
            for sector in board.sectors_of(b):
                roof = [(x, y, bld.height) for x, y in _cells(board, sector)]
                if any(board.sight(p, q, {}) for q in roof):
                    sectors.append(sector)
        kept[p] = tuple(sectors)
    return kept[p]


def _piece_actions(s: GameState, board: TableBoard, weapons: list[str]) -> list[tuple[Any, ...]]:
    """VI Barricades: "May use any kind of attack to damage"; catwalks "As Barricades":
    ``["shoot_piece", n, weapon]`` with any ready ranged weapon at a piece the model sees part of,
    ``["melee_piece", n]`` at a piece it touches (reading ``piece_targets``)."""
    t = s.tokens[s.active]
    out: list[tuple[Any, ...]] = []
    views = answers(board.memo, "views")
    for n in range(len(board.structures)):
        if hits_left(s, piece_key(n)) <= 0:
            continue
        touching, seen = views.get((t.sq, n)) or _view(board, t.sq, n)
        if touching and board.indoors(t.sq) < 0 and s.setup.profiles[t.profile].melee is not None:
            out.append(("melee_piece", n))
        if weapons and seen:
            out.extend(("shoot_piece", n, w) for w in weapons)
    return out


def _building(s: GameState, sector: int) -> dict[str, Any]:
    """The sector as the calculator's ``kind: building`` defender (a barricade or catwalk as its
    ``kind``: VI "Barricades- 2 armor, 1 hit", "Catwalks- 3 armor, 1 hit")."""
    board = s.setup.board
    assert isinstance(board, TableBoard)
    if sector < 0:
        piece = board.structures[key_piece(sector)]
        return {"name": piece.name, "kind": piece.kind, "armour": piece.armour, "hits": 1, "hits_left": 1}
    return {
        "name": f"sector {sector}",
        "kind": "building",
        "armour": board.sector_armour(sector),
        "hits": SECTOR_HITS,
        "hits_left": hits_left(s, sector),
    }


def target_cells(board: TableBoard, key: int) -> list[tuple[int, int, int]]:
    """The positions a shot at a sector (its floor) or a piece (its top) is measured to."""
    if key < 0:
        piece = board.structures[key_piece(key)]
        return [(x, y, piece.height) for x, y in sorted(piece.cells)]
    return [(x, y, 0) for x, y in _cells(board, key)]


def _range_to(board: TableBoard, p: Pos, key: int) -> int:
    """The range from position ``p`` to the nearest of a sector's or piece's :func:`target_cells`,
    kept per table (it does not change)."""
    kept = answers(board.memo, "ranges")
    got = kept.get((p, key))
    if got is None:
        got = kept[p, key] = min(board.range(p, q) for q in target_cells(board, key))
    return int(got)


def sector_shot(s: GameState, i: int, sector: int, weapon: str) -> str:
    """The calculator's single shot of token ``i``'s ``weapon`` at ``sector`` (JSON text)."""
    board = s.setup.board
    assert isinstance(board, TableBoard)
    inches = _range_to(board, s.tokens[i].sq, sector)
    same = ("building", sector, hits_left(s, sector))  # with the board: all _building reads
    return shot_text(s, i, weapon, lambda: _building(s, sector), inches, same, {})


def sector_melee(s: GameState, i: int, sector: int) -> str:
    """The calculator's melee of token ``i`` at ``sector`` from inside (JSON text; reading
    ``structure_melee``: its melee dice against the armour)."""
    return structure_melee(s, i, _building(s, sector))


def start(s: GameState, sector: int, weapon: str) -> GameState:
    """A shot at ``sector`` with ``weapon``, or (``weapon`` :data:`.situation.MELEE`) a melee at it
    from inside: an attack, so the model is revealed (V HIDING)."""
    key = sector_melee(s, s.active, sector) if weapon == MELEE else sector_shot(s, s.active, sector, weapon)
    s = s.changed(s.active, {"hidden": False}, acted=True, attacked=True)
    return altered(s, pending=("sector", s.active, sector, key, weapon))


def outcomes(s: GameState) -> list[tuple[tuple[Any, ...], float]]:
    kind = s.pending[0]
    if kind == "sector":
        return [(("sector", k), p) for k, (_, p) in enumerate(cached_law(s.pending[3]))]
    return [((kind, k), p) for k, (_, p) in enumerate(_law(s, s.pending))]


@lru_cache(maxsize=1024)
def _collapse(start: tuple[int, int], body: Body, armour: int, graze: str) -> tuple[Any, ...]:
    return tuple(sorted(collapse_law(start, body, armour, graze).items()))


def _law(s: GameState, pending: tuple[Any, ...]) -> tuple[Any, ...]:
    kind, n = pending[0], pending[1]
    if kind == "collapse":  # VI: "Roll 2 reds against any targets inside (graze = W)"
        t = s.tokens[n]
        body = s.setup.fighters[t.profile].body
        return _collapse((t.cond, t.hits), body, s.armour_of(t), "wound")
    board = s.setup.board
    body = Body(hits=SECTOR_HITS, structure=True)  # "collateral damage": hits off, no graze
    return _collapse((0, hits_left(s, n)), body, board.sector_armour(n), "")  # type: ignore[attr-defined]


def resolve(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    """The shot's, a collapse roll's or a collateral roll's end; then the next roll, or the ruin."""
    kind = s.pending[0]
    if kind == "sector":
        _, i, sector, key, weapon = s.pending
        (ds, as_, wa, *_), _ = cached_law(key)[int(outcome[1])]
        s = s.with_token(i, arms=weapon_after(s, i, wa, weapon, -1), cond=as_[0], hits=as_[1])
        s = _set_hits(altered(s, pending=()), sector, ds[1])
        if ds[1] == 0:
            s = altered(s, rubble=_fallen(s, sector, True))
        s, blast = attacks.fail_rolls(s, True, ((i, -1, wa),))  # VIII EXPLODE, MALFUNCTION: first
        s = next_blast(s, blast)
        return s if s.pending else _next(s)
    n = s.pending[1]
    (state, _), _ = _law(s, s.pending)[int(outcome[1])]
    s = altered(s, pending=())
    if kind == "collapse":
        return _next(s.with_token(n, cond=state[0], hits=state[1]))
    s = _set_hits(s, n, state[1])
    return _next(altered(s, rubble=s.rubble + _fallen(s, n, False)) if state[1] == 0 else s)


def _fallen(s: GameState, sector: int, spread: bool) -> tuple[tuple[str, int], ...]:
    """The rolls a collapse of ``sector`` makes: each model inside; with ``spread``, each
    connected standing sector."""
    board = s.setup.board
    assert isinstance(board, TableBoard)
    if sector < 0:
        return ()  # a barricade or catwalk: models on it fall as the table changes (V FALLING)
    inside = [("collapse", j) for j, t in enumerate(s.tokens) if t.on_board and board.indoors(t.sq) == sector]
    if not spread:
        return tuple(inside)
    near = [("collateral", k) for k in board.connected_sectors(sector) if hits_left(s, k) > 0]
    return (*inside, *near)


def after_blast(s: GameState) -> GameState:
    """After an explosion's or malfunction's last roll: a collapse it came with goes on."""
    if s.pending or not isinstance(s.setup.board, TableBoard):
        return s
    return _next(s)


def _next(s: GameState) -> GameState:
    """The next roll of the collapse, pending; with none left, the rubble."""
    while s.rubble:
        roll, rest = s.rubble[0], s.rubble[1:]
        s = altered(s, rubble=rest)
        if roll[0] == "collapse" and not s.tokens[roll[1]].alive:
            continue
        return altered(s, pending=roll)
    down = frozenset(k for k, h in s.sector_hits if h == 0)
    if down == s.setup.ruins:
        return s
    return _rubble(s, down)


def _rubble(s: GameState, down: frozenset[int]) -> GameState:
    """The sectors become rubble, the barricades and catwalks destroyed go; models on them fall
    (V FALLING: "For every 4" you fall, take 1 hit (graze = stun)"; FLY takes none; VI: "Models
    on destroyed catwalks, etc. fall as normal"), each to its cell or the nearest free one."""
    s = altered(s, setup=s.setup.with_ruins(down))
    board = s.setup.board
    for j, t in enumerate(s.tokens):
        if not t.on_board or board.enterable(t.sq, 0):
            continue
        taken = s.occupied()
        land = next(p for p in board.free_near((t.sq[0], t.sq[1], 0), 0, {}) if p not in taken)
        cond, hits = t.cond, t.hits
        if not t.blip:
            body = s.setup.fighters[t.profile].body
            cond, hits = falling(float(t.sq[2]), (t.cond, t.hits), body, fly=body.fly)
        s = s.with_token(j, sq=land, cond=cond, hits=hits)
    return s


__all__ = [
    "SECTOR_HITS",
    "actions",
    "after_blast",
    "hits_left",
    "outcomes",
    "resolve",
    "sector_melee",
    "sector_shot",
    "start",
    "target_cells",
]
