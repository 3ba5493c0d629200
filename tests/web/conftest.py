"""Shared fixtures of the web tests: the app (extra ``web``) and its test client."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
pytest.importorskip("fastapi", reason="the web extra is not installed: pip install 'grimdice[web]'")

from fastapi.testclient import TestClient  # noqa: E402

from grimdice.web.server import create_app  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="session")
def client() -> Iterator[TestClient]:
    app = create_app(jobs=1, budget=20.0, examples=EXAMPLES)
    with TestClient(app) as c:
        yield c
