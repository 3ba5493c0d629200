"""Each class of hostile input from issue #9, from the user's side: the Python API and the CLI.

1 unreadable files, 2 unbounded error messages and alias bombs, 3 dice sizes before work,
5 Monte Carlo progress, 6 run options, 7 lax coercion, 8 duplicate names, 9 output paths,
10 terminal output (class 4, the exact engines' guards, is tested with the engines).
"""

from __future__ import annotations

import copy
import io
import json
import sys
import time
from pathlib import Path

import pytest
import yaml
from rich.console import Console
from typer.testing import CliRunner

from grimdice.cli import app
from grimdice.cli.app import ProgressBar
from grimdice.cli.render import safe
from grimdice.dice.expr import MAX_SPAN, DiceSyntaxError, parse
from grimdice.engine.options import MAX_TRIALS, RunOptions
from grimdice.errors import GrimdiceError, RuleError, ScenarioError, rule_at, shown
from grimdice.io.scenario import MAX_FILE_BYTES, MAX_TEXT, load_scenario, parse_scenario_text
from grimdice.systems.base import calculate

from .harness import EXAMPLES as EXAMPLES_DIR
from .harness import check_error, examples, time_limit

runner = CliRunner()
EX = examples()
W40K = EX["wh40k-intercessors-vs-boyz.yaml"]
HERESY = EX["heresy-tactical-vs-auxilia.yaml"]
KT = EX["killteam-shoot-sniper.yaml"]
CRUSADE = EX["crusade-shooting.yaml"]
ROSTERS = Path(__file__).resolve().parents[1] / "rosters" / "fixtures"
CRUSADE_TARGETS = {**CRUSADE, "targets": [{"name": "Cultist", "armour": 1, "range": 10}]}
ONEPAGE_HEROES = EX["onepage-melee-heroes.yaml"]


def refused(fn, field: str | None = None, needle: str | None = None, seconds: float = 5.0) -> ScenarioError:
    """``fn()`` raises a one-line ScenarioError (naming ``field``) within ``seconds``."""
    with time_limit(seconds), pytest.raises(GrimdiceError) as info:
        fn()
    check_error(info.value)
    if field is not None:
        assert info.value.field == field, str(info.value)
    if needle is not None:
        assert needle in str(info.value), str(info.value)
    return info.value


def cli_refuses(args: list[str], needle: str) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert needle in lines[0], lines[0]
    assert res.stdout == ""


def changed(data, path: str, value):
    """A deep copy of ``data`` with the value at the dotted ``path`` replaced (made if missing)."""
    out = copy.deepcopy(data)
    *head, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    node = out
    for p in head:
        node = node.setdefault(p, {}) if isinstance(node, dict) else node[p]
    node[last] = value
    return out


