"""Kap Hai rules as pure functions over card bitmasks (docs/rules/kaphai.md §3, §8).

A card is an index ``rank * 4 + suit`` with ranks 3 … A, 2 as 0 … 12 and suits
S < C < D < H as 0 … 3, so the index order *is* the game's card order (3S lowest,
2H highest). A hand is an ``int`` with one bit per card.

>>> classify(mask("4C 4D")).kind.name, classify(mask("6S 7D 8H")).kind.name
('PAIR', 'STRAIGHT')
>>> beats(classify(mask("4S 4H")), classify(mask("4C 4D")), RULES)   # figure 2, docs/rules/kaphai.md §3.2
True
>>> beats(classify(mask("9S 10S JD")), classify(mask("10H JC QS")), RULES)  # figure 4, docs/rules/kaphai.md §3.2
False
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from folkdeck.cards import Card, Rank, Suit, format_cards, parse_cards
from folkdeck.engine.errors import InvalidNotationError
from folkdeck.games.kaphai.options import KapHaiOptions

RANKS: Final = (Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE,
         Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TWO)
SUITS: Final = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
TWO: Final = 12          # rank index of the 2s
FIVE: Final = 2          # rank index of the 5s (the local rules' "5 or lower")
SIX: Final = 3
CARDS: Final[tuple[Card, ...]] = tuple(Card(r, s) for r in RANKS for s in SUITS)
INDEX: Final[dict[Card, int]] = {c: i for i, c in enumerate(CARDS)}
FULL: Final = (1 << 52) - 1
RANK_MASKS: Final = tuple(0xF << (4 * r) for r in range(13))
SUIT_MASKS: Final = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))
RULES: Final = KapHaiOptions()  # the default rules, for doctests and quick use


def mask(cards: str | tuple[Card, ...] | list[Card]) -> int:
    """A bitmask from notation or cards.

    >>> bin(mask("3S 3C"))
    '0b11'

    :raises InvalidNotationError: for a card not in the 52-card pack, or a repeated card.
    """
    cards = parse_cards(cards) if isinstance(cards, str) else cards
    m = 0
    for c in cards:
        i = INDEX.get(c)
        if i is None:
            raise InvalidNotationError("kaphai.not_in_pack", token=str(c))
        if m >> i & 1:
            raise InvalidNotationError("kaphai.card_twice", token=str(c))
        m |= 1 << i
    return m


def cards_of(m: int) -> tuple[Card, ...]:
    """The cards of a mask in ascending Kap Hai order."""
    out = []
    while m:
        low = m & -m
        out.append(CARDS[low.bit_length() - 1])
        m ^= low
    return tuple(out)


def notation(m: int) -> str:
    """Canonical notation of a mask: ascending, one space apart.

    >>> notation(mask("2H 3S 10C"))
    '3S 10C 2H'
    """
    return format_cards(cards_of(m))


def top_index(m: int) -> int:
    return m.bit_length() - 1


class Kind(IntEnum):
    """The shapes of ``docs/rules/kaphai.md`` §3.1, where their Khmer names are."""

    SINGLE = 1          # コーイ
    PAIR = 2            # パエ
    TRIPLE = 3          # サーム
    KARE = 4            # カーレー, four of a kind
    STRAIGHT = 5        # バイリエン…, 3+ consecutive ranks (police if one suit)
    PAIR_RUN = 6        # アオップ (2 pairs), 3-6 consecutive pairs; パエカーレー = 4
    POLU = 7            # ポルー, pair + triple on consecutive ranks
    DOUBLE_TRIPLE = 8   # two consecutive triples (option)


# The kinds as module constants, for the code that runs in every move (the move generator,
# the named rules, the rollouts; shapes.py, moves.py and state.py import them): Python 3.11
# reads an enum's member (``Kind.SINGLE``) through the hook of the enum class's
# ``__getattr__`` (about 900 machine instructions more than a global), a constant as a global.
KIND_SINGLE: Final = Kind.SINGLE
KIND_PAIR: Final = Kind.PAIR
KIND_TRIPLE: Final = Kind.TRIPLE
KIND_KARE: Final = Kind.KARE
KIND_STRAIGHT: Final = Kind.STRAIGHT
KIND_PAIR_RUN: Final = Kind.PAIR_RUN
KIND_POLU: Final = Kind.POLU
KIND_DOUBLE_TRIPLE: Final = Kind.DOUBLE_TRIPLE


class Combo:
    """A classified set of cards: the play itself, also the action in the state.

    ``key`` orders combos of one shape: the top card index for singles, sets,
    straights and pair runs; the higher rank for polu and double triples; -1 for the
    triple of 2s, the weakest triple (docs/rules/kaphai.md §3.4, §8.3).
    """

    __slots__ = ("mask", "kind", "size", "key", "flush", "_text")

    def __init__(self, m: int, kind: Kind, size: int, key: int, flush: bool) -> None:
        self.mask = m
        self.kind = kind
        self.size = size
        self.key = key
        self.flush = flush
        self._text = ""  # the notation, made on first use (see __str__)

    @property
    def cards(self) -> tuple[Card, ...]:
        return cards_of(self.mask)

    @property
    def is_tong_farson(self) -> bool:
        """A police of exactly 5 cards, トングファーソン (docs/rules/kaphai.md §3.1)."""
        return self.flush and self.size == 5

    @property
    def is_pae_kare(self) -> bool:
        """Exactly four consecutive pairs, パエカーレー (docs/rules/kaphai.md §3.1)."""
        return self.kind is KIND_PAIR_RUN and self.size == 8

    @property
    def is_throwable(self) -> bool:
        """The triple of 2s, which may be thrown on a triple (docs/rules/kaphai.md §3.4)."""
        return self.key == -1

    def is_police(self, rules: KapHaiOptions) -> bool:
        """A straight of one suit, ポリッヒ; not a 3-4-5 under ``low_police_void``."""
        if not self.flush:
            return False
        return not (rules.low_police_void and self.size == 3 and self.key >> 2 <= FIVE)

    @property
    def name(self) -> str:
        """The combination's name as players say it (``pae-kare``, ``consecutive pairs``)."""
        if self.kind is Kind.STRAIGHT:
            return ("tong-farson" if self.size == 5 else "police") if self.flush else "straight"
        if self.kind is Kind.PAIR_RUN:
            return {4: "aop", 8: "pae-kare"}.get(self.size, "consecutive pairs")
        return self.kind.name.lower().replace("_", " ")

    @property
    def term(self) -> str:
        """The name as a catalog term key (``term.kaphai.<term>``): ``pae_kare``...

        >>> classify(mask("6S 6C 7D 7H 8C 8H 9S 9C")).term, classify(mask("9S 10S JS QS KS")).term
        ('pae_kare', 'tong_farson')
        """
        return _TERMS[self.name]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Combo) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __reduce__(self) -> tuple[type[Combo], tuple[int, Kind, int, int, bool]]:
        # Pickled as its constructor call (why: folkdeck.engine.build, "Pickling"): bot
        # workers send actions back by pickle.
        return (Combo, (self.mask, self.kind, self.size, self.key, self.flush))

    def __str__(self) -> str:
        # Remembered: a combo is shared per mask (shapes.py), and a search names each
        # action several times per step to find its node.
        text = self._text
        if not text:
            text = self._text = notation(self.mask)
        return text

    def __repr__(self) -> str:
        return f"Combo({self.name} {self})"


