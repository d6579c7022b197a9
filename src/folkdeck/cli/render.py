"""The terminal's text, made from data: any game's :class:`~folkdeck.engine.view.View`, its
events, the match's standings, through the message catalog of the chosen language.

Nothing here knows a game or reads a sentence: the view's core fields (hand, counts,
table, status facts, history...) are drawn with the ``cli.*`` messages, facts with their
``fact.<type>`` messages, and cards in the game's display notation
(``GameSpec.card_notation``). Cards come out coloured: red suits red, black suits in the
terminal's own colour (bold), so that they read on light and dark backgrounds alike.

>>> from folkdeck.cards import parse_cards
>>> from folkdeck.engine.view import TablePlay, View
>>> r = TerminalRenderer("en", game="demo", viewer=0)
>>> view = View(game="demo", seat=0, num_players=2, phase="play", hand=parse_cards("3S 10H"),
...             counts=(2, 5), to_act=(0,), current_seat=0, legal_actions=("3S", "pass"),
...             table=(TablePlay(seat=1, cards=parse_cards("2C")),), top=TablePlay(seat=1, cards=parse_cards("2C")))
>>> for line in view_lines(view, r):
...     print(plain(line))
Your hand (2 cards): 3♠ 10♥
Cards held: ▶ you: 2 · seat 1: 5
On the table: seat 1: 2♣
To beat: 2♣ (seat 1)
Your turn
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from rich.text import Text

from folkdeck.cards import Card, parse_card
from folkdeck.engine.errors import CardGameError
from folkdeck.engine.facts import Disqualified, Fact
from folkdeck.engine.protocol import Action, GameSpec, Standings
from folkdeck.engine.view import TablePlay, View, ViewEvent
from folkdeck.i18n import LANGUAGES, Renderer, display_card

# Cards are marked in the rendered string (private-use characters no catalog or player
# text holds) and styled when the string becomes a Rich Text: the catalog's templates
# stay plain text, and no rendered sentence is ever searched for cards afterwards.
_OPEN, _CLOSE = "\ue000", "\ue001"
_RED, _BLACK = "r", "k"
_STYLES = {_RED: "bold red", _BLACK: "bold"}
"""No colour for black suits: ``bright_white`` vanishes on a light terminal."""


def default_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the terminal's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), if
    the catalogs have it; English otherwise.

    >>> default_language({"LANG": "ja_JP.UTF-8"}), default_language({"LANG": "C"})
    ('ja', 'en')
    >>> default_language({"LC_ALL": "en_GB.UTF-8", "LANG": "ja_JP.UTF-8"})
    'en'
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            lang = value.split("_")[0].split(".")[0].lower()
            return lang if lang in LANGUAGES else "en"
    return "en"


class TerminalRenderer(Renderer):
    """A :class:`~folkdeck.i18n.Renderer` whose cards are marked for colouring (see
    :func:`styled`) and shown with suit symbols."""

    def __init__(self, lang: str = "en", *, game: str = "", viewer: int | None = None,
                 notation: str = "french") -> None:
        super().__init__(lang, game=game, viewer=viewer, notation=notation, symbols=True)

    @classmethod
    def for_game(cls, lang: str, spec: GameSpec, viewer: int | None) -> TerminalRenderer:
        return cls(lang, game=spec.name, viewer=viewer, notation=spec.card_notation)

    def cards(self, cards: object) -> str:
        items: Sequence[object]
        if isinstance(cards, str):
            items = cards.split()
        elif isinstance(cards, Card) or not isinstance(cards, Sequence):
            items = (cards,)
        else:
            items = cards
        return " ".join(f"{_OPEN}{_colour(c)}{self._card_name(c)}{_CLOSE}" for c in items)

    def _card_name(self, card: object) -> str:
        """A card the game names in the catalog (the Cucco pack's FOOL, 道化 in Japanese) by
        its name; any other in the display notation, suits as symbols."""
        named = self.messages.get(f"term.{self.game}.{card}") if self.game else None
        return str(named) if named is not None else display_card(card, self.notation, symbols=True)

    def bot(self, name: str) -> str:
        """A bot's name as ``--bot`` takes it (``search:fast``), in this language.

        >>> TerminalRenderer("ja").bot("search:fast"), TerminalRenderer("en").bot("search:fast")
        ('探索（速い）', 'search:fast')
        """
        kind, _, level = name.partition(":")
        shown = str(self.messages.get(f"term.bot.{kind}", kind))
        if not level:
            return shown
        return self.cli("bot_level", {"bot": shown, "level": self.messages.get(f"term.bot_level.{level}", level)},
                        sentence=False)

    def cli(self, key: str, params: Mapping[str, object] | None = None, *, sentence: bool = True) -> str:
        """The terminal's own message ``cli.<key>``."""
        return self.message(f"cli.{key}", params, sentence=sentence)

    def has(self, key: str) -> bool:
        return key in self.messages


def _colour(card: object) -> str:
    if not isinstance(card, Card):
        try:
            card = parse_card(str(card))
        except (CardGameError, ValueError):
            return _BLACK
    red = (card.suit is not None and card.suit.is_red) or str(card) == "RJ"
    return _RED if red else _BLACK


def unmarked(text: str) -> str:
    """Text from outside (what a player types) without the characters that mark cards."""
    return text.replace(_OPEN, "").replace(_CLOSE, "")


def styled(text: str, style: str = "") -> Text:
    """A rendered string as Rich text: its marked cards coloured, the rest in ``style``."""
    out = Text(style=style)
    rest = text
    while _OPEN in rest:
        before, _, tail = rest.partition(_OPEN)
        card, _, rest = tail.partition(_CLOSE)
        out.append(before)
        out.append(card[1:], style=_STYLES.get(card[:1], ""))
    out.append(rest)
    return out


def plain(text: str | Text) -> str:
    """A rendered string without its card marks (for logs, tests and doctests)."""
    return text.plain if isinstance(text, Text) else styled(text).plain


# --- views -----------------------------------------------------------------------------

def view_lines(view: View, r: TerminalRenderer, *, teams: Sequence[Sequence[int]] = (),
               since: View | None = None,
               hands: Sequence[Sequence[Card] | None] | None = None) -> list[str]:
    """What a player needs to see of a view, line by line: the status, the hand, the seats,
    the stock, the table, whose turn it is and, when the deal is over, the places.

    ``since``: the view shown last; the status and the phase are left out when they have
    not changed since (they stay true for a whole trick or deal: once is enough).
    ``hands``: every seat's hand (a spectator watching bots), shown instead of the viewer's."""
    lines = _news_lines(view, r, since)
    if hands is not None:
        lines.extend(r.cli("view.seat_hand", {"seat": seat, "count": len(hand), "cards": hand})
                     for seat, hand in enumerate(hands) if hand is not None)
    elif view.hand is not None:
        lines.append(r.cli("view.hand", {"count": len(view.hand), "cards": view.hand}))
    lines.append(r.cli("view.seats", {"seats": _seats(view, r, teams)}))
    lines.extend(_middle_lines(view, r))
    lines.extend(_turn_lines(view, r))
    return lines


def _news_lines(view: View, r: TerminalRenderer, since: View | None) -> list[str]:
    """The status facts and the phase, unless they are what ``since`` showed already."""
    lines = [r.fact(f) for f in view.status] if since is None or since.status != view.status else []
    phase = f"term.{view.game}.{view.phase}"
    # A game names the phases worth naming to players in its terms; others go unsaid.
    if view.phase and (r.has(phase) or r.has(f"term.{view.phase}")) and (
            since is None or since.phase != view.phase):
        lines.append(r.cli("view.phase", {"phase": view.phase}))
    return lines


def _middle_lines(view: View, r: TerminalRenderer) -> list[str]:
    """What lies between the seats: the stock (or piles), the table, the play to beat."""
    lines = []
    if view.stock:
        lines.append(r.cli("view.stock", {"count": view.stock[0]}) if len(view.stock) == 1
                     else r.cli("view.piles", {"piles": r.join([str(n) for n in view.stock])}))
    if view.table:
        lines.append(r.cli("view.table", {"plays": _list([_table_play(p, r) for p in view.table], r)}))
    if view.top is not None:
        lines.append(r.cli("view.top", {"cards": view.top.cards, "seat": view.top.seat}))
    return lines


def _turn_lines(view: View, r: TerminalRenderer) -> list[str]:
    """The deal's places once it is over; else whose turn it is (the viewer's, out of turn, another's)."""
    if view.result is not None:
        return result_lines(view.result, view.num_players, r)
    if view.seat is not None and view.current_seat == view.seat:
        return [r.cli("view.your_turn")]
    if view.seat is not None and view.seat in view.to_act:
        return [r.cli("view.out_of_turn")]
    if view.current_seat is not None:
        return [r.cli("view.waiting", {"seat": view.current_seat})]
    return []


def _seats(view: View, r: TerminalRenderer, teams: Sequence[Sequence[int]]) -> str:
    team_of = {s: t for t, members in enumerate(teams) for s in members}
    out = []
    for seat in range(view.num_players):
        count = view.counts[seat] if seat < len(view.counts) else None
        text = r.cli("view.seat_count", {"seat": seat, "count": "?" if count is None else count},
                     sentence=False)
        marks = []
        if seat in team_of:
            marks.append(r.cli("view.team", {"team": team_of[seat] + 1}, sentence=False))
        marks.extend(_standing_marks(view, seat, r))
        if marks:
            text = r.cli("view.seat_marks", {"seat": text, "marks": _list(marks, r)}, sentence=False)
        if seat == view.current_seat:
            text = r.cli("view.on_turn", {"seat": text}, sentence=False)
        out.append(text)
    return _list(out, r)


def _standing_marks(view: View, seat: int, r: TerminalRenderer) -> list[str]:
    """Where a seat stands in the deal. Once it is over, its place in the result (the
    same as the places line says: a seat still holding cards did not go out, and a seat
    disqualified is not first); during the deal, disqualified, out (the order in which
    the seats that shed their cards went out) or passed."""
    disqualified = {f.seat for f in view.status if isinstance(f, Disqualified)}
    marks = [r.cli("view.disqualified", sentence=False)] if seat in disqualified else []
    if view.result is not None:
        placings = _placings(view.result, view.num_players)
        if seat < len(placings) and placings[seat] is not None:
            marks.append(r.cli("view.place", {"place": placings[seat]}, sentence=False))
        return marks
    finished = [s for s in view.out if s not in disqualified]
    if seat in finished:
        marks.append(r.cli("view.out", {"place": finished.index(seat) + 1}, sentence=False))
    elif seat in view.passed and seat not in disqualified:
        marks.append(r.cli("view.passed", sentence=False))
    return marks


def _list(items: Sequence[str], r: TerminalRenderer) -> str:
    return str(r.messages.get("cli.list_separator", ", ")).join(items)


def _table_play(play: TablePlay, r: TerminalRenderer) -> str:
    key = "view.table_play_labelled" if play.label else "view.table_play"
    return r.cli(key, {"seat": play.seat, "cards": play.cards, "label": play.label}, sentence=False)


def result_lines(result: Mapping[str, object], players: int, r: TerminalRenderer) -> list[str]:
    """A finished deal's places and returns (the JSON of :class:`~folkdeck.engine.protocol.Result`;
    its reason is said by the deal's last event). Where a game scores each place and adds the
    places up by team (Gou Ji's ``place_points``), a row shows what the place earned and the
    team's score beside it."""
    placings = _placings(result, players)
    returns = _numbers(result, "returns")
    points = _numbers(result, "place_points")
    order = sorted(range(len(placings)), key=lambda s: (placings[s] is None, placings[s] or 0, s))
    rows = []
    for seat in order:
        params: dict[str, object] = {"seat": seat, "place": placings[seat],
                  "delta": _signed(returns[seat]) if seat < len(returns) else "0"}
        key = "result.row" if placings[seat] is not None else "result.row_unplaced"
        if seat < len(points) and placings[seat] is not None:
            key, params["points"] = "result.row_place_points", _signed(points[seat])
        rows.append(r.cli(key, params, sentence=False))
    return [r.cli("result.places", {"rows": _list(rows, r)})]


def _placings(result: Mapping[str, object], players: int) -> list[int | None]:
    """Each seat's place in a result's JSON (None: unplaced; all None when it gives none)."""
    placings = result.get("placings")
    if not isinstance(placings, list | tuple) or not placings:
        return [None] * players
    return [place if isinstance(place, int) else None for place in placings]


def _numbers(result: Mapping[str, object], key: str) -> list[float]:
    """A per-seat list of numbers in a result's JSON (``returns``...); empty when it gives none."""
    numbers = result.get(key)
    if not isinstance(numbers, list | tuple):
        return []
    return [number if isinstance(number, int | float) else 0.0 for number in numbers]


def _signed(value: float) -> str:
    number = float(value)
    text = f"{number:g}"
    return f"+{text}" if number > 0 else text


# --- events, actions, standings ------------------------------------------------------

def event_lines(event: ViewEvent, r: TerminalRenderer) -> list[str]:
    """An event as its viewer may see it: the action, then what followed, one line each."""
    head = r.fact(event.act) if event.act is not None else r.cli(
        "event.action", {"seat": event.seat, "action": event.action})
    return [head, *(r.fact(f) for f in event.facts)]


def option_label(act: Fact | None, action: Action, r: TerminalRenderer, window: str = "") -> str:
    """A legal action as a choice in a list: what it does where the game words it
    (``term.<game>.action.<word>``, by the ``window`` the view says is open: Gou Ji's ``no``
    is "don't declare", 宣言しない, when asked to declare), ``cli.option.<type>`` where the
    terminal has a short form (a play shows as its cards), else the action's own sentence."""
    word = f"term.{r.game}.action.{action}"
    if r.game and r.has(word):
        return r.message(word, {"window": window}, sentence=False)
    if act is None:
        return str(action)
    key = f"cli.option.{act.type}"
    if r.has(key):
        return r.message(key, {name: getattr(act, name) for name in act.__dataclass_fields__},
                         sentence=False)
    return r.fact(act)


def standings_lines(standings: Standings, r: TerminalRenderer,
                    teams: Sequence[Sequence[int]] = ()) -> list[str]:
    """Where the match stands: deals played, then the seats (or teams) best first."""
    lines = [r.cli("standings.deals_of" if standings.deals_limit is not None else "standings.deals",
                   {"played": standings.deals_played, "limit": standings.deals_limit})]
    groups: list[tuple[int, ...]] = []
    for seat in standings.ranking:
        team = next((tuple(t) for t in teams if seat in t), (seat,))
        shared = len({standings.scores[s] for s in team}) == 1
        group = team if shared else (seat,)
        if group not in groups:
            groups.append(group)
    sign = -1 if standings.higher_wins else 1
    rank = [(g[0] in standings.eliminated, sign * standings.scores[g[0]]) for g in groups]
    for group, key in zip(groups, rank, strict=True):
        place = 1 + sum(other < key for other in rank)  # equal scores share a place
        score = standings.scores[group[0]]
        params = {"place": place, "seats": list(group), "score": score, "unit": standings.unit}
        row = r.cli("standings.row", params, sentence=False)
        if group[0] in standings.eliminated:
            row = r.cli("standings.eliminated", {"row": row}, sentence=False)
        lines.append(row)
    return lines


__all__ = ["TerminalRenderer", "default_language", "event_lines", "option_label",
           "plain", "unmarked", "result_lines", "standings_lines", "styled", "view_lines"]