# 1. Reading files ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "raw", "needle"),
    [
        ("latin1.yaml", "system: wh40k\ntitle: caf\xe9\n".encode("latin-1"), "not UTF-8"),
        ("binary.yaml", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
        ("utf16.yaml", "system: wh40k\n".encode("utf-16"), "UTF-16"),
        ("deep.yaml", b"a: " + b"[" * 100_000 + b"]" * 100_000, "nested"),
        ("deep.json", b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested"),
        ("long.yaml", b"system: wh40k\nx: " + b"9" * 5000 + b"\n", "scenario"),
        ("long.json", b'{"system": "wh40k", "x": ' + b"9" * 5000 + b"}", "scenario"),
        ("big.yaml", b"# " + b"x" * (MAX_FILE_BYTES + 10), "larger than"),
        ("list.yaml", b"- 1\n- 2\n", "must hold a mapping of named fields, not a list"),
        ("empty.yaml", b"", "must hold a mapping of named fields, not nothing"),
        ("broken.yaml", b"system: [wh40k\n", "not valid YAML"),
    ],
)
def test_unreadable_files_are_one_line_errors(tmp_path, name, raw, needle):
    p = tmp_path / name
    p.write_bytes(raw)
    refused(lambda: load_scenario(p), "scenario", needle)
    cli_refuses(["calc", str(p)], needle)


def test_a_directory_and_a_device_are_not_reported_missing(tmp_path):
    refused(lambda: load_scenario(tmp_path), "scenario", "is a directory")
    refused(lambda: load_scenario("/dev/null"), "scenario", "not a regular file")
    refused(lambda: load_scenario(tmp_path / "nope.yaml"), "scenario", "no such file")
    cli_refuses(["calc", str(tmp_path)], "is a directory")


def test_a_utf8_file_with_a_byte_order_mark_is_read(tmp_path):
    p = tmp_path / "bom.yaml"
    p.write_bytes(b"\xef\xbb\xbf" + yaml.safe_dump(W40K).encode())
    assert load_scenario(p) == W40K


# 2. Bounded error messages; alias bombs -------------------------------------------------------------

BOMB = "\n".join(
    ["a: &a ['lol','lol','lol','lol','lol','lol','lol','lol','lol']"]
    + [
        f"{b}: &{b} [*{a},*{a},*{a},*{a},*{a},*{a},*{a},*{a},*{a}]"
        for a, b in zip("abcdefgh", "bcdefghi", strict=True)
    ]
)


@pytest.mark.parametrize("field", ["title", "attacker.keywords", "attacker.models.0.name"])
def test_an_alias_bomb_in_a_validated_field_is_refused_at_load(tmp_path, field):
    data = yaml.safe_dump(changed(W40K, field, "BOMB"), sort_keys=False).replace("'BOMB'", "*i")
    p = tmp_path / "bomb.yaml"
    p.write_text(BOMB + "\n" + data)
    assert p.stat().st_size < 10_000
    refused(lambda: load_scenario(p), "scenario", "alias", seconds=3)
    cli_refuses(["calc", str(p)], "alias")


def test_a_shared_structure_given_to_the_api_is_refused_without_expanding_it():
    bomb: list = ["lol"] * 10
    for _ in range(9):
        bomb = [bomb] * 10  # 10**10 leaves, 100 objects
    for path in ("title", "attacker.keywords", "defender.models.0.name"):
        refused(lambda path=path: calculate(changed(W40K, path, bomb)), seconds=3)


@pytest.mark.parametrize("path", ["title", "attacker.models.0.name", "attacker.models.0.weapons.0.A"])
def test_a_huge_string_is_refused_with_a_short_excerpt(path):
    exc = refused(lambda: calculate(changed(W40K, path, "x" * 1_000_000)), path, "characters")
    assert len(str(exc)) < 300


def test_long_allowed_values_are_quoted_back_short():
    text = "D6+" * 60 + "1"  # allowed length for a text, refused as dice
    exc = refused(lambda: calculate(changed(W40K, "attacker.models.0.weapons.0.A", text)))
    assert exc.field == "attacker.models.0.weapons.0.A" and len(str(exc)) < 300
    bad = "q" * (MAX_TEXT - 1)
    exc = refused(lambda: calculate(changed(W40K, "defender.models.0.count", bad)), "defender.models.0.count")
    assert len(str(exc)) < 300


def test_huge_numbers_are_refused_naming_the_field():
    refused(lambda: calculate(changed(W40K, "defender.models.0.W", 10**5000)), "defender.models.0.W", "±")
    refused(lambda: calculate(changed(KT, "target.W", float("nan"))), "target.W")


def test_shown_is_bounded_for_any_value():
    bomb: list = [10**10000] * 10
    for _ in range(30):
        bomb = [bomb] * 10
    with time_limit(1):
        for v in (bomb, "\x1b[2J" + "x" * 10**6, 10**100000, {"k" * 10**5: 1}):
            s = shown(v)
            assert len(s) <= 60 and "\x1b" not in s


def test_scenario_error_is_one_bounded_line():
    e = ScenarioError("a\nb" * 1000, "line\r\n" * 10**5)
    assert "\n" not in str(e) and "\r" not in str(e) and len(str(e)) <= 1200


# 3. Dice sizes are checked from the text, before any work -----------------------------------------


@pytest.mark.parametrize(
    "text", ["999D999", "1000D1000", "D6+" * 25 + "1", "1+" * 25 + "1", "9" * 20, "D6+" * 3000]
)
def test_oversized_dice_text_is_refused_at_once(text):
    with time_limit(0.5), pytest.raises(DiceSyntaxError) as info:
        parse(text)
    assert len(str(info.value)) < 200


def test_dice_bounds_come_from_the_text_without_building_the_distribution():
    d = parse("100D100-3D6+2")
    assert (d.min, d.max) == (100 - 18 + 2, 10_000 - 3 + 2)
    assert "dist" not in d.__dict__  # cached_property not computed
    assert MAX_SPAN == 10_000
    assert parse("1000D11").max == 11_000  # range 1000..11000: exactly the allowed span
    with pytest.raises(DiceSyntaxError, match="outcomes"):
        parse("1000D11+D2")


@pytest.mark.parametrize("value", ["999D999", "200D6", "D6+" * 20 + "1"])
def test_dice_fields_refuse_oversized_dice_fast(value):
    for data, path in [
        (W40K, "attacker.models.0.weapons.0.A"),
        (W40K, "attacker.models.0.weapons.0.D"),
        (HERESY, "attacker.models.0.weapons.0.A"),
    ]:
        refused(lambda data=data, path=path: calculate(changed(data, path, value)), path, seconds=3)


# 5. Monte Carlo progress ---------------------------------------------------------------------------


def test_progress_bar_draws_only_for_long_runs():
    out = io.StringIO()
    quiet = ProgressBar(Console(file=out, force_terminal=True), after=60)
    quiet(50_000, 1_000_000)
    quiet.close()
    assert out.getvalue() == ""
    piped = ProgressBar(Console(file=out, force_terminal=False), after=0)
    piped(50_000, 100_000)
    piped.close()
    assert out.getvalue() == ""
    shown_bar = ProgressBar(Console(file=out, force_terminal=True), after=0)
    shown_bar(50_000, 100_000)
    shown_bar(100_000, 100_000)
    shown_bar.close()
    assert "simulating" in out.getvalue()


def test_the_games_progress_bar_says_games():
    """``grimdice play``'s bar names what it counts ("playing"), not a Monte Carlo's "simulating"."""
    out = io.StringIO()
    bar = ProgressBar(Console(file=out, force_terminal=True), after=0, what="playing", unit="games")
    bar(1, 2)
    bar.close()
    assert "playing" in out.getvalue() and "simulating" not in out.getvalue()


def test_a_progress_callback_does_not_change_the_result():
    calls: list[tuple[int, int]] = []
    a = calculate(W40K, simulate=3000, seed=11, progress=lambda d, t: calls.append((d, t)))
    b = calculate(W40K, simulate=3000, seed=11)
    assert a.to_json() == b.to_json()
    assert all(t == 3000 and 0 < d <= t for d, t in calls)


def test_the_cli_passes_a_progress_bar_for_simulated_runs(monkeypatch):
    cli = sys.modules["grimdice.cli.calc"]  # where calc and its helpers are

    seen = []
    real = cli.run

    def spy(name, data, options):
        seen.append(options.progress)
        return real(name, data, options)

    monkeypatch.setattr(cli, "run", spy)
    path = str(Path(__file__).resolve().parents[2] / "examples" / "wh40k-guard-orders.yaml")
    assert runner.invoke(app, ["calc", path, "--simulate", "2000", "--seed", "3", "--json"]).exit_code == 0
    assert runner.invoke(app, ["calc", path, "--json"]).exit_code == 0
    assert isinstance(seen[0], ProgressBar) and seen[1] is None


# 6. Run options: the API validates what the CLI validates -------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"simulate": 0}, "simulate"),
        ({"simulate": -1}, "simulate"),
        ({"simulate": 1.5}, "simulate"),
        ({"simulate": "100"}, "simulate"),
        ({"simulate": True}, "simulate"),
        ({"simulate": 10**12}, "simulate"),
        ({"simulate": MAX_TRIALS + 1}, "simulate"),
        ({"simulate": 100, "seed": -1}, "seed"),
        ({"simulate": 100, "seed": 1.5}, "seed"),
        ({"simulate": 100, "seed": "7"}, "seed"),
        ({"simulate": 100, "seed": 2**64}, "seed"),
        ({"seed": 3}, "seed"),
        ({"simulate": 100, "workers": 0}, "workers"),
        ({"simulate": 100, "progress": 5}, "progress"),
    ],
)
def test_run_options_refused_by_the_api(kwargs, field):
    refused(lambda: calculate(W40K, **kwargs), field)
    refused(lambda: RunOptions(**kwargs), field)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--simulate", "0"], "--simulate"),
        (["--simulate", "-1"], "--simulate"),
        (["--simulate", str(10**12)], "--simulate"),
        (["--simulate", "100", "--seed", "-1"], "--seed"),
        (["--seed", "3"], "--seed"),
    ],
)
def test_run_options_refused_by_the_cli(args, needle):
    path = str(Path(__file__).resolve().parents[2] / "examples" / "wh40k-guard-orders.yaml")
    cli_refuses(["calc", path, *args], needle)


