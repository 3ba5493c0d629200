"""Reading scenario files (YAML or JSON) and validating them with pydantic.

Validation errors become :class:`~grimdice.errors.ScenarioError` naming the dotted path of the
offending field (``attacker.models.0.weapons.1.AP``) and what is allowed there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from grimdice.errors import ScenarioError

M = TypeVar("M", bound=BaseModel)


def load_scenario(path: str | Path) -> dict[str, Any]:
    """Load a scenario mapping from a ``.yaml``/``.yml`` or ``.json`` file."""
    p = Path(path)
    if not p.is_file():
        raise ScenarioError("scenario", f"no such file: {p}")
    text = p.read_text(encoding="utf-8")
    try:
        data = json.loads(text) if p.suffix.lower() == ".json" else yaml.safe_load(text)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        raise ScenarioError("scenario", f"{p} is not valid YAML/JSON: {exc}") from None
    if not isinstance(data, Mapping):
        raise ScenarioError("scenario", f"{p} must hold a mapping with a 'system' field")
    return dict(data)


def _loc(loc: tuple[Any, ...]) -> str:
    return ".".join(str(x) for x in loc if not (isinstance(x, str) and x.startswith("function-")))


def validate(model: type[M], data: Any, where: str = "") -> M:
    """Validate ``data`` as ``model``; raise :class:`ScenarioError` naming the first bad field."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        path = _loc(tuple(err.get("loc", ())))
        field = ".".join(x for x in (where, path) if x)
        msg = str(err.get("msg", "invalid value"))
        msg = msg.removeprefix("Value error, ")
        if err.get("type") == "extra_forbidden":
            allowed = ", ".join(sorted(model_fields_at(model, tuple(err.get("loc", ()))[:-1])))
            msg = f"unknown field; allowed here: {allowed}"
        elif "input" in err and err.get("type") not in ("missing",):
            msg = f"{msg} (got {err['input']!r})"
        raise ScenarioError(field, msg) from None


def model_fields_at(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """Field names (aliases where set) of the sub-model found by walking ``loc`` from ``model``."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        fields = getattr(current, "model_fields", {})
        f = next((v for k, v in fields.items() if k == part or v.alias == part), None)
        if f is None:
            return []
        current = _inner_model(f.annotation)
    fields = getattr(current, "model_fields", {})
    return [v.alias or k for k, v in fields.items()]


def _inner_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _inner_model(arg)
        if found is not None:
            return found
    return None
