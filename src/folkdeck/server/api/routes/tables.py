"""``/api/tables``: create a table, see it, act over REST, download and replay records.

Every refusal is a :class:`~folkdeck.engine.errors.CardGameError` turned into the coded
body of :func:`folkdeck.server.errors.error_body` by the app's handler.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import cast

from fastapi import APIRouter, Request
from fastapi.responses import Response

from folkdeck.engine import match_record
from folkdeck.engine.record import dumps
from folkdeck.json_types import JSONObject
from folkdeck.server import social
from folkdeck.server.api.deps import TablesDep
from folkdeck.server.errors import ServerError
from folkdeck.server.limits import client_key
from folkdeck.server.manager import TableManager
from folkdeck.server.replay import replay_text
from folkdeck.server.schemas import (
    JoinIn,
    NextMatch,
    OpenTable,
    RestActionIn,
    SeatLink,
    SeatTaken,
    TableCreate,
    TableCreated,
    TablePublic,
    TokenIn,
)
from folkdeck.server.tables import Table

router = APIRouter(prefix="/api", tags=["tables"])
log = logging.getLogger("folkdeck.server")



def _table(tables: TableManager, table_id: str) -> Table:
    table = tables.get(table_id)
    if table is None:
        raise ServerError(404, "no_table", "server.no_table", table=table_id)
    return table


def _client(request: Request, tables: TableManager) -> str:
    return client_key(request.scope, request.headers, tables.settings.trust_forwarded)


@router.post("/tables", status_code=201)
async def create_table(body: TableCreate, tables: TablesDep, request: Request) -> TableCreated:
    table, tokens, watch = tables.create(body, client=_client(request, tables))
    public = tables.snapshot(table).public
    seats = [SeatLink.model_validate({**{key: s[key] for key in ("seat", "kind", "name", "bot")},
                                      "token": tokens[i] or None,
                                      "link": f"/table?t={table.id}&k={tokens[i]}" if tokens[i] else None})
             for i, s in enumerate(cast("list[JSONObject]", public["seats"]))]
    return TableCreated(id=table.id, seats=seats, spectator_link=f"/table?t={table.id}&k={watch}",
                        spectator_token=watch)


@router.get("/tables")
async def open_tables(tables: TablesDep) -> list[OpenTable]:
    """The tables with a seat anyone may take (created with an ``open`` seat), while their
    match is on; the newest first."""
    return [OpenTable.model_validate(t) for t in social.listing(await tables.open_tables())]


@router.post("/tables/{table_id}/join")
async def join_table(table_id: str, body: JoinIn, tables: TablesDep, request: Request) -> SeatTaken:
    """Take the first free seat of a listed table under ``name``; 409 when none is left."""
    table = _table(tables, table_id)
    client = _client(request, tables)
    seat, token = await tables.requests.take_seat(table, body.name, client=client)
    return SeatTaken(seat=seat, token=token, link=f"/table?t={table.id}&k={token}")


@router.post("/tables/{table_id}/rematch")
async def rematch(table_id: str, body: TokenIn, tables: TablesDep) -> NextMatch:
    """The next match with the same seats, rules and links, once this one is over (asking
    again gives the same table). Any seat may ask; the answer's link is the asker's."""
    table = _table(tables, table_id)
    seat = await tables.requests.seat_of(table, body.token)
    if seat < 0:
        raise ServerError(403, "spectator", "server.spectator")
    new_id = await tables.requests.rematch(table)
    return NextMatch(id=new_id, link=f"/table?t={new_id}&k={body.token}")


@router.get("/tables/{table_id}")
async def get_table(table_id: str, tables: TablesDep) -> TablePublic:
    """What anyone who knows the table's id may see of it (as its actor last published it)."""
    return TablePublic.model_validate((await tables.look(table_id)).public_now())


@router.post("/tables/{table_id}/actions")
async def post_action(table_id: str, body: RestActionIn, tables: TablesDep, request: Request) -> Mapping[str, object]:
    """An action over HTTP (the browser uses the WebSocket); 409 with the reason if refused."""
    table = _table(tables, table_id)
    seat = await tables.requests.seat_of(table, body.token)
    if seat < 0:
        raise ServerError(403, "spectator", "server.spectator")
    event = await tables.requests.act(table, seat, body.action, client=_client(request, tables))
    assert not isinstance(event, str)  # a ref is only a WebSocket's: never a repeated answer here
    return {"ok": True, "event": event.to_dict(), "line": event.line}


def _download(text: str, name: str) -> Response:
    return Response(text, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/tables/{table_id}/records/{deal}")
async def get_record(table_id: str, deal: int, tables: TablesDep) -> Response:
    """A finished deal as a ``folkdeck-record/1`` file.

    Given as soon as the deal is over, except in games whose deals share hidden cards
    (``GameSpec.record_embargo``), where every record waits for the end of the match
    (409 with the reason). A closed (expired) table's records are still given.
    """
    table = await tables.look(table_id, closed=True)
    text = await asyncio.to_thread(dumps, table.record(deal))  # a finished deal's: nothing changes it
    return _download(text, f"{table.game}-{table.id}-deal{deal}.json")


@router.get("/tables/{table_id}/record")
async def get_match_record(table_id: str, tables: TablesDep) -> Response:
    """The whole match as a ``folkdeck-match/1`` file: every finished deal with what the
    match reported around it and the standings (the same embargo as the deal records)."""
    table = await tables.look(table_id, closed=True)
    text = await asyncio.to_thread(match_record.dumps, table.whole_match())  # a long match's takes a while
    return _download(text, f"{table.game}-{table.id}-match.json")


@router.post("/replay")
async def replay(request: Request, tables: TablesDep) -> Response:
    """Every step of a record, ``folkdeck-record/1`` or ``folkdeck-match/1``: the public view
    and every hand, for the replay viewer. Paged by deal: a match record's answer is one deal
    (``?deal=N``, 1 by default; ``match.deals`` says how many there are). Each step after the
    first is what changed since the one before (``?steps=full``: every step whole, for short
    deals). The body was checked by the input boundary (size, depth, numbers, text); the
    replay runs in the worker pool, at most ``replay_seconds`` (the worker stops then too), so
    it never holds up the server (:mod:`folkdeck.server.replay`)."""
    body = (await request.body()).decode("utf-8", "surrogatepass") or "null"
    deal = request.query_params.get("deal", "1")
    steps_form = request.query_params.get("steps", "delta")
    seconds = tables.settings.replay_seconds
    answer = await tables.bots.run(replay_text, body, deal, steps_form, time.monotonic() + seconds, timeout=seconds)
    if answer is None:
        raise ServerError(503, "full", "server.full")  # the workers are busy: later
    status, text = answer
    return Response(text, status_code=status, media_type="application/json")
