"""Roster references in scenarios: ``attacker: {roster: army.rosz, unit: "Intercessor Squad"}``.

:func:`resolve_scenario` replaces each side given as a roster reference by the system's own
scenario input for that unit, merged with whatever else the side says (an ``order``, ``cover``,
``keywords``...; these win over what the roster gives). Paths are relative to the scenario file.

A reference may say

* ``roster`` (the file) and ``unit`` (its name; ``Name#2`` for the second unit of that name;
  ``Boyz+Warboss`` attaches the Warboss as the Leader of the Boyz, as does ``leaders: [Warboss]``);
* ``weapons``: ``ranged`` (default), ``melee`` or a list of weapon or mode names.

A One Page Rules (Army Forge) unit brings the Hero the list joins to it as ``attacker_hero`` /
``defender_hero``, and ``weapons`` sets the scenario's ``attack`` (``melee``: an assault).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from grimdice.adapters.rosters.onepage_sides import ONEPAGE_BOOK, onepage_side
from grimdice.adapters.rosters.sides import (
    Side,
    heresy_attacker,
    heresy_defender,
    kt_operative,
    wh40k_attacker,
    wh40k_defender,
)
from grimdice.errors import ScenarioError
from grimdice.io.rosters.tree import Roster, Unit, norm, read_roster

REF_KEYS = {"roster", "unit", "weapons", "leaders"}
#: the scenario keys of each system's two sides
SIDES = {
    "wh40k": ("attacker", "defender"),
    "heresy": ("attacker", "defender"),
    "killteam": ("attacker", "target"),
    "onepage": ("attacker", "defender"),
}


NOT_MODELLED = "not modelled (from the roster): "


def detect_system(roster: Roster, where: str = "system") -> str:
    """The grimdice system of a roster, from its edition (:mod:`.editions`; an edition grimdice
    has no rules for was refused when the roster was read)."""
    if roster.edition is not None:
        return roster.edition.system
    raise ScenarioError(
        where, f"cannot tell the system of roster {roster.source} (game {roster.game!r}); give system: ..."
    )


def read_list(path: str | Path, where: str = "roster") -> Roster:
    """Read any roster file :func:`grimdice.io.rosters.read_roster` reads, an Army Forge list
    against the One Page rules (:class:`.onepage_sides.OnePageBook`)."""
    return read_roster(path, where, ONEPAGE_BOOK)


@lru_cache(maxsize=16)
def _cached(path: str, mtime: float, size: int) -> Roster:
    return read_list(path)


def load(path: str | Path, where: str) -> Roster:
    """Read a roster (cached by path, modification time and size)."""
    p = Path(path)
    if not p.is_file():
        raise ScenarioError(where, f"no such roster file: {p}")
    st = p.stat()
    try:
        return _cached(str(p.resolve()), st.st_mtime, st.st_size)
    except ScenarioError as exc:
        raise ScenarioError(where, exc.message) from None


def split_ref(ref: str, where: str) -> tuple[str, str]:
    """``army.rosz:Intercessor Squad`` -> (path, unit)."""
    m = re.fullmatch(r"(.+?\.(?:rosz|ros|json)):(.+)", ref.strip(), flags=re.IGNORECASE)
    if not m:
        raise ScenarioError(where, f"write ROSTER:UNIT, e.g. army.rosz:Intercessor Squad (got {ref!r})")
    return m.group(1), m.group(2).strip()


@dataclass
class Picked:
    unit: Unit
    leaders: list[Unit]
    #: the leaders are the ones the roster records as attached (none were named)
    recorded: bool = False


def pick(roster: Roster, name: object, leaders: object, where: str, recorded: bool = False) -> Picked:
    """The named unit and its leaders: those named (``Unit+Leader``, ``leaders``), else, with
    ``recorded``, those the roster records as leading it (``leaders: []`` attaches none)."""
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(f"{where}.unit", "the name of a unit in the roster")
    names: list[str]
    if "+" in name and not any(norm(u.ref) == norm(name) or norm(u.name) == norm(name) for u in roster.units):
        head, *names = [x.strip() for x in name.split("+")]
    else:
        head, names = name, []
    if leaders is not None:
        if not isinstance(leaders, list) or not all(isinstance(x, str) for x in leaders):
            raise ScenarioError(f"{where}.leaders", "a list of unit names in the roster")
        names += leaders
    unit = roster.find(head, f"{where}.unit")
    if recorded and leaders is None and not names and unit.led_by:
        return Picked(unit, list(unit.led_by), recorded=True)
    return Picked(unit, [roster.find(n, f"{where}.leaders") for n in names])


def can_lead_notes(roster: Roster, unit: Unit, key: str) -> list[str]:
    """Units of the roster whose Leader ability names ``unit``'s datasheet, none attached."""
    names = {norm(unit.name), norm(unit.datasheet or unit.name)}
    leads = [x.ref for x in roster.units if x is not unit and any(norm(n) in names for n in x.can_lead)]
    return [
        f"{key}: {ref} can lead {unit.name} (not attached: the roster records no attachment; "
        f"write '{unit.ref}+{ref}' to attach it)"
        for ref in leads
    ]


