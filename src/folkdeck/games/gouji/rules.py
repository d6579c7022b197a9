"""Gou Ji rules as pure functions over rank counts (docs/rules/gouji.md §3-§5).

Ranks are indices 0 … 14 for ``3 4 5 6 7 8 9 10 J Q K A 2 BJ RJ``; a hand is a
list of 15 counts (four packs: up to 16 of a rank, 4 of each joker). A play is a
:class:`Play`: its represented rank, how many natural cards of it, and how many
wild 2s, black jokers and red jokers it adds (docs/rules/gouji.md §3.1, §11.8).

>>> p = parse_play("9 9 2")
>>> p, p.size, p.rank_word
(Play.parse('9 9 2'), 3, '9')
>>> beats(parse_play("10 10 10"), p, "count"), beats(parse_play("9 9 9"), p, "count")
(True, False)
>>> is_gouji(parse_play("10 10 10 10 2"), THRESHOLDS), is_gouji(parse_play("9 9 9 9 9 9"), THRESHOLDS)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any, Final

from folkdeck.cards import FRENCH_54, Card
from folkdeck.engine.build import python_class
from folkdeck.engine.errors import InvalidNotationError

RANK_WORDS: Final = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ")
THREE: Final = 0
FOUR: Final = 1
TWO: Final = 12
BJ: Final = 13
RJ: Final = 14
NRANKS: Final = 15
THRESHOLDS: Final[dict[int, int]] = {7: 5, 8: 4, 9: 3, 10: 2, 11: 2, 12: 1}
"""The default gouji thresholds (docs/rules/gouji.md §4.1, §11.2): 10×5, J×4, Q×3, K×2, A×2, 2×1."""
RANK_OF: Final[dict[Card, int]] = {c: RANK_WORDS.index(c.rank.value) for c in FRENCH_54.cards}
"""The rank index of every card of the pack."""
_WORD_INDEX: Final = {w: i for i, w in enumerate(RANK_WORDS)} | {"T": 7}
SUIT_ORDER: Final = "SCDH"
"""The suits in the order a hand shows them: ♠ ♣ ♦ ♥, black before red (the pack's and
:class:`~folkdeck.cards.Suit`'s order; docs/rules/gouji.md §1.3)."""
HAND_ORDER: Final[dict[Card, int]] = {c: i for i, c in enumerate(sorted(
    FRENCH_54.cards, key=lambda c: (RANK_OF[c], SUIT_ORDER.index(c.suit.value) if c.suit is not None else 0)))}
"""The place of every card in a hand as people read it (docs/rules/gouji.md §1.3): by rank
(3 low … 2, then the black and the red joker), then by suit in :data:`SUIT_ORDER`.

>>> from folkdeck.cards import parse_cards
>>> " ".join(map(str, sorted(parse_cards("9D 9S RJ 9D 3H BJ 9S"), key=HAND_ORDER.__getitem__)))
'3H 9S 9S 9D 9D BJ RJ'
"""
KAI_PAI_VALUE: Final = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2)
"""The kai pai count of ranks 3 … A, 2 (A=1, J=11, Q=12, K=13; docs/rules/gouji.md §2.2)."""


def _field(index: int) -> Any:
    """Item ``index`` of a :class:`Play` as a read-only attribute, read in C."""
    return property(itemgetter(index))


