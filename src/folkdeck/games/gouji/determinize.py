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
(:func:`~folkdeck.games.gouji.events.events_of`), once per view.

Only the play phase is searched, on the seat's own turn with no window open (burning,
re-ordering): :func:`is_searchable`. Elsewhere (declarations, revolution, tribute
returns, the ``drawer`` naming, burn windows, 先让让) the search bot plays its
fallback, the heuristic bot.
"""

from __future__ import annotations

import random
from typing import Any, Final

from folkdeck.cards import Card
from folkdeck.engine.errors import WrongPhaseError
from folkdeck.engine.facts import Played
from folkdeck.engine.protocol import Event
from folkdeck.games.gouji.events import Burned, events_of
from folkdeck.games.gouji.game import GouJiGame
from folkdeck.games.gouji.observation import GouJiView
from folkdeck.games.gouji.rules import NRANKS, RANK_OF
from folkdeck.games.gouji.state import GouJiState

SEATS: Final = 6
_PACKS: Final[dict[Any, list[Card]]] = {}
_EVENTS: Final[list[Any]] = [None, []]
"""The last view's history and the events rebuilt from it (a search samples hundreds of
worlds from one view)."""


def _pack(game: GouJiGame) -> list[Card]:
    """The deal's 216 cards, in a fixed order."""
    key = game.options
    found = _PACKS.get(key)
    if found is None:
        found = _PACKS[key] = [c for place in game.new_state(seed=0).all_cards().values()
                               for c in place]
    return found


def _events(view: GouJiView) -> list[Event]:
    if _EVENTS[0] is not view.history:
        _EVENTS[0], _EVENTS[1] = view.history, events_of(view.history)
    return list(_EVENTS[1])


def determinize(game: GouJiGame, view: GouJiView, rng: random.Random) -> GouJiState:
    """A deal agreeing with ``view`` whose hidden cards are dealt at random.

    :raises WrongPhaseError: outside the play phase, off the seat's turn, or in a window.
    """
    seat = view.seat
    if not is_searchable(view) or seat is None or view.hand is None:
        raise WrongPhaseError("gouji.not_searchable", phase=str(view.phase))
    pool: list[list[Card]] = [[] for _ in range(NRANKS)]
    for c in _pack(game):
        pool[RANK_OF[c]].append(c)

    def take(rank: int) -> Card | None:
        pile = pool[rank]
        return pile.pop() if pile else None

    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    # Own and shown hands, and the cards on the table, are exact cards.
    exact = {seat: list(view.hand), **{s: list(c) for s, c in enumerate(view.shown) if c is not None}}
    for s, cards in exact.items():
        for c in cards:
            pool[RANK_OF[c]].remove(c)
            hands[s].append(c)
    played: list[Card] = []
    on_table = [0] * NRANKS
    for p in view.table:
        for card in p.cards:
            pool[RANK_OF[card]].remove(card)
            played.append(card)
            on_table[RANK_OF[card]] += 1
    for r, k in enumerate(view.played):
        for _ in range(k - on_table[r]):
            drawn = take(r)
            if drawn is None:
                raise AssertionError("Gou Ji determinization: card count")  # pragma: no cover
            played.append(drawn)
    # Sizes: public ones, then the unknown ones shared out.
    left = sum(len(p) for p in pool)
    sizes: list[int] = [0] * SEATS
    hidden_size: list[int] = []
    for s in range(SEATS):
        if s in exact:
            sizes[s] = len(hands[s])
            continue
        count = view.counts[s]
        if count is None:
            hidden_size.append(s)
        else:
            sizes[s] = count
    spare = left - sum(sizes[s] - len(hands[s]) for s in range(SEATS) if s not in hidden_size)
    if hidden_size:
        share, extra = divmod(spare, len(hidden_size))
        lucky = set(rng.sample(hidden_size, extra))
        opts = game.options
        least = {s: 11 if opts.public_counts == "le10" or (
            opts.share_hand_le10 and (s - seat) % 2 == 0) else 1 for s in hidden_size}
        for s in hidden_size:
            sizes[s] = share + (s in lucky)
        for s in hidden_size:  # a hidden size above 10 where a smaller one would show
            while sizes[s] < least[s]:
                donor = max(hidden_size, key=lambda t: (sizes[t] - least[t], -t))
                if sizes[donor] <= least[donor]:
                    break
                sizes[donor] -= 1
                sizes[s] += 1
    events = _events(view)
    # The tribute the seat gave: still in the receiver's hand unless seen played since.
    for receiver, gift in view.gave:
        if receiver in exact:
            continue
        ranks = [RANK_OF[c] for c in gift]
        for e in view.history:  # the receiver's sets, burns included, name their cards
            seen = e.act.cards if e.seat == receiver and isinstance(e.act, Played | Burned) else None
            for card in seen or ():
                if RANK_OF[card] in ranks:
                    ranks.remove(RANK_OF[card])
        for r in ranks:
            if len(hands[receiver]) < sizes[receiver]:
                held = take(r)
                if held is not None:
                    hands[receiver].append(held)
    rest = [c for p in pool for c in p]
    rng.shuffle(rest)
    at = 0
    for s in range(SEATS):
        if s in exact:
            continue
        need = sizes[s] - len(hands[s])
        hands[s].extend(rest[at:at + need])
        at += need
    if at != len(rest):
        raise AssertionError("Gou Ji determinization: card count")  # pragma: no cover
    return GouJiState.from_view(game, view, hands=hands, played=played, events=events)


def is_searchable(view: Any) -> bool:
    """True on the seat's own turn in the play phase, no window open (see the module)."""
    seat = getattr(view, "seat", None)
    return bool(getattr(view, "phase", None) == "play" and seat is not None
                and view.current_seat == seat and view.hand and not view.window)


__all__ = ["determinize", "is_searchable"]
