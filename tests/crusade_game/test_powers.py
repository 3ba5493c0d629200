"""The further psychic cards VII names, in the grid game: their range, sight and action rules from
the text's MODIFIERS sentences, their rolls as chance nodes (hand-computed fractions; white die
0,0,0,0,1,2 and red die 0,0,0,1,2,3), and their effects (ours)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from grimdice.engine.game import CHANCE
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import KILLED, NONE, STUNNED, WOUNDED
from grimdice.systems.crusade.game import powers
from grimdice.systems.crusade.game.scenario import CARD_NAMES, build_setup
from tests.crusade_game.helpers import MARINE, STEALER, at, scenario
from tests.crusade_game.test_psychic import cast, dealt

LONG = "\n".join(["#" * 21, "#" + "." * 19 + "#", "#" + "." * 19 + "#", "#" + "." * 19 + "#", "#" * 21])
SEER = dict(MARINE, name="Seer", abilities=["NSB", "Psy-2"])
GUNNER = {
    "name": "Gunner",
    "move": 4,
    "armour": 1,
    "hits": 1,
    "melee": "1W",
    "weapons": [
        {"name": "zapper", "dice": "1R", "kind": "ranged"},
        {"name": "blade", "dice": "1R", "kind": "melee"},
    ],
}
PROFILES = [MARINE, STEALER, SEER, GUNNER]


ROW, WALL = "#" + "." * 19 + "#", "#..#" + "." * 16 + "#"
WALLED = "\n".join(["#" * 21, WALL, WALL, ROW, "#" * 21])  # a wall at x = 3, open in the bottom row


def game(deck, a, b, board=LONG, **kw):
    """A game with the Psy-2 seer's force first and ``deck`` (each card 1R, need 1 unless given)."""
    data = scenario(board, a, b, profiles=kw.pop("profiles", PROFILES), **kw)
    data["psychic"] = {
        "player": 0,
        "deck": [c if isinstance(c, dict) else {"card": c, "dice": "1R", "need": 1} for c in deck],
    }
    return data


MAGUS = dict(GUNNER, name="Magus", abilities=["Psy-1"])


def duel(deck, seer=SEER, **kw):
    """The seer's force (``seer``'s profile at 1, 1) against a Psy-1 magus at 6, 1."""
    profiles = [MARINE, STEALER, seer, MAGUS]
    return game(deck, [at(seer["name"], 1, 1)], [at("Magus", 6, 1)], profiles=profiles, **kw)


def activate(s, i):
    s = s.apply(("activate", i))
    return s.apply(("pass",)) if s.psy is not None and s.psy.prompt else s


def law(s):
    return {o: Fraction(p).limit_denominator(10**6) for o, p in s.chance_outcomes()}


def test_every_card_the_text_names_is_a_kind_and_others_are_refused():
    assert set(CARD_NAMES) == {
        "HEAL", "SHIELD", "CURSE", "FLASH", "MIND LANCE", "TELEPORT", "CLAIRVOYANT", "FRENETIC", "INFERNO",
        "JINX", "JOSTLE", "OBFUSCATE", "PHASE", "PRECOGNANT", "PROJECTION", "PSYCHOMETRY", "TELEKENISIS",
        "TRIPPER",
    }  # fmt: skip
    data = game(["HEAL", "WARP STORM"], [at("Seer", 1, 1)], [at("Gunner", 18, 1)])
    with pytest.raises(ScenarioError) as err:
        build_setup(data)
    text = str(err.value)
    assert text.startswith("psychic.deck.1.card") and "'TRIPPER'" in text and "'PSYCHOMETRY'" in text


