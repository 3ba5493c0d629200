"""A logged Rules Crusade game, on a grid or a table, as frames the page draws: the game is played
again from its actions with no dice (:func:`grimdice.systems.crusade.game.replay.replay`, as
``grimdice replay`` does), and after each action the page gets every model's position and
condition, the action in words, its arrow and the dice's outcome (the log's event: an attack, a
card, a building's damage), with the battle rules' marks (sections still covered, reinforcement
key points and the models arriving, a volley's arrows, crews beside their gun). A table's
geometry comes once (:mod:`grimdice.web.crusade_table`),
and each step of a table game carries what VI changed on it (sectors' hits, rubble, forced
entries)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from grimdice.engine.game import CHANCE
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import CONDITIONS
from grimdice.systems.crusade.game import marks, volley
from grimdice.systems.crusade.game.table import TableBoard, piece_key
from grimdice.web.crusade_table import sector_cell, table_board, table_marks

#: what the page draws per square, by the grid's terrain code (:mod:`grimdice.engine.grid`)
SQUARE_KINDS = ("floor", "wall", "door", "door", "duct")
MOVES = ("move", "manhole", "ladder", "jump", "scrabble", "fall", "hang", "climb")  # to a square (a position)
#: a table's steps in words (V MOVEMENT, JUMPING, SCRABBLING, FALLING; ladders and stairs; IX CLIMB)
CLIMBS = {"ladder": "climbs the ladder to", "jump": "jumps to", "scrabble": "scrabbles up to",
          "fall": "drops (a fall) to", "hang": "hangs and drops to", "climb": "climbs to"}  # fmt: skip
#: a table's rolls that the log does not record as events: (made, failed)
ROLLS = {"jump": ("the jump is made", "the jump fails: a fall"),
         "scrabble": ("the scrabble is made", "the scrabble fails: it stays at the bottom"),
         "force": ("the entry is forced", "the entry holds"),
         "dive": ("the dive's jump is made", "the dive fails: a fall and a stun"),
         "reinforce": ("the reinforcements' roll is made", "the reinforcements' roll fails")}  # fmt: skip
#: actions aimed at a model: the arrow's kind
ATTACKS = {"shoot": "shot", "melee": "melee", "mind": "shot", "dive": "melee", "ladder_melee": "melee"}
#: actions aimed at a sector (its index) or a barricade or catwalk (its index), and the arrow's kind
STRUCTURES = {"force": "melee", "shoot_sector": "shot", "melee_sector": "melee", "shoot_piece": "shot",
              "melee_piece": "melee"}  # fmt: skip


def _label(s: Any, i: int) -> str:
    """A model's name on the board and in the record: its profile (or ``blip``) and number."""
    t = s.tokens[i]
    return f"{'blip' if t.blip else s.setup.profiles[t.profile].name} #{i}"


