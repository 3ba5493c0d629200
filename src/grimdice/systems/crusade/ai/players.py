"""Players of the Rules Crusade game: a random legal player and a simple AI. The rules never
import this package.

The AI plays one step at a time from the exact attack laws (the game's ``combat``, cached by situation):
it attacks when an attack's expected harm to the enemy outweighs its own expected harm and fail
(so it shoots, focuses on the weakest target, and melees only when the contest favours it; a
psyker's mind war and MIND LANCE too, less the risk of an incursion), plays a card when its
expected effect is worth more than the best attack (HEAL a hurt friend, CURSE or FLASH an enemy,
SHIELD a friend in an enemy's sight, the further cards by :mod:`.powers`, a PRECOGNANT at an
enemy attack that would harm; on a table also brings a sector, barricade or catwalk down on
enemies in it or on it, dives and melees across a held ladder; fires two pistols, detonates,
latches on or mobs by :mod:`.abilities`' values), reloads, unjams or forces an entry
(on a table; its best attack) when it has no target, then steps (on a table climbing ladders, scrabbling
and IX CLIMB's climbs) towards its goal (its force's ``reach`` objectives, else the nearest enemy it
knows of), weighing where its move ends by the enemy shots it is exposed to there and the shots it
gains there (:mod:`.ground`: cover, darkness, heights), charges an enemy its move alone does not
reach when that melee is worth making, takes an extra move when nothing is in reach, and hides when
it can do nothing better and an enemy could shoot it; an artillery crew keeps within 1" of its
piece while that cover is worth having, and the piece keeps its place (:mod:`.crew`). On a table it
contests a ``hold`` objective as :mod:`.aim` says (through forced entries, at the enemies standing
on it).

It decides from its observation of the state only (``GameState.observation``): it does
not know what the enemy's blips hold nor which cards the enemy holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

import numpy as np

from grimdice.engine.playing import random_bot as random_player
from grimdice.systems.crusade.actions import collapse_law
from grimdice.systems.crusade.ai import aim, ground, objectives
from grimdice.systems.crusade.ai.abilities import ABILITY_ATTACKS, ability_value
from grimdice.systems.crusade.ai.powers import find_choice, foresee_choice, power_value
from grimdice.systems.crusade.ai.volleys import volley_value
from grimdice.systems.crusade.ai.worth import (
    CONDITION_VALUE,
    FAIL_VALUE,
    HIT_VALUE,
    INCURSION_VALUE,
    law_value,
    many_value,
)
from grimdice.systems.crusade.ai.worth import harm as _harm
from grimdice.systems.crusade.damage import Body, graze
from grimdice.systems.crusade.game import deck, dive, items, many, powers, psychic, ruin, situation
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.rules import targets_in_sight
from grimdice.systems.crusade.game.snap import snap_shot
from grimdice.systems.crusade.game.state import GameState
from grimdice.systems.crusade.game.table import TableBoard, key_piece, piece_key
from grimdice.systems.crusade.movement import falling

Player = Callable[[GameState, np.random.Generator], tuple[Any, ...]]

FLASH_VALUE = 0.2  # an enemy model's next action lost
SHIELD_VALUE = 0.05  # +1 armour for a turn, for a model an enemy sees


def attack_value(s: GameState, a: tuple[Any, ...]) -> float:
    """The expected harm an attack does to its target, less the attacker's own and his fails."""
    if a[0] in ABILITY_ATTACKS:  # IX TWO FISTED, DETONATE, LATCH ON, MOB
        return ability_value(s, a)
    if a[0] == "volley":  # IX VOLLEY FIRE
        return volley_value(s, a)
    i, j = s.active, int(a[1])
    if a[0] == "shoot":
        how, targets, key = many.plan(s, i, a)
        return many_value(s, i, targets, key) if how == "many" else law_value(s, i, j, key)
    if a[0] == "mind":
        return mind_value(s, i, j)
    if a[0] in STRUCTURE_ATTACKS:
        return structure_value(s, a)
    if a[0] == "dive":
        return dive_value(s, j)
    awkward = a[0] == "ladder_melee"  # V: a ladder held at its far end
    return law_value(s, i, j, situation.melee(s, i, j, len(s.meleed) + 1, awkward=awkward))


