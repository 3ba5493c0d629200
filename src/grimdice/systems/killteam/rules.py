"""Kill Team (2021) weapon special rules and critical-hit rules: the rule table and its values.

:data:`RULES` is the system's :class:`~grimdice.engine.rules.RuleTable`: every rule of the seed text
(``kill-team-2021-weapon-rules.txt``) with its kind of value, where it applies, a one-line summary
and the sentence it follows. ``RULES.parse`` reads what players write (case-insensitive, brackets
optional) and :func:`parse_rules` turns that into the one :class:`WeaponRules` value the shooting
and fight engines read. Distances are inches (``2``, ``2"``) or the game's shapes: triangle 1",
circle 2", square 3", pentagon 6" (or their symbols).

Unverified readings are marked in the table (``verified=False``) and a result that used one
carries ``RULES.note(key)`` in its notes: the distances the seed text prints as a lost shape symbol
(Fusillade, Splash, Reap) and two core-sequence readings (:data:`FIGHT_REROLL_ORDER`,
:data:`OBSCURED`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from grimdice.engine.rules import Param, Reading, Rule, RuleTable

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
DISTANCES = {**SHAPES, **{sym: SHAPES[name] for sym, name in _SHAPE_SYMBOLS.items()}}

#: distances the seed text prints as a (lost) shape symbol; assumed per the 2021 core book, see docs
FUSILLADE_RANGE = SHAPES["circle"]
SPLASH_RANGE = SHAPES["circle"]
REAP_RANGE = SHAPES["triangle"]

#: keys of the core-sequence readings (see :data:`READINGS`)
FIGHT_REROLL_ORDER = "fight_reroll_order"
OBSCURED = "obscured"

_SHOOT = "shooting attacks"
_FIGHT = "fights"
_BOTH = "shooting attacks and fights"
_ACTIONS = "activation (Shoot action)"
_SEED = "seed text, "

RULES = RuleTable(
    "killteam",
    [
        Rule(
            "AP",
            Param.COUNT,
            _SHOOT,
            "subtract x from the target's Defence; not cumulative: the best one is used",
            _SEED + 'APx: "subtract x from the Defence of the target ... not cumulative - '
            'the attacker selects which one to use"',
            bounds=(1, 10),
            combine="max",
            example="AP1",
        ),
        Rule(
            "P",
            Param.COUNT,
            _SHOOT,
            "APx for the attack if any critical hit is retained",
            _SEED + 'Px: "if you retain any critical hits, the weapon gains the APx special rule"',
            field="piercing",
            bounds=(1, 10),
            example="P1",
        ),
        Rule(
            "Barrage",
            Param.FLAG,
            _SHOOT,
            "Cover only if part of the base is hidden from directly above",
            _SEED + "Barrage: \"if any part of the operative's base is hidden by a terrain feature from "
            'directly above, the defender can retain defence dice as if they were in cover"',
        ),
        Rule(
            "Balanced",
            Param.FLAG,
            _BOTH,
            "re-roll one attack die (optimal choice)",
            _SEED + 'Balanced: "you can re-roll one of your attack dice"',
        ),
        Rule(
            "Blast",
            Param.DISTANCE,
            _SHOOT,
            "the same attack against each other operative Visible to and "
            "within x of the target, not in Cover; no Overwatch",
            _SEED + 'Blast x: "make a shooting '
            'attack ... against each other operative Visible to and within X of the original target"',
            bounds=(0, 100),
            example="Blast circle",
        ),
        Rule(
            "Brutal",
            Param.FLAG,
            _FIGHT,
            "the opponent can only parry with critical hits",
            _SEED + 'Brutal: "your opponent can only parry with critical hits"',
        ),
        Rule(
            "Ceaseless",
            Param.FLAG,
            _BOTH,
            "re-roll any or all attack dice results of 1",
            _SEED + 'Ceaseless: "you can re-roll any or all of your attack dice results of 1"',
        ),
        Rule(
            "Fusillade",
            Param.FLAG,
            _SHOOT,
            f"split the attack dice between valid targets within "
            f'{FUSILLADE_RANGE:g}" of the target (user split or the best one)',
            _SEED + "Fusillade: "
            '"select any number of other valid targets within [symbol lost] of the original target"',
            verified=False,
            reading=f'the lost distance symbol is read as a circle ({FUSILLADE_RANGE:g}")',
        ),
        Rule(
            "Heavy",
            Param.FLAG,
            _ACTIONS,
            "no Charge, Fall Back or Normal Move in the activation",
            _SEED + 'Heavy: "cannot perform a Charge, Fall Back or Normal Move action in the same '
            'activation"',
        ),
        Rule(
            "Hot",
            Param.FLAG,
            _SHOOT,
            "3 mortal wounds on the shooter per discarded attack die result of 1",
            _SEED + 'Hot: "for each attack dice result of 1 that is discarded, that operative suffers '
            'three mortal wounds"',
        ),
        Rule(
            "Indirect",
            Param.FLAG,
            _SHOOT,
            "targets are not in Cover",
            _SEED + 'Indirect: "enemy operatives are not in Cover"',
        ),
        Rule(
            "Invulnerable Save",
            Param.ROLL,
            "the target operative (shooting)",
            "the defender may use it instead of SV; not modified, not affected by APx",
            _SEED + 'Invulnerable Save x+: "can use '
            'its invulnerable save instead of its normal Save characteristic ... not affected by any APx"',
            field="invulnerable",
            example="Invulnerable Save 4+",
        ),
        Rule(
            "Lethal",
            Param.ROLL,
            _BOTH,
            "successful hits of x or more are critical hits",
            _SEED + 'Lethal x: "your attack dice results of equal to or greater than x that are '
            'successful hits are critical hits"',
            example="Lethal 5+",
        ),
        Rule(
            "Limited",
            Param.FLAG,
            _ACTIONS,
            "selected once per battle",
            _SEED + 'Limited: "This weapon can only be selected for use once per battle"',
        ),
        Rule(
            "MW",
            Param.COUNT,
            _SHOOT,
            "x mortal wounds on the target per critical hit retained",
            _SEED + 'MWx: "for each critical hit retained, inflict x mortal wounds on the target"',
            bounds=(1, 10),
            example="MW3",
        ),
        Rule(
            "No Cover",
            Param.FLAG,
            _SHOOT,
            "no defence dice retained for Cover",
            _SEED + 'No Cover: "defence dice cannot be automatically retained as a result of Cover"',
        ),
        Rule(
            "Rending",
            Param.FLAG,
            _BOTH,
            "with a critical hit retained, one normal hit retained as critical (optimal choice)",
            _SEED + 'Rending: "if you retain any critical hits you can '
            'retain one normal hit as a critical hit"',
        ),
        Rule(
            "Reap",
            Param.COUNT,
            _FIGHT,
            f"per critical strike, x mortal wounds on each other enemy "
            f'operative Visible to the wielder and within {REAP_RANGE:g}" of it or the target (reported)',
            _SEED + 'Reap x: "if you strike with a critical hit, inflict x mortal wounds on each other '
            "enemy operative Visible to the friendly operative and within [symbol lost] of it or the target "
            'operative"',
            bounds=(1, 10),
            example="Reap 1",
            verified=False,
            reading=f'the lost distance symbol is read as a triangle ({REAP_RANGE:g}")',
        ),
        Rule(
            "Relentless",
            Param.FLAG,
            _BOTH,
            "re-roll any or all attack dice (optimal choice)",
            _SEED + 'Relentless: "you can re-roll any or all of your attack dice"',
        ),
        Rule(
            "Rng",
            Param.DISTANCE,
            _SHOOT,
            "only operatives within x are valid targets",
            _SEED + 'Rng x: "only operatives within x are a valid target"',
            aliases=("Range",),
            bounds=(0, 100),
            example="Rng pentagon",
        ),
        Rule(
            "Silent",
            Param.FLAG,
            _ACTIONS,
            "may Shoot while on a Conceal order",
            _SEED + 'Silent: "While an operative has a Conceal order, it can perform Shoot actions"',
        ),
        Rule(
            "Splash",
            Param.COUNT,
            _SHOOT,
            f"per critical hit retained, x mortal wounds on the target and "
            f'each other operative Visible to and within {SPLASH_RANGE:g}" of it',
            _SEED + "Splash x: "
            '"for each critical hit retained, inflict x mortal wounds on the target and each other '
            'operative Visible to and within [symbol lost] of it"',
            bounds=(1, 10),
            example="Splash 1",
            verified=False,
            reading=f'the lost distance symbol is read as a circle ({SPLASH_RANGE:g}")',
        ),
        Rule(
            "Stun",
            Param.FLAG,
            _BOTH,
            "shooting: a critical hit retained costs the target 1 APL; fights: "
            "first critical strike discards an opponent's normal hit, the second costs 1 APL",
            _SEED + 'Stun: "if you retain any critical hits, subtract 1 from the target\'s APL"; "The '
            "first time you strike with a critical hit, select one of your opponent's normal hits ... to be "
            'discarded"',
        ),
        Rule(
            "Torrent",
            Param.DISTANCE,
            _SHOOT,
            "the same attack against each other valid target within x of the target and of each other",
            _SEED + 'Torrent x: "against each other valid target '
            'within x of the original target and each other"',
            bounds=(0, 100),
            example='Torrent 2"',
        ),
        Rule(
            "Unwieldy",
            Param.FLAG,
            _ACTIONS,
            "shooting costs one extra AP; no Overwatch",
            _SEED + 'Unwieldy: "only make a shooting attack with this weapon if an extra AP is subtracted"',
        ),
        Rule(
            "Psychic Action",
            Param.FLAG,
            "actions",
            "a term for a kind of action",
            _SEED + 'Psychic Action: "This term provides no additional rules on its own"',
            effect=False,
        ),
    ],
    readings=[
        Reading(
            FIGHT_REROLL_ORDER,
            "fights: the attacker chooses its re-rolls first, seeing both rolls; "
            "the defender then chooses its own, seeing the attacker's final dice",
            "2021 core book (Fight action, Roll Attack Dice), not quoted in the seed text",
            "the attacker re-rolls first, seeing both rolls; then the defender",
        ),
        Reading(
            OBSCURED,
            "an Obscured operative is not a valid target",
            "2021 core book (the 2024 edition changed Obscured to a discarded success)",
            "2021 reading: an Obscured operative is not a valid target",
        ),
    ],
    distances=DISTANCES,
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

    def only(self, *names: str) -> WeaponRules:
        """These rules with only the named ones kept (the others absent)."""
        return replace(WeaponRules(), **{n: getattr(self, n) for n in names})

    @property
    def multi_target(self) -> bool:
        return self.blast is not None or self.torrent is not None or self.fusillade


NO_RULES = WeaponRules()


def parse_distance(value: object, where: str) -> float:
    """Inches from a number, ``'2"'``, ``'2 in'`` or a shape name/symbol (the rule table's parser)."""
    return RULES.distance(value, where)


def parse_rules(items: list[str], where: str) -> WeaponRules:
    """Read special-rule texts into :class:`WeaponRules` through ``RULES.parse`` (unknown or
    malformed rules are errors naming the field and listing what is allowed)."""
    return WeaponRules(**RULES.parse(items, where))
