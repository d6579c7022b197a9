"""The Gou Ji play policy on rank counts, shared by the heuristic bot and the search rollouts.

A :class:`SeatKnowledge` is what one seat knows when it must play a set or pass: its hand as
rank counts, the table, the hand sizes it may see, the hands shown to it (teammates'
at 10 cards or fewer), and the per-rank counts of the cards played. The heuristic bot
builds it from its observation (:func:`view_of`), the search rollouts from a sampled
world (:func:`view_of_state`, the same facts without building an observation).

The tactics (``docs/rules/gouji.md`` and ``docs/bots.md``; each has a unit test in
``tests/agents/test_gouji_heuristic.py``):

- **team**: never beat a teammate's standing play (nor when a teammate asked 先让让);
- **finish**: lead the whole hand when it is one set; with two sets left, lead the one
  nobody can beat first (counting the cards still out), then go out;
- **help**: a teammate whose shown hand is one set of ``k`` cards gets a lead of ``k``
  low cards it can beat to go out;
- **block**: an opponent about to go out (a known count of ``block`` or fewer) gets
  no lead of its size (a bigger set if there is one);
- **weakness**: lead the lowest rank whole (shed low sets early), without wilds;
- **economy**: follow with whole ranks rather than split a set (a gouji-sized set
  least of all), with the fewest wild cards; with a long hand (over 16 cards), on a
  table below 10s, pass rather than spend a 2, a joker or an ace, or split a set;
  a gouji duel, or an opponent's play from 10 cards or fewer, is always answered.

A/B runs against ``greedy`` (300 duplicate deals, both team sides, points a deal;
``Tactics`` switches): all off +0.05, economy without keeping +1.68, keeping wilds
+0.5 more, also aces +0.2 (kings too: the same), passing rather than split on low tables +0.3
(all: +2.17 ± 0.24). finish, help and block measured level against greedy (±0.1)
and stay on as the rules page's advice; leading the biggest of the two lowest ranks cost
-0.5, and keeping wilds in duels, or only with hands over 20 cards, gained nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from folkdeck.cards import Card
from folkdeck.games.gouji.rules import (
    BJ,
    NRANKS,
    RANK_OF,
    RJ,
    THRESHOLDS,
    TWO,
    Play,
    cannot_be_beaten,
    covers_black_jokers,
    play_from_counts,
    wild_ranks,
)

if TYPE_CHECKING:
    from folkdeck.games.gouji.observation import GouJiView
    from folkdeck.games.gouji.state import GouJiState

TOTAL: Final = (16,) * 13 + (4, 4)
"""Copies of each rank in the 216-card pack (3 … 2: 16; BJ, RJ: 4)."""


@dataclass(slots=True)
class SeatKnowledge:
    """What a seat knows when it plays (see the module docstring)."""

    seat: int
    hand: list[int]
    top: Play | None = None
    top_seat: int = -1
    mode: str = "normal"
    left: list[int | None] = field(default_factory=lambda: [None] * 6)
    shown: dict[int, list[int]] = field(default_factory=dict)
    played: Sequence[int] = (0,) * NRANKS
    xian: bool = False
    thresholds: dict[int, int] = field(default_factory=lambda: dict(THRESHOLDS))
    bj_rule: str = "count"
    """The deal's ``bj_wild_rule`` (docs/rules/gouji.md §3.2, §11.1)."""


@dataclass(frozen=True, slots=True)
class Tactics:
    """Switches for A/B runs; the defaults are the measured best (module docstring)."""

    finish: bool = True
    help: bool = True
    block: int = 2
    """Opponents with this many cards or fewer are blocked (0: off)."""
    economy: bool = True
    keep_wilds: int = 16
    """Hands longer than this keep 2s/jokers off low tables (0: never)."""
    keep_below: int = 7
    """A low table: a set below this rank (7: below 10s)."""
    keep_high: int = 11
    """On a low table, naturals of this rank or higher count as wild too."""
    duel_keep: bool = False
    """Keep wilds also when answering a gouji duel."""
    split_pass: bool = True
    """Pass on a low table rather than split a set."""
    help_at: int = 0
    """``help`` also for a teammate showing this many cards or fewer: lead a set it can
    beat with a whole rank of its own (0: only a teammate down to one set)."""
    split_below: int = 7
    """With ``split_pass``: the table rank below which a split is refused."""
    lead_window: int = 1
    """Lead the biggest of the lowest this many ranks (1: the lowest)."""


DEFAULT: Final = Tactics()


def counts_of(cards: Sequence[Card]) -> list[int]:
    c = [0] * NRANKS
    for card in cards:
        c[RANK_OF[card]] += 1
    return c


