"""What both engines share: who attacks with what, per-attack odds, and the sides' choices.

Shooting: "All models in a unit that have line of sight to an enemy unit and that have a weapon that
is within range of that unit may fire one of their weapons at it." Melee: "All models in a unit that
are in base contact ... may attack with all their melee weapons."
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

from grimdice.systems.onepage.profiles import Conditions
from grimdice.systems.onepage.rolls import hit_face, p_pass
from grimdice.systems.onepage.units import Removal, Unit, UnitState, memo
from grimdice.systems.onepage.weapons import Weapon


@dataclass(frozen=True)
class Odds:
    """One weapon's dice against one target: the hit and block tests and the attacker's Piercing pick.
    The probabilities are computed once per instance (``cached_property``; not compared or hashed)."""

    weapon: Weapon
    hit_q: int  # hit on this face or better
    reroll_fail: bool
    reroll_success: bool
    rending: bool
    armored: bool  # the target's Armored roll applies to this weapon's hits
    block_q: int
    reroll_blocks: bool
    option: str  # "", "armored" (ignore Armored) or "reroll" (target re-rolls successful blocks)

    @cached_property
    def p_hit(self) -> float:
        return p_hit(self.hit_q, self.reroll_fail, self.reroll_success)

    @cached_property
    def p_rend(self) -> float:
        """P(a hit on a 6 that "causes one automatic wound") — Rending."""
        return hit_face(self.hit_q, self.reroll_fail, self.reroll_success)[6] if self.rending else 0.0

    @cached_property
    def p_wound_per_hit(self) -> float:
        """A normal hit becomes a wound: not ignored by Armored (4+), then the block test fails."""
        fail = 1 - p_pass(self.block_q)
        if self.reroll_blocks:
            fail += (1 - fail) * fail
        return fail * (0.5 if self.armored else 1.0)

    @cached_property
    def p_wound(self) -> float:
        return self.p_rend + (self.p_hit - self.p_rend) * self.p_wound_per_hit


@cache
def p_hit(hit_q: int, reroll_fail: bool, reroll_success: bool) -> float:
    """P(a hit die scores ``hit_q`` or more), with its re-rolls (:func:`~.rolls.hit_face`)."""
    f = hit_face(hit_q, reroll_fail, reroll_success)
    return sum(p for k, p in f.to_dict().items() if k >= hit_q)


def piercing_applies(w: Weapon, target: Unit) -> bool:
    """Piercing, the "x" rule, or Poison: "count as having the Piercing special rule against Infantry
    and Monster units"."""
    return w.piercing or (w.has("poison") and target.kind in ("infantry", "monster"))


def piercing_options(
    w: Weapon, shooter: Unit, target: Unit, c: Conditions, *, melee: bool, shaken: bool = False
) -> list[Odds]:
    """Every Odds the attacker may pick for weapon ``w``: Piercing's "either ignore the Armored special
    rule, or their targets must re-roll successful blocks ... (pick one)" (one entry if it does not
    apply, the scenario forces one, or ignoring Armored is pointless because Armored does not apply:
    re-rolling successful blocks is then never worse)."""
    cover = not melee and (c.cover or c.elevated_target or c.no_line_of_sight)
    armored = target.armored or cover  # "multiple instances of the same special rule are not cumulative"
    hit_q = 2 if (not melee and w.has("scope")) else shooter.quality
    reroll_fail = w.has("linked") or (melee and c.action == "assault" and shooter.has("hatred"))
    base = Odds(w, hit_q, reroll_fail, shaken, w.has("rending"), armored, target.quality, False, "")
    if not piercing_applies(w, target):
        return [base]
    ign = Odds(w, hit_q, reroll_fail, shaken, w.has("rending"), False, target.quality, False, "armored")
    rer = Odds(w, hit_q, reroll_fail, shaken, w.has("rending"), armored, target.quality, True, "reroll")
    if c.piercing == "armored":
        return [ign]
    if c.piercing == "reroll" or not armored:
        return [rer]
    return [ign, rer] if ign.p_wound > rer.p_wound else [rer, ign]


