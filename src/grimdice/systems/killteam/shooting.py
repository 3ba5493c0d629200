"""From a validated scenario to shooting attacks: who shoots what at whom, with which rules.

* :func:`resolve_shots` reads the sequence of shooting attacks (attacker, weapon, distance,
  activation) and checks every action rule (:mod:`activation`).
* :func:`make_spec` turns one weapon and one target into the engines' :class:`ShotSpec` (Injured,
  Cover, Barrage, Indirect, No Cover, invulnerable save, MW and Splash).
* :func:`secondary_targets` lists the other operatives a Blast, Torrent or Fusillade attack is
  also made against, and those a Splash attack inflicts mortal wounds on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product

from grimdice.errors import RuleError, ScenarioError, rule_at
from grimdice.systems.killteam.activation import check_activation, check_range, check_valid_target
from grimdice.systems.killteam.profiles import Activation, Nearby, Operative, Scenario, Shot, Target, Weapon
from grimdice.systems.killteam.rules import FUSILLADE_RANGE, RULES, SHAPES, SPLASH_RANGE, WeaponRules
from grimdice.systems.killteam.solve import ShotSpec, solve_sequence

COVER_MIN_DISTANCE = SHAPES["circle"]  # 2021 core book: not in Cover within 2" of the shooter


@dataclass(frozen=True)
class ResolvedShot:
    attacker: Operative
    weapon: Weapon
    rules: WeaponRules
    where: str
    distance: float | None
    activation: Activation | None
    split: dict[str, int] | None


def weapon_rules(w: Weapon, where: str) -> WeaponRules:
    """Special rules and critical hit (!) rules of a weapon, read together: a rule given in both
    takes the critical one, except AP (not cumulative: the best) and Lethal (the best)."""
    merged = RULES.parse(list(w.rules), f"{where}.rules")
    for key, value in RULES.parse(list(w.critical), f"{where}.critical").items():
        if key == "ap":
            value = max(merged.get(key, 0), value)
        elif key == "lethal":
            value = min(merged.get(key, 6), value)
        merged[key] = value
    return WeaponRules(**merged)


def operative_invulnerable(op: Operative, where: str) -> int | None:
    """The operative's Invulnerable Save x+ (field ``invulnerable`` or rule text); the best one."""
    parsed = RULES.parse(list(op.rules), f"{where}.rules")
    if set(parsed) - {"invulnerable"}:
        raise ScenarioError(f"{where}.rules", "an operative's rules here may only be 'Invulnerable Save x+'")
    found = [x for x in (op.invulnerable, parsed.get("invulnerable")) if x is not None]
    return min(found) if found else None


def resolve_shots(sc: Scenario) -> list[ResolvedShot]:
    """The shooting attacks of the scenario, in order; the attacker and weapon named or implied."""
    attackers = sc.attacker_list
    field_name = "attacker" if sc.attacker is not None else "attackers"
    shots: list[Shot | None] = list(sc.shots) if sc.shots else [None] * len(attackers)
    out = []
    for i, shot in enumerate(shots):
        where = f"shots.{i}" if sc.shots else field_name
        if shot is None:
            ai, op = i, attackers[i]
        else:
            ai, op = _find(attackers, shot.attacker, f"{where}.attacker", field_name)
        ranged = [(j, w) for j, w in enumerate(op.weapons) if not w.is_melee]
        if shot is not None and shot.weapon is not None:
            hits = [(j, w) for j, w in enumerate(op.weapons) if w.name == shot.weapon]
            if not hits:
                names = ", ".join(w.name for w in op.weapons) or "none"
                raise ScenarioError(
                    f"{where}.weapon", f"{op.name} has no weapon {shot.weapon!r}; it has: {names}"
                )
            wj, weapon = hits[0]
            if weapon.is_melee:
                raise ScenarioError(
                    f"{where}.weapon", f"{weapon.name} is a melee weapon (WS); shooting needs BS"
                )
        elif len(ranged) == 1:
            wj, weapon = ranged[0]
        else:
            raise ScenarioError(
                f"{where}.weapon" if shot is not None else "shots",
                f"{op.name} has {len(ranged)} ranged weapons: name the one used "
                f"(allowed: {', '.join(w.name for _, w in ranged) or 'none'})",
            )
        wpath = f"{field_name}.{ai}.weapons.{wj}" if sc.attackers is not None else f"attacker.weapons.{wj}"
        rules = weapon_rules(weapon, wpath)
        distance = shot.distance if shot is not None and shot.distance is not None else None
        act = shot.activation if shot is not None else None
        split = shot.split if shot is not None else None
        if act is not None:
            with rule_at(f"{where}.activation"):
                check_activation(rules, weapon.name, act, op.APL, op.order)
        out.append(ResolvedShot(op, weapon, rules, where, distance, act, split))
    return out


