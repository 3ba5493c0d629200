"""Playing a whole game from a seed, its JSON log, and replaying the log exactly.

A game's randomness is one seed: ``SeedSequence(seed)`` spawns the chance stream and one stream per
player. The log records every action and chance outcome in order with a readable event, so
:func:`replay` rebuilds every state without any dice.
"""

from __future__ import annotations

from typing import Any

from grimdice.engine.game import TERMINAL
from grimdice.engine.options import MAX_SEED
from grimdice.engine.playing import IllegalStep, play_game, replay_actions
from grimdice.errors import ScenarioError, shown
from grimdice.systems.onepage.game import legs
from grimdice.systems.onepage.game.setup import Setup
from grimdice.systems.onepage.game.state import GameState

#: the log format: 2 since consolidation, power dice, Limited weapons and melee facings changed
#: which actions a game holds (a version 1 log no longer replays to the same game); 3 since the 1"
#: move back became a move like any other (Vehicle reverse, dangerous terrain, turned places) and
#: Limited weapons are spent one by one (``spent`` holds (unit, weapon) pairs); 4 since the
#: assaulting models move on into base contact one by one, an Assault keeps 1" from friendly units
#: and Shaken taken in a unit's own activation lasts through its next; 5 since a Relentless unit on
#: Hold may split its fire (``["shoot", t, "split", ...]``, firing.split_actions); 6 since moves,
#: terrain and cover are measured with whole bases along whole paths (engine.table.sweeps); 7 since
#: each model that sees the target fires a weapon in range of it (shots counted per weapon profile); 8
#: since the players place their units at deployment (``["place", u, x, y]``, deployment.py); 9
#: since the assaulting models are placed rank by rank (assault_ranks.py); 10 since a large unit's
#: block tries more directions and lengths (moving.py); 11 since the random player draws a unit, a
#: kind of action, then an instance (sampling.py), so the same seed plays another random game; 12
#: since an Assault whose straight line to the closest model is not clear takes another clear line; 13
#: since a disembarking unit keeps 1" from every unit but its transport; 14 since a Walk or Run may
#: go in two legs through a waypoint (``[..., dx, dy, wx, wy]``, legs.py); 15 since the AI's charge
#: strikers are kept by where the units stand; 16 since the AI estimates the strikers of the charges
#: it imagines (ai/frontage.py); 17 since an Assault may go round in two legs where no straight line
#: is clear (``["assault", u, t, wx, wy]``, charge_legs.py); 18 since the AI's melee units weigh the
#: Run they lose where they end over difficult terrain (ai/footing.py)
LOG_VERSION = 20


def event(state: GameState, action: Any, after: GameState) -> dict[str, Any]:
    """A readable record of one step (used by the PNG replay and the statistics)."""
    e: dict[str, Any] = {"round": state.round, "phase": state.phase}
    if state.phase == "combat":
        kind, u, t, _ = state.pending
        e.update(kind=kind, unit=u, target=t, models=[after.units[u].models, after.units[t].models])
        e["pinned"] = after.units[t].pinned
        return e
    if state.phase == "rolloff":
        e["winner"] = int(action)
        return e
    e["player"] = state.player
    e["action"] = action
    if state.phase == "play":
        u = int(action[1])
        e["unit"] = state.setup.units[u].name
        e["from"] = list(state.anchors[u])
        mid = legs.via(state, u, action) if action[0] in ("walk", "run", "assault") else None
        if mid is not None:
            e["via"] = list(mid.anchors[u])
        e["to"] = list(after.anchors[u])
    return e


def play(setup: Setup, seed: int, players: tuple[str, str] = ("ai", "ai")) -> dict[str, Any]:
    """Play one game; the log (JSON-ready) with the scores, winner and per-unit results."""
    from grimdice.systems.onepage.ai import PLAYERS  # the players are not rules: imported by the runner

    for i, p in enumerate(players):
        if p not in PLAYERS:
            raise ScenarioError(f"players.{i}", f"unknown player {p!r}; allowed: {', '.join(PLAYERS)}")
    events: list[dict[str, Any]] = []
    game = play_game(
        GameState(setup),
        [PLAYERS[p] for p in players],
        seed,
        on_step=lambda state, a, nxt: events.append(event(state, a, nxt)),
        keep_states=False,
    )
    actions, state = game.actions, game.end
    return record(setup, seed, players, actions, events, state)


