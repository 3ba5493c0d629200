"""Assembling a One Page 40k :class:`~grimdice.result.Result` from outcome tables (exact or sampled).

Both engines produce the same outcome tables (exact probabilities, or sampled frequencies), so the
stages are computed once here.
"""

from __future__ import annotations

from typing import Any

from grimdice.dice import Dist
from grimdice.result import Result
from grimdice.systems.onepage.rules import RULES
from grimdice.systems.onepage.units import Unit, UnitState


def _law(table: dict, f) -> Dist:  # type: ignore[no-untyped-def]
    out: dict[int, float] = {}
    for k, p in table.items():
        v = int(f(k))
        out[v] = out.get(v, 0.0) + p
    return Dist.from_mapping(out, normalize=True)


def state_json(unit: Unit, s: UnitState) -> dict[str, Any]:
    groups = [
        {"group": g.name, "alive": a, **({"wounds": d} if g.tough > 1 else {})}
        for g, a, d in zip(unit.groups, s.alive, s.damage, strict=True)
    ]
    flags = [f for f in ("pinned", "routed", "shaken", "immobile") if getattr(s, f)]
    return {"models": s.models, "groups": groups, "flags": flags}


def _killed(before: UnitState, s: UnitState) -> int:
    return sum(before.alive) - sum(s.alive)


def shooting_stages(
    target: Unit, before: UnitState, hits: Dist, wounds: Dist, table: dict
) -> dict[str, Dist]:
    """Stages of a shooting from the table {(wounds, target state, morale test taken): p}."""
    st = {
        "hits": hits,
        "wounds": wounds,
        "damage": wounds,
        "models_destroyed": _law(table, lambda k: _killed(before, k[1])),
        "models_left": _law(table, lambda k: k[1].models),
        "tough_wounds": _law(table, lambda k: sum(k[1].damage)),
        "morale_test": _law(table, lambda k: k[2]),
        "pinned": _law(table, lambda k: k[1].pinned and not before.pinned),
        "destroyed": _law(table, lambda k: k[1].destroyed),
    }
    if target.kind in ("vehicle", "walker"):
        st["shaken"] = _law(table, lambda k: k[1].shaken)
        st["immobile"] = _law(table, lambda k: k[1].immobile)
    return st


def melee_stages(
    a: Unit, sa: UnitState, d: Unit, sd: UnitState, hits_a: Dist, hits_d: Dist, final: dict
) -> dict[str, Dist]:
    """Stages of a melee from the table {(A state, D state, winner, wounds by A, wounds by D): p}."""
    st: dict[str, Dist] = {
        "attacker_hits": hits_a,
        "attacker_wounds": _law(final, lambda k: k[3]),
        "defender_hits": hits_d,
        "defender_wounds": _law(final, lambda k: k[4]),
        "damage": _law(final, lambda k: k[3]),
        "models_destroyed": _law(final, lambda k: _killed(sd, k[1])),
        "attacker_models_destroyed": _law(final, lambda k: _killed(sa, k[0])),
        "winner": _law(final, lambda k: k[2]),
    }
    for name, i, unit, before in (("attacker", 0, a, sa), ("defender", 1, d, sd)):
        st[f"{name}_models_left"] = _law(final, lambda k, i=i: k[i].models)
        if any(g.tough > 1 for g in unit.groups):
            st[f"{name}_tough_wounds"] = _law(final, lambda k, i=i: 0 if k[i].routed else sum(k[i].damage))
        st[f"{name}_pinned"] = _law(
            final, lambda k, i=i, b=before: k[i].pinned and not k[i].routed and not b.pinned
        )
        st[f"{name}_routed"] = _law(final, lambda k, i=i: k[i].routed)
        st[f"{name}_destroyed"] = _law(final, lambda k, i=i: k[i].destroyed)
    return st


def top_states(
    units: tuple[Unit, ...], table: dict, idx: tuple[int, ...], n: int = 12
) -> list[dict[str, Any]]:
    """The most likely end states (``idx`` picks the unit states out of each outcome key)."""
    merged: dict[tuple, float] = {}
    for k, p in table.items():
        key = tuple(k[i] for i in idx)
        merged[key] = merged.get(key, 0.0) + p
    best = sorted(merged.items(), key=lambda kv: -kv[1])[:n]
    return [
        {
            "p": p,
            **{
                ("attacker" if len(idx) > 1 and j == 0 else "defender"): state_json(u, s)
                for j, (u, s) in enumerate(zip(units, key, strict=True))
            },
        }
        for key, p in best
    ]


def notes(keys: list[str]) -> list[str]:
    return [RULES.note(k) for k in dict.fromkeys(keys)]


def build(
    method: str,
    stages: dict[str, Dist],
    extra: dict[str, Any],
    title: str,
    keys: list[str],
    trials: int | None = None,
    seed: int | None = None,
) -> Result:
    return Result(
        "onepage", method, stages, extra=extra, trials=trials, seed=seed, title=title, notes=notes(keys)
    )
