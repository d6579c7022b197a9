"""Dependencies shared by the routes."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from folkdeck.server.manager import TableManager


def get_tables(request: Request) -> TableManager:
    manager: TableManager = request.app.state.tables
    return manager


TablesDep = Annotated[TableManager, Depends(get_tables)]
