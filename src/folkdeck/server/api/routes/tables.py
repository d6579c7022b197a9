"""``/api/tables``: create a table, see it, act over REST, download and replay records."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response

from folkdeck.engine.errors import CardGameError, IllegalActionError, MalformedRecordError
from folkdeck.engine.record import Record, dumps
from folkdeck.server.api.deps import TablesDep
from folkdeck.server.schemas import RestActionIn, SeatLink, TableCreate, TableCreated, TablePublic
from folkdeck.server.store import StoreError
from folkdeck.server.tables import Table, TableManager

router = APIRouter(prefix="/api", tags=["tables"])

MAX_RECORD_BYTES = 512 * 1024


def _table(tables: TableManager, table_id: str) -> Table:
    table = tables.get(table_id)
    if table is None:
        raise HTTPException(404, {"error": "no_table", "message": f"no table {table_id!r}"})
    return table


def _refusal(exc: CardGameError) -> HTTPException:
    """409 for an illegal action, 503 when the store is down (try again), else 422."""
    if isinstance(exc, StoreError):
        return HTTPException(503, exc.to_dict())
    return HTTPException(409 if isinstance(exc, IllegalActionError) else 422, exc.to_dict())


@router.post("/tables", status_code=201)
async def create_table(body: TableCreate, tables: TablesDep) -> TableCreated:
    try:
        table, tokens, watch = tables.create(body)
    except CardGameError as exc:
        raise _refusal(exc) from exc
    seats = [SeatLink(seat=i, kind=s["kind"], name=s["name"], bot=s["bot"],
                      token=tokens[i] or None,
                      link=f"/table?t={table.id}&k={tokens[i]}" if tokens[i] else None)
             for i, s in enumerate(table.seats)]
    return TableCreated(id=table.id, seats=seats, spectator_link=f"/table?t={table.id}&k={watch}",
                        spectator_token=watch)


@router.get("/tables/{table_id}")
def get_table(table_id: str, tables: TablesDep) -> TablePublic:
    return TablePublic(**_table(tables, table_id).public())


@router.post("/tables/{table_id}/actions")
async def post_action(table_id: str, body: RestActionIn, tables: TablesDep) -> dict[str, Any]:
    """An action over HTTP (the browser uses the WebSocket); 409 with the reason if refused."""
    table = _table(tables, table_id)
    try:
        seat = tables.seat_of(table, body.token)
    except PermissionError as exc:
        raise HTTPException(403, {"error": "bad_token", "message": "this link opens no seat"}) from exc
    if seat < 0:
        raise HTTPException(403, {"error": "spectator", "message": "spectators cannot act"})
    try:
        event = await tables.act(table, seat, body.action)
    except CardGameError as exc:
        raise _refusal(exc) from exc
    tables.after_event(table)
    return {"ok": True, "event": str(event), "line": event.line}


@router.get("/tables/{table_id}/records/{deal}")
def get_record(table_id: str, deal: int, tables: TablesDep) -> Response:
    """A finished deal as a ``folkdeck-record/1`` file.

    Given as soon as the deal is over, except in games whose deals share hidden cards
    (Cambio's stock), where every record waits for the end of the match (409 with the reason).
    """
    table = _table(tables, table_id)
    if not 1 <= deal <= table.config["deals"] or (table.match_over() and deal > len(table.finished)):
        raise HTTPException(404, {"error": "no_deal", "message": f"no deal {deal}"})
    if deal > len(table.finished):
        raise HTTPException(409, {"error": "not_over", "message": f"deal {deal} is not over yet"})
    locked = table.records_locked()
    if locked is not None:
        raise HTTPException(409, {"error": "locked", "message": f"deal {deal} is over, but {locked}"})
    text = dumps(table.record(deal - 1))
    name = f"{table.game.spec.name}-{table.id}-deal{deal}.json"
    return Response(text, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.post("/replay")
async def replay(request: Request) -> JSONResponse:
    """Every step of a record: the public view and every hand, for the replay viewer."""
    body = await request.body()
    if len(body) > MAX_RECORD_BYTES:
        raise HTTPException(413, {"error": "too_large", "message": "records are limited to 512 KB"})
    try:
        record = Record.from_dict(_json(body))
        state = record.start()
        steps = [_step(state, None)]
        for state, event in record.steps():
            steps.append(_step(state, str(event)))
    except CardGameError as exc:
        raise HTTPException(422, exc.to_dict()) from exc
    result = state.result() if state.is_over() else None
    return JSONResponse({"game": record.game, "players": state.num_players, "steps": steps,
                         "result": result.to_dict() if result is not None else None})


def _json(body: bytes) -> Any:
    import json

    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MalformedRecordError(f"bad JSON: {exc}", field="(json)") from exc


def _step(state: Any, event: str | None) -> dict[str, Any]:
    hands = []
    for seat in range(state.num_players):
        view = state.observe(seat).to_dict()
        hands.append(view.get("hand") if view.get("hand") is not None else view.get("card"))
    return {"event": event, "public": state.observe(None).to_dict(), "hands": hands}