#: the attacks at a building's sector, a barricade or a catwalk (VI)
STRUCTURE_ATTACKS = ("shoot_sector", "melee_sector", "shoot_piece", "melee_piece")


def structure_value(s: GameState, a: tuple[Any, ...]) -> float:
    """An attack at a sector or a piece (VI): the chance it falls times the expected harm of its
    fall to the models in it or on it (enemies for, friends and the attacker against: a
    collapse's 2 reds, a catwalk's fall), less the attacker's own harm and its fails; 0 when no
    model is in it or on it (nothing to gain)."""
    i = s.active
    key = int(a[1]) if a[0].endswith("sector") else piece_key(int(a[1]))
    board = s.setup.board
    side = s.tokens[i].side
    harm = 0.0
    for t in s.tokens:
        if not t.on_board or t.blip:
            continue
        body = s.setup.fighters[t.profile].body
        start = (t.cond, t.hits)
        if key >= 0 and board.indoors(t.sq) == key:  # type: ignore[attr-defined]
            ends: Iterable[Any] = _collapse_ends(start, body, s.armour_of(t))
        elif key < 0 and t.sq[2] > 0 and t.sq[:2] in board.structures[key_piece(key)].cells:  # type: ignore[attr-defined]
            ends = [((falling(float(t.sq[2]), start, body, fly=body.fly), 0), 1.0)]
        else:
            continue
        harm += sum(q * _harm(start, end) for (end, _), q in ends) * (1.0 if t.side != side else -1.0)
    if not harm:
        return 0.0
    weapon = str(a[2]) if a[0].startswith("shoot") else ""
    law = cached_law(ruin.sector_melee(s, i, key) if not weapon else ruin.sector_shot(s, i, key, weapon))
    me = (s.tokens[i].cond, s.tokens[i].hits)
    down = sum(p for (ds, *_), p in law if ds[1] == 0)
    own = sum(p * (_harm(me, as_) + FAIL_VALUE * bool(wa)) for (_, as_, wa, *_), p in law)
    return down * harm - own


@lru_cache(maxsize=1024)
def _collapse_ends(start: tuple[int, int], body: Body, armour: int) -> tuple[Any, ...]:
    """A collapse's law on a model inside (VI: 2 reds, graze = W), its ends in the law's order."""
    return tuple(collapse_law(start, body, armour, "wound").items())


def _structure_key(a: tuple[Any, ...]) -> int:
    return int(a[1]) if a[0].endswith("sector") else piece_key(int(a[1]))


def _held_structures(s: GameState) -> set[int]:
    """The sectors with models inside and the pieces with models on them (their keys)."""
    board = s.setup.board
    if not isinstance(board, TableBoard):
        return set()
    pieces = _pieces_at(board)
    out = set()
    for t in s.tokens:
        if t.on_board and not t.blip:
            out.add(board.indoors(t.sq))
            if t.sq[2] > 0:
                out.update(pieces.get(t.sq[:2], ()))
    return out


@lru_cache(maxsize=16)
def _pieces_at(board: TableBoard) -> dict[tuple[int, ...], tuple[int, ...]]:
    """The keys of the pieces (barricades, catwalks) over each cell of the table."""
    out: dict[tuple[int, ...], list[int]] = {}
    for n, p in enumerate(board.structures):
        for cell in p.cells:
            out.setdefault(tuple(cell), []).append(piece_key(n))
    return {cell: tuple(keys) for cell, keys in out.items()}


def dive_value(s: GameState, j: int) -> float:
    """V DIVE ATTACK: the jump's chance times the dive melee's value, less the stun of a failure."""
    i = s.active
    start = dive.start(s, j)
    _, _, _, q, _, p = start.pending
    landed = replace(s.with_token(i, sq=tuple(q)), meleed=(*s.meleed, j))
    made = law_value(landed, i, j, situation.melee(landed, i, j, len(landed.meleed), "dive"))
    t = s.tokens[i]
    stunned = graze((t.cond, t.hits), "stun", s.setup.fighters[t.profile].body)
    return p * made - (1 - p) * _harm((t.cond, t.hits), stunned)


