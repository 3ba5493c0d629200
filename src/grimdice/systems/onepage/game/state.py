"""The game of One Page 40k v2.21 as a state in the style of game-playing libraries.

:class:`GameState` follows :class:`grimdice.engine.game.State`: ``current_player()`` (0, 1,
``CHANCE`` or ``TERMINAL``), ``legal_actions()``, ``chance_outcomes()``, ``apply(a)`` (a new state;
states are frozen and cheap to copy) and ``returns()`` (both players' scores). The sequence is the
text's: roll-off ("the winner gets to deploy first. He first chooses one table side"), deployment
"within 12" of his table edge", then 4 rounds of alternating activations, each unit taking one
action (Hold, Walk, Run, Assault). Shooting and melee are chance nodes whose outcomes are the exact
engine's end-state tables (``exact.shooting_table`` / ``exact.melee_table``), so the game's combat
results have the law ``calculate()`` gives for the same situation. Simplifications: docs/onepage-game.md.

Actions (JSON-ready lists): ``["side", "south"|"north"]``, ``["hold", u]``, ``["walk", u, dx, dy]``,
``["run", u, dx, dy]``, ``["assault", u, target]``, ``["idle", u]`` (a Pinned unit), then after
Hold/Walk ``["shoot", target]`` (``-1``: no shot; ``["shoot", target, "limited"]`` fires Limited
weapons too; ``["shoot", first, "split", t_1, ...]``: a Relentless unit on Hold aims each weapon
profile at its own target, ``firing.split_actions``). Rules in their own modules: Deep Strike and
Scout (``deployment.py``: ``reserve``/``deploy``/``scout``/``place``/``scatter``), dangerous terrain
(``dangerous.py``), Transport (``transport.py``: ``embark``/``disembark``), who strikes in melee
(``melee_moves.py``), consolidation after a melee (``consolidation.py``: ``consolidate``), Vehicle
facings (``facing.py``), weapon arcs, Indirect and Limited weapons (``firing.py``), Psyker power
dice (``psychic.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np

from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.engine.table.bases import base_distances
from grimdice.engine.table.blocks import (
    EPS,
    blocks,
    blocks_cross,
    blocks_touch,
    blocks_within,
    pair_distances,
    sights,
)
from grimdice.engine.table.sweeps import CONTACT_SLACK, bases_in, covered_models, sweeps_meet_bases
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.exact import melee_table, shooting_table
from grimdice.systems.onepage.game import (
    consolidation,
    dangerous,
    deployment,
    facing,
    firing,
    melee_moves,
    psychic,
    screening,
    transport,
)
from grimdice.systems.onepage.game.cache import firing_state, recall
from grimdice.systems.onepage.game.setup import Setup
from grimdice.systems.onepage.movement import DEPLOY_ZONE, move_distance
from grimdice.systems.onepage.profiles import Conditions
from grimdice.systems.onepage.units import UnitState

ROUNDS = 4  # "After 4 rounds have been played the game ends."
KEEP_CLEAR = 1.0  # "Units may not move within 1" of other units ... when walking and running."


def trunc3(x: float) -> float:
    """``x`` cut (towards zero) to 0.001": a logged move never exceeds its allowance."""
    return math.trunc(x * 1000) / 1000


def trunc3s(x: np.ndarray) -> np.ndarray:
    """:func:`trunc3` of every element (the same values; ``-0.0`` made ``0.0`` as ``math.trunc`` does)."""
    return np.asarray(np.trunc(x * 1000) / 1000 + 0.0)


DIRECTIONS = tuple((math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8))
FRACTIONS = np.array([1.0, 0.5, 0.25])  # each direction's lengths tried, longest first


def cover_centres(setup: Setup) -> list[tuple[float, float]]:
    """The centre (mean corner) of every cover piece that is not impassable: where a move may go to
    take cover (kept in the geometry memo)."""

    def compute() -> list[tuple[float, float]]:
        pieces = [p for p in setup.table.terrain if p.has("cover") and not p.has("impassable")]
        return [(float(c[0]), float(c[1])) for c in (p.corners.mean(axis=0) for p in pieces)]

    return recall(setup, ("cover centres",), compute)


@dataclass(frozen=True)
class Standing:
    """The units on the table in a state (:meth:`GameState.standing`): all their models' centres
    ``pts`` ``(M, 2)`` and ``radii`` ``(M,)``, each model's unit ``owner`` ``(M,)``, the units
    ``ids`` in order, each one's model count ``sizes`` and where its models start in ``pts``."""

    pts: np.ndarray
    radii: np.ndarray
    owner: np.ndarray
    ids: list[int]
    sizes: np.ndarray
    starts: np.ndarray
    at: dict[int, int]  # each unit's index in ids
    sides: tuple[list[int], ...]  # the units of each player
    key: tuple[Any, ...]  # what it was built from (a memo key)


def tupled(value: Any) -> Any:
    """``value`` read back from JSON with every list, at every depth, a tuple again: the situation
    keys a state holds are nested tuples (hashable), which JSON writes as lists."""
    return tuple(tupled(v) for v in value) if isinstance(value, (list, tuple)) else value


