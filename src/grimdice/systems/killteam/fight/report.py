"""A solved fight as a :class:`~grimdice.result.Result`: its stages, the policy in words, notes."""

from __future__ import annotations

from typing import Any

import numpy as np

from grimdice.dice import Dist
from grimdice.engine.options import Progress, RunOptions
from grimdice.result import Result
from grimdice.systems.killteam.fight.rolls import FirstRoll, Keep
from grimdice.systems.killteam.fight.solver import FightSolution, Tables, held, solve_fight
from grimdice.systems.killteam.fight.state import SIDES, Fighter, Hits
from grimdice.systems.killteam.rerolls import rerolls_allowed
from grimdice.systems.killteam.rules import FIGHT_REROLL_ORDER, RULES

POLICY_MIN_P = 0.005
POLICY_MAX_LINES = 25


def _hits_text(h: Hits) -> str:
    return f"{h.critical} critical + {h.normal} normal"


def describe_policy(sol: FightSolution) -> dict[str, Any]:
    """The solved policy in words: the resolution line of every likely pair of retained dice, the
    re-rolls of each side by roll, and Rending use."""
    tables = sol.tables
    resolution = tables.resolution
    likely: list[tuple[Hits, Hits, float]] = []
    candidates = [kv for kv in sol.retained.items() if kv[1] >= POLICY_MIN_P]
    for s, p in sorted(candidates, key=lambda kv: (-round(kv[1], 12), kv[0]))[:POLICY_MAX_LINES]:
        likely.append((Hits(s[0], s[1]), Hits(s[2], s[3]), p))
    moves = resolution.lines([(att, dfd) for att, dfd, _ in likely])  # all walked at once
    lines: list[dict[str, Any]] = []
    for (att, dfd, p), line in zip(likely, moves, strict=True):
        end = resolution.outcome(att, dfd)
        lines.append(
            {
                "attacker_hits": _hits_text(att),
                "defender_hits": _hits_text(dfd),
                "probability": float(p),
                "moves": line,
                "wounds_left": {"attacker": end.attacker_wounds, "defender": end.defender_wounds},
            }
        )
    out: dict[str, Any] = {
        "resolution": lines,
        "resolution_note": (
            f"each line: the dice both sides retain (after re-rolls and Rending, probability "
            f"{POLICY_MIN_P} or more, at most {POLICY_MAX_LINES} lines) and the moves both play, "
            "alternating from the attacker"
        ),
    }
    for side, f in enumerate((sol.attacker, sol.defender)):
        if rerolls_allowed(f.rules):
            out[f"{SIDES[side]}_rerolls"] = _reroll_text(side, tables)
        if f.rules.rending:
            dice = np.moveaxis(np.indices(tables.rend.shape[:4]), 0, -1)[..., 2 * side : 2 * side + 2]
            valid = held(sol.attacker.attacks, sol.defender.attacks)
            used = int(np.count_nonzero(valid & (tables.rend[..., 2 * side] != dice[..., 0])))
            able = int(np.count_nonzero(valid & (dice[..., 0] > 0) & (dice[..., 1] > 0)))
            out[f"{SIDES[side]}_rending"] = (
                "always retains a normal hit as a critical hit when it can"
                if used == able
                else f"uses Rending in {used} of {able} cases where it can"
            )
    return out


def _reroll_text(side: int, tables: Tables) -> list[dict[str, Any]]:
    """For each own roll: the re-roll chosen (or the set of re-rolls, when it depends on the
    opponent's dice)."""
    own_rolls = tables.att_rolls if side == 0 else tables.def_rolls
    options = tables.att_opts if side == 0 else tables.def_opts
    out = []
    a = tables.def_choice.shape[0]
    valid = np.add.outer(np.arange(a), np.arange(a)) < a  # the attacker's possible (normal, critical)
    choice = tables.att_choice if side == 0 else tables.def_choice[valid].T  # [own roll, opponent's]
    used = np.zeros((len(own_rolls), max(len(o) for o in options)), dtype=bool)
    used[np.arange(len(own_rolls))[:, None], choice] = True  # the options each roll uses, in order
    for i, ((roll, _), row) in enumerate(zip(own_rolls, used.tolist(), strict=True)):
        texts = [_reroll_words(roll, options[i][c]) for c, u in enumerate(row) if u]
        out.append(
            {
                "roll": f"{roll.critical} critical, {roll.normal} normal, {roll.ones} ones, "
                f"{roll.misses} other fails",
                "reroll": texts[0] if len(texts) == 1 else texts,
                "depends_on_opponent": len(texts) > 1,
            }
        )
    return out


