"""What a One Page 40k round picture (:mod:`.draw`) explains beside its table, worked out from the
drawing's inputs before anything is drawn (laid out by :mod:`grimdice.engine.pictures`):

- the round's arrows (:func:`arrows`): moves (Walk, Run; a two-leg move through its waypoint),
  assaults, consolidations after a melee, and shots (one per target);
- the legend (:func:`legend`): one entry per kind of mark the picture holds, and only those: the
  two armies, each kind of terrain piece on the table by the traits the rules name ("Impassable
  Terrain", "Cover Terrain", "Difficult Terrain", "Dangerous Terrain", line of sight blocked,
  elevation), pinned units, Vehicles' fronts, and each kind of arrow drawn;
- the unit key (:func:`unit_key`): every unit once, army by army, by its number (drawn on its
  bases): its name, models left of those it started with, wounds left where it has Tough models,
  and what it is (pinned, Shaken, Immobile, in melee this round, in reserve, embarked, routed,
  destroyed);
- the title (:func:`title`): the armies, the round and the score ("the point value of all enemy
  units they completely destroyed, or that are pinned").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from grimdice.engine.pictures import SIDE_COLOURS, KeyLine, Mark, line, numbered_key, patch, shorten
from grimdice.errors import printable
from grimdice.systems.onepage.game import deployment, facing, legs
from grimdice.systems.onepage.game.consolidation import KIND
from grimdice.systems.onepage.game.state import ROUNDS, GameState

#: each terrain trait in the order a piece's colour is chosen by (its first trait), its colour, and
#: its words in the legend (the rules' sentences, shortened)
TRAITS = {
    "impassable": ("dimgray", "impassable: no move into or through"),
    "blocks_sight": ("sienna", "blocks line of sight"),
    "cover": ("forestgreen", "cover: Armored against shooting"),
    "dangerous": ("orange", "dangerous: each 1 on a die per model moving in is a hit"),
    "difficult": ("olive", "difficult: no further than a Walk"),
}
OPEN = "khaki"  # a piece with none of the traits (a hill)
ELEVATED = "raised, its height on it: a unit above another is elevated"
MAX_NAME = 22  # characters of a unit's name in the key
#: a step's arrow: its kind (move, assault, consolidation, shot), its army, and its points (the
#: arrow's tail first, its head last; a two-leg move has its waypoint between)
Arrow = tuple[str, int, tuple[tuple[float, float], ...]]
ARROWS = {
    "move": ("moved this round (Walk or Run)", {"c": "gray", "marker": ">", "markevery": [1]}),
    "assault": ("assault: charger to its target", {"c": "black", "marker": ">", "markevery": [1]}),
    "consolidation": (
        "consolidation after a melee",
        {"c": "black", "ls": ":", "marker": ">", "markevery": [1]},
    ),
}
FALLEN_MARK = {"ls": "", "marker": "o", "mfc": "none", "mec": "grey", "ms": 9}
PINNED_STYLE = {"hatch": "////", "ec": "black", "lw": 0.5}


def trait_order(traits: Sequence[str] | frozenset[str]) -> tuple[str, ...]:
    """A piece's traits in :data:`TRAITS`' order (its colour is its first's)."""
    return tuple(k for k in TRAITS if k in traits)


def terrain_style(traits: Sequence[str] | frozenset[str]) -> dict[str, Any]:
    """How a piece with ``traits`` is filled: its first trait's colour (:data:`OPEN` with none),
    hatched when it has more than one (``xx`` if one of the others is dangerous, else ``..``)."""
    order = trait_order(traits)
    style: dict[str, Any] = {
        "fc": TRAITS[order[0]][0] if order else OPEN,
        "ec": "black",
        "lw": 0.5,
        "alpha": 0.5,
    }
    if len(order) > 1:
        style["hatch"] = "xx" if "dangerous" in order[1:] else ".."
    return style


def _base_name(name: str) -> str:
    """A piece's kind from its name: its words without a trailing number ("forest 3": forest)."""
    return re.sub(r"\s*\d+$", "", printable(name)) or "terrain"


def _rank(order: tuple[str, ...], raised: bool) -> tuple[list[int], bool]:
    """Where a kind of piece comes in the legend: by its traits in :data:`TRAITS`' order, pieces
    with none last, flat before raised."""
    return [list(TRAITS).index(k) for k in order] or [len(TRAITS)], raised


def terrain_legend(s: GameState) -> list[Mark]:
    """One entry per kind of piece on the table (its traits, and whether it is raised), named by
    the pieces' own names, in :data:`TRAITS`' order."""
    kinds: dict[tuple[tuple[str, ...], bool], list[str]] = {}
    for t in s.setup.table.terrain:
        names = kinds.setdefault((trait_order(t.traits), t.height > 0), [])
        if _base_name(t.name) not in names:
            names.append(_base_name(t.name))
    out = []
    for (order, raised), names in sorted(kinds.items(), key=lambda kv: _rank(*kv[0])):
        words = [TRAITS[k][1] for k in order] + ([ELEVATED] if raised else [])
        label = f"{', '.join(names[:3])}: {'; '.join(words) if words else 'open ground'}"
        out.append(
            patch(
                label,
                "terrain " + ("+".join(order) or "open") + (" raised" if raised else ""),
                **terrain_style(order),
            )
        )
    return out


def _point(p: Any) -> tuple[float, float]:
    return float(p[0]), float(p[1])


def arrows(steps: Sequence[tuple[GameState, Any, GameState]]) -> list[Arrow]:
    """The round's arrows from its ``steps`` (state, action, next state): a Walk or Run (its
    waypoint's leg first when it moved in two legs), an assault, a consolidation (when it moved),
    a shot (shooter to target, when the shot is resolved)."""
    out: list[Arrow] = []
    for s, a, n in steps:
        if s.phase == "play" and a[0] in ("walk", "run", "assault"):
            u = int(a[1])
            mid = legs.via(s, u, a)
            via = () if mid is None else (_point(mid.anchors[u]),)
            kind = "assault" if a[0] == "assault" else "move"
            out.append((kind, s.setup.owner[u], (_point(s.anchors[u]), *via, _point(n.anchors[u]))))
        elif s.phase == KIND and (a[2], a[3]) != (0.0, 0.0):
            u = int(a[1])
            x0, y0 = s.anchors[u]
            out.append(("consolidation", s.setup.owner[u], ((x0, y0), (x0 + a[2], y0 + a[3]))))
        elif s.phase == "combat" and s.pending and s.pending[0] == "shoot":
            _, u, t, _ = s.pending
            p, q = s.models(u).mean(axis=0), s.models(t).mean(axis=0)
            out.append(("shot", s.setup.owner[u], (_point(p), _point(q))))
    return out


def in_melee(steps: Sequence[tuple[GameState, Any, GameState]]) -> set[int]:
    """The units that fought a melee in the round (an attacker or a defender)."""
    return {
        int(v)
        for s, _, _ in steps
        if s.phase == "combat" and s.pending and s.pending[0] == "melee"
        for v in s.pending[1:3]
    }


def drawn(s: GameState) -> list[int]:
    """The units drawn on the table: not destroyed nor routed, not in reserve nor embarked."""
    return [u for u in range(len(s.units)) if not s.units[u].destroyed and s.on_table(u)]


def fallen(steps: Sequence[tuple[GameState, Any, GameState]]) -> dict[int, tuple[tuple[float, float], ...]]:
    """The units destroyed or routed in the round of ``steps``: each one's models' centres where
    it last stood on the table."""
    if not steps:
        return {}
    end, last = steps[-1][2], {}
    gone = [u for u in range(len(end.units)) if end.units[u].destroyed]
    for s, _, _ in steps:
        for u in gone:
            if not s.units[u].destroyed and s.on_table(u):
                last[u] = s
    return {u: tuple((float(x), float(y)) for x, y in s.models(u)) for u, s in last.items()}


def legend(s: GameState, steps_arrows: Sequence[Arrow] = (), gone: Sequence[int] = ()) -> list[Mark]:
    """Every kind of mark the picture of ``s`` (with ``steps_arrows``, and the units ``gone`` in the
    round drawn where they fell, :func:`fallen`) holds, each once."""
    names = [printable(a.name) for a in s.setup.armies]
    out = [
        line(f"{n}: its units' bases", "army", ls="", marker="o", c=SIDE_COLOURS[k], ms=9)
        for k, n in enumerate(names)
    ]
    out += terrain_legend(s)
    units = drawn(s)
    if gone:
        out.append(line("destroyed or routed this round: where it last stood", "fallen", **FALLEN_MARK))
    if units or gone:
        out.append(line("unit: its number (see the key)", "number", ls="", marker="$7$", c="black", ms=9))
    if any(s.units[u].pinned for u in units):
        out.append(
            patch(
                "pinned (hatched): idle next activation; scores for the enemy",
                "pinned",
                fc="lightgrey",
                **PINNED_STYLE,
            )
        )
    if any(facing.is_vehicle(s, u) for u in units):
        out.append(
            line("Vehicle's front (white arrow)", "front", ls="", marker=">", mfc="white", mec="black", ms=9)
        )
    kinds = {k for k, _, _ in steps_arrows}
    for kind, (words, style) in ARROWS.items():
        if kind in kinds:
            out.append(line(words, kind, **style))
    if "shot" in kinds:
        out.append(
            line(
                "shot: shooter to target (army's colour)",
                "shot",
                c="grey",
                ls="--",
                marker=">",
                markevery=[1],
            )
        )
    return out


def unit_line(s: GameState, u: int, melee: Collection[int] = (), gone: Collection[int] = ()) -> str:
    """The key's line for unit ``u``: its number and name, models left of those it started with,
    wounds left of its Tough models' all (where any is Tough), then what it is."""
    unit, st = s.setup.units[u], s.units[u]
    name = printable(unit.name)
    name = shorten(name, MAX_NAME)
    text = f"{u:>2}  {name}"
    if st.destroyed:
        return text + f" ({'routed' if st.routed else 'destroyed'}{' this round' if u in gone else ''})"
    text += f"  {sum(st.alive)}/{unit.started_with or unit.size}"
    if any(g.tough > 1 for g in unit.groups):
        left = sum(n * g.tough for n, g in zip(st.alive, unit.groups, strict=True)) - sum(st.damage)
        text += f", {left}/{sum(g.count * g.tough for g in unit.groups)} wounds"
    notes = [k for k, on in (("pinned", st.pinned), ("Shaken", st.shaken), ("Immobile", st.immobile)) if on]
    notes += ["in melee"] if u in melee else []
    if not s.on_table(u):
        where = s.place[u]
        notes.append(
            "in reserve"
            if where == deployment.RESERVE
            else "not deployed"
            if where < 0
            else f"aboard unit {where}"
        )
    return text + (f" ({', '.join(notes)})" if notes else "")


def unit_key(s: GameState, melee: Collection[int] = (), gone: Collection[int] = ()) -> list[KeyLine]:
    """The key's lines, army by army: each unit once, by number (:func:`unit_line`)."""
    sides = []
    for side, army in enumerate(s.setup.armies):
        ids = [u for u in range(len(s.units)) if s.setup.owner[u] == side]
        sides.append((army.name, [unit_line(s, u, melee, gone) for u in ids]))
    return numbered_key(sides)


def title(s: GameState, rnd: int) -> str:
    """The picture's title: the armies, the round, the score (and the winner after the last)."""
    a, b = (printable(x.name) for x in s.setup.armies)
    pa, pb = s.returns()
    head = f"{a} (blue) vs {b} (red)"
    score = f"score {a} {pa:g}, {b} {pb:g} (enemy units destroyed or pinned)"
    end = ""
    if rnd >= ROUNDS or s.phase == "end":
        w = s.winner()
        end = " - game over, a draw" if w < 0 else f" - game over, won by {(a, b)[w]}"
    return f"{head}\nround {rnd} of {ROUNDS} (end): {score}{end}"


__all__ = [
    "arrows",
    "drawn",
    "in_melee",
    "legend",
    "terrain_style",
    "title",
    "unit_key",
    "unit_line",
]
