"""The table's WebSocket: ``/ws/{table_id}?k=<seat or spectator token>``.

Server → client: ``{"type": "state", ...}`` (see :meth:`Table.view`) after every event,
``{"type": "ack", "ref": n, "line": "<seat>: <action>"}`` once an action is committed, and
``{"type": "error", "error": code, "message": ..., "ref": n}`` for anything refused.
Client → server: ``{"type": "action", "action": "4C 4D", "ref": n}``, ``{"type": "resume"}``
(take the seat back from the bot), ``{"type": "ping"}``. Messages are limited in size and
validated; a refused message changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from folkdeck.engine.errors import CardGameError
from folkdeck.engine.protocol import Seat
from folkdeck.server.schemas import ActionIn, ClientEnvelope, ErrorOut
from folkdeck.server.tables import Connection, Table, TableManager

router = APIRouter()


def _error(code: str, message: str, ref: int | None = None) -> dict[str, object]:
    return ErrorOut(error=code, message=message, ref=ref).model_dump()


@router.websocket("/ws/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str, k: str = "") -> None:
    tables: TableManager = websocket.app.state.tables
    await websocket.accept()
    table = tables.get(table_id)
    seat: Seat | None = None
    try:
        if table is None:
            raise PermissionError(f"no table {table_id!r}")
        found = tables.seat_of(table, k)
        seat = None if found < 0 else found
    except PermissionError as exc:
        await websocket.send_text(json.dumps(_error("bad_token", f"this link opens no seat ({exc})")))
        await websocket.close(code=4403)
        return
    conn = Connection(websocket.send_text, tables.settings.send_queue)
    writer = asyncio.create_task(conn.run())
    try:
        tables.join(table, seat, conn)
    except PermissionError as exc:
        conn.push(_error("full", str(exc)))
        conn.close()
        await writer
        await websocket.close(code=4429)
        return
    try:
        while not conn.closed:
            text = await websocket.receive_text()
            await _handle(tables, table, seat, conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        tables.leave(table, seat, conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _handle(tables: TableManager, table: Table, seat: Seat | None, conn: Connection, text: str) -> None:
    limit = tables.settings.max_message_bytes
    if len(text) > limit:
        tables.send(table, seat, conn, _error("too_large", f"messages are limited to {limit} bytes"))
        return
    try:
        msg = ClientEnvelope.model_validate({"msg": json.loads(text)}).msg
    except (ValueError, ValidationError) as exc:
        detail = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else "not JSON"
        tables.send(table, seat, conn, _error("bad_message", f"malformed message: {detail}"))
        return
    if msg.type == "ping":
        tables.send(table, seat, conn, {"type": "pong", "ref": msg.ref})
        return
    if seat is None:
        tables.send(table, seat, conn, _error("spectator", "spectators cannot act", msg.ref))
        return
    if msg.type == "resume":
        await tables.resume(table, seat)
        return
    assert isinstance(msg, ActionIn)
    try:
        event = await tables.act(table, seat, msg.action)
    except CardGameError as exc:
        tables.send(table, seat, conn, {"type": "error", **exc.to_dict(), "ref": msg.ref})
        return
    tables.send(table, seat, conn, {"type": "ack", "ref": msg.ref, "line": event.line})
    tables.after_event(table)
