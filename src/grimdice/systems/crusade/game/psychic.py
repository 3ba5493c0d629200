"""Psykers in a game (rules-crusade VII): MIND WAR at an enemy psyker in sight as the model's attack
action, Mind Lance and Mind Blast at non-psykers, and INCURSION with its Warp Spawn.

A mind war is the calculator's (``action: mindwar``, :mod:`grimdice.systems.crusade.melee`): its
chance node is the exact joint law of the contest's end and of the incursion (every die of the
psyker's first roll at its maximum, :func:`.combat.joint_law`), so a game's mind war is
``calculate()``'s for the same situation. The incursion's "OO Mind War attack at range 0 vs. the
Psyker, with no parry allowed" is the calculator's own construction, as a second chance node; a
psyker it kills is replaced by a Warp Spawn.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.damage import KILLED
from grimdice.systems.crusade.game.combat import Outcome, cached_law, joint_law
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.situation import model_data, range_key
from grimdice.systems.crusade.game.state import READY, GameState, Token, has_code
from grimdice.systems.crusade.profiles import Scenario

#: the attacks of a psyker's power (pending ``("attack", how, ...)``; JINX and JOSTLE: ``jinx``)
MIND = ("mind", "lance", "incursion", "blast", "jinx")


def level(s: GameState, t: Token) -> int:
    """VII, IX PSY: the model's Psy level (0: not a psyker; a blip is not)."""
    return 0 if t.blip else int(s.setup.fighters[t.profile].fx.get("psy") or 0)


def sentient(s: GameState, t: Token) -> bool:
    """VII: "You can only attack sentient models in this way (not Necrons, Zombies, etc)" (reading
    ``sentient``: MINDLESS models are not sentient)."""
    return not has_code(s.setup.profiles[t.profile].abilities, "MINDLESS")


def lancer(s: GameState, t: Token) -> bool:
    """VII: a psyker with Mind Blast or Mind Lance may attack non-psykers."""
    abilities = s.setup.profiles[t.profile].abilities
    return has_code(abilities, "MIND LANCE") or has_code(abilities, "MIND BLAST")


def blaster(s: GameState, t: Token) -> bool:
    """VII: a psyker with Mind Blast ("FT, roll seperately for each target in the template")."""
    return has_code(s.setup.profiles[t.profile].abilities, "MIND BLAST")


def blast_targets(s: GameState, i: int, j: int) -> tuple[int, ...]:
    """The sentient models under the FT template psyker ``i`` lays towards ``j``, ``j`` first
    (reading ``mind_blast_template``), or ``()`` when the template does not reach ``j``."""
    from grimdice.systems.crusade.game.many import template_reach

    if not blaster(s, s.tokens[i]) or not sentient(s, s.tokens[j]):
        return ()
    return tuple(k for k in template_reach(s, i, j, "FT") if sentient(s, s.tokens[k]))


def mind_targets(s: GameState, i: int, sight: list[int], lance: bool = False) -> list[int]:
    """VII MIND WAR: "A psyker may attack an enemy psyker in LOS"; non-psykers too with Mind Lance
    (or ``lance``: the MIND LANCE card) or, under its template, Mind Blast; sentient ones only."""
    me = s.tokens[i]
    if not level(s, me):
        return []
    lance = lance or has_code(s.setup.profiles[me.profile].abilities, "MIND LANCE")
    return [
        j
        for j in sight
        if level(s, s.tokens[j]) or (sentient(s, s.tokens[j]) and (lance or blast_targets(s, i, j)))
    ]


def mind_situation(s: GameState, i: int, j: int, lance: bool = False) -> str:
    """The calculator's scenario of psyker ``i``'s mind war (a mind lance at a non-psyker, or with
    ``lance``: a mind blast's roll at each target, as the calculator's) at ``j``, as JSON text:
    the attacker's range penalty from the range in squares (II, X)."""
    dfd = s.tokens[j]
    data = {
        "system": "crusade",
        "action": "mindwar",
        "psychic_attack": "mind war" if level(s, dfd) and not lance else "mind lance",
        "attacker": model_data(s, s.tokens[i]),
        "defender": model_data(s, dfd),
        "range": range_key(s.setup.board.range(s.tokens[i].sq, dfd.sq)),
    }
    return json.dumps(data, sort_keys=True)


