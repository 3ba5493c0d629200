"""IX VOLLEY FIRE in a game (optional: ``options: {volley_fire: [1]}``, the forces that volley, or
``true`` for both; battle games only).

IX: "VOLLEY FIRE: (Optional) In Battle games, you may speed up mass enemy attacks using this rule.
All troops equipped with basic weapons that roll only 2 whites (no pluses) are eligible for volley
fire. Declare which enemy models are participating in volley fire- they must have LOS and the same
declared range to all the targets. Eligible targets must fit under a 3" template. When firing the
volley, roll all of the white dice together in one big roll. For each die that rolls something, you
may reroll another one of the dice along with it to generate a "2 dice" roll. Then you may apply
the roll to any target within the declared range. You may reroll each die only once."

Readings of ours (``volley_fire`` and the calculator's ``volley_fire``, ``volley_targets``):

- The forces that volley: those ``options.volley_fire`` names (the text's "mass enemy attacks ...
  Declare which enemy models": the enemy's); ``true``, ours, lets both.

- A battle game is one without blips (reading ``infiltrate``); a scenario with blips may not turn
  the option on.
- A basic weapon: a ready ``ranged`` weapon (not a pistol or grenade) rolling exactly 2 whites, with
  no template, area, line, blast, split or rapid fire, BURN, KNOCKBACK, BARRAGE, ARTILLERY or
  re-roll (those are special weapons; the calculator refuses re-rolls at several targets).
- The active model declares the volley with its weapon (``["volley", weapon, n, *targets,
  *others]``, its action): the others are friendly models standing and not stunned, not chits, not
  yet activated this turn, not carrying an item, not FERAL or MINDLESS, holding a ready weapon of
  the same name and dice; their activation is spent on the volley, as a mob's members' (IX MOB).
  All of them see every target, and every firer's range to every target is in the same whole feet
  (II: the same range penalty): the declared range. One volley is offered per target in the active
  model's sight: that model and the enemy models nearest it that fit with it under the template, up
  to :data:`MAX_TARGETS`; with every friend that qualifies, nearest the target first, up to
  :data:`MAX_FIRERS` firers in all, at least two, as many as the calculator's exact bound on the
  volley's states takes (each target's states counted from its full hits, as the calculator counts
  them; fewer targets when it takes no friend with them all).
- "Fit under a 3" template": the targets lie within a 3 x 3 block of squares (X's hazard area,
  "the square they are in, plus all 8 adjacent squares", is 3" across; inches on a table, within 2"
  of height of each other).
- Targets: enemy models in sight, not hidden, not latched on or latched onto (IX LATCH ON), without
  JINK, a VOLATILE weapon, or an ability that reads a graze (DETONATE): the volley's law does not
  say which roll harmed them.
- The roll: the calculator's VOLLEY FIRE at those targets (``volley`` with ``targets``): the big
  roll, each die showing something paired with a blank one re-rolled once (reading
  ``volley_fire`` of the calculator: when the blanks run out the scoring dice pair with each
  other), each "2 dice" roll applied to the living target the firers choose (reading
  ``volley_targets``: pairing, order and aim maximising the kills), each target with its range and
  cover as from the declaring model (and its move, for SCOPE and SNIPER). A pair of two maxima fails
  one weapon, once (III: "If using combined fire, randomize which weapon fails"), whatever the
  number of such pairs: each firer's with chance 1/n (:func:`outcomes`), its EXPLODE or
  MALFUNCTION on that firer; every firer fired (VIII RELOAD: each RELOAD weapon unloaded).
"""

from __future__ import annotations

from functools import lru_cache
from math import prod
from typing import Any

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import CONDITIONS, NONE, WOUNDED
from grimdice.systems.crusade.game import items, many
from grimdice.systems.crusade.game.combat import reads_grazes
from grimdice.systems.crusade.game.fails import named_index, weapon_after, weapon_index
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import READY, GameState, has_code
from grimdice.systems.crusade.rolls import Pool
from grimdice.systems.crusade.volley_rerolls import MAX_VOLLEY_STATES, volley_states

MAX_TARGETS = 2  # ours: the targets of one volley
MAX_FIRERS = 4  # ours: the models of one volley (8 white dice)
TEMPLATE = 2  # "fit under a 3" template": at most 2 squares (inches) apart each way
FOOT = 12  # II: "Subtract 1 from the roll for every foot of distance"
#: the weapon effects that make a weapon special, not basic (ours)
SPECIAL = (
    "knockback",
    "burn",
    "barrage",
    "reroll",
    "area",
    "flamer",
    "line",
    "blast",
    "split_fire",
    "rapid_fire",
)
#: abilities that keep a model out of a volley's targets (the law does not carry what they read)
UNTARGETED = ("JINK", "LATCH ON")


