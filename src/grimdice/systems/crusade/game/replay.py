"""A logged game played again from the scenario it carries, with no dice: each recorded action
must be legal (or a chance outcome of the node) where it comes, every state must keep the
invariants (:func:`.state.invariant_errors`), and the log rebuilt must equal the recorded one,
field by field (``grimdice replay``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from grimdice.engine.game import CHANCE
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.game.play import run
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import GameState, invariant_errors

MAX_SHOWN = 20  # differences listed; more are counted


def _plain(a: Any) -> Any:
    return json.loads(json.dumps(list(a)))


def is_game_log(data: Mapping[str, Any]) -> bool:
    """A Rules Crusade game (a scenario, or the log of a game, which carries its scenario)."""
    return data.get("system") == "crusade" and data.get("kind") == "game"


def replay(log: Mapping[str, Any]) -> tuple[dict[str, Any], list[GameState], list[str]]:
    """Play ``log`` again: the rebuilt log (with the recorded seed and players), every state in
    order, and what went wrong on the way (an action not legal where it comes, a broken
    invariant, actions left over or missing)."""
    scenario, recorded = log.get("scenario"), log.get("actions")
    if not isinstance(scenario, Mapping):
        raise ScenarioError("scenario", "a game log carries its scenario (a mapping)")
    if not isinstance(recorded, list) or not all(isinstance(a, list) and a for a in recorded):
        raise ScenarioError("actions", "a game log's actions are a list of non-empty lists")
    try:
        setup = build_setup(scenario)
    except ScenarioError as exc:
        raise ScenarioError(f"scenario.{exc.field}", exc.message) from None
    states: list[GameState] = []
    problems: list[str] = []
    step = 0

    def seen(s: GameState) -> None:
        states.append(s)
        problems.extend(f"state {len(states) - 1}: {e}" for e in invariant_errors(s))

    def choose(s: GameState, player: int) -> Sequence[Any] | None:
        nonlocal step
        if step >= len(recorded):
            problems.append(f"actions: the log ends after {step} actions, before the game does")
            return None
        a = recorded[step]
        options = [o for o, _ in s.chance_outcomes()] if player == CHANCE else s.legal_actions()
        if a not in [_plain(o) for o in options]:
            problems.append(f"actions.{step}: {json.dumps(a)[:80]} is not legal there")
            return None
        step += 1
        return tuple(a)

    again = run(setup, choose, seen)
    if step < len(recorded) and not any(p.startswith("actions") for p in problems):
        problems.append(f"actions: {len(recorded) - step} actions after the game's end")
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
