"""A model's state under damage: hits left and its condition (rules-crusade III, VIII, IX).

Section III: "A graze result occurs if only one point of damage is done to a target with 1 hit
remaining. Targets with multiple hits remove 1 hit instead of taking a graze result. Some targets
have "0" hits- any graze result will kill them! ... Stun + Stun = KO. Wound + Wound = Kill. Stun +
Wound = either a Kill or a KO, attacker chooses." How several hits are taken is the unverified
reading ``multi_hit`` (see :mod:`.rules`). A killed model has no hits left, however it died.

Structures (VI: building sectors, barricades, catwalks) take no grazes and no conditions: "When the
building has taken all its hits, it collapses"; barricades and catwalks have 1 hit and are
destroyed by it (reading ``structures``).
"""

from __future__ import annotations

from dataclasses import dataclass

NONE, STUNNED, WOUNDED, KO, KILLED = range(5)
CONDITIONS = ("unharmed", "stunned", "wounded", "ko", "killed")
CODE = {"none": NONE, "unharmed": NONE, "stunned": STUNNED, "wounded": WOUNDED, "ko": KO}
GRAZE_CODES = ("stun", "wound", "ko", "kill")

State = tuple[int, int]  # (condition, hits left)


@dataclass(frozen=True)
class Body:
    """What a model's abilities do to the results it takes (section IX)."""

    hits: int
    undead: bool = False  # IX UNDEAD: ignores wound and KO graze results
    ignore_stun: bool = False  # IX IS
    nsb: bool = False  # IX NSB: ignores stun from knockback
    kb_immune: bool = False  # IX HEAVY / BIG ignore knockback
    force_field: bool = False  # IX +F
    swarm: bool = False  # IX SWARM
    fly: bool = False  # IX FLY: ignores damage from a fall
    size: int = 1  # V CARRYING: "SMALL < normal models < HEAVY < BIG ... < VEHICLES" (0 .. 4)
    structure: bool = False  # VI: a building sector, barricade or catwalk (no graze, no condition)


def harm(s: State) -> tuple[int, int]:
    """The attacker's preference between end states (reading ``graze_order``): worse is bigger."""
    return (s[0], -s[1])


def _killed(s: State, kill_is_ko: bool) -> State:
    """A killing result on ``s``: knocked out (VIII KILL=KO, hits kept) or killed (no hits left)."""
    return (KO, s[1]) if kill_is_ko else (KILLED, 0)


def graze(s: State, code: str, body: Body, kill_is_ko: bool = False) -> State:
    """One graze result ``code`` (stun/wound/ko/kill) on a model in state ``s``."""
    cond, h = s
    if cond == KILLED or body.structure:
        return s  # VI: structures take no graze results
    if code == "kill":
        return _killed(s, kill_is_ko)
    if cond == KO:
        return s  # reading graze_order: only a kill changes a knocked-out model
    if code == "ko":
        return s if body.undead else (KO, h)
    if code == "stun":
        if body.ignore_stun:
            return s
        if cond == NONE:
            return (STUNNED, h)
        if cond == STUNNED:
            return s if body.undead else (KO, h)  # Stun + Stun = KO (UNDEAD cannot be KOed)
        return _killed(s, kill_is_ko)  # Stun + Wound: the attacker chooses the kill
    if code == "wound":
        if body.undead:
            return s
        if cond == NONE:
            return (WOUNDED, h)
        return _killed(s, kill_is_ko)  # Wound + Wound = Kill; Wound + Stun: the kill
    raise ValueError(code)


def best_graze(s: State, codes: frozenset[str], body: Body, kill_is_ko: bool = False) -> State:
    """The graze the attacker chooses among his weapons' codes (IV: "you may decide which graze
    result you want"); a weapon without a graze code stuns (IV, unarmed)."""
    options = [graze(s, c, body, kill_is_ko) for c in sorted(codes or {"stun"})]
    return max(options, key=harm)


def chosen_graze(s: State, codes: frozenset[str], body: Body, kill_is_ko: bool = False) -> str:
    """The graze code :func:`best_graze` picks for a model in state ``s`` (reported in results)."""
    options = sorted(codes or {"stun"})
    return max(options, key=lambda c: harm(graze(s, c, body, kill_is_ko)))


def is_graze(start: State, damage: int) -> bool:
    """III: "A graze result occurs if only one point of damage is done to a target with 1 hit
    remaining" (reading ``graze``: damage, not a knockback's or PLAGUE's stun)."""
    return damage == 1 and start[1] == 1 and start[0] != KILLED


def take(s: State, d: int, codes: frozenset[str], body: Body, kill_is_ko: bool = False) -> State:
    """``d`` points of damage on a model in state ``s`` (reading ``multi_hit``)."""
    cond, h = s
    if d <= 0 or cond == KILLED:
        return s
    if body.structure:  # VI: "When the building has taken all its hits, it collapses"
        return (KILLED, 0) if d >= h else (cond, h - d)
    if d > h:
        return _killed(s, kill_is_ko)
    if h >= 2:
        return (cond, h - d)
    return best_graze(s, codes, body, kill_is_ko)  # h == 1, d == 1: a graze


def moved_back(s: State, body: Body, by_size: int | None = None) -> bool:
    """VIII KNOCKBACK: whether a model in state ``s`` is moved by a knockback: not a structure, not
    killed, and not "HEAVY and BIG models ... unless being meleed by a target equal to or larger
    than them in size" (``by_size``: the size of the model meleeing them; None for a ranged attack)."""
    immune = body.kb_immune and (by_size is None or by_size < body.size)
    return not (body.structure or immune or s[0] == KILLED)


def knocked_back(
    s: State, body: Body, into_obstacle: bool, by_size: int | None = None, fall_hits: int = 0
) -> State:
    """VIII KNOCKBACK: moved 1"; into a wall, cover or a model: a stun (as the graze result); "If
    they move past a railing (no roof) or off an edge, they fall": ``fall_hits`` (V FALLING: 1 hit
    per 4", graze = stun; FLY ignores it). "HEAVY and BIG models ignore Knockback, unless being
    meleed by a target equal to or larger than them in size" (``by_size``: the size of the model
    meleeing them; None for a ranged attack); IS and NSB ignore its stun."""
    if not moved_back(s, body, by_size):
        return s
    if fall_hits:
        return s if body.fly else take(s, fall_hits, frozenset({"stun"}), body)
    if not into_obstacle or body.nsb:
        return s
    return graze(s, "stun", body)


__all__ = [
    "CODE",
    "CONDITIONS",
    "KILLED",
    "KO",
    "NONE",
    "STUNNED",
    "WOUNDED",
    "Body",
    "best_graze",
    "graze",
    "is_graze",
    "moved_back",
    "take",
]