def test_tripper_applies_range_penalties_to_the_roll():
    # VII: "TRIPPER- Apply range penalties to the roll": 1R needing 1 is 1/2 near; at 12 squares (-1)
    # it needs a 2 or 3 on the red, 1/3; a 3 (1/6) is the incursion, a success either way
    near = activate(dealt(game(["TRIPPER", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 12, 1)]), [0, 1]), 0)
    far = activate(dealt(game(["TRIPPER", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 13, 1)]), [0, 1]), 0)
    assert law(near.apply(("cast", 0, 0, 1))) == {
        ("card", 1, 1): Fraction(1, 6),
        ("card", 1, 0): Fraction(1, 3),
        ("card", 0, 0): Fraction(1, 2),
    }
    assert law(far.apply(("cast", 0, 0, 1))) == {
        ("card", 1, 1): Fraction(1, 6),
        ("card", 1, 0): Fraction(1, 6),
        ("card", 0, 0): Fraction(2, 3),
    }
    # its effect (ours): the victim's next activation has half its move
    s = far.apply(("cast", 0, 0, 1)).apply(("card", 1, 0)).apply(("end",))
    assert s.player == 1
    assert s.apply(("activate", 1)).budget == GUNNER["move"] // 2


def test_frenetic_adds_half_a_move_for_one_turn():
    s = dealt(
        game(["FRENETIC", "HEAL"], [at("Seer", 1, 1), at("Marine", 1, 3)], [at("Gunner", 18, 1)]), [0, 1]
    )
    s = activate(s, 0).apply(("cast", 0, 0, 1)).apply(("card", 1, 0))
    assert s.acted  # VII: "All psy cards take 1 action to play"
    s = activate(s.apply(("end",)), 1)
    assert s.budget == MARINE["move"] + MARINE["move"] // 2


def test_phase_takes_no_action_and_needs_no_sight():
    # VII: "PHASE, TELEPORT- does not take an action to play"; PHASE (ours) passes through walls
    data = game(
        [{"card": "PHASE", "range": 3}, {"card": "TELEPORT", "range": 3}],
        [at("Seer", 1, 1)],
        [at("Gunner", 18, 1)],
        board=WALLED,
    )
    s = activate(dealt(data, [0, 1]), 0)
    casts = {a[1:] for a in s.legal_actions() if a[0] == "cast"}
    assert (0, 0, 4, 1) in casts and (0, 1, 4, 1) not in casts  # beyond the wall: PHASE only
    after = s.apply(("cast", 0, 0, 4, 1))
    assert after.tokens[0].sq[:2] == (4, 1) and not after.acted and not after.pending


def test_jinx_rolls_the_victim_s_weapon_at_it_with_the_range_penalty_to_the_victim():
    # VII: "JINX, JOSTLE- deduct range penalties from the weapon's roll vs. user if any, based on
    # distance to victim". The zapper's 1R at its own armour 1: a 2 is one point (a graze: stunned,
    # 1/6), a 3 two points (killed, 1/6); at 12 squares or more (-1) only the 3 grazes (1/6)
    def ends(x):
        s = activate(dealt(game(["JINX", "JOSTLE"], [at("Seer", 1, 1)], [at("Gunner", x, 1)]), [0, 1]), 0)
        s = s.apply(("cast", 0, 0, 1))
        assert s.current_player() == CHANCE and s.pending[:2] == ("attack", "jinx")
        out = {}
        for o, p in s.chance_outcomes():
            t = s.apply(o).tokens[1]
            out[t.cond] = out.get(t.cond, 0) + Fraction(p).limit_denominator(10**6)
        return out

    assert ends(12) == {NONE: Fraction(2, 3), STUNNED: Fraction(1, 6), KILLED: Fraction(1, 6)}
    assert ends(13) == {NONE: Fraction(5, 6), STUNNED: Fraction(1, 6)}


def test_jostle_rolls_the_victim_s_melee_weapon_and_needs_sight():
    s = activate(
        dealt(game(["JOSTLE", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 5, 1)], board=WALLED), [0, 1]), 0
    )
    assert not any(a[0] == "cast" and a[2] == 0 for a in s.legal_actions())  # no sight through the wall
    s = activate(dealt(game(["JOSTLE", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 5, 1)]), [0, 1]), 0)
    assert s.apply(("cast", 0, 0, 1)).pending[5] == "blade"


def _held(deck=("PRECOGNANT", "HEAL"), seer=(1, 1), marine=(14, 1), gunner=(3, 3)):
    """The gunner's shot at the marine held for the seer's force's PRECOGNANT."""
    data = game(list(deck), [at("Seer", *seer), at("Marine", *marine)], [at("Gunner", *gunner)])
    s = dealt(data, [0, 1])
    s = activate(activate(s, 0).apply(("end",)), 1).apply(("end",))
    s = activate(s, 2).apply(("shoot", 1, "zapper"))
    return s


