"""Hostile or broken roster files: one clear ScenarioError each, nothing half-read."""

import io
import zipfile
from pathlib import Path

import pytest

from grimdice.adapters.rosters import read_list
from grimdice.errors import ScenarioError
from grimdice.io.rosters import safe

FIX = Path(__file__).resolve().parent / "fixtures"
GOOD = (FIX / "orks.ros").read_bytes()


def write(tmp_path, name, data: bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


def zipped(members: dict[str, bytes], method=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for n, d in members.items():
            zf.writestr(n, d)
    return buf.getvalue()


def refused(path, match):
    with pytest.raises(ScenarioError, match=match) as exc:
        read_list(path)
    assert exc.value.field == "roster"
    assert "\n" not in str(exc.value)


def test_missing_and_wrong_kind(tmp_path):
    refused(tmp_path / "nope.ros", "no such roster file")
    refused(write(tmp_path, "a.txt", b"hello"), r"a \.ros, \.rosz or \.json file")


def test_malformed_and_truncated_xml(tmp_path):
    refused(write(tmp_path, "bad.ros", b"<roster><forces></roster>"), "not well-formed XML")
    refused(write(tmp_path, "cut.ros", GOOD[: len(GOOD) // 2]), "not well-formed XML")
    refused(write(tmp_path, "empty.ros", b""), "not well-formed XML")
    refused(write(tmp_path, "other.ros", b"<catalogue/>"), r"not a roster \(its root is <catalogue>\)")
    refused(write(tmp_path, "none.ros", b"<roster><forces/></roster>"), "holds no units")


def test_entity_expansion_and_external_entities_are_refused(tmp_path):
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
        b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]><roster name="&c;"><forces/></roster>'
    )
    refused(write(tmp_path, "laughs.ros", laughs), "refused, the XML declares a DTD or entities")
    xxe = b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><roster>&x;</roster>'
    refused(write(tmp_path, "xxe.ros", xxe), "refused")
    refused(write(tmp_path, "xxe.rosz", zipped({"a.ros": xxe})), "refused")


def test_deep_nesting_is_refused(tmp_path):
    deep = b"<roster>" + b"<selections>" * 200 + b"</selections>" * 200 + b"</roster>"
    refused(write(tmp_path, "deep.ros", deep), "too deep or too large")
    deep_json = b'{"forces": [' + b'{"forces": [' * 300 + b"]}" * 300 + b"]}"
    refused(write(tmp_path, "deep.json", deep_json), "too deep|not valid JSON")


def test_broken_json(tmp_path):
    refused(write(tmp_path, "a.json", b'{"roster": {"forces": ['), "not valid JSON")
    refused(write(tmp_path, "b.json", b'{"name": "x"}'), "not a roster export")
    refused(write(tmp_path, "c.json", b"\xff\xfe"), "not valid JSON")


def test_rosz_must_hold_exactly_one_ros(tmp_path):
    refused(
        write(tmp_path, "two.rosz", zipped({"a.ros": GOOD, "b.ros": GOOD})),
        "exactly one .ros file; it holds 2",
    )
    refused(write(tmp_path, "none.rosz", zipped({})), "holds 0")
    refused(write(tmp_path, "txt.rosz", zipped({"a.txt": GOOD})), "not a .ros roster")
    refused(write(tmp_path, "notzip.rosz", b"PK\x03\x04 garbage"), "not a readable .rosz")
    whole = zipped({"a.ros": GOOD})
    refused(write(tmp_path, "cut.rosz", whole[: len(whole) - 30]), "not a readable .rosz")
    # a good .rosz reads
    assert read_list(write(tmp_path, "ok.rosz", whole)).units


def test_zip_bomb_is_refused_before_unpacking(tmp_path):
    bomb = zipped({"a.ros": b"<roster>" + b" " * (safe.MAX_BYTES + 10) + b"</roster>"})
    assert len(bomb) < 100_000
    refused(write(tmp_path, "bomb.rosz", bomb), "declares .* bytes unpacked")


def test_high_compression_ratio_is_refused(tmp_path):
    blob = b"<roster>" + b" " * 5_000_000 + b"</roster>"
    refused(write(tmp_path, "ratio.rosz", zipped({"a.ros": blob})), "compressed more than")


def test_member_that_outgrows_the_limit_while_reading(tmp_path, monkeypatch):
    """The bounded read stops at the limit even when the declared sizes pass the checks."""
    monkeypatch.setattr(safe, "MAX_RATIO", 10**9)
    data = zipped({"a.ros": GOOD})
    p = write(tmp_path, "a.rosz", data)
    real = zipfile.ZipFile.infolist

    def lying(self):  # declare a small size; the bytes keep coming
        infos = real(self)
        for i in infos:
            i.file_size = 10
        return infos

    monkeypatch.setattr(safe, "MAX_BYTES", len(GOOD) // 2)
    monkeypatch.setattr(zipfile.ZipFile, "infolist", lying)
    with pytest.raises(ScenarioError, match=r"unpacks to more than|not a readable|not the declared size"):
        read_list(p)


def test_huge_plain_file_is_refused_without_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(safe, "MAX_BYTES", 1000)
    refused(write(tmp_path, "big.ros", GOOD), "a roster is at most 1000")
    refused(write(tmp_path, "big.json", (FIX / "orks.json").read_bytes()), "a roster is at most 1000")


def test_bounded_read_stops_at_the_limit(monkeypatch):
    monkeypatch.setattr(safe, "MAX_BYTES", 1000)
    monkeypatch.setattr(safe, "CHUNK", 100)
    stream = io.BytesIO(b"x" * 5000)
    with pytest.raises(ScenarioError, match=r"unpacks to more than 1000 bytes"):
        safe._bounded(stream, "a.rosz", "roster")
    assert stream.tell() <= 1100  # it stopped reading one chunk past the limit
