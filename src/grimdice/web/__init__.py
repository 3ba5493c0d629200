"""grimdice in a browser: a local web page and HTTP API (``grimdice serve``; extra ``web``).

The server only listens on the address it is given (127.0.0.1 by default), needs no account and
no internet: the page, its charts and the API docs are static files shipped in this package.
"""

from __future__ import annotations

__all__ = ["create_app", "serve"]


def __getattr__(name: str):  # lazy: importing grimdice.web must not require FastAPI
    if name in __all__:
        from grimdice.web import server

        return getattr(server, name)
    raise AttributeError(name)
