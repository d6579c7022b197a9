"""Gou Ji determinization: a full deal consistent with what one seat has seen.

Built from the observation and the game's rules only (never the real state), like
Kap Hai's (``docs/bots.md``). Gou Ji is played on ranks: a hand is a multiset of ranks
(4 packs, 216 cards), and the sampler deals ranks. Placed for sure:

- the seat's own hand, and every hand shown to it (open hands; teammates' at 10 cards
  or fewer under ``share_hand_le10``);
- the cards played this deal, per rank (``played``), the current trick's as the table
  shows them;
- the tribute: the cards the seat gave (or returned) to another seat (``gave``) are in
  that hand, less the ranks that seat has played since (the history's typed facts);
  received cards are in the seat's own hand already.

The other cards are dealt at random to the other hands. Hand sizes are public where
the rules say so (``public_counts``: always, at 10 cards or fewer, an open hand, a
seat out); a hidden size is unknown to the seat: the sampler shares the unknown cards
evenly among those seats (each above 10 cards under ``le10``), since the observation
does not give per-seat played counts.

The world is built by :meth:`GouJiState.from_view
<folkdeck.games.gouji.state.GouJiState.from_view>` from the view's typed fields and
the hands dealt here; the history is rebuilt from the view's typed facts
(:func:`folkdeck.engine.determinize.events_of` with the game's ``action_of``), once per
view: :func:`worlds` reads the view once and returns the sampler of its worlds.

Only the play phase is searched, on the seat's own turn with no window open (burning,
re-ordering): :func:`is_searchable`. Elsewhere (declarations, revolution, tribute
returns, the ``drawer`` naming, burn windows, 先让让) the search bot plays its
fallback, the heuristic bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from folkdeck.cards import Card
from folkdeck.engine.determinize import Determinization, Pool, deal, events_of
from folkdeck.engine.errors import WrongPhaseError
from folkdeck.engine.facts import Played
from folkdeck.engine.view import View
from folkdeck.games.gouji.events import Burned, action_of
from folkdeck.games.gouji.game import GouJiGame
from folkdeck.games.gouji.observation import GouJiView
from folkdeck.games.gouji.options import GouJiOptions
from folkdeck.games.gouji.rules import RANK_OF
from folkdeck.games.gouji.state import GouJiState

SEATS: Final = 6
_PACKS: Final[dict[GouJiOptions, tuple[Card, ...]]] = {}


def _pack(game: GouJiGame) -> tuple[Card, ...]:
    """The deal's 216 cards, in a fixed order (by the options: a value, not an object)."""
    key = game.options
    found = _PACKS.get(key)
    if found is None:
        found = _PACKS[key] = tuple(c for place in game.new_state(seed=0).all_cards().values()
                                    for c in place)
    return found


def _rank(card: Card) -> int:
    return RANK_OF[card]


def _exact_hands(view: GouJiView, seat: int, hand: Sequence[Card]) -> dict[int, list[Card]]:
    """The hands the seat sees card by card: its own, and every hand shown to it."""
    return {seat: list(hand), **{s: list(c) for s, c in enumerate(view.shown) if c is not None}}


def _played(view: GouJiView, pool: Pool[Card]) -> list[Card]:
    """Every card played this deal, out of ``pool``: the current trick's as the table
    shows them, the earlier ones by their public rank counts."""
    played: list[Card] = []
    on_table: dict[int, int] = {}
    for p in view.table:
        pool.remove(p.cards)
        played.extend(p.cards)
        for card in p.cards:
            on_table[RANK_OF[card]] = on_table.get(RANK_OF[card], 0) + 1
    for r, k in enumerate(view.played):
        for _ in range(k - on_table.get(r, 0)):
            drawn = pool.take(r)
            if drawn is None:
                raise AssertionError("Gou Ji determinization: card count")  # pragma: no cover
            played.append(drawn)
    return played


def _least(options: GouJiOptions, seat: int, s: int) -> int:
    """The fewest cards hidden seat ``s`` may hold: above 10 where a smaller hand would show."""
    shows = options.public_counts == "le10" or (options.share_hand_le10 and (s - seat) % 2 == 0)
    return 11 if shows else 1