def odds(w: Weapon, shooter: Unit, target: Unit, c: Conditions, *, melee: bool, shaken: bool = False) -> Odds:
    """The odds of weapon ``w``; Piercing's option is the one with more wounds per attack (the first of
    :func:`piercing_options`), unless the scenario forces one."""
    return piercing_options(w, shooter, target, c, melee=melee, shaken=shaken)[0]


@dataclass(frozen=True)
class Fire:
    """``instances`` weapons ``odds.weapon`` fired, each with ``odds.weapon.attacks`` dice."""

    odds: Odds
    instances: int

    @property
    def dice(self) -> int:
        return self.instances * self.odds.weapon.attacks


def merge(fires: list[Fire]) -> list[Fire]:
    out: dict[Odds, int] = {}
    for f in fires:
        if f.instances:
            out[f.odds] = out.get(f.odds, 0) + f.instances
    return [Fire(o, n) for o, n in out.items()]


def usable_weapon(w: Weapon, c: Conditions) -> bool:
    """A ranged weapon in range (``distance``, or some model for it in ``weapons_in_range``), with
    line of sight or Indirect, and not a Limited weapon already fired ("Weapons with this special rule
    may only be fired once per game")."""
    if w.range is None:
        return False
    in_range = weapon_count(c, w) > 0 if c.weapons_in_range is not None else w.range >= c.distance
    return (
        in_range
        and (not c.no_line_of_sight or w.has("indirect"))
        and not (c.limited_fired and w.has("limited"))
    )


def weapon_count(c: Conditions, w: Weapon) -> int:
    """The models that may fire ``w`` by ``weapons_in_range`` (names in any case)."""
    counts = c.weapons_in_range or {}
    return next((k for name, k in counts.items() if name.strip().lower() == w.name.lower()), 0)


def shooters(shooter: Unit, state: UnitState, c: Conditions) -> list[tuple[int, int, list[Weapon]]]:
    """Per model group (listed order): its index, how many of its models shoot and the weapons they
    may fire.
    "All models in a unit that have line of sight to an enemy unit and that have a weapon that is
    within range of that unit may fire"; ``in_range`` models do, the first alive in listed group
    order (default: all); groups with no model or weapon able to fire are left out. With
    ``weapons_in_range``, :func:`shooters_by_weapon`."""
    if c.weapons_in_range is not None:
        return shooters_by_weapon(shooter, state, c)
    left = c.in_range if c.in_range is not None else state.models
    out: list[tuple[int, int, list[Weapon]]] = []
    for i, (g, n) in enumerate(zip(shooter.groups, state.alive, strict=True)):
        k = min(n, left)
        left -= k
        usable = [w for w in g.weapons if usable_weapon(w, c)]
        if k and usable:
            out.append((i, k, usable))
    return out


def shooters_by_weapon(shooter: Unit, state: UnitState, c: Conditions) -> list[tuple[int, int, list[Weapon]]]:
    """:func:`shooters` with a count of models per weapon (``weapons_in_range``): each model that
    sees the target fires a weapon that is in range of it. A weapon's count goes to the models
    carrying it, the first alive in listed group order. Within a group, a model counted for a
    weapon is counted for every weapon of longer reach (in range of a nearer model is in range of
    it), so the group splits into parts of identical models: the ``k`` models counted for the most
    weapons, then the next ones, each part with the weapons it may fire (a group may appear more
    than once)."""
    left = {name.strip().lower(): k for name, k in (c.weapons_in_range or {}).items()}
    out: list[tuple[int, int, list[Weapon]]] = []
    for i, (g, n) in enumerate(zip(shooter.groups, state.alive, strict=True)):
        counts: list[tuple[Weapon, int]] = []
        for w in g.weapons:
            if not usable_weapon(w, c):
                continue
            k = min(n, left.get(w.name.lower(), 0))
            left[w.name.lower()] -= k
            counts.append((w, k))
        levels = sorted({k for _, k in counts if k}, reverse=True)
        for j, k in enumerate(levels):
            size = k - (levels[j + 1] if j + 1 < len(levels) else 0)
            out.append((i, size, [w for w, kw in counts if kw >= k]))
    return out