def _reroll_words(roll: FirstRoll, keep: Keep) -> str:
    normals, crits = roll.normal - keep.normal, roll.critical - keep.critical
    fails = keep.rerolled - normals - crits
    parts = [f"{v} {w}" for v, w in ((fails, "failed"), (normals, "normal"), (crits, "critical")) if v]
    return "re-roll " + ", ".join(parts) if parts else "no re-roll"


def solution_stages(sol: FightSolution) -> dict[str, Dist]:
    """The stages of a fight result (the attacker's view first, then the defender's)."""
    p_def, p_att = sol.p_defender_incapacitated, sol.p_attacker_incapacitated
    crits = sol.critical_strikes
    st = {
        "hits": sol.attacker_hits,
        "damage": sol.damage_dealt,
        "models_destroyed": Dist([1 - p_def, p_def]),
        "defender_wounds_left": sol.defender_wounds_left,
        "defender_hits": sol.defender_hits,
        "damage_taken": sol.damage_taken,
        "attacker_incapacitated": Dist([1 - p_att, p_att]),
        "attacker_wounds_left": sol.attacker_wounds_left,
        "critical_strikes": crits["attacker"],
        "critical_strikes_taken": crits["defender"],
    }
    reap = sol.reap_mortal_wounds
    if "attacker" in reap:
        st["reap_mortal_wounds"] = reap["attacker"]
    if "defender" in reap:
        st["defender_reap_mortal_wounds"] = reap["defender"]
    if sol.attacker.rules.stun or sol.defender.rules.stun:
        apl = sol.apl_lost
        if sol.attacker.rules.stun:
            st["defender_apl_lost"] = apl["defender"]
        if sol.defender.rules.stun:
            st["attacker_apl_lost"] = apl["attacker"]
    return st


def fight_notes(attacker: Fighter, defender: Fighter) -> list[str]:
    """The unverified reading a fight used: the order of the re-roll choices, when a side re-rolls."""
    if rerolls_allowed(attacker.rules) or rerolls_allowed(defender.rules):
        return [RULES.note(FIGHT_REROLL_ORDER)]
    return []


def fight_result(
    attacker: Fighter,
    defender: Fighter,
    *,
    simulate: int | None = None,
    seed: int | None = None,
    workers: int | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
    title: str = "",
) -> Result:
    """The fight as a :class:`Result`: exact, or ``simulate`` seeded Monte Carlo trials playing the
    solved policy on literally rolled (and re-rolled) dice (``run_trials``: the same result for a
    seed whatever ``workers``)."""
    sol = solve_fight(attacker, defender)
    stages = solution_stages(sol)
    extra = {
        "policy": describe_policy(sol),
        "objectives": sol.objectives,
        "p_attacker_incapacitated": sol.p_attacker_incapacitated,
        "p_defender_incapacitated": sol.p_defender_incapacitated,
    }
    notes = fight_notes(attacker, defender)
    if simulate is None:
        return Result("killteam", "exact", stages, extra=extra, title=title, notes=notes)
    from grimdice.systems.killteam.fight.simulate import simulate_fight

    tally = simulate_fight(sol, RunOptions(simulate, seed, workers, progress, scheduler))
    stages = {k: tally.dist(k) for k in stages}
    extra["p_attacker_incapacitated"] = stages["attacker_incapacitated"][1]
    extra["p_defender_incapacitated"] = stages["models_destroyed"][1]
    return Result(
        "killteam", "simulated", stages, extra=extra, trials=simulate, seed=seed, title=title, notes=notes
    )