def _find(attackers: list[Operative], name: str | None, where: str, field_name: str) -> tuple[int, Operative]:
    if name is None:
        if len(attackers) == 1:
            return 0, attackers[0]
        raise ScenarioError(where, f"name the attacker (allowed: {', '.join(a.name for a in attackers)})")
    for i, a in enumerate(attackers):
        if a.name == name:
            return i, a
    raise ScenarioError(
        where, f"no operative {name!r} in {field_name}; allowed: {', '.join(a.name for a in attackers)}"
    )


def in_cover(rules: WeaponRules, target: Target, distance: float | None = None) -> bool:
    """Whether the target counts as in Cover for this weapon: Indirect: never; Barrage: if hidden
    from directly above; otherwise as described, but never within a circle (2") of the shooter
    (2021 core book)."""
    if rules.indirect:
        return False
    if rules.barrage:
        return target.hidden_from_above
    return target.cover and not (distance is not None and distance <= COVER_MIN_DISTANCE)


def make_spec(
    shot: ResolvedShot,
    target: Target,
    where: str,
    *,
    blast_secondary: bool = False,
    dice: int | None = None,
    splash_on_target: bool = True,
) -> ShotSpec:
    """The engines' view of one shooting attack with ``shot`` against ``target``."""
    r = shot.rules
    op = shot.attacker
    dist = shot.attacker.gap(target, shot.distance if shot.distance is not None else target.distance)
    cover = False if blast_secondary else in_cover(r, target, dist)
    if not blast_secondary:
        with rule_at(where):
            check_valid_target(target.name, target.obscured, target.order, cover)
            check_range(r, shot.weapon.name, dist, target.name)
    return ShotSpec(
        label=f"{op.name}: {shot.weapon.name} -> {target.name}",
        shooter=op.name,
        dice=shot.weapon.A if dice is None else dice,
        bs=op.skill_with(shot.weapon),
        normal=shot.weapon.D[0],
        critical=shot.weapon.D[1],
        mw_per_crit=r.mw + (r.splash if splash_on_target else 0),
        rules=r,
        df=target.DF,
        sv=target.SV,
        invulnerable=operative_invulnerable(target, where),
        cover=cover and not r.no_cover,
    )


def to_target(nb: Nearby, primary: Target, i: int) -> float:
    """Distance from a nearby operative to the primary target: given, or from positions."""
    d = nb.gap(primary, nb.distance_to_target)
    if d is None:
        raise ScenarioError(
            f"nearby.{i}.distance_to_target", "give distance_to_target, or a position for it and the target"
        )
    return d


@dataclass(frozen=True)
class Secondary:
    """Another operative affected by the (single) shooting attack."""

    index: int
    target: Nearby
    spec: ShotSpec | None  # its own shooting attack (Blast, Torrent, Fusillade), if any
    splash: int  # Splash x mortal wounds per critical hit of the primary attack


