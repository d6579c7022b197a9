"""Text at the edge: one message catalog per language, and the renderer of facts,
refusals and errors (the only code that turns data into sentences).

The catalogs are JSON files shipped in this package (``en.json``, ``ja.json``); the
browser loads the same files (``/i18n/<lang>.json``) and renders with the same rules
(``web/i18n.js``). A message is a string with placeholders, or an object that picks
a form:

* ``{name}`` a value as text (:func:`plain_text`: ``null`` nothing, ``true``/``false``, a
  number's digits, a list's items comma-separated); ``{name:seat}`` a seat's name ("seat 2", "you", a
  player's name); ``{name:seats}`` a list of seats; ``{name:card}``/``{name:cards}``
  cards in the game's display notation; ``{name:term}`` the catalog's ``term.<game>.<value>``
  (or ``term.<value>``, the value as :func:`plain_text` writes it); ``{name:place}`` an
  ordinal place ("1st", "1位"); ``{name:num}`` a number as :func:`plain_text` writes it.

  That is the whole syntax: a placeholder is ``{`` a name, optionally ``:`` a kind, ``}``;
  there is no escape, no position, no format spec, and any other brace is text. The browser
  (``web/i18n.js``) implements the same rules, and both are checked against one file of
  examples (``tests/i18n/template_vectors.json``).
* ``{"plural": "n", "one": "...", "other": "..."}``: the CLDR plural category of the
  parameter ``n`` (the length of a list), as Babel's ``Locale.plural_form`` gives it
  (English one/other, Japanese other; a test checks this against Babel).
* ``{"person": "seat", "you": "...", "other": "..."}``: ``you`` when the parameter is
  the viewer's seat, or a list of the viewer alone ("You lead" / "Seat 2 leads").
* ``{"same": "seat leader", "yes": "...", "no": "..."}``: whether two parameters are equal;
  compared as JSON values (a tuple equals the list it is sent as);
  ``{"select": "kind", "<value>": "...", "other": "..."}``: by a parameter's value (as JSON
  writes it: ``null``, ``true``, ``false``).

Cards are shown in a pack's display notation (``notation.json``, served to the browser as
``/i18n/notation.json``; the record notation a player types and records hold never
changes). Each pack (a game's ``card_notation``: ``french``, ``spanish``, ``portuguese``,
``cucco``, ``gouji``) maps the record notation's letters to what people read:

* ``rank``: a rank as the pack prints it (Spanish ``Q``, the caballo, is ``11``;
  Portuguese ``J``, the valete, is ``V``);
* ``symbol``: a suit's symbol on faces, chips and histories (Spanish oros ``🪙``, copas
  ``🍷``, espadas ``⚔``, bastos ``🪵``; the Portuguese pack is French-suited: ouros ♦,
  copas ♥, espadas ♠, paus ♣);
* ``suit``: a suit's letter in the compact code form (:func:`display_card` without symbols);
* ``card``: a whole card shown otherwise (none yet).

A suit's and a court rank's *name* is text, so it lives in the message catalogs: the
game's own word for the suit, ``term.<game>.<spades|clubs|diamonds|hearts>`` (Spanish
Burro's ``diamonds``: "oros", オロス（金貨）: the words the browser shows too), and ``rank.<pack>.<rank>``
(Spanish ``Q``: "caballo", カバリョ). A renderer without symbols names the cards of a pack
that has them ("11 of bastos", 棍棒の11: the catalog's ``card.named``), so that no reader
takes a Spanish ``12C`` (the rey of copas) for a French club; ``card.legend`` and
``card.legend_rank`` say what a pack's symbols and ranks mean.

>>> from folkdeck.engine.facts import TrickWon
>>> en = Renderer("en", game="kaphai", viewer=1)
>>> en.fact(TrickWon(seat=2, leader=2))
'Seat 2 wins the trick and leads'
>>> en.fact(TrickWon(seat=1, leader=1))
'You win the trick and lead'
>>> Renderer("ja", game="kaphai").fact(TrickWon(seat=2, leader=2))
'席2がトリックを取り、次をリードします'
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import Field
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from importlib import resources
from typing import Any, ClassVar, Final, Protocol, TypedDict

from folkdeck.json_types import JSONValue

LANGUAGES: Final = ("en", "ja")
_PLACEHOLDER: Final = re.compile(r"\{(\w+)(?::(\w+))?\}")


@cache
def catalog(lang: str) -> Mapping[str, JSONValue]:
    """The message catalog of ``lang`` (``en`` or ``ja``), keys to messages.

    :raises ValueError: for a language without a catalog.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"no message catalog for {lang!r} (languages: {', '.join(LANGUAGES)})")
    root = resources.files(__package__)
    data: dict[str, JSONValue] = json.loads(root.joinpath(f"{lang}.json").read_text("utf-8"))
    return data


