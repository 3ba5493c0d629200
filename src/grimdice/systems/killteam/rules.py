"""Kill Team (2021) weapon special rules and critical-hit rules, parsed from the text players write.

Every rule of the seed text (``kill-team-2021-weapon-rules.txt``) is read into a field of
:class:`WeaponRules`; the engines cite the rule where they apply it. Distances are written in
inches (``2``, ``2"``) or as the game's shapes: triangle 1", circle 2", square 3", pentagon 6".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grimdice.errors import ScenarioError

#: the distance shapes of the 2021 rules, in inches
SHAPES = {"triangle": 1.0, "circle": 2.0, "square": 3.0, "pentagon": 6.0}
_SHAPE_SYMBOLS = {
    "▲": "triangle",
    "△": "triangle",
    "●": "circle",
    "⬤": "circle",
    "○": "circle",
    "■": "square",
    "□": "square",
    "⬟": "pentagon",
    "⬠": "pentagon",
}

#: distances the seed text prints as a (lost) shape symbol; assumed per the 2021 core book, see docs
FUSILLADE_RANGE = SHAPES["circle"]
SPLASH_RANGE = SHAPES["circle"]
REAP_RANGE = SHAPES["triangle"]

#: rules that are on/off flags (field name: the text with spaces as "_")
FLAGS = (
    "barrage",
    "balanced",
    "brutal",
    "ceaseless",
    "fusillade",
    "heavy",
    "hot",
    "indirect",
    "limited",
    "no cover",
    "rending",
    "relentless",
    "silent",
    "stun",
    "unwieldy",
)
NO_EFFECT = frozenset({"psychic action"})

ALLOWED = (
    "APx",
    "Px",
    "Barrage",
    "Balanced",
    "Blast x (distance)",
    "Brutal",
    "Ceaseless",
    "Fusillade",
    "Heavy",
    "Hot",
    "Indirect",
    "Invulnerable Save x+",
    "Lethal x+",
    "Limited",
    "MWx",
    "No Cover",
    "Rending",
    "Reap x",
    "Relentless",
    "Rng x (distance)",
    "Silent",
    "Splash x",
    "Stun",
    "Torrent x (distance)",
    "Unwieldy",
    "Psychic Action",
)


@dataclass(frozen=True)
class WeaponRules:
    """The special rules of one weapon profile (absent rules: 0 / None / False)."""

    ap: int = 0
    piercing: int = 0
    lethal: int = 6
    mw: int = 0
    splash: int = 0
    reap: int = 0
    invulnerable: int | None = None
    blast: float | None = None
    torrent: float | None = None
    rng: float | None = None
    barrage: bool = False
    balanced: bool = False
    brutal: bool = False
    ceaseless: bool = False
    fusillade: bool = False
    heavy: bool = False
    hot: bool = False
    indirect: bool = False
    limited: bool = False
    no_cover: bool = False
    rending: bool = False
    relentless: bool = False
    silent: bool = False
    stun: bool = False
    unwieldy: bool = False

    def pick(self, *names: str) -> dict[str, object]:
        """``{name: value}`` of the named rules, to pass on as keyword arguments."""
        return {n: getattr(self, n) for n in names}

    @property
    def multi_target(self) -> bool:
        return self.blast is not None or self.torrent is not None or self.fusillade


NO_RULES = WeaponRules()


def parse_distance(value: object, where: str) -> float:
    """Inches from a number, ``'2"'``, ``'2 in'`` or a shape name/symbol."""
    if isinstance(value, bool):
        raise ScenarioError(
            where, "a distance is inches (e.g. 6) or a shape: triangle, circle, square, pentagon"
        )
    if isinstance(value, (int, float)):
        d = float(value)
    elif isinstance(value, str):
        t = value.strip().lower()
        t = _SHAPE_SYMBOLS.get(t, t)
        if t in SHAPES:
            return SHAPES[t]
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(?:\"|''|in|inch|inches)?", t)
        if not m:
            raise ScenarioError(
                where,
                f'{value!r} is not a distance; write inches (6, 6") or triangle, circle, square, pentagon',
            )
        d = float(m.group(1))
    else:
        raise ScenarioError(
            where, "a distance is inches (e.g. 6) or a shape: triangle, circle, square, pentagon"
        )
    if not 0 <= d <= 100:
        raise ScenarioError(where, f"a distance must be within 0..100 inches, got {d}")
    return d


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower().replace("[", "").replace("]", ""))


_VALUED = re.compile(r"^(ap|p|mw|splash|reap)\s*(\d+)$")
_LETHAL = re.compile(r"^lethal\s*(\d)\+?$")
_INVULN = re.compile(r"^invulnerable save\s*(\d)\+?$")
_DIST = re.compile(r"^(blast|torrent|rng|range)\s+(.+)$")


def parse_rules(items: list[str], where: str) -> WeaponRules:
    """Read special-rule texts (case-insensitive, brackets optional) into :class:`WeaponRules`.

    Unknown rules are errors naming the field and listing what is allowed.
    """
    kw: dict = {}
    for i, raw in enumerate(items):
        f = f"{where}.{i}"
        if not isinstance(raw, str):
            raise ScenarioError(f, f"a rule is text, e.g. 'Lethal 5+'; got {raw!r}")
        a = _norm(raw)
        if a in NO_EFFECT:
            continue
        if a in FLAGS:
            kw[a.replace(" ", "_")] = True
        elif m := _VALUED.match(a):
            key = {"p": "piercing"}.get(m.group(1), m.group(1))
            x = int(m.group(2))
            if not 1 <= x <= 10:
                raise ScenarioError(f, f"{raw!r}: x must be 1..10")
            if key == "ap":  # AP not cumulative: the attacker selects which one (the best)
                kw["ap"] = max(kw.get("ap", 0), x)
            else:
                kw[key] = x
        elif m := _LETHAL.match(a):
            kw["lethal"] = _roll(int(m.group(1)), f)
        elif m := _INVULN.match(a):
            kw["invulnerable"] = _roll(int(m.group(1)), f)
        elif m := _DIST.match(a):
            key = "rng" if m.group(1) == "range" else m.group(1)
            kw[key] = parse_distance(m.group(2), f)
        elif a in (
            "ap",
            "p",
            "mw",
            "splash",
            "reap",
            "lethal",
            "blast",
            "torrent",
            "rng",
            "invulnerable save",
        ):
            raise ScenarioError(f, f"{raw!r} needs its value, e.g. '{raw} {_EXAMPLE.get(a, '1')}'")
        else:
            raise ScenarioError(f, f"unknown rule {raw!r}; allowed: {', '.join(ALLOWED)}")
    return WeaponRules(**kw)


_EXAMPLE = {"lethal": "5+", "invulnerable save": "4+", "blast": "circle", "torrent": '2"', "rng": "pentagon"}


def _roll(x: int, where: str) -> int:
    if not 2 <= x <= 6:
        raise ScenarioError(where, f"a roll is 2+ to 6+, got {x}+")
    return x