def units(hand: Sequence[int]) -> int:
    """Plays needed to shed the hand: its natural ranks (wilds ride along), at least 1."""
    n = sum(1 for r in range(TWO) if hand[r])
    return n if n else int(any(hand[TWO:]))


def _wilds(p: Play) -> int:
    return p.w2 + p.wbj + p.wrj


def unbeatable(view: SeatKnowledge, p: Play) -> bool:
    """Whether no other hand can beat ``p``, counting every card not seen yet: ``p`` cannot
    be beaten, or its wild black jokers ask for more jokers than are out (under the deal's
    ``bj_wild_rule``), or no higher rank out fills its size."""
    if cannot_be_beaten(p):
        return True
    hand, played = view.hand, view.played
    out = [TOTAL[r] - played[r] - hand[r] - sum(s[r] for s in view.shown.values())
           for r in range(NRANKS)]
    # Every joker out, wild in one set: the most that any set of theirs can bring.
    if p.wbj and not covers_black_jokers(Play(0, 1, 0, out[BJ], out[RJ]), p.wbj, view.bj_rule):
        return True
    for r in range(p.rank + 1, NRANKS):
        wild = sum([out[w] for w in wild_ranks(r)])
        if out[r] and out[r] + wild >= p.size:
            return False
    return True


def choose(view: SeatKnowledge, plays: Sequence[Play], may_pass: bool,
           tactics: Tactics = DEFAULT) -> Play | None:
    """The set to play (``None``: pass)."""
    if not plays:
        return None
    if not may_pass or view.top is None:
        return _lead(view, plays, tactics)
    return _follow(view, plays, tactics)


def _mate(view: SeatKnowledge, s: int) -> bool:
    return s != view.seat and (s - view.seat) % 2 == 0


def _short_opponents(view: SeatKnowledge, limit: int) -> list[int]:
    return [s for s in range(6) if (s - view.seat) % 2 == 1 and (n := view.left[s]) is not None
            and 0 < n <= limit]


def _lead(view: SeatKnowledge, plays: Sequence[Play], t: Tactics) -> Play:
    hand = view.hand
    total = sum(hand)
    whole = [p for p in plays if p.size == total]
    if whole:
        return whole[0]
    full = _whole_rank_sets(hand, plays)
    tactical = _tactical_lead(view, plays, full, t)
    if tactical is not None:
        return tactical
    low = sorted({p.rank for p in full})[:t.lead_window]
    return max((p for p in full if p.rank in low), key=lambda p: (p.size, -p.rank))


def _whole_rank_sets(hand: Sequence[int], plays: Sequence[Play]) -> list[Play]:
    """The wild-free sets that play all of a rank (else any wild-free set, else any set)."""
    naturals = [p for p in plays if not (p[2] or p[3] or p[4])]
    return [p for p in naturals if p.natural == hand[p.rank]] or naturals or list(plays)


def _tactical_lead(view: SeatKnowledge, plays: Sequence[Play], full: Sequence[Play], t: Tactics) -> Play | None:
    """The tactics' leads, in order: going out in two, helping a teammate, blocking."""
    if t.finish and units(view.hand) == 2:
        boss = _boss_lead(view, plays)
        if boss is not None:
            return boss
    if t.help:
        helping = _helping_lead(view, full, t.help_at)
        if helping is not None:
            return helping
    if t.block:
        short = _short_opponents(view, t.block)
        if short:
            return _blocking_lead(view, full, short)
    return None


def _boss_lead(view: SeatKnowledge, plays: Sequence[Play]) -> Play | None:
    """Two sets left: the one nobody can beat, led first, so that the other goes out."""
    hand = view.hand
    boss = [p for p in plays if p.natural == hand[p.rank] and unbeatable(view, p)
            and units([hand[r] - (r == p.rank) * p.natural - (r == TWO) * p.w2
                       - (r == BJ) * p.wbj - (r == RJ) * p.wrj for r in range(NRANKS)]) <= 1]
    return min(boss, key=lambda p: (_wilds(p), p.rank)) if boss else None


def _helping_lead(view: SeatKnowledge, full: Sequence[Play], help_at: int) -> Play | None:
    """A lead a shown teammate's hand can beat: its last set first, else a short hand's."""
    for s, mate in sorted(view.shown.items()):
        if not _mate(view, s) or not sum(mate) or units(mate) > 1:
            continue  # (a teammate down to one set)
        target = parse_mate(mate)
        fit = [p for p in full if p.size == target.size and p.rank < target.rank]
        if fit:
            return min(fit, key=lambda p: p.rank)
    for s, mate in sorted(view.shown.items()):
        if not _mate(view, s) or not 0 < sum(mate) <= help_at:
            continue
        fit = [p for p in full if any(mate[r] == p.size for r in range(p.rank + 1, TWO))]
        if fit:
            return min(fit, key=lambda p: p.rank)
    return None