def _board(s: Any) -> dict[str, Any]:
    """The board the page draws: a grid's squares by kind (walls, doors, ducts), dark squares and
    manholes, or a table's geometry (:func:`~grimdice.web.crusade_table.table_board`); then the
    objectives and the forces' names."""
    sc = s.setup.scenario
    if isinstance(s.setup.board, TableBoard):
        drawn = table_board(s)
    else:
        grid = s.setup.grid
        rows, cols = range(grid.height), range(grid.width)
        drawn = {
            "width": grid.width,
            "height": grid.height,
            "squares": [[SQUARE_KINDS[grid.at((x, y))] for x in cols] for y in rows],
            "dark": sorted([x, y] for x, y in grid.dark),
            "links": [[list(a), list(b)] for a, b in grid.links],
        }
    return {
        **drawn,
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


def _battle(s: Any) -> dict[str, Any]:
    """The battle rules' marks in state ``s`` (:mod:`grimdice.systems.crusade.game.marks`), each only
    when the scenario has the rule: ``covered`` (the squares of the sections still covered),
    ``key_points`` (each reinforcement group's points, ``side``, ``at``, ``coming``: models of the
    group still to come) and ``crews`` (each crew model's ``crew`` and ``gun`` token and squares, and
    ``cover``: within 1" of the gun standing)."""
    setup, out = s.setup, dict[str, Any]()
    if setup.sections:
        out["covered"] = [list(q) for q in marks.covered_squares(s)]
    if setup.groups:
        out["key_points"] = [{"side": k, "at": list(p), "coming": c} for k, p, c in marks.key_points(s)]
    if setup.crews:
        out["crews"] = [
            {"crew": c, "gun": g, "from": list(s.tokens[c].sq), "to": list(s.tokens[g].sq), "cover": cover}
            for c, g, cover in marks.crew_marks(s)
        ]
    return out


def _arrivals(s: Any, n: Any, text: str) -> tuple[list[int], str]:
    """The models that came onto the board in the step (reinforcements, an uncovered section's),
    and the step's text naming them."""
    new = marks.arrived(s, n)
    if not new:
        return new, text
    return new, f"{text}; {', '.join(_label(n, k) for k in new)} arrive{'s' if len(new) == 1 else ''}"


def _items(s: Any) -> list[list[int]]:
    """Where each item objective's item is (V PICKING UP, CARRYING): on its square, or its carrier's."""
    return [list(s.tokens[carrier].sq if carrier >= 0 else where) for where, carrier in s.items]


def _at(p: Sequence[Any]) -> str:
    """A position in words: a square ``(x, y)``, on a table with the height stood at."""
    return f"({p[0]}, {p[1]})" + (f' at {p[2]}"' if len(p) > 2 and p[2] else "")


def _what(s: Any, n: Any, a: Sequence[Any], event: str | None) -> str:
    """The action ``a`` taken in ``s`` (giving ``n``), in words."""
    forces = s.setup.scenario.forces
    who = _label(s, s.active) if s.active >= 0 else forces[s.player].name
    kind = a[0]
    if event is not None:
        return event
    if s.current_player() == CHANCE and kind in ROLLS:
        failed = f" ({a[2]} fails)" if kind == "force" and len(a) > 2 else ""  # III: a forced entry's fail
        return f"{who}: {ROLLS[kind][0 if a[1] else 1]}{failed}"
    if kind in CLIMBS:
        return f"{who} {CLIMBS[kind]} {_at(a[1:])}"
    if kind in STRUCTURES:
        board = s.setup.board
        target = board.structures[int(a[1])].name if kind.endswith("piece") else board.sector_names[int(a[1])]
        verb = {"force": "tries to force an entry into", "melee_sector": "melees"}.get(
            kind, kind.split("_")[0] + "s"
        )
        how = "" if len(a) < 3 else f" with {a[2]}" if a[2] else " in melee"  # VI: a forced entry's melee
        return f"{who} {verb} {target}{how}"
    if kind in ("dive", "ladder_melee"):
        how = "dives onto" if kind == "dive" else "melees awkwardly across the ladder"
        return f"{who} {how} {_label(s, int(a[1]))}"
    if kind == "close_entry":
        return f"{who} closes the forced entry at {_at(s.breaches[int(a[1])][0])}"
    if kind == "first":
        return f"roll-off: {forces[int(a[1])].name} go first"
    if kind == "activate":
        return f"{_label(s, int(a[1]))} activates"
    if kind in MOVES:
        return f"{who} moves to {_at(a[1:])}" + (" by the manhole" if kind == "manhole" else "")
    if kind in ("open", "close"):
        return f"{who} {kind}s the door at ({a[1]}, {a[2]})"
    if kind == "shoot":
        also = "".join(f" and {_label(s, int(k))}" for k in a[3:])  # SPLIT FIRE, RAPID FIRE
        return f"{who} shoots {_label(s, int(a[1]))}{also} with {a[2]}"
    if kind == "melee":
        return f"{who} melees {_label(s, int(a[1]))}"
    if kind == "volley":  # IX VOLLEY FIRE
        weapon, targets, others = volley.parts(tuple(a))
        at = " and ".join(_label(s, j) for j in targets)
        return f"{who} volleys at {at} with {weapon}, with " + ", ".join(_label(s, k) for k in others)
    if kind == "mind":
        return f"{who} makes a mind war on {_label(s, int(a[1]))}"
    if kind == "cast":  # VII: a psychic card, at a model or (TELEPORT) a square
        card = s.setup.scenario.psychic.deck[int(a[2])].card
        at = f"({a[3]}, {a[4]})" if len(a) > 4 else _label(s, int(a[3]))
        return f"{_label(s, int(a[1]))} plays {card} at {at}"
    if kind == "dissipate":  # VII PROJECTION
        return f"{_label(s, int(a[1]))} dissipates"
    if kind == "end":
        return f"{who} ends its activation"
    if kind == "pass":
        return f"{forces[s.current_player()].name if s.current_player() >= 0 else who} pass"
    rest = " ".join(str(x) for x in a[1:])
    return f"{who}: {kind}{' ' + rest if rest else ''}"


def _aim(s: Any, i: int, kind: str, to: Sequence[Any]) -> dict[str, Any]:
    return {"kind": kind, "side": s.tokens[i].side, "from": list(s.tokens[i].sq), "to": list(to)}


def _arrow(s: Any, n: Any, a: Sequence[Any]) -> dict[str, Any] | None:
    """The action's arrow: the active model's step (from its square to the one it steps to), or an attack
    (from the attacker to the model it aims at; an attack's dice from its pending attacker); on a
    table also a jump's or scrabble's roll, and a forced entry or a shot at a building's sector (to
    the sector's middle cell)."""
    chance = s.current_player() == CHANCE
    if a[0] in MOVES and s.active >= 0 and not chance:
        # to the square stepped to (an enemy's ZOC may still stop it there)
        return _aim(s, s.active, "move", [int(x) for x in a[1:]])
    if a[0] in ATTACKS and s.active >= 0 and not chance:
        return _aim(s, s.active, ATTACKS[a[0]], s.tokens[int(a[1])].sq)
    if a[0] in STRUCTURES and s.active >= 0 and not chance:
        key = int(a[1]) if not a[0].endswith("piece") else piece_key(int(a[1]))
        return _aim(s, s.active, STRUCTURES[a[0]], sector_cell(s.setup.board, key))
    if not chance or not s.pending:
        return None
    pending = s.pending
    if a[0] == "attack" and pending[0] == "attack":
        how, i, j = pending[1:4]
        return _aim(s, i, "shot" if how in ("shoot", "snap", "many") else "melee", s.tokens[j].sq)
    if pending[0] in ("jump", "scrabble") and s.active >= 0:
        return _aim(s, s.active, "move", pending[1])
    if pending[0] == "dive":  # V DIVE ATTACK: to the place it lands beside its target
        return _aim(s, int(pending[1]), "move", pending[3])
    if pending[0] in ("force", "sector"):
        kind = "shot" if pending[0] == "sector" else "melee"
        return _aim(s, int(pending[1]), kind, sector_cell(s.setup.board, int(pending[2])))
    return None


def frames(log: dict[str, Any]) -> dict[str, Any]:
    """The crusade game ``log`` as frames: ``board`` and ``start``, then per action ``round`` (the
    round it is taken in), ``side`` (whose turn), ``chance`` (a dice outcome), ``text``, ``arrow``,
    ``arrows`` (a volley's: from every firer to every target), ``arrived`` (the models that came
    onto the board), and after it ``models``, ``open_doors``, ``items`` (where each item lies or is
    carried) and the battle rules' marks (:func:`_battle`), on a table also ``table``
    (:func:`~grimdice.web.crusade_table.table_marks`); ``matches_log`` and ``differs`` as
    ``grimdice replay`` reports them."""
    from grimdice.systems.crusade.game.play import Recorder
    from grimdice.systems.crusade.game.replay import differences, is_game_log, replay

    if not is_game_log(log):
        raise ScenarioError("log", "not a Rules Crusade game log (system: crusade, kind: game)")
    again, states, problems = replay(log)
    on_table = isinstance(states[0].setup.board, TableBoard)
    rec = Recorder(states[0])  # the log's events, each found at the step that records it
    steps = []
    for s, a, n in zip(states, log["actions"], states[1:], strict=False):
        logged = len(rec.events)
        rec.step(s, a, n)
        event = rec.events[-1]["text"] if len(rec.events) > logged else None
        arrived, text = _arrivals(s, n, _what(s, n, a, event))
        volleyed = marks.volley_arrows(s, a)
        step = {
            "round": s.round,
            "side": s.player,
            "chance": s.current_player() == CHANCE,
            "text": text,
            "arrow": _arrow(s, n, a),
            "arrows": [{"kind": "shot", "side": k, "from": list(p), "to": list(q)} for k, p, q in volleyed],
            "arrived": arrived,
            "models": _models(n),
            "open_doors": sorted([x, y] for x, y in n.open_doors),
            "items": _items(n),
            **_battle(n),
        }
        steps.append({**step, "table": table_marks(n)} if on_table else step)
    start = {
        "models": _models(states[0]),
        "open_doors": sorted([x, y] for x, y in states[0].open_doors),
        "items": _items(states[0]),
        **_battle(states[0]),
    }
    differs = differences(log, again, problems)
    return {
        "title": again.get("title", ""),
        "board": _board(states[0]),
        "start": {**start, "table": table_marks(states[0])} if on_table else start,
        "steps": steps,
        "winner": again["winner"],
        "rounds": again["rounds"],
        "matches_log": not differs,
        "differs": differs,
    }


__all__ = ["frames"]