@pytest.mark.parametrize(
    "args", [["--simulate", "1.5"], ["--simulate", "abc"], ["--seed", "x", "--simulate", "9"]]
)
def test_non_numbers_are_usage_errors_on_the_cli(args):
    path = str(Path(__file__).resolve().parents[2] / "examples" / "wh40k-guard-orders.yaml")
    res = runner.invoke(app, ["calc", path, *args])
    assert res.exit_code == 2 and res.stdout == ""


# 7. Strict types: no bool for a number, no empty list where one value is needed ----------------------


@pytest.mark.parametrize(
    ("data", "path", "value"),
    [
        (W40K, "attacker.models.0.count", True),
        (W40K, "attacker.models.0.count", "4"),
        (W40K, "attacker.models.0.count", 4.0),
        (W40K, "attacker.models.0.weapons.0.A", True),
        (W40K, "attacker.models.0.weapons.0.D", False),
        (W40K, "attacker.models.0.weapons.0.S", True),
        (W40K, "defender.models.0.T", True),
        (W40K, "conditions.remained_stationary", 1),
        (W40K, "conditions.remained_stationary", "yes"),
        (W40K, "defender.models.0.FNP", []),
        (W40K, "defender.models.0.FNP", [True]),
        (W40K, "attacker.models", []),
        (HERESY, "attacker.models.0.count", True),
        (HERESY, "attacker.models.0.weapons.0.A", True),
        (HERESY, "defender.models.0.W", True),
        (HERESY, "defender.cover", True),
        (KT, "target.W", True),
        (KT, "target.cover", 1),
        (KT, "attackers.0.weapons.0.A", True),
        (KT, "attackers.0.weapons.0.D", [True, 4]),
        (KT, "shots.0.split.Ork Boy", True),
        (KT, "shots.0.distance", True),
        (KT, "attackers", []),
    ],
)
def test_lax_values_are_refused_naming_the_field(data, path, value):
    exc = refused(lambda: calculate(changed(data, path, value)))
    assert exc.field == path or exc.field.startswith(path + "."), str(exc)  # D.0: the first of a pair


