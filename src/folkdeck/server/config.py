"""Server settings (environment variables ``FOLKDECK_*`` or keyword arguments)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Where the server keeps its tables and how fast it plays."""

    model_config = SettingsConfigDict(env_prefix="FOLKDECK_")

    db: str = "folkdeck.sqlite3"
    """SQLite file (or ``sqlite:///path``, ``:memory:``), or a ``postgresql://user@host/db`` URL
    (psycopg, in the ``server`` extra); see :func:`folkdeck.server.store.open_store`."""
    bot_delay: Annotated[float, Field(ge=0, le=10)] = 0.6
    """Seconds a bot waits before it acts (so people can follow)."""
    deal_pause: Annotated[float, Field(ge=0, le=60)] = 3.0
    """Seconds between the deals of a match."""
    max_message_bytes: Annotated[int, Field(ge=256, le=65536)] = 4096
    max_tables: Annotated[int, Field(ge=1)] = 5000
    max_spectators: Annotated[int, Field(ge=0)] = 50
    send_queue: Annotated[int, Field(ge=8)] = 256
    """Messages queued for one connection before it is dropped."""
