"""What a table's actor is told: one frozen message per kind of change, each with its answer.

Every change of a live table, and every look at it, is one of these messages in the
table's inbox (:mod:`folkdeck.server.actor`), handled there, one at a time, by the handler
of its type. A :class:`Request` is answered (its type parameter is the answer's type: the
asker awaits it, or the handler's refusal); the others are only posted.

Some messages must reach the table's *owner* (:data:`OWNER_OPS`: the ones that change what
is stored): on a server process that only keeps a copy of the table
(:mod:`folkdeck.server.cluster`) they are sent to the owner's process by name (``op``),
with their fields as JSON (:func:`request_args`, :func:`from_request`), and the owner's
answer comes back as JSON (:func:`answer_json`). The others are answered by whichever
process the client is connected to, from its own copy.

>>> request_args(Chat(seat=1, text="hi", client="1.2.3.4"))
('chat', {'seat': 1, 'text': 'hi'})
>>> from_request("chat", {"seat": 1, "text": "hi"})
Chat(seat=1, text='hi', client='')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from folkdeck.engine.protocol import Action, Event, Seat
from folkdeck.json_types import JSONObject, JSONValue
from folkdeck.server.bots import BotJob, ReviewJob

if TYPE_CHECKING:
    from folkdeck.server.tables import Connection

R = TypeVar("R", covariant=True)
Key = tuple[int, int, tuple[bool, ...]]
"""Where a table is, for its plans: (deal, actions so far, which seats bots play)."""
TurnKey = tuple[int, int, Seat]
"""Whose turn timer runs: (deal, actions so far, the seat on turn)."""
TimerKey = Key | TurnKey | int
"""What a timer was set for: a position, a turn, or a deal (the pause after it)."""
Verdicts = list[dict[str, object]]
"""The search bot's review of a seat's decisions in one deal (:mod:`folkdeck.agents.advice`)."""


class Request(Generic[R]):
    """A message whose sender waits for the answer, of type ``R``."""

    op: ClassVar[str] = ""
    """Its name between processes; empty: answered where it is asked."""


# --- connections ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Join(Request[None]):
    """A connection to ``seat`` (None: a spectator); answered once it was sent its view
    (and the kept chat). Refused past a limit of connections."""

    seat: Seat | None
    conn: Connection


@dataclass(frozen=True)
class Leave:
    """A connection went away."""

    seat: Seat | None
    conn: Connection


@dataclass(frozen=True)
class Resync(Request[None]):
    """A connection lost track of its version: it is sent its whole view again."""

    seat: Seat | None
    conn: Connection


@dataclass(frozen=True)
class Presence:
    """The seats connected to another server process now (empty: none, or it died)."""

    process: int
    seats: frozenset[Seat]


@dataclass(frozen=True)
class Show:
    """Everyone here is sent their view again (the relay listened again: news may have been missed)."""


@dataclass(frozen=True)
class Broadcast:
    """A message for every connection here (another process's chat at the table)."""

    message: JSONObject


# --- a copy of another process's table (:mod:`folkdeck.server.copies`) ---------------------------
@dataclass(frozen=True)
class Follow:
    """The owner's news after a change: its deal, and its turn timer and wait for calls
    (seconds left, and the position waited at), which are not stored. The copy is behind
    until it reads the store: at once if anyone here watches, else when next looked at
    (:class:`CatchUp`)."""

    deal: int
    deadline: float | None = None
    calls: tuple[int, int, float] | None = None


@dataclass(frozen=True)
class CatchUp(Request[None]):
    """Bring the copy up to date with the store if it is behind (before a page reads its
    snapshot, or a connection here is sent a view)."""


@dataclass(frozen=True)
class Adopt(Request[bool]):
    """This process owns the table now: the copy is rebuilt exactly as stored, with its last
    ``ref``s and no timer of the old owner's; False if the table is closed."""


# --- looks ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Check(Request[JSONObject]):
    """Could ``seat`` play ``text`` now? ``{"ok": True}``, or the refusal's code, reason and
    parameters; nothing changes."""

    seat: Seat
    text: str


@dataclass(frozen=True)
class Hint(Request[tuple[tuple[int, int], BotJob]]):
    """The search the hint needs for ``seat``, from the seat's own view, with the table's
    position (deal, actions so far): it runs in the workers, outside the table."""

    seat: Seat


@dataclass(frozen=True)
class Review(Request[tuple[int, Verdicts | ReviewJob]]):
    """``seat``'s review of finished deal ``deal`` (1-based; None: the last finished), with the
    deal's number: kept, or the search to make it."""

    seat: Seat
    deal: int | None


@dataclass(frozen=True)
class Reviewed:
    """A review the workers made, kept with the table."""

    seat: Seat
    deal: int
    verdicts: Verdicts


# --- changes, made by the table's owner ---------------------------------------------------------
@dataclass(frozen=True)
class Act(Request[Event | str]):
    """A person's action (or its resend), answered with the event played, or the stored line
    of a ``ref`` already played; the ``ack`` or the refusal goes to ``conn`` first."""

    op: ClassVar[str] = "act"
    seat: Seat
    text: str
    ref: int | None = None
    resend: bool = False
    scope: str | None = None
    """Whose ``ref`` it is: the seat and its token (:func:`~folkdeck.server.actor.ref_scope`); None over REST."""
    conn: Connection | None = None


@dataclass(frozen=True)
class Chat(Request[None]):
    """A seat's chat message, sent to every connection at the table."""

    op: ClassVar[str] = "chat"
    seat: Seat | None
    text: str
    client: str = ""


@dataclass(frozen=True)
class Rename(Request[None]):
    """A person names their own seat."""

    op: ClassVar[str] = "rename"
    seat: Seat
    text: str


@dataclass(frozen=True)
class TakeSeat(Request[tuple[Seat, str]]):
    """A visitor takes the first open seat under ``name``: the seat and its new token."""

    op: ClassVar[str] = "take_seat"
    name: str
    client: str = ""


@dataclass(frozen=True)
class Rematch(Request[str]):
    """The next match with the same seats (the same one every time): its table's id."""

    op: ClassVar[str] = "rematch"


@dataclass(frozen=True)
class Resume(Request[None]):
    """A person takes their seat back from the bot their turn timer gave it to."""

    op: ClassVar[str] = "resume"
    seat: Seat


@dataclass(frozen=True)
class Kick:
    """Look again at what must happen next (a seat was given to a bot, from outside)."""


# --- the actor's own --------------------------------------------------------------------------
@dataclass(frozen=True)
class BotAnswer:
    """A bot's decision for position ``key``, from the workers (None: every bot asked declined)."""

    key: Key
    seat: Seat | None = None
    action: Action | None = None
    failed: bool = False


@dataclass(frozen=True)
class Wake:
    """A timer of ``kind`` fired for ``key`` (:mod:`folkdeck.server.clock`)."""

    kind: str
    key: TimerKey


@dataclass(frozen=True)
class Stop:
    """Drain: the actor stops once the messages before this one are handled."""


Message = (Join | Leave | Resync | Presence | Show | Broadcast | Follow | CatchUp | Adopt | Check | Hint | Review
           | Reviewed | Act | Chat | Rename | TakeSeat | Rematch | Resume | Kick | BotAnswer | Wake | Stop)
OwnerMessage = Act | Chat | Rename | TakeSeat | Rematch | Resume
OWNER_OPS: dict[str, type[OwnerMessage]] = {cls.op: cls for cls in (Act, Chat, Rename, TakeSeat, Rematch, Resume)}
_LOCAL = ("conn", "client")
"""Fields that stay in the asking process (a connection; a client checked there)."""


def request_args(message: OwnerMessage) -> tuple[str, JSONObject]:
    """A message for the owner in another process: its name and its fields as JSON."""
    fields = {f.name: getattr(message, f.name) for f in dataclasses.fields(message) if f.name not in _LOCAL}
    return message.op, fields


def from_request(op: str, args: dict[str, Any], conn: Connection | None = None) -> OwnerMessage:
    """The message another process sent by :func:`request_args` (``conn``: where an action's
    ``ack`` goes). :raises ValueError: an unknown ``op``."""
    cls = OWNER_OPS.get(op)
    if cls is None:
        raise ValueError(f"unknown operation {op!r}")
    if cls is Act:
        return Act(**args, conn=conn)
    return cls(**args)


def answer_json(message: OwnerMessage, answer: object) -> JSONValue:
    """The owner's answer to ``message`` as it crosses to another process
    (:func:`folkdeck.server.relay.played_from` reads an action's back)."""
    if isinstance(message, Act):
        if isinstance(answer, str):  # a ref played before: its stored line
            return {"line": answer, "repeated": True}
        event = cast("Event", answer)
        return {"line": event.line, "event": event.to_dict()}
    if isinstance(message, TakeSeat):
        seat, token = cast("tuple[Seat, str]", answer)
        return [seat, token]
    return cast("str | None", answer)


__all__ = ["OWNER_OPS", "Act", "Adopt", "BotAnswer", "Broadcast", "CatchUp", "Chat", "Check", "Follow", "Hint", "Join",
           "Key", "Kick", "Leave", "Message",
           "OwnerMessage", "Presence", "Rematch", "Rename", "Request", "Resume", "Resync", "Review", "Reviewed",
           "Show", "Stop", "TakeSeat", "TimerKey", "TurnKey", "Verdicts", "Wake", "answer_json", "from_request",
           "request_args"]
