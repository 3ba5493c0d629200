"""The enemy's reply: what a unit exposes where it ends a move (the AI's look one step ahead).

The AI is greedy for its own activation; this term makes it weigh what the enemy can do to the
unit next. The score is "the point value of all enemy units they completely destroyed, or that are
pinned", so the danger of a position is counted in the same points as the AI's own gains:

    c(v) = w(v) * share(v, u at p) * min(1, b(v, u at p) / m(u))
    exposure(u at p) = m(u) * (1 - product over enemy units v of (1 - c(v)))

* ``m(u)`` (:func:`stake`): the most the enemy can still take from ``u``, its points destroyed
  (with every model killed) less what its state already gives away. Each enemy's expected take is
  a share ``c(v)`` of that stake; the enemies act one after another on what the earlier ones left
  (each takes its share of the rest, as if independent), so the unit is never valued as losing
  more than it is worth, however many enemies reach it (it cannot be destroyed twice). One enemy
  alone gives ``w * b * share`` (``b`` at most ``m``); each further enemy adds to the exposure,
  less the more the others already take;

* ``b`` (:func:`reply_value`): ``max(0, shot, charge)``, what ``v`` takes from ``u`` if it picks
  it. ``shot``: the expected points the enemy scores on ``u`` (:func:`players.shot_value`: the
  exact shooting law, destroyed or pinned at :func:`players.pin_share`, plus attrition) when ``v``
  holds where it stands and fires at ``u`` standing at ``p`` (range, line of sight, cover,
  elevation, facing and arcs as the game's shooting reads them; 0 when ``u`` is not a valid target
  there); when that is 0 and ``u`` is within ``v``'s range plus its Walk, the shot ``v`` makes
  after a Walk straight at ``u`` (:func:`walked_to`: our approximation of the enemy's reach,
  terrain ignored). ``charge``: when ``v`` may assault ``u`` at ``p`` (in its Assault reach with a
  clear path, as :meth:`GameState.unit_actions` allows), the expected value of that melee to ``v``
  (:func:`players.melee_odds`: points it takes less points it gives away; a charge that favours
  ``u`` is no threat), in the situation of :func:`charge_key` (the strikers of a charge from
  :data:`CLOSE` away, our simplification);
* ``share`` (:func:`share`): how likely ``v`` is to pick ``u``. "The player activates one of his
  units ... and takes an action": each enemy unit shoots or charges one target, so its threat is
  shared among the units it could pick, in proportion to what each offers it,
  ``b(v, u) / (b(v, u) + sum of b(v, x) over u's other units x where they stand)``
  (:func:`rest_of`; our model of the enemy's choice, between a random player's and a greedy one's);
* ``w(v)``: 1 when ``v`` can still activate this round (it acts before ``u`` acts again, since ``u``
  has now activated), :data:`NEXT` when it has activated (or is Pinned and must idle) but a round
  remains, 0 otherwise.

The AI subtracts :data:`WEIGHT` x (exposure at the move's end - exposure where the unit stands)
from a Walk or Run's value (:func:`.choosing.choose`): a move that takes a unit out of the enemy's
guns gains, one into them loses (Hold: no change; an Assault at its block's end, its target left
out (:func:`.choosing.move_end`); a consolidation's moves are weighed as a Walk's, a disembarking
Walk from the transport). It adds
:data:`PROSPECT` x the change, from where the unit stands to the move's end, of what its next
activation offers: the best charge (:func:`prospect`), the best shot after a Walk
(:func:`shot_prospect`) and, for a transport, its passengers' best shots after disembarking
(:func:`carried`), so units close in on what they can hurt and transports carry their infantry
into range. Every value comes from the laws the AI already reads (the bounded law cache); nothing
here calls a new exact solver.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.frozen import replace
from grimdice.engine.table.blocks import EPS
from grimdice.systems.onepage.ai import frontage
from grimdice.systems.onepage.ai.odds import Odds
from grimdice.systems.onepage.game import facing, firing
from grimdice.systems.onepage.game.cache import LIMIT, recall
from grimdice.systems.onepage.game.places import shape_of
from grimdice.systems.onepage.movement import move_distance
from grimdice.systems.onepage.units import kept

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

WEIGHT = 0.5  # share of the exposure's change the AI subtracts from a move's value
PROSPECT = 0.5  # share of the change in its own best next charge the AI adds to a move's value
NEXT = 0.5  # weight of an enemy unit that acts only next round
MOVES = ("walk", "run", "consolidate", "disembark", "assault")  # the actions weighed at their end
CLOSE = 1.5  # the gap a charge is valued from (charge_key): a unit walks up before it charges


def reply_weight(state: GameState, v: int) -> float:
    """``w(v)`` of the module text: 1 when ``v`` activates (not Pinned) before the moving unit acts
    again, :data:`NEXT` when only next round, 0 when the game ends first."""
    from grimdice.systems.onepage.game.state import ROUNDS

    if not state.activated[v] and not state.units[v].pinned:
        return 1.0
    return NEXT if state.round < ROUNDS else 0.0


def placed_at(state: GameState, u: int, end: tuple[float, float] | None) -> GameState:
    """The state with ``u`` moved to ``end`` as a move records it (anchor rounded, a Vehicle turned)
    and acting now (so its pin counts as :func:`players.pin_share` says for a unit that has acted)."""
    if end is not None:
        dx, dy = end[0] - state.anchors[u][0], end[1] - state.anchors[u][1]
        state = facing.turned(state.moved(u, dx, dy), u, dx, dy)
    return replace(state, active=u)


def can_charge(state: GameState, v: int, u: int) -> bool:
    """``["assault", v, u]`` is legal for ``v`` as it stands (:meth:`GameState.unit_actions`)."""
    return in_reach(state, v, u) and has_path(state, v, u)


def in_reach(state: GameState, v: int, u: int) -> bool:
    """``v`` may move and ``u`` is within its Assault distance (the cheap part of :func:`can_charge`)."""
    if state.units[v].immobile or not state.on_table(v):
        return False
    return state.gap(u, v) <= move_distance(state.setup.units[v], "assault") + EPS


def has_path(state: GameState, v: int, u: int) -> bool:
    """``v``'s Assault on ``u`` has a clear path (and a Vehicle may make it): the rest of
    :func:`can_charge`, once :func:`in_reach` holds."""
    return state.charge_ok(v, u) and facing.charge_allowed(state, v, u)


def walked_to(state: GameState, v: int, u: int, gap: float, reach: float) -> tuple[float, float] | None:
    """Where ``v`` shoots ``u`` from after a Walk (our approximation of the enemy's reach): straight
    towards ``u``'s anchor by its Walk distance, stopping 1" short of ``u`` (the gap shrinks by
    at most the distance moved), terrain and other units ignored. ``None`` when ``v`` cannot move
    (Immobile, off the table) or ``u`` is beyond its longest range plus its Walk."""
    walk = move_distance(state.setup.units[v], "walk")
    if state.units[v].immobile or not state.on_table(v) or gap > reach + walk + EPS:
        return None
    (vx, vy), (ux, uy) = state.anchors[v], state.anchors[u]
    far = math.hypot(ux - vx, uy - vy)
    step = min(walk, max(0.0, gap - 1.0))
    if far <= EPS or step <= EPS:
        return None
    return round(vx + step * (ux - vx) / far, 3), round(vy + step * (uy - vy) / far, 3)


def charge_key(state: GameState, v: int, u: int) -> tuple[Any, ...]:
    """The melee key (:meth:`GameState.melee_key`) of ``v``'s charge on ``u``: heights and facing
    read where both stand, the strikers of both sides those of a charge made from :data:`CLOSE`
    away (:func:`strikers`: our simplification, so that a few laws serve every candidate)."""
    hv, hu = state.height(v), state.height(u)
    return (hv > hu + EPS, hu > hv + EPS, *strikers(state, v, u), facing.melee_facing(state, v, u))


def strikers(state: GameState, v: int, u: int) -> tuple[int, int]:
    """How many models of ``v`` and of ``u`` strike in ``v``'s charge on ``u`` when ``v``'s block
    starts :data:`CLOSE` from ``u`` (where a unit walks to before it charges), straight towards the
    closest model of ``u``: the AI's estimate (:func:`.frontage.strikers`: the spots around the
    target's models that the assaulting models reach, and the target's models within reach of them;
    the game places the models one by one when a charge happens). Kept in the game's geometry memo
    by what it reads: where every unit on the table stands (:meth:`GameState.standing`'s key:
    anchors, models alive, places) and the active unit's Assault (``charge``), not across games
    (the table is the setup's)."""
    from grimdice.systems.onepage.game.moving import assault_allowance, direct_vector

    def compute() -> tuple[int, int]:
        dx, dy = direct_vector(state, v, u)
        far = math.hypot(dx, dy)
        step = max(0.0, far - CLOSE) / far if far > EPS else 0.0
        setup, d = state.setup, state.models(u)
        ra, rd = float(setup.radii[v]), float(setup.radii[u])
        allowance = assault_allowance(state, v)
        pts, rp, _, _ = state.others(v, ignore=u)
        c = frontage.Imagined(
            starts=state.models(v) + np.array([dx * step, dy * step]),
            ra=ra,
            allowance=allowance,
            d=d,
            rd=rd,
            pts=pts,
            rp=rp,
            table=setup.table,
            flying=setup.units[v].has("flying"),
        )
        key = ("frontage", u, len(d), state.flip(u), ra, shape_of(state, u))  # its formation's layout
        shape = recall(setup, key, lambda: frontage.layout(d, rd, ra))
        return frontage.strikers(c, shape)

    return recall(state.setup, ("charge strikers", state.standing().key, state.charge, v, u), compute)


def reply_value(
    state: GameState, v: int, u: int, end: tuple[float, float] | None = None, shot: float | None = None
) -> float:
    """``max(0, shot(v -> u at end), charge(v -> u at end))`` of the module text, in ``state``
    (the state the moving unit stands in, :func:`placed_at`): what ``v`` takes from ``u`` if it
    picks ``u``. ``shot``: its :func:`reply_shot`, when already read."""
    from grimdice.systems.onepage.ai.players import melee_odds

    best = reply_shot(state, v, u, end) if shot is None else shot
    if in_reach(state, v, u):  # the path is checked only where the charge would count
        charge = melee_odds(state, v, u, charge_key(state, v, u))
        if charge > best and has_path(state, v, u):
            best = charge
    return best


def reply_shot(state: GameState, v: int, u: int, end: tuple[float, float] | None = None) -> float:
    """The shot part of :func:`reply_value`: ``max(0, shot(v -> u at end))``, where ``v`` holds, or
    after its Walk (:func:`walked_to`) when it has no shot where it stands."""
    from grimdice.systems.onepage.ai.players import shot_value

    best, reach = 0.0, state.weapon_range(v)
    if reach > 0:
        gap = state.gap(u, v, end)  # the AI's prefetched gap (a filter)
        if gap <= reach + EPS:
            best = shot_value(state, v, u, None, "hold")
        if best == 0.0 and (to := walked_to(state, v, u, gap, reach)) is not None:
            best = shot_value(state, v, u, to, "walk")
    return best


def rest_of(state: GameState, v: int, u: int) -> float:
    """The sum of :func:`reply_value` of enemy ``v`` over ``u``'s friendly units on the table other
    than ``u``, where they stand: what else ``v`` could pick (:func:`reply_here`)."""
    total = 0.0
    for w in state.standing().sides[state.setup.owner[u]]:
        if w != u:
            total += reply_here(state, v, w)
    return total


def reply_here(state: GameState, v: int, w: int) -> float:
    """:func:`reply_value` of enemy ``v`` on ``w`` where ``w`` stands, acting now (as
    :func:`placed_at` puts it): kept on the state (which is frozen), so that a unit's
    :func:`exposure` where it stands and the other units' :func:`rest_of` read each pair once."""
    table = kept(state, "_replies", LIMIT)
    x: float | None = table.get((v, w))
    if x is None:
        x = table[v, w] = reply_value(replace(state, active=w), v, w)
    return x


def share(value: float, rest: float) -> float:
    """How likely an enemy is to pick the unit it can take ``value`` from, when its other targets
    offer ``rest`` in all: in proportion to what each target offers (our model of the enemy's
    choice; 1 when the unit is its only target, 0 when it offers nothing)."""
    return value / (value + rest) if value > 0.0 else 0.0


def stake(state: GameState, u: int) -> float:
    """The most the enemy can still take from ``u`` (``m(u)`` of the module text), in the points
    the AI's values count (:func:`players.worth`): the unit destroyed ("the point value of all
    enemy units they completely destroyed, or that are pinned") less what its present state already
    gives away, pins at :func:`players.pin_share` and killed models at :func:`players.attrition`,
    as the enemy's shots and charges on it are valued."""
    from grimdice.systems.onepage.ai.players import attrition, pin_share, worth

    kill = attrition(state)
    whole = state.setup.units[u].cost * (1.0 + kill)  # destroyed: its points, every model killed
    return whole - worth(state.setup, u, state.units[u], pin_share(state, u), kill)


def exposure(
    state: GameState, u: int, end: tuple[float, float] | None = None, limit: float = math.inf, skip: int = -1
) -> float:
    """The expected points the enemy's next activations could take from ``u`` standing at ``end``
    (default: where it stands); see the module text: ``m(u) x (1 - product of (1 - c(v)))``, never
    more than the unit's :func:`stake`. The enemies are taken nearest first and the product stops
    once the exposure exceeds ``limit`` (every factor is at most 1: the partial exposure only grows,
    and is then already over ``limit``, which is all :func:`.choosing.choose` needs to know); at a
    move's end with a finite ``limit``, ``math.inf`` when the enemies' shots alone already put it over
    (:func:`.reply_bound.shots_exceed`: no charge valued). ``skip``: an enemy left out (the target of
    an Assault, whose reply is the melee's own)."""
    from grimdice.systems.onepage.ai.reply_bound import shots_exceed

    s = placed_at(state, u, end)
    most = stake(s, u)
    if most <= 0.0:
        return 0.0
    order = sorted(s.enemies(u), key=lambda v: state.gap(u, v, end))
    shots: dict[int, float] = {}  # each enemy's reply_shot, where read first (shots_exceed)
    if (
        end is not None
        and limit < math.inf
        and shots_exceed(state, s, (u, end, skip), order, (most, limit), shots)
    ):
        return math.inf
    if end is None:
        return taken(state, s, (u, skip, most), order, lambda v: reply_here(state, v, u), limit)[0]
    at = end
    return taken(state, s, (u, skip, most), order, lambda v: reply_value(s, v, u, at, shots.get(v)), limit)[0]


def taken(
    state: GameState,
    s: GameState,
    unit: tuple[int, int, float],
    order: list[int],
    reply: Callable[[int], float],
    limit: float,
) -> tuple[float, bool]:
    """:func:`exposure`'s product for ``unit`` ``(u, skip, most)`` (``s``: the state with ``u`` at its
    end; ``most``: its stake), each enemy of ``order`` in turn taking ``reply(v)``: ``m(u) x (1 -
    product of (1 - c(v)))`` and whether it went over ``limit`` (the product then stops)."""
    u, skip, most = unit
    kept_whole = 1.0  # the product of (1 - c(v)) so far: the share of the stake no enemy takes
    for v in order:
        w = reply_weight(s, v) if v != skip else 0.0
        if w == 0.0:
            continue
        best = reply(v)
        if best > 0.0:
            kept_whole *= 1.0 - w * share(best, rest_of(state, v, u)) * min(1.0, best / most)
        if most * (1.0 - kept_whole) > limit:
            return most * (1.0 - kept_whole), True
    return most * (1.0 - kept_whole), False


def charge_odds(state: GameState, u: int) -> Odds:
    """For each enemy ``t``, the expected value to ``u`` of charging it (:func:`players.melee_odds`,
    in the situation of :func:`charge_key` read where both stand now), where that is positive and
    ``t`` within a Run and an Assault of ``u`` (no move of this activation ends in reach of the
    others): what :func:`prospect` offers at each candidate end, each value computed when first
    read (:class:`.odds.Odds`). Empty in the last round (no activation of ``u`` is left after this
    one) or when ``u`` cannot move."""
    from grimdice.systems.onepage.ai.players import melee_odds
    from grimdice.systems.onepage.game.state import ROUNDS

    if state.round >= ROUNDS or state.units[u].immobile or not state.on_table(u):
        return Odds([], lambda t: 0.0)
    unit, s = state.setup.units[u], replace(state, active=u)
    far = move_distance(unit, "run") + move_distance(unit, "assault")
    near = [t for t in state.enemies(u) if state.gap(u, t) <= far + EPS]
    return Odds(near, lambda t: melee_odds(s, u, t, charge_key(s, u, t)))


def prospect(
    state: GameState, u: int, end: tuple[float, float] | None = None, odds: Odds | None = None
) -> float:
    """The expected value to ``u`` of the best charge it could make in its next activation from
    ``end`` (default: where it stands): the greatest of :func:`charge_odds` (``odds``, when already
    read) among the enemies within its Assault distance of ``end`` that do not charge it first there
    (:func:`strikes_first`); 0 when none is. Our
    approximations: the enemy is taken where it stands (it moves first), the melee's situation where
    both stand now, and the charge's path is not checked (a candidate's gaps are the AI's
    prefetched ones; checking every candidate's path cost more than the term's other parts)."""
    from grimdice.systems.onepage.ai.footing import charge_reach

    odds = charge_odds(state, u) if odds is None else odds
    full = move_distance(state.setup.units[u], "assault")
    reach, best = None, 0.0
    for t in odds.near:  # a charge valued only where the enemy is within reach of ``end``
        gap = state.gap(u, t, end)
        if gap > full + EPS:
            continue
        if reach is None:
            reach = charge_reach(state, u, end)  # the Walk from difficult terrain
        v = odds.value(t) if gap <= reach + EPS else 0.0
        if v > 0 and not strikes_first(state, u, t, end):
            best = max(best, v)
    return best


def strikes_first(state: GameState, u: int, t: int, end: tuple[float, float] | None) -> bool:
    """Whether enemy ``t`` acts before ``u`` acts again (:func:`reply_weight` 1) and may charge
    ``u`` at ``end`` (within its Assault distance; the path not checked) with odds in its favour
    (:func:`players.melee_odds` of :func:`charge_key` above 0): then ``u``'s own charge on ``t``
    from there is not counted in its :func:`prospect` (whoever ends a move within the other's reach
    is charged first; ``t``'s charge itself is in :func:`exposure`)."""
    from grimdice.systems.onepage.ai.players import melee_odds

    if reply_weight(state, t) < 1.0 or state.units[t].immobile or not state.on_table(t):
        return False
    if state.gap(u, t, end) > move_distance(state.setup.units[t], "assault") + EPS:
        return False
    favours = kept(state, "_favours", LIMIT)  # on the state (frozen)
    got = favours.get((t, u))
    if got is None:  # the same at every end: the charge is read where both stand
        got = favours[t, u] = melee_odds(state, t, u, charge_key(state, t, u)) > 0.0
    return got


def open_key(state: GameState, u: int, t: int, gap: float) -> tuple[Any, ...] | None:
    """The shot key (:meth:`GameState.shot_key`) of ``u`` shooting ``t`` after a Walk that closes
    ``gap`` (base to base) by its Walk distance: every model alive fires each ranged weapon whose
    range reaches, in the open (no cover, no elevation, in sight: our simplification of where the
    Walk ends); ``None`` when no weapon reaches."""
    unit, alive = state.setup.units[u], state.units[u].alive
    near = gap - move_distance(unit, "walk")
    counts: dict[str, int] = {}
    n = 0
    for g, k in zip(unit.groups, alive, strict=True):
        reach = [w for w in g.weapons if w.range is not None and near <= w.range + EPS]
        for w in reach:
            counts[w.name.lower()] = counts.get(w.name.lower(), 0) + k
        n += k if reach else 0
    if not n:
        return None
    off = firing.unusable(state, u, t, None, "walk")
    face = facing.hit_facing(state, u, t)
    return (tuple(sorted(counts.items())), n, False, False, "walk", face, off, False, True)


def shot_prospect(state: GameState, u: int, end: tuple[float, float] | None = None) -> float:
    """The expected value to ``u`` of the best shot it could make in its next activation after a
    Walk from ``end`` (default: where it stands): the greatest over the enemies of the exact
    shooting law of :func:`open_key` (:func:`players.value_of_shot`); 0 in the last round (no
    activation of ``u`` is left after this one) or when ``u`` cannot move. The mirror of
    :func:`exposure` for the unit's own guns: a move into range of what it can hurt gains. The
    key depends on ``end`` only through the weapons whose range reaches once the Walk closes the
    gap, so each enemy's value is read once per band of gaps (:func:`reach_bands`)."""
    if not shoots_next(state, u):
        return 0.0
    walk = move_distance(state.setup.units[u], "walk")
    best = 0.0
    for t, (cuts, values) in reach_bands(state, u).items():
        best = max(best, values[band_of(cuts, state.gap(u, t, end) - walk)])
    return best


def shoots_next(state: GameState, u: int) -> bool:
    """Whether :func:`shot_prospect` values a shot of ``u``: an activation of ``u`` is left after
    this one (not the last round), it can move and it has a ranged weapon."""
    from grimdice.systems.onepage.game.state import ROUNDS

    return not (state.round >= ROUNDS or state.units[u].immobile or state.weapon_range(u) <= 0)


def band_of(cuts: Sequence[float], near: float) -> int:
    """The band of gaps (:func:`reach_bands`) a gap of ``near`` falls in: past every cut its
    weapons of range ``cuts[band]`` miss."""
    band = 0
    while band < len(cuts) and near > cuts[band] + EPS:
        band += 1
    return band


def reach_bands(state: GameState, u: int) -> dict[int, tuple[list[float], list[float]]]:
    """For each enemy ``t``: the distinct ranges of ``u``'s ranged weapons, shortest first, and the
    value of :func:`open_key`'s shot in each band of gaps they cut (band ``i``: the weapons shorter
    than ``cuts[i]`` out of range; the last band: none in range, 0). Kept on the state (frozen)."""
    from grimdice.systems.onepage.ai.players import value_of_shot

    bands = kept(state, "_bands", LIMIT)
    got: dict[int, tuple[list[float], list[float]]] | None = bands.get(u)
    if got is None:
        unit = state.setup.units[u]
        walk = move_distance(unit, "walk")
        cuts = sorted({float(w.range) for g in unit.groups for w in g.weapons if w.range is not None})
        got = bands[u] = {}
        for t in state.enemies(u):
            values = []
            for c in cuts:
                key = open_key(state, u, t, c + walk)
                values.append(value_of_shot(state, u, t, key) if key is not None else 0.0)
            got[t] = (cuts, [*values, 0.0])
    return got


def carried(state: GameState, t: int, end: tuple[float, float] | None = None) -> float:
    """The sum over the units aboard transport ``t`` of their :func:`shot_prospect` with the
    transport at ``end`` (default: where it stands): a disembarking unit Walks from the transport's
    centre and may shoot, so a transport's move that carries its passengers into range gains."""
    from grimdice.systems.onepage.game.transport import aboard, from_hull

    total = 0.0
    for p in aboard(state, t) if state.place else ():
        out = from_hull(state, p, t)
        total += shot_prospect(out, p, end if end is not None else out.anchors[p])
    return total


def outlook(state: GameState, u: int, end: tuple[float, float] | None, odds: Odds) -> float:
    """What ``u``'s next activation offers from ``end``: :func:`prospect` (its best charge, from
    ``odds``) + :func:`shot_prospect` + :func:`carried` (a transport's passengers' shots)."""
    return prospect(state, u, end, odds) + shot_prospect(state, u, end) + carried(state, u, end)


__all__ = [
    "CLOSE",
    "MOVES",
    "NEXT",
    "PROSPECT",
    "WEIGHT",
    "band_of",
    "can_charge",
    "carried",
    "charge_key",
    "charge_odds",
    "exposure",
    "has_path",
    "in_reach",
    "open_key",
    "outlook",
    "placed_at",
    "prospect",
    "reach_bands",
    "reply_here",
    "reply_shot",
    "reply_value",
    "reply_weight",
    "rest_of",
    "share",
    "shoots_next",
    "shot_prospect",
    "stake",
    "strikers",
    "strikes_first",
    "taken",
    "walked_to",
]
