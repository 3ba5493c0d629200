"""Shared fixtures of the web tests: the app (extra ``web``) and its test client."""

from __future__ import annotations

import os
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


CHROMIUM = os.environ.get("GRIMDICE_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT = 30_000  # ms


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    app = create_app(jobs=1, budget=30.0, examples=EXAMPLES, allowed_hosts=["127.0.0.1"])
    with served(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium (Debian's, driven by Playwright for Python); the test skips, saying why,
    without Playwright or Chromium. One per module: Playwright's sync API holds an event loop on
    the main thread while it runs, which later tests' ``asyncio.run`` would trip over."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("GRIMDICE_ARTIFACTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def open_page(browser: Any, url: str, width: int = 1280, height: int = 900, **kw: Any) -> Any:
    """A new page at ``url`` once the page has started; its page errors collected in ``problems``."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": width, "height": height}, **kw)
    pg = context.new_page()
    pg.problems = []
    pg.on("pageerror", lambda e: pg.problems.append(f"page error: {e}"))
    pg.on(
        "console", lambda m: pg.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None
    )
    pg.goto(url)
    expect(pg.locator("body")).to_have_attribute("data-ready", "true", timeout=WAIT)
    return pg


def crusade_played(browser: Any, url: str, scenario: str, games: int, width: int, height: int) -> Any:
    """A page at ``url`` (``width`` x ``height``) that has played ``games`` games of the bundled
    Rules Crusade ``scenario`` (seed 0)."""
    from playwright.sync_api import expect

    page = open_page(browser, url, width=width, height=height)
    page.select_option("#crusade-game", scenario)
    page.fill("#crusade-count", str(games))
    page.click("#crusade-play")
    expect(page.locator("#crusade-status")).to_contain_text(f"{games} games played", timeout=60_000)
    return page


def board_shot(page: Any, board: str, path: Path) -> None:
    """Screenshot the page with ``board`` in view to ``path``, check that the page does not scroll
    sideways and had no page errors, and close it."""
    page.locator(board).scroll_into_view_if_needed()
    page.screenshot(path=path, full_page=False)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{path.stem}: the page scrolls sideways by {overflow}px"
    assert page.problems == []
    page.context.close()


def settled_url(page: Any) -> str:
    """The page's URL once it has stopped changing (the link follows the page after a debounce)."""
    url = page.url
    for _ in range(20):
        page.wait_for_timeout(400)
        if page.url == url:
            break
        url = page.url
    return url


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """The page at desktop width, opened on its first example; no page error may happen."""
    pg = open_page(browser, server)
    yield pg
    pg.context.close()
    assert not [p for p in pg.problems if "status of 422" not in p], pg.problems  # 422: the error tests


@pytest.fixture(scope="session")
def client() -> Iterator[TestClient]:
    app = create_app(jobs=1, budget=20.0, examples=EXAMPLES)
    with TestClient(app) as c:
        yield c
