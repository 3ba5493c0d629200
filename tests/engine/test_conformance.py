"""Every game state class of the project passes the game layer's conformance check
(``engine.playing.conformance``: random playouts end, legal actions and chance laws are sound,
``apply`` leaves states unchanged, replays give equal states, JSON reads back equal); and the
check finds a class that breaks the contract."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.engine.playing import conformance, play_game, random_bot, replay_actions
from grimdice.systems.crusade.attack import build
from grimdice.systems.crusade.contest import root as contest_root
from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import initial_state
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.killteam.fight import Duel
from grimdice.systems.killteam.fight.game import FightState
from grimdice.systems.onepage.game import GameState, make_setup
from grimdice.systems.onepage.game.setup import load_army_side
from grimdice.systems.onepage.psyker import Casting
from tests.crusade.helpers import fight, model
from tests.killteam.helpers import fighter
from tests.killteam.shooting_game import Sequence, ShootingState
from tests.killteam.test_optimal_play import spec

ROOT = Path(__file__).resolve().parents[2]


def onepage_root() -> GameState:
    armies = [load_army_side(ROOT / f"examples/armies/onepage-{a}-army.yaml") for a in ("marines", "orks")]
    return GameState(make_setup(armies[0], armies[1], table_seed=3))


@pytest.mark.slow
def test_the_one_page_game_conforms_json_included() -> None:
    bad = conformance(
        [onepage_root()],
        seeds=(5,),
        to_json=lambda s: s.to_json(),
        from_json=lambda root, data: GameState.from_json(root.setup, data),
    )
    assert bad == []


def test_the_exact_engines_games_conform() -> None:
    duel = Duel(fighter("a", 5, 2, 3, 2, 3, balanced=True), fighter("d", 4, 2, 4, 2, 4, relentless=True))
    seq = Sequence((spec(dice=2, bs=3, normal=2, critical=3, df=2, sv=4, piercing=1),), 4, "damage", "damage")
    crusade = build(
        Scenario.model_validate(fight(model(melee="2W+1R", abilities=["R"]), model(melee="2W")))
    ).spec
    roots: list[Any] = [
        FightState.start(duel),
        ShootingState.start(seq),
        Casting(pool=4, needs=(2, 1), tough=3),
        contest_root(crusade),
    ]
    for r in roots:
        assert conformance([r], seeds=(0, 1, 2)) == [], type(r).__name__


@pytest.mark.parametrize("name", ["corridor", "sewers", "psykers"])
def test_the_crusade_grid_game_conforms(name: str) -> None:
    data = yaml.safe_load((ROOT / f"examples/games/crusade-game-{name}.yaml").read_text(encoding="utf-8"))
    assert conformance([initial_state(build_setup(data))], seeds=(0, 1)) == []


@dataclass(frozen=True)
class Leaky:
    """A game that breaks the contract: its chance law sums to 0.9."""

    step: int = 0

    def current_player(self) -> int:
        return TERMINAL if self.step >= 3 else CHANCE if self.step % 2 else 0

    def legal_actions(self) -> list[int]:
        return [0, 1]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.4)]

    def apply(self, a: int) -> Leaky:
        return Leaky(self.step + 1)

    def returns(self) -> list[float]:
        return [0.0]


def test_the_check_finds_a_broken_law_and_an_illegal_replay() -> None:
    assert any("sum to 0.9" in line for line in conformance([Leaky()], seeds=(0,)))
    game = play_game(Leaky(), [random_bot], 0)
    assert len(game.states) == 4 and game.end.current_player() == TERMINAL
    with pytest.raises(ValueError, match="step 0"):
        replay_actions(Leaky(), [7])


def test_the_same_seed_plays_the_same_game() -> None:
    root = onepage_root()  # one setup: the second game reuses the first one's exact laws
    a = play_game(root, [random_bot, random_bot], 11, keep_states=False)
    b = play_game(GameState(root.setup), [random_bot, random_bot], 11, keep_states=False)
    assert a.actions == b.actions


@dataclass(frozen=True)
class Drawing(Leaky):
    """A game whose own random draw returns an action that is not legal."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)]

    def apply(self, a: int) -> Drawing:
        return Drawing(self.step + 1)

    def random_action(self, rng: Any) -> int:
        return 1 if self.step == 0 else 7


def test_the_random_bot_uses_the_state_s_own_draw_and_the_check_verifies_it() -> None:
    rng = __import__("numpy").random.default_rng(0)
    assert random_bot(Drawing(0), rng) == 1  # the state's draw, not a uniform pick of [0, 1]
    assert random_bot(Drawing(2), rng) == 7
    bad = conformance([Drawing()], seeds=(0,))
    assert any("random_action drew 7" in line for line in bad)
    assert not any("drew 1" in line for line in bad)


@dataclass(frozen=True)
class Secret(Leaky):
    """A game with hidden information: the player sees ``secret`` as 0; its own draw plays the
    secret it is given, so the action shows which state the draw was made on."""

    secret: int = 5

    def current_player(self) -> int:
        return TERMINAL if self.step >= 2 else 0

    def apply(self, a: int) -> Secret:
        return Secret(self.step + 1, self.secret)

    def observation(self, player: int) -> Secret:
        return Secret(self.step, 0)

    def random_action(self, rng: Any) -> int:
        return self.secret


def test_every_bot_draws_from_the_player_s_observation() -> None:
    assert play_game(Secret(), [random_bot], 0).actions == [0, 0]  # the random bot's own draw
    seen: list[Any] = []
    game = play_game(Secret(), [lambda s, rng: seen.append(s) or 1], 0)
    assert game.actions == [1, 1] and seen == [Secret(0, 0), Secret(1, 0)]
    assert play_game(Leaky(), [random_bot], 0).actions[0] in (0, 1)  # no draw of its own: uniform
