"""The table's WebSocket: ``/ws/{table_id}?k=<seat or spectator token>``.

**States and deltas.** The first message after a (re)connect is the seat's whole view,
``{"type": "state", "you", "table", "obs", "may_act", "on_turn", "practice", "auto", "v": 1}``
(see :meth:`Table.view`); ``v`` is the connection's version of the view. After every event
the connection is sent what changed, as version ``n`` from version ``n - 1``::

    {"type": "delta", "v": n, "base": n - 1,
     "set": {...},                     # the top-level keys (not obs) whose values changed, whole
     "merge": {"table": {...}},        # only if any: a top-level object's changed keys (merged in)
     "append": {"table": {...}},       # only if any: its lists that grew, by the entries added
     "obs": {"history": [...],         # the history entries appended since base
             "history_len": L,         # the history's length once applied
             "restart": true,          # only when the history began again (a new deal): the whole history
             "set": {...},             # the other obs fields whose values changed, whole
             "drop": [...]}}           # obs keys that went away

A new deal's view is a delta too (``restart``). A client applies a delta to its version ``base`` only
(:func:`folkdeck.server.delta.apply`); one whose version is not ``base`` (a message lost)
sends ``{"type": "resync"}`` and is sent the whole state (with the next ``v``). Every
other message (ack, error, chat...) leaves the version alone.

Other messages, server → client:
``{"type": "ack", "ref": n, "line": "<seat>: <action>"}`` once an action is committed, before
the delta it leads to (again, with ``"repeated": true``, for an action sent with ``"resend":
true`` whose ``ref`` the seat's committed action used: the ``ref`` is stored with the action,
so a client that lost its connection, or whose server restarted, resends an unacknowledged
action and it is never played twice; a ``ref`` is the client's, per seat token, and a resend
is matched with the latest action sent with it),
``{"type": "pong", "ref": n}``, and ``{"type": "error", "error": code, "reason": key,
"params": {...}, "message": English, "ref": n}`` for anything refused.
``{"type": "check", "ref": n, "action": ..., "ok": bool}`` answers a check (with ``error``,
``reason`` and ``params`` when the action could not be played now: the rule that refuses it).
Client → server: ``{"type": "action", "action": "4C 4D", "ref": n}``, ``{"type": "check",
"action": "4C 5D", "ref": n}`` (could it be played now? nothing changes), ``{"type": "resume"}``
(take the seat back from the bot), ``{"type": "ping"}``, ``{"type": "resync"}`` (the whole
state again), ``{"type": "hint"}`` (answered ``{"type": "hint", "position": [deal,
actions], "action", "by", "values": [{"action", "value", "worlds"}...]}``: what a search bot
would play, see :mod:`folkdeck.agents.advice`), ``{"type": "review", "deal": n}`` (answered
``{"type": "review", "deal", "verdicts": [{"index", "chosen", "best", "best_value",
"chosen_value", "cost", "costly", "by"}...]}``: the search bot's weighing of this seat's
decisions in a finished deal), ``{"type": "name", "text": "Dara"}``
(rename one's own seat) and ``{"type": "chat", "text": "..."}`` (a chat message to the table:
every connection is sent ``{"type": "chat", "seat", "name", "text", "at"}``; a new connection
is sent ``{"type": "chat_log", "messages": [...]}`` after its first state, the table's last 50,
when there are any).

Every text message goes through :func:`folkdeck.engine.jsonin.decode` (size, depth,
numbers, text) and the message models; a refused message changes nothing and the
connection stays open. Closes: 1003 for a binary frame, 1008 for a client that keeps
sending over its rate, 4403 for a token that opens no seat, 4429 for a limit of
connections (uvicorn closes with 1009 a frame over its ``ws_max_size``, and with 1007 a text
frame that is not UTF-8: :class:`UndecodedFrames` logs that in one line).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError

from folkdeck.engine.errors import CardGameError
from folkdeck.engine.jsonin import decode
from folkdeck.engine.protocol import Seat
from folkdeck.server.actor import ref_scope
from folkdeck.server.errors import ServerError, error_message
from folkdeck.server.limits import client_key
from folkdeck.server.manager import TableManager
from folkdeck.server.schemas import ActionIn, ClientEnvelope, ControlIn, SocialIn
from folkdeck.server.tables import Connection, Table, token_hash

router = APIRouter()
log = logging.getLogger("folkdeck.server")

CLOSE_UNSUPPORTED = 1003
CLOSE_POLICY = 1008
CLOSE_BAD_TOKEN = 4403
CLOSE_FULL = 4429
RATE_STRIKES = 50
"""Messages refused for the rate, in a row, before the connection is closed (1008)."""


@router.websocket("/ws/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, k: str = "") -> None:
    tables: TableManager = websocket.app.state.tables
    requests = tables.requests
    await websocket.accept()
    table = tables.get(table_id)
    try:
        if table is None:
            raise ServerError(404, "bad_token", "server.no_table", table=table_id)
        found = await requests.seat_of(table, k)
    except ServerError as exc:
        await websocket.send_text(json.dumps(error_message(exc), ensure_ascii=False))
        await websocket.close(code=CLOSE_BAD_TOKEN)
        return
    seat: Seat | None = None if found < 0 else found
    scope = ref_scope(found, token_hash(k))
    client = client_key(websocket.scope, websocket.headers, tables.settings.trust_forwarded)
    conn = Connection(websocket.send_text, tables.settings.send_queue, client)
    writer = asyncio.create_task(conn.run())
    try:
        await requests.join(table, seat, conn)  # sent its view, and the kept chat
    except ServerError as exc:
        conn.push(error_message(exc))
        conn.close()
        await writer
        await websocket.close(code=CLOSE_FULL)
        return
    strikes = 0
    code: int | None = None
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:  # a binary frame: this socket speaks JSON text only
                code = CLOSE_UNSUPPORTED
                break
            limited = await _handle(tables, table, seat, conn, text, scope)
            strikes = strikes + 1 if limited else 0
            if strikes >= RATE_STRIKES:
                code = CLOSE_POLICY
                break
    finally:
        requests.leave(table, seat, conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        if code is not None:
            with contextlib.suppress(Exception):
                await websocket.close(code=code)


async def _handle(tables: TableManager, table: Table, seat: Seat | None, conn: Connection, text: str,
                  scope: str) -> bool:
    """Answer one message; True if it was refused for the client's rate."""
    settings, requests = tables.settings, tables.requests
    ref: int | None = None
    try:
        msg = _parse(text, settings.max_message_bytes, settings.max_json_depth)
        ref = msg.ref
        if msg.type == "ping":
            requests.send(table, seat, conn, {"type": "pong", "ref": msg.ref})
            return False
        if msg.type == "resync":
            requests.resync(table, seat, conn)
            return False
        if seat is None:
            raise ServerError(403, "spectator", "server.spectator_chat" if msg.type == "chat" else "server.spectator")
        if msg.type == "resume":
            await requests.resume(table, seat)
            return False
        if msg.type == "review":
            review = await requests.review(table, seat, msg.deal, client=conn.client)
            requests.send(table, seat, conn, {**review, "ref": msg.ref})
            return False
        if msg.type == "hint":
            requests.send(table, seat, conn, {**await requests.hint(table, seat, client=conn.client), "ref": msg.ref})
            return False
        if isinstance(msg, SocialIn):
            if msg.type == "chat":
                await requests.chat(table, seat, msg.text, client=conn.client)
            else:
                await requests.rename(table, seat, msg.text)
            return False
        assert isinstance(msg, ActionIn)
        if msg.type == "check":
            checked = await requests.check(table, seat, msg.action, client=conn.client)
            requests.send(table, seat, conn, {"type": "check", "ref": msg.ref, "action": msg.action, **checked})
            return False
        try:  # the table's owner sends the ack (or the refusal) before the state it leads to
            await requests.act(table, seat, msg.action, client=conn.client, ref=msg.ref, resend=msg.resend,
                               scope=scope, conn=conn)
        except CardGameError as exc:
            if exc.code != "rate_limited":
                return False  # refused by the table: already answered
            requests.send(table, seat, conn, error_message(exc, msg.ref))
            return True
    except CardGameError as exc:
        requests.send(table, seat, conn, error_message(exc, ref))
    except Exception:  # a bug: the connection and the table live on; the log has the trace
        log.exception("table %s: message not handled", table.id)
        requests.send(table, seat, conn, error_message(ServerError(500, "internal", "server.internal"), ref))
    return False


