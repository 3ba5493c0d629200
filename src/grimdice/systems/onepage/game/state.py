"""The game of One Page 40k v2.21 as a state in the style of game-playing libraries.

:class:`GameState` follows :class:`grimdice.engine.game.State`: ``current_player()`` (0, 1,
``CHANCE`` or ``TERMINAL``), ``legal_actions()``, ``chance_outcomes()``, ``apply(a)`` (a new state;
states are frozen and cheap to copy) and ``returns()`` (both players' scores). The sequence is the
text's: roll-off ("the winner gets to deploy first. He first chooses one table side"), deployment
"within 12" of his table edge", then 4 rounds of alternating activations, each unit taking one
action (Hold, Walk, Run, Assault). Shooting and melee are chance nodes whose outcomes are the exact
engine's end-state tables (``exact.shooting_table`` / ``exact.melee_table``), so the game's combat
results have the law ``calculate()`` gives for the same situation. Simplifications: docs/onepage-game.md.
The state's queries and rules live in their own modules as functions of the state, bound here as
its methods: where units stand (``places.py``), moves (``moving.py``), shooting (``shooting.py``),
combat laws (``combat.py``).

Actions (JSON-ready lists): ``["side", "south"|"north"]``, ``["hold", u]``, ``["walk", u, dx, dy]``,
``["run", u, dx, dy]`` (two legs through a waypoint: ``[..., dx, dy, wx, wy]``, ``legs.py``;
changing shape: ``[..., dx, dy, "column"|"block"]``, ``shapes.py``), ``["assault", u, target]``
(round in two legs: ``[..., wx, wy]``, ``charge_legs.py``), ``["idle", u]`` (a Pinned unit), then
after Hold/Walk ``["shoot", target]`` (``-1``: no shot; ``["shoot", target, "limited"]`` fires Limited
weapons too; ``["shoot", first, "split", t_1, ...]``: a Relentless unit on Hold aims each weapon
profile at its own target, ``firing.split_actions``). Rules in their own modules: the players'
deployment, Deep Strike and Scout (``deployment.py``: ``place``/``reserve``/``scout``/``scatter``),
dangerous terrain (``dangerous.py``), Transport (``transport.py``: ``embark``/``disembark``), who
strikes in melee (``melee_moves.py``), consolidation after a melee (``consolidation.py``:
``consolidate``), Vehicle facings (``facing.py``), weapon arcs, Indirect and Limited weapons
(``firing.py``), Psyker power dice (``psychic.py``), a unit's shape (``shapes.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from grimdice.engine.frozen import replace
from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.engine.table.blocks import EPS
from grimdice.systems.onepage.game import (
    consolidation,
    dangerous,
    deployment,
    facing,
    firing,
    legs,
    melee_moves,
    moving,
    places,
    psychic,
    sampling,
    shapes,
    shooting,
    transport,
)
from grimdice.systems.onepage.game.cache import LIMIT
from grimdice.systems.onepage.game.combat import combat_law, shot_law_key
from grimdice.systems.onepage.game.places import deploy, fielded
from grimdice.systems.onepage.game.setup import Setup
from grimdice.systems.onepage.movement import move_distance
from grimdice.systems.onepage.units import UnitState, kept

ROUNDS = 4  # "After 4 rounds have been played the game ends."


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
    # the active unit's Assault: (block's start x, y, assault distance[, waypoint x, y]), for its
    # models' own moves (melee_moves.assaulters_moved); and whether the active unit was Shaken
    # during this activation
    charge: tuple[float, ...] = ()
    shook: bool = False
    # a Relentless split shooting's shootings still to resolve after ``pending``: (target, situation)
    volley: tuple[tuple[int, tuple[Any, ...]], ...] = ()
    shapes: tuple[int, ...] = ()  # each unit's setup.BLOCK or COLUMN (empty: all blocks; shapes.py)

    #: answers kept per state about where the units stand, carried to a copy whose units stand where
    #: they stood (``engine.frozen.replace``; ``places.same_places``)
    __carried__ = places.CARRIED
    __carries__ = staticmethod(places.same_places)

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
            return deployment.begin(fielded(self.setup, self.player, south))
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
            s = shapes.walked(self, u, a)  # its move, change of shape and a Vehicle's turn
            hz = dangerous.hazard(self, s, u, kind, u, legs.via(self, u, a))  # the rolls come first
            if hz is not None:
                return hz
            if kind == "run":  # "Run – ... it may not shoot at any point"
                return replace(s, active=u, action="run").end_activation()
            return replace(s, phase="shoot", active=u, action="walk")
        if kind == "assault":
            t = int(a[2])
            first = moving.charge_leg(self, u, t)
            if legs.waypoint(a) != first:  # the path is the rules' (charge_paths.py), not the action's
                way = "straight" if first is None else f"through {first}"
                raise ValueError(f"{a!r}: the Assault's path goes {way}")
            s = self.charged(u, t)
            hz = dangerous.hazard(self, s, u, kind, t, legs.via(self, u, a))
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
            "shapes": list(self.shapes),
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
            tuple(int(x) for x in data.get("shapes", ())),
        )

    # ------------------------------------------------------------------ bound from the rule modules

    side_of = places.side_of
    flip = places.flip
    models = places.models
    centre = places.centre
    placed = places.placed
    alive = places.alive
    on_table = places.on_table
    enemies = places.enemies
    gap = places.gap
    gaps = places.gaps
    height = places.height
    standing = places.standing
    _standing = places._standing
    others = places.others
    gaps_to = places.gaps_to
    crosses = places.crosses
    block = places.block
    placement_ok = moving.placement_ok
    placements = moving.placements
    terrain = moving.terrain
    kept_clear = moving.kept_clear
    swept_clear = moving.swept_clear
    moves = moving.moves
    moves_within = moving.moves_within
    moved = moving.moved
    charged = moving.charged
    charge_vector = moving.charge_vector
    charge_ok = moving.charge_ok
    _charge_ok = moving._charge_ok
    charge_lane_clear = moving.charge_lane_clear
    clear_of_friends = moving.clear_of_friends
    weapon_range = shooting.weapon_range
    valid_targets = shooting.valid_targets
    valid_target = shooting.valid_target
    in_cover = shooting.in_cover
    shot_key = shooting.shot_key
    shot_situation = shooting.shot_situation
    _rounded = shooting._rounded
    _shot_where = shooting._shot_where
    range_band = shooting.range_band
    weapon_counts = shooting.weapon_counts
    firers = shooting.firers
    firing_sight = shooting.firing_sight
    covered = shooting.covered
    elevated = shooting.elevated

    # ------------------------------------------------------------------ turn order

    def ready(self, p: int) -> list[int]:
        """Player ``p``'s units that may still activate this round (kept per state: a state is
        frozen, and the turn order asks it several times)."""
        mine = kept(self, "_ready", LIMIT)
        got = mine.get(p)
        if got is None:
            owner, activated, place = self.setup.owner, self.activated, self.place
            got = mine[p] = [
                u
                for u, s in enumerate(self.units)
                if owner[u] == p
                and not activated[u]
                and not s.destroyed
                and (not place or place[u] not in (deployment.RESERVE, deployment.UNPLACED))
            ]
        return list(got)

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
        for kind, moves in zip(("walk", "run"), self.moves_within(u, fulls), strict=True):
            out += sampling.move_actions(self, u, kind, moves)
        return out + sampling.assault_actions(self, u) + transport.embark_actions(self, u)

    def random_action(self, rng: np.random.Generator) -> list[Any]:
        """A legal action drawn directly, building only what is drawn: a ready unit uniformly, then
        a kind of action it has, then an instance (``sampling.py``; the random player's draw, not
        uniform over all legal actions)."""
        return sampling.random_action(self, rng)

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
        s = self if ff == self.finished_first else replace(self, finished_first=ff)
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
        """The pending combat's law (kept on the state: its outcomes are drawn, then resolved)."""
        got: list[tuple[tuple[UnitState, ...], float]] | None = self.__dict__.get("_law")
        if got is None:
            kind, u, t, key = self.pending
            got = combat_law(self.setup, kind, u, self.units[u], t, self.units[t], key)
            object.__setattr__(self, "_law", got)
        return got

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


__all__ = ["CHANCE", "ROUNDS", "TERMINAL", "GameState", "combat_law", "deploy", "shot_law_key"]
