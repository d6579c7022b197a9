"""Game records: the ``folkdeck-record/1`` JSON format (see ``docs/records.md``).

The API copies :mod:`json`: :func:`loads`/:func:`load`, :func:`dumps`/:func:`dump`,
plus :meth:`Record.from_state` and :meth:`Record.replay`.

>>> rec = loads('{"format": "folkdeck-record/1", "game": "kaphai", "rules": {"players": 4},'
...             ' "setup": {"three_game": false, "leader": 0},'
...             ' "hands": [["4C", "4D", "9S"], ["4S", "4H", "5S", "5H", "3C", "3D"], ["KS"], ["AS"]],'
...             ' "actions": ["0: 4C 4D", "1: pass"]}')
>>> state = rec.replay()
>>> state.to_act
(2,)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Final

from folkdeck.engine.errors import (
    CardGameError,
    IllegalActionError,
    InvalidConfigError,
    InvalidDealError,
    InvalidNotationError,
    MalformedRecordError,
    UnknownGameError,
)
from folkdeck.engine.game_base import deal_source
from folkdeck.engine.options import options_to_dict, record_defaults
from folkdeck.engine.protocol import Event, Game, State
from folkdeck.engine.registry import get_spec
from folkdeck.engine.registry import load as load_game
from folkdeck.json_types import JSONObject, JSONValue

if TYPE_CHECKING:
    from typing import Unpack

    from folkdeck.i18n import RendererOptions

FORMAT: Final = "folkdeck-record/1"
_KNOWN: Final = ("format", "game", "rules", "setup", "seed", "deck", "hands", "stock", "actions")


class ReplayError(IllegalActionError):
    """An action of a record that the rules refuse; ``index`` is 0-based, ``cause`` the
    refusal (its reason and parameters are the ``cause_*`` parameters)."""

    code = "illegal_record_action"

    def __init__(self, index: int, line: str, cause: IllegalActionError, *, deal: int | None = None) -> None:
        super().__init__("illegal_record_action", index=index, action=line, deal=deal,
                         cause_reason=cause.reason, cause_params=dict(cause.params))
        self.index = index
        self.line = line
        self.cause = cause
        self.deal = deal

    def render(self, lang: str = "en", **renderer: Unpack[RendererOptions]) -> str:
        from folkdeck.i18n import Renderer

        text = Renderer(lang, **renderer).message(
            "error.illegal_record_action", {"index": self.index, "action": self.line, "deal": self.deal},
            sentence=True)
        return f"{text}: {self.cause.render(lang, **renderer)}"


@dataclass(slots=True, kw_only=True)
class Record:
    """One deal: the game and rules, how it was dealt, and the actions taken."""

    game: str
    rules: JSONObject = field(default_factory=dict)
    setup: JSONObject = field(default_factory=dict)
    seed: int | None = None
    deck: list[str] | None = None
    hands: list[list[str]] | None = None
    stock: list[str] | None = None
    actions: list[str] = field(default_factory=list)
    extra: JSONObject = field(default_factory=dict)
    """Other top-level fields (players' names, dates, sources), kept as they are."""

    # --- reading -----------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: object) -> Record:
        """Check the shape of a decoded record.

        :raises MalformedRecordError: naming the field.
        """
        if not isinstance(data, dict):
            raise MalformedRecordError("record_not_object", field="(record)")
        fmt = data.get("format", FORMAT)
        if fmt != FORMAT:
            raise MalformedRecordError("unknown_format", field="format", found=str(fmt), expected=FORMAT)
        game = data.get("game")
        if not isinstance(game, str):
            raise MalformedRecordError("not_game_name", field="game")
        rules = _object(data, "rules")
        setup = _object(data, "setup")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise MalformedRecordError("not_whole_number", field="seed")
        deck = _card_list(data, "deck")
        stock = _card_list(data, "stock")
        hands_raw = data.get("hands")
        hands: list[list[str]] | None = None
        if hands_raw is not None:
            if not isinstance(hands_raw, list):
                raise MalformedRecordError("not_list_of_hands", field="hands")
            hands = []
            for i, hand in enumerate(hands_raw):
                if not isinstance(hand, list) or not all(isinstance(c, str) for c in hand):
                    raise MalformedRecordError("not_card_list", field=f"hands[{i}]")
                hands.append(list(hand))
        try:
            deal_source(seed=seed, deck=deck, hands=hands, stock=stock, required=True)
        except InvalidDealError as exc:
            raise MalformedRecordError(exc.reason, **exc.params) from exc
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise MalformedRecordError("not_action_list", field="actions")
        extra = {k: v for k, v in data.items() if k not in _KNOWN}
        return cls(game=game, rules=rules, setup=setup, seed=seed, deck=deck, hands=hands,
                   stock=stock, actions=list(actions), extra=extra)

    def to_dict(self) -> JSONObject:
        out: JSONObject = {"format": FORMAT, "game": self.game, "rules": self.rules, "setup": self.setup}
        for key in ("seed", "deck", "hands", "stock"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["actions"] = list[JSONValue](self.actions)
        out.update(self.extra)
        return out

    # --- playing -----------------------------------------------------------------
    def make_game(self) -> Game:
        """The game with the record's rules.

        :raises MalformedRecordError: for an unknown game or option.
        """
        try:
            spec = get_spec(self.game)
            # typed loosely: the rules are passed on as keyword arguments, a ``preset`` among them
            rules: dict[str, Any] = {**record_defaults(spec.options_type), **self.rules}
            return load_game(self.game, **rules)
        except UnknownGameError as exc:
            raise MalformedRecordError(exc.reason, field="game", **exc.params) from exc
        except InvalidConfigError as exc:
            name = exc.params.get("option")
            raise MalformedRecordError(exc.reason, **{**exc.params, "field": f"rules.{name}" if name else "rules"}
                                       ) from exc

    def start(self) -> State:
        """The state before the first action.

        :raises MalformedRecordError: for bad rules, cards or setup, naming the field.
        """
        game = self.make_game()
        try:
            return game.new_state(seed=self.seed, deck=self.deck, hands=self.hands,
                                  stock=self.stock, setup=self.setup)
        except (InvalidNotationError, InvalidDealError, InvalidConfigError) as exc:
            where = exc.params.get("field") or _deal_field(self)
            raise MalformedRecordError(exc.reason, **{**exc.params, "field": str(where)}) from exc

    def steps(self) -> Iterator[tuple[State, Event]]:
        """Apply the actions one by one, yielding a clone of the state after each.

        :raises MalformedRecordError: for an action line that cannot be read.
        :raises ReplayError: for an action the rules refuse.
        """
        state = self.start()
        for index, line in enumerate(self.actions):
            event = apply_line(state, index, line)
            yield state.clone(), event

    def replay(self) -> State:
        """The state after every action.

        :raises MalformedRecordError: for an action line that cannot be read.
        :raises ReplayError: for an action the rules refuse.
        """
        state = self.start()
        for index, line in enumerate(self.actions):
            apply_line(state, index, line)
        return state

    @classmethod
    def from_game(cls, game: Game, **extra: JSONValue) -> Record:
        """A record of ``game``'s rules with no deal yet (``rules``: the options that
        differ from the defaults, and ``players``)."""
        return cls(game=game.spec.name, rules=_non_default_rules(game), extra=extra)

    @classmethod
    def from_state(cls, state: State, **extra: JSONValue) -> Record:
        """The record of a state's deal and every action taken so far."""
        info = state.deal_info()
        return cls(game=state.game.spec.name, rules=_non_default_rules(state.game),
                   setup=dict(info.get("setup", {})), hands=info.get("hands"),
                   stock=info.get("stock"), actions=[e.line for e in state.history], extra=extra)


def apply_line(state: State, index: int, line: str) -> Event:
    """Apply one record line ``"<seat>: <action>"`` to ``state``.

    :raises MalformedRecordError: for a line that cannot be read (field ``actions[i]``).
    :raises ReplayError: for an action the rules refuse.
    """
    seat_text, sep, action_text = line.partition(":")
    where = f"actions[{index}]"
    try:
        seat = int(seat_text)
    except ValueError:
        seat = -1
    if not sep or seat < 0 or seat >= state.num_players:
        raise MalformedRecordError("bad_action_line", field=where, line=line, last=state.num_players - 1)
    try:
        action = state.parse_action(action_text.strip(), seat)
        return state.apply(action, seat)
    except InvalidNotationError as exc:
        raise MalformedRecordError(exc.reason, **{**exc.params, "field": where}) from exc
    except IllegalActionError as exc:
        raise ReplayError(index, line, exc) from exc


def _object(data: Mapping[str, object], key: str) -> JSONObject:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise MalformedRecordError("not_object", field=key)
    return dict(value)


def _card_list(data: Mapping[str, object], key: str) -> list[str] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise MalformedRecordError("not_card_list", field=key)
    return list(value)


def _deal_field(record: Record) -> str:
    return "deck" if record.deck is not None else "seed" if record.seed is not None else "hands"


_RULES: Final[dict[tuple[str, int, object], JSONObject]] = {}
RULES_KEPT: Final = 256
"""Rule sets whose record rules are kept, by the game's name, players and options (a server
table's game makes a record at every deal's start and end; keyed by value, the tables of
one rule set share an entry however many tables there are)."""


def _non_default_rules(game: Game) -> JSONObject:
    """The options that differ from the defaults (the pinned ones always) and ``players``:
    worked out once per rule set (options are frozen), a copy given each time."""
    key = (game.spec.name, game.num_players, game.options)
    try:
        rules = _RULES.get(key)
    except TypeError:  # options with an unhashable value: worked out each time
        rules = _work_out_rules(game)
    else:
        if rules is None:
            if len(_RULES) >= RULES_KEPT:
                _RULES.clear()
            rules = _RULES[key] = _work_out_rules(game)
    return {k: list(value) if isinstance(value, list) else value for k, value in rules.items()}


def _work_out_rules(game: Game) -> JSONObject:
    current = options_to_dict(game.options)
    default = options_to_dict(game.spec.options_type())
    pinned = record_defaults(game.spec.options_type)
    out = {k: v for k, v in current.items() if v != default.get(k) or k in pinned}
    out["players"] = game.num_players
    return out


def loads(text: str) -> Record:
    """Read a record from JSON text.

    :raises MalformedRecordError: for bad JSON (field ``(json)``) or a bad field.
    """
    return Record.from_dict(decode_json(text))


def decode_json(text: str) -> JSONValue:
    """Decode a record's JSON text (the input boundary of :func:`loads` and of match
    records): a leading UTF-8 BOM is skipped; bad JSON is a clear error.

    :raises MalformedRecordError: field ``(json)``.
    """
    from folkdeck.engine.jsonin import JSONInputError, decode

    try:
        return decode(text)
    except JSONInputError as exc:
        raise MalformedRecordError(exc.reason, **{**exc.params, "field": exc.params.get("field") or "(json)"}
                                   ) from exc


def load(fp: IO[str]) -> Record:
    """Read a record from a text file."""
    return loads(fp.read())


def dumps(record: Record, indent: int | None = 2) -> str:
    """A record as JSON text."""
    return json.dumps(record.to_dict(), indent=indent, ensure_ascii=False)


def dump(record: Record, fp: IO[str]) -> None:
    """Write a record as JSON text."""
    fp.write(dumps(record) + "\n")


__all__ = ["FORMAT", "CardGameError", "Record", "ReplayError", "apply_line", "dump", "dumps",
           "load", "loads"]
