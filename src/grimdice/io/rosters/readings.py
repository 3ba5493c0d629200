"""Readings of roster text shared by every system's sides: rolls, numbers, rule lists, the
protections an ability or a profile grants, and the rules a roster attaches to a weapon.

Readings (documented in ``docs/rosters.md``):

* rolls ``3+`` are 3, distances ``6"`` are 6, ``-``/``N/A`` is "none";
* an invulnerable save or Feel No Pain is read from an ability or rule *named* ``Invulnerable
  Save`` / ``Feel No Pain`` (the roll in its name or text), or one whose text begins "this model /
  the bearer / models in this unit has (have) a 4+ invulnerable save" (or "the Feel No Pain 5+
  ability"), and an invulnerable save from the model's profile (``InSv``, ``Inv``...); conditional
  grants (auras, "while leading") are not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from grimdice.errors import ScenarioError
from grimdice.io.rosters.tree import INV_CHARS, Ability, Profile, Weapon, norm

NONE_TEXT = {"", "-", "–", "—", "n/a", "na", "*"}


def split_rules(text: str | None) -> list[str]:
    """``"Assault, Rending (6+), Blast (3\")"`` -> items, splitting on commas outside brackets."""
    if text is None or norm(text) in NONE_TEXT:
        return []
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch in "([" and 1) or (-1 if ch in ")]" else 0)
        if ch in ",;" and depth <= 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [re.sub(r"\s+", " ", x).strip() for x in out if x.strip() and norm(x) not in NONE_TEXT]


def roll(text: str | None) -> int | None:
    """``"3+"`` -> 3; none -> None."""
    if text is None or norm(text) in NONE_TEXT:
        return None
    m = re.fullmatch(r"\s*(\d+)\s*\+?\s*", text)
    return int(m.group(1)) if m else None


def number(text: str | None) -> int | None:
    """``'6"'`` or ``"6"`` -> 6; none or anything else -> None."""
    if text is None or norm(text) in NONE_TEXT:
        return None
    m = re.fullmatch(r"\s*(\d+)\s*(?:\"|''|”|in\.?|inches)?\s*\+?\s*", text)
    return int(m.group(1)) if m else None


def value(text: str | None, where: str) -> int | str:
    """A number (``4``, ``-1``) as int, dice (``D6+1``) as text."""
    if text is None or norm(text) in NONE_TEXT:
        raise ScenarioError(where, "missing in the roster")
    t = text.strip()
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t)
    return t


_ROLL_IN = re.compile(r"(\d)\s*\+")
_HOLDER = (
    r"^(?:this model|the bearer|this unit|models in (?:this|the bearer's) unit|each model[^.]*?)"
    r"\s+ha(?:s|ve)\s+"
)
_INV_TEXT = re.compile(_HOLDER + r"an?\s+(\d)\+\s+invulnerable save")
_FNP_TEXT = re.compile(_HOLDER + r"(?:the\s+)?feel no pain\s+(\d)\+")


def protections(abilities: Iterable[Ability]) -> tuple[int | None, int | None, list[str]]:
    """(invulnerable save, Feel No Pain, names of the abilities read for them)."""
    inv = fnp = None
    used = []
    for a in abilities:
        name, text = norm(a.name), norm(a.text)
        for key, text_re in (("invulnerable save", _INV_TEXT), ("feel no pain", _FNP_TEXT)):
            x = None
            if key in name:
                m = _ROLL_IN.search(name) or _ROLL_IN.search(text)
                x = int(m.group(1)) if m else None
            elif m := text_re.match(text):
                x = int(m.group(1))
            if x is not None and 2 <= x <= 6:
                used.append(a.name)
                if key == "invulnerable save":
                    inv = x if inv is None else min(inv, x)
                else:
                    fnp = x if fnp is None else min(fnp, x)
    return inv, fnp, used


_PLACEHOLDER = r"\s*\(?\s*(?:\d+|x|d\d+)?\s*\+?\s*\)?"


def _rule_stem(name: str) -> str:
    """A rule's name without its placeholder: ``Lethal x+`` -> ``lethal``, ``APx`` -> ``ap``."""
    return re.sub(r"\s*\(?\s*x\s*\+?\s*\)?$", "", norm(name)).strip()


def weapon_rule_notes(w: Weapon, items: Callable[[Profile], list[str]]) -> list[str]:
    """The rules the roster attaches to weapon ``w`` that none of its profiles' own rules (``items``
    of each mode, e.g. its Keywords) carries: those are listed as not modelled; the others are
    read with the profile (accepted by the system's parser, or listed by it)."""
    have = [norm(t) for p in w.modes for t in items(p)]
    out = []
    for r in w.rules:
        stem = _rule_stem(r)
        pattern = re.compile(re.escape(stem) + _PLACEHOLDER)
        if stem and not any(pattern.fullmatch(t) or (len(stem) >= 4 and t.startswith(stem)) for t in have):
            out.append(f"{w.name}: weapon rule {r} (in the roster, not in the weapon's profile)")
    return out


def profile_invulnerable(p: Profile | None) -> int | None:
    """An invulnerable save written as a characteristic of the model (``InSv``, ``Inv``...)."""
    x = roll(p.char(*INV_CHARS)) if p is not None else None
    return x if x is not None and 2 <= x <= 6 else None


def best(*saves: int | None) -> int | None:
    given = [x for x in saves if x is not None]
    return min(given) if given else None