def _blocking_lead(view: SeatKnowledge, full: Sequence[Play], short: list[int]) -> Play:
    """Opponents down to a few cards: a set bigger than their hands, or of another size."""
    sizes = {view.left[s] for s in short}
    most = max(n for n in sizes if n is not None)
    safe = [p for p in full if p.size > most] or [p for p in full if p.size not in sizes]
    if safe:
        return min(safe, key=lambda p: (p.rank, -p.natural))
    return max(full, key=lambda p: (p.size, p.rank))


def parse_mate(mate: Sequence[int]) -> Play:
    """A one-set hand as the set it plays."""
    return play_from_counts(list(mate))


def _follow(view: SeatKnowledge, plays: Sequence[Play], t: Tactics) -> Play | None:
    if view.xian or (view.top_seat >= 0 and _mate(view, view.top_seat)):
        return None
    total = sum(view.hand)
    for p in plays:
        if p.size == total:
            return p
    if not t.economy:
        return min(plays, key=lambda p: (p.w2 + 3 * (p.wbj + p.wrj), p.rank, -p.natural))
    return _economical_follow(view, plays, t, total)


def _threatened(view: SeatKnowledge, t: Tactics) -> bool:
    """Whether to beat at any cost: the top's player is close to going out, or a duel or
    other special mode."""
    return bool(t.block and view.top_seat >= 0 and view.left[view.top_seat] is not None
                and (view.left[view.top_seat] or 0) <= 10) or view.mode != "normal"


def _economical_follow(view: SeatKnowledge, plays: Sequence[Play], t: Tactics, total: int) -> Play | None:
    """The cheapest beating set (wilds and broken gouji-sized sets cost), or a pass that
    keeps wilds and whole ranks back from a low top."""
    hand = view.hand
    threat = _threatened(view, t)

    th = view.thresholds
    big = [r < TWO and hand[r] >= th.get(r, 99) for r in range(NRANKS)]  # a gouji-sized set

    def cost(p: Play) -> tuple[int, int, int, int]:
        r = p[0]
        split = r < TWO and hand[r] > p[1]
        return (p[2] + 3 * (p[3] + p[4]) + (4 if split and big[r] else 0), int(split), r, -p[1])

    best = min(plays, key=cost)
    if (threat and not (t.duel_keep and view.mode == "duel")) or total <= t.keep_wilds \
            or not t.keep_wilds:
        return best
    top = view.top
    assert top is not None
    if top.rank < t.keep_below and (_wilds(best) or best.rank >= t.keep_high):
        return None
    if t.split_pass and top.rank < t.split_below and cost(best)[1]:
        return None
    return best


def view_of(observation: GouJiView, thresholds: dict[int, int] | None = None,
            bj_rule: str = "count") -> SeatKnowledge:
    """A seat's :class:`SeatKnowledge` from its :class:`~folkdeck.games.gouji.observation.GouJiView`
    at a table of these ``thresholds`` and ``bj_rule`` (a view shows no option)."""
    seat = observation.seat
    assert seat is not None, "a spectator's view plays no hand"
    shown = {s: counts_of(c) for s, c in enumerate(observation.shown) if c is not None}
    top = observation.top
    return SeatKnowledge(seat=seat, hand=counts_of(observation.hand or ()),
                top=play_from_counts(counts_of(top.cards)) if top is not None else None,
                top_seat=top.seat if top is not None else -1,
                mode=observation.mode, left=list(observation.counts), shown=shown,
                played=observation.played, xian=observation.xian_request is not None,
                thresholds=dict(THRESHOLDS if thresholds is None else thresholds), bj_rule=bj_rule)


def view_of_state(state: GouJiState, seat: int) -> SeatKnowledge:
    """A seat's :class:`SeatKnowledge` read straight from a (sampled) state, for fast rollouts:
    the same facts as :func:`view_of` (counts at 10 or fewer, teammates' short hands)."""
    d = state.deal
    left = d.left
    hands = d.counts
    shown = {s: hands[s] for s in range(6) if s != seat and (s - seat) % 2 == 0
             and 0 < left[s] <= 10}
    return SeatKnowledge(seat=seat, hand=hands[seat], top=d.top, top_seat=d.top_seat,
                mode=d.mode, left=[n if n <= 10 else None for n in left], shown=shown,
                played=d.played_counts, xian=d.xian_req >= 0,
                thresholds=state.thresholds, bj_rule=state.game.options.bj_wild_rule)