@python_class  # a tuple subclass
class Play(tuple[int, int, int, int, int, int, int]):
    """One set: ``natural`` cards of ``rank`` plus wild 2s, BJs and RJs (docs/rules/gouji.md §3.1).

    For ``rank`` 2 the field ``w2`` is 0; for BJ also ``wbj``; a RJ set has no wilds.
    An immutable value made cheaply (a tuple underneath, issue 3's listing speed):
    ``(rank, natural, w2, wbj, wrj, size, jokers)``; plays do not order (``<`` is refused).

    ``cards`` names particular cards of the set when they are known, and is no part of its
    value (not of its equality, hash or record text: a set is written by ranks): a set typed
    with suits carries the suited cards the player named (:func:`with_cards`; the engine
    takes exactly those copies), and the set of an event carries every card it took.

    >>> Play(6, 2, 1) == parse_play("9 9 2"), Play(6, 2, 1).size, Play(BJ, 1, 0, 0, 1).jokers
    (True, 3, 2)
    """

    # No ``__slots__``: an instance dictionary holds ``cards`` when a set has them.
    cards: tuple[Card, ...] | None = None

    rank: int = _field(0)
    natural: int = _field(1)
    w2: int = _field(2)
    wbj: int = _field(3)
    wrj: int = _field(4)
    size: int = _field(5)
    """The number of cards, wild cards included."""
    jokers: int = _field(6)
    """Jokers in the set, wild or natural."""

    def __new__(cls, rank: int, natural: int, w2: int = 0, wbj: int = 0, wrj: int = 0) -> Play:
        return _mk(cls, (rank, natural, w2, wbj, wrj, natural + w2 + wbj + wrj,
                         wbj + wrj + (natural if rank >= BJ else 0)))

    def __getnewargs__(self) -> tuple[int, int, int, int, int]:
        return self[0], self[1], self[2], self[3], self[4]

    # A "beats" relation, not an order (§8.3): no comparison is defined (a method each:
    # why in folkdeck.engine.build, "Classes").
    def __lt__(self, other: object) -> bool:
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        return NotImplemented

    def __le__(self, other: object) -> bool:
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        return NotImplemented

    @property
    def rank_word(self) -> str:
        return RANK_WORDS[self[0]]

    def counts(self) -> tuple[tuple[int, int], ...]:
        """``(rank, count)`` of the cards the set uses."""
        out = [(self.rank, self.natural)]
        out += [(r, n) for r, n in ((TWO, self.w2), (BJ, self.wbj), (RJ, self.wrj)) if n]
        return tuple(out)

    def __str__(self) -> str:
        text = _TEXT.get(self)
        if text is None:
            words = [RANK_WORDS[self.rank]] * self.natural + ["2"] * self.w2 + ["BJ"] * self.wbj \
                + ["RJ"] * self.wrj
            text = _TEXT[self] = " ".join(words)
        return text

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"


_TEXT: Final[dict[Play, str]] = {}
"""Every set's notation once written: a lead may list thousands of sets, which the view, the
learned bot and the search each spell (bounded by the sets a pack allows)."""

_mk: Final = tuple.__new__
"""Makes a :class:`Play` from its seven fields without Python-level code (the fast path)."""


def with_cards(play: Play, cards: tuple[Card, ...]) -> Play:
    """A copy of ``play`` that names ``cards`` (a shared set, say a cached legal one, is
    never changed).

    >>> from folkdeck.cards import parse_cards
    >>> p = with_cards(parse_play("Q Q"), parse_cards("QC QH"))
    >>> p == parse_play("Q Q"), str(p), " ".join(map(str, p.cards or ())), parse_play("Q Q").cards
    (True, 'Q Q', 'QC QH', None)
    """
    new = _mk(Play, play)
    new.cards = cards
    return new


def play_from_counts(c: list[int] | tuple[int, ...]) -> Play:
    """The set of a rank multiset (docs/rules/gouji.md §11.8).

    >>> str(play_from_counts([0] * 13 + [1, 1]))   # BJ + RJ: a BJ with a wild RJ (docs/rules/gouji.md §11.8)
    'BJ RJ'

    :raises InvalidNotationError: for no cards, or natural cards of two ranks.
    """
    naturals = [r for r in range(TWO) if c[r]]
    if len(naturals) > 1:
        raise InvalidNotationError("gouji.two_ranks", ranks=[RANK_WORDS[r] for r in naturals],
                                   token=" ".join(RANK_WORDS[r] for r in naturals))
    if naturals:
        r = naturals[0]
        return Play(r, c[r], c[TWO], c[BJ], c[RJ])
    if c[TWO]:
        return Play(TWO, c[TWO], 0, c[BJ], c[RJ])
    if c[BJ]:
        return Play(BJ, c[BJ], 0, 0, c[RJ])
    if c[RJ]:
        return Play(RJ, c[RJ])
    raise InvalidNotationError("gouji.empty_set", token="")


def rank_of_word(word: str) -> int:
    """Rank index of a rank word or a card token (the suit names a card: :func:`named_cards`).

    >>> rank_of_word("q"), rank_of_word("10H"), rank_of_word("RJ")
    (9, 7, 14)

    :raises InvalidNotationError: naming the token.
    """
    key = word.strip().upper()
    if key in _WORD_INDEX:
        return _WORD_INDEX[key]
    if len(key) >= 2 and key[-1] in "SCDH" and key[:-1] in _WORD_INDEX and key[:-1] not in ("BJ", "RJ"):
        return _WORD_INDEX[key[:-1]]
    raise InvalidNotationError("gouji.unknown_rank", token=word[:40])


def named_cards(text: str) -> tuple[Card, ...]:
    """The cards that ``text`` names with a suit (``QC``, ``10H``, ``TH``), in order; rank
    words (``Q``, ``BJ``) and other words name none.

    >>> [str(c) for c in named_cards("burn QC Q th 2S BJ")]
    ['QC', '10H', '2S']
    """
    out = []
    for token in text.replace(",", " ").split():
        key = token.upper()
        if len(key) >= 2 and key[-1] in "SCDH" and key[:-1] in _WORD_INDEX \
                and key[:-1] not in ("BJ", "RJ"):
            out.append(_SUITED[RANK_WORDS[_WORD_INDEX[key[:-1]]] + key[-1]])
    return tuple(out)


