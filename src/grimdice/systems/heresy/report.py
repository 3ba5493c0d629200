"""Assembling a Heresy :class:`~grimdice.result.Result` from stage distributions (exact or sampled)."""

from __future__ import annotations

from typing import Any

from grimdice.dice.dist import Dist
from grimdice.result import Result, stage_json
from grimdice.systems.heresy.units import StrikeGroup, Target, initiative_steps

#: stages in the order of the attack sequence; absent ones are skipped
STAGES = (
    "hits",
    "precision_hits",
    "wounds",
    "unsaved",
    "damage",
    "models_destroyed",
    "precision_model_wounds",
    "precision_model_destroyed",
)


def build_result(
    method: str,
    dists: dict[str, Dist],
    target: Target,
    groups: list[StrikeGroup],
    gets_hot: tuple[Dist, Dist] | None,
    title: str = "",
    trials: int | None = None,
    seed: int | None = None,
) -> Result:
    stages = {k: dists[k] for k in STAGES if k in dists}
    extra: dict[str, Any] = {}
    if target.precision_index is not None:
        extra["precision_model"] = target.profiles[target.precision_index].name
    if target.challenge:
        extra["challenge"] = target.profiles[0].name
    steps = initiative_steps(groups)
    if steps:
        extra["initiative_steps"] = steps
    if gets_hot is not None:
        suffered, unsaved = gets_hot
        extra["gets_hot"] = {
            "wounds": stage_json(suffered),
            "unsaved": stage_json(unsaved),
            "p_any_unsaved": unsaved.prob_at_least(1),
        }
    return Result("heresy", method, stages, extra=extra, trials=trials, seed=seed, title=title)
