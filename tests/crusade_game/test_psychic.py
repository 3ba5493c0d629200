"""Psykers in the grid game (VII): mind war as calculate() has it, incursion and its Warp Spawn,
the psychic cards dealt, played and discarded, from the text's sentences."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import yaml

from grimdice.engine.game import CHANCE
from grimdice.errors import ScenarioError
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import CONDITIONS, KILLED, NONE, STUNNED, WOUNDED
from grimdice.systems.crusade.game import psychic
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import initial_state
from tests.crusade_game.helpers import MARINE, STEALER, at, scenario

HALL = "##########\n#A.......#\n#........#\n#.......B#\n##########"
LIBRARIAN = dict(copy.deepcopy(MARINE), name="Librarian", abilities=["NSB", "Psy-2", "HOOD"])
MAGUS = dict(copy.deepcopy(STEALER), name="Magus", abilities=["Psy-1"])
PROFILES = [MARINE, STEALER, LIBRARIAN, MAGUS]


def psy_scenario(deck=("CURSE", "HEAL", "SHIELD", "FLASH"), a=None, b=None, **kw):
    a = a or [at("Librarian", 1, 1), at("Marine", 1, 3)]
    b = b or [at("Magus", 8, 3), at("Stealer", 8, 1)]
    psy = {"player": 0, "deck": [c if isinstance(c, dict) else {"card": c} for c in deck]} if deck else None
    data = scenario(HALL, a, b, profiles=kw.pop("profiles", PROFILES), **kw)
    if psy:
        data["psychic"] = psy
    return data


def activate(s, i):
    """Activate model ``i``; the other player lets its card window pass."""
    s = s.apply(("activate", i))
    return s.apply(("pass",)) if s.psy is not None and s.psy.prompt else s


def cast(s, a, payer=None):
    """Play card ``a``; when asked which model spends its action (VII: "declare which model is
    spending the action"), ``payer`` (the psyker unless given)."""
    s = s.apply(a)
    if s.psy is not None and s.psy.prompt[:1] == ("pay",):
        s = s.apply(("pay", a[1] if payer is None else payer))
    return s


def dealt(data, order):
    """The state after the draws, the deck's cards drawn in ``order`` (deck indices)."""
    s = initial_state(build_setup(data))
    for k in order:
        assert s.pending == ("draw",)
        s = s.apply(("draw", k))
    return s


def test_a_card_per_psy_level_for_the_player_two_for_the_enemy():
    # VII: "Player Psykers draw 1 random card / psy level ... Enemy Psykers ... draw 2 random cards /
    # psy level": the Psy-2 librarian (player) 2 cards, the Psy-1 magus (enemy) 2 cards
    s = initial_state(build_setup(psy_scenario()))
    assert s.psy.draws == (0, 0, 1, 1)
    assert s.chance_outcomes() == [(("draw", k), 0.25) for k in range(4)]
    s = s.apply(("draw", 2))
    assert s.chance_outcomes() == [(("draw", k), pytest.approx(1 / 3)) for k in (0, 1, 3)]
    s = s.apply(("draw", 0)).apply(("draw", 3)).apply(("draw", 1))
    assert s.psy.hands == ((0, 2), (1, 3)) and s.psy.deck == () and not s.pending
    assert s.current_player() == 0 and s.legal_actions()[0] == ("activate", 0)


def test_a_deck_too_small_or_without_psykers_is_refused():
    with pytest.raises(ScenarioError, match=r"psychic\.deck"):
        build_setup(psy_scenario(deck=("CURSE", "HEAL", "SHIELD")))
    plain = psy_scenario(a=[at("Marine", 1, 1)], b=[at("Stealer", 8, 3)])
    with pytest.raises(ScenarioError, match="needs psykers"):
        build_setup(plain)
    with pytest.raises(ScenarioError, match=r"psychic\.deck\.0\.dice"):
        build_setup(psy_scenario(deck=({"card": "CURSE", "dice": "2D6"}, "HEAL", "SHIELD", "FLASH")))


def test_mind_war_equals_calculate():
    # VII MIND WAR: the game's chance node is the calculator's contest for the same situation
    s = activate(dealt(psy_scenario(deck=()), []), 0)
    assert ("mind", 2) in s.legal_actions()
    assert ("mind", 3) not in s.legal_actions()  # "You may NOT attack non-psykers"
    key = psychic.mind_situation(s, 0, 2)
    res = calculate(json.loads(key))
    law = psychic.mind_law(key)
    assert sum(p for _, p in law) == pytest.approx(1.0)
    for c, name in enumerate(CONDITIONS):
        assert sum(p for ((ds, *_), _), p in law if ds[0] == c) == pytest.approx(res.extra["end_state"][name])
    # INCURSION: both red dice at their maximum, 1/36 (the hood's re-roll never spoils a maximum)
    incursion = sum(p for (_, maxed), p in law if maxed)
    assert (
        incursion
        == pytest.approx(float(Fraction(1, 36)))
        == pytest.approx(res.extra["resolved"]["incursion"])
    )
    after = s.apply(("mind", 2))
    assert after.acted and after.current_player() == CHANCE  # "This counts as an attack action"
    assert [p for _, p in after.chance_outcomes()] == [p for _, p in law]


def test_mind_lance_reaches_sentient_non_psykers():
    # VII: "You may NOT attack non-psykers unless you have ... Mind Blast ... Mind Lance"; "You can
    # only attack sentient models in this way (not Necrons, Zombies, etc)"
    lancer = dict(LIBRARIAN, abilities=["NSB", "Psy-2", "MIND LANCE"])
    zombie = dict(STEALER, name="Zombie", abilities=["MINDLESS"])
    data = psy_scenario(
        deck=(),
        b=[at("Magus", 8, 3), at("Stealer", 8, 1), at("Zombie", 4, 3)],
        profiles=[MARINE, STEALER, lancer, MAGUS, zombie],
    )
    s = activate(dealt(data, []), 0)
    minds = [a for a in s.legal_actions() if a[0] == "mind"]
    assert minds == [("mind", 2), ("mind", 3)]
    res = calculate(json.loads(psychic.mind_situation(s, 0, 3)))
    law = psychic.mind_law(psychic.mind_situation(s, 0, 3))
    killed = sum(p for ((ds, *_), _), p in law if ds[0] == KILLED)
    assert killed == pytest.approx(res.extra["end_state"]["killed"])


def _incursion(s, i):
    return s.apply(("activate", i)).apply(("mind", 2 if i == 0 else 0))


def test_incursion_kills_and_a_warp_spawn_replaces_the_psyker():
    # VII INCURSION: "Treat the attack as a OO Mind War attack at range 0 vs. the Psyker, with no parry
    # allowed. If the Psyker is killed, replace the model with a Warp Spawn ... with a number of hits
    # equal to the original model's hits + 2."
    s = _incursion(dealt(psy_scenario(deck=()), []), 0)
    law = psychic.mind_law(s.pending[4])
    k = next(n for n, ((o, maxed), _) in enumerate(law) if maxed)
    s = s.apply(("attack", k))
    assert s.pending[:4] == ("attack", "incursion", 0, 0)
    res = calculate(json.loads(psychic.mind_situation(_incursion(dealt(psy_scenario(deck=()), []), 0), 0, 2)))
    ends = {c: 0.0 for c in CONDITIONS}
    for (ds, *_), p in cached_law(s.pending[4]):
        ends[CONDITIONS[ds[0]]] += p
    for c in CONDITIONS:
        assert ends[c] == pytest.approx(res.extra["resolved"]["incursion_psyker_end_state"][c])
    k = next(n for n, ((ds, *_), _) in enumerate(cached_law(s.pending[4])) if ds[0] == KILLED)
    after = s.apply(("attack", k))
    spawn = after.tokens[-1]
    assert after.tokens[0].cond == KILLED and len(after.tokens) == len(s.tokens) + 1
    assert spawn.sq == s.tokens[0].sq and spawn.side == 1  # reading warp_spawn: the opponent's
    profile = after.setup.profiles[spawn.profile]
    assert profile.name == "Warp Spawn (Librarian)" and spawn.hits == profile.hits == LIBRARIAN["hits"] + 2
    fx = after.setup.fighters[spawn.profile]
    assert "FERAL" in profile.abilities and any(a.fx.get("scythe") for a in fx.arms)
    assert after.setup.fighters[spawn.profile].melee.red + sum(a.pool.red for a in fx.arms) == 6


def test_enemy_psykers_discard_after_use_player_psykers_keep_their_cards():
    # VII: player psykers "may keep psychic cards for the duration of the game"; enemy psykers "must
    # discard cards after use"; "each card is only used once per turn"
    s = dealt(psy_scenario(), [0, 1, 2, 3])  # player: CURSE, HEAL; enemy: SHIELD, FLASH
    s = activate(s.with_token(1, cond=WOUNDED), 0)
    curse = ("cast", 0, 0, 2)
    assert curse in s.legal_actions()
    s = s.apply(curse)
    assert s.acted and s.current_player() == CHANCE
    s = s.apply(("card", 0, 0))
    assert s.psy.hands[0] == (0, 1) and s.psy.used == (0,)
    # a Psy-2 psyker plays its second card as the same action, but not the same card again
    casts = [a for a in s.legal_actions() if a[0] == "cast"]
    assert casts == [("cast", 0, 1, 1)]
    s = activate(s.apply(("end",)), 1).apply(("end",))
    assert s.player == 1 and s.psy.used == ()
    s = activate(s, 2)
    shield = ("cast", 2, 2, 2)
    assert shield in s.legal_actions()
    s = s.apply(shield).apply(("card", 0, 0))
    assert s.psy.hands[1] == (3,)


def test_a_card_played_in_the_enemy_turn_costs_an_action_next_turn():
    # VII: "Cards played during an enemy turn cost 1 action from the following turn"
    s = dealt(psy_scenario(), [0, 1, 2, 3])
    s = activate(s, 0)
    s = s.apply(("end",)).apply(("activate", 1))
    assert s.current_player() == 1 and s.psy.prompt == ("react", 1)  # the magus may play a card
    s = cast(s, ("cast", 2, 3, 1))  # FLASH at the marine
    assert not s.acted or s.active == 1
    s = s.apply(("card", 0, 0)).apply(("pass",))
    assert s.current_player() == 0 and 2 in s.psy.owed
    s = s.apply(("end",))
    s = activate(s, 2)
    assert s.acted and not any(a[0] in ("shoot", "melee", "mind", "extra") for a in s.legal_actions())
    assert any(a[0] == "move" for a in s.legal_actions())
    assert 2 not in s.psy.owed


def test_flash_costs_the_target_its_next_action_and_shield_adds_armour():
    s = dealt(psy_scenario(), [3, 2, 0, 1])  # player: FLASH, SHIELD
    s = activate(s, 0).apply(("cast", 0, 2, 1)).apply(("card", 1, 0))  # SHIELD the marine
    from grimdice.systems.crusade.game.situation import model_data

    assert model_data(s, s.tokens[1])["armor"] == MARINE["armour"] + 1
    s = s.apply(("cast", 0, 3, 3)).apply(("card", 1, 0))  # FLASH the stealer
    s = activate(activate(s.apply(("end",)), 1).apply(("end",)), 3)
    assert s.acted
    assert model_data(s, s.tokens[1])["armor"] == MARINE["armour"] + 1  # until the player's next turn


def test_a_killed_player_psyker_discards_cards_as_its_level():
    # VII: "If a player psyker is killed, you must choose and discard a number of cards equivelant to
    # his psy level."
    s = dealt(psy_scenario(), [0, 1, 2, 3])
    s = activate(activate(s, 0).apply(("end",)), 1).apply(("end",))
    s = activate(s, 3)
    s = s.with_token(0, cond=KILLED, hits=0)
    from grimdice.systems.crusade.game.rules import settle

    s = settle(s)
    assert s.psy.prompt == ("discard", 0, 2) and s.current_player() == 0
    assert s.legal_actions() == [("discard", 0), ("discard", 1)]
    s = s.apply(("discard", 1))
    assert s.psy.prompt == ("discard", 0, 1)
    s = s.apply(("discard", 0))
    assert s.psy.hands[0] == () and not s.psy.prompt and s.current_player() == 1


def test_heal_and_curse_follow_their_rolls():
    s = dealt(psy_scenario(), [0, 1, 2, 3])  # player: CURSE, HEAL
    s = activate(s.with_token(1, cond=WOUNDED), 0)
    healed = s.apply(("cast", 0, 1, 1))
    assert next(o for o, _ in healed.chance_outcomes())[:2] == ("card", 1)
    assert healed.apply(("card", 1, 0)).tokens[1].cond == NONE
    assert healed.apply(("card", 0, 0)).tokens[1].cond == WOUNDED
    cursed = s.apply(("cast", 0, 0, 3)).apply(("card", 1, 0))
    assert cursed.tokens[3].cond == STUNNED
    # CURSE's roll is the card's dice (2R, need 2) with the psychic hood's re-roll of one die
    from grimdice.systems.crusade.cards import card_roll

    law = dict(s.apply(("cast", 0, 0, 3)).chance_outcomes())
    assert sum(p for o, p in law.items() if o[1]) == pytest.approx(card_roll("2R", 2, hood=True)["success"])
    # INCURSION on a card ("when using any psychic power"): both red dice at 3, 1/36, always a success
    assert law[("card", 1, 1)] == pytest.approx(1 / 36) and ("card", 0, 1) not in law


def test_a_card_at_an_enemy_needs_line_of_sight():
    # VII MODIFIERS: "Any Psychic attack that directly affects an enemy model requires the caster to
    # have line of sight to the model affected."
    walled = "##########\n#A..#....#\n#...#....#\n#.......B#\n##########"
    data = psy_scenario()
    data["board"]["map"] = walled
    s = activate(dealt(data, [0, 1, 2, 3]), 0)
    assert not any(a[0] == "cast" and a[2] == 0 for a in s.legal_actions())
    assert ("cast", 0, 1, 1) not in s.legal_actions()  # HEAL: nobody hurt


@pytest.mark.parametrize(
    ("players", "seed"),
    [
        (("random", "random"), 0),
        (("random", "random"), 1),
        (("ai", "random"), 0),
        (("random", "ai"), 1),
        pytest.param(("ai", "ai"), 2, marks=pytest.mark.slow),
    ],
)
def test_games_with_psykers_keep_the_invariants_and_replay(players, seed):
    from grimdice.systems.crusade.game.play import play_game
    from grimdice.systems.crusade.game.replay import replay
    from grimdice.systems.crusade.game.state import invariant_errors

    setup = build_setup(yaml.safe_load(Path("examples/games/crusade-game-psykers.yaml").read_text()))
    log = play_game(setup, players, seed)
    again, states, problems = replay(json.loads(json.dumps(log)))
    assert problems == [] and again == log
    assert all(not invariant_errors(st) for st in states)
    assert sum(a[0] == "draw" for a in log["actions"]) == 2 * 1 + 1 * 2  # Psy-2 player, Psy-1 enemy


def test_play_with_psykers_is_the_same_game_on_each_run():
    from grimdice.systems.crusade.game.play import play_game

    data = psy_scenario()
    assert play_game(data, ("ai", "random"), 4) == play_game(data, ("ai", "random"), 4)


def test_a_model_cursed_in_its_own_activation_stops():
    # VIII STUN: a stunned model gets up in its next turn (the card window opens as it activates)
    s = dealt(psy_scenario(), [2, 3, 0, 1])  # the cult holds CURSE and HEAL
    s = activate(s, 0).apply(("end",))
    s = s.apply(("activate", 1))
    assert s.psy.prompt == ("react", 1)
    s = cast(s, ("cast", 2, 0, 1)).apply(("card", 1, 0))
    assert s.tokens[1].cond == STUNNED and s.active == -1 and s.tokens[1].done


def test_the_page_s_frames_of_a_game_with_psykers_match_its_log():
    from grimdice.systems.crusade.game.play import play_game
    from grimdice.web.crusade_frames import frames

    log = json.loads(json.dumps(play_game(psy_scenario(), ("random", "random"), 1)))
    f = frames(log)
    assert f["matches_log"]
    texts = [st["text"] for st in f["steps"]]
    assert any(" plays " in t and (t.endswith(": done") or t.endswith(": failed")) for t in texts)


def test_the_ai_makes_a_mind_war_when_it_pays():
    from grimdice.systems.crusade.ai.players import ai_player, mind_value

    seer = dict(LIBRARIAN, name="Seer", abilities=["Psy-3"], weapons=[])
    data = psy_scenario(deck=(), a=[at("Seer", 1, 1)], profiles=[*PROFILES, seer])
    s = activate(dealt(data, []), 0)
    assert ("mind", 1) in s.legal_actions() and mind_value(s, 0, 1) > 0
    assert ai_player(s, np.random.default_rng(0)) == ("mind", 1)


def test_mind_blast_rolls_at_each_sentient_model_under_its_template():
    # VII: "Mind Blast: FT, roll seperately for each target in the template" (reading
    # mind_blast_template): FT (8" long, 2.5" wide) from (1,1) towards (4,1) covers rows 0-2
    blaster = dict(LIBRARIAN, abilities=["NSB", "Psy-2", "MIND BLAST"])
    data = psy_scenario(
        deck=(),
        a=[at("Librarian", 1, 1), at("Marine", 3, 2)],
        b=[at("Magus", 8, 3), at("Stealer", 4, 1), at("Stealer", 7, 1)],
        profiles=[MARINE, STEALER, blaster, MAGUS],
    )
    s = activate(dealt(data, []), 0)
    assert ("mind", 3) in s.legal_actions()
    s = s.apply(("mind", 3))
    assert s.pending[:4] == ("attack", "blast", 0, 3) and s.pending[6] == ((1, 4), None)
    by_hand = {
        "system": "crusade",
        "action": "mindwar",
        "psychic_attack": "mind blast",
        "attacker": {k: v for k, v in blaster.items() if k != "move"},
        "defender": {"name": "unused"},
        "targets": [{**{k: v for k, v in STEALER.items() if k != "move"}, "range": 3}],
    }
    res = calculate(by_hand)
    law = psychic.mind_law(s.pending[4])
    killed = sum(p for ((ds, *_), _), p in law if ds[0] == KILLED)
    assert killed == pytest.approx(next(iter(res.targets.values())).extra["end_state"]["killed"])
    calm = next(k for k, ((_, maxed), _) in enumerate(law) if not maxed)
    s = s.apply(("attack", calm))
    assert s.pending[:4] == ("attack", "blast", 0, 1)  # the friend under the template, nearest next
    s = s.apply(("attack", next(k for k, ((_, m), _) in enumerate(psychic.mind_law(s.pending[4])) if m)))
    assert s.pending[:4] == ("attack", "blast", 0, 4)  # a later roll's maximum: no incursion yet
    s = s.apply(("attack", next(k for k, ((_, m), _) in enumerate(psychic.mind_law(s.pending[4])) if not m)))
    assert s.pending == ()  # the first roll was not at its maximum: no incursion