def incursion_situation(s: GameState, i: int) -> str:
    """VII INCURSION: "Treat the attack as a OO Mind War attack at range 0 vs. the Psyker, with no
    parry allowed" (the calculator's construction: a Psy-2 attacker, reading ``incursion``)."""
    psyker = model_data(s, s.tokens[i])
    warp = {**psyker, "name": "warp", "abilities": ["Psy-2"], "weapons": []}
    warp.update(condition="unharmed", hits_left=psyker.get("hits", 1))
    data = {
        "system": "crusade",
        "action": "mindwar",
        "psychic_attack": "mind war",
        "attacker": warp,
        "defender": psyker,
        "range": 0,
        "parry": "never",
    }
    return json.dumps(data, sort_keys=True)


@lru_cache(maxsize=5_000)
def mind_law(situation: str) -> tuple[tuple[tuple[Outcome, bool], float], ...]:
    """The joint law of a mind war's end and its incursion, most likely first."""
    law = joint_law(Scenario.model_validate(json.loads(situation)))
    return tuple(sorted(law.items(), key=lambda kv: (-kv[1], repr(kv[0]))))


def declare(s: GameState, i: int, j: int, how: str = "mind", card: str = "") -> GameState:
    """Psyker ``i`` attacks ``j`` with its mind (its action, VII: "This counts as an attack action
    for the initiator"); V HIDING: attacking reveals it. With Mind Blast, a roll at each model under
    its template (:func:`blast_targets`), ``j`` first, one chance node each."""
    caught = blast_targets(s, i, j) if how == "mind" else ()
    s = altered(s.with_token(i, hidden=False), acted=True, attacked=True)
    if caught:
        return _blast(s, i, caught, None)
    return altered(s, pending=("attack", how, i, j, mind_situation(s, i, j), card))


def _blast(s: GameState, i: int, caught: tuple[int, ...], maxed: bool | None) -> GameState:
    """The mind blast's roll at ``caught[0]``, pending; ``maxed``: whether its first roll had every
    die at its maximum (None before it)."""
    k = caught[0]
    return altered(
        s, pending=("attack", "blast", i, k, mind_situation(s, i, k, lance=True), "", (caught[1:], maxed))
    )


def outcomes(s: GameState) -> list[tuple[tuple[Any, ...], float]]:
    """The chance outcomes of a pending mind attack or incursion."""
    if s.pending[1] in ("incursion", "jinx"):
        return [(("attack", k), p) for k, (_, p) in enumerate(cached_law(s.pending[4]))]
    return [(("attack", k), p) for k, (_, p) in enumerate(mind_law(s.pending[4]))]


