"""Assembling a One Page 40k :class:`~grimdice.result.Result` from outcome tables (exact or sampled).

Both engines produce the same outcome tables (exact probabilities, or sampled frequencies), so the
stages are computed once here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from grimdice.dice import Dist
from grimdice.result import Result
from grimdice.systems.onepage.rules import RULES
from grimdice.systems.onepage.units import Unit, UnitState


def _law(table: dict, f) -> Dist:
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
    """Models removed: killed by wounds, or routed ("The unit is removed from play as a casualty")."""
    return before.models - s.models


def _routed(s: UnitState) -> int:
    """Models removed by a rout (alive when the unit routed)."""
    return sum(s.alive) if s.routed else 0


LawOf = Callable[[int, Callable[[Any], int]], Dist]


def table_laws(table: dict, lookup: dict[int, Sequence[Any]] | None = None) -> LawOf:
    """``law_of(i, f)``: the law of ``f`` of component ``i`` of the outcome keys of ``table``
    (components in ``lookup`` are indices into its sequence, e.g. interned unit states)."""
    marginals: dict[int, dict] = {}

    def law_of(i: int, f: Callable[[Any], int]) -> Dist:
        if i not in marginals:
            m: dict = {}
            for k, p in table.items():
                m[k[i]] = m.get(k[i], 0.0) + p
            if lookup and i in lookup:
                m = {lookup[i][k]: p for k, p in m.items()}
            marginals[i] = m
        return _law(marginals[i], f)

    return law_of


def component_laws(components: list[dict]) -> LawOf:
    """``law_of`` from separate component tables ``{value: p}`` (the Monte Carlo engine's tallies)."""
    return lambda i, f: _law(components[i], f)


def shooting_stages(target: Unit, before: UnitState, hits: Dist, law_of: LawOf) -> dict[str, Dist]:
    """Stages of a shooting; outcome components: 0 wounds, 1 target state, 2 morale test taken."""
    wounds = law_of(0, int)
    st = {
        "hits": hits,
        "wounds": wounds,
        "damage": wounds,
        "models_destroyed": law_of(1, lambda s: _killed(before, s)),
        "models_left": law_of(1, lambda s: s.models),
        "tough_wounds": law_of(1, lambda s: sum(s.damage)),
        "morale_test": law_of(2, int),
        "pinned": law_of(1, _pinned_after),
        "newly_pinned": law_of(1, _newly_pinned(before)),
        "destroyed": law_of(1, lambda s: s.destroyed),
    }
    if target.rolls_vehicle_damage:
        st["shaken"] = law_of(1, lambda s: s.shaken)
        st["immobile"] = law_of(1, lambda s: s.immobile)
    return st


def melee_stages(
    a: Unit, sa: UnitState, d: Unit, sd: UnitState, laws: tuple[Dist, Dist, Dist, Dist], law_of: LawOf
) -> dict[str, Dist]:
    """Stages of a melee from the hit and wound laws (A hits, D hits, A wounds, D wounds) and the end
    states; components: 0 A state, 1 D state, 2 winner. Routed units "are removed from play as a
    casualty": ``models_destroyed`` (the defender's) and ``attacker_models_destroyed`` count a routed
    unit's models as removed, as the game does; ``models_routed``/``attacker_models_routed`` say how
    many of them left by the rout (so wounds killed ``models_destroyed - models_routed``)."""
    hits_a, hits_d, wounds_a, wounds_d = laws
    st: dict[str, Dist] = {
        "attacker_hits": hits_a,
        "attacker_wounds": wounds_a,
        "defender_hits": hits_d,
        "defender_wounds": wounds_d,
        "damage": wounds_a,
        "models_destroyed": law_of(1, lambda s: _killed(sd, s)),
        "attacker_models_destroyed": law_of(0, lambda s: _killed(sa, s)),
        "models_routed": law_of(1, _routed),
        "attacker_models_routed": law_of(0, _routed),
        "winner": law_of(2, int),
    }
    for name, i, unit, before in (("attacker", 0, a, sa), ("defender", 1, d, sd)):
        st[f"{name}_models_left"] = law_of(i, lambda s: s.models)
        if any(g.tough > 1 for g in unit.groups):
            st[f"{name}_tough_wounds"] = law_of(i, lambda s: 0 if s.routed else sum(s.damage))
        st[f"{name}_pinned"] = law_of(i, _pinned_after)
        st[f"{name}_newly_pinned"] = law_of(i, _newly_pinned(before))
        st[f"{name}_routed"] = law_of(i, lambda s: s.routed)
        st[f"{name}_destroyed"] = law_of(i, lambda s: s.destroyed)
    return st


def top_states(
    units: tuple[Unit, ...],
    table: dict,
    idx: tuple[int, ...],
    n: int = 12,
    states: Sequence[Any] | None = None,
) -> list[dict[str, Any]]:
    """The most likely end states (``idx`` picks the unit states out of each outcome key; with
    ``states``, the keys hold indices into it)."""
    merged: dict[tuple, float] = {}
    for k, p in table.items():
        key = tuple(k[i] for i in idx)
        merged[key] = merged.get(key, 0.0) + p
    best = sorted(merged.items(), key=lambda kv: -kv[1])[:n]
    names = ("attacker", "defender") if len(idx) > 1 else ("defender",)
    out = []
    for key, p in best:
        row: dict[str, Any] = {"p": p}
        for name, u, s in zip(names, units, key, strict=True):
            row[name] = state_json(u, states[s] if states is not None else s)
        out.append(row)
    return out


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


def _pinned_after(s: UnitState) -> bool:
    """Pinned once the attack is over (already pinned or pinned by it), still on the table."""
    return s.pinned and not s.routed and not s.destroyed


def _newly_pinned(before: UnitState) -> Callable[[UnitState], bool]:
    """Pinned by this attack: pinned after it (:func:`_pinned_after`) and not pinned before it."""

    def pinned(s: UnitState) -> bool:
        return _pinned_after(s) and not before.pinned

    return pinned