def test_precognant_is_played_at_a_declared_shot_with_the_range_to_the_farthest_victim():
    # VII: "PRECOGNANT- Range penalties are based on the distance to the farthest VICTIM of the enemy
    # attack, not the attacker": the marine 13 squares away (-1), the gunner 2: 1R needs 2 or 3, 1/3
    s = _held()
    assert s.psy.prompt == ("foresee", 0) and s.current_player() == 0 and not s.pending
    assert s.legal_actions() == [("pass",), ("cast", 0, 0, 1)]
    rolled = cast(s, ("cast", 0, 0, 1))
    assert law(rolled) == {
        ("card", 1, 1): Fraction(1, 6),
        ("card", 1, 0): Fraction(1, 6),
        ("card", 0, 0): Fraction(2, 3),
    }
    foreseen = rolled.apply(("card", 1, 0))  # ours: the shot is not made
    assert not foreseen.pending and foreseen.tokens[1].cond == NONE and foreseen.acted
    assert foreseen.current_player() == 1 and 0 in foreseen.psy.owed  # VII: an action next turn
    missed = rolled.apply(("card", 0, 0))
    assert missed.pending[:4] == ("attack", "shoot", 2, 1) and not missed.psy.prompt
    passed = s.apply(("pass",))
    assert passed.pending == missed.pending and 0 not in passed.psy.owed


def test_precognant_is_offered_only_when_held():
    s = _held(deck=("HEAL", "CURSE"))  # no card of a declared attack's moment in hand
    assert not s.psy.prompt and s.pending[:2] == ("attack", "shoot")


def test_inferno_in_the_enemy_turn_costs_an_action_unless_the_attack_harms_the_psyker():
    # VII: "INFERNO- You do not need to deduct an action from your next turn if you are actually
    # stunned, wounded or killed by the attack."
    data = game(["INFERNO", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 6, 1)])
    s = dealt(data, [0, 1])
    s = activate(s, 0).apply(("end",))
    s = s.apply(("activate", 1))
    assert s.psy.prompt == ("react", 0)
    s = s.apply(("cast", 0, 0, 1)).apply(("card", 0, 0)).apply(("pass",))
    assert 0 in s.psy.owed
    unharmed = activate(s.apply(("end",)), 0)
    assert unharmed.acted
    # harmed, but not by an attack of the model it was played at: still owed (more in test_inferno)
    wounded = activate(s.with_token(0, cond=WOUNDED).apply(("end",)), 0)
    assert wounded.acted


def test_inferno_wounds_and_combines_with_a_stun():
    # ours: a wound, as a graze (III: "Stun + Wound = either a Kill or a KO")
    s = activate(dealt(game(["INFERNO", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 6, 1)]), [0, 1]), 0)
    assert s.apply(("cast", 0, 0, 1)).apply(("card", 1, 0)).tokens[1].cond == WOUNDED
    stunned = s.with_token(1, cond=STUNNED).apply(("cast", 0, 0, 1)).apply(("card", 1, 0))
    assert stunned.tokens[1].cond == KILLED


def test_telekenisis_throws_the_target_away_or_stuns_it_against_a_wall():
    s = activate(dealt(game(["TELEKENISIS", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 6, 1)]), [0, 1]), 0)
    thrown = s.apply(("cast", 0, 0, 1)).apply(("card", 1, 0))
    assert thrown.tokens[1].sq[:2] == (7, 1) and thrown.tokens[1].cond == NONE
    s = activate(dealt(game(["TELEKENISIS", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 19, 1)]), [0, 1]), 0)
    walled = s.apply(("cast", 0, 0, 1)).apply(("card", 1, 0))
    assert walled.tokens[1].sq[:2] == (19, 1) and walled.tokens[1].cond == STUNNED