def mind_value(s: GameState, i: int, j: int) -> float:
    """:func:`attack_value` of psyker ``i``'s mind war (or mind lance) at ``j``, less its incursion;
    a mind blast's at each model under its template (enemies for, friends against)."""
    caught = psychic.blast_targets(s, i, j)
    if caught:
        keys = [psychic.mind_situation(s, i, k, lance=True) for k in caught]
        side = s.tokens[i].side
        value = sum(
            law_value(s, i, k, key) * (1.0 if s.tokens[k].side != side else -1.0)
            for k, key in zip(caught, keys, strict=True)
        )
        return value - INCURSION_VALUE * sum(p for (_, maxed), p in psychic.mind_law(keys[0]) if maxed)
    key = psychic.mind_situation(s, i, j)
    risk = sum(p for (_, maxed), p in psychic.mind_law(key) if maxed)
    return law_value(s, i, j, key) - INCURSION_VALUE * risk


def card_value(s: GameState, a: tuple[Any, ...]) -> float:
    """The expected worth of playing a card (ours, as the attacks' values): TELEPORT none."""
    i, k = int(a[1]), int(a[2])
    card = deck.cards_of(s.setup)[k].card
    if card in powers.KINDS:
        return power_value(s, a)
    if card == "TELEPORT":
        return 0.0
    j = int(a[3])
    if card == "MIND LANCE":
        return mind_value(s, i, j)
    ok, inc, _ = deck.card_chances(s, i, k, j)
    t = s.tokens[j]
    if card == "HEAL":
        gain = CONDITION_VALUE[t.cond] if t.cond else HIT_VALUE
    elif card == "CURSE":
        cond, _ = graze((t.cond, t.hits), "stun", s.setup.fighters[t.profile].body)
        gain = CONDITION_VALUE[cond] - CONDITION_VALUE[t.cond]
    elif card == "FLASH":
        gain = FLASH_VALUE
    else:
        foes = [e for e, u in enumerate(s.tokens) if u.side != t.side and u.standing and not u.blip]
        gain = SHIELD_VALUE * any(j in targets_in_sight(s, e) for e in foes)
    return ok * gain - INCURSION_VALUE * inc


def _value(s: GameState, a: tuple[Any, ...]) -> float:
    """The worth of a card, a forced entry (:func:`.aim.force_value`) or an attack."""
    if a[0] == "cast":
        return card_value(s, a)
    return aim.force_value(s, a) if a[0] == "force" else attack_value(s, a)


