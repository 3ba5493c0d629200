"""Play one Rules Crusade grid game between two players, seeded, into a log (a plain dict: the
log version, the scenario, the seed, every action and chance outcome in order, readable events,
the result). The game is played by the shared game layer, :mod:`grimdice.engine.playing`."""

from __future__ import annotations

import marshal
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from grimdice.engine import playing
from grimdice.errors import printable
from grimdice.systems.crusade.ai.players import PLAYERS, Player
from grimdice.systems.crusade.damage import CONDITIONS
from grimdice.systems.crusade.game import many
from grimdice.systems.crusade.game.log_readings import (
    GRID_READINGS,
    READINGS,
    TABLE_READINGS,
    reading_key,
    readings,
)
from grimdice.systems.crusade.game.record import Book
from grimdice.systems.crusade.game.scenario import Setup, build_setup
from grimdice.systems.crusade.game.state import GameState, initial_state
from grimdice.systems.crusade.game.table import key_piece

#: the log format; a log of another version is refused by replay (its games offered other actions
#: or drew their dice otherwise; chance outcomes and players draw from their own streams of the
#: seed, :func:`grimdice.engine.playing.streams`)
LOG_VERSION = 17


def _name(s: GameState, i: int) -> str:
    t = s.tokens[i]
    what = "blip" if t.blip else s.setup.profiles[t.profile].name
    return f"{what} #{i}"


#: a name of the scenario's as an event shows it (:func:`grimdice.errors.printable`), kept: the
#: same few names come back at every shot at a building
_shown = lru_cache(maxsize=1024)(printable)


def _sector(s: GameState, k: int) -> str:
    """A sector's name, or a barricade's or catwalk's (its key below 0)."""
    board = s.setup.board
    if k < 0:
        return _shown(board.structures[key_piece(k)].name)  # type: ignore[attr-defined]
    return _shown(board.sector_names[k])  # type: ignore[attr-defined]


def _building_event(before: GameState, after: GameState) -> str | None:
    """VI on a table: a shot at a sector, a collapse's roll at a model, collateral damage."""
    kind, n = before.pending[0], before.pending[1]
    hits = dict(after.sector_hits)
    if kind == "sector":
        k, w = before.pending[2], before.pending[4]
        left = hits.get(k, 10 if k >= 0 else 1)
        end = ("it collapses" if k >= 0 else "it is destroyed") if left == 0 else f"{left} hits left"
        how = f"shoots {_sector(before, k)} with {w}" if w else f"melees {_sector(before, k)}"
        return f"{_name(before, n)} {how}: {end}"
    if kind == "collateral":
        left = hits.get(n, 10)
        return f"{_sector(before, n)} takes collateral damage: " + (
            "it collapses" if left == 0 else f"{left} hits left"
        )
    if kind == "collapse":
        t = after.tokens[n]
        return f"{_name(before, n)} is caught in the collapse: {CONDITIONS[t.cond]}, {t.hits} hits left"
    return None


#: what an attack's event says the attacker ``i`` did to ``j`` with weapon ``fired``, by how it came
_VERBS = {
    "shoot": "shoots {j} with {fired}",
    "melee": "melees {j}",
    "mob": "mobs {j}",
    "ladder": "melees {j} awkwardly across a ladder",
    "zoc": "makes a free melee (ZOC) on {j}",
    "snap": "snap fires at {j} with {fired}",
    "ambush": "ambushes {j}",
    "explode": "is caught by the explosion of {i}'s {fired}",
    "malfunction": "takes the malfunction of {i}'s {fired}",
    "mind": "makes a mind war on {j}",
    "blast": "catches {j} in a mind blast",
    "lance": "plays MIND LANCE on {j}",
    "incursion": "fends off an incursion from the warp",
    "jinx": "takes its {fired}'s roll (JINX or JOSTLE)",
}


