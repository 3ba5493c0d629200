"""The Python API examples (``examples/api/*.py``) run and print what their rules say."""

import runpy
from pathlib import Path

import pytest

API = Path(__file__).resolve().parent.parent / "examples" / "api"

EXPECTED = {
    "crusade_helpers.py": [
        "jump 3 in. gap",
        "charge bonus move: 2 in.",
        "actions spent: 1",
        "(0, 0) (now, next turn)",
    ],
    "heresy_deployment.py": ["deployed by Infiltrate: True", "too close: Infiltrate", "scores 1"],
    "wh40k_scouts.py": ["closest enemy after the move", 'refused: Scouts: the move must end more than 9"'],
}


def test_every_api_example_is_checked():
    assert sorted(p.name for p in API.glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_api_example_runs(name, capsys):
    runpy.run_path(str(API / name), run_name="__main__")
    out = capsys.readouterr().out
    for needle in EXPECTED[name]:
        assert needle in out, (needle, out)
