"""Cangkul and Burro rules as pure functions over card bitmasks (docs/rules/cangkul.md).

A card is an index ``suit * 13 + strength``: suits S, C, D, H are 0 … 3, and
``strength`` counts up from the suit's lowest card *in the game's own order*, so
within a suit a higher bit is a stronger card whatever the pack. The one joker of
Cangkul's variation 2 is index 52, above everything. A hand is an ``int`` below
``2**53`` (why so small: :mod:`folkdeck.engine.build`, "Ints").

>>> d = deck_for("french52")
>>> notation(mask("AH 2H 10H", d), d)                  # docs/rules/cangkul.md §7.1: A high … 2 low
'2H 10H AH'
>>> es = deck_for("spanish48")
>>> notation(mask("AC KC QC JC 9C", es), es)           # docs/rules/cangkul.md §7.6: Rey > Caballo > Sota > 9 … As
'AC 9C JC QC KC'
>>> pt = deck_for("portuguese40")
>>> notation(mask("AS KS QS JS 7S", pt), pt)           # docs/rules/cangkul.md §7.8: Rei > Valete > Dama > 7 … Ás
'AS 7S QS JS KS'
>>> hi = deck_for("portuguese40", ace_high=True)
>>> notation(mask("AS KS 2S", hi), hi)                 # pt_ace_high
'2S KS AS'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol

from folkdeck.cards import (
    FRENCH_52,
    PORTUGUESE_40,
    SPANISH_48,
    Card,
    Pack,
    Rank,
    Suit,
    parse_cards,
)
from folkdeck.engine.errors import InvalidNotationError
from folkdeck.engine.protocol import Game
from folkdeck.games.cangkul.options import (
    AnyOptions,
    BurroPtOptions,
    CangkulOptions,
    JokerPlay,
    LeadAfterOut,
    LeadAfterPass,
    PackName,
    Score,
)

SUITS: Final = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
STRIDE: Final = 13
"""Bits per suit: the most ranks of any pack (French, 13)."""
SUIT_BITS: Final = (1 << STRIDE) - 1
"""One suit's cards, as a mask shifted down to bit 0."""
JOKER: Final = 4 * STRIDE
"""The joker's index (Cangkul variation 2): above every suited card."""
JOKER_BIT: Final = 1 << JOKER
JOKER_CARD: Final = Card(Rank.RED_JOKER)
"""The one joker of the 53-card pack is written ``RJ`` (``joker`` is accepted on input)."""
SUIT_MASKS: Final = tuple(SUIT_BITS << (STRIDE * s) for s in range(4))
NO_SUIT: Final = -1
"""The led suit before the first suited card of a trick (a lead, or after a joker lead)."""