_TERMS: Final = {name: name.replace("-", "_").replace(" ", "_") for name in (
    "single", "pair", "triple", "kare", "straight", "police", "tong-farson", "aop", "pae-kare",
    "consecutive pairs", "polu", "double triple")}
COMBO_TERMS: Final[tuple[str, ...]] = tuple(_TERMS.values())
"""Every combination's term key (the catalogs name each one)."""

_COMBOS: Final[dict[int, Combo | None]] = {}


def _rank_counts(m: int) -> list[int]:
    return [(m >> (4 * r) & 0xF).bit_count() for r in range(13)]


def classify(m: int) -> Combo | None:
    """The combination a set of cards forms, or ``None`` if it is no shape.

    Classification ignores the options; :func:`allowed` applies them.

    >>> classify(mask("KS AS 2S")) is None   # 2 never takes part in a straight
    True
    >>> classify(mask("5S 5H 6S 6D 6H")).name, classify(mask("5S 5C 5H 6S 6D")).name
    ('polu', 'polu')
    """
    cached = _COMBOS.get(m, False)
    if cached is not False:
        return cached  # type: ignore[return-value]
    combo = _classify(m)
    if len(_COMBOS) > 1 << 20:  # bound the memo in very long simulations
        _COMBOS.clear()
    _COMBOS[m] = combo
    return combo


