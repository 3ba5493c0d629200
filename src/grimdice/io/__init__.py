"""Input formats: scenario files and validation shared by every system."""

from grimdice.io.scenario import load_scenario, validate

__all__ = ["load_scenario", "validate"]
