"""The import contract of the package: ``dice`` < ``engine`` < ``io`` < ``systems`` < ``cli``/``web``
(a layer imports only the layers below it), no rule system imports another, a game's rules never
import its AI, and the calculators never load the table's shapely geometry."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "grimdice"
RANK = {"dice": 0, "engine": 1, "io": 2, "systems": 3, "cli": 4, "web": 4}
SHARED = {"errors", "result", "__init__", "__main__"}  # plain data and entry points, not layers
#: imports across the layers that the contract tolerates, each with its reason
TOLERATED = {
    ("io.rosters", "systems"): "roster files are read against the systems' rule tables and names",
}
#: the AI of each game, which the game's rule modules never import
AI = {"systems.onepage.game": ("systems.onepage.ai",)}
#: a game's modules that run players, beside its rules (they may import the AI)
RUNNERS = ("systems.onepage.game.__init__", "systems.onepage.game.play", "systems.onepage.game.batch")


def imports() -> list[tuple[str, str]]:
    """(importing module, imported module), both without the ``grimdice.`` prefix, for every
    absolute import of grimdice in the sources (inside functions too)."""
    out = []
    for f in sorted(SRC.rglob("*.py")):
        mod = ".".join(f.relative_to(SRC).with_suffix("").parts)
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            out += [(mod, n.removeprefix("grimdice.")) for n in names if n.startswith("grimdice.")]
    return out


def layer(mod: str) -> str:
    return mod.split(".")[0]


def tolerated(mod: str, target: str) -> bool:
    return any(mod.startswith(a) and target.startswith(b) for a, b in TOLERATED)


def test_each_layer_imports_only_the_layers_below() -> None:
    bad = []
    for mod, target in imports():
        a, b = layer(mod), layer(target)
        if a in SHARED or b in SHARED or a not in RANK or b not in RANK:
            continue
        if RANK[b] > RANK[a] and not tolerated(mod, target):
            bad.append(f"{mod} imports {target}")
    assert not bad, "\n".join(bad)


def test_no_system_imports_another() -> None:
    bad = [
        f"{mod} imports {target}"
        for mod, target in imports()
        if mod.startswith("systems.")
        and target.startswith("systems.")
        and len(mod.split(".")) > 2
        and len(target.split(".")) > 2
        and mod.split(".")[1] != target.split(".")[1]
        and "base" not in (mod.split(".")[1], target.split(".")[1])
    ]
    assert not bad, "\n".join(bad)


def test_a_game_s_rules_never_import_its_ai() -> None:
    bad = [
        f"{mod} imports {target}"
        for mod, target in imports()
        for game, ais in AI.items()
        if mod.startswith(game) and mod not in RUNNERS and any(target.startswith(ai) for ai in ais)
    ]
    assert not bad, "\n".join(bad)


def test_the_calculator_does_not_load_shapely() -> None:
    example = SRC.parents[1] / "examples" / "wh40k-intercessors-vs-boyz.yaml"
    code = (
        "import sys\n"
        f"sys.argv = ['grimdice', 'calc', {str(example)!r}, '--json']\n"
        "from grimdice.__main__ import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('SHAPELY=' + str('shapely' in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stderr.rstrip().endswith("SHAPELY=False"), proc.stderr[-500:]