# 8. Names that key results are unique ---------------------------------------------------------------


def _with_copy(data, path: str):
    out = copy.deepcopy(data)
    node = out
    for p in path.split("."):
        node = node[int(p) if p.isdigit() else p]
    node.append(copy.deepcopy(node[0]))
    return out


@pytest.mark.parametrize(
    ("data", "path"),
    [
        (W40K, "attacker.models"),
        (W40K, "attacker.models.0.weapons"),
        (HERESY, "attacker.models"),
        (HERESY, "attacker.models.0.weapons"),
        (HERESY, "defender.models"),
        (KT, "attackers"),
        (KT, "attackers.0.weapons"),
        (EX["killteam-fight-duel.yaml"], "target.weapons"),
        (CRUSADE, "attacker.weapons"),
        (CRUSADE_TARGETS, "targets"),
        ({**CRUSADE, "weapons": ["bolter"]}, "weapons"),  # the attacker's weapons used, by name
    ],
)
def test_duplicate_names_that_key_results_are_refused(data, path):
    refused(lambda: calculate(_with_copy(data, path)), path, "named")


def test_heresy_precision_and_challenge_pick_defending_models_by_name():
    """Why Heresy defending models need distinct names: Precision's and a Challenge's model is
    chosen by name and reported by name; with two entries of one name the second could never be
    chosen (and a fight names the defender's strike groups after its models)."""
    twin = copy.deepcopy(HERESY)
    twin["defender"]["models"][1]["name"] = "Veletaris"
    for cond in ({}, {"precision_target": "Veletaris"}, {"challenge": "Veletaris"}):
        refused(lambda cond=cond: calculate({**twin, "conditions": cond}), "defender.models", "'Veletaris'")
    # distinct names: the model chosen is the one named, reported by that name
    res = calculate({**HERESY, "conditions": {"precision_target": "Veletaris Prime"}})
    assert res.extra["precision_model"] == "Veletaris Prime"
    res = calculate({**HERESY, "conditions": {"precision_target": "Veletaris"}})
    assert res.extra["precision_model"] == "Veletaris"


