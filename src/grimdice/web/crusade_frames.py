"""A logged Rules Crusade grid game as frames the page draws: the game is played again from its
actions with no dice (:func:`grimdice.systems.crusade.game.replay.replay`, as ``grimdice replay``
does), and after each action the page gets every model's square and condition, the action in
words, its arrow and the dice's outcome (the log's event for an attack)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grimdice.engine.game import CHANCE
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import CONDITIONS

#: what the page draws per square, by the grid's terrain code (:mod:`grimdice.engine.grid`)
SQUARE_KINDS = ("floor", "wall", "door", "door", "duct")
MOVES = ("move", "manhole")  # actions that take the active model to a square
ATTACKS = {"shoot": "shot", "melee": "melee", "mind": "shot"}  # actions aimed at a model: the arrow's kind


def _label(s: Any, i: int) -> str:
    """A model's name on the board and in the record: its profile (or ``blip``) and number."""
    t = s.tokens[i]
    return f"{'blip' if t.blip else s.setup.profiles[t.profile].name} #{i}"


def _board(s: Any) -> dict[str, Any]:
    grid, sc = s.setup.grid, s.setup.scenario
    return {
        "width": grid.width,
        "height": grid.height,
        "squares": [[SQUARE_KINDS[grid.at((x, y))] for x in range(grid.width)] for y in range(grid.height)],
        "dark": sorted([x, y] for x, y in grid.dark),
        "links": [[list(a), list(b)] for a, b in grid.links],
        "objectives": [
            {
                "name": o.name,
                "kind": o.kind,
                "side": o.side,
                "squares": [list(q) for q in o.squares],
                "to": [list(q) for q in o.to],
            }
            for o in sc.objectives
        ],
        "forces": [f.name for f in sc.forces],
    }


def _models(s: Any) -> list[dict[str, Any]]:
    return [
        {
            "at": list(t.sq),
            "side": t.side,
            "name": _label(s, i),
            "state": CONDITIONS[t.cond],
            "blip": bool(t.blip),
            "on_board": t.on_board,
            "active": i == s.active,
        }
        for i, t in enumerate(s.tokens)
    ]


def _items(s: Any) -> list[list[int]]:
    """Where each item objective's item is (V PICKING UP, CARRYING): on its square, or its carrier's."""
    return [list(s.tokens[carrier].sq if carrier >= 0 else where) for where, carrier in s.items]


def _what(s: Any, n: Any, a: Sequence[Any], event: str | None) -> str:
    """The action ``a`` taken in ``s`` (giving ``n``), in words."""
    forces = s.setup.scenario.forces
    who = _label(s, s.active) if s.active >= 0 else forces[s.player].name
    kind = a[0]
    if event is not None:
        return event
    if kind == "first":
        return f"roll-off: {forces[int(a[1])].name} go first"
    if kind == "activate":
        return f"{_label(s, int(a[1]))} activates"
    if kind in MOVES:
        return f"{who} moves to ({a[1]}, {a[2]})" + (" by the manhole" if kind == "manhole" else "")
    if kind in ("open", "close"):
        return f"{who} {kind}s the door at ({a[1]}, {a[2]})"
    if kind == "shoot":
        also = "".join(f" and {_label(s, int(k))}" for k in a[3:])  # SPLIT FIRE, RAPID FIRE
        return f"{who} shoots {_label(s, int(a[1]))}{also} with {a[2]}"
    if kind == "melee":
        return f"{who} melees {_label(s, int(a[1]))}"
    if kind == "mind":
        return f"{who} makes a mind war on {_label(s, int(a[1]))}"
    if kind == "cast":  # VII: a psychic card, at a model or (TELEPORT) a square
        card = s.setup.scenario.psychic.deck[int(a[2])].card
        at = f"({a[3]}, {a[4]})" if len(a) > 4 else _label(s, int(a[3]))
        return f"{_label(s, int(a[1]))} plays {card} at {at}"
    if kind == "end":
        return f"{who} ends its activation"
    if kind == "pass":
        return f"{forces[s.current_player()].name if s.current_player() >= 0 else who} pass"
    rest = " ".join(str(x) for x in a[1:])
    return f"{who}: {kind}{' ' + rest if rest else ''}"


def _arrow(s: Any, n: Any, a: Sequence[Any]) -> dict[str, Any] | None:
    """The action's arrow: the active model's step (from its square to the one it steps to), or an attack
    (from the attacker to the model it aims at; an attack's dice from its pending attacker)."""
    if a[0] in MOVES and s.active >= 0:
        t = s.tokens[s.active]  # to the square stepped to (an enemy's ZOC may still stop it there)
        return {"kind": "move", "side": t.side, "from": list(t.sq), "to": [int(a[1]), int(a[2])]}
    if a[0] in ATTACKS and s.active >= 0:
        i, j = s.active, int(a[1])
        return {"kind": ATTACKS[a[0]], "side": s.tokens[i].side, "from": list(s.tokens[i].sq),
                "to": list(s.tokens[j].sq)}  # fmt: skip
    if a[0] == "attack" and s.pending and s.pending[0] == "attack":
        how, i, j = s.pending[1:4]
        kind = "shot" if how in ("shoot", "snap", "many") else "melee"
        return {
            "kind": kind,
            "side": s.tokens[i].side,
            "from": list(s.tokens[i].sq),
            "to": list(s.tokens[j].sq),
        }
    return None


def frames(log: dict[str, Any]) -> dict[str, Any]:
    """The crusade game ``log`` as frames: ``board`` and ``start``, then per action ``round`` (the
    round it is taken in), ``side`` (whose turn), ``chance`` (a dice outcome), ``text``, ``arrow``,
    and after it ``models``, ``open_doors`` and ``items`` (where each item lies or is carried);
    ``matches_log`` and ``differs`` as ``grimdice replay`` reports them."""
    from grimdice.systems.crusade.game.replay import differences, is_game_log, replay

    if not is_game_log(log):
        raise ScenarioError("log", "not a Rules Crusade game log (system: crusade, kind: game)")
    board = log.get("scenario", {}).get("board") if isinstance(log.get("scenario"), dict) else None
    if isinstance(board, dict) and board.get("type") == "table":
        raise ScenarioError(
            "log.scenario.board.type", "the page replays grid games; use grimdice replay --png"
        )
    again, states, problems = replay(log)
    events = iter(again["events"])
    steps = []
    for s, a, n in zip(states, log["actions"], states[1:], strict=False):
        chance = s.current_player() == CHANCE
        attack = chance and bool(s.pending) and s.pending[0] in ("attack", "card")  # a logged event
        event = next(events)["text"] if attack else None
        steps.append(
            {
                "round": s.round,
                "side": s.player,
                "chance": chance,
                "text": _what(s, n, a, event),
                "arrow": _arrow(s, n, a),
                "models": _models(n),
                "open_doors": sorted([x, y] for x, y in n.open_doors),
                "items": _items(n),
            }
        )
    differs = differences(log, again, problems)
    return {
        "title": again.get("title", ""),
        "board": _board(states[0]),
        "start": {
            "models": _models(states[0]),
            "open_doors": sorted([x, y] for x, y in states[0].open_doors),
            "items": _items(states[0]),
        },
        "steps": steps,
        "winner": again["winner"],
        "rounds": again["rounds"],
        "matches_log": not differs,
        "differs": differs,
    }


__all__ = ["frames"]