_SUITED: Final = {str(c): c for c in FRENCH_54.cards}


def parse_counts(text: str) -> list[int]:
    """Rank counts of text such as ``"9 9 2"`` or ``"9S,9H,2C"``."""
    c = [0] * NRANKS
    for token in text.replace(",", " ").split():
        c[rank_of_word(token)] += 1
    return c


def parse_play(text: str) -> Play:
    """A set from rank words, e.g. ``"9 9 2"`` or ``"BJ RJ"``.

    >>> parse_play("2 9 9"), parse_play("BJ BJ 2")
    (Play.parse('9 9 2'), Play.parse('2 BJ BJ'))
    """
    return play_from_counts(parse_counts(text))


def beats(new: Play, top: Play, bj_rule: str) -> bool:
    """Whether ``new`` may be played on ``top`` (docs/rules/gouji.md §3.2).

    Same size, strictly higher represented rank; nothing beats a wild RJ; a wild BJ
    needs jokers per ``bj_rule`` (``count``: as many jokers, ``any_joker``: one,
    ``coverage``: as many *wild* jokers, each BJ or RJ covering a BJ).

    >>> beats(parse_play("6 6"), parse_play("5 BJ"), "count")      # docs/rules/gouji.md §3.2: 6-6 may not follow 5+BJ
    False
    >>> beats(parse_play("5 BJ"), parse_play("6 6"), "count")      # nor 5+BJ follow 6-6
    False
    >>> beats(parse_play("7 BJ"), parse_play("5 BJ"), "count"), beats(parse_play("A RJ"), parse_play("5 RJ"), "count")
    (True, False)
    >>> beats(parse_play("BJ BJ"), parse_play("A BJ"), "count"), beats(parse_play("BJ BJ"), parse_play("A BJ"), "coverage")
    (True, False)
    """
    if new.size != top.size or new.rank <= top.rank or cannot_be_beaten(top):
        return False
    return not top.wbj or covers_black_jokers(new, top.wbj, bj_rule)


def cannot_be_beaten(top: Play) -> bool:
    """Whether ``top`` uses a wild red joker: such a set cannot be beaten
    (docs/rules/gouji.md §3.2; the Japanese Gou Ji page, the wild cards).

    >>> cannot_be_beaten(parse_play("5 RJ")), cannot_be_beaten(parse_play("RJ RJ")), cannot_be_beaten(parse_play("5 BJ"))
    (True, False, False)
    """
    return top.wrj > 0


def covers_black_jokers(new: Play, wild_bjs: int, bj_rule: str) -> bool:
    """Whether ``new`` holds the jokers needed to beat a set with ``wild_bjs`` wild black
    jokers, rank and size aside (docs/rules/gouji.md §3.2, §11.1): ``count`` as many
    jokers, wild or natural; ``any_joker`` one; ``coverage`` as many *wild* jokers.

    >>> covers_black_jokers(parse_play("BJ BJ"), 1, "count"), covers_black_jokers(parse_play("BJ BJ"), 1, "coverage")
    (True, False)
    >>> covers_black_jokers(parse_play("7 7"), 1, "any_joker"), covers_black_jokers(parse_play("7 RJ"), 1, "any_joker")
    (False, True)
    """
    if bj_rule == "count":
        return new.jokers >= wild_bjs
    if bj_rule == "any_joker":
        return new.jokers >= 1
    return new.wbj + new.wrj >= wild_bjs


_WILD_RANKS: Final = tuple(tuple(w for w in (TWO, BJ, RJ) if w > r) for r in range(NRANKS))


def wild_ranks(rank: int) -> tuple[int, ...]:
    """The ranks whose cards may stand wild in a set of ``rank``: wild cards join only a set
    of a lower rank (docs/rules/gouji.md §3.1): 2s, BJs and RJs in 3 … A, BJs and RJs in 2s,
    RJs in BJs, none in RJs.

    >>> [[RANK_WORDS[w] for w in wild_ranks(r)] for r in (0, TWO, BJ, RJ)]
    [['2', 'BJ', 'RJ'], ['BJ', 'RJ'], ['RJ'], []]
    """
    return _WILD_RANKS[rank]


