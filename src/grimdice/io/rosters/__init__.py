"""Army rosters: BattleScribe ``.ros``/``.rosz``, New Recruit / ListForge ``.json`` exports and One
Page Rules Army Forge ``.json`` lists (:mod:`.armyforge`, mapped onto ``system: onepage``).

``read_roster(path)`` reads what the file holds (:mod:`.tree`, hardened by :mod:`.safe`). Turning
roster units into each system's scenario input, and the unit-against-unit matrix, are above the
systems, in :mod:`grimdice.adapters.rosters`. See ``docs/rosters.md``.
"""

from grimdice.io.rosters.tree import Roster, Unit, read_roster

__all__ = [
    "Roster",
    "Unit",
    "read_roster",
]