def _classify(m: int) -> Combo | None:
    n = m.bit_count()
    if n == 0 or m & ~FULL:
        return None
    counts = _rank_counts(m)
    ranks = [r for r in range(13) if counts[r]]
    top = top_index(m)
    if len(ranks) == 1:
        kind = (KIND_SINGLE, KIND_PAIR, KIND_TRIPLE, KIND_KARE)[n - 1]
        key = -1 if kind is KIND_TRIPLE and ranks[0] == TWO else top
        return Combo(m, kind, n, key, False)
    consecutive = ranks[-1] - ranks[0] == len(ranks) - 1
    if not consecutive:
        return None
    if all(counts[r] == 1 for r in ranks) and n >= 3 and ranks[-1] != TWO:
        flush = any(m & s == m for s in SUIT_MASKS)
        return Combo(m, KIND_STRAIGHT, n, top, flush)
    if all(counts[r] == 2 for r in ranks):
        return Combo(m, KIND_PAIR_RUN, n, top, False)
    if len(ranks) == 2 and sorted((counts[ranks[0]], counts[ranks[1]])) == [2, 3]:
        return Combo(m, KIND_POLU, 5, ranks[1], False)
    if len(ranks) == 2 and counts[ranks[0]] == counts[ranks[1]] == 3:
        return Combo(m, KIND_DOUBLE_TRIPLE, 6, ranks[1], False)
    return None


def allowed(combo: Combo, rules: KapHaiOptions) -> bool:
    """Whether the options allow the shape (double triples; 2s in pair runs).

    >>> allowed(classify(mask("AS AC 2S 2C")), RULES)
    False
    """
    if combo.kind is KIND_DOUBLE_TRIPLE and not rules.allow_double_triple:
        return False
    if combo.kind in (KIND_PAIR_RUN, KIND_POLU, KIND_DOUBLE_TRIPLE):
        return rules.twos_in_pair_runs or not combo.mask & RANK_MASKS[TWO]
    return True


def low_single_relief(top: Combo, rules: KapHaiOptions) -> bool:
    """Whether a local rule lets a low single be answered by a single that is not higher:
    ``top`` is a single of 5 or lower and ``low_single_free`` or ``low_single_same_rank``
    is on (docs/rules/kaphai.md §6; 『カップハイ完全攻略!』 Ⅴ②A).

    >>> from folkdeck.games.kaphai.options import KapHaiOptions
    >>> relief = KapHaiOptions(low_single_same_rank=True)
    >>> low_single_relief(classify(mask("5H")), relief), low_single_relief(classify(mask("6S")), relief)
    (True, False)
    >>> low_single_relief(classify(mask("5H")), RULES)
    False
    """
    return top.kind is KIND_SINGLE and top.key >> 2 <= FIVE and (
        rules.low_single_free or rules.low_single_same_rank)


def _single_beats(new: Combo, top: Combo, rules: KapHaiOptions) -> bool:
    if new.key > top.key:
        return True
    top_rank = top.key >> 2
    if top_rank <= FIVE:
        new_rank = new.key >> 2
        if rules.low_single_free and new_rank <= FIVE:
            return True
        if rules.low_single_same_rank and new_rank == top_rank:
            return True
    return False


def beats(new: Combo, top: Combo, rules: KapHaiOptions) -> bool:
    """Whether ``new`` may be played on ``top``, the play winning the trick (docs/rules/kaphai.md §3.2, §3.3).

    >>> beats(classify(mask("6S 6C 6D 6H")), classify(mask("2S")), RULES)     # figure 5, docs/rules/kaphai.md §3.3
    True
    >>> beats(classify(mask("9S 10S JS QS KS")), classify(mask("8S 8C 8D 8H")), RULES)  # figure 8, docs/rules/kaphai.md §3.3
    True
    >>> beats(classify(mask("2C 2D 2H")), classify(mask("3S 3C 3D")), RULES)  # figure 3, docs/rules/kaphai.md §3.4: thrown, not beating
    False
    """
    tk, nk = top.kind, new.kind
    if tk is KIND_SINGLE:
        if nk is KIND_SINGLE:
            return _single_beats(new, top, rules)
        return cuts(new, tk)
    if tk is KIND_KARE:
        return (nk is KIND_KARE and new.key > top.key) or cuts(new, tk)
    if tk is KIND_PAIR:
        return (nk is KIND_PAIR and new.key > top.key) or cuts(new, tk)
    if tk is KIND_STRAIGHT:
        if nk is not KIND_STRAIGHT or new.size != top.size or new.key <= top.key:
            return False
        return may_answer_straight(new, top, rules)
    # Triples (2-2-2 has key -1), pair runs (pae-kare included), polu, double triples.
    return nk is tk and new.size == top.size and new.key > top.key


