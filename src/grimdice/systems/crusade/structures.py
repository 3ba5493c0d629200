"""What a destroyed structure does (rules-crusade VI STRUCTURES AND BUILDINGS).

"When the building has taken all its hits, it collapses. Roll 2 reds against any targets inside
(graze = W) including equipment (treat as 2 armor, 1 hit). ... Roll 2 reds against any connected
sectors for collateral damage." "Catwalks- 3 armor, 1 hit. As Barricades. Models on destroyed
catwalks, etc. fall as normal." (V FALLING: "For every 4" you fall, take 1 hit (graze = stun)".)

A structure shot at (``defender.kind``: building, barricade, catwalk) is destroyed when its end
state is ``killed`` (:func:`~.damage.take`: no graze, no condition). Each model of ``inside`` gets
the sub-result ``collapse: NAME`` (building: 2 reds against its armour, graze = wound; catwalk: a
fall of ``catwalk_height`` inches), each sector of ``connected`` the sub-result ``collateral: NAME``
(2 reds minus its armour as hits off its hits left; destroyed = it collapses too, whose own
collapse is not followed further). Each is mixed over the chance the structure is destroyed.
"""

from __future__ import annotations

from collections import defaultdict

from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.crusade.actions import collapse_law, fall_law
from grimdice.systems.crusade.damage import State
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.report import model_result
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.units import STRUCTURES, fighter

Law = dict[tuple[State, int], float]


def check_structure_fields(sc: Scenario) -> None:
    """``inside``, ``connected`` and ``catwalk_height`` need a single structure shot at: one clear
    error naming the field otherwise."""
    kind = sc.defender.kind
    given = [f for f in ("inside", "connected") if getattr(sc, f)]
    if sc.catwalk_height:
        given.append("catwalk_height")
    if not given:
        return
    field = given[0]
    if sc.action != "shoot" or sc.targets or sc.volley:
        raise ScenarioError(field, "applies to one structure shot at (action: shoot, no targets or volley)")
    allowed = {"building": ("inside", "connected"), "catwalk": ("inside", "catwalk_height")}.get(kind, ())
    for f in given:
        if f not in allowed:
            what = ", ".join(allowed) or "none of inside, connected, catwalk_height"
            raise ScenarioError(f, f"a defender of kind {kind!r} allows {what} (VI)")
    for i, m in enumerate(sc.connected):
        if m.kind != "building":
            raise ScenarioError(f"connected.{i}.kind", "a connected sector is a building (VI)")


def _mixed(p: float, start: State, hit: Law) -> Law:
    """``hit`` with probability ``p`` (the structure destroyed), else the model left as it was."""
    out: Law = defaultdict(float)
    out[(start, 0)] += 1 - p
    for k, q in hit.items():
        out[k] += p * q
    return dict(out)


def with_collapse(sc: Scenario, res: Result) -> Result:
    """Add the collapse's and the collateral's sub-results to a shot at a structure (VI)."""
    check_structure_fields(sc)
    if sc.defender.kind not in STRUCTURES:
        return res
    p = float(res.extra["end_state"]["killed"])
    res.extra["structure"] = {"kind": sc.defender.kind, "destroyed": p}
    if RULES.note("structures") not in res.notes:
        res.notes.append(RULES.note("structures"))
    for i, m in enumerate(sc.inside):
        me = fighter(m, f"inside.{i}")
        if sc.defender.kind == "catwalk":
            hit = fall_law(me.start, me.body, sc.catwalk_height)
        else:
            hit = collapse_law(me.start, me.body, me.armour)
        res.targets[f"collapse: {m.name}"] = model_result(
            _mixed(p, me.start, hit), res.method, {}, notes=[RULES.note("structures")]
        )
    for i, m in enumerate(sc.connected):
        me = fighter(m, f"connected.{i}")
        hit = collapse_law(me.start, me.body, me.armour, graze="")
        res.targets[f"collateral: {m.name}"] = model_result(
            _mixed(p, me.start, hit), res.method, {}, notes=[RULES.note("structures")]
        )
    return res


__all__ = ["check_structure_fields", "with_collapse"]