def _event(before: GameState, after: GameState, outcome: Any) -> str | None:
    if before.pending[0] == "card":
        _, i, k, j = before.pending
        card = before.setup.scenario.psychic.deck[k].card if before.setup.scenario.psychic else "?"
        done = "done" if outcome[1] else "failed"
        return f"{_name(before, i)} plays {card} on {_name(before, j)}: {done}"
    if before.pending[0] == "detonate":  # IX DETONATE
        i, k = before.pending[1:3]
        weapon = before.setup.profiles[before.tokens[i].profile].weapons[k].name
        return f"{_name(before, i)} detonates with {weapon}: " + ("it explodes" if outcome[1] else "a zero")
    if before.pending[0] in ("sector", "collapse", "collateral"):
        return _building_event(before, after)
    if before.pending[0] != "attack":
        return None
    how, i, j, _, fired = before.pending[1:6]
    if how == "many" and many.rolling(after):  # VIII: told once every model is rolled at
        return None
    if how == "many":
        hit = ", ".join(
            f"{_name(before, k)} {CONDITIONS[after.tokens[k].cond]}, {after.tokens[k].hits} hits left"
            for k in before.pending[6]
        )
        return f"{_name(before, i)} shoots with {fired} at {hit}"
    verb = _VERBS[how].format(i=_name(before, i), j=_name(before, j), fired=fired)
    if how in ("explode", "malfunction", "incursion", "jinx"):
        t = after.tokens[j]
        return f"{_name(before, j)} {verb}: {CONDITIONS[t.cond]}, {t.hits} hits left"
    t = after.tokens[j]
    text = f"{_name(before, i)} {verb}: {CONDITIONS[t.cond]}, {t.hits} hits left"
    a = after.tokens[i]
    if (a.cond, a.hits) != (before.tokens[i].cond, before.tokens[i].hits):
        text += f"; attacker {CONDITIONS[a.cond]}"
    return text


class Recorder:
    """Writes a game's log as it is played (or replayed): ``step`` is the game layer's
    ``on_step`` hook (:func:`grimdice.engine.playing.play_game`), ``log`` the record at the end."""

    def __init__(self, root: GameState) -> None:
        self.book = Book(root)
        self.actions: list[list[Any]] = []
        self.events: list[dict[str, Any]] = []

    def step(self, s: GameState, a: Any, nxt: GameState) -> None:
        """Record one step: its action, what an attack did, the models' book."""
        if s.pending and not s.ended and (text := _event(s, nxt, a)):  # a chance outcome
            self.events.append({"round": s.round, "player": s.player, "text": text})
        self.book.step(s, nxt)
        self.actions.append(list(a))

    def log(self, setup: Setup, s: GameState) -> dict[str, Any]:
        """The log of the game recorded so far, ``s`` its last state."""
        forces = [f.name for f in setup.scenario.forces]
        return {
            "system": "crusade",
            "kind": "game",
            "version": LOG_VERSION,
            "title": setup.scenario.title,
            "scenario": marshal.loads(_scenario_dump(setup)),
            "actions": self.actions,
            "events": self.events,
            "winner": forces[s.winner] if s.winner is not None and s.winner >= 0 else None,
            "returns": list(s.returns()),
            "rounds": s.round,
            "survivors": {
                forces[side]: [_name(s, i) for i, t in enumerate(s.tokens) if t.side == side and t.standing]
                for side in (0, 1)
            },
            "models": self.book.models(s),
            "notes": readings(setup),
        }


@lru_cache(maxsize=64)
def _scenario_dump(setup: Setup) -> bytes:
    """The scenario's JSON form a log carries, made once per setup and kept marshalled: each log
    gets its own copy, read back at C speed."""
    return marshal.dumps(setup.scenario.model_dump(by_alias=True, exclude_none=True))


@lru_cache(maxsize=64)
def _root(setup: Setup) -> GameState:
    """The state before the first turn (:func:`.state.initial_state`), kept per setup: states are
    values, and every game of a setup starts from the same."""
    return initial_state(setup)


def play_game(
    scenario: Mapping[str, Any] | Setup, players: Sequence[str | Player] = ("ai", "random"), seed: int = 0
) -> dict[str, Any]:
    """Play one game of ``scenario`` (a mapping or a checked :class:`Setup`) between ``players``
    (``"ai"``, ``"random"`` or callables ``(state, rng) -> action``), seeded, on the game layer
    (:func:`grimdice.engine.playing.play_game`: one chance stream and one stream per player, all
    from ``seed``). Returns its log (:meth:`Recorder.log`) with the seed and the players."""
    setup = scenario if isinstance(scenario, Setup) else build_setup(scenario)
    chosen = [PLAYERS[p] if isinstance(p, str) else p for p in players]
    root = _root(setup)
    rec = Recorder(root)
    game = playing.play_game(root, chosen, seed, on_step=rec.step, keep_states=False)
    named = [p if isinstance(p, str) else getattr(p, "__name__", "player") for p in players]
    return {**rec.log(setup, game.end), "seed": seed, "players": named}


__all__ = [
    "GRID_READINGS",
    "LOG_VERSION",
    "READINGS",
    "TABLE_READINGS",
    "Recorder",
    "play_game",
    "reading_key",
    "readings",
]
