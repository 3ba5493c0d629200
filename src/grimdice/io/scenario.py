"""Reading scenario files (YAML or JSON) and validating them with pydantic.

Validation errors become :class:`~grimdice.errors.ScenarioError` naming the dotted path of the
offending field (``attacker.models.0.weapons.1.AP``) and what is allowed there.

Limits are checked before any work that grows with the input: a file holds at most
:data:`MAX_FILE_BYTES` of UTF-8 text; once loaded (and for every mapping the Python API is given)
:func:`check_shape` walks the data with a budget: at most :data:`MAX_NODES` values counting each
use of a YAML alias (so an "alias bomb" is refused instead of expanded), nesting at most
:data:`MAX_DEPTH` deep, texts of at most :data:`MAX_TEXT` characters, whole numbers within
``±MAX_NUMBER``, finite numbers, text keys.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from grimdice.errors import ScenarioError, shown

M = TypeVar("M", bound=BaseModel)

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 20_000  # values in a scenario, each alias use counted again
MAX_DEPTH = 20  # nesting of mappings and lists
MAX_TEXT = 1_000  # characters of one text (a title, a name, a rule)
MAX_TOTAL_TEXT = 200_000  # characters of all texts together
MAX_NUMBER = 10**9  # magnitude of any number (every real characteristic is far smaller)


def load_scenario(path: str | Path) -> dict[str, Any]:
    """Load a scenario mapping from a ``.yaml``/``.yml`` or ``.json`` file (UTF-8 text)."""
    p = Path(path)
    if p.is_dir():
        raise ScenarioError("scenario", f"{shown(str(p))} is a directory, not a scenario file")
    if not p.exists():
        raise ScenarioError("scenario", f"no such file: {shown(str(p))}")
    if not p.is_file():
        raise ScenarioError("scenario", f"{shown(str(p))} is not a regular file")
    try:
        with p.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ScenarioError("scenario", f"cannot read {shown(str(p))}: {exc.strerror}") from None
    return parse_scenario_text(raw, json_=p.suffix.lower() == ".json", name=str(p))


def parse_scenario_text(raw: bytes, *, json_: bool = False, name: str = "scenario") -> dict[str, Any]:
    """Decode and parse the bytes of a scenario file, refusing what is not a small UTF-8 YAML/JSON
    mapping with a one-line error."""
    where = shown(name)
    if len(raw) > MAX_FILE_BYTES:
        raise ScenarioError("scenario", f"{where} is larger than {MAX_FILE_BYTES // 1000} kB")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ScenarioError("scenario", f"{where} is UTF-16 text; save it as UTF-8")
    if b"\x00" in raw:
        raise ScenarioError("scenario", f"{where} is a binary file, not YAML or JSON text")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScenarioError(
            "scenario", f"{where} is not UTF-8 text (byte {raw[exc.start]:#04x} at offset {exc.start})"
        ) from None
    try:
        data = json.loads(text) if json_ else yaml.safe_load(text)
    except RecursionError:
        raise ScenarioError("scenario", f"{where} is nested more than {MAX_DEPTH} levels deep") from None
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ScenarioError("scenario", f"{where} is not valid YAML/JSON: {first}") from None
    except (ValueError, OverflowError) as exc:  # e.g. an integer literal of more than 4300 digits
        raise ScenarioError("scenario", f"{where} holds a value that cannot be read: {exc}") from None
    if not isinstance(data, Mapping):
        raise ScenarioError("scenario", f"{where} must hold a mapping with a 'system' field")
    check_shape(data)
    return dict(data)


def check_shape(data: Any) -> None:
    """Refuse data too large or too deep to be a scenario before any work grows with it (see the
    module docstring); the error names the field at fault."""
    budget = [MAX_NODES, MAX_TOTAL_TEXT]
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        budget[0] -= 1
        if budget[0] < 0:
            raise ScenarioError(
                "scenario", f"more than {MAX_NODES} values (counting each use of a YAML alias)"
            )
        if len(path) > MAX_DEPTH:
            raise ScenarioError(_dotted(path[:MAX_DEPTH]), f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, Mapping):
            for k, v in value.items():
                if not isinstance(k, str):
                    raise ScenarioError(_dotted(path), f"keys must be text, got {shown(k)}")
                stack.append((k, (*path, k)))
                stack.append((v, (*path, k)))
        elif isinstance(value, (list, tuple)):
            stack.extend((v, (*path, i)) for i, v in enumerate(value))
        elif isinstance(value, str):
            if len(value) > MAX_TEXT:
                raise ScenarioError(
                    _dotted(path), f"text of {len(value)} characters; at most {MAX_TEXT}: {shown(value)}"
                )
            budget[1] -= len(value)
            if budget[1] < 0:
                raise ScenarioError("scenario", f"more than {MAX_TOTAL_TEXT} characters of text in all")
        elif isinstance(value, bool) or value is None:
            pass
        elif isinstance(value, (int, float)) and not _small(value):
            raise ScenarioError(_dotted(path), f"{shown(value)} is not a number within ±{MAX_NUMBER}")


def _small(x: float) -> bool:
    return abs(x) <= MAX_NUMBER if isinstance(x, int) else math.isfinite(x) and abs(x) <= MAX_NUMBER


def _dotted(path: tuple[Any, ...]) -> str:
    return ".".join(str(x) for x in path) or "scenario"


def _loc(loc: tuple[Any, ...]) -> str:
    return ".".join(str(x) for x in loc if not (isinstance(x, str) and x.startswith("function-")))


def validate(model: type[M], data: Any, where: str = "") -> M:
    """Validate ``data`` as ``model``; raise :class:`ScenarioError` naming the first bad field."""
    if isinstance(data, (Mapping, list, tuple)):
        try:
            check_shape(data)
        except ScenarioError as exc:
            field = ".".join(x for x in (where, exc.field if exc.field != "scenario" else "") if x)
            raise ScenarioError(field or "scenario", exc.message) from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        path = _loc(tuple(err.get("loc", ())))
        field = ".".join(x for x in (where, path) if x)
        msg = str(err.get("msg", "invalid value"))
        msg = msg.removeprefix("Value error, ")
        if err.get("type") == "extra_forbidden":
            allowed = ", ".join(sorted(model_fields_at(model, tuple(err.get("loc", ()))[:-1])))
            msg = f"unknown field; allowed here: {allowed}"
        elif "input" in err and err.get("type") not in ("missing",):
            msg = f"{msg} (got {shown(err['input'])})"
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
