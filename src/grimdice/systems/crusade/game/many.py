"""Shots that reach several models (rules-crusade VIII FLAMER TEMPLATE, X", BLAST, LINE EFFECT,
SPLIT FIRE, RAPID FIRE) as one chance node: the calculator's many-target scenario (``targets``, each
model with its own range, cover and what lies beyond it) and its joint law
(:func:`grimdice.systems.crusade.joint.joint_law`), so the game's result is ``calculate()``'s.

Which models a template, line or area reaches is the board's answer (:mod:`.reach`), and every one
of them is rolled at (VIII LINE EFFECT: "Apply the roll to ALL eligible models in the line"; FLAMER
TEMPLATE: "Roll seperately for each target touched by the template"); for SPLIT FIRE and RAPID FIRE
the player names the targets (``("shoot", j, weapon, j2)``). A shot at more models than one chance
node holds (:data:`MAX_NODE`, or the calculator's exact bounds) is rolled model by model
(:mod:`.many_turn`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from itertools import combinations
from typing import Any, cast

from grimdice.engine.grid import Square
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.game import burn, many_turn, reach, situation
from grimdice.systems.crusade.game.around import models_around
from grimdice.systems.crusade.game.board import GridBoard, Pos
from grimdice.systems.crusade.game.combat import reads_grazes
from grimdice.systems.crusade.game.fails import weapon_index
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, has_code
from grimdice.systems.crusade.game.table import TableBoard
from grimdice.systems.crusade.game.volatile import carried
from grimdice.systems.crusade.joint import JointEnd, joint_law
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.template_modes import MODES

#: ours: at most this many models share one chance node (the calculator's joint law, which
#: enumerates their joint outcomes); a template, line or area reaching more is rolled model by model
#: (:mod:`.many_turn`), every model rolled at. SPLIT FIRE and RAPID FIRE name at most two targets
#: (the text's RAPID FIRE limit)
MAX_NODE = 4
MAX_NAMED = 2
RAPID_RANGE = 6  # VIII RAPID FIRE: "May fire weapon twice if all targets are within 6""
#: the modes whose every model reached is rolled at, in turn past one node (:mod:`.many_turn`)
ROLLED_IN_TURN = ("line", "blast", "template", "area")


def mode(s: GameState, i: int, weapon: str) -> str:
    """How token ``i``'s weapon reaches models: ``line``, ``blast``, ``template`` (SFT, FT, HFT),
    ``area`` (X" alone), ``split_fire``, ``rapid_fire`` (the calculator's order of template codes),
    or ``""`` (its one target)."""
    return _named_mode(s.setup, s.tokens[i].profile, weapon)


@lru_cache(maxsize=4096)
def _named_mode(setup: Setup, profile: int, weapon: str) -> str:
    names = [w.name for w in setup.profiles[profile].weapons]  # the first of that name (weapon_index)
    return _mode(setup, profile, names.index(weapon))


@lru_cache(maxsize=4096)
def _mode(setup: Setup, profile: int, k: int) -> str:
    arm = setup.fighters[profile].arms[k]
    found = next((m for m in MODES if arm.fx.get(m)), "")
    if found == "flamer":
        return "template" if arm.template else "area"
    return found or ("area" if arm.fx.get("area") else "")


def _models_on(s: GameState, squares: list[Any], first: int, skip: int = -1) -> tuple[int, ...]:
    """The models (not blips, not killed) on ``squares``, in their order, ``first`` first."""
    where = {t.sq: k for k, t in enumerate(s.tokens) if t.alive and not t.blip and k not in (first, skip)}
    return (first, *(where[q] for q in squares if q in where))


def reached(s: GameState, i: int, j: int, weapon: str) -> tuple[int, ...]:
    """The models token ``i``'s shot at token ``j`` rolls at, the target first (friends and, for
    an area around the target, the firer included), or ``()`` when a template does not reach the
    target. Readings ``grid_template``, ``grid_line`` (:mod:`.reach`), ``grid_area``, ``table_area``
    (:func:`.around.models_around`): an area or blast reaches the models around the target that it
    does not pass a wall to reach (reading ``blast_walls``)."""
    how = mode(s, i, weapon)
    here, there = s.tokens[i].sq, s.tokens[j].sq
    if how in ("blast", "area"):  # X's 3 x 3 squares, a table's 1" (reading ``blast_walls``)
        return (j, *(k for k in models_around(s, there, 1) if k != j))
    if not isinstance(s.setup.board, GridBoard):  # a table
        return _on_table(s, i, j, weapon, how)
    grid, doors = s.setup.grid, cast(dict[Square, bool], s.doors())
    a, b = cast(Square, here), cast(Square, there)
    if how == "template":
        return template_reach(
            s, i, j, s.setup.fighters[s.tokens[i].profile].arms[weapon_index(s, i, weapon)].template
        )
    if how == "line":
        return _models_on(s, reach.line_squares(grid, a, b, doors), j, skip=i)
    return (j,)


def template_reach(s: GameState, i: int, j: int, code: str) -> tuple[int, ...]:
    """The models a flamer template (``code``: SFT, FT, HFT) laid by token ``i`` towards token
    ``j`` touches, ``j`` first (readings ``grid_template``, ``table_template``), or ``()`` when it
    does not reach ``j``."""
    if isinstance(s.setup.board, TableBoard):
        return _on_table(s, i, j, code, "template")
    grid, doors = s.setup.grid, cast(dict[Square, bool], s.doors())
    a, b = cast(Square, s.tokens[i].sq), cast(Square, s.tokens[j].sq)
    occupied = {cast(Square, t.sq) for t in s.tokens if t.alive and not t.blip}
    squares = reach.template_squares(grid, a, b, code, doors, among=occupied)
    return _models_on(s, squares, j, skip=i) if b in squares else ()


def _on_table(s: GameState, i: int, j: int, weapon: str, how: str) -> tuple[int, ...]:
    """:func:`reached` on a table: a flamer template laid flat over the cells from the firer's towards the
    target's (reading ``table_template``) and a line from the firer's cell through the target's
    to a wall or the edge (reading ``table_line``) reach the models on their cells the firer sees;
    all of them in the target's sector, or outside with it (VI: "You may not spread an area or
    line effect weapon's attack between two buildings or sectors")."""
    board = s.setup.board
    assert isinstance(board, TableBoard)
    if how not in ("template", "line"):
        return (j,)
    here, there = s.tokens[i].sq, s.tokens[j].sq
    a, b = (here[0], here[1]), (there[0], there[1])
    cells: dict[Square, list[Pos]] = {}
    for t in s.tokens:
        if t.alive and not t.blip and board.indoors(t.sq) == board.indoors(there):
            cells.setdefault((t.sq[0], t.sq[1]), []).append(t.sq)
    if how == "template":  # ``weapon``: the weapon's name, or a template's code (MIND BLAST's FT)
        arm = s.setup.fighters[s.tokens[i].profile].arms
        code = weapon if weapon in reach.TEMPLATE_SIZE else arm[weapon_index(s, i, weapon)].template
        touched = reach.template_cells(a, b, code, cells)
        if b not in touched:
            return ()
    else:
        lat = board.lattice
        touched = reach.line_cells(a, b, lat.width + lat.height, lambda c: not lat.levels_at(c))
    seen = [
        p for c in touched for p in sorted(cells.get(c, ()), key=lambda q: q[2]) if board.sight(here, p, {})
    ]
    return _models_on(s, seen, j, skip=i)


