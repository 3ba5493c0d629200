"""Roster units as scenario input: ``resolve_scenario(data, base_dir)`` turns roster references in
a scenario into each system's own scenario input (:mod:`.resolve`, the per-system readings in
:mod:`.sides`); :mod:`.matrix` runs every unit against every unit. The files are read by
:mod:`grimdice.io.rosters` (:func:`read_list`: with the One Page rules an Army Forge list needs).
See ``docs/rosters.md``.
"""

from grimdice.adapters.rosters.resolve import (
    cli_scenario,
    detect_system,
    read_list,
    resolve_scenario,
    resolve_with_notes,
)

__all__ = ["cli_scenario", "detect_system", "read_list", "resolve_scenario", "resolve_with_notes"]
