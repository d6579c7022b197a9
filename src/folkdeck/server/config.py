"""Server settings (environment variables ``FOLKDECK_*`` or keyword arguments)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Where the server keeps its tables and how fast it plays."""

    model_config = SettingsConfigDict(env_prefix="FOLKDECK_")

    db: str = Field("folkdeck.sqlite3", description="SQLite file, ':memory:', or a postgresql:// URL")
    bot_delay: float = Field(0.6, ge=0, le=10, description="seconds a bot waits before it acts")
    deal_pause: float = Field(3.0, ge=0, le=60, description="seconds between the deals of a match")
    max_message_bytes: int = Field(4096, ge=256, le=65536)
    max_tables: int = Field(5000, ge=1)
    max_spectators: int = Field(50, ge=0)
    send_queue: int = Field(256, ge=8, description="messages queued for one connection before it is dropped")