def may_answer_straight(new: Combo, top: Combo, rules: KapHaiOptions) -> bool:
    """Whether straight ``new`` may answer straight ``top``, length and top card aside: a
    police only by a police, an ordinary straight by any straight, police included
    (docs/rules/kaphai.md §3.2, §3.3; ``low_police_void``: a 3-4-5 of one suit is no police, §6).

    >>> police, plain = classify(mask("6S 7S 8S")), classify(mask("6S 7D 8H"))
    >>> may_answer_straight(classify(mask("7H 8D 9C")), police, RULES), may_answer_straight(classify(mask("7H 8H 9H")), police, RULES)
    (False, True)
    >>> may_answer_straight(classify(mask("7H 8H 9H")), plain, RULES)
    True
    """
    return new.is_police(rules) or not top.is_police(rules)


def can_throw(new: Combo, top: Combo, rules: KapHaiOptions) -> bool:
    """Whether ``new`` is the triple of 2s thrown on ``top`` (docs/rules/kaphai.md §3.4, §8.3).

    >>> can_throw(classify(mask("2C 2D 2H")), classify(mask("3S 3C 3D")), RULES)
    True
    """
    return new.is_throwable and may_throw_on(top, rules)


def may_throw_on(top: Combo, rules: KapHaiOptions) -> bool:
    """Whether 2-2-2 may be thrown on ``top``: a triple other than 2-2-2 itself, or a
    3-card straight under ``throw_222_on_any_three`` (docs/rules/kaphai.md §3.4, §8.3;
    『カップハイ完全攻略!』 Ⅳ③B).

    >>> from folkdeck.games.kaphai.options import KapHaiOptions
    >>> may_throw_on(classify(mask("9S 9C 9D")), RULES), may_throw_on(classify(mask("6S 7D 8H")), RULES)
    (True, False)
    >>> may_throw_on(classify(mask("6S 7D 8H")), KapHaiOptions(throw_222_on_any_three=True))
    True
    """
    if top.kind is KIND_TRIPLE:
        return not top.is_throwable
    return rules.throw_222_on_any_three and top.kind is KIND_STRAIGHT and top.size == 3


# --- bombs (docs/rules/kaphai.md §3.3) ----------------------------------------------

def is_bomb(combo: Combo) -> bool:
    """Whether ``combo`` is a bomb, a play that cuts another shape: a kare, a tong-farson
    or a pae-kare (docs/rules/kaphai.md §3.3; 『カップハイ完全攻略!』 Ⅳ④A, Ⅳ⑥C, Ⅳ⑥D). Five or more
    consecutive pairs, and a police of 6 or more cards, are not bombs.

    >>> [is_bomb(classify(mask(t))) for t in ("8S 8C 8D 8H", "9S 10S JS QS KS", "6S 6C 7D 7H 8C 8H 9S 9C")]
    [True, True, True]
    >>> [is_bomb(classify(mask(t))) for t in ("9S 10S JS QS KS AS", "5S 5C 6D 6H 7C 7H 8S 8C 9D 9H", "2S 2C 2D")]
    [False, False, False]
    """
    return combo.kind is KIND_KARE or combo.is_tong_farson or combo.is_pae_kare


def cuts(bomb: Combo, kind: Kind) -> bool:
    """Whether ``bomb`` cuts any play of ``kind``, whatever its rank: a kare cuts a
    single; a tong-farson a single or a kare; a pae-kare a pair (docs/rules/kaphai.md §3.3).
    Pae-kare and kare never cut each other (§8.9). Beating a bomb of the same shape is
    :func:`beats`' ordinary rule, not a cut.

    >>> kare, tong = classify(mask("8S 8C 8D 8H")), classify(mask("9S 10S JS QS KS"))
    >>> cuts(kare, Kind.SINGLE), cuts(kare, Kind.PAIR), cuts(tong, Kind.KARE), cuts(kare, Kind.KARE)
    (True, False, True, False)
    """
    if kind is KIND_SINGLE:
        return bomb.kind is KIND_KARE or bomb.is_tong_farson
    if kind is KIND_KARE:
        return bomb.is_tong_farson
    if kind is KIND_PAIR:
        return bomb.is_pae_kare
    return False