def test_obfuscate_s_roll_less_the_range_penalty_is_how_many_hide_seen_or_not():
    # VII: "OBFUSCATE- LOS is NOT required to the models that hide, but range penalties are deducted
    # from the roll for # that may hide": the marine behind the wall 14 squares away (-1) named as
    # the farthest; the seer (0 squares) may hide too. 1R less 1: red 0 or 1, none (2/3); red 2, one
    # (1/6); red 3, both (1/6, every die at its maximum: the incursion)
    data = game(
        ["OBFUSCATE", "HEAL"],
        [at("Seer", 1, 1), at("Marine", 15, 3), at("Marine", 16, 3)],
        [at("Gunner", 18, 1)],
        board=WALLED,
    )
    s = activate(dealt(data, [0, 1]), 0)
    assert not s.setup.board.sight(s.tokens[0].sq, s.tokens[1].sq, s.doors(), s.occupied())
    rolled = s.apply(("cast", 0, 0, 1))
    assert law(rolled) == {
        ("card", 0, 0): Fraction(2, 3),
        ("card", 1, 0): Fraction(1, 6),
        ("card", 2, 1): Fraction(1, 6),
    }
    one = rolled.apply(("card", 1, 0))
    assert [t.hidden for t in one.tokens[:3]] == [False, True, False]  # the named model first
    two = rolled.apply(("card", 2, 1))
    assert [t.hidden for t in two.tokens[:3]] == [True, True, False]  # then the nearest; not beyond
    assert two.pending[:2] == ("attack", "incursion")
    # a psychic hood re-rolls a red of 0 or 1 (it then hides 0.5 on average): none 4/6 * 4/6 = 4/9; one
    # 1/6 + 4/6 * 1/6 = 5/18; both 5/18 too, of which the first roll's 3 (the incursion) 1/6
    from grimdice.systems.crusade.game.obfuscate import count_law

    hooded = {k: Fraction(p).limit_denominator(10**6) for k, p in count_law("1R", 14, True, 2)}
    assert hooded == {
        (0, 0): Fraction(4, 9),
        (1, 0): Fraction(5, 18),
        (2, 0): Fraction(1, 9),
        (2, 1): Fraction(1, 6),
    }


def test_clairvoyant_reveals_a_blip_it_cannot_see_with_the_range_penalty_per_reveal():
    # VII: "CLAIRVOYANT- Deduct range penalties from the roll for each examination/ reveal"
    data = game(
        ["CLAIRVOYANT", "HEAL"],
        [at("Seer", 1, 1)],
        [at("Gunner", 18, 1)],
        board=WALLED,
        force_b={"blips": [{"at": [16, 3], "models": ["Stealer", "Stealer"]}]},
    )
    s = activate(dealt(data, [0, 1]), 0)
    assert not s.setup.board.sight(s.tokens[0].sq, s.tokens[2].sq, s.doors(), s.occupied())
    assert ("cast", 0, 0, 2) in s.legal_actions()  # the blip (15 squares: -1)
    rolled = s.apply(("cast", 0, 0, 2))
    assert sum(p for o, p in law(rolled).items() if o[1]) == Fraction(1, 3)
    seen = rolled.apply(("card", 1, 0))
    assert not seen.tokens[2].blip and len(seen.tokens) == 4


def test_psychometry_is_played_by_the_psyker_that_finds_the_blip_with_its_action():
    # VII: "PSYCHOMETRY- the psyker that finds the blip must spend an action to play the card"
    data = game(
        ["PSYCHOMETRY", "HEAL"],
        [at("Seer", 1, 1), at("Marine", 1, 3)],
        [at("Gunner", 18, 1)],
        force_b={"blips": [{"at": [4, 1], "models": ["Stealer"]}, {"at": [12, 3], "models": ["Stealer"]}]},
    )
    s = activate(dealt(data, [0, 1]), 0)
    assert not any(a[0] == "cast" and a[2] == 0 for a in s.legal_actions())  # nothing found yet
    s = s.apply(("move", 2, 1)).apply(("move", 3, 1))  # adjacent to the first blip: found
    assert not s.tokens[3].blip
    assert [a for a in s.legal_actions() if a[0] == "cast" and a[2] == 0] == [("cast", 0, 0, 4)]
    s = s.apply(("cast", 0, 0, 4))
    assert s.acted
    assert not s.apply(("card", 1, 0)).tokens[4].blip


