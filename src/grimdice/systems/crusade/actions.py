"""Other rolls of the rules as tested helpers a skirmish game calls (rules-crusade VI, VIII, IX)."""

from __future__ import annotations

from grimdice.dice.dist import Dist
from grimdice.systems.crusade.damage import CONDITIONS, Body, State, take
from grimdice.systems.crusade.movement import falling
from grimdice.systems.crusade.rolls import Pool, parse_pool, total_law


def _law(pool: Pool) -> dict[int, float]:
    out: dict[int, float] = {}
    for (t, _), p in total_law(pool.white, pool.red).items():
        out[t + pool.plus] = out.get(t + pool.plus, 0.0) + p
    return out


def unjam_chance(dice: str) -> float:
    """VIII JAM: "To unjam, roll a zero on the weapon dice" (the dice, before any plus)."""
    pool = parse_pool(dice, "dice")
    return _law(Pool(pool.white, pool.red))[0]


def collapse_law(
    start: State, body: Body, armour: int, graze: str = "wound"
) -> dict[tuple[State, int], float]:
    """VI: a collapsing building "Roll 2 reds against any targets inside (graze = W) including
    equipment (treat as 2 armor, 1 hit)" and against connected sectors (a structure's ``body``:
    hits off, no graze). The law of (end state, damage) of one model or sector."""
    out: dict[tuple[State, int], float] = {}
    for t, p in _law(Pool(red=2)).items():
        d = max(0, t - armour)
        key = (take(start, d, frozenset({graze} if graze else ()), body), d)
        out[key] = out.get(key, 0.0) + p
    return out


def fall_law(start: State, body: Body, height: float) -> dict[tuple[State, int], float]:
    """V FALLING: "For every 4" you fall, take 1 hit (graze = stun)"; FLY ignores it (IX). The law
    of (end state, hits taken) of a model falling ``height`` inches (one outcome)."""
    return {(falling(height, start, body, fly=body.fly), 0 if body.fly else int(height // 4)): 1.0}


def collapse(start: State, body: Body, armour: int) -> dict[str, float]:
    """VI: the end condition of a model inside a collapsing building (:func:`collapse_law`)."""
    out = dict.fromkeys(CONDITIONS, 0.0)
    for (s, _), p in collapse_law(start, body, armour).items():
        out[CONDITIONS[s[0]]] += p
    return out


def collateral(sector_armour: int = 1, hits_left: int = 10) -> tuple[Dist, float]:
    """VI: when a building collapses, "Roll 2 reds against any connected sectors for collateral
    damage": 2 reds minus the sector's armour (1; armoured 2) are hits off its ``hits_left`` (10 a
    sector). Returns the law of the hits taken and the chance the sector collapses too."""
    body = Body(hits=hits_left, structure=True)
    law: dict[int, float] = {}
    for ((_, h), _), p in collapse_law((0, hits_left), body, sector_armour, graze="").items():
        law[hits_left - h] = law.get(hits_left - h, 0.0) + p
    return Dist.from_mapping(law), law.get(hits_left, 0.0)


def shamble_move() -> Dist:
    """IX SHAMBLE: "roll 2 reds and add 4 to get the move value"."""
    return Dist.from_mapping(_law(Pool(red=2, plus=4)))


def horror() -> dict[str, float]:
    """IX HORROR: a red die on the next turn: 0 dead, 1 languishing, 2 last attack then dies,
    3 last attack and alive again with 1 hit."""
    faces = (0, 0, 0, 1, 2, 3)
    names = {0: "dead", 1: "languishing", 2: "last attack, dies", 3: "last attack, alive"}
    return {names[f]: faces.count(f) / 6 for f in names}


def detonate_chance(dice: str) -> float:
    """IX DETONATE: "if you roll a zero on the dice, you do not explode"."""
    return 1.0 - unjam_chance(dice)


__all__ = [
    "collapse",
    "collapse_law",
    "collateral",
    "detonate_chance",
    "fall_law",
    "horror",
    "shamble_move",
    "unjam_chance",
]
