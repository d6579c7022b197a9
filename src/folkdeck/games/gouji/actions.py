"""Gou Ji actions and their record grammar (``docs/records.md``).

========================  ====================================================
``9 9 2``, ``BJ RJ``      a set, written by ranks (``QC QH Q``: a seat's input may
                          name cards by suit, see :meth:`GouJiState.parse_action`)
``pass``                  pass: out of the trick (agrees to a 先让让 request)
``no``                    decline a window (3s start, revolution, objection, burning)
``declare``               show two same-suit 3s and lead (first and special deals)
``revolution``            call a re-deal (革命): no 2 and no joker in hand
``object``                a teammate objects to the revolution
``withdraw``/``insist``   the caller's answer to an objection
``return 5 7``            the tribute receiver's cards given back (进贡)
``burn 9 9 2``            burning (烧牌) with that set, instead of the opposite
``xian``                  先让让: ask the teammate two seats left to pass
``open``                  lay the hand face up for the rest of the deal
``order 4 2``             ``team_reorder``: the team's seats in its turn positions
``draw 3``                a normal deal: the Da La names the first drawer (docs/rules/gouji.md §2.3)
``foul burn``             ``strict_penalty``: a claim the seat is not entitled to
                          (``burn``, ``revolution``, ``xian``): it makes the
                          offender Da La (docs/rules/gouji.md §10)
========================  ====================================================

>>> [str(parse_action(t)) for t in ("2 9 9", "PASS", "burn K K", "return 7 5", "draw 3",
...                                   "foul Burn")]
['9 9 2', 'pass', 'burn K K', 'return 5 7', 'draw 3', 'foul burn']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from folkdeck.cards import Card
from folkdeck.engine.action_data import PLAY, ActionData
from folkdeck.engine.errors import InvalidNotationError
from folkdeck.games.gouji.rules import RANK_WORDS, Play, parse_counts, parse_play


@dataclass(frozen=True, slots=True)
class Word:
    """A one-word action: ``pass``, ``no``, ``declare``, ``revolution`` …"""

    word: str

    def __str__(self) -> str:
        return self.word

    def __reduce__(self) -> tuple[type[Word], tuple[str]]:
        # Pickled as its constructor call (why: folkdeck.engine.build, "Pickling"): bot
        # workers send actions back by pickle.
        return (Word, (self.word,))

    def __repr__(self) -> str:
        return self.word.upper()


@dataclass(frozen=True, slots=True)
class Return:
    """Tribute: the cards (by rank, ascending) a receiver gives back. ``cards``: the
    suited cards the receiver named, if any (no part of the action's value or text, like
    :attr:`Play.cards <folkdeck.games.gouji.rules.Play.cards>`)."""

    ranks: tuple[int, ...]
    cards: tuple[Card, ...] | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return "return " + " ".join(RANK_WORDS[r] for r in self.ranks)

    def __reduce__(self) -> tuple[type[Return], tuple[tuple[int, ...], tuple[Card, ...] | None]]:
        return (Return, (self.ranks, self.cards))  # as Word.__reduce__


@dataclass(frozen=True, slots=True)
class Burn:
    """Burning (烧牌 shao pai) with a set, played instead of the opposite."""

    play: Play

    def __str__(self) -> str:
        return f"burn {self.play}"

    def __reduce__(self) -> tuple[type[Burn], tuple[Play]]:
        return (Burn, (self.play,))  # as Word.__reduce__


@dataclass(frozen=True, slots=True)
class Order:
    """``team_reorder``: a team's remaining seats, in the order of the turn positions
    its members hold (the first seat takes the team's earliest position)."""

    seats: tuple[int, ...]

    def __str__(self) -> str:
        return "order " + " ".join(map(str, self.seats))

    def __reduce__(self) -> tuple[type[Order], tuple[tuple[int, ...]]]:
        return (Order, (self.seats,))  # as Word.__reduce__


@dataclass(frozen=True, slots=True)
class Draw:
    """A normal deal's first window: the Da La names ``seat`` to draw first (docs/rules/gouji.md §2.3)."""

    seat: int

    def __str__(self) -> str:
        return f"draw {self.seat}"

    def __reduce__(self) -> tuple[type[Draw], tuple[int]]:
        return (Draw, (self.seat,))  # as Word.__reduce__


FOUL_CLAIMS: Final = ("burn", "revolution", "xian")
"""The claims a seat can make without being entitled (``strict_penalty``)."""


@dataclass(frozen=True, slots=True)
class Foul:
    """``strict_penalty``: a claim made without the right to it, accepted as an offence
    that makes the offender Da La (``docs/rules/gouji.md`` §10)."""

    claim: str

    def __str__(self) -> str:
        return f"foul {self.claim}"

    def __reduce__(self) -> tuple[type[Foul], tuple[str]]:
        return (Foul, (self.claim,))  # as Word.__reduce__


PASS: Final = Word("pass")
NO: Final = Word("no")
DECLARE: Final = Word("declare")
REVOLUTION: Final = Word("revolution")
OBJECT: Final = Word("object")
WITHDRAW: Final = Word("withdraw")
INSIST: Final = Word("insist")
XIAN: Final = Word("xian")
OPEN: Final = Word("open")
WORDS: Final = {w.word: w for w in (PASS, NO, DECLARE, REVOLUTION, OBJECT, WITHDRAW, INSIST, XIAN, OPEN)}
GouJiAction = Play | Word | Return | Burn | Order | Draw | Foul

ACTION_TYPES: Final = (Play, Word, Return, Burn, Order, Draw, Foul)
"""The classes of :data:`GouJiAction`, for an ``isinstance`` check."""


_SEAT_WORDS: Final = ("0", "1", "2", "3", "4", "5")


def _parse_return(rest: str, text: str) -> GouJiAction:
    counts = parse_counts(rest)
    if not sum(counts):
        raise InvalidNotationError("gouji.return_needs_cards", token=text)
    return Return(tuple(r for r in range(len(counts)) for _ in range(counts[r])))


def _parse_burn(rest: str, text: str) -> GouJiAction:
    if not rest:
        raise InvalidNotationError("gouji.burn_needs_set", token=text)
    return Burn(parse_play(rest))


def _parse_order(rest: str, text: str) -> GouJiAction:
    items = rest.split()
    if not items or not all(i in _SEAT_WORDS for i in items):
        raise InvalidNotationError("gouji.order_needs_seats", token=text[:60])
    return Order(tuple(int(i) for i in items))


def _parse_draw(rest: str, text: str) -> GouJiAction:
    if rest.strip() not in _SEAT_WORDS:
        raise InvalidNotationError("gouji.draw_needs_seat", token=text[:60])
    return Draw(int(rest))


def _parse_foul(rest: str, text: str) -> GouJiAction:
    if rest.lower() not in FOUL_CLAIMS:
        raise InvalidNotationError("gouji.foul_needs_claim", token=text[:60],
                                   claims=", ".join(FOUL_CLAIMS))
    return Foul(rest.lower())


_KEYWORD_PARSERS: Final[dict[str, Callable[[str, str], GouJiAction]]] = {
    "return": _parse_return,
    "burn": _parse_burn,
    "order": _parse_order,
    "draw": _parse_draw,
    "foul": _parse_foul,
}
"""The actions led by a keyword: each parser reads the text after it (``rest``), given the
whole ``text`` for its error."""


def parse_action(text: str) -> GouJiAction:
    """Read an action without looking at the position.

    Every text gives an action or an :class:`InvalidNotationError` (never another error:
    ``draw ²`` and a seat of 5,000 digits are refused like any other bad seat).

    :raises InvalidNotationError: for an unknown word, rank, or a set of two ranks.
    """
    words = text.strip().split(None, 1)
    if not words:
        raise InvalidNotationError("gouji.empty_action", token=text)
    head = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    if head in WORDS and not rest:
        return WORDS[head]
    parser = _KEYWORD_PARSERS.get(head)
    if parser is not None:
        return parser(rest, text)
    if head in WORDS:
        raise InvalidNotationError("gouji.word_takes_no_cards", word=head, token=text[:60])
    return parse_play(text)


def set_ranks(play: Play) -> tuple[str, ...]:
    """A set's cards by rank, as its notation names them (wild 2s and jokers after the rank)."""
    return ((RANK_WORDS[play.rank],) * play.natural + ("2",) * play.w2 + ("BJ",) * play.wbj
            + ("RJ",) * play.wrj)


def action_data(action: GouJiAction) -> ActionData:
    """An action as a table draws it (:mod:`folkdeck.engine.action_data`): a set is cards
    from the hand named by rank (any suit will do), a burning or a tribute's return names
    its ranks too, a re-order and a draw their seats, a foul its claim; a word is a button.

    >>> action_data(parse_action("9 9 2")).ranks, action_data(parse_action("burn K K")).kind
    (('9', '9', '2'), 'burn')
    >>> action_data(parse_action("order 4 2")).seats, action_data(parse_action("foul xian")).detail
    ((4, 2), 'xian')
    """
    if isinstance(action, Play):
        return ActionData(PLAY, ranks=set_ranks(action))
    if isinstance(action, Burn):
        return ActionData("burn", ranks=set_ranks(action.play))
    if isinstance(action, Return):
        return ActionData("return", ranks=tuple(RANK_WORDS[r] for r in action.ranks))
    if isinstance(action, Order):
        return ActionData("order", seats=action.seats)
    if isinstance(action, Draw):
        return ActionData("draw", seats=(action.seat,))
    if isinstance(action, Foul):
        return ActionData("foul", detail=action.claim)
    return ActionData(action.word)
