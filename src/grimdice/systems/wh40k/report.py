"""Assembling a 40k :class:`~grimdice.result.Result` from stage distributions (exact or sampled)."""

from __future__ import annotations

from grimdice.dice.dist import Dist
from grimdice.result import Result, stage_json
from grimdice.systems.wh40k.units import WeaponGroup

#: stages in the order of the attack sequence; absent ones are skipped
STAGES = (
    "hits",
    "wounds",
    "devastating_wounds",
    "unsaved",
    "damage",
    "models_destroyed",
    "character_damage",
    "characters_destroyed",
)


def hazardous_tests(groups: list[WeaponGroup]) -> int:
    """Hazardous: one test per model that attacked with a Hazardous weapon."""
    return sum(g.models for g in groups if g.ab.hazardous)


def build_result(
    method: str,
    dists: dict[str, Dist],
    groups: list[WeaponGroup],
    hazardous_failed: Dist | None,
    title: str = "",
    trials: int | None = None,
    seed: int | None = None,
) -> Result:
    stages = {k: dists[k] for k in STAGES if k in dists}
    extra = {}
    if hazardous_failed is not None:
        extra["hazardous"] = {
            "tests": hazardous_tests(groups),
            "failed": stage_json(hazardous_failed),
            "p_any_failed": hazardous_failed.prob_at_least(1),
        }
    return Result("wh40k", method, stages, extra=extra, trials=trials, seed=seed, title=title)