@dataclass(frozen=True)
class GameState:
    """Everything that changes in a game (the armies and table are in the shared :class:`Setup`)."""

    setup: Setup
    phase: str = "rolloff"  # rolloff, side, play, shoot, combat, end
    player: int = 0  # the player to act (play/shoot/side)
    round: int = 1
    first: int = 0  # who goes first this round
    finished_first: int = -1  # "the player that finished activating first in the previous round"
    south: int = 0  # the player deployed along the y = 0 edge
    units: tuple[UnitState, ...] = ()
    anchors: tuple[tuple[float, float], ...] = ()
    activated: tuple[bool, ...] = ()
    active: int = -1  # the unit acting (shoot/combat phases)
    action: str = ""  # its action this activation
    pending: tuple[Any, ...] = ()  # the combat awaiting chance: ("shoot"|"melee", a, d, conditions)
    # where each unit is (empty: all on the table): ON_TABLE, RESERVE (Deep Strike) or the index of
    # the transport it is embarked in; and the units awaiting a deployment step (deployment.py)
    place: tuple[int, ...] = ()
    todo: tuple[int, ...] = ()
    facing: tuple[float, ...] = ()  # Vehicles' headings in radians (empty: the defaults, facing.py)
    spent: tuple[tuple[int, str], ...] = ()  # (unit, Limited weapon) already fired (firing.py)
    power: tuple[int, ...] = ()  # (round, player 0's power dice, player 1's) (psychic.py)
    # the active unit's Assault: (block's start x, y, assault distance), for its models' own moves
    # (melee_moves.assaulters_moved); and whether the active unit was Shaken during this activation
    charge: tuple[float, ...] = ()
    shook: bool = False
    # a Relentless split shooting's shootings still to resolve after ``pending``: (target, situation)
    volley: tuple[tuple[int, tuple[Any, ...]], ...] = ()

    # ------------------------------------------------------------------ protocol

    def current_player(self) -> int:
        if self.phase == "end":
            return TERMINAL
        if self.phase in ("rolloff", "combat", psychic.KIND) or self.phase in deployment.CHANCE_PHASES:
            return CHANCE
        return self.player

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.phase == "rolloff":
            # "in the event of a tie the players must re-roll until there is a winner"
            return [(0, 0.5), (1, 0.5)]
        if self.phase == "combat":
            return [(i, p) for i, (_, p) in enumerate(self.combat_table())]
        if self.phase in deployment.CHANCE_PHASES:
            return deployment.chance_outcomes(self)
        if self.phase == psychic.KIND:
            return psychic.chance_outcomes(self)
        raise ValueError("not a chance node")

    def legal_actions(self) -> list[list[Any]]:
        if self.phase == "side":
            return [["side", "south"], ["side", "north"]]
        if self.phase == "shoot":
            targets = self.valid_targets(self.active)
            return [
                *firing.shoot_actions(self, self.active, targets),
                *firing.split_actions(self, self.active, targets, self.action),
                ["shoot", -1],
            ]
        if self.phase in deployment.PHASES:
            return deployment.legal_actions(self)
        if self.phase == consolidation.KIND:
            return consolidation.legal_actions(self)
        if self.phase != "play":
            return []
        cached: list[list[Any]] | None = self.__dict__.get("_legal")
        if cached is None:  # a state is frozen: its legal actions are computed once
            cached = []
            for u in self.ready(self.player):
                cached += self.unit_actions(u)
            object.__setattr__(self, "_legal", cached)
        return list(cached)

    def apply(self, a: Any) -> GameState:
        if self.phase == "rolloff":
            return replace(self, phase="side", player=int(a), first=int(a))
        if self.phase == "side":
            south = self.player if a[1] == "south" else 1 - self.player
            return deployment.begin(deploy(self.setup, self.player, south))
        if self.phase in deployment.PHASES or self.phase in deployment.CHANCE_PHASES:
            return deployment.apply(self, a)
        if self.phase == "combat":
            return self.resolve(int(a))
        if self.phase == consolidation.KIND:
            return consolidation.apply(self, a)
        if self.phase == psychic.KIND:
            return psychic.apply(self, a)
        kind = a[0]
        if kind == "shoot":
            t = int(a[1])
            if t < 0:
                return self.end_activation()
            s = facing.pivot_to(self, self.active, t) if self.action == "hold" else self
            if firing.is_split(a):  # Relentless: one shooting per target, resolved in turn
                (t, key), *rest = firing.split_shots(self, self.active, a, self.action)
                return replace(s, phase="combat", pending=("shoot", self.active, t, key), volley=tuple(rest))
            key = self.shot_key(self.active, t, limited=firing.limited_held(self, self.active, a))
            s = firing.fired(s, self.active, t, a, key)
            return replace(s, phase="combat", pending=("shoot", self.active, t, key))
        u = int(a[1])
        if kind in transport.KINDS or (kind == "assault" and not self.on_table(u)):
            return transport.apply(self, a)
        if kind == "idle":
            # "Pinned units must spend their next activation being idle, which recovers them"
            s = self.with_unit(u, replace(self.units[u], pinned=False))
            return replace(s, active=u, action="idle").end_activation()
        if kind == "hold":
            return replace(self, phase="shoot", active=u, action="hold")
        if kind in ("walk", "run"):
            s = facing.turned(self.moved(u, float(a[2]), float(a[3])), u, float(a[2]), float(a[3]))
            hz = dangerous.hazard(self, s, u, kind, u)  # the dangerous terrain's rolls come first
            if hz is not None:
                return hz
            if kind == "run":  # "Run – ... it may not shoot at any point"
                return replace(s, active=u, action="run").end_activation()
            return replace(s, phase="shoot", active=u, action="walk")
        if kind == "assault":
            t = int(a[2])
            s = self.charged(u, t)
            hz = dangerous.hazard(self, s, u, kind, t)
            if hz is not None:
                return hz
            return replace(
                s, phase="combat", active=u, action="assault", pending=("melee", u, t, s.melee_key(u, t))
            )
        raise ValueError(f"unknown action {a!r}")

    def returns(self) -> list[float]:
        """Each player's score: "sum the point value of all enemy units they completely destroyed,
        or that are pinned"."""
        score = [0.0, 0.0]
        for i, s in enumerate(self.units):
            if s.destroyed or s.pinned:
                score[1 - self.setup.owner[i]] += self.setup.units[i].cost
        return score

    def winner(self) -> int:
        """0 or 1, or -1 for a draw: "The player with the highest score wins." """
        a, b = self.returns()
        return 0 if a > b else 1 if b > a else -1

    def to_json(self) -> dict[str, Any]:
        """The state as JSON (the setup apart: see :meth:`Setup.to_json`)."""
        return {
            "phase": self.phase,
            "player": self.player,
            "round": self.round,
            "first": self.first,
            "finished_first": self.finished_first,
            "south": self.south,
            "units": [
                {
                    "alive": list(s.alive),
                    "damage": list(s.damage),
                    "pinned": s.pinned,
                    "routed": s.routed,
                    "shaken": s.shaken,
                    "immobile": s.immobile,
                }
                for s in self.units
            ],
            "anchors": [list(a) for a in self.anchors],
            "activated": list(self.activated),
            "active": self.active,
            "action": self.action,
            "pending": [*self.pending[:3], list(self.pending[3])] if self.pending else [],
            "place": list(self.place),
            "todo": list(self.todo),
            "facing": list(self.facing),
            "spent": [list(x) for x in self.spent],
            "power": list(self.power),
            "charge": list(self.charge),
            "shook": self.shook,
            "volley": [[t, list(k)] for t, k in self.volley],
        }

    @classmethod
    def from_json(cls, setup: Setup, data: dict[str, Any]) -> GameState:
        p = data["pending"]
        return cls(
            setup,
            data["phase"],
            data["player"],
            data["round"],
            data["first"],
            data["finished_first"],
            data["south"],
            tuple(
                UnitState(
                    tuple(u["alive"]),
                    tuple(u["damage"]),
                    u["pinned"],
                    u["routed"],
                    u["shaken"],
                    u["immobile"],
                )
                for u in data["units"]
            ),
            tuple((float(x), float(y)) for x, y in data["anchors"]),
            tuple(data["activated"]),
            data["active"],
            data["action"],
            (p[0], p[1], p[2], tupled(p[3])) if p else (),
            tuple(data.get("place", ())),
            tuple(data.get("todo", ())),
            tuple(float(h) for h in data.get("facing", ())),
            tuple((int(u), str(w)) for u, w in data.get("spent", ())),
            tuple(int(x) for x in data.get("power", ())),
            tuple(float(x) for x in data.get("charge", ())),
            bool(data.get("shook", False)),
            tuple((int(t), tupled(k)) for t, k in data.get("volley", ())),
        )

    # ------------------------------------------------------------------ geometry

    def side_of(self, u: int) -> int:
        return self.setup.owner[u]

    def flip(self, u: int) -> float:
        return 1.0 if self.setup.owner[u] == self.south else -1.0

    def models(self, u: int, anchor: tuple[float, float] | None = None) -> np.ndarray:
        """Centres of the unit's models alive (the first ``models`` of its formation; read-only),
        kept per state for the unit where it stands (a state is frozen) and in the geometry memo."""
        if anchor is None:
            mine: dict[int, np.ndarray] | None = self.__dict__.get("_models")
            if mine is None:
                mine = {}
                object.__setattr__(self, "_models", mine)
            got = mine.get(u)
            if got is None:
                got = mine[u] = self.models(u, self.anchors[u])
            return got
        ax, ay = anchor
        n, flip = self.units[u].models, self.flip(u)

        def compute() -> np.ndarray:
            pts = self.setup.offsets[u][:n] * np.array([1.0, -flip]) + np.array([ax, ay])
            pts.flags.writeable = False
            return pts

        return recall(self.setup, ("models", u, n, ax, ay, flip), compute)

    def centre(self, u: int) -> np.ndarray:
        """The mean of the unit's model centres where it stands."""
        return np.asarray(self.models(u).mean(axis=0))

    def placed(self, u: int, anchor: tuple[float, float] | None = None) -> tuple[Any, ...]:
        """What a unit's geometry depends on: (unit, models alive, anchor, side) — a memo key."""
        return (u, self.units[u].models, self.anchors[u] if anchor is None else anchor, self.flip(u))

    def alive(self, u: int) -> bool:
        return not self.units[u].destroyed

    def on_table(self, u: int) -> bool:
        """Not in reserve (Deep Strike) nor embarked in a transport."""
        return not self.place or self.place[u] == deployment.ON_TABLE

    def enemies(self, u: int) -> list[int]:
        """The other player's units on the table (alive, not in reserve nor embarked)."""
        return list(self.standing().sides[1 - self.setup.owner[u]])

    def gap(self, u: int, v: int, anchor: tuple[float, float] | None = None) -> float:
        """The closest base-to-base distance between unit ``u`` (at ``anchor``) and unit ``v``."""
        if anchor is None:
            j = self.standing().at.get(v)
            if j is not None and self.standing().at.get(u) is not None:
                return self.gaps(u)[1][j]

        def compute() -> float:
            r = self.setup.radii
            d = base_distances(
                self.models(u, anchor),
                np.full(self.units[u].models, r[u]),
                self.models(v),
                np.full(self.units[v].models, r[v]),
            )
            return float(d.min())

        return recall(self.setup, ("gap", self.placed(u, anchor), self.placed(v)), compute)

    def gaps(self, u: int) -> tuple[np.ndarray, list[float]]:
        """The gap from unit ``u`` where it stands to each unit on the table (in
        :meth:`standing`'s order; as an array and as floats): :meth:`gap`'s values, all at once
        (``base_distances``), kept in the geometry memo with :meth:`standing`."""
        st = self.standing()

        def compute() -> tuple[np.ndarray, list[float]]:
            a = self.models(u)
            d = base_distances(a, np.full(len(a), self.setup.radii[u]), st.pts, st.radii)
            row = np.minimum.reduceat(d.min(axis=0), st.starts)
            return row, row.tolist()

        return recall(self.setup, ("gaps", st.key, u), compute)

    def height(self, u: int, anchor: tuple[float, float] | None = None) -> float:
        return recall(
            self.setup,
            ("height", self.placed(u, anchor)),
            lambda: float(self.setup.table.height_at(self.models(u, anchor)).mean()),
        )

    # ------------------------------------------------------------------ turn order

    def ready(self, p: int) -> list[int]:
        return [
            u
            for u, s in enumerate(self.units)
            if self.setup.owner[u] == p
            and not s.destroyed
            and not self.activated[u]
            and (not self.place or self.place[u] != deployment.RESERVE)
        ]

    def unit_actions(self, u: int) -> list[list[Any]]:
        st, unit = self.units[u], self.setup.units[u]
        if st.pinned:
            return [["idle", u]]
        if not self.on_table(u):  # embarked
            return transport.embarked_actions(self, u)
        out: list[list[Any]] = [["hold", u]]
        if st.immobile:  # "Immobile – The Vehicle may not move or pivot until the end of the game."
            return out
        fulls = (move_distance(unit, "walk"), move_distance(unit, "run"))
        for kind, full, moves in zip(("walk", "run"), fulls, self.moves_within(u, fulls), strict=True):
            for dx, dy in facing.allowed(self, u, full, moves):
                out.append([kind, u, dx, dy])
        reach = move_distance(unit, "assault")
        on = self.standing()
        gaps = self.gaps(u)[1]
        for t in on.sides[1 - self.setup.owner[u]]:
            if gaps[on.at[t]] <= reach + EPS and self.charge_ok(u, t) and facing.charge_allowed(self, u, t):
                out.append(["assault", u, t])
        return out + transport.embark_actions(self, u)

    def end_activation(self) -> GameState:
        wrecked = transport.wreck(self)  # passengers of a destroyed transport first
        if wrecked is not None:
            return wrecked
        u = self.active
        units = list(self.units)
        # Shaken: "must re-roll successful hits until the end of its next activation": Shaken during
        # this very activation (dangerous terrain, return strikes), it lasts through the next one
        if units[u].shaken and self.action != "" and not self.shook:
            units[u] = replace(units[u], shaken=False)
        act = list(self.activated)
        act[u] = True
        s = replace(
            self,
            units=tuple(units),
            activated=tuple(act),
            phase="play",
            active=-1,
            action="",
            pending=(),
            charge=(),
            shook=False,
        )
        return s.next_turn(self.side_of(u))

    def next_turn(self, p: int) -> GameState:
        """ "Then his turn ends and the opposing player does the same. This continues until all
        units have activated, at which point the round ends and a new one begins." """
        ff = self.finished_first
        if ff < 0 and not self.ready(p):
            ff = p
        s = replace(self, finished_first=ff)
        if s.ready(1 - p):
            return replace(s, player=1 - p)
        if s.ready(p):
            return replace(s, player=p)
        if self.round >= ROUNDS:
            return replace(s, phase="end")
        # "At the beginning of each new round the player that finished activating first in the
        # previous round goes first."
        first = ff if ff >= 0 else self.first
        s = replace(
            s,
            round=self.round + 1,
            first=first,
            finished_first=-1,
            activated=tuple(False for _ in self.units),
            player=first,
        )
        return deployment.round_start(s)  # Deep Strike arrivals, then open_round()

    def open_round(self) -> GameState:
        """The round's first activation: the player going first, else the other, else the game ends;
        first the round's power dice when an army has a Psyker (psychic.py)."""
        first = self.first
        if not self.ready(first) and not self.ready(1 - first):
            return replace(self, phase="end")
        if psychic.due(self):
            return replace(self, phase=psychic.KIND)
        return replace(self, player=first if self.ready(first) else 1 - first)

    def with_unit(self, u: int, st: UnitState) -> GameState:
        units = list(self.units)
        units[u] = st
        return replace(self, units=tuple(units))

    # ------------------------------------------------------------------ movement

    def standing(self) -> Standing:
        """Every unit on the table (alive, not in reserve nor embarked) and its models: once per
        state, and kept in the geometry memo by where every unit stands (the states of one
        activation share it)."""
        got: Standing | None = self.__dict__.get("_standing")
        if got is None:
            key = ("standing", self.south, self.anchors, self.place, tuple(s.models for s in self.units))
            got = recall(self.setup, key, lambda: self._standing(key))
            object.__setattr__(self, "_standing", got)
        return got

    def _standing(self, key: tuple[Any, ...]) -> Standing:
        ids = [v for v, sv in enumerate(self.units) if not sv.destroyed and self.on_table(v)]
        sizes = np.array([self.units[v].models for v in ids], dtype=int)
        if ids:
            pts = np.concatenate([self.models(v) for v in ids])
            radii = np.repeat(np.array([self.setup.radii[v] for v in ids]), sizes)
        else:
            pts, radii = np.zeros((0, 2)), np.zeros(0)
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int)
        owner = np.repeat(np.array(ids, dtype=int), sizes)
        sides = tuple([v for v in ids if self.setup.owner[v] == p] for p in (0, 1))
        for arr in (pts, radii, sizes, starts, owner):
            arr.flags.writeable = False
        return Standing(pts, radii, owner, ids, sizes, starts, {v: i for i, v in enumerate(ids)}, sides, key)

    def others(self, u: int, ignore: int = -1) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
        """Every other unit's models: centres, radii, the start index of each unit's block, units."""
        st = self.standing()
        kept = [(v, int(z)) for v, z in zip(st.ids, st.sizes, strict=True) if v != u and v != ignore]
        if not kept:
            return np.zeros((0, 2)), np.zeros(0), np.zeros(0, dtype=int), []
        pts, radii = st.pts, st.radii
        if len(kept) < len(st.ids):
            rows = (st.owner != u) & (st.owner != ignore)
            pts, radii = pts[rows], radii[rows]
        starts = np.cumsum([0] + [z for _, z in kept[:-1]])
        return pts, radii, starts, [v for v, _ in kept]

    def gaps_to(self, u: int, centres: np.ndarray, others: tuple[Any, ...]) -> np.ndarray:
        pts, radii, starts, ids = others
        if not ids:
            return np.zeros(0)
        d = base_distances(centres, np.full(len(centres), self.setup.radii[u]), pts, radii).min(axis=0)
        return np.minimum.reduceat(d, starts)

    def crosses(self, u: int, a: np.ndarray, b: np.ndarray, trait: str) -> bool:
        """Whether moving unit ``u``'s models from ``a`` to ``b`` (straight) puts any part of a base
        over a piece with ``trait`` on the way (``blocks.blocks_cross``: the swept bases)."""
        return bool(blocks_cross(self.setup.table, a, b[None, :, :], trait, self.setup.radii[u])[0])

    def block(self, u: int) -> np.ndarray:
        """The offsets of unit ``u``'s models alive from its anchor, turned to its side."""
        return self.setup.offsets[u][: self.units[u].models] * np.array([1.0, -self.flip(u)])

    def placement_ok(
        self, u: int, start: tuple[float, float], end: tuple[float, float]
    ) -> tuple[bool, bool, bool]:
        """(legal, crossed difficult, crossed dangerous) for moving unit ``u``'s block from
        ``start`` to ``end``: on the table, not into or through impassable terrain (Flying: "may
        move through ... impassable terrain"), never closer than 1" to another unit unless already
        closer."""
        ok, difficult, dangerous = self.placements(u, start, np.array([end], dtype=float))
        return bool(ok[0]), bool(difficult[0]), bool(dangerous[0])

    def placements(
        self,
        u: int,
        start: tuple[float, float],
        ends: np.ndarray,
        only: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`placement_ok` for many end anchors ``ends`` (``(C, 2)``) at once: three ``(C,)``
        arrays (legal, crossed difficult, crossed dangerous; the last two False where not legal).
        ``only`` (``(C,)``): report difficult terrain only where it is True, and leave dangerous
        terrain unchecked (False). Each candidate's answer depends on it alone."""
        table = self.setup.table
        a = self.models(u, start)
        bs = blocks(self.block(u), ends)
        c = len(bs)
        ok, touch = self.terrain(u, a, bs)
        if ok.any():
            ok[ok] = self.kept_clear(u, start, a, bs[ok])
        if touch is None:  # Flying: "they may ignore terrain effects"
            return ok, np.zeros(c, dtype=bool), np.zeros(c, dtype=bool)
        difficult = ok & touch[:, table.having("difficult")].any(axis=1)
        if only is not None:
            return ok, difficult & only, np.zeros(c, dtype=bool)
        return ok, difficult, ok & touch[:, table.having("dangerous")].any(axis=1)

    def terrain(self, u: int, a: np.ndarray, bs: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """(``(C,)``: every base of the block at ``bs[c]`` on the table and the move from ``a`` not
        into or through impassable terrain; ``(C, k)``: the impassable, difficult and dangerous
        pieces each move enters, leaves or crosses, or None for Flying: "may move through ...
        impassable terrain", "they may ignore terrain effects"), every piece and candidate in one
        pass (``geometry.blocks_touch``)."""
        table = self.setup.table
        bounds = bs.min(axis=1), bs.max(axis=1)
        ok = table.spans_on_table(*bounds, self.setup.radii[u])
        if self.setup.units[u].has("flying"):
            return ok, None
        keep = table.having("impassable", "difficult", "dangerous")
        touch = blocks_touch(table, a, bs, keep, self.setup.radii[u], bounds)
        ok &= ~touch[:, table.having("impassable")].any(axis=1)
        return ok, touch

    def kept_clear(
        self,
        u: int,
        start: tuple[float, float],
        a: np.ndarray,
        bs: np.ndarray,
        among: np.ndarray | None = None,
    ) -> np.ndarray:
        """``(C,)``: moving unit ``u``'s models from ``a`` (its block at ``start``) to ``bs[c]``
        ends no closer than 1" to another unit on the table, nor closer than it was to one already
        within 1" ("Units may not move within 1" of other units"; the gaps signed, so bases in
        contact may not move onto each other), and no base passes over another unit's base on the
        way (:meth:`swept_clear`; Flying: "may move through other units"). ``among``: a mask over
        ``standing().ids``, the units to keep clear of (all when None)."""
        st = self.standing()
        ok = np.ones(len(bs), dtype=bool)
        if not st.ids or not len(bs):
            return ok
        r = self.setup.radii[u]
        before = np.minimum.reduceat(
            base_distances(a, r, st.pts, st.radii, signed=True).min(axis=0), st.starts
        )
        # a move of length L changes no gap by more than L: a unit over L + 1" away cannot be met
        reach = float(np.sqrt(((bs[:, 0] - a[0]) ** 2).sum(axis=1)).max()) + KEEP_CLEAR + 0.001
        near = (before < reach) & (np.asarray(st.ids) != u)
        if among is not None:
            near &= among
        if not near.any():
            return ok
        rows = np.repeat(near, st.sizes)
        limit = np.repeat(np.minimum(KEEP_CLEAR, before) - EPS, st.sizes)[rows]
        ok = ~blocks_within(bs, r, st.pts[rows], st.radii[rows], limit)
        if ok.any():
            ok[ok] = self.swept_clear(u, a, bs[ok], near)
        return ok

    def swept_clear(self, u: int, a: np.ndarray, bs: np.ndarray, among: np.ndarray) -> np.ndarray:
        """``(C,)``: no base of unit ``u`` moving straight from ``a`` to ``bs[c]`` passes over a base
        of the units ``among`` marks (a mask over ``standing().ids``): the capsule each base sweeps
        (``sweeps.sweeps_meet_bases``). Flying units "may move through other units". A unit whose
        bases start over another unit's (leaving the transport it was in) may move off them."""
        st = self.standing()
        if self.setup.units[u].has("flying") or not among.any() or not len(bs):
            return np.ones(len(bs), dtype=bool)
        over = base_distances(a, self.setup.radii[u], st.pts, st.radii, signed=True).min(axis=0)
        rows = np.repeat(among, st.sizes) & (np.minimum.reduceat(over, st.starts) >= -CONTACT_SLACK).repeat(
            st.sizes
        )
        starts = np.broadcast_to(a[None, :, :], bs.shape)
        hit = sweeps_meet_bases(starts, bs, self.setup.radii[u], st.pts[rows], st.radii[rows])
        return np.asarray(~hit.any(axis=(1, 2)))

    def moves(self, u: int, kind: str, full: float | None = None) -> list[tuple[float, float]]:
        """Candidate block moves: 8 compass directions, towards each enemy unit (stopping over 1"
        away) and into each cover piece in reach, each at the longest legal length (up to ``full``
        inches; default: the action's distance)."""
        full = move_distance(self.setup.units[u], kind) if full is None else full
        return self.moves_within(u, (full,))[0]

    def moves_within(self, u: int, fulls: tuple[float, ...]) -> list[list[tuple[float, float]]]:
        """:meth:`moves` for several allowances at once (e.g. Walk and Run). Each direction's
        lengths' terrain tests (:meth:`lanes`) are kept in the geometry memo (a unit that has not
        moved meets the same directions turn after turn); the 1" to other units is tested for every
        candidate clear of terrain in one pass (:meth:`kept_clear`)."""
        ax, ay = self.anchors[u]
        towards: list[tuple[float, float, float]] = []  # (unit vector, gap less the 1" kept clear)
        st = self.standing()
        gaps = self.gaps(u)[1] if u in st.at else None
        for t in st.sides[1 - self.setup.owner[u]]:
            c: np.ndarray = recall(self.setup, ("centre", self.placed(t)), partial(self.centre, t))
            d = math.hypot(c[0] - ax, c[1] - ay)
            if d > EPS:
                g = max(0.0, (self.gap(u, t) if gaps is None else gaps[st.at[t]]) - KEEP_CLEAR - 0.05)
                towards.append(((c[0] - ax) / d, (c[1] - ay) / d, g))
        covers: list[tuple[float, float, float]] = []
        for cx, cy in cover_centres(self.setup):
            d = math.hypot(cx - ax, cy - ay)
            if d > EPS:
                covers.append(((cx - ax) / d, (cy - ay) / d, d))
        wanted: list[tuple[float, float, float]] = []  # every allowance's directions, one after another
        sizes: list[int] = []
        for full in fulls:
            group = [(dx, dy, full) for dx, dy in DIRECTIONS]
            group += [(ux, uy, min(full, g)) for ux, uy, g in towards]
            group += [(ux, uy, d) for ux, uy, d in covers if d <= full]
            wanted += group
            sizes.append(len(group))
        ux, uy, length = np.array(wanted, dtype=float).T
        steps = length[:, None] * FRACTIONS[None, :]  # (W, 3): each direction's lengths, longest first
        good = self.lanes(u, wanted, steps)
        if good.any():  # and kept 1" clear of other units
            ends = np.stack([ax + ux[:, None] * steps, ay + uy[:, None] * steps], axis=2)[good]
            good[good] = self.kept_clear(u, (ax, ay), self.models(u), blocks(self.block(u), ends))
        first = good.argmax(axis=1)  # the longest legal length of each direction
        best = steps[np.arange(len(steps)), first]
        dx, dy = trunc3s(ux * best).tolist(), trunc3s(uy * best).tolist()
        found: list[bool] = np.asarray(good.any(axis=1)).tolist()
        out: list[list[tuple[float, float]]] = []
        i = 0
        for size in sizes:
            moves: dict[tuple[float, float], None] = {}  # distinct moves in order
            for w in range(i, i + size):
                if found[w]:
                    moves.setdefault((dx[w], dy[w]))
            out.append(list(moves))
            i += size
        return out

    def lanes(self, u: int, wanted: list[tuple[float, float, float]], steps: np.ndarray) -> np.ndarray:
        """``(W, 3)``: for each direction ``(ux, uy, length)`` of ``wanted`` and each of its lengths
        ``steps`` (:data:`FRACTIONS` of it, 0.5" at least), whether unit ``u``'s block moved that
        far from where it stands is clear of terrain: on the table, not into or through impassable
        terrain, and over its Walk distance not through difficult terrain ("the unit may not move
        more than its Walk action distance"; Strider: "treat difficult terrain as open terrain when
        moving"). Kept in the geometry memo by (unit's place, direction); only the directions the
        memo lacks are computed, in one pass."""
        unit = self.setup.units[u]
        m: dict[Any, Any] = recall(
            self.setup, ("lanes", self.placed(u)), dict
        )  # direction -> lengths' answers
        got: list[Any] = [m.get(row) for row in wanted]
        miss = [i for i, g in enumerate(got) if g is None]
        if miss:
            sub = steps[miss]
            tried = sub >= 0.5
            clear = np.zeros(sub.shape, dtype=bool)
            if tried.any():
                (ax, ay), w = self.anchors[u], np.array([wanted[i] for i in miss], dtype=float)
                ends = np.stack([ax + w[:, 0, None] * sub, ay + w[:, 1, None] * sub], axis=2)[tried]
                a = self.models(u)
                ok, touch = self.terrain(u, a, blocks(self.block(u), ends))
                if touch is not None and not unit.has("strider"):
                    slow = sub[tried] > move_distance(unit, "walk") + EPS
                    ok &= ~(slow & touch[:, self.setup.table.having("difficult")].any(axis=1))
                clear[tried] = ok
            for i, row in zip(miss, clear.tolist(), strict=True):
                got[i] = m[wanted[i]] = tuple(row)
        return np.array(got, dtype=bool).reshape(len(wanted), len(FRACTIONS))

    def moved(self, u: int, dx: float, dy: float) -> GameState:
        ax, ay = self.anchors[u]
        anchors = list(self.anchors)
        anchors[u] = (round(ax + dx, 3), round(ay + dy, 3))
        return replace(self, anchors=tuple(anchors))

    def charged(self, u: int, t: int) -> GameState:
        """The state after ``u``'s Assault move at ``t`` (a Vehicle turns to the move's direction):
        the block's move (:meth:`charge_vector`); its models' own moves on into base contact are
        counted from ``charge`` when the melee's strikers are (``melee_moves.assaulters_moved``).
        Their allowance is the Assault's distance, or the one a ``charge`` already set gives (a Furious
        unit out of a transport: Walk distance, ``transport.apply``)."""
        dx, dy = self.charge_vector(u, t)
        ax, ay = self.anchors[u]
        full = move_distance(self.setup.units[u], "assault")
        if self.charge:
            full = min(full, self.charge[2])
        s = replace(self, charge=(float(ax), float(ay), full))
        return facing.turned(s.moved(u, dx, dy), u, dx, dy)

    def charge_vector(self, u: int, t: int, unit: bool = False) -> tuple[float, float]:
        """The Assault move: the block straight towards the closest enemy model until bases touch
        (``unit``: the unit vector of that direction instead)."""
        a, b = self.models(u), self.models(t)
        d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
        i, j = np.unravel_index(int(np.argmin(d)), d.shape)
        vec = b[j] - a[i]
        dist = float(np.linalg.norm(vec))
        gap = dist - self.setup.radii[u] - self.setup.radii[t]
        if unit:
            return (float(vec[0] / dist), float(vec[1] / dist)) if dist > EPS else (0.0, 0.0)
        if dist < EPS or gap <= 0:
            return 0.0, 0.0
        w = vec / dist
        go = min(gap, first_contact(a, b, w, self.setup.radii[u] + self.setup.radii[t]))
        return round(float(w[0] * go), 3), round(float(w[1] * go), 3)

    def charge_ok(self, u: int, t: int) -> bool:
        """A valid Assault target: in reach with "a clear path to it" (on the table, no impassable
        terrain on the way; the move's length capped at Walk distance through difficult terrain;
        kept in the geometry memo by both units' places), and an end no closer than 1" to a friendly
        unit (nor closer than it already was): "Units may move within 1" of enemy units when using
        assault actions", only of them."""
        path = recall(self.setup, ("charge", self.placed(u), self.placed(t)), lambda: self._charge_ok(u, t))
        return path and self.clear_of_friends(u, t) and self.charge_lane_clear(u, t)

    def _charge_ok(self, u: int, t: int) -> bool:
        dx, dy = self.charge_vector(u, t)
        ax, ay = self.anchors[u]
        unit = self.setup.units[u]
        end = (ax + dx, ay + dy)
        table = self.setup.table
        a, b = self.models(u), self.models(u, end)
        if not table.on_table(b, self.setup.radii[u]).all():
            return False
        if unit.has("flying"):
            return True
        if self.crosses(u, a, b, "impassable"):
            return False
        if self.crosses(u, a, b, "difficult") and not unit.has("strider"):
            return math.hypot(dx, dy) <= move_distance(unit, "walk") + EPS
        return True

    def charge_lane_clear(self, u: int, t: int) -> bool:
        """The Assault's path passes over no base of a unit but the target ("a clear path to it"), so
        it ends in contact with the target only (Flying: "may move through other units")."""
        st = self.standing()
        among = np.array([v not in (u, t) for v in st.ids], dtype=bool)
        dx, dy = self.charge_vector(u, t)
        start = self.anchors[u]
        ends = blocks(self.block(u), np.array([(start[0] + dx, start[1] + dy)], dtype=float))
        return bool(self.swept_clear(u, self.models(u), ends, among)[0])

    def clear_of_friends(self, u: int, t: int) -> bool:
        """The Assault's block end keeps 1" from every friendly unit but ``t`` (a transport it embarks
        on): :meth:`kept_clear` among them only; it depends on where they stand, so it is not kept
        with the path in the memo."""
        st = self.standing()
        owner = self.setup.owner[u]
        friends = np.array([self.setup.owner[v] == owner and v != t for v in st.ids], dtype=bool)
        if not friends.any():
            return True
        dx, dy = self.charge_vector(u, t)
        start = self.anchors[u]
        ends = blocks(self.block(u), np.array([(start[0] + dx, start[1] + dy)], dtype=float))
        return bool(self.kept_clear(u, start, self.models(u, start), ends, among=friends)[0])

    # ------------------------------------------------------------------ shooting

    def weapon_range(self, u: int, indirect: bool = False) -> float:
        """The longest range of ``u``'s ranged weapons alive (``indirect``: of its Indirect ones)."""
        st = self.units[u]
        rs = [
            w.range
            for g, n in zip(self.setup.units[u].groups, st.alive, strict=True)
            if n
            for w in g.weapons
            if w.range is not None and (w.has("indirect") or not indirect)
        ]
        return float(max(rs)) if rs else 0.0

    def sight(self, u: int, t: int, anchor: tuple[float, float] | None = None) -> tuple[int, float]:
        """(models of ``u`` that see a model of ``t`` within the longest weapon range, the farthest
        such model's distance): "If at least one model in the unit has line of sight to an enemy
        unit and has a weapon that is within range of that unit, then that enemy is a valid target."
        Terrain first (memo ``("sight", ...)``), then other units' models (``screening.py``)."""
        key = ("sight", self.units[u].alive, self.placed(u, anchor), self.placed(t))
        return screening.sight(self, u, t, anchor, recall(self.setup, key, lambda: self._sight(u, t, anchor)))

    def _sight(self, u: int, t: int, anchor: tuple[float, float] | None) -> tuple[int, float]:
        rng = self.weapon_range(u)
        if rng <= 0:
            return 0, 0.0
        a, b = self.models(u, anchor)[None, :, :], self.models(t)
        d = pair_distances(a, self.setup.radii[u], b, np.full(len(b), self.setup.radii[t]))
        return sights(self.setup.table, a, b, d, rng, [len(b)])[0][0]

    def valid_targets(
        self, u: int, anchor: tuple[float, float] | None = None, action: str | None = None
    ) -> list[int]:
        """Enemies some model sees (or reaches with an Indirect weapon) with a weapon in range and,
        for a Vehicle, in arc (firing.py)."""
        action = action or self.action or "hold"
        rounded = self._rounded(u, anchor)
        return [
            t
            for t in self.enemies(u)
            if firing.reach(self, u, t, anchor)[0] > 0 and firing.can_bear(self, u, t, rounded, action)
        ]

    def in_cover(self, shooter: int, t: int, anchor: tuple[float, float] | None = None) -> bool:
        """Cover: "If the majority of models in a unit are within or behind a piece of cover
        terrain" — inside a cover piece, or the line from the shooters' centre (at ``anchor``)
        crosses one the shooters' centre is not in (``sweeps.covered_models``)."""
        b = self.models(t)
        covered = covered_models(self.setup.table, self.models(shooter, anchor), b)
        return 2 * int(covered.sum()) > len(b)

    def shot_key(
        self,
        u: int,
        t: int,
        anchor: tuple[float, float] | None = None,
        action: str | None = None,
        limited: bool = True,
    ) -> tuple[Any, ...]:
        """The shooting situation as the exact engine's scenario conditions (a hashable key):
        (distance, models firing, cover, elevated target, action, the target Vehicle's facing, the
        weapons out of arc or spent (Limited), no line of sight (Indirect), Limited weapons held back
        or all spent)."""
        key = ("shot", *screening.sight_key(self, u, t, anchor))
        where = recall(self.setup, key, lambda: self._shot_where(u, t, anchor))
        return self.shot_situation(u, t, self._rounded(u, anchor), where, action, limited)

    def shot_situation(
        self,
        u: int,
        t: int,
        rounded: tuple[float, float] | None,
        where: tuple[Any, ...],
        action: str | None = None,
        limited: bool = True,
    ) -> tuple[Any, ...]:
        """:meth:`shot_key` from ``where`` (:meth:`_shot_where`'s distance, models firing, cover,
        elevated target, no line of sight) at the recorded position ``rounded``: the target's
        facing, the action, the weapons that cannot fire and the Limited flag added."""
        dist, n, cover, elevated, blind = where
        face = facing.hit_facing(self, u, t, rounded)  # a Vehicle target's facing
        act = "hold" if (action or self.action or "hold") == "hold" else "walk"
        off = firing.unusable(self, u, t, rounded, act)
        return (dist, n, cover, elevated, act, face, off, blind, limited or firing.spent(self, u))

    def _rounded(self, u: int, anchor: tuple[float, float] | None) -> tuple[float, float] | None:
        """The position as a move there would record it (see :meth:`moved`)."""
        if anchor is None:
            return None
        ax, ay = self.anchors[u]
        return round(ax + (anchor[0] - ax), 3), round(ay + (anchor[1] - ay), 3)

    def _shot_where(self, u: int, t: int, anchor: tuple[float, float] | None) -> tuple[Any, ...]:
        """(distance, models in range, cover, elevated target, no line of sight) of ``u`` at
        ``anchor`` shooting ``t``; no line of sight: True (no model sees), or (models firing
        Indirect weapons without it, their distance) besides those that see."""
        n, far, blind = firing.reach(self, u, t, anchor)
        if blind:  # the exact engine counts models in listed group order (firing.blind_firers)
            n = firing.blind_firers(self, u, n)
        sightless: bool | tuple[int, float] = blind
        if n and not blind:  # the models that do not see may fire Indirect weapons (firing.parts)
            extra = firing.blind_extra(self, u, t, anchor, n)
            if extra[0]:
                n, sightless = n + extra[0], extra
        anchor = self._rounded(u, anchor)
        return (
            self.range_band(u, far, blind),
            n,
            self.covered(u, t, anchor),
            self.elevated(u, t, anchor),
            sightless,
        )

    def range_band(self, u: int, far: float, blind: bool = False) -> float:
        """The shooting distance of :meth:`shot_key`: weapons are usable when in range of the farthest
        counted model, so ``far`` is rounded up to the next range of ``u``'s ranged weapons (its
        Indirect ones when ``blind``) and equal situations share one cached table."""
        ranges: tuple[int, ...] = recall(
            self.setup,
            ("ranges", u, blind),
            lambda: tuple(
                sorted(
                    {
                        w.range
                        for g in self.setup.units[u].groups
                        for w in g.weapons
                        if w.range is not None and (w.has("indirect") or not blind)
                    }
                )
            ),
        )
        return next((float(r) for r in ranges if r >= far - EPS), far)

    def covered(self, u: int, t: int, rounded: tuple[float, float] | None) -> bool:
        """:meth:`in_cover` of ``t`` shot by ``u`` at the recorded position ``rounded``, memoised."""
        return recall(
            self.setup,
            ("cover", self.placed(u, rounded), self.placed(t)),
            lambda: self.in_cover(u, t, rounded),
        )

    def elevated(self, u: int, t: int, rounded: tuple[float, float] | None) -> bool:
        """The target stands higher than the shooter at the recorded position ``rounded``."""
        return bool(self.height(t) > self.height(u, rounded) + EPS)

    # ------------------------------------------------------------------ combat (chance)

    def melee_key(self, u: int, t: int) -> tuple[Any, ...]:
        hu, ht = self.height(u), self.height(t)
        # Elevation: "If a unit assaults an enemy unit from higher elevation, or is assaulted by a
        # unit from lower elevation, then it gets the Strikes First special rule for that melee."
        # Who strikes: counted model by model after the defenders' 3" move (melee_moves.py)
        # Vehicles: hit in the facing the other unit comes from (facing.py)
        return (
            hu > ht + EPS,
            ht > hu + EPS,
            *melee_moves.strikers(self, u, t),
            facing.melee_facing(self, u, t),
        )

    def combat_table(self) -> list[tuple[tuple[UnitState, ...], float]]:
        kind, u, t, key = self.pending
        return combat_law(self.setup, kind, u, self.units[u], t, self.units[t], key)

    def resolve(self, i: int) -> GameState:
        kind, u, t, _ = self.pending
        states, _p = self.combat_table()[i]
        hit = dict(zip((t,) if kind == "shoot" else (u, t), states, strict=False))  # unit: its new state
        me = hit.get(self.active)
        if me is not None and me.shaken and not self.units[self.active].shaken:
            return replace(self, shook=True)._resolved(kind, u, t, states)  # Shaken in its own activation
        return self._resolved(kind, u, t, states)

    def _resolved(self, kind: str, u: int, t: int, states: tuple[UnitState, ...]) -> GameState:
        if kind == "dangerous":
            return dangerous.go_on(self.with_unit(u, states[0]))
        if kind == "transport":
            return transport.unload(self.with_unit(u, states[0]), u, t).end_activation()
        if kind == "shoot":
            s = self.with_unit(t, states[0])
            if self.volley:  # the split shooting's next target
                (v, key), *rest = self.volley
                return replace(s, pending=("shoot", u, v, key), volley=tuple(rest))
            return s.end_activation()
        s = self.with_unit(u, states[0]).with_unit(t, states[1])
        return consolidation.after_melee(s, u, t)


def first_contact(a: np.ndarray, b: np.ndarray, w: np.ndarray, reach: float) -> float:
    """How far the models ``a`` move along the unit vector ``w`` before the first of their bases
    touches one of ``b`` (centres ``reach`` apart): the least root ``s >= 0`` of
    ``|a_i + s w - b_j| = reach`` over all pairs (infinity when no pair meets)."""
    v = b[None, :, :] - a[:, None, :]  # (n, m)
    along = v @ w
    off2 = (v * v).sum(axis=2) - along * along
    disc = reach * reach - off2
    meet = (disc >= 0) & (along > 0)
    if not meet.any():
        return math.inf
    s = along[meet] - np.sqrt(disc[meet])
    return max(0.0, float(s.min()))


def conditions_of(kind: str, key: tuple[Any, ...]) -> Conditions:
    if kind in dangerous.KINDS:
        return Conditions()
    if kind == "shoot":
        dist, n, cover, elevated, action, face, _off, blind, limited = key
        return Conditions(
            distance=dist,
            in_range=n - blind[0] if isinstance(blind, tuple) else n,  # the models that see (firing.parts)
            cover=cover,
            elevated_target=elevated,
            action=action,
            facing=face,
            no_line_of_sight=blind is True,
            limited_fired=limited,
        )
    return Conditions(
        action="assault",
        attacker_higher=key[0],
        defender_higher=key[1],
        attacker_strikers=key[2],
        defender_strikers=key[3],
        facing=key[4],
    )


def shot_law_key(setup: Setup, u: int, t: int, key: tuple[Any, ...]) -> tuple[Any, ...]:
    """A :meth:`GameState.shot_key` with what the exact shooting does not read made equal, so that
    situations with the same law share it: the engine reads cover, an elevated target ("count as
    being in Cover") and no line of sight only as Cover, which only grants Armored ("multiple
    instances of the same special rule are not cumulative": nothing for an Armored target,
    ``attack.piercing_options``), and the action only for Relentless ("may fire all of their weapons
    when using Hold actions"), so a non-Relentless unit's Walk shot is its Hold shot."""
    dist, n, cover, elevated, action, face, off, blind, limited = key
    covered = bool(cover or elevated) and not setup.units[t].armored
    act = action if setup.units[u].has("relentless") else "hold"
    return (dist, n, covered, False, act, face, off, blind, limited)


def combat_law(
    setup: Setup, kind: str, u: int, su: UnitState, t: int, st: UnitState, key: tuple[Any, ...]
) -> list[tuple[tuple[UnitState, ...], float]]:
    """The law of the end states of a shooting (target state) or a melee (attacker, defender), from
    the exact engine, cached by situation."""
    if kind == "shoot":  # the shooter and the situation as the shooting reads them
        su, key = firing_state(su, key[1]), shot_law_key(setup, u, t, key)
    ck = (kind, u, su, t, st, key)
    hit = setup.cache.get(ck)
    if hit is not None:
        return hit
    a, d = setup.units[u], setup.units[t]
    if kind == "shoot":
        a = firing.armed(a, key[6])  # weapons out of arc or spent do not fire
    c = conditions_of(kind, key)
    out: dict[tuple[UnitState, ...], float] = {}
    if kind == "shoot":
        _, table = shooting_table(a, su, d, st, c, firing.mixed_plan(a, su, d, st, key))
        for (_w, s, _m), p in table.items():
            out[(s,)] = out.get((s,), 0.0) + p
    elif kind == "melee":
        m = melee_table(a, su, d, st, c)
        for (ia, i_d, _win), p in m.final.items():
            k = (m.states[ia], m.states[i_d])
            out[k] = out.get(k, 0.0) + p
    else:  # automatic hits from no enemy (dangerous.py)
        out = {(s,): p for s, p in dangerous.hazard_law(a, su, kind, key)}
    total = sum(out.values())
    law = [(k, p / total) for k, p in out.items()]
    setup.cache[ck] = law
    return law


def deploy(setup: Setup, first: int, south: int) -> GameState:
    """ "the winner gets to deploy first. He first chooses one table side to deploy on, and then
    places all of his army within 12" of his table edge. Once he is done the opposing player places
    all of his army within 12" of the opposite table edge." Units stand side by side in the order of
    the army file, 2" apart, front rank towards the enemy, a second line behind if needed."""
    n = len(setup.units)
    s = GameState(
        setup,
        phase="play",
        player=first,
        first=first,
        south=south,
        units=tuple(u.initial() for u in setup.units),
        anchors=tuple((0.0, 0.0) for _ in range(n)),
        activated=tuple(False for _ in range(n)),
    )
    anchors = list(s.anchors)
    table = setup.table
    for p in (0, 1):
        own = [u for u in range(n) if setup.owner[u] == p]
        x, line = 1.0, 0.0
        for u in own:
            off, r = setup.offsets[u], setup.radii[u]
            width = float(off[:, 0].max() - off[:, 0].min()) + 2 * r
            depth = float(off[:, 1].max()) + 2 * r
            placed = False
            while not placed:
                if x + width > table.width - 1.0:
                    x, line = 1.0, line + 4.0
                front = DEPLOY_ZONE - 0.5 - r - line  # front rank's distance from the edge
                if front - (depth - 2 * r) < r:
                    side = "south" if p == south else "north"
                    raise ScenarioError(
                        "deployment",
                        f'army {p + 1} ({setup.armies[p].name}) does not fit within 12" of the {side} edge'
                        + deployment.zone_blockers(table, side == "south"),
                    )
                cx = x + width / 2 - (float(off[:, 0].max() + off[:, 0].min()) / 2)
                cy = front if p == south else table.depth - front
                anchors[u] = (round(cx, 3), round(cy, 3))
                s = replace(s, anchors=tuple(anchors))
                pts = s.models(u)
                bad = any(bases_in(table, pts, r, trait).any() for trait in deployment.NO_STANDING)
                if bad:
                    x += 1.0
                    continue
                placed = True
                x += width + 2.0
    return s


__all__ = ["CHANCE", "ROUNDS", "TERMINAL", "GameState", "combat_law", "deploy", "shot_law_key"]