def test_killteam_nearby_operatives_are_named_apart_from_the_target():
    """Sub-results (and a Fusillade split) are keyed by operative name: a nearby operative named
    like the target would merge into its result while the totals still counted it."""
    blast = EX["killteam-blast-grenade.yaml"]
    clash = changed(blast, "nearby.0.name", blast["target"]["name"])
    refused(lambda: calculate(clash), "nearby", "'Guardsman A'")
    res = calculate(blast)
    assert set(res.targets) >= {"Guardsman A", "Guardsman B"}
    compare = {k: v for k, v in blast.items() if k != "target"}
    twin = {**blast["target"], "name": "Guardsman B"}
    refused(lambda: calculate({**compare, "targets": [blast["target"], twin]}), "nearby", "'Guardsman B'")


def test_onepage_joined_hero_named_like_a_model_group_of_its_unit_is_refused():
    """One Page results list model groups by name (casualty orders, end states): a Hero named like
    a variant group of the unit it joins would be indistinguishable from it."""
    base = changed(ONEPAGE_HEROES, "attacker.variants", [{"count": 2, "equipment": ["Pistol", "Power Fist"]}])
    calculate(base)
    clash = changed(base, "attacker_hero.name", "Boyz (Pistol, Power Fist)")
    refused(lambda: calculate(clash), "attacker_hero.name", "'Boyz (Pistol, Power Fist)'")


def test_merged_one_page_units_keep_one_model_group_per_variant():
    """Two merged copies of a unit with a Meltagun variant field one Meltagun group of two models
    (not two groups of one with the same name, which results could not tell apart)."""
    from grimdice.systems.onepage.army import check_army

    army = check_army(EXAMPLES_DIR / "armies" / "onepage-marines-army.yaml")
    tactical = next(u for u in army.units if u.name == "Tactical Marines")
    groups = [(g.name, g.count) for g in tactical.groups]
    assert len({n for n, _ in groups}) == len(groups), groups
    assert groups[:2] == [("Tactical Marines", 8), ("Tactical Marines (Meltagun, Pistol, Fists/Claws)", 2)]