def test_projection_makes_one_ghost_beside_its_creator_that_may_be_dissipated():
    # VII: "PROJECTION: May only create 1 ghost at a time. Ghost starts adjacent to creator and may
    # move during the creator's turn. May "dissipate" ghost at any time ... Range has no effect"
    data = game(
        [{"card": "PROJECTION", "dice": "1R", "need": 2}, "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 18, 1)]
    )
    s = activate(dealt(data, [0, 1]), 0)
    rolled = s.apply(("cast", 0, 0, 0))
    assert sum(p for o, p in law(rolled).items() if o[1]) == Fraction(1, 3)  # a 2 or 3: no penalty
    s = rolled.apply(("card", 1, 0))
    ghost = s.tokens[2]
    assert ghost.side == 0 and s.setup.board.adjacent(s.tokens[0].sq, ghost.sq, s.doors())
    assert s.setup.profiles[ghost.profile].name == "Ghost (Seer)" and powers.ghost_of(s, 0) == 2
    assert ("dissipate", 2) in s.legal_actions()
    s = s.apply(("end",))
    assert ("activate", 2) in s.legal_actions()  # it moves in its creator's turn
    assert powers.targets(s, 0, "PROJECTION", 6) == []  # "only create 1 ghost at a time"
    gone = activate(s, 2).apply(("dissipate", 2))
    assert gone.tokens[2].cond == KILLED and powers.ghost_of(gone, 0) == -1


def test_a_force_left_with_a_ghost_only_is_out_of_action():
    from grimdice.systems.crusade.game.rules import out_of_action

    data = game(["PROJECTION", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 18, 1)])
    s = activate(dealt(data, [0, 1]), 0).apply(("cast", 0, 0, 0)).apply(("card", 1, 0))
    assert not out_of_action(s, 0)
    assert out_of_action(s.with_token(0, cond=KILLED, hits=0), 0)


def test_no_cards_in_infiltrate_s_round_zero_and_one_deal():
    # IX INFILTRATE: "During Blip games, you may take a free move at the start of the game": the
    # deck is drawn once, before round 0; no card is played in its free moves (reading infiltrate)
    scout = dict(SEER, name="Scout", abilities=["INFILTRATE", "Psy-1"])
    blips = {"blips": [{"at": [10, 3], "models": ["Stealer"]}]}
    data = duel(["CURSE", "HEAL", "SHIELD", "FLASH"], scout, force_b=blips, first="roll-off")
    s = dealt(data, [0, 1, 2])
    assert s.pending == ("first",)
    s = s.apply(("first", 0))
    assert s.round == 0 and not s.pending
    s = s.apply(("activate", 0))
    assert not s.psy.prompt and not any(a[0] == "cast" for a in s.legal_actions())
    s = s.apply(("end",))
    assert s.round == 1 and not s.pending and s.psy.deck == (3,)


@pytest.mark.parametrize(
    ("players", "seed"), [(("random", "random"), 3), (("ai", "random"), 1), (("random", "ai"), 2)]
)
def test_games_with_every_card_keep_the_invariants_and_replay(players, seed):
    from grimdice.systems.crusade.game.play import play_game
    from grimdice.systems.crusade.game.replay import replay
    from grimdice.systems.crusade.game.state import invariant_errors

    data = yaml.safe_load(Path("examples/games/crusade-game-psykers.yaml").read_text())
    data["psychic"]["deck"] = [{"card": c} for c in CARD_NAMES]
    for p in data["profiles"]:
        if p["name"] in ("Magus", "Librarian"):
            p["abilities"] = [a for a in p["abilities"] if not a.startswith("Psy")] + ["Psy-3"]
    log = play_game(build_setup(data), players, seed)
    again, states, problems = replay(json.loads(json.dumps(log)))
    assert problems == [] and again == log
    assert all(not invariant_errors(st) for st in states)


def test_the_ai_plays_precognant_when_the_shot_would_harm():
    from grimdice.systems.crusade.ai.players import ai_player

    s = _held(deck=({"card": "PRECOGNANT", "dice": "2W+1R", "need": 1}, "HEAL"), marine=(5, 1))
    assert ai_player(s, None) == ("cast", 0, 0, 1)


