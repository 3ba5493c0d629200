"""The Crusade AI's modules import one another without a cycle (module-level or in a function)."""

from __future__ import annotations

import ast
from pathlib import Path

AI = Path("src/grimdice/systems/crusade/ai")
PACKAGE = "grimdice.systems.crusade.ai"


def _imports(path: Path) -> set[str]:
    """The AI modules ``path`` imports, anywhere in it (the package's ``__init__`` apart)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(PACKAGE + "."):
                out.add(node.module.rsplit(".", 1)[1])
            elif node.module == PACKAGE:
                out.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name.rsplit(".", 1)[1] for a in node.names if a.name.startswith(PACKAGE + "."))
    return out


def test_no_ai_module_imports_one_that_imports_it_back():
    graph = {p.stem: _imports(p) for p in AI.glob("*.py") if p.stem != "__init__"}
    assert "powers" in graph and "players" in graph

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert [m for m in graph if reaches(m, m, {m})] == []