def named_targets(s: GameState, i: int, weapon: str, sight: list[int]) -> list[tuple[int, ...]]:
    """SPLIT FIRE: "Split the total up amongst any targets in line of sight"; RAPID FIRE: "May fire
    weapon twice if all targets are within 6"" — the pairs of targets in sight the player may name
    besides single targets (ours, ``reached``: at most :data:`MAX_NAMED`)."""
    how = mode(s, i, weapon)
    here = s.tokens[i].sq
    if how == "rapid_fire":
        sight = [j for j in sight if s.setup.board.range(here, s.tokens[j].sq) <= RAPID_RANGE]
    elif how != "split_fire":
        return []
    return list(combinations(sight, MAX_NAMED))


def plan(s: GameState, i: int, a: tuple[Any, ...]) -> tuple[str, tuple[int, ...], str]:
    """How token ``i``'s ``("shoot", j, weapon, *others)`` is rolled: ``("many", targets, key)``,
    the models its weapon reaches from ``j`` (:func:`reached`) and the others the player named,
    as one many-target shot (:func:`fitting`); or ``("shoot", (j,), key)``, the single shot."""
    j, weapon = int(a[1]), str(a[2])
    found = fitting(s, i, reached(s, i, j, weapon) + tuple(int(k) for k in a[3:]), weapon)
    if found:
        return "many", *found
    if burn.at_hidden(s, i, (j,), weapon):  # VIII BURN: its hidden target revealed by the dice
        return "many", (j,), burn.shot(s, i, j, weapon, mode(s, i, weapon))
    return "shoot", (j,), situation.shot(s, i, j, weapon)


