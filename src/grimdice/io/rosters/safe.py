"""Reading roster files without trusting them: size limits, one-member zips, hardened XML.

A roster file is read whole into memory before anything is parsed, so a bad file is refused with
one :class:`~grimdice.errors.ScenarioError` and nothing is half-read:

* plain files (``.ros`` XML, ``.json``) larger than :data:`MAX_BYTES` are refused before reading;
* a ``.rosz`` must be a zip holding exactly one ``.ros`` member; its declared uncompressed size
  and compression ratio are checked, then it is decompressed in bounded chunks and refused the
  moment it outgrows :data:`MAX_BYTES` (a zip bomb that lies about its size);
* XML is parsed by ``defusedxml`` with DTDs, entities and external references forbidden
  (billion-laughs and external-entity attacks);
* the tree may be at most :data:`MAX_DEPTH` levels deep with at most :data:`MAX_NODES` elements.

Both XML and JSON (New Recruit / ListForge exports: the same tree, text as ``$text``) become the
same :class:`Node` tree, so the rest of the reader sees one format. JSON is depth- and size-checked
once (:func:`load_json`) before either JSON reader (New Recruit, Army Forge) walks it.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grimdice.errors import ScenarioError

MAX_BYTES = 16 * 1024 * 1024  # a 2000-point roster is ~1-3 MB of XML
MAX_RATIO = 200  # uncompressed / compressed size of the zip member
MAX_DEPTH = 64
MAX_JSON_DEPTH = 2 * MAX_DEPTH  # JSON spends up to two levels (object, list) per tree element
MAX_NODES = 500_000
CHUNK = 64 * 1024

#: plural container keys of the roster tree and the element each holds
PLURALS = {
    "forces": "force",
    "selections": "selection",
    "profiles": "profile",
    "characteristics": "characteristic",
    "categories": "category",
    "rules": "rule",
    "costs": "cost",
    "costLimits": "costLimit",
    "publications": "publication",
    "infoLinks": "infoLink",
    "modifiers": "modifier",
    "attributes": "attribute",
}


@dataclass
class Node:
    """One element of the roster tree: tag, attributes, text and child elements."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    text: str = ""
    children: list[Node] = field(default_factory=list)

    def get(self, name: str, default: str = "") -> str:
        return self.attrs.get(name, default)

    def child(self, tag: str) -> Node | None:
        return next((c for c in self.children if c.tag == tag), None)

    def items(self, container: str) -> list[Node]:
        """The elements inside the container child ``container`` (``selections`` -> selection)."""
        box = self.child(container)
        return [] if box is None else [c for c in box.children if c.tag == PLURALS.get(container, c.tag)]


def read_bytes(path: Path, where: str) -> tuple[bytes, str]:
    """The roster document's bytes and its kind (``xml`` or ``json``), read within the limits."""
    if not path.is_file():
        raise ScenarioError(where, f"no such roster file: {path}")
    size = path.stat().st_size
    suffix = path.suffix.lower()
    if suffix == ".rosz" or (suffix not in (".ros", ".json") and zipfile.is_zipfile(path)):
        if size > MAX_BYTES:
            raise ScenarioError(where, f"{path.name} is {size} bytes; a roster is at most {MAX_BYTES}")
        return _unzip(path.read_bytes(), path.name, where), "xml"
    if suffix not in (".ros", ".json"):
        raise ScenarioError(where, f"{path.name}: a roster is a .ros, .rosz or .json file")
    if size > MAX_BYTES:
        raise ScenarioError(where, f"{path.name} is {size} bytes; a roster is at most {MAX_BYTES}")
    with path.open("rb") as fh:
        data = _bounded(fh, path.name, where)
    return data, "json" if suffix == ".json" else "xml"


def _bounded(fh: Any, name: str, where: str) -> bytes:
    """Read ``fh`` in chunks, refusing it as soon as it exceeds :data:`MAX_BYTES`."""
    buf = io.BytesIO()
    while chunk := fh.read(CHUNK):
        buf.write(chunk)
        if buf.tell() > MAX_BYTES:
            raise ScenarioError(where, f"{name} unpacks to more than {MAX_BYTES} bytes")
    return buf.getvalue()


