"""Playing any game of :mod:`grimdice.engine.game`: bots, seeded games, replays, and a conformance
check every game state class passes.

* A **bot** is ``bot(state, rng) -> action``: one of ``state.legal_actions()``, drawn with its own
  random stream; :func:`random_bot` is the random one. A state class may draw its random player's
  action itself: ``state.random_action(rng) -> action``, one of ``state.legal_actions()`` drawn
  with ``rng`` only (without necessarily listing them all, in a distribution the game documents);
  without that method the random bot is uniform over ``legal_actions()``. A bot is given the player's
  observation of the state (:func:`grimdice.engine.game.observe`), never hidden information.
* :func:`play_game` plays from a root state to the end. One seed is the whole game's randomness:
  ``SeedSequence(seed)`` spawns the chance stream first, then one stream per player, so the same
  seed gives the same game on any process, worker or cluster.
* :func:`replay_actions` rebuilds every state of a logged game from its actions (no dice), each
  action checked to be legal where it was taken.
* :func:`conformance` checks a game state class the way the game layer relies on it: random
  playouts end; decision states have legal actions and chance states outcomes whose
  probabilities sum to 1; ``apply`` leaves the state it is given unchanged (states are values);
  replaying the actions gives equal states; the player to move has the same legal actions in its
  observation, which it observes again unchanged; when the class has ``random_action``, every
  action it draws (those played, and one more draw at each decision state) is one of
  ``legal_actions()``; and, when the class has a JSON form, every state read back from its JSON
  is equal to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grimdice.engine.draws import Stream, pick
from grimdice.engine.game import CHANCE, TERMINAL, State, observe

Bot = Callable[[Any, np.random.Generator], Any]
MAX_STEPS = 1_000_000  # a game longer than this is taken as not ending


def random_bot(state: Any, rng: np.random.Generator) -> Any:
    """A random legal action: ``state.random_action(rng)`` when the state's class has that method
    (the game's own draw, which need not list every legal action: its distribution is the game's
    documented random player), else one of ``state.legal_actions()``, uniformly."""
    draw = getattr(state, "random_action", None)
    if draw is not None:
        return draw(rng)
    acts = state.legal_actions()
    return acts[int(rng.integers(len(acts)))]


def sample(outcomes: Sequence[tuple[Any, float]], rng: np.random.Generator) -> Any:
    """One chance outcome drawn with its probability (one uniform draw from ``rng``,
    :func:`grimdice.engine.draws.pick`)."""
    return pick(outcomes, rng)


def streams(seed: int, players: int) -> tuple[np.random.Generator, list[np.random.Generator]]:
    """(the chance stream, one stream per player) of a game's ``seed``: each a
    :class:`~grimdice.engine.draws.Stream`, which draws as ``np.random.default_rng`` of its seed."""
    chance_ss, *player_ss = np.random.SeedSequence(seed).spawn(1 + players)
    return Stream(np.random.PCG64(chance_ss)), [Stream(np.random.PCG64(s)) for s in player_ss]


@dataclass
class Game:
    """A game played: every action and chance outcome in order, and the states they led to
    (``states[i + 1]`` is ``states[i].apply(actions[i])``)."""

    states: list[Any] = field(default_factory=list)
    actions: list[Any] = field(default_factory=list)

    @property
    def end(self) -> Any:
        return self.states[-1]


def play_game(
    root: State,
    bots: Sequence[Bot],
    seed: int,
    on_step: Callable[[Any, Any, Any], None] | None = None,
    keep_states: bool = True,
) -> Game:
    """Play from ``root`` to the end, ``bots[p]`` choosing for player ``p`` (see the module text for
    the seed). ``on_step(state, action, next_state)`` is called after every step;
    ``keep_states=False`` keeps only the root and the end."""
    chance, rngs = streams(seed, len(bots))
    game = Game([root])
    state: Any = root
    kind: Any = None  # the class whose observation and random draw are looked up below
    record, keep = game.actions.append, game.states.append if keep_states else None
    for _ in range(MAX_STEPS):
        who = state.current_player()
        if who == TERMINAL:
            break
        if who == CHANCE:
            a = sample(state.chance_outcomes(), chance)
        else:
            if type(state) is not kind:  # looked up once per class, not at every step
                kind = type(state)
                see, draw = getattr(kind, "observation", None), getattr(kind, "random_action", None)
            seen = state if see is None else see(state, who)  # :func:`observe`
            bot = bots[who]
            if bot is random_bot and draw is not None and type(seen) is kind:
                a = draw(seen, rngs[who])  # what :func:`random_bot` draws, one call fewer
            else:
                a = bot(seen, rngs[who])
        nxt = state.apply(a)
        record(a)
        if on_step is not None:
            on_step(state, a, nxt)
        if keep is not None:
            keep(nxt)
        state = nxt
    else:
        raise RuntimeError(f"the game did not end within {MAX_STEPS} steps")
    if not keep_states:
        game.states.append(state)
    return game


class IllegalStep(ValueError):
    """A logged step that is not legal where it was taken: ``index`` names it."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(f"step {index}: {message}")
        self.index = index
        self.message = message