def build_side(system: str, role: str, picked: Picked, weapons: object, where: str) -> Side:
    """The scenario input of one side: ``role`` is ``attacker`` or ``defender``/``target``."""
    u = picked.unit
    if system == "onepage":
        return onepage_side(u, role, picked.leaders, weapons, where)
    if system == "killteam":
        if picked.leaders:
            raise ScenarioError(f"{where}.leaders", "Kill Team operatives have no leaders")
        side = kt_operative(u, weapons, where)
        if role != "attacker":
            side.data.pop("_weapon", None)
        return side
    if role == "attacker":
        if picked.leaders:
            merged = Unit(u.name, u.force, [*u.models], [*u.abilities], [*u.keywords], u.points, u.ref)
            for ld in picked.leaders:
                merged.models += ld.models
                merged.abilities += ld.abilities
            merged.name = " + ".join([u.name, *(x.name for x in picked.leaders)])
            u = merged
        return (wh40k_attacker if system == "wh40k" else heresy_attacker)(u, weapons, where)
    if system == "wh40k":
        return wh40k_defender(u, picked.leaders, where)
    if picked.leaders:
        raise ScenarioError(f"{where}.leaders", "heresy: list a character's models in the unit instead")
    return heresy_defender(u, where)


def resolve_scenario(data: Mapping[str, Any], base_dir: str | Path = ".") -> dict[str, Any]:
    """``data`` with each roster reference replaced by that unit's scenario input (see module)."""
    return resolve_with_notes(data, base_dir)[0]


def resolve_with_notes(
    data: Mapping[str, Any], base_dir: str | Path = "."
) -> tuple[dict[str, Any], list[str]]:
    """:func:`resolve_scenario`, also returning what the rosters hold that was not modelled."""
    out, notes, _, _ = _resolve(data, base_dir)
    return out, notes


def resolve_for_result(
    data: Mapping[str, Any], base_dir: str | Path = "."
) -> tuple[dict[str, Any], list[str]]:
    """:func:`resolve_scenario` and the notes a result from it carries: the edition each roster
    is read as, then each thing not modelled (``not modelled (from the roster): ...``)."""
    out, notes, rosters, info = _resolve(data, base_dir)
    system = out.get("system")
    eds = [
        f"roster {r.source}: {r.edition.label}; computed with the {system} rules"
        for r in {id(r): r for r in rosters}.values()
        if r.edition is not None
    ]
    return out, eds + info + [NOT_MODELLED + n for n in dict.fromkeys(notes)]


