"""VII CARDS in the psyker's own turn: "All psy cards take 1 action to play"; "Cards played during
an enemy turn cost 1 action from the following turn". A PRECOGNANT played at an enemy attack made
in its own turn (a ZOC melee, IX FOR ONE TURN: "may be played at any time") costs an action of
this turn (reading ``card_payer``): a model not yet activated, or the active model's unspent
action, spent at once; with none, the card is not offered."""

from __future__ import annotations

from grimdice.systems.crusade.damage import NONE
from tests.crusade_game.helpers import at
from tests.crusade_game.test_gaps import _seer_game
from tests.crusade_game.test_powers import activate

CARD = ("cast", 0, 0, 1)  # the seer (token 0) foresees the attack at the marine (token 1)


def _passing(seer_done: bool, shot_first: bool = False):
    """The marine (move 4) steps past the gunner, which takes its ZOC melee; the seer, its
    force's psyker, has been activated (and ended) first when ``seer_done``."""
    s = _seer_game([at("Seer", 1, 3), at("Marine", 2, 1)], [at("Gunner", 5, 2)])
    if seer_done:
        s = activate(s, 0).apply(("end",))
    s = activate(s, 1)
    if shot_first:  # its action spent on a shot at the gunner that leaves it standing
        s = s.apply(("shoot", 2, "bolter"))
        s = s.apply(next(o for o, _ in s.chance_outcomes() if s.apply(o).tokens[2].cond == NONE))
        assert s.acted and not s.pending
    s = s.apply(("move", 3, 1)).apply(("move", 4, 1)).apply(("move", 5, 1))
    return s.apply(("zoc", 2))


def _foreseen(s, payer: int = -1):
    s = s.apply(CARD)
    if payer >= 0:  # VII: "declare which model is spending the action"
        s = s.apply(("pay", payer))
    return s.apply(("card", 1, 0))  # the card's roll succeeds (no incursion)


def test_a_model_not_yet_activated_is_marked_and_spends_it_when_activated():
    s = _passing(seer_done=False)
    assert CARD in s.legal_actions()
    assert s.apply(CARD).legal_actions() == [("pay", 0), ("pay", 1)]  # the seer, or the marine now
    after = _foreseen(s, payer=0)
    assert after.psy.owed == frozenset({0}) and not after.acted  # the marine keeps its action
    seer = activate(after.apply(("end",)), 0)
    assert seer.acted and not seer.psy.owed  # "take 1 action": the seer's, this turn


def test_the_active_model_with_its_action_unspent_spends_it_at_once():
    s = _passing(seer_done=True)
    assert CARD in s.legal_actions()  # the seer activated: the marine's action is the one left
    after = _foreseen(s)  # one model to pay: no question
    assert after.acted and not after.psy.owed and after.active == 1
    assert not any(a[0] in ("shoot", "melee", "charge", "extra") for a in after.legal_actions())


def test_with_no_action_left_this_turn_the_card_is_not_offered():
    # the seer activated, the marine's action spent on its shot: no model can pay
    s = _passing(seer_done=True, shot_first=True)
    assert s.pending[:4] == ("attack", "zoc", 2, 1)  # no PRECOGNANT moment: the melee is rolled
    assert not s.psy.prompt
