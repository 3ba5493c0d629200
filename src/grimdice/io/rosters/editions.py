"""Which game and edition a roster was built for, and whether grimdice has rules for it.

A roster names its game system (BattleScribe / New Recruit ``gameSystemName``, ``gameSystemId`` and
``gameSystemRevision``; Army Forge ``gameSystem``). grimdice has rules for four editions:

* Warhammer 40,000 10th edition (``wh40k``),
* Kill Team 2021 (``killteam``),
* Horus Heresy 2.0, the 2022 Age of Darkness rules (``heresy``),
* One Page 40k v2.21, which Grimdark Future Army Forge lists are played as (``onepage``).

Anything else the file names (40k 8th, 9th or 11th edition, Kill Team 2018 or 2024, Horus Heresy
3rd edition, Grimdark Future: Firefight, Age of Fantasy...) is refused with its name and the
supported ones: reading it with another edition's rules gives wrong numbers without a word (a
9th-edition bike squad read as one model, Kill Team 2018 profiles without APL).

Readings (unverified; ``docs/rosters.md``):

1. An edition written in the name wins (``10th Edition``, ``(2021)``, ``(2022)``, ``3rd Edition``).
2. Without one, the game system id of the 40k 10th-edition and Horus Heresy 2022 data is
   recognised, then the profiles: 40k unit profiles with OC are 10th edition, with WS and BS an
   earlier one; Kill Team operatives with GA or DF are 2021, with WS and T the 2018 game.
3. A 40k or Horus Heresy roster that names no edition and has none of these marks is read as the
   supported edition, and says so (``assumed``) wherever the edition is shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from grimdice.errors import ScenarioError, shown

W40K_10 = "Warhammer 40,000 10th edition"
KT_2021 = "Kill Team 2021"
HH_2 = "Horus Heresy 2.0 (2022)"
OPR = "One Page 40k v2.21"
SUPPORTED = f"{W40K_10}, {KT_2021}, {HH_2} and One Page 40k v2.21 / Grimdark Future (Army Forge)"

#: BattleScribe game system ids of the supported data sets (their names say the edition too)
KNOWN_IDS = {"sys-352e-adc2-7639-d6a9": ("wh40k", W40K_10), "28d4-bd2e-4858-ece6": ("heresy", HH_2)}

#: Army Forge ``gameSystem`` codes
ARMY_FORGE = {
    "gf": None,
    "gff": "Grimdark Future: Firefight",
    "aof": "Age of Fantasy",
    "aofs": "Age of Fantasy: Skirmish",
    "aofr": "Age of Fantasy: Regiments",
    "ftl": "Warfleets: FTL",
}


@dataclass(frozen=True)
class Edition:
    """The grimdice system a roster is read with and the edition it was built for."""

    system: str
    name: str
    #: how the edition was told (``named in the roster``, ``from the unit profiles``, ``assumed``...)
    how: str

    @property
    def label(self) -> str:
        return f"{self.name} ({self.how})"


def _refuse(where: str, game: str, edition: str) -> ScenarioError:
    return ScenarioError(
        where,
        f"the roster is for {edition} (game system {shown(game)}); grimdice has rules for {SUPPORTED} only",
    )


def army_forge_edition(code: object, where: str) -> Edition:
    """The edition of an Army Forge list from its ``gameSystem`` code (none: Grimdark Future)."""
    if code in (None, "", "gf"):
        how = "a Grimdark Future list, played as One Page 40k v2.21"
        return Edition("onepage", OPR, how if code else "an Army Forge list, played as One Page 40k v2.21")
    name = ARMY_FORGE.get(code) if isinstance(code, str) else None
    raise _refuse(f"{where}.gameSystem", str(code), name or f"the Army Forge game {shown(code)}")


def _year(g: str) -> str | None:
    m = re.search(r"\b(20\d\d)\b", g)
    return m.group(1) if m else None


def _nth(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _ordinal(g: str) -> int | None:
    m = re.search(r"\b(\d{1,2})\s*(?:st|nd|rd|th)\s*(?:ed\b|edition)", g) or re.search(
        r"\bv(?:ersion)?\s*(\d{1,2})\b", g
    )
    return int(m.group(1)) if m else None


def edition_of(
    game: str, game_id: str, profiles: Iterable[dict[str, str]], where: str = "roster"
) -> Edition | None:
    """The edition of a BattleScribe / New Recruit roster, None when the game is not one grimdice
    knows at all (``--system`` may still say), or a refusal naming an edition it has no rules for.
    ``profiles`` are the characteristics (lower-case names) of the roster's model profiles."""
    g = re.sub(r"\s+", " ", game).strip().lower()
    chars = [set(p) for p in profiles]
    if "kill team" in g:
        year = _year(g)
        if year == "2021":
            return Edition("killteam", KT_2021, "named in the roster")
        if year is not None:
            raise _refuse(where, game, f"Kill Team ({year})")
        if any("apl" in c and ("ga" in c or "df" in c) for c in chars):
            return Edition("killteam", KT_2021, "from the operative profiles (APL, GA, DF)")
        if "warhammer 40,000: kill team" in g or any("ws" in c and "t" in c for c in chars):
            raise _refuse(where, game, "Kill Team (2018) (operative profiles with WS and T)")
        raise _refuse(where, game, "a Kill Team edition other than 2021 (operatives without GA or DF)")
    if "heresy" in g or "age of darkness" in g or "30,000" in g or "30k" in g:
        n, year = _ordinal(g), _year(g)
        if game_id in KNOWN_IDS or year == "2022" or n == 2 or "2.0" in g:
            return Edition("heresy", HH_2, "named in the roster")
        if n is not None:
            raise _refuse(where, game, f"Horus Heresy {_nth(n)} edition")
        if year is not None:
            raise _refuse(where, game, f"Horus Heresy ({year})")
        return Edition("heresy", HH_2, "assumed: the roster names no edition")
    if any(k in g for k in ("40,000", "40k", "40000", "40.000")):
        n = _ordinal(g)
        if n == 10 or KNOWN_IDS.get(game_id, ("",))[0] == "wh40k":
            return Edition("wh40k", W40K_10, "named in the roster")
        if n is not None:
            raise _refuse(where, game, f"Warhammer 40,000 {_nth(n)} edition")
        if any("oc" in c for c in chars):
            return Edition("wh40k", W40K_10, "from the unit profiles (OC)")
        if any("ws" in c and "bs" in c for c in chars):
            before = "Warhammer 40,000 before the 10th edition (unit profiles with WS and BS)"
            raise _refuse(where, game, before)
        return Edition("wh40k", W40K_10, "assumed: the roster names no edition")
    if "grimdark" in g or "one page" in g or "age of fantasy" in g:
        for name in ARMY_FORGE.values():
            if name is not None and name.lower() in g:
                raise _refuse(where, game, name)
        return Edition("onepage", OPR, "played as One Page 40k v2.21")
    return None