def secondary_targets(
    shot: ResolvedShot, primary: Target, nearby: list[Nearby], attacker_obj: str, defender_obj: str
) -> tuple[ShotSpec, list[Secondary], list[str]]:
    """The primary attack's spec, the other operatives it affects, and notes on those left out."""
    r = shot.rules
    notes: list[str] = []
    near = [to_target(nb, primary, i) for i, nb in enumerate(nearby)]
    attacked: dict[int, tuple[ShotSpec, int]] = {}
    if r.blast is not None:
        for i, nb in enumerate(nearby):
            if near[i] <= r.blast and nb.visible_to_target:
                attacked[i] = (make_spec(shot, nb, f"nearby.{i}", blast_secondary=True), 0)
            elif near[i] <= r.blast:
                notes.append(f"{nb.name}: not Visible to {primary.name} (Blast)")
    if r.torrent is not None:
        chosen = []
        for i, nb in enumerate(nearby):
            if near[i] > r.torrent or i in attacked:
                continue
            try:
                attacked[i] = (make_spec(shot, nb, f"nearby.{i}"), 0)
                chosen.append(i)
            except RuleError as exc:
                notes.append(f"{nb.name}: {exc.message} (Torrent)")
        for a, b in product(chosen, chosen):
            d = nearby[a].gap(nearby[b], nearby[a].distances.get(nearby[b].name))
            if a < b and d is not None and d > r.torrent:
                raise RuleError(
                    f'Torrent {r.torrent:g}": {nearby[a].name} and {nearby[b].name} are {d:g}" apart; the '
                    f'targets must be within {r.torrent:g}" of the original target and of each other '
                    f"(list only the operatives you select)"
                )
    primary_spec = make_spec(shot, primary, "target")
    if r.fusillade:
        cands = []
        for i, nb in enumerate(nearby):
            if near[i] > FUSILLADE_RANGE:
                continue
            try:
                cands.append((i, make_spec(shot, nb, f"nearby.{i}")))
            except RuleError as exc:
                notes.append(f"{nb.name}: {exc.message} (Fusillade)")
        split = fusillade_split(
            shot, primary, primary_spec, [(nearby[i], s) for i, s in cands], attacker_obj, defender_obj
        )
        primary_spec = replace(primary_spec, dice=split[primary.name])
        for i, s in cands:
            if split.get(nearby[i].name, 0) > 0:
                attacked[i] = (replace(s, dice=split[nearby[i].name]), 0)
    out = []
    for i, nb in enumerate(nearby):
        splash = r.splash if r.splash and near[i] <= SPLASH_RANGE and nb.visible_to_target else 0
        spec = attacked.get(i, (None, 0))[0]
        if spec is not None or splash:
            out.append(Secondary(i, nb, spec, splash))
    return primary_spec, out, notes


def fusillade_split(
    shot: ResolvedShot,
    primary: Target,
    primary_spec: ShotSpec,
    cands: list[tuple[Nearby, ShotSpec]],
    attacker_obj: str,
    defender_obj: str,
) -> dict[str, int]:
    """Fusillade: the user's split of the attack dice, or the one best for the attacker's objective
    (sum over targets of expected wounds lost, or of kill chances)."""
    total = shot.weapon.A
    names = [primary.name, *(nb.name for nb, _ in cands)]
    if shot.split is not None:
        unknown = sorted(set(shot.split) - set(names))
        if unknown:
            raise ScenarioError(
                f"{shot.where}.split", f"not a valid Fusillade target: {unknown}; allowed: {names}"
            )
        if sum(shot.split.values()) != total or any(v < 0 for v in shot.split.values()):
            raise ScenarioError(
                f"{shot.where}.split", f"distribute exactly {total} attack dice (A) between targets"
            )
        if shot.split.get(primary.name, 0) < 1:
            raise ScenarioError(
                f"{shot.where}.split", f"the original target {primary.name} needs at least one dice"
            )
        return dict(shot.split)
    tgts = [(primary, primary_spec), *cands]
    cache: dict[tuple[int, int], float] = {}

    def value(t: int, d: int) -> float:
        if d == 0:
            return 0.0
        if (t, d) not in cache:
            op, spec = tgts[t]
            pol = solve_sequence([replace(spec, dice=d)], op.wounds_left, attacker_obj, defender_obj)[0]
            cache[(t, d)] = float(pol.value_attacker[op.wounds_left])
        return cache[(t, d)]

    best, best_split = -1.0, None
    for split in _compositions(total, len(tgts)):
        if split[0] < 1:
            continue
        v = sum(value(t, d) for t, d in enumerate(split))
        if v > best + 1e-12:
            best, best_split = v, split
    assert best_split is not None
    return dict(zip(names, best_split, strict=True))


def _compositions(total: int, parts: int):
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)