_CUTTING_SHAPES: Final[dict[int, tuple[tuple[Kind, int], ...]]] = {
    Kind.SINGLE: ((Kind.KARE, 4), (Kind.STRAIGHT, 5)),
    Kind.KARE: ((Kind.STRAIGHT, 5),),
    Kind.PAIR: ((Kind.PAIR_RUN, 8),),
}


def cutting_shapes(kind: int) -> tuple[tuple[Kind, int], ...]:
    """The shapes ``(kind, size)`` among whose plays the bombs that cut ``kind`` are
    (:func:`cuts` picks them: of the 5-card straights only the tong-farsons), for a move
    generator (docs/rules/kaphai.md §3.3).

    >>> cutting_shapes(Kind.SINGLE), cutting_shapes(Kind.TRIPLE)
    (((<Kind.KARE: 4>, 4), (<Kind.STRAIGHT: 5>, 5)), ())
    """
    return _CUTTING_SHAPES.get(kind, ())


# --- putuh (docs/rules/kaphai.md §4) ------------------------------------------------------

PUTUH_PATTERNS: Final = ("six_pairs", "three_triples", "three_kares", "far", "four_twos", "four_threes")
"""The putuh patterns A … F as term keys (``term.kaphai.putuh.<pattern>``), by level."""


def putuh(hand: int, three_game: bool) -> tuple[int, int] | None:
    """The best putuh pattern of a dealt hand as ``(level, tie-break)``, or ``None``.

    Levels run A=0 … F=5; higher tuples win (the tie-breaks of docs/rules/kaphai.md §8.4).

    >>> putuh(mask("3S 3C 3D 5S 5C 5H 6C 6D 6H 7S 10D QH AS"), False)   # figure 9 (docs/rules/kaphai.md §4.2), A's hand: B
    (1, 3)
    >>> putuh(mask("3H 4H 5D 6S 7C 8S 9D 10S JH QS KD AH 2H"), False)   # figure 9 (docs/rules/kaphai.md §4.2), B's hand: D
    (3, 51)
    """
    counts = _rank_counts(hand)
    if three_game and counts[0] == 4:
        return (5, 0)
    if counts[TWO] == 4:
        return (4, 0)
    if counts.count(1) == 13:
        return (3, top_index(hand & RANK_MASKS[TWO]))
    fours, threes, twos = counts.count(4), counts.count(3), counts.count(2)
    if fours >= 3:
        return (2, max(r for r in range(13) if counts[r] == 4))
    if threes + fours >= 3:
        return (1, max(r for r in range(13) if counts[r] >= 3))
    if twos + threes + 2 * fours >= 6:  # pairs: a triple holds one, a kare two (docs/rules/kaphai.md §4.1)
        high = max(r for r in range(13) if counts[r] >= 2)
        return (0, top_index(hand & RANK_MASKS[high]))
    return None


_WHAT: Final = {Kind.SINGLE: "single", Kind.PAIR: "pair", Kind.TRIPLE: "triple", Kind.KARE: "kare",
         Kind.PAIR_RUN: "pair_run", Kind.POLU: "polu", Kind.DOUBLE_TRIPLE: "double_triple"}


def refusal(new: Combo, top: Combo, rules: KapHaiOptions) -> dict[str, str | int]:
    """Why ``new`` may not be played on ``top``: the parameters of the refusal
    ``kaphai.no_beat`` (``why`` selects the sentence; ``shape``/``size`` name the shape).

    >>> refusal(classify(mask("4C 4D")), classify(mask("5S 5H")), RULES)
    {'action': '4C 4D', 'top': '5S 5H', 'why': 'pair', 'shape': 'pair', 'size': 2}
    >>> from folkdeck.engine.errors import IllegalActionError
    >>> print(IllegalActionError("kaphai.no_beat", **refusal(classify(mask("4C 4D")), classify(mask("5S 5H")), RULES)))
    4C 4D does not beat 5S 5H: a pair must have a higher rank, or the same rank and a higher top suit
    """
    if top.kind is Kind.STRAIGHT and top.is_police(rules):
        why = "police"
    elif top.kind is Kind.STRAIGHT and new.kind is Kind.STRAIGHT and new.size == top.size:
        why = "straight"
    elif new.kind is not top.kind or new.size != top.size:
        why = "shape"
    elif top.kind is Kind.TRIPLE and new.is_throwable:
        why = "weakest_triple"
    elif top.kind is Kind.TRIPLE and top.is_throwable:
        why = "triple_on_twos"
    else:
        why = _WHAT.get(top.kind, "higher")
    return {"action": str(new), "top": str(top), "why": why, "shape": top.term, "size": top.size}
