"""Benchmark: how long grimdice takes at the edge of what it allows, and how fast it refuses
what it does not (the numbers in ``docs/limits.md``).

Each probe is run once in this process after a warm-up of its system (imports and caches
outside the timed region) and timed with ``time.perf_counter``; a probe still running after
``--cap`` seconds is stopped (SIGALRM) and reported as ``> cap``. The peer of every system's
probes is its bundled example, run in the same process: the ratio column is probe / peer.
Monte Carlo probes run ``--trials`` trials (default 1 000 000) and extrapolate linearly to
the allowed maximum of 10 000 000 (``--trials 10000000`` measures it).

Run: ``python benchmarks/limits.py`` (``--smoke`` for a quick check: small caps and trials).
"""

from __future__ import annotations

import argparse
import copy
import resource
import signal
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import yaml

from grimdice.dice.expr import parse
from grimdice.engine.heap import keep_arrays_on_heap
from grimdice.engine.options import MAX_TRIALS
from grimdice.errors import GrimdiceError
from grimdice.io.scenario import MAX_FILE_BYTES, load_scenario
from grimdice.systems.base import calculate

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class Capped(Exception):
    pass


def timed(fn: Callable[[], Any], cap: float) -> tuple[str, float]:
    """(outcome, seconds): ``ok``, ``refused: <message>``, or ``> cap``."""

    def _alarm(signum: int, frame: Any) -> None:
        raise Capped

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, cap)
    t0 = time.perf_counter()
    try:
        fn()
        outcome = "ok"
    except GrimdiceError as exc:
        outcome = f"refused: {exc}"
    except Capped:
        outcome = f"> {cap:g} s (stopped)"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return outcome, time.perf_counter() - t0


def example(name: str) -> dict[str, Any]:
    return yaml.safe_load((EXAMPLES / name).read_text())


def edit(data: dict[str, Any], **paths: Any) -> dict[str, Any]:
    """A copy of ``data`` with values set at dotted paths (``attacker__models__0__count=10``)."""
    out = copy.deepcopy(data)
    for path, value in paths.items():
        *head, last = [int(p) if p.isdigit() else p for p in path.split("__")]
        node: Any = out
        for p in head:
            node = node[p]
        node[last] = value
    return out


def input_probes(tmp: Path) -> list[tuple[str, Callable[[], Any]]]:
    ex = (EXAMPLES / "wh40k-intercessors-vs-boyz.yaml").read_text()
    big = tmp / "big.yaml"
    big.write_text(ex + "#" + "x" * (MAX_FILE_BYTES - len(ex.encode()) - 10) + "\n")
    over = tmp / "over.yaml"
    over.write_text(ex + "#" + "x" * MAX_FILE_BYTES + "\n")
    bomb = tmp / "bomb.yaml"
    lines = ["a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]"]
    lines += [
        f"{b}: &{b} [*{a},*{a},*{a},*{a},*{a},*{a},*{a},*{a},*{a}]"
        for a, b in zip("abcdefgh", "bcdefghi", strict=True)
    ]
    bomb.write_text("\n".join(lines) + "\nsystem: wh40k\ntitle: *i\n")
    deep = tmp / "deep.yaml"
    deep.write_text("a: " + "[" * 400_000 + "]" * 400_000)
    huge_title = edit(yaml.safe_load(ex), title="x" * 1_000_000)
    from grimdice.systems.onepage.game.setup import army_from_mapping

    tank = {"name": "Tank", "quality": 4, "equipment": ["Lascannon"], "special_rules": ["Vehicle"]}
    arcs = {f"Gun {i}": "front" for i in range(100_000)}
    many_arcs = {"kind": "army", "system": "onepage", "units": [dict(tank, arcs=arcs)]}
    return [
        ("a One Page Vehicle with 100 000 weapon arcs", lambda: army_from_mapping(many_arcs, "army")),
        ("read a 1 MB scenario file (the largest allowed)", lambda: load_scenario(big)),
        ("a file over 1 MB", lambda: load_scenario(over)),
        ("a YAML alias bomb (10^9 values from 1 kB)", lambda: load_scenario(bomb)),
        ("800 kB of nested brackets", lambda: load_scenario(deep)),
        ("a 1 MB title given to the Python API", lambda: calculate(huge_title)),
        ("dice 1000D11 (the widest allowed: 10 000 outcomes)", lambda: parse("1000D11").dist),
        ("dice 999D999", lambda: parse("999D999").dist),
        ("dice D6+D6+... (21 terms)", lambda: parse("+".join(["D6"] * 21)).dist),
    ]


