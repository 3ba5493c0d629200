"""Rule tables: every special rule of a system as data, with one parser for all systems.

A :class:`Rule` says what a rule is called (and its aliases), what kind of value it takes
(:class:`Param`), where it applies, a one-line summary and the rule text it follows. A system's
:class:`RuleTable` is at once

* its **parser**: :meth:`RuleTable.parse` reads the rule texts players write (``"Rending (5+)"``,
  ``"rending 5+"``, ``"Rending(5)"``, ``"AP1"``, ``"Sustained Hits D3"``, ``"Anti-Infantry 4+"``,
  ``"Blast circle"``, ``"Tough(3)"``) into a mapping ``{field: value}``, with one clear error for
  anything unknown or malformed, naming the field and listing what is allowed;
* its **index**: ``grimdice rules SYSTEM`` prints it, and the docs' rule tables are generated from
  it (:meth:`RuleTable.markdown`), so code, CLI and docs cannot drift apart;
* the register of **readings**: a rule or core-sequence reading not verified against a primary
  source is marked ``verified=False`` with what was assumed; a result that used it carries the
  :meth:`RuleTable.note` in its ``notes``.

Modelled on icepool's and python-chess's habit of small immutable values with one obvious parser.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from grimdice.dice.expr import DiceExpr, DiceSyntaxError, parse
from grimdice.errors import ScenarioError, shown

MAX_EXCERPT = 60  # characters of a user's text quoted back in an error


class Param(StrEnum):
    """The kind of value a rule takes."""

    FLAG = "flag"  # no value: the rule is on or off
    ROLL = "roll"  # a D6 roll target X+ (2..6 unless the rule's bounds say otherwise)
    COUNT = "count"  # a whole number X
    DICE = "dice"  # a number or dice text (D3, D6+1)
    DISTANCE = "distance"  # inches, or a named distance the system defines (e.g. Kill Team's shapes)


def excerpt(value: object, limit: int = MAX_EXCERPT) -> str:
    """``repr`` of a user's value, bounded to ``limit`` characters so errors stay one short line."""
    return shown(value, limit)


@lru_cache(maxsize=4096)
def normalise(text: str) -> str:
    """Lower case, brackets ``[]`` dropped, runs of white space folded to one space."""
    return re.sub(r"\s+", " ", text.strip().lower().replace("[", "").replace("]", ""))


@dataclass(frozen=True)
class Rule:
    """One special rule (or core-sequence reading) of a system.

    ``name`` is matched case-insensitively at the start of a rule text; the rest of the text is its
    value. ``keyed=True`` makes the name a prefix followed by a keyword (``Anti-`` + ``Infantry``):
    the parsed value is then ``{keyword: value}``. ``field`` is the key in the parsed mapping
    (default: the name with spaces and dashes as ``_``). ``combine`` says what a repeated rule
    does: ``"last"`` keeps the last, ``"max"``/``"min"`` the best, ``"error"`` refuses it.
    ``effect=False`` marks rules accepted so real profiles validate, with no effect on the dice.
    """

    name: str
    param: Param
    applies: str
    summary: str
    source: str
    aliases: tuple[str, ...] = ()
    field: str = ""
    bounds: tuple[float, float] = (1, 100)
    default: Any = None  # value when written without one (e.g. Poisoned -> 4+); None: required
    example: str = ""  # a correct example of the rule's text, for errors
    keyed: bool = False
    combine: str = "last"
    effect: bool = True
    verified: bool = True
    reading: str = ""  # for an unverified reading: what grimdice assumes

    def __post_init__(self) -> None:
        if self.combine not in ("last", "max", "min", "error"):
            raise ValueError(f"rule {self.name!r}: combine must be last, max, min or error")
        if not self.verified and not self.reading:
            raise ValueError(f"rule {self.name!r}: an unverified rule must say the reading it assumes")
        if self.param is Param.ROLL and self.bounds == (1, 100):
            object.__setattr__(self, "bounds", (2, 6))

    @property
    def key(self) -> str:
        return self.field or re.sub(r"[\s-]+", "_", self.name.lower()).strip("_")

    @property
    def written(self) -> str:
        """How the rule is written with its parameter, for listings (``Rending (X+)``)."""
        kw = "KEYWORD" if self.keyed else ""
        suffix = {
            Param.FLAG: "",
            Param.ROLL: " X+",
            Param.COUNT: " X",
            Param.DICE: " X",
            Param.DISTANCE: " X",
        }[self.param]
        return f"{self.name}{kw}{suffix}".strip()


@dataclass(frozen=True)
class Reading:
    """A unit of the core sequence read from a source that could not be verified."""

    key: str
    summary: str
    source: str
    reading: str