def _unzip(blob: bytes, name: str, where: str) -> bytes:
    try:
        zf = zipfile.ZipFile(io.BytesIO(blob))
        infos = [i for i in zf.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise ScenarioError(where, f"{name} is not a readable .rosz (zip) file: {exc}") from None
    if len(infos) != 1:
        names = ", ".join(i.filename for i in infos[:5]) or "nothing"
        raise ScenarioError(where, f"{name} must hold exactly one .ros file; it holds {len(infos)}: {names}")
    info = infos[0]
    if not info.filename.lower().endswith(".ros"):
        raise ScenarioError(where, f"{name} holds {info.filename!r}, not a .ros roster")
    if info.file_size > MAX_BYTES:
        raise ScenarioError(where, f"{name} declares {info.file_size} bytes unpacked; at most {MAX_BYTES}")
    if info.file_size > CHUNK and info.file_size > MAX_RATIO * max(info.compress_size, 1):
        raise ScenarioError(where, f"{name} is compressed more than {MAX_RATIO}:1 (a zip bomb?)")
    try:
        with zf.open(info) as fh:
            data = _bounded(fh, name, where)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        raise ScenarioError(where, f"{name} is not a readable .rosz (zip) file: {exc}") from None
    if len(data) != info.file_size:
        raise ScenarioError(where, f"{name}: the member unpacks to {len(data)} bytes, not the declared size")
    return data


def parse_xml(data: bytes, name: str, where: str) -> Node:
    """The XML document as a :class:`Node` tree (namespaces dropped), parsed by defusedxml."""
    from xml.etree.ElementTree import Element, ParseError

    import defusedxml.ElementTree as DET
    from defusedxml import DefusedXmlException

    try:
        root = DET.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise ScenarioError(where, f"{name}: refused, the XML declares a DTD or entities ({exc})") from None
    except ParseError as exc:
        raise ScenarioError(where, f"{name} is not well-formed XML: {exc}") from None
    count = 0

    def conv(el: Element, depth: int) -> Node:
        nonlocal count
        count += 1
        if depth > MAX_DEPTH or count > MAX_NODES:
            raise ScenarioError(where, f"{name}: the roster tree is too deep or too large")
        tag = el.tag.rsplit("}", 1)[-1] if isinstance(el.tag, str) else ""
        return Node(tag, dict(el.attrib), (el.text or "").strip(), [conv(c, depth + 1) for c in el])

    return conv(root, 0)


def load_json(data: bytes, name: str, where: str) -> Any:
    """The JSON document, refused unless it is valid and at most :data:`MAX_JSON_DEPTH` levels deep with
    at most :data:`MAX_NODES` values (checked without recursion)."""
    try:
        obj = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ScenarioError(where, f"{name} is not valid JSON: {str(exc)[:80]}") from None
    count = 0
    stack: list[tuple[Any, int]] = [(obj, 0)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if depth > MAX_JSON_DEPTH or count > MAX_NODES:
            raise ScenarioError(where, f"{name}: the roster tree is too deep or too large")
        if isinstance(value, dict):
            stack += [(v, depth + 1) for v in value.values()]
        elif isinstance(value, list):
            stack += [(v, depth + 1) for v in value]
    return obj


def parse_json(data: bytes | Any, name: str, where: str) -> Node:
    """A New Recruit / ListForge JSON export (bytes, or the document :func:`load_json` read) as a
    :class:`Node` tree (``$text`` is the text)."""
    obj = load_json(data, name, where) if isinstance(data, bytes) else data
    if isinstance(obj, dict) and isinstance(obj.get("roster"), dict):
        obj = obj["roster"]
    if not isinstance(obj, dict) or "forces" not in obj:
        raise ScenarioError(
            where,
            f"{name} is not a roster export (no 'roster' with 'forces', nor Army Forge units with a quality)",
        )
    count = 0

    def conv(tag: str, value: dict, depth: int) -> Node:
        nonlocal count
        count += 1
        if depth > MAX_DEPTH or count > MAX_NODES:
            raise ScenarioError(where, f"{name}: the roster tree is too deep or too large")
        node = Node(tag)
        for k, v in value.items():
            if k in ("$text", "#text", "_"):
                node.text = str(v).strip()
            elif isinstance(v, (str, int, float, bool)):
                node.attrs[k] = str(v).lower() if isinstance(v, bool) else str(v)
            elif isinstance(v, (list, dict)):
                node.children.append(box(k, v, depth + 1))
        return node

    def box(key: str, v: list | dict, depth: int) -> Node:
        inner = PLURALS.get(key)
        if isinstance(v, dict) and inner is not None and set(v) == {inner}:
            v = v[inner]  # xml2js style: {"selections": {"selection": [...]}}
        if inner is None:
            if isinstance(v, dict):
                return conv(key, v, depth)
            # a list under another key (e.g. the ids a Leader is recorded as leading)
            return Node(
                key,
                children=[
                    conv(key, it, depth + 1) if isinstance(it, dict) else Node(key, text=str(it).strip())
                    for it in v
                    if isinstance(it, (dict, str, int, float))
                ],
            )
        items = v if isinstance(v, list) else [v]
        return Node(key, children=[conv(inner, it, depth + 1) for it in items if isinstance(it, dict)])

    return conv("roster", obj, 0)