def fitting(
    s: GameState,
    i: int,
    targets: tuple[int, ...],
    weapon: str,
    scenario: Callable[[GameState, int, tuple[int, ...], str], str] | None = None,
) -> tuple[tuple[int, ...], str] | None:
    """Token ``i``'s ``weapon`` at ``targets`` as one many-target shot (:func:`is_many`) and its
    key (``scenario``: :func:`shot` unless given, e.g. a snap shot's): one chance node, the
    calculator's joint law, for at most :data:`MAX_NODE` models within its exact bounds; else a
    template's, line's or area's rolled model by model (:func:`.many_turn.key_of`), every model.
    Ours (``reached``): SPLIT FIRE and RAPID FIRE beyond the calculator's bounds leave the last
    named target out, down to the single shot; None when none fits."""
    in_turn = mode(s, i, weapon) in ROLLED_IN_TURN
    while targets and is_many(s, i, targets, weapon):
        key = (scenario or shot)(s, i, targets, weapon)
        try:
            if not in_turn or len(targets) <= MAX_NODE:
                cached_joint(key)
                return targets, key
        except ScenarioError:
            pass
        turn = _rolled_in_turn(key) if in_turn else None
        if turn is not None:
            return targets, turn
        targets = targets[:-1] if len(targets) > 1 else ()
    return None


def _rolled_in_turn(key: str) -> str | None:
    """The shot ``key`` rolled model by model (:func:`.many_turn.key_of`), or None when the
    calculator refuses even one model's roll (then the last model is left out, never failing
    mid-game)."""
    turn = many_turn.key_of(key)
    try:
        many_turn.shot_of(turn).check()
    except ScenarioError:
        return None
    return turn


def is_many(s: GameState, i: int, targets: tuple[int, ...], weapon: str) -> bool:
    """Whether the shot is a many-target one: several models, or RAPID FIRE's two shots at one
    target within 6 squares."""
    if len(targets) > 1:
        return True
    near = s.setup.board.range(s.tokens[i].sq, s.tokens[targets[0]].sq) <= RAPID_RANGE
    return mode(s, i, weapon) == "rapid_fire" and near


