"""X reinforcements in a game (rules-crusade X: "reinforcements may be brought in at key points if
the scenario allows").

The text says no more, so the format and its reading are ours (reading ``reinforcements``): a
scenario's ``reinforcements`` lists groups, each of a force (``force``), its models' profiles
(``models``), its key points (``points``: squares, or on a table cells ``[x, y]`` or positions
``[x, y, z]``), the first turn it may come (``turn``) and optionally a roll (``dice``, ``need``: it
comes when the dice's total reaches ``need``, rolled at the start of each of its force's turns from
``turn`` on until it comes; without them it comes at the start of its force's turn ``turn``). When
it comes, each model in order enters on the first of the points that is free (no model on it) and
that it may stand on, at the start of its force's turn, and is activated that turn as any model.
A blocked point is passed over; models for which every point is blocked wait, and enter the same
way at the start of the force's next turn (no new roll), until the game ends. Waiting models do not
keep their force in action (a force with no model standing on the board loses) and stand in the
game's record (``waiting``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grimdice.errors import ScenarioError
from grimdice.io.fields import Int, StrictModel, Text
from grimdice.systems.crusade.game import board as boards
from grimdice.systems.crusade.rolls import parse_pool, total_law

MAX_GROUPS = 10
MAX_MODELS = 12  # a group's
MAX_POINTS = 10


class Reinforcement(StrictModel):
    """A scenario's group of reinforcements (see the module text)."""

    force: Int
    models: list[Text]
    points: list[tuple[Int, Int] | tuple[Int, Int, Int]]
    turn: Int = 1
    dice: Text | None = None
    need: Int = 1


@dataclass(frozen=True)
class Group:
    """A checked group: its force, the chance it comes at a turn's roll (1: no roll), its first
    turn, its points and its models' profile indices."""

    side: int
    chance: float
    turn: int
    points: tuple[boards.Pos, ...]
    models: tuple[int, ...]


def groups(sc: Any, board: boards.Board, pieces: Any) -> tuple[Group, ...]:
    """The scenario's groups, checked field by field (``pieces``: the models placed, for the path
    check), as the scenario's models are (:mod:`.scenario`)."""
    from grimdice.systems.crusade.game.scenario import profile_index, square_at

    out = []
    if len(sc.reinforcements) > MAX_GROUPS:
        raise ScenarioError("reinforcements", f"at most {MAX_GROUPS} groups, got {len(sc.reinforcements)}")
    for g, r in enumerate(sc.reinforcements):
        where = f"reinforcements.{g}"
        if r.force not in (0, 1):
            raise ScenarioError(f"{where}.force", f"0 or 1, got {r.force}")
        if not 1 <= r.turn <= sc.turns:
            raise ScenarioError(f"{where}.turn", f"a turn from 1 to {sc.turns}, got {r.turn}")
        if not 1 <= len(r.models) <= MAX_MODELS:
            raise ScenarioError(f"{where}.models", f"1 to {MAX_MODELS} models, got {len(r.models)}")
        if not 1 <= len(r.points) <= MAX_POINTS:
            raise ScenarioError(f"{where}.points", f"1 to {MAX_POINTS} points, got {len(r.points)}")
        models = [profile_index(sc, name, f"{where}.models.{m}") for m, name in enumerate(r.models)]
        armour = min(sc.profiles[k].armour for k in models)
        points = tuple(square_at(board, p, armour, f"{where}.points.{n}") for n, p in enumerate(r.points))
        enemy = next((pc.sq for pc in pieces if pc.side != r.force), None)
        for n, p in enumerate(points):
            if enemy is not None and not (board.connected(p, enemy) or board.connected(enemy, p)):
                raise ScenarioError(f"{where}.points.{n}", f"no path from {list(p)} to the enemy force")
        out.append(Group(r.force, _chance(r, where), r.turn, points, tuple(models)))
    return tuple(out)


def _chance(r: Reinforcement, where: str) -> float:
    """The chance the group's roll comes (1 without a roll)."""
    if r.dice is None:
        return 1.0
    pool = parse_pool(r.dice, f"{where}.dice")
    p = sum(q for (t, _), q in total_law(pool.white, pool.red).items() if t + pool.plus >= r.need)
    if p <= 0:
        raise ScenarioError(f"{where}.need", f"{r.dice} never reaches {r.need}")
    return p


__all__ = ["MAX_GROUPS", "Group", "Reinforcement", "groups"]
