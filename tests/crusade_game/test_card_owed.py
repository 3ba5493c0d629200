"""VII CARDS: "Cards played during an enemy turn cost 1 action from the following turn (declare
which model is spending the action and mark them so you remember)." The player declares the model;
the mark is the game's (``Psy.owed``); the model marked takes no action in its next activation."""

from __future__ import annotations

import numpy as np

from grimdice.systems.crusade.ai.players import ai_player
from grimdice.systems.crusade.damage import NONE, STUNNED, WOUNDED
from tests.crusade_game.helpers import at
from tests.crusade_game.test_inferno import _declared, _missed
from tests.crusade_game.test_psychic import PROFILES, activate, dealt, psy_scenario

FLASH = ("cast", 2, 3, 1)  # the magus (token 2) plays FLASH at the marine (token 1)


def _window(**kw):
    """The marine's activation in the cult's (enemy) turn; the cult's card window is open."""
    s = dealt(psy_scenario(**kw), [0, 1, 2, 3])  # the librarian's force: CURSE, HEAL; the cult: SHIELD, FLASH
    s = activate(s, 0).apply(("end",)).apply(("activate", 1))
    assert s.psy.prompt == ("react", 1)
    return s


def _next_turn(s):
    """The marine's activation ended: the cult's turn, its models' next activation."""
    s = s.apply(("end",))
    assert s.player == 1 and s.active == -1
    return s


def test_the_player_declares_which_model_spends_the_action():
    s = _window().apply(FLASH)
    assert s.current_player() == 1 and s.legal_actions() == [("pay", 2), ("pay", 3)]  # magus, stealer
    s = s.apply(("pay", 3)).apply(("card", 0, 0)).apply(("pass",))
    assert s.psy.owed == frozenset({3}) and s.current_player() == 0  # marked, the marine goes on
    s = _next_turn(s)
    magus = activate(s, 2)
    assert not magus.acted and any(a[0] == "cast" for a in magus.legal_actions())  # its action kept
    stealer = activate(magus.apply(("end",)), 3)
    assert stealer.acted and 3 not in stealer.psy.owed  # "mark them": the stealer spends it
    assert not any(a[0] in ("shoot", "melee", "extra", "charge") for a in stealer.legal_actions())


def test_the_psyker_may_be_the_one_that_spends_it():
    s = _window().apply(FLASH).apply(("pay", 2)).apply(("card", 0, 0)).apply(("pass",))
    s = _next_turn(s)
    assert activate(s, 2).acted and not activate(s, 3).acted


def test_only_a_model_with_an_action_to_spend_is_offered():
    # a stunned model gets up with no action (VIII STUN): it has none to spend; one left: no question
    from grimdice.systems.crusade.game.owed import candidates

    s = _window().with_token(3, cond=STUNNED)
    assert candidates(s, 1) == [2]
    s = s.apply(FLASH)
    assert s.pending[0] == "card" and s.psy.owed == frozenset({2})


def test_a_second_card_of_the_same_psyker_is_the_same_action():
    # VII: "Models with more than 1 psy level may play 1 card per psy level, as a single action"
    magus = dict(PROFILES[3], abilities=["Psy-2"])
    deck = ("CURSE", "HEAL", "SHIELD", "FLASH", "CURSE", "HEAL")
    s = dealt(psy_scenario(deck, profiles=[*PROFILES[:3], magus]), range(6))  # the magus: 2 .. 5
    s = activate(s, 0).apply(("end",)).apply(("activate", 1))
    s = s.apply(FLASH).apply(("pay", 3)).apply(("card", 0, 0))
    assert s.psy.prompt == ("react", 1) and ("cast", 2, 4, 1) in s.legal_actions()
    s = s.apply(("cast", 2, 4, 1))  # CURSE: no second question, no second mark
    assert s.pending[0] == "card" and s.psy.owed == frozenset({3})


def test_the_ai_marks_the_model_whose_action_is_worth_least_and_random_picks_a_legal_one():
    # the magus beside the marines, the stealer far from them: the stealer's action is worth least
    s = _window(b=[at("Magus", 3, 2), at("Stealer", 8, 3)]).apply(FLASH)
    assert s.legal_actions() == [("pay", 2), ("pay", 3)]
    assert ai_player(s, np.random.default_rng(0)) == ("pay", 3)  # the stealer, farther from its goals
    for seed in range(8):
        assert s.random_action(np.random.default_rng(seed)) in s.legal_actions()


def test_inferno_spares_the_declared_model_when_the_attack_harms_the_psyker():
    # VII INFERNO: "You do not need to deduct an action from your next turn if you are actually
    # stunned, wounded or killed by the attack": the seer (0) plays it at the gunner's shot at it,
    # the marine (1) declared to spend the action
    s = _declared(["INFERNO", "HEAL"], target=0).apply(("cast", 0, 0, 2))
    assert s.legal_actions() == [("pay", 0), ("pay", 1)]
    s = _missed(s.apply(("pay", 1)))
    assert s.psy.owed == frozenset({1}) and s.pending[:4] == ("attack", "shoot", 2, 0)
    ends = s.chance_outcomes()
    wounded = s.apply(next(o for o, _ in ends if s.apply(o).tokens[0].cond == WOUNDED)).apply(("end",))
    unharmed = s.apply(next(o for o, _ in ends if s.apply(o).tokens[0].cond == NONE)).apply(("end",))
    assert not activate(wounded, 1).acted  # spared: the psyker was wounded by the attack
    assert activate(unharmed, 1).acted and not activate(unharmed, 0).acted  # the marine spends it


def test_a_marked_model_lost_before_its_activation_takes_the_mark_with_it():
    # reading card_payer (the text is silent): the action is not moved to another model
    from grimdice.systems.crusade.damage import KILLED

    for lost in (KILLED, STUNNED):
        s = _window().apply(FLASH).apply(("pay", 3)).apply(("card", 0, 0)).apply(("pass",))
        s = _next_turn(s.with_token(3, cond=lost))
        magus = activate(s, 2)
        assert not magus.acted and any(a[0] == "cast" for a in magus.legal_actions())
