"""Shared fixtures of the web tests: the app (extra ``web``) and its test client."""

from __future__ import annotations

import socket
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
pytest.importorskip("fastapi", reason="the web extra is not installed: pip install 'grimdice[web]'")

from fastapi.testclient import TestClient  # noqa: E402

from grimdice.web.server import create_app  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@contextmanager
def served(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn on 127.0.0.1 on a free port, in a thread: yields the base URL
    (ending in ``/``) once the server has started, and stops it afterwards."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        if time.monotonic() > deadline:
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        srv.should_exit = True
        thread.join(30)


@pytest.fixture(scope="session")
def client() -> Iterator[TestClient]:
    app = create_app(jobs=1, budget=20.0, examples=EXAMPLES)
    with TestClient(app) as c:
        yield c
