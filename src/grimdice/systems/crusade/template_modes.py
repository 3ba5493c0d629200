"""Which template a many-target attack uses and what it may spread over, and SPLIT FIRE's shares
(rules-crusade VI, VIII LINE, BLAST, FLAMER TEMPLATE, X", SPLIT FIRE, RAPID FIRE)."""

from __future__ import annotations

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.attack import Attack, shot_law
from grimdice.systems.crusade.damage import State
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.rolls import Pool

MODES = ("line", "blast", "flamer", "split_fire", "rapid_fire")


def area_only(atk: Attack) -> bool:
    """Weapons whose only template is a circle (VIII X"), read as rolled per target (``area_targets``)."""
    return not any(all(a.fx.get(m) for a in atk.arms) for m in MODES) and all(
        a.fx.get("area") for a in atk.arms
    )


def mode_of(atk: Attack) -> str:
    found = [m for m in MODES if all(a.fx.get(m) for a in atk.arms)]
    names = ", ".join(a.name for a in atk.arms)
    if not found and area_only(atk):
        return "flamer"  # VIII X": a circle template, rolled per target as a template (area_targets)
    if not found:
        raise ScenarioError(
            "targets",
            f'many targets need weapons that all have LINE, BLAST, FT, *, Rap or an area (X"); got {names}',
        )
    return found[0]


def check_buildings(sc: Scenario, mode: str) -> None:
    """VIII LINE: "Apply the roll to ALL eligible models in the line ... including vehicles and
    barricades, but not buildings"; VI: "You may not spread an area or line effect weapon's attack
    between two buildings or sectors, nor between a building and targets inside"."""
    buildings = [i for i, t in enumerate(sc.targets) if t.kind == "building"]
    if not buildings:
        return
    where = f"targets.{buildings[0]}.kind"
    if mode == "line":
        raise ScenarioError(
            where, "a LINE weapon's roll applies to models, vehicles and barricades, not buildings"
        )
    if mode in ("blast", "flamer") and len(sc.targets) > 1:
        raise ScenarioError(
            where,
            "an area effect is not spread between a building (sector) and other targets (VI); shoot it alone",
        )


def split_total(pool: Pool, dice_total: int) -> int:
    """VIII SPLIT FIRE: "Split the total up": the total of a roll is its dice plus the weapon's plus
    (none below 0); it is split once, so the plus is shared, not added to every share."""
    return max(0, dice_total + pool.plus)


def share_states(atk: Attack, share: int) -> list[tuple[float, State, int]]:
    """(p, end state, damage) of one target given ``share`` of a split total: its range penalty,
    cover and other modifiers apply to the share (the plus is already in it); a target given
    nothing is not shot at."""
    if share <= 0:
        return [(1.0, atk.dfd.start, 0)]
    return [(p, s, d) for s, d, p in shot_law(atk, share - atk.spec.att.pool.plus)]


def share_outcome(atk: Attack, share: int, ff: int) -> tuple[State, int, bool]:
    """:func:`share_states` for one force-field die ``ff`` (Monte Carlo)."""
    if share <= 0:
        return atk.dfd.start, 0, False
    return atk.outcome(share - atk.spec.att.pool.plus, ff)


def splits(total: int, k: int):
    if k == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in splits(total - first, k - 1):
            yield (first, *rest)


__all__ = [
    "MODES",
    "area_only",
    "check_buildings",
    "mode_of",
    "share_outcome",
    "share_states",
    "split_total",
    "splits",
]