def resolve(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    """Apply a mind attack's end (then an incursion, if every die was at its maximum) or an
    incursion's (then the Warp Spawn, if it killed the psyker)."""
    how, i, j, key = s.pending[1:5]
    k = int(outcome[1])
    if how in ("incursion", "jinx"):  # JINX, JOSTLE: the victim's weapon's roll vs. its user
        from grimdice.systems.crusade.game.deck import stunned_stops
        from grimdice.systems.crusade.game.powers import resume

        (ds, *_), _ = cached_law(key)[k]
        s = altered(s.with_token(j, cond=ds[0], hits=ds[1]), pending=())
        if how == "jinx":
            return resume(stunned_stops(s, j))
        return resume(spawn(s, j) if ds[0] == KILLED else s)
    ((ds, as_, *_), maxed), _ = mind_law(key)[k]
    rest, first = s.pending[6] if how == "blast" else ((), None)
    s = altered(s.with_token(j, cond=ds[0], hits=ds[1]).with_token(i, cond=as_[0], hits=as_[1]), pending=())
    if how == "blast":  # reading mind_blast_template: the first roll's incursion, after every roll
        maxed = maxed if first is None else first
        rest = tuple(n for n in rest if s.tokens[n].alive)
        if rest and s.tokens[i].alive:
            return _blast(s, i, rest, maxed)
    if how == "lance":  # a card: perhaps in the other player's card window, at the active model
        from grimdice.systems.crusade.game.deck import stunned_stops

        s = stunned_stops(s, j)
    return incursion(s, i) if maxed else s


def incursion(s: GameState, i: int) -> GameState:
    """VII INCURSION: "you must fend off an incursion from the warp" (a chance node)."""
    if not s.tokens[i].alive:
        return s
    return altered(s, pending=("attack", "incursion", i, i, incursion_situation(s, i), ""))


def spawn(s: GameState, i: int) -> GameState:
    """VII: "If the Psyker is killed, replace the model with a Warp Spawn ... with a number of hits
    equal to the original model's hits + 2" (reading ``warp_spawn``: it stands on the psyker's
    square and fights for the psyker's opponent)."""
    t = s.tokens[i]
    k = s.setup.spawn[t.profile]
    p = s.setup.profiles[k]
    beast = Token(1 - t.side, k, t.sq, hits=p.hits, arms=tuple(READY for _ in p.weapons))
    return altered(s, tokens=(*s.tokens, beast))


def spawn_profile(psyker: Any) -> dict[str, Any]:
    """VII: "Warp Spawn: (M6 A1 Melee OOOOOO W, Scythes, Feral)" with the psyker's hits + 2 (reading
    ``warp_spawn``: A1 is armour 1; O a red die; its melee 5 reds and a 1-red melee weapon with W
    and SCYTHE, so that its 6 reds graze to a wound and scythe)."""
    return {
        "name": f"Warp Spawn ({psyker.name})",
        "move": 6,
        "armour": 1,
        "hits": psyker.hits + 2,
        "melee": "5R",
        "abilities": ["FERAL", "W"],
        "weapons": [{"name": "warp claws", "dice": "1R", "kind": "melee", "effects": ["W", "SCYTHE"]}],
    }


def psychic_setup(setup: Any) -> Any:
    """The setup with a Warp Spawn profile for each psyker profile (VII INCURSION) and, with
    PROJECTION in the deck, a ghost profile (:func:`.powers.ghost_profile`), and its deck checked
    (:func:`.deck.check_deck`)."""
    from grimdice.systems.crusade.game.deck import cards_of, check_deck
    from grimdice.systems.crusade.game.powers import ghost_profile
    from grimdice.systems.crusade.game.scenario import Profile
    from grimdice.systems.crusade.units import fighter

    profiles, fighters = list(setup.profiles), list(setup.fighters)
    ghosts = any(c.card == "PROJECTION" for c in cards_of(setup))
    makers = [spawn_profile] + ([ghost_profile] if ghosts else [])
    made: list[list[int]] = [[] for _ in makers]
    for i, f in enumerate(setup.fighters):
        for n, make in enumerate(makers):
            if not f.fx.get("psy"):
                made[n].append(-1)
                continue
            p = Profile.model_validate(make(setup.profiles[i]))
            made[n].append(len(profiles))
            profiles.append(p)
            fighters.append(fighter(p, f"profiles.{i}"))
    ghost = tuple(made[1]) if len(made) > 1 else ()
    out = altered(
        setup, profiles=tuple(profiles), fighters=tuple(fighters), spawn=tuple(made[0]), ghost=ghost
    )
    check_deck(out)
    return out


__all__ = [
    "MIND",
    "blast_targets",
    "declare",
    "incursion",
    "level",
    "mind_law",
    "mind_situation",
    "mind_targets",
    "outcomes",
    "psychic_setup",
    "resolve",
    "spawn",
]