@cache
def notations() -> Mapping[str, Mapping[str, Mapping[str, str]]]:
    """Display notations of the packs (``spanish``: ``Q`` shows as ``11``...), shared with
    the browser; a card not listed shows in the record notation."""
    data: dict[str, dict[str, dict[str, str]]] = json.loads(resources.files(__package__).joinpath("notation.json")
                                      .read_text("utf-8"))
    return data


def plural_category(lang: str, n: float) -> str:
    """The CLDR cardinal plural category (the forms these two languages have).

    >>> plural_category("en", 1), plural_category("en", 2), plural_category("ja", 1)
    ('one', 'other', 'other')
    """
    if lang == "en":
        return "one" if abs(n) == 1 and float(n).is_integer() else "other"
    return "other"


def ordinal(lang: str, n: int) -> str:
    """A place as people write it.

    >>> ordinal("en", 1), ordinal("en", 12), ordinal("en", 23), ordinal("ja", 2)
    ('1st', '12th', '23rd', '2位')
    """
    if lang == "ja":
        return f"{n}位"
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def display_card(card: object, notation: str = "french", *, symbols: bool = False) -> str:
    """A card in a pack's display notation: the Spanish caballo of clubs (bastos), ``QC``,
    shows as ``11🪵`` with symbols, ``11B`` in the compact code form.

    >>> display_card("QC", "spanish", symbols=True), display_card("QC", "spanish")
    ('11🪵', '11B')
    >>> display_card("JC", "portuguese", symbols=True), display_card("10H", symbols=True)
    ('V♣', '10♥')
    """
    text = str(card)
    table = notations().get(notation, {})
    whole = table.get("card", {}).get(text)
    if whole is not None:
        return whole
    rank, suit = split_card(text)
    rank = table.get("rank", {}).get(rank, rank)
    if symbols:
        suit = table.get("symbol", {}).get(suit, _SYMBOLS.get(suit, suit))
    else:
        suit = table.get("suit", {}).get(suit, suit)
    return rank + suit


_SYMBOLS: Final = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
_WORDED: Final = re.compile(r"[^A-Z0-9]")
"""A card's name that is words (any character but capitals and digits), not a code-like name."""


def _key(value: object) -> str:
    """A parameter as a ``select`` key, written as JSON writes it (``null``, ``true``), so
    that the browser, which sees the JSON, chooses the same form."""
    value = _json(value)
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return plain_text(value)


def _json(value: object) -> object:
    """A parameter as the browser sees it: an enum as its value, a tuple as a list, a card
    (any other object) as its text; JSON values as they are."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _json(v) for k, v in value.items()}
    return _json(value.value) if hasattr(value, "value") else str(value)


SIGNIFICANT: Final = 6
"""The significant digits of a number that is not whole, in a message."""


def plain_text(value: object) -> str:
    """A parameter as text in a message (``{x}``, ``{x:num}``, a term's key), by folkdeck's own
    rule, which ``web/i18n.js`` implements alike: nothing for ``null``; ``true``/``false``;
    a whole number's digits; another number rounded to six significant digits (halves away
    from zero), written without an exponent or trailing zeros; a list's items so written, separated by ", ".

    >>> plain_text(None), plain_text(True), plain_text(3.0), plain_text(2.5), plain_text(1 / 3)
    ('', 'true', '3', '2.5', '0.333333')
    >>> plain_text(1234567.8), plain_text([1, "a", None, False])
    ('1234568', '1, a, , false')
    """
    value = _json(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        if value.is_integer():
            return str(int(value))
        # halves away from zero, on the number's exact binary value (as JavaScript's toFixed)
        decimals = max(0, SIGNIFICANT - 1 - math.floor(math.log10(abs(value))))
        text = str(Decimal(value).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP))
        text = text.rstrip("0").rstrip(".") if "." in text else text
        return "0" if text == "-0" else text
    if isinstance(value, list):
        return ", ".join(plain_text(v) for v in value)
    return str(value)


def split_card(text: str) -> tuple[str, str]:
    """A card's rank and suit letter in the record notation (a joker, a named card: no suit).

    >>> split_card("10H"), split_card("RJ"), split_card("OWL")
    (('10', 'H'), ('RJ', ''), ('OWL', ''))
    """
    if len(text) >= 2 and text[-1] in "SCDH" and text not in ("BJ", "RJ"):
        return text[:-1], text[-1]
    return text, ""


_SUIT_WORDS: Final = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
"""A suit's word in the catalogs' ``term.<game>.<word>`` keys."""


class FactLike(Protocol):
    """What the renderer reads of a fact (a :class:`folkdeck.engine.facts.Fact`): its type
    code and its dataclass fields. A protocol, so that this module, below the engine,
    imports nothing of it."""

    @property
    def type(self) -> str: ...

    __dataclass_fields__: ClassVar[dict[str, Field[object]]]


class ErrorLike(Protocol):
    """What the renderer reads of an error (a :class:`folkdeck.engine.errors.CardGameError`):
    its reason (a catalog key, or text) and its parameters."""

    @property
    def reason(self) -> str: ...

    @property
    def params(self) -> Mapping[str, object]: ...


class RendererOptions(TypedDict, total=False):
    """The :class:`Renderer` options an error's ``render`` passes on (its game it knows)."""

    viewer: int | None
    names: Sequence[str] | None
    notation: str
    symbols: bool


