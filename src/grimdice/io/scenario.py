"""Reading scenario files (YAML or JSON) and validating them with pydantic.

Validation errors become :class:`~grimdice.errors.ScenarioError` naming the dotted path of the
offending field (``attacker.models.0.weapons.1.AP``) and what is allowed there.

Limits are checked before any work that grows with the input: a file holds at most
:data:`MAX_FILE_BYTES` of UTF-8 text; once loaded (and for every mapping the Python API is given)
:func:`check_shape` walks the data with a budget: at most :data:`MAX_NODES` values counting each
use of a YAML alias (so an "alias bomb" is refused instead of expanded), nesting at most
:data:`MAX_DEPTH` deep, texts of at most :data:`MAX_TEXT` characters (the fields of
:data:`LONG_TEXTS` more), whole numbers within
``±MAX_NUMBER``, finite numbers, text keys.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import yaml
from pydantic import BaseModel, ValidationError

from grimdice.errors import ScenarioError, shown

M = TypeVar("M", bound=BaseModel)

#: libyaml's safe loader where installed (PyYAML's pure-Python scanner takes seconds on 1 MB)
_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 100_000  # values in a scenario, each alias use counted again
MAX_DEPTH = 20  # nesting of mappings and lists
MAX_TEXT = 1_000  # characters of one text (a title, a name, a rule)
#: the texts that may be longer, by the last two keys of their field: a grid game's map (64 rows of
#: 64 squares, :data:`grimdice.engine.grid.MAX_SIDE`, each row ending in at most two characters)
LONG_TEXTS: dict[tuple[str, str], int] = {("board", "map"): 64 * 66}
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
    if _bracket_depth(text) > MAX_DEPTH * 5:  # before parsing: PyYAML slows quadratically with it
        raise ScenarioError("scenario", f"{where} is nested more than {MAX_DEPTH} levels deep")
    try:
        data = json.loads(text) if json_ else yaml.load(text, Loader=_YAML_LOADER)
    except RecursionError:
        raise ScenarioError("scenario", f"{where} is nested more than {MAX_DEPTH} levels deep") from None
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ScenarioError("scenario", f"{where} is not valid YAML/JSON: {first}") from None
    except (ValueError, OverflowError) as exc:  # e.g. an integer literal of more than 4300 digits
        raise ScenarioError("scenario", f"{where} holds a value that cannot be read: {exc}") from None
    if not isinstance(data, Mapping):
        kind = "nothing" if data is None else f"a {type(data).__name__}"
        raise ScenarioError("scenario", f"{where} must hold a mapping of named fields, not {kind}")
    check_shape(data)
    return dict(data)


def _bracket_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text`` (quotes ignored: an upper bound)."""
    b = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    step = np.isin(b, (ord("["), ord("{"))).astype(np.int64) - np.isin(b, (ord("]"), ord("}")))
    if not step.any():
        return 0
    level = np.cumsum(step)
    floor = np.minimum.accumulate(np.minimum(level, 0))  # a stray closing bracket does not go below 0
    return int((level - floor).max())


def check_shape(data: Any, root: tuple[str, ...] = ()) -> None:
    """Refuse data too large or too deep to be a scenario before any work grows with it (see the
    module docstring); the error names the field at fault. ``root``: the fields ``data`` lies in
    (for :data:`LONG_TEXTS`)."""
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
                if not isinstance(k, str) or len(k) > MAX_TEXT:
                    raise ScenarioError(_dotted(path), f"keys must be text of at most {MAX_TEXT} characters")
                stack.append((v, (*path, k)))
        elif isinstance(value, (list, tuple)):
            stack.extend((v, (*path, i)) for i, v in enumerate(value))
        elif isinstance(value, str):
            most = LONG_TEXTS.get((*root, *path)[-2:], MAX_TEXT) if len(value) > MAX_TEXT else MAX_TEXT
            if len(value) > most:
                raise ScenarioError(
                    _dotted(path), f"text of {len(value)} characters; at most {most}: {shown(value)}"
                )
            budget[1] -= len(value)
            if budget[1] < 0:
                raise ScenarioError(
                    "scenario",
                    f"more than {MAX_TOTAL_TEXT} characters of text (counting each use of a YAML alias)",
                )
        elif isinstance(value, bool) or value is None:
            pass
        elif isinstance(value, (int, float)) and not _small(value):
            raise ScenarioError(_dotted(path), f"{shown(value)} is not a number within ±{MAX_NUMBER}")


def _small(x: float) -> bool:
    return abs(x) <= MAX_NUMBER if isinstance(x, int) else math.isfinite(x) and abs(x) <= MAX_NUMBER


def _dotted(path: tuple[Any, ...]) -> str:
    return ".".join(str(x) for x in path) or "scenario"


_TAG = re.compile(r"^[a-z][a-z0-9_-]*(\[.*\])?$|^function-")


def _loc(model: Any, loc: tuple[Any, ...]) -> str:
    """The dotted field path of a pydantic error location, without pydantic's own tags for union
    members and validators (``A.int``, ``FNP.constrained-int``, ``D.0`` of a tuple are ``A``,
    ``FNP``, ``D``): walking the models, a part that is neither a field, an index nor a key the
    user wrote is dropped."""
    out: list[str] = []
    current: Any = model
    leaf = False  # inside a field that is not a model (a union, a tuple, a dict of values)
    for part in loc:
        if isinstance(part, int):
            out.append(str(part))
            continue
        fields = getattr(current, "model_fields", None) if not leaf else None
        if fields is not None:
            f = next((v for k, v in fields.items() if k == part or v.alias == part), None)
            if f is not None:
                out.append(part)
                current = _inner_model(f.annotation)
                leaf = current is None
                continue
        if not _TAG.match(part) or (fields is not None and not leaf and not part.startswith("function-")):
            out.append(part)
    return ".".join(out)


def validate(model: type[M], data: Any, where: str = "") -> M:
    """Validate ``data`` as ``model``; raise :class:`ScenarioError` naming the first bad field."""
    if isinstance(data, (Mapping, list, tuple)):
        try:
            check_shape(data, tuple(where.split(".")) if where else ())
        except ScenarioError as exc:
            field = ".".join(x for x in (where, exc.field if exc.field != "scenario" else "") if x)
            raise ScenarioError(field or "scenario", exc.message) from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        path = _loc(model, tuple(errors[0].get("loc", ())))
        # of a union's errors at one field, say what the value's own kind got wrong (a list too
        # short, not "should be an integer")
        same = [e for e in errors if _loc(model, tuple(e.get("loc", ()))) == path]
        err = next((e for e in same if not str(e.get("type", "")).endswith("_type")), errors[0])
        field = ".".join(x for x in (where, path) if x) or "scenario"  # a check of the whole scenario
        msg = str(err.get("msg", "invalid value"))
        msg = msg.removeprefix("Value error, ")
        if err.get("type") == "extra_forbidden":
            allowed = ", ".join(sorted(model_fields_at(model, tuple(err.get("loc", ()))[:-1])))
            msg = f"unknown field; allowed here: {allowed}"
        elif (
            "input" in err
            and err.get("type") not in ("missing",)
            and not _whole_entry(err)
            and "(got " not in msg
        ):
            msg = f"{msg} (got {shown(err['input'])})"
        raise ScenarioError(field, msg) from None


def _whole_entry(err: Any) -> bool:
    """An error about a whole entry or list (a validator of the model or list): the field path says which;
    quoting the mapping back would only add noise."""
    return isinstance(err.get("input"), (Mapping, list)) and err.get("type") == "value_error"


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