def test_names_that_key_results_from_the_command_line(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(_with_copy(HERESY, "defender.models")))
    cli_refuses(["calc", str(p)], "defender.models: two entries are named 'Veletaris'")
    p.write_text(yaml.safe_dump(_with_copy(CRUSADE, "attacker.weapons")))
    cli_refuses(["calc", str(p)], "attacker.weapons: two entries are named 'bolter'")


def test_duplicate_killteam_targets_are_refused_and_distinct_ones_each_get_a_result():
    data = {k: v for k, v in KT.items() if k != "target"}
    twin = {**KT["target"], "name": "Ork Boy"}
    refused(lambda: calculate({**data, "targets": [KT["target"], twin]}), "targets", "named")
    res = calculate({**data, "targets": [KT["target"], {**twin, "name": "Other Boy"}]})
    assert set(res.targets) == {"Ork Boy", "Other Boy"}


# 9. Output paths -----------------------------------------------------------------------------------

EXAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "wh40k-guard-orders.yaml")


@pytest.mark.parametrize(
    ("name", "needle"),
    [("missing/dir/out.png", "does not exist"), ("out.txt", "suffix"), ("out", "suffix"), (".", "suffix")],
)
def test_unwritable_plot_paths_are_refused_before_computing(tmp_path, monkeypatch, name, needle):
    cli = sys.modules["grimdice.cli.calc"]  # where calc and its helpers are

    monkeypatch.setattr(cli, "run", lambda *a: pytest.fail("computed before checking --plot"))
    cli_refuses(["calc", EXAMPLE, "--plot", str(tmp_path / name)], needle)
    assert not (tmp_path / "out.png").exists()


def test_a_directory_named_like_a_plot_is_refused(tmp_path):
    (tmp_path / "d.png").mkdir()
    cli_refuses(["calc", EXAMPLE, "--plot", str(tmp_path / "d.png")], "is a directory")


@pytest.mark.parametrize("suffix", [".svg", ".pdf", ".PNG"])
def test_a_plot_is_written_exactly_where_told(tmp_path, suffix):
    out = tmp_path / f"chart{suffix}"
    res = runner.invoke(app, ["calc", EXAMPLE, "--plot", str(out)])
    assert res.exit_code == 0, res.output
    assert out.is_file() and [p.name for p in tmp_path.iterdir()] == [out.name]
    assert "plot written to" in res.stdout


def test_a_failed_write_keeps_the_printed_result(tmp_path, monkeypatch):
    import grimdice.cli.plot as plot

    def boom(result, path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(plot, "plot_result", boom)
    res = runner.invoke(app, ["calc", EXAMPLE, "--json", "--plot", str(tmp_path / "x.png")])
    assert res.exit_code == 2
    assert json.loads(res.stdout)["system"] == "wh40k"
    assert "No space left" in res.stderr and len(res.stderr.strip().splitlines()) == 1


# 10. Terminal output -------------------------------------------------------------------------------

NASTY = "\x1b[2J\x1b]0;owned\x07[bold red]Boss[/bold red] \u009b31m"


def test_safe_shows_control_characters_and_markup_literally():
    console = Console(file=io.StringIO(), force_terminal=False, width=200)
    console.print(safe(NASTY))
    out = console.file.getvalue()
    assert "\x1b" not in out and "\x07" not in out and "\u009b" not in out
    assert "\\x1b[2J" in out and "[bold red]Boss[/bold red]" in out and "\\x9b" in out


def test_scenario_text_reaches_the_terminal_escaped(tmp_path):
    data = changed(W40K, "title", NASTY)
    data = changed(data, "attacker.models.0.weapons.0.name", "[blink]gun[/blink]\x1b[31m")
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(data))
    res = runner.invoke(app, ["calc", str(p)], color=True)
    assert res.exit_code == 0, res.output
    assert "\x1b]0;" not in res.stdout and "\x1b[2J" not in res.stdout and "\x07" not in res.stdout
    assert "[bold red]Boss[/bold red]" in res.stdout.replace("\n", "")


