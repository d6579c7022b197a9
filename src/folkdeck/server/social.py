"""Playing with people: names, open seats anyone may take, chat, and the next match.

- **Names.** Every seat has a name (given at creation, ``Player 2`` otherwise); a person
  may rename their own seat (:func:`rename`).
- **Open seats.** A seat created as ``"open"`` has no token: the table is listed by
  ``GET /api/tables`` while the match is on and the seat free, and the first visitor to
  ``POST /api/tables/{id}/join`` takes it (:func:`take_open_seat`) and is given its token.
- **Chat.** Short messages between the seats (:func:`chat`): plain text (the browser
  never reads it as HTML), 1 to :data:`CHAT_CHARS` characters, rate-limited per client,
  the last :data:`CHAT_KEPT` kept with the table (a restarted server still has them).
- **Next match.** Once the match is over, any seat may ask for another with the same
  seats, rules and links (:func:`rematch`): the new table takes the same seat tokens, so
  each person's link works with the new table's id; asking twice gives the same table.

Every change is made by the table's actor (:mod:`folkdeck.server.actor`), which sends
everyone their new view; it is stored before it is announced, as actions are.
"""

from __future__ import annotations

import copy
import secrets
import time
from typing import TYPE_CHECKING, Protocol, TypedDict, cast

from folkdeck.engine.protocol import Seat
from folkdeck.json_types import JSONObject, JSONValue
from folkdeck.server.errors import ServerError
from folkdeck.server.snapshot import TableSnapshot
from folkdeck.server.tables import Table, token_hash
from folkdeck.server.text import CHAT_CHARS, NAME_CHARS, check_name, clean_text

if TYPE_CHECKING:
    from folkdeck.server.store import Store
    from folkdeck.server.tables import Connection


class SocialHost(Protocol):
    """What these changes need of the server around the table's actor (:mod:`folkdeck.server.actor`)."""

    store: Store

    def deliver(self, table: Table, seat: Seat | None, conns: list[Connection], message: JSONObject) -> None: ...
    def tell_others(self, table: Table, message: JSONObject) -> None: ...
    def get(self, table_id: str) -> Table | None: ...
    def add(self, config: JSONObject) -> Table: ...


CHAT_KEPT = 50
"""Chat messages a table keeps (and sends to whoever joins)."""


def rename(tables: SocialHost, table: Table, seat: Seat, name: str) -> None:
    """A person names their own seat (everyone at the table is then sent the new name)."""
    name = check_name(name)
    if table.seats[seat]["kind"] != "human":
        raise ServerError(403, "not_a_person", "server.not_a_person")
    table.seats[seat]["name"] = name
    tables.store.update_config(table.id, table.config)


def chat(tables: SocialHost, table: Table, seat: Seat | None, text: str) -> JSONObject:
    """A seat's chat message, stored and sent to every connection at the table (its rate
    is checked where the client is, :meth:`folkdeck.server.requests.TableRequests.chat`).

    :raises ServerError: ``spectator`` (spectators read the chat but do not write in it),
        ``bad_text``.
    """
    if seat is None:
        raise ServerError(403, "spectator", "server.spectator_chat")
    text = clean_text(text, CHAT_CHARS, "server.chat_text", "text")
    message: JSONObject = {"type": "chat", "seat": seat, "name": table.seats[seat]["name"], "text": text,
               "at": round(time.time(), 3)}
    log: list[JSONValue] = table.config.setdefault("chat", [])
    log.append({k: v for k, v in message.items() if k != "type"})
    del log[:-CHAT_KEPT]
    tables.store.update_config(table.id, table.config)
    for who, conns in table.conns.items():
        if conns:
            tables.deliver(table, who, conns, message)
    tables.tell_others(table, message)  # the clients of the other server processes
    return message


def chat_log(table: Table) -> JSONObject:
    """The message that gives a new connection the table's kept chat."""
    return {"type": "chat_log", "messages": list(table.config.get("chat", []))}


def open_seats(table: Table) -> list[Seat]:
    """The seats nobody has taken yet."""
    return [i for i, s in enumerate(table.seats) if s.get("open")]


class OpenSeatRow(TypedDict):
    """A seat of an open table (the route's ``OpenSeat``)."""

    seat: Seat
    name: str
    kind: str
    open: bool


class OpenTableRow(TypedDict):
    """A table with a free seat (the route validates it as its ``OpenTable`` model)."""

    id: str
    game: str
    title: str
    players: int
    open_seats: list[Seat]
    practice: bool
    deal: int
    deals: int | None
    seats: list[OpenSeatRow]


def listing(tables: list[TableSnapshot]) -> list[OpenTableRow]:
    """Of ``tables`` (as their actors published them), those with a free seat while their
    match is on."""
    out: list[OpenTableRow] = []
    for table in tables:
        if not table.open_seats or table.match_over:
            continue
        public = table.public
        seats = cast("list[JSONObject]", public["seats"])  # Table.public's seats
        out.append(OpenTableRow(
            id=table.id, game=table.game, title=cast("str", public["title"]), players=len(table.tokens),
            open_seats=list(table.open_seats), practice=cast("bool", public["practice"]),
            deal=cast("int", public["match_deal"]), deals=table.deals_limit,
            seats=[OpenSeatRow(seat=i, name=cast("str", s["name"]), kind=cast("str", s["kind"]), open=bool(s["open"]))
                   for i, s in enumerate(seats)]))
    return out


def take_open_seat(tables: SocialHost, table: Table, name: str) -> tuple[Seat, str]:
    """Give the first free seat to a visitor: its number and its new token (the visitor's
    rate is checked where the visitor is: :meth:`folkdeck.server.requests.TableRequests.take_seat`).

    :raises ServerError: ``no_open_seat`` (409) when every seat is taken or the match is over.
    """
    name = check_name(name)
    free = open_seats(table)
    if not free or table.match_over():
        raise ServerError(409, "no_open_seat", "server.no_open_seat")
    seat = free[0]
    token = secrets.token_urlsafe(18)
    entry = table.seats[seat]
    entry.update(name=name, token=token_hash(token))
    entry.pop("open", None)
    try:
        tables.store.update_config(table.id, table.config)
    except Exception:  # not stored: the seat stays free
        entry.update(open=True, token=None)
        raise
    return seat, token


def rematch(tables: SocialHost, table: Table) -> str:
    """The next match with the same seats, rules and links (the same table every time it
    is asked for): its id.

    :raises ServerError: ``match_not_over`` (409) while the match is on.
    """
    done = table.config.get("rematch")
    if done is not None:
        found = tables.get(done)
        if found is not None:
            return found.id
    if not table.match_over():
        raise ServerError(409, "match_not_over", "server.match_not_over")
    config = copy.deepcopy(table.config)
    for key in ("chat", "rematch"):
        config.pop(key, None)
    for entry in config["seats"]:
        entry.pop("auto", None)
    # A practice table's next match is the next seed (a study can be repeated); a live
    # table is shuffled from the server's own randomness, as at creation.
    config["seed"] = config["seed"] + 1 if config.get("practice") else secrets.randbits(62)
    config["previous"] = table.id
    new = tables.add(config)
    table.config["rematch"] = new.id
    tables.store.update_config(table.id, table.config)
    return new.id


__all__ = ["CHAT_CHARS", "CHAT_KEPT", "NAME_CHARS", "OpenSeatRow", "OpenTableRow", "chat", "chat_log", "check_name", "clean_text", "listing", "open_seats",
           "rename", "rematch", "take_open_seat", "SocialHost"]