# The trick's rules as tables indexed by the led suit (0-3, or NO_SUIT: -1, the last entry)
# or by card index: the deal's transitions and the state's common cases read these very
# names, so that each rule is written once, here (docs/rules/cangkul.md §2.3-§2.5, §3.2).
FOLLOW: Final = (*SUIT_MASKS, (1 << (JOKER + 1)) - 1)
"""``FOLLOW[led]``: the cards that follow the led suit, which a seat may always play on it:
the suit's own (§2.3). With no led suit (``FOLLOW[NO_SUIT]``: a lead, or the card after a
joker lead) every card does (§2.3, §3.2). Whether the joker may be played on a led suit
depends on the rest of the hand: :func:`choices`."""
PLAY_ON: Final = tuple(m | JOKER_BIT for m in FOLLOW)
"""``PLAY_ON[led]``: the cards that let a seat play rather than dig: those that follow, and
the joker (§2.3, §3.2). A seat holding none of them digs, and passes with the stock empty
(§2.4)."""
LED_BY: Final = tuple(NO_SUIT if i == JOKER else i // STRIDE for i in range(JOKER + 1))
"""``LED_BY[card]``: the led suit that card index ``card`` sets as the first suited card of
a trick: its own suit; the joker sets none, and the next card does (§3.2)."""

FRENCH_53: Final = Pack("French 53 (one joker)", FRENCH_52.cards + (JOKER_CARD,))
_ORDERS: Final[dict[str, tuple[Rank, ...]]] = {
    # Ascending strength within a suit.
    "french": (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT,
               Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE),
    "spanish": (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN,
                Rank.EIGHT, Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING),
    "portuguese": (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN,
                   Rank.QUEEN, Rank.JACK, Rank.KING),
    "portuguese_ace_high": (Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN,
                            Rank.QUEEN, Rank.JACK, Rank.KING, Rank.ACE),
}



@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """Every difference between the three games, as the engine reads it on every action.
    It lives here, not with the options (why: :mod:`folkdeck.engine.build`, "Classes")."""

    title: str
    players: int
    pack: PackName
    ace_high: bool
    hand_size: int
    passers_collect: bool
    """Cangkul: the played cards of a trick with a pass go to the passers."""
    drop_out: bool
    """Empty hands leave play and the last holder loses (else the first empty hand wins)."""
    joker_play: JokerPlay
    lead_after_pass: LeadAfterPass
    lead_after_out: LeadAfterOut
    score: Score | Literal["penalty"]
    piles: int
    knock_prob: float
    penalty_limit: int | None
    direction: Literal["clockwise", "counter-clockwise"]
    stall_limit: int = 0
    """Tricks in a row taken by passers with the stock empty that end the deal (0: never)."""

    @property
    def has_joker(self) -> bool:
        return self.pack == "french53"


def ruleset(options: AnyOptions) -> Ruleset:
    """The engine's rule table for a game's options.

    >>> from folkdeck.games.cangkul.options import BurroEsOptions
    >>> ruleset(CangkulOptions()).hand_size, ruleset(BurroEsOptions()).hand_size
    (7, 5)
    >>> ruleset(BurroPtOptions()).piles, ruleset(BurroEsOptions()).passers_collect
    (2, False)
    """
    if isinstance(options, CangkulOptions):
        return Ruleset(
            title="Cangkul", players=options.players,
            pack="french53" if options.joker else "french52", ace_high=True, hand_size=7,
            passers_collect=True, drop_out=options.cangkul_drop_out, joker_play=options.joker_play,
            lead_after_pass=options.lead_after_pass, lead_after_out=options.lead_after_out,
            score=options.score, piles=1, knock_prob=0.0, penalty_limit=None, direction="clockwise",
            stall_limit=options.stall_limit)
    return Ruleset(
        title=options.title, players=options.players, pack=options.pack,
        ace_high=options.pt_ace_high if isinstance(options, BurroPtOptions) else False,
        hand_size=options.hand_size, passers_collect=False, drop_out=True, joker_play="anytime",
        lead_after_pass="winner", lead_after_out=options.lead_after_out, score="penalty",
        piles=2 if isinstance(options, BurroPtOptions) and options.two_stock_piles else 1,
        knock_prob=options.stock_knock_prob if isinstance(options, BurroPtOptions) else 0.0,
        penalty_limit=options.penalty_limit, direction="counter-clockwise")

DRAW_FACT_SLOTS: Final = 16 * 128 * 4
"""Seats (16) × card indices (128: the joker is 52) × outcomes (played at once, or kept from the one pile,
the left or the right pile)."""


def draw_fact_slot(seat: int, card: int, outcome: int) -> int:
    """The :attr:`Deck.draw_facts` index of a draw: ``outcome`` 0 is a card played at once,
    1-3 a card kept (drawn from the one pile, the left, the right).

    >>> draw_fact_slot(0, 0, 0), draw_fact_slot(0, JOKER, 0) != draw_fact_slot(1, 0, 0), draw_fact_slot(15, 127, 3)
    (0, True, 8191)
    """
    return (seat << 7 | card) << 2 | outcome


@dataclass(frozen=True, slots=True)
class Deck:
    """A pack laid out as bit indices in one game's rank order."""

    pack: Pack
    order: tuple[Rank, ...]
    cards: tuple[Card | None, ...] = field(repr=False)
    """``cards[i]`` is the card of index ``i`` (``None`` for unused indices)."""
    index: dict[Card, int] = field(repr=False)
    full: int = field(repr=False)
    """The mask of every card of the pack."""
    by_id: dict[int, int] = field(repr=False, default_factory=dict)
    """``id(card) -> index`` for this deck's own card objects (a fast path for actions)."""
    suit_cards: tuple[list[tuple[Card, ...] | None], ...] = field(
        repr=False, default_factory=lambda: tuple([None] * (SUIT_BITS + 1) for _ in range(4)))
    """Per suit, the cards of each suit mask shifted down to bit 0 (``None`` until first
    asked for): a list, as indexing one is the cheapest look-up."""
    names: tuple[str, ...] = field(repr=False, default=())
    """``names[i]`` is ``str(cards[i])`` (``""`` for unused indices): event notes are
    written on every draw, and ``Card.__str__`` is slow enough to show in profiles."""
    ordered: tuple[int, ...] = field(repr=False, default=())
    """Every card index of the pack, ascending: the unshuffled deck."""
    suit_words: tuple[str, ...] = field(repr=False, default=())
    """:meth:`suit_name` of suits 0-3, made once for the event notes."""
    name: str = field(repr=False, default="")
    """The pack's option value (``spanish48``): the catalogs' term for the pack."""
    draw_facts: list[Any] = field(repr=False, compare=False, default_factory=lambda: [None] * DRAW_FACT_SLOTS)
    """The facts of drawing this deck's cards, made once each, by :func:`draw_fact_slot`
    (see ``CangkulState._draw``): a list, as indexing one is the cheapest look-up. A card
    played at once (outcome 0) holds its fact; a card kept holds the 1-tuple of its fact,
    which is the whole of the event's facts when the stock is not empty yet."""

    @property
    def size(self) -> int:
        return self.full.bit_count()

    def suit_name(self, suit: int) -> str:
        """``'hearts'`` in a French pack, ``'copas'`` in a Spanish or Portuguese one."""
        return self.suit_words[suit]


def _suit_word(pack: Pack, suit: int) -> str:
    if not pack.suit_names:
        return SUITS[suit].name.lower()
    return pack.suit_names[SUITS[suit]].removeprefix("de ")


_DECKS: Final[dict[tuple[str, bool], Deck]] = {}


class CangkulGameLike(Game, Protocol):
    """The game as a deal reads it: a :class:`~folkdeck.engine.protocol.Game` (Cangkul's or a
    Burro's options) with its :class:`Ruleset` and :class:`Deck`
    (:class:`~folkdeck.games.cangkul.game.CangkulGame` is one). The state takes this, so that
    it need not import the game module, which makes it."""

    @property
    def options(self) -> AnyOptions: ...

    @property
    def rules(self) -> Ruleset: ...

    @property
    def deck(self) -> Deck: ...


def deck_for(pack: PackName, ace_high: bool = False) -> Deck:
    """The deck of a pack name (``ace_high`` matters for the Portuguese pack only)."""
    key = (pack, ace_high and pack == "portuguese40")
    deck = _DECKS.get(key)
    if deck is None:
        if pack in ("french52", "french53"):
            order, base = _ORDERS["french"], FRENCH_53 if pack == "french53" else FRENCH_52
        elif pack == "spanish48":
            order, base = _ORDERS["spanish"], SPANISH_48
        else:
            order, base = _ORDERS["portuguese_ace_high" if key[1] else "portuguese"], PORTUGUESE_40
        cards: list[Card | None] = [None] * (JOKER + 1)
        index: dict[Card, int] = {}
        for s, suit in enumerate(SUITS):
            for strength, rank in enumerate(order):
                card = Card(rank, suit)
                cards[s * STRIDE + strength] = card
                index[card] = s * STRIDE + strength
        if pack == "french53":
            cards[JOKER] = JOKER_CARD
            index[JOKER_CARD] = JOKER
        full = sum(1 << i for i in index.values())
        deck = _DECKS[key] = Deck(base, order, tuple(cards), index, full,
                                  {id(c): i for c, i in index.items()},
                                  names=tuple("" if c is None else str(c) for c in cards),
                                  ordered=tuple(indices(full)),
                                  suit_words=tuple(_suit_word(base, s) for s in range(4)), name=pack)
    return deck


def mask(cards: str | Sequence[Card], deck: Deck) -> int:
    """A bitmask from notation or cards.

    >>> d = deck_for("spanish48")
    >>> mask("10S", d)
    Traceback (most recent call last):
    ...
    folkdeck.engine.errors.InvalidNotationError: 10S is not a card of the Spanish 48-card pack

    :raises InvalidNotationError: ``cangkul.card_not_in_pack`` for a card not in the pack,
        ``cangkul.card_twice`` for a repeated card.
    """
    seq = parse_cards(cards) if isinstance(cards, str) else cards
    m = 0
    for c in seq:
        i = deck.index.get(c)
        if i is None:
            raise InvalidNotationError("cangkul.card_not_in_pack", token=str(c), card=str(c), pack=deck.name)
        if m >> i & 1:
            raise InvalidNotationError("cangkul.card_twice", token=str(c), card=str(c))
        m |= 1 << i
    return m


def indices(m: int) -> list[int]:
    """The card indices of a mask, ascending.

    >>> indices(0b1010)
    [1, 3]
    """
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def cards_of(m: int, deck: Deck) -> tuple[Card, ...]:
    """The cards of a mask: suits S, C, D, H, each from weakest to strongest, then the joker.

    >>> d = deck_for("french53")
    >>> cards_of(mask("RJ 2H AS 3S", d), d)
    (Card.parse('3S'), Card.parse('AS'), Card.parse('2H'), Card.parse('RJ'))
    """
    # Every legal-move listing comes here: one cache look-up per suit, and the mask is
    # shifted down as we go so that empty high suits end the loop early.
    out: tuple[Card, ...] = ()
    s = 0
    while m:
        part = m & SUIT_BITS
        if part:
            got = deck.suit_cards[s][part] if s < 4 else (JOKER_CARD,)
            if got is None:
                got = _suit_cards(part, s, deck)
            out += got
        m >>= STRIDE
        s += 1
    return out


def _suit_cards(part: int, s: int, deck: Deck) -> tuple[Card, ...]:
    """The cards of one suit's mask (shifted down to bit 0), remembered in the deck's cache."""
    got = deck.suit_cards[s][part] = tuple(deck.cards[STRIDE * s + i] for i in indices(part))  # type: ignore[misc]
    return got


def notation(m: int, deck: Deck) -> str:
    """Canonical notation of a mask (the order of :func:`cards_of`, which is ascending
    index order), from the deck's precomputed card names."""
    names = deck.names
    return " ".join([names[i] for i in indices(m)])


def suit_of(index: int) -> int:
    """The suit number of a card index; 4 for the joker.

    >>> suit_of(3 * STRIDE + 12), suit_of(JOKER)
    (3, 4)
    """
    return index // STRIDE


def choices(hand: int, led: int, joker_play: JokerPlay) -> tuple[int, bool]:
    """What a player may do: ``(cards they may play, whether they dig instead)``.

    ``led`` is the led suit, or :data:`NO_SUIT` for a lead or the card after a joker
    lead (docs/rules/cangkul.md §3.2: "the next player may play any card"). Digging means
    drawing, or passing once the stock is empty.

    >>> d = deck_for("french53")
    >>> h = mask("3H 9H 4S", d)
    >>> notation(choices(h, 3, "anytime")[0], d), choices(h, 3, "anytime")[1]  # docs/rules/cangkul.md §2.3 follow suit
    ('3H 9H', False)
    >>> choices(h, 1, "anytime")                                              # void in clubs: dig
    (0, True)
    >>> notation(choices(h, NO_SUIT, "anytime")[0], d)                       # a lead: any card
    '4S 3H 9H'
    >>> hj = h | JOKER_BIT
    >>> notation(choices(hj, 3, "anytime")[0], d), notation(choices(hj, 3, "only_void")[0], d)
    ('3H 9H RJ', '3H 9H')
    >>> choices(hj, 1, "only_void") == (JOKER_BIT, True), choices(hj, 1, "must_when_void") == (JOKER_BIT, False)
    (True, True)
    """
    if not hand & PLAY_ON[led]:
        return 0, True
    follow = hand & FOLLOW[led]
    joker = hand & JOKER_BIT
    if follow:
        return follow | (joker if joker_play == "anytime" else 0), False
    if joker_play == "must_when_void":
        return joker, False
    return joker, True


def led_suit(plays: Sequence[tuple[int, int]]) -> int:
    """The led suit of a trick's plays ``(seat, card index)``: the first suited card's.

    >>> led_suit([(0, JOKER), (1, 2 * STRIDE + 5)]), led_suit([(2, JOKER)])
    (2, -1)
    """
    for _, card in plays:
        if LED_BY[card] != NO_SUIT:
            return LED_BY[card]
    return NO_SUIT


def takes_trick(card: int, best: int, suit: int) -> bool:
    """Whether card index ``card``, played now, becomes the trick's best card over ``best``
    (the best index so far, -1 for none): the joker always does; otherwise the highest card
    that follows the led ``suit`` (:data:`FOLLOW`) wins (docs/rules/cangkul.md §2.5, §3.2). So a
    card never takes the trick from a higher one (the joker is the highest index).

    >>> d = deck_for("french52")
    >>> takes_trick(d.index[Card.parse("JH")], d.index[Card.parse("9H")], d.index[Card.parse("9H")] // STRIDE)
    True
    >>> takes_trick(d.index[Card.parse("AS")], d.index[Card.parse("9H")], d.index[Card.parse("9H")] // STRIDE)
    False
    """
    return card == JOKER or (card > best and (FOLLOW[suit] >> card) & 1 == 1)


def trick_winner(plays: Sequence[tuple[int, int]], suit: int | None = None) -> int:
    """The seat that played the highest card of the led suit, or the joker (docs/rules/cangkul.md §2.5,
    variation 2). ``plays`` are ``(seat, card index)`` in order; passes are left out.
    ``suit`` is their :func:`led_suit`, when the caller already knows it.

    >>> d = deck_for("french52")
    >>> trick_winner([(0, d.index[Card.parse("9H")]), (1, d.index[Card.parse("AS")]),
    ...               (2, d.index[Card.parse("JH")])])
    2
    >>> trick_winner([(0, d.index[Card.parse("9H")]), (1, JOKER)])
    1
    """
    if suit is None:
        suit = led_suit(plays)
    best_seat, best = plays[0][0], -1
    for seat, card in plays:
        if takes_trick(card, best, suit):
            best_seat, best = seat, card
            if card == JOKER:
                break
    return best_seat


def share_out(played: Sequence[int], passers: Sequence[int]) -> list[list[int]]:
    """Seed: the first passer takes the first played card, the second passer the second,
    and so on round again from the first passer. Returns each passer's cards.

    >>> share_out([10, 11, 12], [3])
    [[10, 11, 12]]
    >>> share_out([10, 11, 12], [3, 1])
    [[10, 12], [11]]
    """
    taken: list[list[int]] = [[] for _ in passers]
    for i, card in enumerate(played):
        taken[i % len(passers)].append(card)
    return taken


def split_stock(stock: Sequence[int], piles: int) -> list[list[int]]:
    """The stock (top first) as piles, each top first: with two piles the first
    ``ceil(n / 2)`` cards are the left pile and the rest the right pile (docs/rules/cangkul.md §7.12).

    >>> split_stock([1, 2, 3, 4, 5], 2)
    [[1, 2, 3], [4, 5]]
    >>> split_stock([1, 2], 1)
    [[1, 2]]
    """
    if piles == 1:
        return [list(stock)]
    half = (len(stock) + 1) // 2
    return [list(stock[:half]), list(stock[half:])]


__all__ = ["FOLLOW", "FRENCH_53", "CangkulGameLike", "JOKER", "JOKER_BIT", "JOKER_CARD", "LED_BY", "NO_SUIT", "PLAY_ON",
           "STRIDE", "SUITS", "SUIT_BITS", "SUIT_MASKS",
           "Deck", "Ruleset", "cards_of", "choices", "deck_for", "indices", "led_suit", "mask", "notation",
           "ruleset", "share_out", "split_stock", "suit_of", "takes_trick", "trick_winner"]