def check(sc: Any) -> None:
    """``options.volley_fire``: ``true`` (every force), ``false``, or the forces that may volley
    (IX: "mass enemy attacks": the enemy's), each once; VOLLEY FIRE is for battle games: refused
    with blips."""
    on = sc.options.volley_fire
    if isinstance(on, list) and (len(set(on)) != len(on) or any(f not in (0, 1) for f in on)):
        raise ScenarioError(
            "options.volley_fire", f"true, false, or the forces that volley (0, 1, each once), got {on}"
        )
    if on and any(f.blips for f in sc.forces):
        raise ScenarioError(
            "options.volley_fire", "VOLLEY FIRE is for battle games (IX); this scenario has blips"
        )


def may_volley(sc: Any, side: int) -> bool:
    """Whether force ``side`` may declare volleys (``options.volley_fire``: ``true``, or a list
    naming it)."""
    on = sc.options.volley_fire
    return on is True or (isinstance(on, list) and side in on)


@lru_cache(maxsize=4096)
def basic(setup: Setup, profile: int, weapon: str) -> bool:
    """Whether ``weapon`` of ``profile`` is a basic weapon rolling only 2 whites (the first of that
    name, as :func:`.fails.weapon_index`)."""
    try:
        k = named_index(setup.profiles[profile], weapon)
    except ValueError:
        return False
    w, arm = setup.profiles[profile].weapons[k], setup.fighters[profile].arms[k]
    return (
        w.kind == "ranged"
        and arm.pool == Pool(white=2)
        and not any(arm.fx.get(f) for f in SPECIAL)
        and not has_code(w.effects, "ARTILLERY")
    )


def _ready(s: GameState, k: int, weapon: str) -> bool:
    t = s.tokens[k]
    return basic(s.setup, t.profile, weapon) and t.arms[weapon_index(s, k, weapon)] == READY


def _firer(s: GameState, k: int, weapon: str) -> bool:
    """A friend of the active model that may join its volley (see the module text)."""
    t, me = s.tokens[k], s.tokens[s.active]
    if k == s.active or t.side != me.side or t.blip or t.done or t.cond not in (NONE, WOUNDED):
        return False
    abilities = s.setup.profiles[t.profile].abilities
    if has_code(abilities, "FERAL") or has_code(abilities, "MINDLESS") or items.carries(s, k):
        return False
    return t.latch < 0 and _ready(s, k, weapon)


def _target(s: GameState, j: int) -> bool:
    t = s.tokens[j]
    p = s.setup.profiles[t.profile]
    if t.latch >= 0 or any(u.latch == j and u.alive for u in s.tokens):
        return False
    return not any(has_code(p.abilities, c) for c in UNTARGETED) and not (
        reads_grazes(*p.abilities) or any(has_code(w.effects, "VOLATILE") for w in p.weapons)
    )


def _fits(s: GameState, group: list[int]) -> bool:
    """The models of ``group`` fit under a 3" template (a 3 x 3 block; on a table within 2" of height)."""
    squares = [s.tokens[k].sq for k in group]
    return all(
        max(q[d] for q in squares) - min(q[d] for q in squares) <= TEMPLATE for d in range(len(squares[0]))
    )


