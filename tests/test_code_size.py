"""Code a person can read: no function in ``src/`` over 80 lines (ruff holds complexity and statement
counts: C901, PLR0915 in pyproject), read from the source with ``ast``, and no source file over 500
lines."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "grimdice"
MAX_LINES = 80
MAX_FILE_LINES = 500


def long_functions(root: Path = SRC, most: int = MAX_LINES) -> set[tuple[str, str]]:
    """(file, function) of every function or method of more than ``most`` lines under ``root``."""
    out = set()
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                if node.end_lineno - node.lineno + 1 > most:
                    out.add((path.relative_to(root).as_posix(), node.name))
    return out


def long_files(root: Path = SRC, most: int = MAX_FILE_LINES) -> dict[str, int]:
    """``{file: lines}`` of every source file of more than ``most`` lines under ``root``."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > most:
            out[path.relative_to(root).as_posix()] = lines
    return out


def test_no_function_is_over_80_lines():
    assert long_functions() == set(), "split these functions (at most 80 lines each)"


def test_the_count_sees_a_long_function(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "m.py").write_text(f"def short():\n    pass\n\n\ndef long():\n{body}\n", encoding="utf-8")
    assert long_functions(tmp_path) == {("m.py", "long")}


def test_no_source_file_is_over_500_lines():
    assert long_files() == {}, "split these files by role (at most 500 lines each)"


def test_the_count_sees_a_long_file(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * (MAX_FILE_LINES + 1), encoding="utf-8")
    (tmp_path / "pkg" / "full.py").write_text("x = 1\n" * MAX_FILE_LINES, encoding="utf-8")
    assert long_files(tmp_path) == {"pkg/long.py": MAX_FILE_LINES + 1}