class UndecodedFrames(logging.Filter):
    """A text frame that is not UTF-8 never reaches :func:`socket`: uvicorn closes it with
    1007, rightly, but logs it with the traceback of its failed decode, as if the server had
    failed. Such a log record keeps its one line, with what the decoder said instead of the
    trace (installed on uvicorn's ``uvicorn.error`` logger by :func:`folkdeck.server.main.create_app`).

    >>> record = logging.LogRecord("uvicorn.error", logging.ERROR, __file__, 1, "Invalid UTF-8", (),
    ...                            (UnicodeDecodeError, UnicodeDecodeError("utf-8", b"\\xff", 0, 1, "invalid start byte"), None))
    >>> UndecodedFrames().filter(record), record.exc_info, record.getMessage()
    (True, None, "Invalid UTF-8 (closed with 1007: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte)")
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, UnicodeDecodeError):
            record.msg, record.args = f"{record.getMessage()} (closed with 1007: {error})", ()
            record.exc_info = record.exc_text = None
        return True


UNDECODED_FRAMES = UndecodedFrames()


def _parse(text: str, limit: int, depth: int) -> ActionIn | ControlIn | SocialIn:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        raise ServerError(413, "too_large", "server.message_too_large", limit=limit)
    try:
        data = decode(text, max_depth=depth, max_bytes=limit)
    except CardGameError as exc:
        raise ServerError(400, "bad_message", exc.reason, **exc.params) from exc
    try:
        msg: ActionIn | ControlIn | SocialIn = ClientEnvelope.model_validate({"msg": data}).msg
        return msg
    except ValidationError as exc:
        first = exc.errors(include_input=False)[0]
        field = ".".join(str(p) for p in first["loc"][1:]) or "(message)"
        raise ServerError(400, "bad_message", "server.bad_message", field=field, problem=first["type"]) from exc
