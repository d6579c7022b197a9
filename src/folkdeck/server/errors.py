"""What the server refuses, as coded errors, and the one shape every refusal is sent in.

Every refusal, over HTTP or the WebSocket, is ``{"error": code, "reason": catalog key,
"params": {...}, "message": English}`` (:meth:`CardGameError.to_dict`), so a browser
renders ``reason``/``params`` in the player's language from ``/i18n/<lang>.json``. HTTP
bodies carry the same fields again under ``detail`` (what earlier clients read). No
refusal echoes what the client sent: a field is named, its value is not repeated.

>>> err = ServerError(404, "no_table", "server.no_table", table="abc")
>>> body = error_body(err)
>>> body["error"], body["reason"], body["params"], body["detail"]["reason"]
('no_table', 'server.no_table', {'table': 'abc'}, 'server.no_table')
>>> body["message"]
"no table 'abc'"
"""

from __future__ import annotations

from typing import TypedDict

from folkdeck.engine.errors import CardGameError, IllegalActionError
from folkdeck.json_types import JSONObject

MAX_PARAM_CHARS = 80
"""A parameter that names client input (a table id, a field path) is cut to this length."""


class ServerError(CardGameError):
    """A refusal of the server itself (no such table, a limit reached, a bad request).

    ``status`` is the HTTP status; ``code`` the error's class as clients test it
    (``no_table``, ``rate_limited``...); ``reason`` the catalog key (``server.no_table``).
    """

    def __init__(self, status: int, code: str, reason: str, /, **params: object) -> None:
        super().__init__(reason, **{k: _short(v) for k, v in params.items()})
        self.status = status
        self.code = code


class CodedError(TypedDict):
    """A refusal's coded fields (those of :meth:`CardGameError.to_dict` a client renders
    from), as they cross between server processes."""

    error: str
    reason: str
    params: JSONObject


def coded(exc: CardGameError) -> CodedError:
    """The refusal's code, catalog reason and parameters."""
    fields = exc.to_dict()
    params = fields["params"]
    return {"error": str(fields["error"]), "reason": str(fields["reason"]),
            "params": params if isinstance(params, dict) else {}}


def _short(value: object) -> object:
    if isinstance(value, str) and len(value) > MAX_PARAM_CHARS:
        return value[:MAX_PARAM_CHARS] + "…"
    return value


def status_of(exc: CardGameError) -> int:
    """The HTTP status of a refusal: the server's own, 409 for an action the rules refuse
    now, 503 when the database is down (try again), else 422 (the request is wrong)."""
    from folkdeck.server.store import StoreError

    if isinstance(exc, ServerError):
        return exc.status
    if isinstance(exc, StoreError):
        return 503
    return 409 if isinstance(exc, IllegalActionError) else 422


def error_body(exc: CardGameError) -> JSONObject:
    """The JSON body of an HTTP refusal (the coded fields, again under ``detail``)."""
    coded = {k: v for k, v in exc.to_dict().items() if k in ("error", "reason", "params", "message")}
    return {**coded, "detail": dict(coded)}


def error_message(exc: CardGameError, ref: int | None = None) -> JSONObject:
    """A WebSocket refusal: ``{"type": "error", ...coded fields, "ref": n}``."""
    coded = {k: v for k, v in exc.to_dict().items() if k in ("error", "reason", "params", "message")}
    return {"type": "error", **coded, "ref": ref}


__all__ = ["CodedError", "ServerError", "coded", "error_body", "error_message", "status_of"]