def test_emoji_codes_in_scenario_text_are_printed_as_written(tmp_path):
    """Rich would turn ``:skull:`` into an emoji; a user's title is shown as the user wrote it."""
    data = changed(W40K, "title", "Boss :skull: and :thumbs_up:")
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(data))
    res = runner.invoke(app, ["calc", str(p)])
    assert res.exit_code == 0, res.output
    flat = res.stdout.replace("\n", "")
    assert ":skull:" in flat and ":thumbs_up:" in flat and "\U0001f480" not in flat


def test_error_messages_reach_the_terminal_escaped(tmp_path):
    data = changed(W40K, "defender.models.0.name", 5)
    data["defender"]["\x1b[2J[red]x"] = 1
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(data))
    res = runner.invoke(app, ["calc", str(p)], color=True)
    assert res.exit_code == 2
    assert "\x1b[2J" not in res.stderr
    t0 = time.monotonic()
    assert time.monotonic() - t0 < 5


@pytest.mark.parametrize("title", ["$$", "$\\frac{x", "\x1b[2J$x^$ [red]t[/red]"])
def test_plot_titles_are_drawn_literally(tmp_path, title):
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(changed(W40K, "title", title)))
    out = tmp_path / "t.png"
    res = runner.invoke(app, ["calc", str(p), "--json", "--plot", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes()[:4] == b"\x89PNG"


# Every class from the command line, one case each ------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "needle"),
    [
        ("title", "x" * 5000, "title: text of 5000 characters"),
        ("attacker.models.0.weapons.0.A", "999D999", "attacker.models.0.weapons.0.A: dice '999D999'"),
        ("attacker.models.0.count", True, "attacker.models.0.count: Input should be a valid integer"),
        ("attacker.models.1.name", "Intercessor", "attacker.models: two entries are named 'Intercessor'"),
        (
            "defender.models.0.W",
            10**30,
            "defender.models.0.W: 1000000000000000000000000000000 is not a number",
        ),
    ],
)
def test_scenario_classes_from_the_command_line(tmp_path, path, value, needle):
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(changed(W40K, path, value)))
    cli_refuses(["calc", str(p)], needle)


def test_a_bomb_of_numbers_hits_the_value_count():
    text = BOMB.replace("'lol'", "1") + "\nsystem: wh40k\n"
    refused(lambda: parse_scenario_text(text.encode()), "scenario", "values (counting each use", seconds=3)


# Rule errors name the input that describes the illegal action ------------------------------------


@pytest.mark.parametrize(
    ("data", "path", "value", "field", "needle"),
    [
        (KT, "shots.0.activation.actions", [], "shots.0.activation", "no Shoot or Overwatch action"),
        (KT, "target.obscured", True, "target", "is Obscured"),
    ],
)
def test_rule_errors_name_the_field_that_describes_the_action(data, path, value, field, needle):
    err = refused(lambda: calculate(changed(data, path, value)), needle=needle)
    assert err.field == field and str(err).startswith(f"{field}: "), str(err)


def test_rule_at_names_a_field_once():
    with pytest.raises(RuleError) as info, rule_at("outer"), rule_at("inner"):
        raise RuleError("Scouts: too far")
    assert str(info.value) == "inner: Scouts: too far" and info.value.message == "Scouts: too far"


# 4. Exact-engine guards: what would take minutes is refused at once, with an estimate ---------------


def _crusade_many(effect: str, dice: str, targets: int, **attacker) -> dict:
    weapon = {"name": "template", "dice": dice, "effects": [effect]}
    return {
        **CRUSADE,
        "attacker": {**CRUSADE["attacker"], "weapons": [weapon], **attacker},
        "targets": [{"name": f"t{i}", "armour": 2, "hits": 3, "range": 5} for i in range(targets)],
    }