def shooting_fire(shooter: Unit, state: UnitState, target: Unit, c: Conditions) -> list[Fire]:
    """Each model in range fires its best weapon in range (Relentless on Hold: all of them).

    Relentless: "Units with this special rule may fire all of their weapons when using Hold
    actions". Indirect: "may be fired at enemies that are not within line of sight". Limited weapons
    fire unless ``limited_fired`` (see :func:`usable_weapon`)."""
    fires: list[Fire] = []
    for _, k, usable in shooters(shooter, state, c):
        all_of = shooter.has("relentless") and c.action == "hold"
        shaken = state.shaken
        cands = [odds(w, shooter, target, c, melee=False, shaken=shaken) for w in usable]
        if all_of:
            fires += [Fire(o, k) for o in cands]
        else:
            best = max(cands, key=lambda o: o.p_wound * o.weapon.attacks)
            fires.append(Fire(best, k))
    return merge(fires)


def shooting_options(
    shooter: Unit, state: UnitState, target: Unit, c: Conditions, limit: int = 64
) -> list[list[Fire]]:
    """Every plan the shooter may play: per group of models, which weapon they fire (all of them with
    Relentless on Hold) and Piercing's option for each; the greedy plan (:func:`shooting_fire`)
    first. Plans differ only per group (models of a group are identical); more than ``limit`` plans:
    the greedy one only."""
    per_group: list[list[list[Fire]]] = []
    for _, k, usable in shooters(shooter, state, c):
        opts = [piercing_options(w, shooter, target, c, melee=False, shaken=state.shaken) for w in usable]
        if shooter.has("relentless") and c.action == "hold":
            plans: list[list[Fire]] = [[]]
            for os_ in opts:
                plans = [[*p, Fire(o, k)] for p in plans for o in os_]
        else:
            plans = [[Fire(o, k)] for os_ in opts for o in os_]
        per_group.append(plans)
    total = 1
    for plans in per_group:
        total *= len(plans)
    greedy = shooting_fire(shooter, state, target, c)
    if total > limit or total <= 1:
        return [greedy]
    out: list[list[Fire]] = [[]]
    for plans in per_group:
        out = [p + q for p in out for q in plans]
    merged = [merge(p) for p in out]
    return [greedy] + [p for p in merged if p != greedy]


def strikers(state: UnitState, limit: int | None) -> tuple[int, ...]:
    """Models striking per group: "All models in a unit that are in base contact with an enemy model
    from the target unit, or that are within 2" of a model from the target unit may attack";
    ``limit`` models are placed so (None: all), the first alive in listed group order (reading
    ``who_strikes``)."""
    if limit is None:
        return state.alive
    out = []
    for n in state.alive:
        k = min(n, limit)
        out.append(k)
        limit -= k
    return tuple(out)


