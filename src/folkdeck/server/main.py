"""The app: ``create_app(settings)`` gives the FastAPI application (lobby at ``/``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from folkdeck.server.api import ws
from folkdeck.server.api.routes import games, tables
from folkdeck.server.config import Settings
from folkdeck.server.store import open_store
from folkdeck.server.tables import TableManager

WEB = Path(str(resources.files("folkdeck") / "web"))


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application; its tables are restored from the database when it starts."""
    settings = settings or Settings()
    store = open_store(settings.db)
    manager = TableManager(settings, store)
    manager.load()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager.start()
        yield
        await manager.stop()

    app = FastAPI(title="folkdeck", lifespan=lifespan)
    app.state.tables = manager
    app.state.settings = settings
    app.include_router(games.router)
    app.include_router(tables.router)
    app.include_router(ws.router)
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(WEB / name, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/table", include_in_schema=False)
    def table_page() -> FileResponse:
        return page("table.html")

    @app.get("/replay", include_in_schema=False)
    def replay_page() -> FileResponse:
        return page("replay.html")

    return app
