"""Measure: how often the One Page 40k AI wins, the two bundled 750-point armies, both seatings.

Plays ``--games`` seeded games per seating (the AI as player 0, then as player 1; ``--armies
mixed``: player 0 has the marines and player 1 the orks, ``marines`` or ``orks``: both players have
that army), each on a table generated from the game's seed, and prints per
seating the AI's wins, draws and losses with 95 % Wilson intervals, the mean scores, and the total
over both seatings. The opponent is ``random`` (default), any player of ``grimdice play``, or
``baseline``: the AI of another commit (``--baseline REF``), read with ``git show`` into a
temporary package, so that an older AI plays against the current one in the same games without a
copy of it in the source tree (its phases must still exist in the current game; in the armies'
deployment, which older AIs did not choose, it places its units as the current AI does).

Run: ``python benchmarks/ai_strength.py --games 200 --workers 2`` (``--opponent baseline
--baseline REF`` for the AI of commit REF).
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from grimdice.engine.batch import game_seeds, wilson
from grimdice.engine.playing import play_game
from grimdice.engine.table.layout import generate_table
from grimdice.systems.onepage.game.cache import LawCache
from grimdice.systems.onepage.game.setup import Setup, load_army_side
from grimdice.systems.onepage.game.state import GameState

ROOT = Path(__file__).resolve().parents[1]
ARMIES = (ROOT / "examples/armies/onepage-marines-army.yaml", ROOT / "examples/armies/onepage-orks-army.yaml")
AI_PACKAGE = "grimdice.systems.onepage.ai"
BASELINE = "onepage_ai_baseline"
PAIRINGS = {"mixed": (0, 1), "marines": (0, 0), "orks": (1, 1)}  # indices into ARMIES

_players: dict[str, Callable[..., Any]] = {}
_armies: Any = None
_cache: dict[Any, Any] = LawCache()


def load_baseline(ref: str) -> Callable[..., Any]:
    """The ``ai`` player of commit ``ref`` as the package :data:`BASELINE` (its modules read from
    git, their imports of the AI package pointed at the copy)."""
    folder = Path(tempfile.mkdtemp(prefix="ai-baseline-")) / BASELINE
    folder.mkdir()
    package = f"src/{AI_PACKAGE.replace('.', '/')}"
    listed = ["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{ref}:{package}"]
    names = subprocess.run(listed, capture_output=True, text=True, check=True).stdout.split()
    for name in (n for n in names if n.endswith(".py")):  # every module the AI of REF had
        show = ["git", "-C", str(ROOT), "show", f"{ref}:{package}/{name}"]
        got = subprocess.run(show, capture_output=True, text=True, check=True)
        (folder / name).write_text(got.stdout.replace(AI_PACKAGE, BASELINE))
    sys.path.insert(0, str(folder.parent))
    return deploying_as_today(importlib.import_module(BASELINE).PLAYERS["ai"])


def deploying_as_today(old: Callable[..., Any]) -> Callable[..., Any]:
    """``old`` with today's AI choosing in the armies' deployment (players place their units one at
    a time, ``deployment.ARMY_PHASES``: an older AI may not know these phases), so that two AIs are
    compared on their play."""
    from grimdice.systems.onepage.ai import PLAYERS
    from grimdice.systems.onepage.game.deployment import ARMY_PHASES

    today = PLAYERS["ai"]

    def player(state: Any, rng: Any) -> Any:
        return (today if state.phase in ARMY_PHASES else old)(state, rng)

    return player


def one_game(job: tuple[int, int]) -> tuple[int, list[float]]:
    """(the AI's result: 1 win, 0 draw, -1 loss; the scores [AI, opponent]) of the game of seed
    ``job[1]`` with the AI seated as player ``job[0]`` (0: the marines)."""
    seat, seed = job
    setup = Setup(_armies, generate_table(seed % (2**32)), _cache)
    bots = [_players["ai"], _players["opponent"]] if seat == 0 else [_players["opponent"], _players["ai"]]
    end = play_game(GameState(setup), bots, seed, keep_states=False).end
    scores = end.returns()
    mine, theirs = scores[seat], scores[1 - seat]
    return (mine > theirs) - (mine < theirs), [mine, theirs]


def line(label: str, results: list[tuple[int, list[float]]]) -> str:
    n = len(results)
    counts = [sum(1 for r, _ in results if r == k) for k in (1, 0, -1)]
    lo, hi = wilson(counts[0], n)
    mean = [sum(s[i] for _, s in results) / n for i in (0, 1)]
    return (
        f"{label:<22} {n:>5} {counts[0]:>5} {counts[1]:>5} {counts[2]:>6} "
        f"{100 * counts[0] / n:6.1f} % ({100 * lo:.0f}-{100 * hi:.0f} %)   {mean[0]:6.1f}-{mean[1]:.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    global _armies
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per seating")
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--opponent", default="random", help="a player of grimdice play, or baseline")
    ap.add_argument("--baseline", default="main", help="the commit whose AI plays as baseline")
    ap.add_argument("--seat", type=int, choices=(0, 1), help="one seating only (0: the AI is player 0)")
    ap.add_argument(
        "--armies",
        choices=tuple(PAIRINGS),
        default="mixed",
        help="mixed: the marines against the orks; marines, orks: the army against itself",
    )
    args = ap.parse_args(argv)
    from grimdice.systems.onepage.ai import PLAYERS

    _players["ai"] = PLAYERS["ai"]
    _players["opponent"] = (
        load_baseline(args.baseline) if args.opponent == "baseline" else PLAYERS[args.opponent]
    )
    first, second = PAIRINGS[args.armies]
    _armies = (load_army_side(ARMIES[first]), load_army_side(ARMIES[second]))
    seats = (0, 1) if args.seat is None else (args.seat,)
    seeds = game_seeds(args.seed, args.games)
    jobs = [(seat, s) for seat in seats for s in seeds]
    if args.workers > 1:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            results = pool.map(one_game, jobs, chunksize=1)
    else:
        results = [one_game(j) for j in jobs]
    print(f"AI vs {args.opponent}, {args.armies} armies, seed {args.seed}, {args.games} games per seating")
    head = f"{'seating':<22} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6}"
    print(f"{head} {'AI win rate (95 %)':>22}   mean score")
    army = ("marines", "orks")
    names = {seat: f"AI {army[(first, second)[seat]]} as player {seat}" for seat in (0, 1)}
    for k, seat in enumerate(seats):
        print(line(names[seat], results[k * args.games : (k + 1) * args.games]))
    if len(seats) > 1:
        print(line("both", results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
