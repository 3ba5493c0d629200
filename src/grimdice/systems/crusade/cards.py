"""Psychic cards (rules-crusade VII CARDS, MODIFIERS) as data with their checks.

The text names the cards and gives their range, line-of-sight and action rules, not their dice or
effects (those are on the cards themselves). What it gives is here: :data:`CARDS` (how range
penalties apply to each card's roll, whether it takes an action, its special rule), the drawing
and playing rules (:func:`cards_drawn`, :func:`check_play`, :func:`action_cost`,
:func:`discarded_on_death`), and :func:`card_roll`, the chance that dice a card names reach a number
after the card's range penalty (II: -1 per full foot), with the psychic hood's re-roll of any one
die played optimally, and the chance of an incursion ("If you max out on all the dice rolled when
using any psychic power ... you must fend off an incursion").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.rerolls_many import reroll_law
from grimdice.systems.crusade.rolls import parse_pool, total_law

#: how range penalties apply to a card's roll (VII MODIFIERS)
RANGE_RULES = {
    "roll": "range penalties are applied to the card's roll",
    "each_reveal": "range penalties are deducted from the roll for each examination / reveal",
    "victim_weapon": "range penalties (to the victim) are deducted from the weapon's roll vs. the user",
    "hiders": "range penalties are deducted from the roll for the number of models that may hide",
    "farthest_victim": "range penalties by the distance to the farthest victim of the enemy attack",
    "placement": "range penalties by the distance the shield is placed",
    "none": "range has no effect",
    "unstated": "the text gives no range rule (range penalties *may* apply)",
}


@dataclass(frozen=True)
class Card:
    """What VII says of one card."""

    name: str
    range_rule: str  # a key of RANGE_RULES
    action: str = "one"  # one (VII: "All psy cards take 1 action to play") | none | finder
    los: str = "target"  # target (LOS to an enemy model it directly affects) | not_for_hiders
    rule: str = ""


def _c(name: str, range_rule: str, **kw: str) -> Card:
    return Card(name, range_rule, **kw)


CARDS: dict[str, Card] = {
    c.name: c
    for c in (
        _c("CLAIRVOYANT", "each_reveal"),
        *(
            _c(n, "roll")
            for n in ("CURSE", "FRENETIC", "FLASH", "HEAL", "MIND LANCE", "TELEKENISIS", "TRIPPER")
        ),
        _c(
            "INFERNO",
            "unstated",
            rule="no action is deducted from the next turn if the psyker is actually stunned, wounded "
            "or killed by the attack",
        ),
        _c("JINX", "victim_weapon"),
        _c("JOSTLE", "victim_weapon"),
        _c("OBFUSCATE", "hiders", los="not_for_hiders", rule="LOS is not required to the models that hide"),
        _c("PHASE", "unstated", action="none"),
        _c("TELEPORT", "unstated", action="none"),
        _c("PRECOGNANT", "farthest_victim"),
        _c(
            "PROJECTION",
            "none",
            rule="one ghost at a time, starting adjacent to its creator and moving in his turn; may be "
            "dissipated at any time, else it lasts until killed",
        ),
        _c(
            "PSYCHOMETRY",
            "unstated",
            action="finder",
            rule="the psyker that finds the blip spends the action",
        ),
        _c("SHIELD", "placement"),
    )
}


def card(name: str, where: str = "card") -> Card:
    """The card named ``name`` (any case; ``TELEKINESIS`` as the text's ``TELEKENISIS``)."""
    key = str(name).strip().upper().replace("TELEKINESIS", "TELEKENISIS").replace("_", " ")
    if key not in CARDS:
        raise ScenarioError(where, f"unknown psychic card {name!r}; allowed: {', '.join(CARDS)}")
    return CARDS[key]


def range_penalty(name: str, distance: float) -> int:
    """II RANGE (-1 per full foot) where VII applies it to the card; 0 for PROJECTION ("Range has
    no effect on ghost"). ``distance`` is the one the card's rule names (victim, farthest victim,
    placement...)."""
    c = card(name)
    if isinstance(distance, bool) or not isinstance(distance, (int, float)) or not 0 <= distance <= 1000:
        raise ScenarioError("distance", f"a distance in inches from 0 to 1000, got {distance!r}")
    return 0 if c.range_rule == "none" else int(distance // 12)


def cards_drawn(level: int, side: str) -> int:
    """VII CARDS: "Player Psykers draw 1 random card / psy level ... Enemy Psykers ... draw 2 random
    cards / psy level"."""
    _level(level)
    if side not in ("player", "enemy"):
        raise ScenarioError("side", f"player or enemy, got {side!r}")
    return level * (1 if side == "player" else 2)


def discarded_on_death(level: int, side: str) -> int:
    """VII: "If a player psyker is killed, you must choose and discard a number of cards equivelant
    to his psy level" (enemy psykers discard every card after use anyway: 0 here)."""
    cards_drawn(level, side)
    return level if side == "player" else 0


def action_cost(name: str, *, enemy_turn: bool = False, harmed: bool = False) -> tuple[int, int]:
    """(actions now, actions taken from the psyker's following turn) to play one card. VII: "All psy
    cards take 1 action to play"; "Cards played during an enemy turn cost 1 action from the
    following turn"; PHASE, TELEPORT: "does not take an action to play"; PSYCHOMETRY: the finder
    spends it (counted here as the player's); INFERNO: nothing from the next turn if the psyker is
    ``harmed`` (actually stunned, wounded or killed by the attack)."""
    c = card(name)
    if c.action == "none":
        return 0, 0
    if enemy_turn:
        return 0, 0 if (c.name == "INFERNO" and harmed) else 1
    return 1, 0


def check_play(
    played: list[tuple[str, str]],
    levels: dict[str, int],
    *,
    los: list[bool | None] | None = None,
    side: str = "player",
    discarded: frozenset[str] = frozenset(),
) -> int:
    """Check one turn's cards: ``played`` is ``[(psyker, card), ...]``, ``levels`` each psyker's Psy
    level, ``los[i]`` whether the psyker of the i-th card sees the enemy model it directly affects
    (None: the card affects no enemy model). VII: each psyker plays at most his level of cards per
    turn, "as a single action"; "each card is only used once per turn"; "Any Psychic attack that
    directly affects an enemy model requires the caster to have line of sight" (OBFUSCATE: not to
    the models that hide); enemy psykers "must discard cards after use" (``discarded``: cards already used).
    Returns the actions spent this turn (one per psyker playing a card that takes an action)."""
    seen: set[str] = set()
    used: dict[str, int] = {}
    spends: set[str] = set()
    for i, (who, name) in enumerate(played):
        c = card(name, f"played.{i}")
        if who not in levels:
            raise ScenarioError(f"played.{i}", f"unknown psyker {who!r}; allowed: {', '.join(levels)}")
        _level(levels[who], f"levels.{who}")
        if c.name in seen:
            raise ScenarioError(
                f"played.{i}", f"{c.name} is played twice this turn (each card once per turn)"
            )
        if side == "enemy" and c.name in discarded:
            raise ScenarioError(f"played.{i}", f"{c.name} was used and discarded (enemy psykers discard)")
        seen.add(c.name)
        used[who] = used.get(who, 0) + 1
        if used[who] > levels[who]:
            raise ScenarioError(
                f"played.{i}", f"{who} plays {used[who]} cards; at most his Psy level ({levels[who]}) a turn"
            )
        if los is not None and i < len(los) and c.los == "target" and los[i] is False:
            raise ScenarioError(
                f"played.{i}", f"{c.name} affects an enemy model: the psyker needs line of sight"
            )
        if c.action == "one":
            spends.add(who)
    return len(spends)


def card_roll(
    dice: str, need: int, *, name: str = "CURSE", distance: float = 0, hood: bool = False
) -> dict[str, float]:
    """The chance that ``dice`` (as the card gives them) minus the card's range penalty reach
    ``need``; with a psychic ``hood`` ("may reroll any 1 die for a die roll specified by a psy
    card") the re-roll is played to maximise that chance. Also the chance
    of an incursion (every die of the roll at its maximum; the first roll, reading ``incursion``)."""
    pool = parse_pool(dice, "dice")
    penalty = range_penalty(name, distance)
    bonus = pool.plus - penalty
    if hood:

        def value(roll: tuple[int, int, bool]) -> np.ndarray:
            return np.array([float(roll[0] + bonus >= need), 0.0, 0.0, 0.0])

        law, _, _ = reroll_law(pool, True, (), value, 1)
        success = sum(p for (t, _, _), p in law.items() if t + bonus >= need)
    else:
        success = sum(p for (t, _), p in total_law(pool.white, pool.red).items() if t + bonus >= need)
    return {"success": success, "range_penalty": penalty, "incursion": (1 / 6) ** pool.n}


def _level(level: int, where: str = "level") -> None:
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 6:
        raise ScenarioError(where, f"a Psy level from 1 to 6, got {level!r}")


__all__ = [
    "CARDS",
    "RANGE_RULES",
    "Card",
    "action_cost",
    "card",
    "card_roll",
    "cards_drawn",
    "check_play",
    "discarded_on_death",
    "range_penalty",
]
