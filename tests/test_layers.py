"""The import contract of the package's layers, read from the source with ``ast`` (nothing imported).

``dice`` < ``engine`` < ``io`` < ``systems`` < ``adapters`` < ``cli``, ``web``: a module imports only
from its own layer or those below it (imports inside functions and under ``TYPE_CHECKING`` count
too: they are dependencies all the same), and no rule system imports another. In a game, the rules
never import the AI (only the runners that play games do), and the calculators never load the
table's shapely geometry.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "grimdice"

RANK = {
    "errors": 0,
    "dice": 1,
    "result": 1,
    "engine": 2,
    "io": 3,
    "systems": 4,
    "adapters": 5,
    "cli": 6,
    "web": 6,
    "__main__": 6,
    "__init__": 7,
}
"""Each top-level part of the package and its layer: a module may import parts of its rank or lower
(the package's own ``__init__`` is the facade over the public types, above everything)."""

KNOWN: set[tuple[str, str]] = set()
"""Imports that break the contract today, each to be removed (never added to): none left."""


def _module(path: Path, root: Path) -> list[str]:
    """``grimdice.a.b`` of a source file, as its parts after ``grimdice``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts


def grimdice_imports(path: Path, root: Path) -> list[tuple[int, list[str]]]:
    """(line, parts after ``grimdice``) of every import of a grimdice module in ``path``, relative
    imports resolved against the file's package."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = list(path.relative_to(root).with_suffix("").parts)
    package = here[:-1]
    out: list[tuple[int, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [
                (node.lineno, a.name.split(".")[1:]) for a in node.names if a.name.split(".")[0] == "grimdice"
            ]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = base + (node.module.split(".") if node.module else [])
            elif node.module and node.module.split(".")[0] == "grimdice":
                target = node.module.split(".")[1:]
            else:
                continue
            if target:
                out.append((node.lineno, target))
            else:  # from grimdice import x: each name is a part
                out += [(node.lineno, [a.name]) for a in node.names]
    return out


def violations(root: Path = SRC) -> list[str]:
    """Every import breaking the contract under ``root`` (the package's directory), one line each."""
    found = []
    for path in sorted(root.rglob("*.py")):
        me = _module(path, root)
        for line, target in grimdice_imports(path, root):
            where = f"{path.relative_to(root.parent)}:{line} imports grimdice.{'.'.join(target)}"
            if target[0] not in RANK:
                found.append(f"{where}: unknown part (add it to RANK)")
            elif RANK[target[0]] > RANK.get(me[0], 0):
                found.append(f"{where}: a lower layer imports a higher one")
            elif me[0] == "systems" == target[0] and len(me) > 1 < len(target) and _other_system(me, target):
                found.append(f"{where}: a system imports another system")
    return found


def _other_system(me: list[str], target: list[str]) -> bool:
    """``systems.<a>...`` imports ``systems.<b>...`` for two systems (``base`` is every system's)."""
    return "base" not in (me[1], target[1]) and me[1] != target[1]


def test_every_top_level_part_has_a_layer():
    parts = {p.stem if p.is_file() else p.name for p in SRC.iterdir() if p.suffix == ".py" or p.is_dir()}
    parts -= {"__pycache__", "static"}
    assert parts <= set(RANK), sorted(parts - set(RANK))


def test_no_module_imports_a_higher_layer_or_another_system():
    found = violations()
    known = [
        v for v in found if any(v.startswith(f"grimdice/{f}:") and f" grimdice.{t}:" in v for f, t in KNOWN)
    ]
    assert [v for v in found if v not in known] == []
    assert len(known) == len(KNOWN), "an exception no longer occurs: remove it from KNOWN"


@pytest.mark.parametrize(
    ("where", "source", "message"),
    [
        ("io/planted.py", "from grimdice.systems.base import run\n", "lower layer imports a higher one"),
        ("engine/planted.py", "from grimdice.cli import app\n", "lower layer imports a higher one"),
        (
            "dice/planted.py",
            "def f():\n    import grimdice.engine.rules\n",
            "lower layer imports a higher one",
        ),
        ("io/rosters/planted.py", "from ...systems import base\n", "lower layer imports a higher one"),
        ("systems/wh40k/planted.py", "from grimdice.systems.heresy.rolls import FAIL\n", "another system"),
        ("systems/wh40k/planted.py", "from ..heresy import rolls\n", "another system"),
    ],
)
def test_the_checker_sees_a_bad_import(tmp_path, where, source, message):
    """The checker itself: an import planted in a small tree of the same layout is reported."""
    root = tmp_path / "grimdice"
    fine = {
        "systems/wh40k/ok.py": "from grimdice.systems.base import run\nfrom . import rolls\n",
        "cli/ok.py": "from grimdice.systems import base\nfrom grimdice.dice.dist import Dist\n",
    }
    for rel, text in {**fine, where: source}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    found = violations(root)
    assert len(found) == 1 and "planted.py" in found[0] and message in found[0], found


AI = {
    "systems/onepage/game/": "systems.onepage.ai",
    "systems/crusade/game/": "systems.crusade.ai",
}
"""Each game's rule modules (a folder) and its AI, which they never import."""

RUNNERS = {
    "systems/onepage/game/__init__.py",
    "systems/onepage/game/play.py",
    "systems/onepage/game/batch.py",
    "systems/crusade/game/__init__.py",
    "systems/crusade/game/play.py",
    "systems/crusade/game/batch.py",
}
"""The modules of a game that run players beside its rules (they may import the AI)."""


def test_a_game_s_rules_never_import_its_ai():
    bad = []
    for folder, ai in AI.items():
        for path in sorted((SRC / folder).rglob("*.py")):
            rel = path.relative_to(SRC).as_posix()
            if rel in RUNNERS:
                continue
            for line, target in grimdice_imports(path, SRC):
                if ".".join(target).startswith(ai):
                    bad.append(f"{rel}:{line} imports grimdice.{'.'.join(target)}")
    assert bad == []


def test_the_calculator_does_not_load_shapely_nor_numba():
    example = SRC.parents[1] / "examples" / "wh40k-intercessors-vs-boyz.yaml"
    code = (
        "import sys\n"
        f"sys.argv = ['grimdice', 'calc', {str(example)!r}, '--json']\n"
        "from grimdice.__main__ import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('LOADED=' + str([m for m in ('shapely', 'numba') if m in sys.modules]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stderr.rstrip().endswith("LOADED=[]"), proc.stderr[-500:]