class Renderer:
    """Renders messages of one catalog for one table and one viewer.

    ``names`` give the seats' names (players' names; default "seat N"); ``viewer`` is
    the seat shown as "you"; ``notation`` the pack's display notation (the game's
    ``GameSpec.card_notation``); ``symbols`` shows suits as ♠♣♦♥.
    """

    def __init__(self, lang: str = "en", *, game: str = "", viewer: int | None = None,
                 names: Sequence[str] | None = None, notation: str = "french",
                 symbols: bool = False) -> None:
        self.lang = lang
        self.messages = catalog(lang)
        self.game = game
        self.viewer = viewer
        self.names = tuple(names) if names is not None else None
        self.notation = notation
        self.symbols = symbols

    # --- entry points ---------------------------------------------------------------
    def fact(self, fact: FactLike) -> str:
        """A fact as a sentence (key ``fact.<type>``)."""
        params = {name: getattr(fact, name) for name in fact.__dataclass_fields__}
        return self.message(f"fact.{fact.type}", params)

    def error(self, error: ErrorLike) -> str:
        """A refusal or error (a :class:`~folkdeck.engine.errors.CardGameError`) as a sentence."""
        key = f"error.{error.reason}"
        if key not in self.messages:  # not a catalog key: the reason is text already
            return self.format(str(error.reason), {})
        return self.message(key, dict(error.params), sentence=False)

    def message(self, key: str, params: Mapping[str, object] | None = None, *,
                sentence: bool = True) -> str:
        """The message ``key`` with ``params``; a key the catalog lacks renders as itself
        (the completeness tests make sure none is missing)."""
        text = self.format(self.messages.get(key, key), params or {})
        if sentence and text and self.lang == "en":
            text = text[0].upper() + text[1:]
        return text

    def term(self, value: object) -> str:
        """A term (a combination's name, a reason, a phase) in this language (its key: the
        value as :func:`plain_text` writes it)."""
        key = plain_text(value)
        for full in (f"term.{self.game}.{key}", f"term.{key}"):
            if full in self.messages:
                return str(self.messages[full])
        return key

    def seat(self, seat: int | None) -> str:
        if seat is None:
            return self.term("stock")
        if seat == self.viewer:
            return str(self.messages.get("seat.you", "you"))
        if self.names is not None and 0 <= seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return self.format(self.messages.get("seat.name", "seat {n}"), {"n": seat})

    def cards(self, cards: object) -> str:
        """Cards in the display notation; a card the game names in the catalog (the Cucco
        pack's OWL, 梟 in Japanese) by its name."""
        items: Sequence[object]
        if isinstance(cards, str):
            items = cards.split()
        elif isinstance(cards, Sequence):
            items = cards
        else:
            items = (cards,)
        out = []
        spelled = False
        for card in items:
            named = self.messages.get(f"term.{self.game}.{card}") if self.game else None
            if named is None and self.symbols:  # a display, not the notation one types: "red joker"
                named = self.messages.get(f"card.{self.game}.{card}", self.messages.get(f"card.{card}"))
            if named is not None:  # a name in words ("red joker", 仮面), not a code-like OWL
                spelled = spelled or _WORDED.search(str(named)) is not None
            if named is None and not self.symbols:
                named = self.card_name(card)
                spelled = spelled or named is not None
            out.append(str(named) if named is not None else display_card(card, self.notation,
                                                                         symbols=self.symbols))
        if not spelled:
            return " ".join(out)
        # Cards spelled out in words are a list ("11 of bastos, 3 of oros"), the same card
        # twice once with its count ("7, red joker ×2"), as web/i18n.js writes them.
        runs: list[tuple[str, int]] = []
        for name in out:
            if runs and runs[-1][0] == name:
                runs[-1] = (name, runs[-1][1] + 1)
            else:
                runs.append((name, 1))
        shown = [f"{name} ×{count}" if count > 1 else name for name, count in runs]
        # The display (symbols: the browser's renderer too) separates as the browser does.
        separator = self.messages.get("ui.list_separator" if self.symbols else "cli.list_separator", ", ")
        return str(separator).join(shown)

    def card_name(self, card: object) -> str | None:
        """A card of a pack whose suits have names in the catalog, in words ("11 of bastos",
        棍棒の11); None for any other (a French card reads well as ``10H``).

        >>> es = {"game": "burro_es", "notation": "spanish"}
        >>> Renderer("en", **es).card_name("QC"), Renderer("ja", **es).card_name("KH")
        ('11 of bastos', 'コパス（聖杯）の12')
        >>> Renderer("en").card_name("QC") is None
        True
        """
        rank, suit = split_card(str(card))
        suit_name = self.suit_name(suit)
        if suit_name is None:
            return None
        shown = notations().get(self.notation, {}).get("rank", {}).get(rank, rank)
        return self.message("card.named", {"rank": shown, "suit": suit_name}, sentence=False)

    def suit_name(self, suit: str) -> str | None:
        """The game's own name of a suit (``S``...) when its pack names its suits (a Latin
        pack: notation.json gives it ``suit`` letters): Spanish Burro's ``D`` is "oros"."""
        if not self.game or suit not in _SUIT_WORDS or "suit" not in notations().get(self.notation, {}):
            return None
        name = self.messages.get(f"term.{self.game}.{_SUIT_WORDS[suit]}")
        return None if name is None else str(name)

    def pack_legend(self) -> list[str]:
        """What the pack's suit symbols and court ranks mean, for a pack whose suits have
        names in the catalog (``card.legend``: "🪙 oros · 🍷 copas..."); empty for others.

        >>> Renderer("en", game="burro_pt", notation="portuguese").pack_legend()[0]
        'Suits: ♦ ouros · ♥ copas · ♠ espadas · ♣ paus'
        """
        table = notations().get(self.notation, {})
        symbols = table.get("symbol", _SYMBOLS)
        suits = [f"{symbols.get(s, s)} {name}" for s in "DHSC" if (name := self.suit_name(s)) is not None]
        if not suits:
            return []
        ranks = [f"{table.get('rank', {}).get(r, r)} {self.messages[key]}" for r in ("A", "J", "Q", "K")
                 if (key := f"rank.{self.notation}.{r}") in self.messages]
        separator = str(self.messages.get("cli.list_separator", ", "))
        lines = [self.message("card.legend", {"suits": separator.join(suits)})]
        if ranks:
            lines.append(self.message("card.legend_rank", {"ranks": separator.join(ranks)}))
        return lines

    # --- the template language ---------------------------------------------------------
    def format(self, message: object, params: Mapping[str, object]) -> str:
        while isinstance(message, Mapping):
            message = self._choose(message, params)
        return _PLACEHOLDER.sub(lambda m: self._value(m.group(1), m.group(2), params), str(message))

    def _choose(self, forms: Mapping[str, object], params: Mapping[str, object]) -> object:
        if "plural" in forms:
            value = params.get(str(forms["plural"]), 0)
            n = len(value) if isinstance(value, Sequence) and not isinstance(value, str) else value
            category = plural_category(self.lang, n if isinstance(n, int | float) else 0)
            return forms.get(category, forms.get("other", ""))
        if "person" in forms:
            who = params.get(str(forms["person"]))
            if isinstance(who, Sequence) and not isinstance(who, str):
                who = who[0] if len(who) == 1 else None  # a list is "you" only when it is you alone
            you = self.viewer is not None and who == self.viewer
            return forms["you"] if you else forms["other"]
        if "same" in forms:
            first, second = str(forms["same"]).split()
            return forms["yes"] if _json(params.get(first)) == _json(params.get(second)) else forms["no"]
        if "select" in forms:
            return forms.get(_key(params.get(str(forms["select"]))), forms.get("other", ""))
        raise ValueError(f"a message object needs plural, person, same or select: {dict(forms)}")

    def _value(self, name: str, kind: str | None, params: Mapping[str, Any]) -> str:
        value = params.get(name)
        if kind == "seat":
            return self.seat(value)
        if kind == "seats":
            return self.join([self.seat(s) for s in value or ()])
        if kind in ("card", "cards"):
            return self.cards(value or ())
        if kind == "term":
            return self.term(value)
        if kind == "place":
            return ordinal(self.lang, int(value or 0))
        return plain_text(value)  # {x} and {x:num} alike

    def join(self, items: Sequence[str]) -> str:
        if self.lang == "ja":
            return "、".join(items)
        if len(items) <= 2:
            return " and ".join(items)
        return ", ".join(items[:-1]) + " and " + items[-1]


__all__ = ["LANGUAGES", "Renderer", "catalog", "display_card", "notations", "ordinal", "plain_text",
           "plural_category", "split_card"]