def refusal(new: Play, top: Play, bj_rule: str) -> tuple[str, dict[str, object]]:
    """Why ``new`` does not beat ``top``: a reason key and its parameters (refusals)."""
    if new.size != top.size:
        return "gouji.size_differs", {"set": str(new), "top": str(top), "size": new.size,
                                      "top_size": top.size}
    if new.rank <= top.rank:
        return "gouji.rank_not_higher", {"set": str(new), "top": str(top), "rank": new.rank_word,
                                         "top_rank": top.rank_word}
    if cannot_be_beaten(top):
        return "gouji.red_joker_wild", {"set": str(new), "top": str(top)}
    return "gouji.black_joker_wild", {"set": str(new), "top": str(top), "count": top.wbj,
                                      "rule": bj_rule}


def is_gouji(play: Play, thresholds: dict[int, int]) -> bool:
    """Whether a set is gouji (docs/rules/gouji.md §4.1): any joker, or the size reaches the threshold.

    >>> [is_gouji(parse_play(t), THRESHOLDS) for t in ("J J J J", "J J J", "2", "3 BJ", "Q Q 2")]
    [True, False, True, True, True]
    """
    if play.jokers:
        return True
    need = thresholds.get(play.rank)
    return need is not None and play.size >= need


def holds(hand: list[int], play: Play) -> bool:
    """Whether the hand holds the cards of ``play``."""
    return (hand[play.rank] >= play.natural and hand[TWO] >= play.w2 and hand[BJ] >= play.wbj
            and hand[RJ] >= play.wrj)


def burn_remainder_ok(rest: list[int], joker_form: bool = True) -> bool:
    """Whether a burner's remaining cards qualify (docs/rules/gouji.md §5).

    Either one set (natural cards of at most one rank, with any wilds), or the
    joker form: sets that each hold a joker, so at least one joker per natural rank.

    >>> burn_remainder_ok(parse_counts("5 5 2")), burn_remainder_ok(parse_counts("5 7"))
    (True, False)
    >>> burn_remainder_ok(parse_counts("5 7 BJ RJ")), burn_remainder_ok(parse_counts(""))
    (True, True)
    """
    ranks = sum(1 for r in range(TWO) if rest[r])
    return ranks <= 1 or (joker_form and rest[BJ] + rest[RJ] >= ranks)


def bie_san_allows(play: Play, left: int) -> bool:
    """Whether 憋三 (``modern_bie_san``) lets a seat holding ``left`` cards play ``play``: 3s
    only as the whole last play, without jokers (docs/rules/gouji.md §9.1).

    >>> bie_san_allows(parse_play("3 3"), 2), bie_san_allows(parse_play("3 3"), 5), bie_san_allows(parse_play("3 BJ"), 2)
    (True, False, False)
    >>> bie_san_allows(parse_play("4 4"), 5)
    True
    """
    return play.rank != THREE or (play.size == left and not play.jokers)


def kai_dian_allows(play: Play, hand: Sequence[int], opened: bool) -> bool:
    """Whether 开点 (``modern_kai_dian``) lets a seat with rank counts ``hand`` play ``play``:
    no 4s before the seat has opened, unless the hand holds only 4s (docs/rules/gouji.md §9.1).

    >>> kai_dian_allows(parse_play("4 4"), parse_counts("4 4 9"), False), kai_dian_allows(parse_play("4 4"), parse_counts("4 4 9"), True)
    (False, True)
    >>> kai_dian_allows(parse_play("4 4"), parse_counts("4 4 4"), False), kai_dian_allows(parse_play("9"), parse_counts("4 9"), False)
    (True, True)
    """
    return play.rank != FOUR or opened or hand[FOUR] == sum(hand)


def revolution_hand(hand: Sequence[int]) -> bool:
    """Whether a hand may call a revolution: it holds no 2 and no joker (docs/rules/gouji.md §2.5).

    >>> revolution_hand(parse_counts("3 9 A A")), revolution_hand(parse_counts("3 9 BJ"))
    (True, False)
    """
    return not (hand[TWO] or hand[BJ] or hand[RJ])


def highest(hand: list[int], n: int) -> list[int]:
    """The ranks of the hand's ``n`` highest cards, highest first (tribute).

    >>> [RANK_WORDS[r] for r in highest(parse_counts("3 A A RJ"), 2)]
    ['RJ', 'A']
    """
    out: list[int] = []
    for r in range(NRANKS - 1, -1, -1):
        take = min(hand[r], n - len(out))
        out += [r] * take
        if len(out) == n:
            break
    return out


def counts_text(c: list[int] | tuple[int, ...]) -> str:
    """Rank counts as words, ascending: ``[2 nines, 1 two]`` → ``'9 9 2'``."""
    return " ".join(w for r, w in enumerate(RANK_WORDS) for _ in range(c[r]))