def replay_actions(root: State, actions: Sequence[Any]) -> list[Any]:
    """Every state of a logged game rebuilt from ``actions`` (no dice); raises :class:`IllegalStep`
    at the first action that is not legal (or not a chance outcome) where it was taken."""
    state: Any = root
    out = [state]
    for i, a in enumerate(actions):
        who = state.current_player()
        if who == TERMINAL:
            raise IllegalStep(i, "the game has already ended")
        legal = [o for o, _ in state.chance_outcomes()] if who == CHANCE else state.legal_actions()
        if a not in legal:
            raise IllegalStep(i, f"{a!r} is not a legal step here")
        try:
            state = state.apply(a)
        except (ValueError, IndexError, TypeError, KeyError) as exc:
            raise IllegalStep(i, f"not a legal step here: {exc}") from None
        out.append(state)
    return out


def conformance(
    roots: Sequence[State],
    seeds: Sequence[int] = (0, 1),
    to_json: Callable[[Any], Any] | None = None,
    from_json: Callable[[Any, Any], Any] | None = None,
    same: Callable[[Any, Any], bool] | None = None,
) -> list[str]:
    """What a game state class breaks of the game layer's contract (see the module text), over
    random playouts from each of ``roots`` with each of ``seeds``; empty when it conforms.

    ``to_json(state)`` and ``from_json(root, data)``: the class's JSON form, when it has one (the
    data passes through ``json.dumps``/``loads``); ``same(a, b)``: state equality (``==`` unless
    given)."""
    import json

    eq = same or (lambda a, b: a == b)
    bad: list[str] = []
    for r, root in enumerate(roots):
        for seed in seeds:
            where = f"root {r}, seed {seed}"
            game = play_game(root, [random_bot, random_bot, random_bot, random_bot], seed)
            for i, s in enumerate(game.states):
                who = s.current_player()
                if who == CHANCE:
                    total = sum(p for _, p in s.chance_outcomes())
                    if abs(total - 1.0) > 1e-9:
                        bad.append(f"{where}, state {i}: chance probabilities sum to {total}")
                elif who != TERMINAL and not s.legal_actions():
                    bad.append(f"{where}, state {i}: a decision state without legal actions")
                elif who != TERMINAL:
                    bad += _observation_errors(s, who, f"{where}, state {i}", eq)
                    extra = np.random.default_rng([seed, i])
                    bad += _draw_errors(s, game.actions[i], extra, f"{where}, state {i}")
                if to_json is not None and from_json is not None:
                    back = from_json(root, json.loads(json.dumps(to_json(s))))
                    if not eq(back, s):
                        bad.append(f"{where}, state {i}: its JSON reads back to another state")
            for i, (s, a) in enumerate(zip(game.states, game.actions, strict=False)):
                if not eq(s.apply(a), game.states[i + 1]):
                    bad.append(f"{where}, state {i}: apply gives another state the second time")
            try:
                again = replay_actions(root, game.actions)
            except IllegalStep as exc:
                bad.append(f"{where}: the replay of its actions stops: {exc}")
                continue
            if len(again) != len(game.states) or not all(
                eq(x, y) for x, y in zip(again, game.states, strict=True)
            ):
                bad.append(f"{where}: the replay of its actions gives other states")
    return bad


def _draw_errors(s: Any, played: Any, rng: np.random.Generator, where: str) -> list[str]:
    """The random player's own draw (``random_action``, when the class has it): the action played
    at decision state ``s`` and one more drawn there are both legal actions of ``s``."""
    draw = getattr(s, "random_action", None)
    if draw is None:
        return []
    legal = s.legal_actions()
    again = draw(rng)
    wrong = [a for a in (played, again) if a not in legal]
    return [f"{where}: random_action drew {a!r}, not a legal action" for a in wrong]


def _observation_errors(s: Any, who: int, where: str, eq: Callable[[Any, Any], bool]) -> list[str]:
    """The observation round trip: the player to move keeps its legal actions and its observation
    of its observation is the same."""
    seen = observe(s, who)
    bad = []
    if list(seen.legal_actions()) != list(s.legal_actions()):
        bad.append(f"{where}: the player's observation offers other actions")
    if not eq(observe(seen, who), seen):
        bad.append(f"{where}: the observation of the observation differs")
    return bad


__all__ = [
    "MAX_STEPS",
    "Bot",
    "Game",
    "IllegalStep",
    "conformance",
    "play_game",
    "random_bot",
    "replay_actions",
    "sample",
    "streams",
]