def record(
    setup: Setup,
    seed: int,
    players: tuple[str, str],
    actions: list[Any],
    events: list[dict[str, Any]],
    end: GameState,
) -> dict[str, Any]:
    return {
        "version": LOG_VERSION,
        "seed": seed,
        "players": list(players),
        "setup": setup.to_json(),
        "actions": actions,
        "events": events,
        "scores": end.returns(),
        "winner": end.winner(),
        "units": [
            {
                "name": u.name,
                "army": setup.owner[i],
                "cost": u.cost,
                "models": end.units[i].models,
                "started": u.size,
                "destroyed": end.units[i].destroyed,
                "pinned": end.units[i].pinned,
            }
            for i, u in enumerate(setup.units)
        ],
    }


def states(log: dict[str, Any]) -> list[GameState]:
    """Every state of a logged game, rebuilt from its setup and actions (no dice)."""
    if not isinstance(log, dict) or log.get("version") != LOG_VERSION:
        got = log.get("version") if isinstance(log, dict) else None
        if isinstance(got, int) and not isinstance(got, bool):
            raise ScenarioError(
                "version",
                f"this log is of version {got}; this grimdice replays game logs of version {LOG_VERSION} "
                "only (its rules give other legal moves): play the game again to get a log",
            )
        raise ScenarioError("version", f"a grimdice game log of version {LOG_VERSION}")
    for k in ("setup", "actions"):
        if k not in log:
            raise ScenarioError(k, "missing from the game log")
    if not isinstance(log["actions"], list):
        raise ScenarioError("actions", "a list of the game's steps (decisions and chance outcomes)")
    setup = Setup.from_json(log["setup"])
    try:
        out = replay_actions(GameState(setup), log["actions"])
    except IllegalStep as exc:
        raise ScenarioError(f"actions.{exc.index}", exc.message) from None
    if out[-1].current_player() != TERMINAL:
        raise ScenarioError("actions", f"the log stops after {len(out) - 1} steps, before the game ends")
    return out


def differences(log: dict[str, Any], again: dict[str, Any]) -> list[str]:
    """The fields of a log that its replay ``again`` does not reproduce: every field a log records
    (scores, winner, units, events, ...) must equal the replay's, and a log holds no other."""
    rebuilt = {k: v for k, v in again.items() if k != "violations"}  # the replay's finding, not a record
    fields = set(rebuilt) | set(log)
    return sorted(k for k in fields if k not in rebuilt or k not in log or log[k] != rebuilt[k])


def replay(log: dict[str, Any]) -> dict[str, Any]:
    """Replay a log; the record it rebuilds (equal to the log when the log is genuine, see
    :func:`differences`), with the table's invariants checked on every state (``violations``:
    empty for a legal game; not a field of the log)."""
    from grimdice.systems.onepage.ai import PLAYERS  # the players are not rules: imported by the runner
    from grimdice.systems.onepage.game.invariants import game_violations

    sts = states(log)
    players = log.get("players", ["ai", "ai"])
    if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, str) for p in players):
        raise ScenarioError("players", "the two players' names, e.g. [ai, random]")
    for i, p in enumerate(players):
        if p not in PLAYERS:
            raise ScenarioError(f"players.{i}", f"unknown player {shown(p)}; allowed: {', '.join(PLAYERS)}")
    seed = log.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
        raise ScenarioError("seed", f"a whole number from 0 to {MAX_SEED}, got {shown(seed)}")
    events = [event(s, a, n) for s, a, n in zip(sts, log["actions"], sts[1:], strict=False)]
    out = record(
        sts[0].setup,
        seed,
        (players[0], players[1]),
        list(log["actions"]),
        events,
        sts[-1],
    )
    out["violations"] = game_violations(sts, log["actions"])
    return out


__all__ = ["differences", "play", "replay", "states"]