def onepage_game_probes() -> list[tuple[str, Callable[[], Any]]]:
    """Hostile armies, tables and batch options for the One Page game (``grimdice play``): each is
    refused with one error naming the field, or played; the peer is one random-vs-random game of
    the bundled armies on a generated table."""
    from grimdice.engine.table.layout import generate_table, table_from_mapping
    from grimdice.engine.table.terrain import Table
    from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, play
    from grimdice.systems.onepage.game.batch import GameJob, run_games

    orks = yaml.safe_load((EXAMPLES / "armies" / "onepage-orks-army.yaml").read_text())
    marines = army_from_mapping(
        yaml.safe_load((EXAMPLES / "armies" / "onepage-marines-army.yaml").read_text()), "b"
    )
    units = orks["units"]

    def army(**change: Any) -> dict[str, Any]:
        return {**copy.deepcopy(orks), **change}

    def deployed(data: dict[str, Any], table: Table | None = None) -> GameState:
        setup = Setup((army_from_mapping(data, "a"), marines), table or Table())
        return GameState(setup).apply(0).apply(["side", "south"])

    def pieces(n: int, **extra: Any) -> dict[str, Any]:
        return {
            "terrain": [
                {"name": f"p{i}", "rect": [1 + (i % 10) * 7, 1 + (i // 10) * 4.7, 6, 4]} for i in range(n)
            ],
            **extra,
        }

    def one(size: int) -> dict[str, Any]:
        return army(units=[dict(units[4], size=size)], points=None)

    job = GameJob((army_from_mapping(orks, "a"), marines), players=("random", "random"))
    return [
        (
            "one random game, bundled armies (peer)",
            lambda: play(Setup((job.armies[0], marines), generate_table(1)), 1, ("random", "random")),
        ),
        (
            "an army of 60 units of 100 models (6 000 bases)",
            lambda: deployed(
                army(units=[dict(units[4], name=f"S{i}", size=100) for i in range(60)], points=None)
            ),
        ),
        (
            "every unit on a 200 mm base (the largest allowed)",
            lambda: deployed(army(units=[dict(u, base=200) for u in units])),
        ),
        (
            "a unit of 100 models a side, one random game",
            lambda: play(
                Setup(
                    (army_from_mapping(one(100), "a"), army_from_mapping(one(100), "b")), generate_table(1)
                ),
                1,
                ("random", "random"),
            ),
        ),
        ("a unit of 0 models", lambda: army_from_mapping(one(0), "a")),
        ("a unit of 10 000 models", lambda: army_from_mapping(one(10_000), "a")),
        ("a table of 100 terrain pieces (the most allowed)", lambda: table_from_mapping(pieces(100))),
        ("a table of 101 terrain pieces", lambda: table_from_mapping(pieces(101))),
        (
            "overlapping terrain",
            lambda: table_from_mapping(
                {"terrain": [{"name": "a", "rect": [10, 10, 5, 5]}, {"name": "b", "rect": [12, 12, 5, 5]}]}
            ),
        ),
        (
            "terrain off the table",
            lambda: table_from_mapping({"terrain": [{"name": "a", "rect": [70, 10, 5, 5]}]}),
        ),
        ("a 60x48 table", lambda: deployed(orks, table_from_mapping({"width": 60}))),
        (
            "a table impassable from edge to edge",
            lambda: deployed(
                orks,
                table_from_mapping(
                    {"terrain": [{"name": "a", "rect": [0, 0, 72, 48], "traits": ["impassable"]}]}
                ),
            ),
        ),
        ("--games 1 000 000 000", lambda: run_games(job, 1_000_000_000, 1)),
        ("--seed -1", lambda: run_games(job, 1, -1)),
        ("--workers 0", lambda: run_games(job, 1, 1, workers=0)),
        ("--scheduler '::::' (not an address)", lambda: run_games(job, 1, 1, scheduler="::::")),
        (
            "--scheduler at a closed local port (waits the connect timeout)",
            lambda: run_games(job, 1, 1, scheduler=f"tcp://127.0.0.1:{closed_port()}"),
        ),
    ]


def warm_onepage_game() -> None:
    """The One Page game's warm-up, untimed: one random game of the bundled armies on another seed
    and table than the peer's (imports, NumPy and the engine's global caches; the peer's own units
    and game are not replayed from memos)."""
    from grimdice.engine.table.layout import generate_table
    from grimdice.systems.onepage.game import Setup, army_from_mapping, play

    armies = tuple(
        army_from_mapping(yaml.safe_load((EXAMPLES / "armies" / f"onepage-{a}-army.yaml").read_text()), a)
        for a in ("orks", "marines")
    )
    play(Setup((armies[0], armies[1]), generate_table(2)), 2, ("random", "random"))


def timed_rows(
    probes: list[tuple[str, Callable[[], Any]]], cap: float, warm: Callable[[], Any]
) -> Iterator[tuple[str, str, float, float]]:
    """``(name, outcome, seconds, ratio)`` of each probe run once (:func:`timed`), after ``warm()``
    outside the timed region; the ratio is over the first probe's time (the peer)."""
    warm()
    peer = None
    for name, fn in probes:
        outcome, s = timed(fn, cap)
        peer = s if peer is None else peer
        yield name, outcome, s, s / peer if peer else float("nan")


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def killteam_heaviest_shooting() -> dict[str, Any]:
    """The slowest Kill Team shooting input allowed: 8 attacks of 12 dice (Relentless, Lethal 5+,
    Rending, MW1) into DF 12 with cover and a 4+ invulnerable save, W 40."""
    gun = {
        "name": "gun",
        "A": 12,
        "BS": 2,
        "D": "1/2",
        "rules": ["Relentless", "Lethal 5+"],
        "critical": ["Rending", "MW1"],
    }
    return {
        "system": "killteam",
        "attackers": [{"name": f"shooter{i}", "W": 8, "weapons": [gun]} for i in range(8)],
        "target": {"name": "target", "DF": 12, "SV": 3, "W": 40, "cover": True, "invulnerable": 4},
    }


def system_probes() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    w = example("wh40k-intercessors-vs-boyz.yaml")
    h = example("heresy-tactical-vs-auxilia.yaml")
    hf = example("heresy-melee-fight.yaml")
    ks = example("killteam-shoot-sniper.yaml")
    kf = example("killteam-fight-duel.yaml")
    os_ = example("onepage-shooting.yaml")
    om = example("onepage-melee-heroes.yaml")
    cs = example("crusade-shooting.yaml")
    cm = example("crusade-melee.yaml")
    cv = example("crusade-volley.yaml")
    wone = edit(w, attacker__models=w["attacker"]["models"][:1])
    hone = edit(h, attacker__models=h["attacker"]["models"][:1])

    def w2000(**paths: Any) -> dict[str, Any]:
        """The 40k example's first model entry as 10 models of 200 attacks (2000, the most allowed)."""
        return edit(wone, attacker__models__0__count=10, attacker__models__0__weapons__0__A=200, **paths)

    def boyz(count: int) -> dict[str, Any]:
        return {"name": "Boy", "count": count, "T": 5, "Sv": 5, "W": 1}

    return {
        "wh40k": [
            ("example (peer)", w),
            (
                "2000 attacks (the most allowed), D1, into 200 W1 models",
                w2000(defender__models=[boyz(200)], defender__leaders=[]),
            ),
            (
                "2000 attacks, D D6, into 20 models of W 10",
                w2000(
                    attacker__models__0__weapons__0__D="D6",
                    defender__models=[{"name": "Nob", "count": 20, "T": 5, "Sv": 5, "W": 10}],
                    defender__leaders=[],
                ),
            ),
            (
                "the first with an attached Character of other saves (the Warboss)",
                w2000(defender__models=[boyz(198)]),
            ),
            (
                "2000 attacks, Devastating Wounds, into 10 W2 models, mixed saves",
                w2000(
                    attacker__models__0__weapons__0__abilities=["devastating wounds"],
                    defender__models=[
                        {"name": "a", "count": 5, "T": 4, "Sv": 3, "W": 2},
                        {"name": "b", "count": 5, "T": 4, "Sv": 4, "W": 2, "FNP": 5},
                    ],
                    defender__leaders=[],
                ),
            ),
            (
                "A 19D6+1 per model (allowed dice), 4 models",
                edit(w, attacker__models__0__weapons__0__A="+".join(["D6"] * 19) + "+1"),
            ),
        ],
        "heresy": [
            ("example (peer)", h),
            (
                "1000 shots (the most allowed) into 100 W1 models",
                edit(
                    hone,
                    attacker__models__0__count=20,
                    attacker__models__0__weapons__0__A=50,
                    defender__models=[{"name": "Veletaris", "count": 100, "T": 3, "W": 1, "Sv": 4}],
                ),
            ),
            (
                "1000 shots into 50 models of W 2",
                edit(
                    hone,
                    attacker__models__0__count=20,
                    attacker__models__0__weapons__0__A=50,
                    defender__models=[{"name": "Veletaris", "count": 50, "T": 3, "W": 2, "Sv": 4}],
                ),
            ),
            ("melee fight example (peer of fights)", hf),
        ],
        "killteam": [
            ("shooting example (peer)", ks),
            (
                "12 attack dice (the most allowed) into W 40, optimal play",
                edit(ks, attackers__0__weapons__0__A=12, target__W=40),
            ),
            (
                "8 attacks of 12 Relentless dice into DF 12, cover, 4+ invulnerable, W 40",
                killteam_heaviest_shooting(),
            ),
            ("fight example", kf),
            (
                "fight: 10 attack dice each, W 40 each",
                edit(kf, attacker__weapons__0__A=10, target__weapons__0__A=10, attacker__W=40, target__W=40),
            ),
            (
                "fight: 12 attack dice each (the most allowed), both Relentless, W 14",
                edit(
                    kf,
                    attacker__weapons__0__A=12,
                    target__weapons__0__A=12,
                    attacker__weapons__0__rules=["Relentless"],
                    target__weapons__0__rules=["Relentless"],
                    attacker__W=14,
                    target__W=14,
                ),
            ),
        ],
        "onepage": [
            ("shooting example (peer)", os_),
            (
                "20 Tough(3) + Tough(6) hero, Miniguns, into the same",
                edit(
                    _op_shooting(
                        os_, _op_unit("A", 20, ["Minigun/Plasmagun", "Power Fist"], "Tough(3)"), 20, 3
                    ),
                    attacker_hero=_op_hero("AH", ["Minigun/Plasmagun"]),
                    defender__equipment=["Power Fist"],
                ),
            ),
            (
                "100 Battle Cannons (900 dice) into 100 Tough(50)",
                _op_shooting(os_, _op_unit("A", 100, ["Battle Cannon"]), 100, 50, hero=False),
            ),
            (
                '16 Lascannons ("x", the most allowed) into 20 Tough(6) + hero',
                _op_shooting(os_, _op_unit("A", 16, ["Lascannon"]), 20, 6),
            ),
            (
                '8 Lascannons and 8 Multi-Meltas ("x") into 20 Tough(6) + hero',
                _op_shooting(
                    os_,
                    {
                        **_op_unit("A", 16, ["Lascannon"]),
                        "variants": [{"count": 8, "equipment": ["Multi-Melta"]}],
                    },
                    20,
                    6,
                ),
            ),
            ('17 Lascannons ("x")', _op_shooting(os_, _op_unit("A", 17, ["Lascannon"]), 20, 6, hero=False)),
            ("melee example", om),
            (
                "melee: 20 Tough(6) + hero, Dreadnought Fists, each side",
                edit(
                    om,
                    attacker=_op_unit("A", 20, ["Dreadnought Fist"], "Tough(6)"),
                    attacker_hero=_op_hero("AH", ["Dreadnought Fist"]),
                    defender=_op_unit("D", 20, ["Dreadnought Fist"], "Tough(6)"),
                    defender_hero=_op_hero("DH", ["Dreadnought Fist"]),
                ),
            ),
            (
                "melee: 100 Tough(50) Dreadnought Fists a side (past the bound)",
                edit(
                    om,
                    attacker=_op_unit("A", 100, ["Dreadnought Fist"], "Tough(50)"),
                    attacker_hero=None,
                    defender=_op_unit("D", 100, ["Dreadnought Fist"], "Tough(50)"),
                    defender_hero=None,
                ),
            ),
            (
                "melee: 100 Power Fists each side (400 attacks)",
                edit(
                    om,
                    attacker=_op_unit("A", 100, ["Power Fist"]),
                    attacker_hero=None,
                    defender=_op_unit("D", 100, ["Power Fist"], "Tough(2)"),
                    defender_hero=None,
                ),
            ),
        ],
        "crusade": [
            ("shooting example (peer)", cs),
            (
                "24 dice (8 weapons 2W+1R), re-roll R against JINK, 20 hits",
                edit(
                    cs,
                    attacker__weapons=[
                        {"name": f"gun{i}", "dice": "2W+1R", "effects": ["J", "S"]} for i in range(8)
                    ],
                    attacker__abilities=["R"],
                    defender__abilities=["JINK"],
                    defender__hits=20,
                ),
            ),
            ("flamer 12W+12R at 2 targets (allowed)", _cr_many(cs, "FT", "12W+12R", 2)),
            ("flamer 6W+6R at 6 targets", _cr_many(cs, "FT", "6W+6R", 6)),
            ("split fire 4W+4R among 3 targets (allowed)", _cr_many(cs, "*", "4W+4R", 3)),
            ("split fire 12W+12R among 6 targets", _cr_many(cs, "*", "12W+12R", 6)),
            ("LINE 12W+12R at 6 jinking targets, re-roll R", _cr_many(cs, "LINE", "12W+12R", 6, True)),
            ("BLAST 3W+3R at 6 jinking targets, re-roll R", _cr_many(cs, "B", "3W+3R", 6, True)),
            ("melee example", cm),
            (
                "melee: MOB of 2 (3 models), re-roll R, 8th opponent",
                edit(
                    cm,
                    mob=[{**cm["attacker"], "name": f"m{i}"} for i in range(2)],
                    attacker__abilities=["R", "MOB 6"],
                    opponent_number=8,
                ),
            ),
            (
                "melee: MOB of 5 (6 models), re-roll R",
                edit(
                    cm,
                    mob=[{**cm["attacker"], "name": f"m{i}"} for i in range(5)],
                    attacker__abilities=["R", "MOB 6"],
                ),
            ),
            ("melee: 24 dice a side, RO both sides", edit(cm, attacker=_cr_big("A"), defender=_cr_big("D"))),
            ("volley fire of 12 models", edit(cv, volley=12)),
            (
                "volley fire of 6 models at 4 targets",
                edit(cv, targets=[{**cv["defender"], "name": f"t{i}", "hits": 2} for i in range(4)]),
            ),
            (
                "volley fire of 12 models, re-roll R and JINK",
                edit(
                    cv,
                    volley=12,
                    attacker__weapons=[{"name": "lasgun", "dice": "2W", "effects": ["S", "R"]}],
                    defender__abilities=["JINK"],
                ),
            ),
        ],
    }


def _op_unit(name: str, size: int, equipment: list[str], *rules: str) -> dict[str, Any]:
    return {"name": name, "size": size, "quality": 3, "equipment": equipment, "special_rules": list(rules)}


def _op_shooting(
    base: dict[str, Any], attacker: dict[str, Any], size: int, tough: int, hero: bool = True
) -> dict[str, Any]:
    """One Page: ``attacker`` shoots, from 10", ``size`` Tough(``tough``) models (and a Tough(6) hero)."""
    return edit(
        base,
        attacker=attacker,
        defender=_op_unit("D", size, ["Hand Weapon"], f"Tough({tough})"),
        defender_hero=_op_hero("DH", ["Power Fist"]) if hero else None,
        conditions={"distance": 10},
    )


def _op_hero(name: str, equipment: list[str]) -> dict[str, Any]:
    return {"name": name, "quality": 3, "equipment": equipment, "special_rules": ["Hero", "Tough(6)"]}


def _cr_many(base: dict[str, Any], effect: str, dice: str, n: int, rerolls: bool = False) -> dict[str, Any]:
    """Crusade: one template weapon at ``n`` targets (with the attacker's R and the targets' JINK)."""
    weapon = {"name": "template", "dice": dice, "effects": [effect]}
    jink = {"abilities": ["JINK"]} if rerolls else {}
    return edit(
        base,
        attacker__weapons=[weapon],
        attacker__abilities=["R"] if rerolls else [],
        targets=[{"name": f"t{i}", "armour": 2, "hits": 20, "range": 5, **jink} for i in range(n)],
    )


def _cr_big(name: str) -> dict[str, Any]:
    return {
        "name": name,
        "armour": 3,
        "hits": 20,
        "melee": "12W+12R",
        "abilities": ["RO"],
        "weapons": [{"name": "claw", "dice": "12W+12R", "kind": "melee", "effects": ["W"]}],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cap", type=float, default=60.0, help="seconds before a probe is stopped")
    ap.add_argument("--trials", type=int, default=1_000_000)
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--system", action="append", help="only these systems' probes (repeatable)")
    ap.add_argument("--no-input", action="store_true", help="skip the input probes")
    args = ap.parse_args()
    cap, trials = (5.0, 20_000) if args.smoke else (args.cap, args.trials)
    keep_arrays_on_heap()  # as the grimdice command does at its start (its Monte Carlo rows)

    print(f"{'probe':62} {'outcome':70} {'seconds':>9} {'ratio':>7}")
    with tempfile.TemporaryDirectory() as d:
        for name, fn in [] if args.no_input or args.system else input_probes(Path(d)):
            outcome, s = timed(fn, cap)
            print(f"{'input: ' + name:62} {outcome[:70]:70} {s:9.3f}")
    if not args.no_input and (not args.system or "onepage" in args.system):
        for name, outcome, s, ratio in timed_rows(onepage_game_probes(), cap, warm_onepage_game):
            print(f"{'onepage game: ' + name:62} {outcome[:70]:70} {s:9.3f} {ratio:7.1f}")
    for system, probes in system_probes().items():
        if args.system and system not in args.system:
            continue
        runs: list[tuple[str, Callable[[], Any]]] = [(n, partial(calculate, data)) for n, data in probes]
        for name, outcome, s, ratio in timed_rows(runs, cap, runs[0][1]):
            print(f"{system + ' exact: ' + name:62} {outcome[:70]:70} {s:9.3f} {ratio:7.1f}")
        for name, data in probes[:1]:
            calculate(data, simulate=2000, seed=1)
            rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            outcome, s = timed(lambda data=data: calculate(data, simulate=trials, seed=1), cap * 5)
            rss = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024
            label = f"{system} simulated {trials} trials: {name}"
            extra = f" (~{s * MAX_TRIALS / trials:.0f} s at {MAX_TRIALS})" if trials < MAX_TRIALS else ""
            print(f"{label:62} {outcome[:70]:70} {s:9.3f}  peak +{rss:.0f} MB{extra}")


if __name__ == "__main__":
    main()
