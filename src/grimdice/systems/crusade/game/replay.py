"""A logged game played again from the scenario it carries, with no dice, by the shared game
layer (:func:`grimdice.engine.playing.replay_actions`): the log must be of this version, each recorded action
must be legal (or a chance outcome of the node) where it comes, every state must keep the
invariants (:func:`.state.invariant_errors`), and the log rebuilt must equal the recorded one,
field by field (``grimdice replay``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from grimdice.engine.game import TERMINAL
from grimdice.engine.playing import IllegalStep, replay_actions
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.game.play import LOG_VERSION, Recorder
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import GameState, initial_state, invariant_errors

MAX_SHOWN = 20  # differences listed; more are counted


def _action(a: Any) -> Any:
    """A logged action as the game gives it (JSON lists back to tuples)."""
    return tuple(_action(x) for x in a) if isinstance(a, list) else a


def is_game_log(data: Mapping[str, Any]) -> bool:
    """A Rules Crusade game (a scenario, or the log of a game, which carries its scenario)."""
    return data.get("system") == "crusade" and data.get("kind") == "game"


def _check_log(log: Mapping[str, Any]) -> tuple[Mapping[str, Any], list[Any]]:
    """The log's scenario and actions, once its form and version are right."""
    scenario, recorded = log.get("scenario"), log.get("actions")
    if not isinstance(scenario, Mapping):
        raise ScenarioError("scenario", "a game log carries its scenario (a mapping)")
    if not isinstance(recorded, list) or not all(isinstance(a, list) and a for a in recorded):
        raise ScenarioError("actions", "a game log's actions are a list of non-empty lists")
    if log.get("version") != LOG_VERSION:
        raise ScenarioError(
            "version",
            f"this log is of version {log.get('version', 1)!r}, and only version {LOG_VERSION} logs replay "
            "(its games draw their dice otherwise): play the game again to get a new log",
        )
    return scenario, recorded


def replay(log: Mapping[str, Any]) -> tuple[dict[str, Any], list[GameState], list[str]]:
    """Play ``log`` again with the game layer (:func:`grimdice.engine.playing.replay_actions`):
    the rebuilt log (with the recorded seed and players), every state in order, and what went
    wrong on the way (an action not legal where it comes, a broken invariant, actions left over
    or missing)."""
    scenario, recorded = _check_log(log)
    try:
        setup = build_setup(scenario)
    except ScenarioError as exc:
        raise ScenarioError(f"scenario.{exc.field}", exc.message) from None
    root = initial_state(setup)
    actions = [_action(a) for a in recorded]
    problems: list[str] = []
    try:
        states = replay_actions(root, actions)
    except IllegalStep as exc:
        states = replay_actions(root, actions[: exc.index])
        if states[-1].current_player() == TERMINAL:
            problems.append(f"actions: {len(recorded) - exc.index} actions after the game's end")
        else:
            problems.append(f"actions.{exc.index}: {json.dumps(recorded[exc.index])[:80]} is not legal there")
    else:
        if states[-1].current_player() != TERMINAL:
            problems.append(f"actions: the log ends after {len(actions)} actions, before the game does")
    problems[:0] = [f"state {i}: {e}" for i, s in enumerate(states) for e in invariant_errors(s)]
    rec = Recorder(root)
    for s, a, nxt in zip(states, actions, states[1:], strict=False):
        rec.step(s, a, nxt)
    again = rec.log(setup, states[-1])
    again.update({k: log[k] for k in ("seed", "players") if k in log})
    return again, states, problems


def differences(log: Mapping[str, Any], again: Mapping[str, Any], problems: Sequence[str]) -> list[str]:
    """The replay's problems, then the recorded fields that differ from the replay's (by name)."""
    out = list(problems)
    rebuilt = json.loads(json.dumps(again))  # as a saved log reads back (tuples as lists)
    out += [k for k in dict.fromkeys([*log, *rebuilt]) if log.get(k) != rebuilt.get(k)]
    if len(out) > MAX_SHOWN:
        out = [*out[:MAX_SHOWN], f"... {len(out) - MAX_SHOWN} more"]
    return out


__all__ = ["differences", "is_game_log", "replay"]