def _activation(s: GameState, actions: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """Activate first the model nearest its goal (it is most likely to attack or arrive)."""
    dist = aim.distances(s, objectives.goals(s, s.player))
    return min(actions, key=lambda a: dist.get(s.tokens[int(a[1])].sq, 10**6))


#: the actions of a model's own turn the AI weighs as attacks
ATTACKS = ("shoot", "melee", "mind", "cast", "dive", "ladder_melee", "force", "volley")


def ai_player(state: GameState, rng: np.random.Generator) -> tuple[Any, ...]:
    """The simple AI (see the module text), deciding from its observation of ``state``."""
    state = state.observation(state.current_player())
    actions = state.legal_actions()
    prompt = state.psy.prompt if state.psy is not None else ()
    if prompt or state.control:  # VII: keeps its cards for its own turn; IX CONTROL: it kills
        if prompt[:1] == ("foresee",):  # ... but a PRECOGNANT or SHIELD that pays
            return foresee_choice(state, actions)
        if prompt[:1] == ("find",):  # ... and a PSYCHOMETRY worth its action
            return find_choice(state, actions)
        if prompt[:1] == ("pay",):  # VII: the action a card of the enemy turn costs
            return _payer(state, actions)
        return actions[0]
    if actions[0][0] == "activate":
        return _activation(state, actions)
    if actions[0][0] == "place":  # IX INFILTRATE in a battle game: a hidden start near its goal
        return aim.placement(
            state, actions, aim.distances(state, objectives.goals(state, state.player, state.active))
        )
    answer = _answer(state, actions)
    if answer is not None:
        return answer
    for a in actions:  # V PICKING UP: its force's items
        if (
            a[0] == "pickup"
            and state.setup.scenario.objectives[items.item_objectives(state)[a[1]]].side == state.player
        ):
            return a
    carrying = items.carries(state, state.active)  # a carrier moves rather than fights
    kinds = (*ATTACKS, *STRUCTURE_ATTACKS, *ABILITY_ATTACKS)
    attacks = [] if carrying else [a for a in actions if a[0] in kinds]
    if any(a[0] in STRUCTURE_ATTACKS for a in attacks):  # VI: only one with models in or on it can pay
        held = _held_structures(state)
        attacks = [a for a in attacks if a[0] not in STRUCTURE_ATTACKS or _structure_key(a) in held]
    if attacks:
        values = [_value(state, a) for a in attacks]
        best = max(range(len(values)), key=values.__getitem__)  # the first best
        if values[best] > 0 and not aim.hurries(state, values[best], actions):
            return _shoot_or_step(state, actions, attacks[best], values[best])
    for a in actions:
        if a[0] in ("reload", "unjam", "force") and not carrying:
            # VI FORCE ENTRY on a table, into a sector its enemies hold: with its best attack
            return aim.best_force(state, actions) if a[0] == "force" else a
    where = objectives.where(state)
    return _stay(state, actions) if where is None else _move_on(state, actions, *where)


#: the steps the AI takes
STEPS = ("move", "open", "manhole", "ladder", "scrabble", "climb")


def _shoot_or_step(
    state: GameState, actions: list[tuple[Any, ...]], attack: tuple[Any, ...], value: float
) -> tuple[Any, ...]:
    """The attack worth ``value``; but a shot waits for a step first (to cover, into range, up
    to a height that sees over cover) when the step's position is worth more (:meth:`.ground.
    Ground.worth`, its better shot counted) than the shot now and then the best of its place and
    its steps without a shot."""
    where = None if attack[0] != "shoot" else objectives.where(state)
    if where is None or where[1]:
        return attack
    first = ground.step_first(
        state, aim.distances(state, where[0]), [a for a in actions if a[0] in STEPS], value
    )
    return attack if first is None else first


def _move_on(
    state: GameState, actions: list[tuple[Any, ...]], goals: list[Pos], crewed: bool
) -> tuple[Any, ...]:
    """A step (:func:`_best_step`); else (not a crew going to its piece) a charge towards
    ``goals``, a hide where an enemy could shoot it (:func:`_hides`), an extra move towards
    ``goals``; else it stays (:func:`_stay`)."""
    me = state.tokens[state.active]
    dist = aim.distances(state, goals)
    here = dist.get(me.sq, 10**6)
    steps = [a for a in actions if a[0] in STEPS]
    if steps:
        best_step = _best_step(state, dist, steps)
        if best_step is not None:
            return best_step
    if crewed:
        return _stay(state, actions)
    charged = _charge(state, actions)
    if charged is not None:
        return charged
    if _hides(state, actions):  # rather than an extra move out of its cover
        return ("hide",)
    if ("extra",) in actions and here > 1:
        return ("extra",)
    return _stay(state, actions)


def _charge(state: GameState, actions: list[tuple[Any, ...]]) -> tuple[Any, ...] | None:
    """V CHARGE: at the enemy it may charge whose melee is worth most, when that is worth making
    and out of reach of its move alone (else it walks there and melees)."""
    here = state.tokens[state.active].sq
    best: tuple[float, tuple[Any, ...]] | None = None
    for a in actions:
        if a[0] == "charge" and state.setup.board.range(here, state.tokens[int(a[1])].sq) > state.budget + 1:
            worth = attack_value(state, ("melee", int(a[1])))
            if worth > 0 and (best is None or worth > best[0]):
                best = (worth, a)
    return None if best is None else best[1]


def _payer(s: GameState, actions: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """VII: "declare which model is spending the action": the model whose action is worth least,
    the one farthest from its force's goals (the one it would activate last, :func:`_activation`)."""
    dist = aim.distances(s, objectives.goals(s, s.tokens[int(actions[0][1])].side))
    return max(actions, key=lambda a: (dist.get(s.tokens[int(a[1])].sq, 10**6), -int(a[1])))


def _answer(state: GameState, actions: list[tuple[Any, ...]]) -> tuple[Any, ...] | None:
    """The choice asked in the middle of another model's move or attack (snap fire, an ambush, a ZOC
    melee), or None when none is asked."""
    if state.snap:  # IX SNAP FIRE: the best pistol, when it does more harm than it risks
        i, j = state.snap[:2]
        shots = [(law_value(state, j, i, snap_shot(state, j, i, a[1])), a) for a in actions if a[0] == "snap"]
        top = max(shots, default=(0.0, ("pass",)))
        return top[1] if top[0] > 0 else ("pass",)
    if state.ambush and state.ambush[0] < 0:  # IX AMBUSH: it stays where it is
        return ("pass",)
    if state.ambush:  # IX AMBUSH: the best free attack, if any is worth it
        k = state.ambush[0]
        scored = [(_ambush_value(state, k, a), a) for a in actions if a[0] in ("shoot", "melee")]
        top = max(scored, default=(0.0, ("pass",)))
        return top[1] if top[0] > 0 else ("pass",)
    if state.zoc:  # V ZOC: the free melee when it favours the guard
        e = state.zoc[2][0]
        key = situation.melee(state, e, state.active, 1, mode="zoc")
        return ("zoc", e) if law_value(state, e, state.active, key) > 0 else ("pass",)
    return None


def _ambush_value(s: GameState, k: int, a: tuple[Any, ...]) -> float:
    """IX AMBUSH: the free attack's value (a shot at several models as :func:`many_value`)."""
    if a[0] == "melee":
        return law_value(s, k, a[1], situation.melee(s, k, a[1], 1))
    still = altered(s, moved=0)  # the ambusher has not moved
    if many.mode(s, k, a[2]) != "rapid_fire":  # "may not rapid fire": one shot at one target
        how, targets, key = many.plan(still, k, a)
        if how == "many":
            return many_value(s, k, targets, key)
    return law_value(s, k, a[1], situation.shot(still, k, a[1], a[2]))


def _best_step(s: GameState, dist: Mapping[Pos, int], steps: list[tuple[Any, ...]]) -> tuple[Any, ...] | None:
    """The step the active model takes (:func:`.ground.ways`): of its steps nearer its goal (``dist``) and
    those that end its move (:func:`.ground.ends_move`), the one to the position worth most
    (:meth:`.ground.Ground.worth`: its shots gained, less the enemy shots it is exposed to, less its
    steps from its goal), the first such. On its way (a step nearer that leaves it more move) it
    takes it; where its move ends, only when worth more than where it stands; else None."""
    ways, walking = ground.ways(s, dist, steps)
    if not ways:
        return None
    worth = ground.Ground(s, dist).worth
    values = [worth(tuple(int(v) for v in a[1:])) for a in ways]
    top = max(range(len(ways)), key=values.__getitem__)  # the first best
    if walking or values[top] > worth(s.tokens[s.active].sq) + 1e-9:
        return ways[top]
    return None


def _hides(s: GameState, actions: list[tuple[Any, ...]]) -> bool:
    """V HIDING: whether it hides: it may, and an enemy could shoot it where it stands in the
    enemy's next turn (II: "they may not be hidden")."""
    return ("hide",) in actions and ground.threat(s, s.tokens[s.active].sq) > 0


def _stay(s: GameState, actions: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """Stay where it stands: hide if it may and enemies could shoot it (:func:`_hides`), else end
    the activation."""
    return ("hide",) if _hides(s, actions) else _end(actions)


def _end(actions: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """End the activation, or (IX MINDLESS, which must attack) its first legal action."""
    return ("end",) if ("end",) in actions else actions[0]


PLAYERS: dict[str, Player] = {"random": random_player, "ai": ai_player}

__all__ = ["PLAYERS", "ai_player", "attack_value", "random_player"]
