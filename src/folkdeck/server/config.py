"""Server settings (environment variables ``FOLKDECK_*`` or keyword arguments).

Every limit the server enforces is here, with its default; ``docs/web.md`` explains them.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Where the server keeps its tables, how fast it plays, and what it lets one client do."""

    model_config = SettingsConfigDict(env_prefix="FOLKDECK_")

    db: str = "folkdeck.sqlite3"
    """SQLite file (or ``sqlite:///path``, ``:memory:``), or a ``postgresql://user@host/db`` URL
    (psycopg, in the ``postgres`` extra); see :func:`folkdeck.server.store.open_store`."""
    bot_delay: Annotated[float, Field(ge=0, le=10)] = 0.6
    """Seconds a bot waits before it acts (so people can follow)."""
    deal_pause: Annotated[float, Field(ge=0, le=60)] = 3.0
    """Seconds between the deals of a match."""
    window_seconds: Annotated[float, Field(ge=0, le=120)] = 8.0
    """How long a bot on turn waits while a person holds a public out-of-turn right (Gou Ji's
    先让让): long enough to use it without reflexes."""
    call_seconds: Annotated[float, Field(ge=0, le=120)] = 3.0
    """How long a bot on turn waits, in a game whose out-of-turn right comes from a hidden
    card (the OWL's cucco call), while a connected person may hold one for all the public facts
    tell (``State.possible_callers``): every such person gets the same moment whatever they
    hold, so the wait tells nothing, and the holder can call without reflexes."""

    # --- bots ---------------------------------------------------------------------------
    bot_workers: Annotated[int, Field(ge=0, le=64)] = 2
    """Processes the bots think in (0: a thread of the server process, for tests and tiny
    machines). The event loop only routes messages; a bot's thinking never blocks it."""
    bot_move_seconds: Annotated[float, Field(gt=0, le=600)] = 30.0
    """A bot that has not answered in this time plays its seat's first legal action."""
    replay_seconds: Annotated[float, Field(gt=0, le=600)] = 30.0
    """``POST /api/replay`` runs in the search workers; an answer not ready in this time is
    refused (503, try again later)."""

    # --- several processes on one PostgreSQL database (folkdeck.server.cluster) -------------
    lease_scan_seconds: Annotated[float, Field(gt=0, le=60)] = 1.0
    """How often a process looks for tables whose owner died (and checks its own lease)."""
    forward_seconds: Annotated[float, Field(gt=0, le=120)] = 20.0
    """How long a request for a table owned by another process may wait for an answer
    (the owner's death and another's adoption included) before the client is told to retry."""

    # --- input ----------------------------------------------------------------------------
    max_body_bytes: Annotated[int, Field(ge=1024, le=1 << 22)] = 16 * 1024
    """Largest HTTP request body (checked while it arrives, before it is read in full)."""
    max_record_bytes: Annotated[int, Field(ge=1024, le=1 << 24)] = 512 * 1024
    """Largest record sent to ``POST /api/replay``."""
    max_json_depth: Annotated[int, Field(ge=4, le=64)] = 32
    """Deepest nesting of a request's or a message's JSON."""
    max_message_bytes: Annotated[int, Field(ge=256, le=65536)] = 4096
    """Largest WebSocket text message."""

    # --- tables and connections -------------------------------------------------------------
    max_tables: Annotated[int, Field(ge=1)] = 5000
    """Live tables in memory (expired ones do not count)."""
    table_idle_seconds: Annotated[float, Field(gt=0)] = 6 * 3600.0
    """A table nobody acted at or watched for this long is closed (its records stay stored)."""
    reap_seconds: Annotated[float, Field(gt=0)] = 60.0
    """How often idle tables are looked for."""
    max_spectators: Annotated[int, Field(ge=0)] = 50
    """Spectator connections at one table."""
    max_seat_connections: Annotated[int, Field(ge=1)] = 4
    """Connections to one seat (a phone and a laptop, a reload)."""
    max_client_connections: Annotated[int, Field(ge=1)] = 32
    """WebSocket connections from one client address, over all tables."""
    send_queue: Annotated[int, Field(ge=8)] = 256
    """Messages queued for one connection before it is dropped."""

    # --- rates (per client address; a token bucket: a burst, then a steady rate) -----------------
    create_per_minute: Annotated[float, Field(gt=0)] = 10.0
    create_burst: Annotated[int, Field(ge=1)] = 10
    actions_per_second: Annotated[float, Field(gt=0)] = 10.0
    actions_burst: Annotated[int, Field(ge=1)] = 40
    chat_per_second: Annotated[float, Field(gt=0)] = 0.5
    """Chat messages (a steady one every two seconds, after a burst of ``chat_burst``)."""
    chat_burst: Annotated[int, Field(ge=1)] = 5
    requests_per_second: Annotated[float, Field(gt=0)] = 50.0
    """Every HTTP request counts here (reading included)."""
    requests_burst: Annotated[int, Field(ge=1)] = 200
    trust_forwarded: bool = False
    """Take the client address from ``X-Forwarded-For`` (only behind a proxy that sets it)."""