def _resolve(
    data: Mapping[str, Any], base_dir: str | Path
) -> tuple[dict[str, Any], list[str], list[Roster], list[str]]:
    """(scenario, what is not modelled, the rosters read, what the reader did that the user did not
    ask for: leaders attached as the roster records)."""
    out = dict(data)
    refs = {k: v for k, v in out.items() if isinstance(v, Mapping) and "roster" in v}
    if not refs:
        return out, [], [], []
    rosters: dict[str, Roster] = {}
    for key, ref in refs.items():
        path = ref.get("roster")
        if not isinstance(path, str) or not path.strip():
            raise ScenarioError(f"{key}.roster", "the path of a .ros, .rosz or .json roster file")
        p = Path(path) if Path(path).is_absolute() else Path(base_dir) / path
        rosters[key] = load(p, f"{key}.roster")
    system = out.get("system")
    if system is None:
        system = detect_system(next(iter(rosters.values())))
        out["system"] = system
    if system not in SIDES:
        from grimdice.systems.base import get_system

        get_system(system)  # the clear "unknown system" error
        raise ScenarioError("system", f"rosters cannot be read for {system} yet")
    notes: list[str] = []
    info: list[str] = []
    for key, ref in refs.items():
        if key not in ("attacker", "defender", "target"):
            raise ScenarioError(key, "roster references are allowed for attacker and defender (target)")
        notes += _resolve_side(out, system, key, ref, rosters[key], info)
    if not out.get("title") and "attacker" in refs and len(refs) == 2:
        out["title"] = f"{out['attacker'].get('name')} vs {out[SIDES[system][1]].get('name')}"
    return out, notes, list(rosters.values()), info


def _leader_notes(system: str, key: str, roster: Roster, picked: Picked) -> list[str]:
    """What the reader did about Leaders (40k): attached as the roster records, who could lead an
    unled unit, and a Leader picked on its own although the roster attaches it."""
    if system != "wh40k":
        return []
    if picked.recorded:
        names = ", ".join(u.name for u in picked.leaders)
        info = [
            f"{key}: {names} attached to {picked.unit.name}, as the roster records (leaders: [] for none)"
        ]
    else:
        info = [] if picked.leaders else can_lead_notes(roster, picked.unit, key)
    hosts = [u.ref for u in roster.units if any(x is picked.unit for x in u.led_by)]
    if hosts:
        info.append(f"{key}: {picked.unit.name} leads {', '.join(hosts)} in the roster; computed on its own")
    return info


def _resolve_side(
    out: dict[str, Any], system: str, key: str, ref: Mapping[str, Any], roster: Roster, info: list[str]
) -> list[str]:
    """Put the side a roster reference names into ``out`` (in place, with the fields the side
    brings: One Page's hero and attack, Kill Team's weapon); ``info`` gains the Leader notes; the
    side's not-modelled items are returned."""
    role = "attacker" if key == "attacker" else "defender"
    target_key = SIDES[system][1] if key in ("defender", "target") else key
    weapons = ref.get("weapons")
    if role == "attacker" and weapons is None:
        fight = system == "killteam" and out.get("action") == "fight"
        if fight or (system == "onepage" and out.get("attack") == "melee"):
            weapons = "melee"
    picked = pick(roster, ref.get("unit"), ref.get("leaders"), key, recorded=system == "wh40k")
    info += _leader_notes(system, key, roster, picked)
    side = build_side(system, role, picked, weapons, key)
    kt_weapon = side.data.pop("_weapon", None)
    op_hero = side.data.pop("_hero", None)
    op_attack = side.data.pop("_attack", None)
    merged = {**side.data, **{k: v for k, v in ref.items() if k not in REF_KEYS}}
    if key != target_key:
        out.pop(key)
    out[target_key] = merged
    if op_hero is not None:
        out.setdefault(f"{target_key}_hero", op_hero)
    if op_attack is not None:
        out.setdefault("attack", op_attack)
    if kt_weapon is not None and role == "attacker":
        if out.get("action") == "fight":
            out.setdefault("weapon", kt_weapon)
        else:
            out.setdefault("shots", [{"weapon": kt_weapon}])
    return side.not_modelled


def cli_scenario(
    attacker: str, defender: str, weapons: str | None, system: str | None
) -> tuple[dict[str, Any], list[str]]:
    """The scenario of ``grimdice calc --attacker ROSTER:UNIT --defender ROSTER:UNIT`` and the
    notes of its result (:func:`resolve_for_result`)."""
    a_path, a_unit = split_ref(attacker, "--attacker")
    d_path, d_unit = split_ref(defender, "--defender")
    data: dict[str, Any] = {
        "attacker": {"roster": a_path, "unit": a_unit},
        "defender": {"roster": d_path, "unit": d_unit},
    }
    if weapons:
        data["attacker"]["weapons"] = weapons
    if system:
        data["system"] = system
    return resolve_for_result(data, Path.cwd())