def actions(s: GameState, i: int, weapon: str, sight: list[int]) -> list[tuple[Any, ...]]:
    """The volleys the active model ``i`` may declare with ``weapon`` at the enemies in ``sight``."""
    if not may_volley(s.setup.scenario, s.tokens[i].side) or not _ready(s, i, weapon):
        return []
    friends = [k for k in range(len(s.tokens)) if _firer(s, k, weapon)]
    if not friends:
        return []
    seen = (s.doors(), s.occupied())
    board, here = s.setup.board, s.tokens[i].sq
    band = {j: board.range(here, s.tokens[j].sq) // FOOT for j in sight}
    targets = [j for j in sight if _target(s, j)]
    out: dict[tuple[Any, ...], None] = {}
    for j in targets:
        near = sorted(
            (k for k in targets if k != j and band[k] == band[j]),
            key=lambda k: (board.range(s.tokens[j].sq, s.tokens[k].sq), k),
        )
        group = [j]
        for k in near:
            if len(group) < MAX_TARGETS and _fits(s, [*group, k]):
                group.append(k)
        while group and not (others := _firers(s, friends, group, band[j], seen)):
            group.pop()  # the volley's bound: fewer targets
        if group:
            out[("volley", weapon, len(group), *group, *others)] = None
    return list(out)


def _firers(
    s: GameState, friends: list[int], group: list[int], band: int, seen: tuple[Any, Any]
) -> list[int]:
    """The friends that see every target at the declared range (``seen``: the doors and the
    occupied squares), nearest the first target first, as many as the volley's bound lets in."""
    board, (doors, occ) = s.setup.board, seen
    first = s.tokens[group[0]].sq
    ok = [
        k
        for k in friends
        if all(
            board.sight(s.tokens[k].sq, s.tokens[j].sq, doors, occ)
            and board.range(s.tokens[k].sq, s.tokens[j].sq) // FOOT == band
            for j in group
        )
    ]
    ok.sort(key=lambda k: (board.range(s.tokens[k].sq, first), k))
    fighters = s.setup.fighters  # the calculator counts every target's states from its full hits
    states = prod(len(CONDITIONS) * (fighters[s.tokens[j].profile].body.hits + 1) for j in group)
    n = min(len(ok), MAX_FIRERS - 1)
    while n and _size(2 * (n + 1), states) > MAX_VOLLEY_STATES:
        n -= 1
    return ok[:n]


@lru_cache(maxsize=256)
def _size(dice: int, states: int) -> int:
    """The states the calculator's volley solves (:func:`.volley_rerolls.volley_states`)."""
    return volley_states(dice, states, rerolls=False)


def parts(a: tuple[Any, ...]) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """A volley action's weapon, targets and other firers."""
    n = int(a[2])
    return str(a[1]), tuple(int(v) for v in a[3 : 3 + n]), tuple(int(v) for v in a[3 + n :])


def start(s: GameState, a: tuple[Any, ...]) -> GameState:
    """Declare the volley: the firers' actions (the others' activations) spent, every firer revealed
    (V HIDING: "If you attack ... you will be Revealed"), the shot at several models pending
    (:func:`.resolve._resolve_many`: the states of the joint law, the declaring model's weapon
    failed once by a failed pair)."""
    weapon, targets, others = parts(a)
    i = s.active
    s = s.with_token(i, hidden=False)
    for k in others:
        s = s.with_token(k, hidden=False, done=True)
    key = many.shot(s, i, targets, weapon, volley=1 + len(others))
    pending = ("attack", "many", i, targets[0], key, weapon, targets, (), "volley", others)
    return altered(s, acted=True, attacked=True, pending=pending)


def firers(s: GameState) -> tuple[int, ...]:
    """The firers of the pending shot: a volley's, the declaring model first; else the shooter."""
    return (int(s.pending[2]), *s.pending[9]) if s.pending[8:9] == ("volley",) else (int(s.pending[2]),)


def outcomes(s: GameState) -> list[tuple[tuple[Any, ...], float]]:
    """The pending volley's chance outcomes: each end of its joint law, a failed one split among
    the firers (III: "If using combined fire, randomize which weapon fails"), ``("attack", k)`` or
    ``("attack", k, n)`` (the ``n``-th firer's weapon fails)."""
    n = len(firers(s))
    out: list[tuple[tuple[Any, ...], float]] = []
    for k, (end, p) in enumerate(many.cached_joint(s.pending[4])):
        if end[2] and n > 1:
            out += [(("attack", k, f), p / n) for f in range(n)]
        else:
            out.append((("attack", k), p))
    return out


def unload(after: GameState, s: GameState, outcome: tuple[Any, ...], failed: bool) -> tuple[GameState, int]:
    """Every firer's weapon after the shot (VIII RELOAD: "an action to reload for each shot", so
    each firer's RELOAD weapon is unloaded), the failing firer's failed (III; the declaring model
    unless ``outcome`` names another): the state and the failing firer."""
    weapon, j = str(s.pending[5]), int(s.pending[3])
    who = firers(s)
    bearer = who[int(outcome[2])] if len(outcome) > 2 else who[0]
    for k in who:
        wa = weapon if failed and k == bearer else ""
        after = after.with_token(k, arms=weapon_after(after, k, wa, weapon, j))
    return after, bearer


__all__ = [
    "MAX_FIRERS",
    "MAX_TARGETS",
    "actions",
    "basic",
    "check",
    "firers",
    "may_volley",
    "outcomes",
    "parts",
    "start",
    "unload",
]
