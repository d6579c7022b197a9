"""The app: ``create_app(settings)`` gives the FastAPI application (lobby at ``/``).

Every refusal leaves as one coded shape (:func:`folkdeck.server.errors.error_body`):
the engine's and the server's errors, request validation (the field and the kind of
problem, never the input echoed back), unknown routes, and any bug (500, logged).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from folkdeck.engine.errors import CardGameError
from folkdeck.server.api import ws
from folkdeck.server.api.routes import games, tables
from folkdeck.server.cluster import Cluster
from folkdeck.server.config import Settings
from folkdeck.server.errors import ServerError, error_body, status_of
from folkdeck.server.limits import InputBoundary
from folkdeck.server.manager import TableManager
from folkdeck.server.store import open_store

WEB = Path(str(resources.files("folkdeck") / "web"))
log = logging.getLogger("folkdeck.server")


def _field(loc: tuple[int | str, ...]) -> str:
    """``("body", "seats", 2, "bot")`` → ``seats[2].bot`` (where, never what)."""
    parts = [p for p in loc if p not in ("body",)]
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(body)"


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application; its tables are restored from the database when it starts."""
    settings = settings or Settings()
    manager = _table_manager(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager.start()
        yield
        await manager.stop()

    app = FastAPI(title="folkdeck", lifespan=lifespan)
    logging.getLogger("uvicorn.error").addFilter(ws.UNDECODED_FRAMES)  # once, however many apps
    app.state.tables = manager
    app.state.settings = settings
    app.add_middleware(InputBoundary, settings=settings)
    _add_routes(app)
    _add_error_handlers(app)
    return app


def _table_manager(settings: Settings) -> TableManager:
    """The tables of the configured database, loaded (and shared with other processes on PostgreSQL)."""
    store = open_store(settings.db)
    manager = TableManager(settings, store)
    if store.backend == "PostgreSQL":  # any number of processes may share the database
        manager.cluster = Cluster(manager)
    manager.load()
    return manager


def _add_routes(app: FastAPI) -> None:
    """The API's routers, the static files and the pages."""
    app.include_router(games.router)
    app.include_router(games.i18n_router)
    app.include_router(tables.router)
    app.include_router(ws.router)
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(WEB / name, headers={"Cache-Control": "no-cache"})

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        # Browsers ask for /favicon.ico whatever the page says: the SVG answers both.
        return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "max-age=86400"})

    @app.get("/", include_in_schema=False)
    def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/table", include_in_schema=False)
    def table_page() -> FileResponse:
        return page("table.html")

    @app.get("/replay", include_in_schema=False)
    def replay_page() -> FileResponse:
        return page("replay.html")


def _add_error_handlers(app: FastAPI) -> None:
    """Every refusal as one coded shape (:func:`folkdeck.server.errors.error_body`)."""

    @app.exception_handler(CardGameError)
    async def refused(request: Request, exc: CardGameError) -> JSONResponse:
        headers = {"Retry-After": str(exc.params.get("retry", 1))} if exc.code == "rate_limited" else None
        return JSONResponse(error_body(exc), status_code=status_of(exc), headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "type": "invalid"}
        err = ServerError(422, "bad_request", "server.request_invalid", field=_field(tuple(first["loc"])),
                          problem=str(first["type"]))
        return JSONResponse(error_body(err), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        err = ServerError(exc.status_code, "http_error", "server.http_status", status=exc.status_code)
        return JSONResponse(error_body(err), status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONResponse(error_body(ServerError(500, "internal", "server.internal")), status_code=500)