def _share_hidden(sizes: Sequence[int], hidden: Sequence[int], spare: int,
                  least: Sequence[int], rng: random.Random) -> list[int]:
    """``sizes`` with the ``spare`` cards shared evenly among the ``hidden`` seats (the
    odd ones to seats drawn at random), each brought up to its ``least`` if others can
    give."""
    out = list(sizes)
    if not hidden:
        return out
    share, extra = divmod(spare, len(hidden))
    lucky = set(rng.sample(hidden, extra))
    for s in hidden:
        out[s] = share + (s in lucky)
    for s in hidden:  # a hidden size above 10 where a smaller one would show
        while out[s] < least[s]:
            donor = max(hidden, key=lambda t: (out[t] - least[t], -t))
            if out[donor] <= least[donor]:
                break
            out[donor] -= 1
            out[s] += 1
    return out


def _tribute(view: GouJiView, exact: dict[int, list[Card]]) -> list[tuple[int, list[int]]]:
    """The ranks the seat gave (or returned) to each hidden hand and has not seen played
    since: still in that hand."""
    out = []
    for receiver, gift in view.gave:
        if receiver in exact:
            continue
        ranks = [RANK_OF[c] for c in gift]
        for e in view.history:  # the receiver's sets, burns included, name their cards
            seen = e.act.cards if e.seat == receiver and isinstance(e.act, Played | Burned) else None
            for card in seen or ():
                if RANK_OF[card] in ranks:
                    ranks.remove(RANK_OF[card])
        out.append((receiver, ranks))
    return out


def worlds(game: GouJiGame, view: GouJiView) -> Callable[[random.Random], GouJiState]:
    """The worlds of ``view``: the placed cards, the public sizes, the tribute and the
    events read once; each call shares out the hidden sizes and deals the hidden cards.

    :raises WrongPhaseError: outside the play phase, off the seat's turn, or in a window.
    """
    seat, hand = view.seat, view.hand
    if not is_searchable(view) or seat is None or hand is None:
        raise WrongPhaseError("gouji.not_searchable", phase=str(view.phase))
    pool = Pool(_pack(game), _rank)
    exact = _exact_hands(view, seat, hand)
    for cards in exact.values():
        pool.remove(cards)
    played = _played(view, pool)
    # Sizes: exact and public ones; the unknown ones are shared out per world.
    sizes = [len(exact[s]) if s in exact else view.counts[s] or 0 for s in range(SEATS)]
    hidden = [s for s in range(SEATS) if s not in exact and view.counts[s] is None]
    spare = len(pool) - sum(sizes[s] for s in range(SEATS) if s not in exact and s not in hidden)
    least = [_least(game.options, seat, s) for s in range(SEATS)]
    tribute = _tribute(view, exact)
    events = events_of(view.history, action_of)
    dealt_to = [s for s in range(SEATS) if s not in exact]

    def world(rng: random.Random) -> GouJiState:
        size = _share_hidden(sizes, hidden, spare, least, rng)
        unseen = pool.copy()
        hands = [list(exact.get(s, ())) for s in range(SEATS)]
        for receiver, ranks in tribute:
            for r in ranks:
                if len(hands[receiver]) < size[receiver]:
                    held = unseen.take(r)
                    if held is not None:
                        hands[receiver].append(held)
        dealt = deal(unseen.cards(), {s: size[s] - len(hands[s]) for s in dealt_to}, rng)
        if dealt.rest:
            raise AssertionError("Gou Ji determinization: card count")  # pragma: no cover
        for s in dealt_to:
            hands[s].extend(dealt.hands[s])
        return GouJiState.from_view(game, view, hands=hands, played=played, events=events)

    return world


def is_searchable(view: View) -> bool:
    """True on the seat's own turn in the play phase, no window open (see the module)."""
    return bool(isinstance(view, GouJiView) and view.phase == "play" and view.seat is not None
                and view.current_seat == view.seat and view.hand and not view.window)


DETERMINIZER: Final = Determinization(GouJiGame, GouJiView, is_searchable, worlds)
"""The game's determinizer (``GameSpec.determinizer``)."""

__all__ = ["DETERMINIZER", "is_searchable", "worlds"]