_VALUE_CHARS = re.compile(r"^[\s(\"']*(.*?)[\s)\"']*$")


class RuleTable:
    """The rules of one system, in the order the docs list them (see the module text)."""

    def __init__(
        self,
        system: str,
        rules: Iterable[Rule],
        *,
        readings: Iterable[Reading] = (),
        distances: Mapping[str, float] | None = None,
        what: str = "rule",
        codes: bool = False,
    ) -> None:
        self.system = system
        self.rules: tuple[Rule, ...] = tuple(rules)
        self.readings: tuple[Reading, ...] = tuple(readings)
        self.distances = {normalise(k): float(v) for k, v in (distances or {}).items()}
        self.what = what  # "ability", "special rule", "weapon rule", "effect code" in messages
        self.codes = codes  # rules are written by their short codes (aliases shorter than the name)
        names: dict[str, Rule] = {}
        for r in self.rules:
            for n in (r.name, *r.aliases):
                k = normalise(n)
                if k in names:
                    raise ValueError(f"{system}: rule name {n!r} is given twice")
                names[k] = r
        # longest names first, so "large blast" is tried before "blast"
        self._names = sorted(names.items(), key=lambda kv: -len(kv[0]))
        self._by_key = {r.key: r for r in self.rules}
        self._unverified: dict[str, Rule | Reading] = {r.key: r for r in self.rules if not r.verified}
        self._unverified.update({x.key: x for x in self.readings})
        self._matched: dict[str, tuple[Rule, str, str] | None] = {}  # match's answers, kept

    # ------------------------------------------------------------------ lookup
    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __getitem__(self, key: str) -> Rule:
        return self._by_key[key]

    def allowed(self) -> str:
        """Every rule as written, comma-separated, for errors; with ``codes``, a rule with short
        codes as its codes and then its name (``J (JAM)``, ``A X (AREA)``)."""
        if not self.codes:
            return ", ".join(r.written for r in self.rules)
        out = []
        for r in self.rules:
            short = [a for a in r.aliases if len(a) < len(r.name)]
            value = r.written[len(r.name) :]
            out.append(f"{'/'.join(short)}{value} ({r.name})" if short else r.written)
        return ", ".join(out)

    def note(self, key: str) -> str:
        """The note a result carries when it used the unverified reading ``key``."""
        r = self._unverified[key]
        return f"unverified reading ({self.system}, {r.key}): {r.reading}"

    def unverified(self) -> list[str]:
        return list(self._unverified)

    # ------------------------------------------------------------------ parsing
    def match(self, text: str) -> tuple[Rule, str, str] | None:
        """(rule, keyword, value text) of a normalised rule text, or None when no name fits (kept
        per text: the table does not change)."""
        if text in self._matched:
            return self._matched[text]
        if len(self._matched) > 4096:
            self._matched.clear()
        found = self._matched[text] = self._match(text)
        return found

    def forget_matches(self) -> None:
        """Drop the kept answers of :meth:`match` (a benchmark's fresh start)."""
        self._matched.clear()

    def _match(self, text: str) -> tuple[Rule, str, str] | None:
        for name, rule in self._names:
            if not text.startswith(name):
                continue
            rest = text[len(name) :]
            keyword = ""
            if rule.keyed:
                m = re.match(r"^([a-z][\w -]*?)(?=\s*[(\d+-]|$)", rest)
                if not m or not m.group(1).strip():
                    continue
                keyword, rest = m.group(1).strip(), rest[m.end() :]
            elif rest and (rest[0].isalpha() or rest[0] == "_"):
                continue  # "pistol" is not "p" + "istol"
            value = _VALUE_CHARS.match(rest)
            assert value is not None  # every part of the pattern is optional: it matches any text
            return rule, keyword, value.group(1)
        return None

    def parse(self, items: Sequence[object], where: str) -> dict[str, Any]:
        """Read rule texts into ``{field: value}`` (absent rules are absent keys).

        Raises :class:`ScenarioError` naming ``where.i`` for anything unknown or malformed.
        """
        if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
            raise ScenarioError(where, f"a list of {self.what}s, e.g. [{self._example()}]")
        out: dict[str, Any] = {}
        for i, raw in enumerate(items):
            f = f"{where}.{i}"
            if not isinstance(raw, str):
                raise ScenarioError(f, f"a {self.what} is text, e.g. {self._example()!r}; got {excerpt(raw)}")
            found = self.match(normalise(raw))
            if found is None:
                raise ScenarioError(f, f"unknown {self.what} {excerpt(raw)}; allowed: {self.allowed()}")
            rule, keyword, value_text = found
            if not rule.effect:
                continue
            value = self._value(rule, value_text, raw, f)
            if rule.keyed:
                out.setdefault(rule.key, {})
                self._combine(out[rule.key], keyword, rule, value, f)
            else:
                self._combine(out, rule.key, rule, value, f)
        return out

    def _combine(self, out: dict[str, Any], key: str, rule: Rule, value: Any, where: str) -> None:
        if key in out:
            if rule.combine == "error":
                raise ScenarioError(where, f"{rule.name} is given twice")
            if rule.combine == "max":
                value = max(out[key], value)
            elif rule.combine == "min":
                value = min(out[key], value)
        out[key] = value

    def _example(self) -> str:
        for r in self.rules:
            if r.effect:
                return r.example or r.name
        return "..."

    def _value(self, rule: Rule, text: str, raw: str, where: str) -> Any:
        if rule.param is Param.FLAG:
            if text:
                raise ScenarioError(where, f"{rule.name} takes no value; got {excerpt(raw)}")
            return True
        if not text:
            if rule.default is not None:
                return rule.default
            eg = rule.example or f"{rule.name} 1"
            raise ScenarioError(where, f"{excerpt(raw)} needs its value, e.g. {eg!r}")
        lo, hi = rule.bounds
        if rule.param is Param.ROLL:
            m = re.fullmatch(r"(\d+)\s*\+?", text)
            if not m:
                raise ScenarioError(where, f"{excerpt(raw)}: write the roll as X+, e.g. {rule.example!r}")
            return _within(int(m.group(1)), lo, hi, where, f"a roll target is {lo:g}+ to {hi:g}+", "+")
        if rule.param is Param.COUNT:
            if not re.fullmatch(r"\d+", text):
                raise ScenarioError(where, f"{excerpt(raw)}: X is a whole number here")
            return _within(int(text), lo, hi, where, f"X is {lo:g} to {hi:g} here")
        if rule.param is Param.DICE:
            return _dice(text, lo, hi, where)
        return self.distance(text, where, lo, hi)

    def distance(self, value: object, where: str, lo: float = 0, hi: float = 100) -> float:
        """Inches from a number, ``'2"'``, ``'2 in'``, or a named distance of the system."""
        names = ", ".join(self.distances)
        allowed = "inches (e.g. 6)" + (f" or one of {names}" if names else "")
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ScenarioError(where, f"a distance is {allowed}")
        if isinstance(value, str):
            t = normalise(value)
            if t in self.distances:
                return self.distances[t]
            m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(?:\"|''|in|inch|inches)?", t)
            if not m:
                raise ScenarioError(where, f"{excerpt(value)} is not a distance; write {allowed}")
            value = float(m.group(1))
        d = float(value)
        if not lo <= d <= hi:
            raise ScenarioError(where, f"a distance must be within {lo:g}..{hi:g} inches, got {d:g}")
        return d

    # ------------------------------------------------------------------ index
    def rows(self) -> list[dict[str, str]]:
        """The index: one row per rule (then per unverified core reading)."""
        out = [
            {
                "rule": r.written,
                "kind": r.param.value,
                "applies to": r.applies,
                "effect": r.summary if r.effect else f"no effect on the dice ({r.summary})",
                "source": r.source,
                "verified": "yes" if r.verified else f"no: {r.reading}",
            }
            for r in self.rules
        ]
        out += [
            {
                "rule": x.key,
                "kind": "reading",
                "applies to": "core sequence",
                "effect": x.summary,
                "source": x.source,
                "verified": f"no: {x.reading}",
            }
            for x in self.readings
        ]
        return out

    def markdown(self) -> str:
        """The index as a Markdown table (the docs embed it; a test keeps them equal)."""
        rows = self.rows()
        cols = list(rows[0]) if rows else ["rule"]
        lines = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
        for row in rows:
            lines.append("| " + " | ".join(row[c].replace("|", "\\|") for c in cols) + " |")
        return "\n".join(lines)


def _within(x: int, lo: float, hi: float, where: str, allowed: str, suffix: str = "") -> int:
    if not lo <= x <= hi:
        raise ScenarioError(where, f"{allowed}, got {x}{suffix}")
    return x


def _dice(text: str, lo: float, hi: float, where: str) -> DiceExpr:
    try:
        d = parse(text)
    except DiceSyntaxError as exc:
        raise ScenarioError(where, str(exc)) from None
    if d.min < lo or d.max > hi:
        raise ScenarioError(where, f"{excerpt(text)} must stay within {lo:g}..{hi:g}")
    return d


__all__ = ["Param", "Reading", "Rule", "RuleTable", "excerpt", "normalise"]
