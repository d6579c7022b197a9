"""The sets a Gou Ji hand can play, listed: every lead, every answer to a set, every burn
(docs/rules/gouji.md §3, §5): the move generator that the legal lists
(:mod:`~folkdeck.games.gouji.legal`) and the modern rules (:mod:`~folkdeck.games.gouji.modern`)
call, as Kap Hai's :mod:`~folkdeck.games.kaphai.moves` is its game's.

What may be played on what is the rules module's (:func:`~folkdeck.games.gouji.rules.beats`,
:func:`~folkdeck.games.gouji.rules.covers_black_jokers`,
:func:`~folkdeck.games.gouji.rules.burn_remainder_ok`); this module lists the sets that pass,
fast: a hand's sets of one rank are made once and kept.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from folkdeck.games.gouji.rules import (
    BJ,
    RJ,
    TWO,
    Play,
    burn_remainder_ok,
    cannot_be_beaten,
    covers_black_jokers,
)

_mk: Final = tuple.__new__
"""Makes a :class:`~folkdeck.games.gouji.rules.Play` from its seven fields without
Python-level code (as the rules module's ``_mk``)."""


# The sets of each (rank, counts) are made once and kept by an int key: every listing
# looks up one entry per rank held, and an int key skips what ``lru_cache`` spends on a
# tuple of arguments (a tenth of a deal's time, measured). Ample widths: 6 bits for at most
# 16 naturals or twos, 4 for at most 4 of each joker, 6 for a size, 4 for a rank.
_RANK_PLAYS: Final[dict[int, tuple[Play, ...]]] = {}
""":func:`rank_plays` by ``_wilds(a, b, c) | k << 4 | rank``."""
_SIZED_PLAYS: Final[dict[int, tuple[Play, ...]]] = {}
""":func:`sized_plays` by ``(_wilds(a, b, c) | k << 4 | rank) << 6 | size``."""


def _wilds(a: int, b: int, c: int) -> int:
    """The wild cards' part of a :data:`_RANK_PLAYS` key."""
    return ((a << 4 | b) << 4 | c) << 10


def rank_plays(rank: int, k: int, a: int, b: int, c: int) -> tuple[Play, ...]:
    """Every set of represented ``rank`` from ``k`` naturals, ``a`` 2s, ``b`` BJs, ``c`` RJs.

    >>> [str(p) for p in rank_plays(TWO, 0, 1, 1, 0)]
    ['2', '2 BJ']
    """
    key = _wilds(a, b, c) | k << 4 | rank
    got = _RANK_PLAYS.get(key)
    if got is None:
        got = _RANK_PLAYS[key] = _rank_plays(rank, k, a, b, c)
    return got


def _rank_plays(rank: int, k: int, a: int, b: int, c: int) -> tuple[Play, ...]:
    play = _play
    if rank == RJ:
        return tuple([play((RJ, n, 0, 0, 0, n, n)) for n in range(1, c + 1)])
    if rank == BJ:
        return tuple([play((BJ, n, 0, 0, z, n + z, n + z)) for n in range(1, b + 1)
                      for z in range(c + 1)])
    if rank == TWO:
        return tuple([play((TWO, n, 0, y, z, n + y + z, y + z)) for n in range(1, a + 1)
                      for y in range(b + 1) for z in range(c + 1)])
    out: list[Play] = []
    for n in range(1, k + 1):
        out += map(play, map((rank, n).__add__, _tails(a, b, c, n)))
    return tuple(out)


_PLAY_OF: Final[dict[tuple[int, ...], Play]] = {}
"""One :class:`Play` per value, for the caches of :func:`rank_plays` and :func:`sized_plays`:
they hold a hundred thousand sets after a few hundred deals, but only some five thousand
values. Each copy was an object for every full garbage collection to visit (tens of
milliseconds, landing in whichever listing made it happen); the values are few (15 ranks,
at most 16 naturals, 16 twos and 4 of each joker), so this table stays small."""


def _play(fields: tuple[int, ...]) -> Play:
    """The shared :class:`Play` of ``(rank, natural, w2, wbj, wrj, size, jokers)``."""
    play = _PLAY_OF.get(fields)
    if play is None:
        play = _PLAY_OF[fields] = _mk(Play, fields)
    return play


@lru_cache(maxsize=2048)
def _tails(a: int, b: int, c: int, n: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """``(w2, wbj, wrj, size, jokers)`` of every wild addition to ``n`` naturals, ascending."""
    return tuple((x, y, z, n + x + y + z, y + z) for x in range(a + 1) for y in range(b + 1)
                 for z in range(c + 1))


def sized_plays(rank: int, k: int, a: int, b: int, c: int, size: int) -> tuple[Play, ...]:
    """The sets of :func:`rank_plays` with exactly ``size`` cards.

    >>> [str(p) for p in sized_plays(6, 2, 1, 0, 0, 2)]
    ['9 2', '9 9']
    """
    key = (_wilds(a, b, c) | k << 4 | rank) << 6 | size
    got = _SIZED_PLAYS.get(key)
    if got is None:
        got = _SIZED_PLAYS[key] = _sized_plays(rank, k, a, b, c, size)
    return got


def _sized_plays(rank: int, k: int, a: int, b: int, c: int, size: int) -> tuple[Play, ...]:
    play = _play
    out: list[Play] = []
    if rank == RJ:
        return (play((RJ, size, 0, 0, 0, size, size)),) if c >= size else ()
    if rank == BJ:
        return tuple([play((BJ, size - z, 0, 0, z, size, size)) for z in range(min(c, size - 1) + 1)
                      if b >= size - z])
    if rank == TWO:
        for n in range(1, min(a, size) + 1):
            rest = size - n
            out += [play((TWO, n, 0, y, rest - y, size, rest)) for y in range(min(b, rest) + 1)
                    if rest - y <= c]
        return tuple(out)
    for n in range(1, min(k, size) + 1):
        for x in range(min(a, size - n) + 1):
            rest = size - n - x
            out += [play((rank, n, x, y, rest - y, size, rest)) for y in range(min(b, rest) + 1)
                    if rest - y <= c]
    return tuple(out)


def lead_plays(hand: list[int]) -> list[Play]:
    """Every set a hand can lead, by represented rank, then naturals and wilds ascending.

    >>> from folkdeck.games.gouji.rules import parse_counts
    >>> len(lead_plays(parse_counts("9 9 2 BJ")))   # 9, 9 9 with 0-1 2s and 0-1 BJs; 2, 2 BJ; BJ
    11
    """
    a, b, c = hand[TWO], hand[BJ], hand[RJ]
    out: list[Play] = []
    cache, wilds = _RANK_PLAYS, _wilds(a, b, c)
    for r in range(TWO):
        k = hand[r]
        if k:  # rank_plays(r, k, a, b, c), its look-up written out
            got = cache.get(wilds | k << 4 | r)
            out += got if got is not None else rank_plays(r, k, a, b, c)
    if a:
        out += rank_plays(TWO, 0, a, b, c)
    if b:
        out += rank_plays(BJ, 0, 0, b, c)
    if c:
        out += rank_plays(RJ, 0, 0, 0, c)
    return out


def follow_plays(hand: list[int], top: Play, bj_rule: str) -> list[Play]:
    """Every set of the hand that beats ``top``, in :func:`lead_plays` order: the sets of
    ``top``'s size and of a higher rank (the cached listings of :func:`sized_plays`), none on
    a set that :func:`~folkdeck.games.gouji.rules.cannot_be_beaten`, those that
    :func:`~folkdeck.games.gouji.rules.covers_black_jokers` on wild BJs (docs/rules/gouji.md
    §3.2; :func:`~folkdeck.games.gouji.rules.beats` states the same rule for one set).

    >>> from folkdeck.games.gouji.rules import parse_counts, parse_play
    >>> [str(p) for p in follow_plays(parse_counts("9 9 Q 2 BJ"), parse_play("8 8"), "count")]
    ['9 BJ', '9 2', '9 9', 'Q BJ', 'Q 2', '2 BJ']
    """
    if cannot_be_beaten(top):
        return []
    rank, _, _, top_wbj, _, size, _ = top  # one unpacking, not three property reads
    a, b, c = hand[TWO], hand[BJ], hand[RJ]
    wild = a + b + c
    out: list[Play] = []
    ma, mb, mc = min(a, size), min(b, size), min(c, size)
    cache, wilds = _SIZED_PLAYS, _wilds(ma, mb, mc)
    for r in range(rank + 1, TWO):
        k = hand[r]
        if k and k + wild >= size:  # sized_plays(r, min(k, size), ...), its look-up written out
            k = min(k, size)
            got = cache.get((wilds | k << 4 | r) << 6 | size)
            out += got if got is not None else sized_plays(r, k, ma, mb, mc, size)
    if a and rank < TWO and wild >= size:
        out += sized_plays(TWO, 0, ma, mb, mc, size)
    if b and rank < BJ and b + c >= size:
        out += sized_plays(BJ, 0, 0, mb, mc, size)
    if c >= size and rank < RJ:
        out += sized_plays(RJ, 0, 0, 0, mc, size)
    if top_wbj:
        out = [p for p in out if covers_black_jokers(p, top_wbj, bj_rule)]
    return out


def burn_plays(hand: list[int], top: Play, bj_rule: str, joker_form: bool = True) -> list[Play]:
    """The sets with which the hand may burn ``top`` (``joker_form``: the rest may be sets
    that each hold a joker; off under ``modern_burning``: the rest must be one set).

    >>> from folkdeck.games.gouji.rules import parse_counts, parse_play
    >>> [str(p) for p in burn_plays(parse_counts("K K 4 4 4"), parse_play("Q Q"), "count")]
    ['K K']
    >>> burn_plays(parse_counts("K K 4 5"), parse_play("Q Q"), "count")
    []
    >>> [len(burn_plays(parse_counts("K K 4 5 BJ RJ"), parse_play("Q Q"), "count", f)) for f in (True, False)]
    [1, 0]
    """
    naturals = sum(1 for r in range(TWO) if hand[r])
    if naturals > 1 + (max(1, hand[BJ] + hand[RJ]) if joker_form else 1):
        return []  # the set takes one natural rank; too many would remain
    out = []
    for p in follow_plays(hand, top, bj_rule):
        rest = list(hand)
        for r, n in p.counts():
            rest[r] -= n
        if burn_remainder_ok(rest, joker_form):
            out.append(p)
    return out


__all__ = ["burn_plays", "follow_plays", "lead_plays", "rank_plays", "sized_plays"]