def melee_fire(
    unit: Unit,
    state: UnitState,
    target: Unit,
    c: Conditions,
    *,
    assaulting: bool,
    placed: int | None = None,
    picks: Picks | None = None,
) -> list[Fire]:
    """Every striking model (``placed``: how many are within 2", see :func:`strikers`) attacks with
    all its melee weapons; "the assaulting unit receives a bonus of 1 Attack per assaulting model"
    (the text's example: "Three marines ... are within range ... receive 1 bonus Attack each");
    Furious: "+1 Attack in melee when using Assault actions". Bonus attacks carry no weapon rules
    (reading ``assault_bonus``). ``picks``: Piercing's option per melee weapon (default: the option
    with more wounds per attack, see :func:`melee_picks`)."""
    fires: list[Fire] = []
    for g, n in zip(unit.groups, strikers(state, placed), strict=True):
        if not n:
            continue
        for w in g.weapons:
            if w.melee:
                opts = piercing_options(w, unit, target, c, melee=True, shaken=state.shaken)
                pick = picks.get(w) if picks else None
                fires.append(Fire(next((o for o in opts if o.option == pick), opts[0]), n))
        if assaulting:
            # one bonus "weapon" per striking model, with 1 Attack (2 with Furious): reported per model
            extra = 1 + (1 if unit.has("furious") else 0)
            bonus = Weapon("Assault bonus", None, extra)
            fires.append(Fire(odds(bonus, unit, target, c, melee=True, shaken=state.shaken), n))
    return merge(fires)


Picks = dict[Weapon, str]  # Piercing's option ("armored" or "reroll") per melee weapon


def melee_picks(unit: Unit, state: UnitState, target: Unit, c: Conditions, limit: int = 8) -> list[Picks]:
    """Every combination of Piercing's options ("either ignore the Armored special rule, or their
    targets must re-roll successful blocks ... (pick one)") for the unit's melee weapons that have a
    choice; the default (more wounds per attack each) first; more than ``limit``: the default only."""
    out: list[Picks] = [{}]
    for w in dict.fromkeys(w for g in unit.groups for w in g.weapons if w.melee):
        opts = piercing_options(w, unit, target, c, melee=True, shaken=state.shaken)
        if len(opts) > 1:
            out = [{**p, w: o.option} for p in out for o in opts]
    return out if len(out) <= limit else out[:1]


def removal(
    unit: Unit, enemy: Unit, c: Conditions, *, assaulting: bool, strike_back: bool, placed: int | None = None
) -> Removal:
    """The defender's objective when ``unit`` removes casualties: each group's worth is the expected
    wounds one of its models strikes at ``enemy`` in melee (its melee weapons, plus the assault bonus
    when ``assaulting``); see :class:`~grimdice.systems.onepage.units.Removal`.

    Kept per unit (:func:`~.units.memo`): melee attacks read only the conditions' ``piercing`` (their
    ``action`` is set here), so the objective depends on nothing else of ``c``."""
    m = memo(unit, "removal_objective")
    key = (id(enemy), c.piercing, assaulting, strike_back, placed)
    hit = m.get(key)
    if hit is None or hit[0] is not enemy:  # the enemy object is kept, so its id is not reused
        hit = m[key] = (enemy, _removal(unit, enemy, c, assaulting, strike_back, placed))
    return hit[1]


def _removal(
    unit: Unit, enemy: Unit, c: Conditions, assaulting: bool, strike_back: bool, placed: int | None
) -> Removal:
    worth = []
    for i in range(len(unit.groups)):
        one = UnitState(tuple(int(j == i) for j in range(len(unit.groups))), (0,) * len(unit.groups))
        cc = c.model_copy(update={"action": "assault" if assaulting else "hold"})
        worth.append(
            sum(f.dice * f.odds.p_wound for f in melee_fire(unit, one, enemy, cc, assaulting=assaulting))
        )
    return Removal(tuple(worth), strike_back, placed)


def melee_removals(a: Unit, d: Unit, c: Conditions) -> tuple[dict[bool, Removal], dict[bool, Removal]]:
    """(the assaulting ``a``'s, the defending ``d``'s) :func:`removal` objective in their melee, by
    whether the side still strikes after removing its casualties (then it keeps what strikes back
    best)."""
    rem_d = {
        b: removal(d, a, c, assaulting=False, strike_back=b, placed=c.defender_strikers)
        for b in (False, True)
    }
    rem_a = {
        b: removal(a, d, c, assaulting=True, strike_back=b, placed=c.attacker_strikers) for b in (False, True)
    }
    return rem_a, rem_d