@pytest.mark.parametrize(
    ("data", "field", "needle"),
    [
        (_crusade_many("FT", "6W+6R", 6), "targets", "joint rolls to solve exactly"),
        (_crusade_many("*", "12W+12R", 3), "targets", "SPLIT FIRE of 12W+12R among 3 targets compares 83152"),
        (_crusade_many("LINE", "12W+12R", 6, abilities=["R"]), "attacker.weapons", "41405 rolled face sets"),
    ],
)
def test_crusade_many_target_work_past_the_bounds_is_refused_at_once(data, field, needle):
    calculate(CRUSADE)  # imports outside the time bound
    err = refused(lambda: calculate(data), field, needle, seconds=1.0)
    assert "at most" in str(err)


def test_crusade_flamer_and_split_fire_within_the_bounds_still_run():
    """The guards count work exactly: just inside them the engines still answer (flamer at two
    targets; split fire of a small pool among six)."""
    two = calculate(_crusade_many("FT", "2W+1R", 2))
    assert set(two.targets) == {"0: t0", "1: t1"}
    six = calculate(_crusade_many("*", "2W+1R", 6))
    assert len(six.targets) == 6 and abs(sum(six["damage"].pmf_from_zero()) - 1) < 1e-9


def test_crusade_melee_re_roll_game_past_the_bound_is_refused_with_an_estimate():
    melee = EX["crusade-melee.yaml"]
    mob = {**melee, "mob": [{**melee["attacker"], "name": f"m{i}"} for i in range(3)]}
    mob["attacker"] = {**melee["attacker"], "abilities": ["R", "MOB 6"]}
    err = refused(lambda: calculate(mob), "attacker.melee", "roll pairs, at most 4000; about", seconds=3.0)
    assert "use fewer dice or re-rolls" in str(err)


def test_a_roster_unit_with_two_model_entries_of_one_name_defends_as_distinct_entries():
    """Rosters may list one model name twice (different wargear): the Heresy defender built from
    it numbers the second (``#2``), as attackers always were, so the unique-names check accepts it."""
    from grimdice.adapters.rosters.resolve import Picked, build_side, load

    unit = copy.deepcopy(load(ROSTERS / "heresy.ros", "roster").units[1])
    unit.models.append(copy.deepcopy(unit.models[0]))
    side = build_side("heresy", "defender", Picked(unit, []), None, "defender")
    assert [m["name"] for m in side.data["models"]] == ["Veletaris", "Veletaris Prime", "Veletaris #2"]
    res = calculate({**HERESY, "defender": side.data})
    assert res["models_destroyed"].max <= sum(m["count"] for m in side.data["models"])


def test_onepage_melee_past_the_joint_outcome_bound_is_refused_at_once():
    """100 Tough(50) models with Dreadnought Fists a side: 283 931 joint outcomes to settle (19 s on
    the shared machine before the bound); refused with the count and an estimate."""
    melee = EX["onepage-melee-heroes.yaml"]
    calculate(melee)  # imports outside the time bound
    side = {"size": 100, "quality": 3, "equipment": ["Dreadnought Fist"], "special_rules": ["Tough(50)"]}
    big = {**melee, "attacker": {**side, "name": "A"}, "defender": {**side, "name": "D"}}
    big = {k: v for k, v in big.items() if not k.endswith("_hero")}
    err = refused(lambda: calculate(big), "attacker", "joint outcomes of both strikes to settle", seconds=2.0)
    assert "at most 250000; about" in str(err)


def test_a_check_of_the_whole_scenario_names_the_scenario():
    """A model-level check (Kill Team: exactly one of target or targets) names ``scenario``, as the
    shape checks do, never an empty field."""
    data = {k: v for k, v in KT.items() if k != "target"}
    refused(lambda: calculate(data), "scenario", "give exactly one of target")


def test_a_check_of_the_whole_scenario_names_the_scenario_on_the_command_line(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump({k: v for k, v in KT.items() if k != "target"}))
    cli_refuses(["calc", str(p)], "scenario: give exactly one of target")