def test_phase_and_teleport_on_a_table_put_the_psyker_at_a_place_with_its_height():
    from tests.crusade_game.table_helpers import put, table, table_scenario

    data = table_scenario(table(), [put("Seer", 1, 1)], [put("Gunner", 10, 6)], profiles=PROFILES)
    data["psychic"] = {"player": 0, "deck": [{"card": "PHASE", "range": 3}, {"card": "TELEPORT", "range": 3}]}
    s = activate(dealt(data, [0, 1]), 0)
    for k in (0, 1):
        cast = next(a for a in s.legal_actions() if a[0] == "cast" and a[2] == k)
        assert len(cast) == 6  # x, y, z
        moved = s.apply(cast)
        assert moved.tokens[0].sq == tuple(cast[3:]) and not moved.acted


def test_a_psychic_hood_re_rolls_one_die_of_a_further_card():
    # VII MODIFIERS: "Models with Psychic hoods may reroll any 1 die for a die roll specified by a psy
    # card": 1R needing 2 (1/3) with a re-roll of a failing die: 1/3 + 2/3 * 1/3 = 5/9; INCURSION on
    # the first roll's 3: 1/6
    hooded = dict(SEER, abilities=["NSB", "Psy-2", "PSYCHIC HOOD"])
    data = game(
        [{"card": "TELEKENISIS", "dice": "1R", "need": 2}, "HEAL"],
        [at("Seer", 1, 1)],
        [at("Gunner", 6, 1)],
        profiles=[MARINE, STEALER, hooded, GUNNER],
    )
    s = activate(dealt(data, [0, 1]), 0).apply(("cast", 0, 0, 1))
    assert law(s) == {
        ("card", 1, 1): Fraction(1, 6),
        ("card", 1, 0): Fraction(7, 18),
        ("card", 0, 0): Fraction(4, 9),
    }


def test_precognant_at_a_melee_and_at_a_mind_war():
    # the enemy "attack" of PRECOGNANT's sentence: a melee (no snap fire here) or a mind war too
    data = game(["PRECOGNANT", "HEAL"], [at("Seer", 1, 1), at("Marine", 4, 1)], [at("Gunner", 5, 1)])
    s = activate(activate(dealt(data, [0, 1]), 0).apply(("end",)), 1).apply(("end",))
    s = activate(s, 2).apply(("melee", 1))
    assert s.psy.prompt == ("foresee", 0) and s.psy.held[:4] == ("attack", "melee", 2, 1)
    s = activate(dealt(duel(["PRECOGNANT", "HEAL", "SHIELD", "FLASH"]), [0, 1, 2, 3]), 0).apply(("end",))
    s = activate(s, 1).apply(("mind", 0))
    assert s.psy.prompt == ("foresee", 0) and s.psy.held[:4] == ("attack", "mind", 1, 0)
    assert s.apply(("cast", 0, 0, 0)).apply(("card", 1, 0)).pending == ()


def test_a_zoc_step_goes_on_after_a_precognant_that_brings_an_incursion():
    """VII PRECOGNANT played at a ZOC melee (V: the mover "may continue their move"), then INCURSION
    ("If you max out on all the dice rolled when using any psychic power"): once the incursion is
    fended off, the step that waited on the melee goes on (in this seeded bundled game the random
    mover's PRECOGNANT at the guard's ZOC melee maxes its dice)."""
    from grimdice.systems.crusade.game.play import play_game
    from grimdice.systems.crusade.game.replay import replay
    from grimdice.systems.crusade.game.state import invariant_errors

    data = yaml.safe_load(Path("examples/games/crusade-game-psykers.yaml").read_text())
    log = play_game(build_setup(data), ("random", "ai"), 1156546539)
    again, states, problems = replay(json.loads(json.dumps(log)))
    assert problems == [] and again == log and states[-1].ended
    waiting = [st for st in states if st.zoc and st.pending[:2] == ("attack", "incursion")]
    assert waiting, "the seed no longer reaches an incursion during a ZOC step"
    assert all(not invariant_errors(st) for st in states)
    for st in states:
        st.current_player()  # every state names who acts