def _has_anywhere(unit: Unit, rule: str) -> bool:
    """The unit has ``rule`` itself or on one of its melee weapons."""
    return unit.has(rule) or any(w.has(rule) for g in unit.groups for w in g.weapons if w.melee)


@dataclass(frozen=True)
class Timing:
    """When each side's melee attacks are resolved: tier 1 (Strikes First), 0, or -1 (Strikes Last).

    Strikes First: "Whenever units using weapons with this special rule fight in melee their attacks
    with this weapon are fully resolved before those of the opponent, including the removal of any
    casualties. If two units with this special rule fight each other in melee they ignore this special
    rule." (Strikes Last alike.) The rules are per weapon; the unit-wide sources give them to every
    attack of the unit: Elevation ("it gets the Strikes First special rule for that melee"), Pinned
    ("have the Strikes Last special rule in melee"), a failed Fear test ("the unit strikes last"), the
    rule on the unit itself. Attacks carrying no weapon (the assault bonus, a Vehicle's automatic hits)
    take the unit-wide tier. A weapon with both rules (e.g. a Strikes First weapon of a Pinned unit)
    is resolved at tier 0 (reading ``strike_tiers``). Attacks of the same tier are simultaneous:
    "After both units have resolved all of their attacks, both units have to remove casualties."
    """

    a_first: bool  # unit-wide Strikes First of the attacker (elevation, unit rule)
    a_last: bool
    d_first: bool
    d_last: bool
    first_ignored: bool  # both units have Strikes First: "they ignore this special rule"
    last_ignored: bool

    @classmethod
    def of(
        cls, a: Unit, sa: UnitState, d: Unit, sd: UnitState, c: Conditions, a_fear: bool, d_fear: bool
    ) -> Timing:
        """The timing of a melee; ``a_fear``/``d_fear``: that side failed its Fear test."""
        a_first = a.has("strikes_first") or c.attacker_higher
        d_first = d.has("strikes_first") or c.defender_higher
        a_last = a.has("strikes_last") or sa.pinned or a_fear
        d_last = d.has("strikes_last") or sd.pinned or d_fear
        return cls(
            a_first,
            a_last,
            d_first,
            d_last,
            (a_first or _has_anywhere(a, "strikes_first")) and (d_first or _has_anywhere(d, "strikes_first")),
            (a_last or _has_anywhere(a, "strikes_last")) and (d_last or _has_anywhere(d, "strikes_last")),
        )

    def tier(self, attacker: bool, w: Weapon) -> int:
        """The tier of weapon ``w`` of the attacker (``attacker``) or of the defender."""
        first = (self.a_first if attacker else self.d_first) or w.has("strikes_first")
        last = (self.a_last if attacker else self.d_last) or w.has("strikes_last")
        return int(first and not self.first_ignored) - int(last and not self.last_ignored)

    def tiers(self, attacker: bool, fires: list[Fire]) -> set[int]:
        return {self.tier(attacker, f.odds.weapon) for f in fires}

    @staticmethod
    def label(a_tiers: set[int], d_tiers: set[int]) -> str:
        """``"attacker"``: all the attacker's attacks are resolved before the defender's, ``"defender"``
        the reverse, ``"both"``: at once, ``"mixed"``: interleaved (per-weapon Strikes First/Last)."""
        if not a_tiers or not d_tiers or a_tiers == d_tiers == {min(a_tiers)}:
            return "both"
        if min(a_tiers) > max(d_tiers):
            return "attacker"
        if min(d_tiers) > max(a_tiers):
            return "defender"
        return "mixed"


def at_tier(timing: Timing, attacker: bool, fires: list[Fire], tier: int) -> list[Fire]:
    """The attacks of ``fires`` resolved at ``tier``."""
    return [f for f in fires if timing.tier(attacker, f.odds.weapon) == tier]
