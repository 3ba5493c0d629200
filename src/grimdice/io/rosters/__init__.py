"""Army rosters: BattleScribe ``.ros``/``.rosz``, New Recruit / ListForge ``.json`` exports and One
Page Rules Army Forge ``.json`` lists (:mod:`.armyforge`, mapped onto ``system: onepage``).

``read_roster(path)`` reads what the file holds (:mod:`.tree`, hardened by :mod:`.safe`);
``resolve_scenario(data, base_dir)`` turns roster references in a scenario into each system's own
scenario input (:mod:`.resolve`, :mod:`.systems`); :mod:`.matrix` runs every unit against every
unit. See ``docs/rosters.md``.
"""

from grimdice.io.rosters.resolve import cli_scenario, detect_system, resolve_scenario, resolve_with_notes
from grimdice.io.rosters.tree import Roster, Unit, read_roster

__all__ = [
    "Roster",
    "Unit",
    "cli_scenario",
    "detect_system",
    "read_roster",
    "resolve_scenario",
    "resolve_with_notes",
]
