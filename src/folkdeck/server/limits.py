"""The server's input boundary and its rate limits.

:class:`InputBoundary` is an ASGI middleware in front of every HTTP route. It refuses,
before FastAPI sees the request:

- a body larger than the route's limit: by ``Content-Length`` at once, or while the body
  arrives (it is never read past the limit), with 413;
- a body that :func:`folkdeck.engine.jsonin.decode` refuses (too deep, a huge integer,
  ``NaN``/``Infinity``, a lone surrogate, not UTF-8, not JSON), with 400 naming the reason;
  a leading UTF-8 BOM is skipped. A record (``POST /api/replay``) is held to the limits of
  the record reader (docs/records.md, "Limits"), as ``folkdeck replay`` holds it, but for
  its size (``max_record_bytes``). What passes is handed on re-encoded, so the routes'
  own JSON parsing sees only plain JSON;
- a client over its request rate, with 429 and ``Retry-After``.

:class:`RateLimiter` is a token bucket per client address (a burst, then a steady rate),
bounded in memory. slowapi was considered; it limits HTTP routes only, and the
WebSocket's actions need the same limiter, so the server keeps this small one.

>>> bucket = RateLimiter(rate=1.0, burst=2)
>>> [bucket.take("a", now=0.0) for _ in range(3)]
[0.0, 0.0, 1.0]
>>> bucket.take("a", now=1.0), bucket.take("b", now=1.0)
(0.0, 0.0)
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from collections.abc import Mapping

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from folkdeck.engine.errors import CardGameError
from folkdeck.engine.jsonin import MAX_DEPTH, JSONInputError, decode
from folkdeck.server.config import Settings
from folkdeck.server.errors import ServerError, error_body

MAX_CLIENTS = 100_000
"""Client addresses a limiter remembers (the least recently seen are forgotten first)."""

BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class RateLimiter:
    """A token bucket per key: ``burst`` at once, then ``rate`` per second."""

    def __init__(self, rate: float, burst: int, max_keys: int = MAX_CLIENTS) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str, *, now: float | None = None) -> float:
        """Take one token: ``0.0`` if allowed, else the seconds until one is there."""
        if now is None:
            import time

            now = time.monotonic()
        tokens, stamp = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        wait = 0.0
        if tokens >= 1.0:
            tokens -= 1.0
        else:
            wait = (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return wait

    def check(self, key: str) -> None:
        """Take a token or refuse.

        :raises ServerError: ``rate_limited`` (429) with ``retry`` seconds.
        """
        wait = self.take(key)
        if wait > 0:
            raise ServerError(429, "rate_limited", "server.rate_limited", retry=math.ceil(wait))


def client_key(scope: Scope, headers: Mapping[str, str], trust_forwarded: bool) -> str:
    """The client's address (the first ``X-Forwarded-For`` entry behind a trusted proxy)."""
    if trust_forwarded:
        forwarded = headers.get("x-forwarded-for", "")
        if forwarded:
            return str(forwarded.split(",")[0].strip())[:64]
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _is_record(path: str) -> bool:
    """Whether the route takes a record (``POST /api/replay``)."""
    return path.rstrip("/") == "/api/replay"


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


class InputBoundary:
    """The ASGI middleware described in the module docstring."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.requests = RateLimiter(settings.requests_per_second, settings.requests_burst)

    def limit_for(self, path: str) -> int:
        return self.settings.max_record_bytes if _is_record(path) else self.settings.max_body_bytes

    def depth_for(self, path: str) -> int:
        """A record is nested as deep as the record reader takes (docs/records.md, "Limits":
        the same for ``folkdeck replay``); any other body as ``max_json_depth`` says."""
        return MAX_DEPTH if _is_record(path) else self.settings.max_json_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            await self._http(scope, receive, send)
        except ServerError as exc:
            await self._refuse(scope, receive, send, exc, exc.status)
        except JSONInputError as exc:
            await self._refuse(scope, receive, send, exc, 400)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, exc: CardGameError, status: int) -> None:
        headers = {"Retry-After": str(exc.params.get("retry", 1))} if exc.code == "rate_limited" else None
        response = JSONResponse(error_body(exc), status_code=status, headers=headers)
        await response(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        path = str(scope.get("path", ""))
        try:
            path.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise JSONInputError("json_surrogate", field="(path)") from exc
        self.requests.check(client_key(scope, headers, self.settings.trust_forwarded))
        if scope.get("method", "GET") not in BODY_METHODS:
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(path)
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise ServerError(413, "too_large", "server.body_too_large", limit=limit)
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > limit:
                raise ServerError(413, "too_large", "server.body_too_large", limit=limit)
            if not message.get("more_body", False):
                break
        if body.strip():
            value = decode(bytes(body), max_depth=self.depth_for(path), max_bytes=limit)
            clean = json.dumps(value, ensure_ascii=False).encode("utf-8")
        else:
            clean = b""
        scope = dict(scope)
        scope["headers"] = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"content-length"]
        scope["headers"].append((b"content-length", str(len(clean)).encode()))
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()  # the disconnect, when it comes
            sent = True
            return {"type": "http.request", "body": clean, "more_body": False}

        await self.app(scope, replay, send)


__all__ = ["InputBoundary", "RateLimiter", "client_key"]
