"""The bundled example scenarios (``examples/*.yaml``) the page loads with one click."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from grimdice.systems.base import SYSTEMS


def default_dir() -> Path | None:
    """``examples/`` of a source checkout (next to ``src/``), else of the working directory."""
    here = Path(__file__).resolve().parents[3] / "examples"
    for candidate in (here, Path.cwd() / "examples"):
        if candidate.is_dir():
            return candidate
    return None


def yaml_mappings(folder: Path | None) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each ``*.yaml``/``*.yml`` file of ``folder`` (by name) that reads as a YAML mapping, with its
    data; files that cannot be read or are not a mapping are skipped."""
    if folder is None or not folder.is_dir():
        return
    for path in sorted(folder.glob("*.y*ml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(data, dict):
            yield path, data


def load_examples(folder: Path | None) -> list[dict[str, Any]]:
    """Every ``*.yaml`` scenario in ``folder`` that names a known system, sorted by system and file.

    Files without a ``system:`` field (or that are not a YAML mapping) are skipped.
    """
    found = []
    for path, data in yaml_mappings(folder):
        if data.get("system") not in SYSTEMS:
            continue
        found.append(
            {
                "system": data["system"],
                "name": path.stem,
                "title": str(data.get("title") or path.stem),
                "scenario": data,
            }
        )
    return sorted(found, key=lambda e: (e["system"], e["name"]))
