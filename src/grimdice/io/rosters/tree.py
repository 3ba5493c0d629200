"""The army in a roster file, as written there: units, models, weapons, abilities and metadata.

The data model every reader fills: :mod:`.battlescribe` (BattleScribe ``.ros``/``.rosz`` and New
Recruit / ListForge ``.json``, game-agnostic and still in the file's own words: characteristics
are text) and :mod:`.armyforge` (One Page Rules lists). :mod:`grimdice.adapters.rosters.sides` turns
a unit into each system's own scenario input; no unit model of the engines is duplicated here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grimdice.errors import ScenarioError
from grimdice.io.rosters.safe import load_json, parse_json, parse_xml, read_bytes

if TYPE_CHECKING:
    from grimdice.io.rosters.armyforge import RuleBook
    from grimdice.io.rosters.editions import Edition

MODE_MARK = "➤"
MAX_NAME = 100  # characters of a name kept (longer ones are cut, ending in "...")
_MODEL_TYPES = {"unit", "model", "operative", "unit profile", "models"}
_VEHICLE_TYPES = {"vehicle", "knights and titans", "fortification", "flyer"}
#: characteristic names of an invulnerable save written on the model's profile
INV_CHARS = ("insv", "inv", "invuln", "inv sv", "invulnerable save", "invulnerable", "isv")


def norm(text: str) -> str:
    """Whitespace folded to single spaces and lower case: how type and characteristic names compare."""
    return re.sub(r"\s+", " ", text).strip().lower()


def clean_name(text: str) -> str:
    """A display name: the mode mark and Kill Team's ranged/melee marks dropped, whitespace folded,
    at most :data:`MAX_NAME` characters (a longer one is cut and ends in ``...``)."""
    text = text[: 4 * MAX_NAME]
    for mark in (MODE_MARK, "⌖", "⚔"):
        text = text.replace(mark, " ")
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - 3].rstrip() + "..."


@dataclass(frozen=True)
class Profile:
    """One profile: its name, normalised type name and characteristics (normalised name -> text)."""

    name: str
    type: str
    chars: dict[str, str]

    def char(self, *names: str) -> str | None:
        for n in names:
            if (v := self.chars.get(norm(n))) is not None:
                return v
        return None

    @property
    def is_model(self) -> bool:
        c = self.chars
        return self.type in _MODEL_TYPES or ("w" in c and ("t" in c or "df" in c)) or self.is_vehicle

    @property
    def is_vehicle(self) -> bool:
        """A Horus Heresy vehicle profile (armour facings and hull points, no Toughness)."""
        c = self.chars
        return self.type in _VEHICLE_TYPES or ("hp" in c and "front" in c and "t" not in c)

    @property
    def is_weapon(self) -> bool:
        c = self.chars
        if "weapon" in self.type:
            return True
        skill = any(k in c for k in ("bs", "ws", "bs/ws", "ws/bs"))
        return "range" in c or ("a" in c and "d" in c and skill) or ("strength" in c and "ap" in c)

    @property
    def is_melee(self) -> bool:
        c = self.chars
        rng = norm(c.get("range", ""))
        kind = norm(c.get("type", ""))
        return (
            "melee" in self.type
            or rng == "melee"
            or kind.startswith("melee")
            or self.name.lstrip().startswith("⚔")
            or ("ws" in c and "bs" not in c)
        )

    @property
    def text(self) -> str:
        """The description of an ability profile (its characteristics' text, joined)."""
        return " ".join(v for v in self.chars.values() if v)


@dataclass(frozen=True)
class Weapon:
    """A weapon selection: ``count`` carried in total by its model group, with one or more modes,
    and the names of the rules the roster attaches to it (``Heavy``, ``Lethal x+``...)."""

    name: str
    count: int
    modes: tuple[Profile, ...]
    rules: tuple[str, ...] = ()

    def mode_name(self, p: Profile) -> str:
        return clean_name(p.name) or self.name


@dataclass(frozen=True)
class Ability:
    name: str
    text: str = ""


@dataclass
class Model:
    """A group of ``count`` identical models: profile, weapons each carries, own abilities."""

    name: str
    count: int
    profile: Profile | None
    weapons: list[tuple[Weapon, int]]  # (weapon, how many each model carries)
    abilities: list[Ability] = field(default_factory=list)


@dataclass
class Unit:
    name: str
    force: str
    models: list[Model]
    abilities: list[Ability]
    keywords: list[str]
    points: float = 0.0
    ref: str = ""  # the name to refer to it by (``Name`` or ``Name#2`` when names repeat)
    #: the system's own unit input when the format gives the stats directly (Army Forge -> onepage)
    spec: dict[str, Any] | None = None
    #: Heroes the list joins to this unit (Army Forge ``joinToUnit``), each with its own ``spec``
    joined: list[Unit] = field(default_factory=list)
    #: what the format's reader could not map (fields and rules), kept by name
    unmapped: list[str] = field(default_factory=list)
    #: the datasheet's name when the list gives the unit a custom name (``customName``)
    datasheet: str = ""
    #: the primary category (40k battlefield role / Heresy force organisation slot)
    role: str = ""
    #: faction keywords (``Faction: ...`` categories)
    faction: list[str] = field(default_factory=list)
    #: other costs than points, by name (Kill Team ``EP``, ``CP``...)
    costs: dict[str, float] = field(default_factory=dict)
    #: Leaders the list attaches to this unit (New Recruit ``leading``), read as one unit with it
    led_by: list[Unit] = field(default_factory=list)
    #: the units this one can lead, from its Leader ability's text
    can_lead: list[str] = field(default_factory=list)

    @property
    def model_count(self) -> int:
        return sum(m.count for m in self.models)


@dataclass
class Roster:
    name: str
    game: str
    units: list[Unit]
    points: float = 0.0
    source: str = ""
    edition: Edition | None = None
    #: cost limits by name (``pts``: the points limit of the game)
    limits: dict[str, float] = field(default_factory=dict)

    def find(self, ref: str, where: str) -> Unit:
        """The unit named ``ref`` (case and whitespace ignored; ``Name#2`` for the second of a name)."""
        key = norm(ref)
        hits = [u for u in self.units if norm(u.ref) == key]
        if not hits:
            hits = [u for u in self.units if norm(u.name) == key]
        if not hits:
            hits = [u for u in self.units if u.datasheet and norm(u.datasheet) == key]
        if len(hits) == 1:
            return hits[0]
        if hits:
            refs = ", ".join(u.ref for u in hits)
            raise ScenarioError(where, f"{len(hits)} units are named {ref!r}; name one of: {refs}")
        host = next((u for u in self.units for h in u.joined if norm(h.name) == key), None)
        if host is not None:
            raise ScenarioError(where, f"{ref} is joined to {host.ref} in the list; name {host.ref!r}")
        shown = ", ".join(u.ref for u in self.units[:40]) or "none"
        raise ScenarioError(where, f"no unit {ref!r} in {self.source or self.name}; it has: {shown}")


# --------------------------------------------------------------------------- reading the tree
def read_roster(path: str | Path, where: str = "roster", book: RuleBook | None = None) -> Roster:
    """Read a BattleScribe ``.ros``/``.rosz``, New Recruit / ListForge ``.json`` or One Page Rules
    Army Forge ``.json`` list (told apart by content, :func:`.armyforge.is_army_forge`). An Army
    Forge list needs ``book``, the One Page rules it is read against
    (:class:`grimdice.adapters.rosters.onepage_sides.OnePageBook`): without one it is refused."""
    p = Path(path)
    data, kind = read_bytes(p, where)
    if kind == "json":
        from grimdice.io.rosters import armyforge

        obj = load_json(data, p.name, where)
        if armyforge.is_saved_list(obj):
            raise ScenarioError(where, f"{p.name}: {armyforge.SAVED_LIST}")
        if armyforge.is_army_forge(obj):
            if book is None:
                rules = "the One Page rules (grimdice.adapters.rosters.read_list)"
                raise ScenarioError(where, f"{p.name}: an Army Forge list is read with {rules}")
            roster = armyforge.from_json(obj, where, book)
            roster.source = p.name
            return roster
        root = parse_json(obj, p.name, where)
    else:
        root = parse_xml(data, p.name, where)
    if root.tag != "roster":
        raise ScenarioError(where, f"{p.name} is not a roster (its root is <{root.tag}>)")
    from grimdice.io.rosters.battlescribe import from_tree

    roster = from_tree(root, where)
    roster.source = p.name
    return roster


def number_refs(units: list[Unit]) -> None:
    """Each unit's ``ref``: its name, or ``Name#2``... when several units share the name."""
    seen: dict[str, int] = {}
    totals = {norm(u.name): 0 for u in units}
    for u in units:
        totals[norm(u.name)] += 1
    for u in units:
        seen[norm(u.name)] = seen.get(norm(u.name), 0) + 1
        u.ref = u.name if totals[norm(u.name)] == 1 else f"{u.name}#{seen[norm(u.name)]}"
