"""Wire models: what the HTTP API and the WebSocket take and give (pydantic)."""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

OptionValue = str | int | float | bool | list[int] | list[str]


class SeatIn(BaseModel):
    """One seat of a new table: a person (invited by link), a bot, or ``open``: a person's
    seat anyone may take from the list of open tables (``GET /api/tables``)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot", "open"] = "human"
    bot: Annotated[str, Field(max_length=40)] | None = None
    name: Annotated[str, Field(max_length=24)] = ""


class TableCreate(BaseModel):
    """A new table: the game, its rules and who sits where."""

    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, Field(max_length=40)]
    players: Annotated[int, Field(ge=2, le=40)] | None = None
    preset: Annotated[str, Field(max_length=40)] | None = None
    options: dict[Annotated[str, Field(max_length=40)], OptionValue] = Field(default_factory=dict, max_length=60)
    deals: Annotated[int, Field(ge=1, le=100)] | None = None
    """Deals in the match (default: the game's ``match_end.default_deals``); a game whose
    match only its own rule ends takes none."""
    first_dealer: Annotated[int, Field(ge=0, le=39)] | None = None
    """The seat dealing first, in a game whose first dealer the players choose
    (``first_seat`` in ``/api/games`` is ``first_dealer``, and ``first_dealer_free`` true)."""
    first_kai_pai: Annotated[int, Field(ge=0, le=39)] | None = None
    """The first deal's kai pai, in a game that has one (``first_seat`` in ``/api/games``
    is ``first_kai_pai``). Neither given: a live table draws the game's free first seat at
    random, a practice table keeps the game's own default."""
    seats: list[SeatIn] = Field(default_factory=list, max_length=40)
    turn_seconds: Annotated[int, Field(ge=0, le=3600)] = 0
    practice: bool = False
    """A practice / study table: it may choose its ``seed``, and every seat is told so."""
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = None
    """Only with ``practice``: live tables are shuffled from the server's own randomness."""


FIRST_SEATS: Final = ("first_dealer", "first_kai_pai")
"""The fields of :class:`TableCreate` that choose a match's free first seat, each named by
the option a game declares (:attr:`~folkdeck.engine.game_base.GameBase.first_seat_option`)."""


class SeatLink(BaseModel):
    seat: int
    kind: str
    name: str
    bot: str | None = None
    link: str | None = None
    token: str | None = None


class TableCreated(BaseModel):
    """The answer to a new table: the only time the seat tokens are shown."""

    id: str
    seats: list[SeatLink]
    spectator_link: str
    spectator_token: str


class TablePublic(BaseModel):
    """What anyone who knows a table's id may see of it."""

    model_config = ConfigDict(extra="allow")
    id: str
    game: str
    title: str
    card_notation: str
    practice: bool
    """A practice / study table (its creator may have chosen the shuffle)."""
    players: int
    deal: int
    """Deals dealt at this table so far, the one in progress included (a record's number)."""
    match_deal: int
    """The deal's number in the match: completed deals, plus the one in progress (a deal
    dealt again, a Gou Ji revolution's, keeps its number)."""
    deals: int | None
    match_over: bool
    records: list[str] = Field(default_factory=list)
    """The finished deals' records that may be downloaded now."""
    match_record: str | None = None
    """The whole match's record (``folkdeck-match/1``, finished deals), when it may be given."""
    records_locked: str | None = None
    """Why finished deals' records are withheld until the match ends (``GameSpec.record_embargo``)."""
    rematch: str | None = None
    """The next match's table (``POST /api/tables/{id}/rematch``): the same seats and tokens."""
    previous: str | None = None
    """The table whose next match this is."""
    calls: float | None = None
    """Seconds the bot on turn still waits for people's out-of-turn calls (a public right's
    holder, or everyone who may hold a hidden one: it never says who), or None."""


class ObservationOut(BaseModel):
    """One connection's view, sent after every event."""

    type: Literal["state"] = "state"
    you: int | None
    table: dict[str, object]
    obs: dict[str, object]
    may_act: bool
    on_turn: bool


class ErrorOut(BaseModel):
    """A refusal: ``error`` is the code (``illegal_action``, ``not_your_turn``...), ``reason``
    the catalog key and ``params`` its values (the browser renders them), ``message`` English."""

    type: Literal["error"] = "error"
    error: str
    reason: str
    params: dict[str, object] = Field(default_factory=dict)
    message: str
    ref: int | None = None


class ErrorBody(BaseModel):
    """An HTTP refusal's body (the same fields again under ``detail``)."""

    error: str
    reason: str
    params: dict[str, object] = Field(default_factory=dict)
    message: str
    detail: dict[str, object]


class ActionIn(BaseModel):
    """An action in the game's notation (``"4C 4D"``, ``"pass"``): ``action`` plays it,
    ``check`` only asks whether it could be played now (the answer names the rule if not)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["action", "check"]
    action: Annotated[str, Field(min_length=1, max_length=300)]
    ref: Annotated[int, Field(ge=-(2**53), le=2**53)] | None = None
    resend: bool = False
    """This action was sent before and its answer never came: if the seat's action with this
    ``ref`` was committed, the answer is that acknowledgement again (a client may reuse a
    ``ref`` for new actions: only a resend is matched against the ones committed)."""


class ControlIn(BaseModel):
    """``resume``: take the seat back from the bot; ``ping``: keep-alive; ``hint``: what a
    search bot would play now, with its values (``folkdeck.agents.advice``); ``resync``: send
    the whole state again (a delta's ``base`` was not the client's version)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["resume", "ping", "hint", "review", "resync"]
    ref: Annotated[int, Field(ge=-(2**53), le=2**53)] | None = None
    deal: Annotated[int, Field(ge=1, le=1000)] | None = None
    """``review``: the finished deal (1-based) whose decisions the search bot weighs."""


class SocialIn(BaseModel):
    """``name``: rename the connection's own seat (1 to 24 characters); ``chat``: a chat
    message to the table (1 to 200 characters; seats only)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["name", "chat"]
    text: Annotated[str, Field(max_length=400)]
    ref: Annotated[int, Field(ge=-(2**53), le=2**53)] | None = None


class JoinIn(BaseModel):
    """Take a free seat of a listed table under this name."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=100)]


class TokenIn(BaseModel):
    """A request made as a seat: the seat's token."""

    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, Field(max_length=100)]


class OpenSeat(BaseModel):
    seat: int
    name: str
    kind: str
    open: bool


class OpenTable(BaseModel):
    """A table with a free seat (``GET /api/tables``)."""

    id: str
    game: str
    title: str
    players: int
    open_seats: list[int]
    practice: bool
    deal: int
    deals: int | None
    seats: list[OpenSeat]


class SeatTaken(BaseModel):
    """The seat a visitor took: its token is shown only here."""

    seat: int
    token: str
    link: str


class NextMatch(BaseModel):
    """The next match's table: the same seats, and each seat's link with this id."""

    id: str
    link: str | None


class RestActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, Field(max_length=100)]
    action: Annotated[str, Field(min_length=1, max_length=300)]


ClientMessage = Annotated[ActionIn | ControlIn | SocialIn, Field(discriminator="type")]


class ClientEnvelope(BaseModel):
    msg: ClientMessage