def shot(s: GameState, i: int, targets: tuple[int, ...], weapon: str, volley: int = 0) -> str:
    """The calculator's many-target scenario of token ``i`` firing ``weapon`` at ``targets`` (JSON
    text): each target's profile and state, range in squares, cover, and what lies beyond it for a
    knockback (from the firer; a BLAST's other targets from its centre, VIII KNOCKBACK); with
    ``volley`` (IX VOLLEY FIRE, :mod:`.volley`) that many models' volley, with no knockback rows."""
    me = s.tokens[i]
    beyond = [] if volley else push_squares(s, i, targets, weapon)
    rows = []
    for n, k in enumerate(targets):
        row = situation.target_row(s, n, s.tokens[k], me)
        if not volley and situation.knockback_into(s, i, k):
            row["knockback_into"] = "obstacle" if beyond[n] is None else "open"
        rows.append(row)
    data = {
        "system": "crusade",
        "action": "shoot",
        "attacker": situation.model_data(s, me, keep=weapon),
        "defender": situation.model_data(s, s.tokens[targets[0]]),
        "weapons": [weapon],
        "targets": rows,
        "moved": s.moved > 0,
    }
    if volley:
        data["volley"] = volley
    return json.dumps(data, sort_keys=True)


def push_squares(s: GameState, i: int, targets: tuple[int, ...], weapon: str) -> list[Pos | None]:
    """VIII KNOCKBACK: the square each target would be knocked back into, or None where it is
    blocked: away from the firer, or for a BLAST's other targets "from the Center"."""
    centre = targets[0] if mode(s, i, weapon) == "blast" else i
    return [situation.push_square(s, i if n == 0 else centre, k) for n, k in enumerate(targets)]


@lru_cache(maxsize=5_000)
def cached_joint(key: str) -> tuple[tuple[JointEnd, float], ...]:
    """The joint law of a many-target scenario given as JSON text, most likely first."""
    sc = Scenario.model_validate(json.loads(key))
    grazes = any(reads_grazes(*t.abilities) for t in sc.targets) or carried(*sc.targets)  # VIII VOLATILE
    fired = [w for w in sc.attacker.weapons if sc.weapons is None or w.name in sc.weapons]
    burn = any(has_code(w.effects, "BURN") for w in fired)  # VIII BURN: the hidden models it reveals
    law = joint_law(sc, grazes=grazes, rolled=burn)
    return tuple(sorted(law.items(), key=lambda kv: (-kv[1], repr(kv[0]))))


def outcomes(s: GameState) -> list[tuple[tuple[str, int], float]]:
    """The chance outcomes of the pending shot at several models: its one node's joint law, or the
    next node of a shot rolled model by model."""
    key = s.pending[4]
    if many_turn.in_turn(key):
        return many_turn.outcomes(key)
    return [(("attack", k), p) for k, (_, p) in enumerate(cached_joint(key))]


def advance(s: GameState, outcome: tuple[Any, ...]) -> GameState | None:
    """The state after a node of a shot rolled model by model that is not its last (its outcome
    kept in the pending shot), or None when the outcome ends the shot (:func:`end`)."""
    if not many_turn.in_turn(s.pending[4]):
        return None
    return many_turn.advance(s, int(outcome[1]))


def end(s: GameState, outcome: tuple[Any, ...]) -> JointEnd:
    """The pending shot's end (every target's state, which a knockback moves, whether a roll failed,
    the grazes and the results above zero) once ``outcome`` ends it."""
    key, k = s.pending[4], int(outcome[1])
    return many_turn.end(key, k) if many_turn.in_turn(key) else cached_joint(key)[k][0]


def rolling(s: GameState) -> bool:
    """Whether a shot rolled model by model is pending with some of its nodes drawn."""
    p = s.pending
    return p[:2] == ("attack", "many") and many_turn.in_turn(p[4]) and bool(many_turn.drawn(p[4]))


__all__ = [
    "MAX_NAMED",
    "MAX_NODE",
    "ROLLED_IN_TURN",
    "advance",
    "cached_joint",
    "end",
    "fitting",
    "is_many",
    "mode",
    "named_targets",
    "outcomes",
    "plan",
    "reached",
    "rolling",
    "shot",
    "template_reach",
]
