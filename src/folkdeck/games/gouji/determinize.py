"""Gou Ji determinization: a full deal consistent with what one seat has seen.

Built from the observation and the game's rules only (never the real state), like
Kap Hai's (``docs/bots.md``). Gou Ji is played on ranks: a hand is a multiset of ranks
(4 packs, 216 cards), and the sampler deals ranks. Placed for sure:

- the seat's own hand, and every hand shown to it (open hands; teammates' at 10 cards
  or fewer under ``share_hand_le10``);
- the cards played this deal, per rank (``played``: the observation keeps only the last
  30 events, but the per-rank counts cover the whole deal);
- the tribute: the ranks the seat gave (or returned) to another seat are in that hand,
  less what that seat has visibly played of them since (the recent history); received
  cards are in the seat's own hand already.

The other cards are dealt at random to the other hands. Hand sizes are public where
the rules say so (``public_counts``: always, at 10 cards or fewer, an open hand, a
seat out); a hidden size is unknown to the seat: the sampler shares the unknown cards
evenly among those seats (each above 10 cards under ``le10``), since the observation
does not give per-seat played counts.

Only the play phase is searched, on the seat's own turn with no window open (burning,
re-ordering): :func:`is_searchable`. Elsewhere (declarations, revolution, tribute
returns, the ``drawer`` naming, burn windows, 先让让) the search bot plays its
fallback, the heuristic bot. Not reconstructed (variants): a team re-order older than
the visible history, ``modern_burning``'s burn-to-the-end duty of other seats,
``strict_penalty`` fouls and ``modern_dian_gong`` debts.
"""

from __future__ import annotations

import random
import re
from typing import Any

from folkdeck.cards import Card
from folkdeck.engine.errors import InvalidNotationError, WrongPhaseError
from folkdeck.engine.protocol import Event
from folkdeck.games.gouji.actions import parse_action
from folkdeck.games.gouji.game import GouJiGame
from folkdeck.games.gouji.observation import GouJiObservation
from folkdeck.games.gouji.rules import NRANKS, RANK_OF, RANK_WORDS, Play
from folkdeck.games.gouji.state import GouJiState

SEATS = 6
_GIVE = re.compile(r"^you (?:give|return) (.+) to seat (\d+)$")
_ORDER = re.compile(r"turn order now ((?:\d ?)+)$")
_BASE: dict[Any, GouJiState] = {}
_WORD = {w: r for r, w in enumerate(RANK_WORDS)}


def _base(game: GouJiGame) -> GouJiState:
    """A fresh deal of the game, cached: it gives every slot of a state its default."""
    key = game.options
    found = _BASE.get(key)
    if found is None:
        found = _BASE[key] = game.new_state(seed=0)
    return found


def parse_event(line: str) -> Event:
    """An event back from its visible line; a hidden tribute return keeps its text."""
    head, _, rest = line.partition(": ")
    parts = rest.split("; ")
    try:
        action: Any = parse_action(parts[0])
    except InvalidNotationError:
        action = parts[0]  # "return (2 card(s))": another seat's return, its cards hidden
    return Event(int(head), action, tuple(parts[1:]))


def _ranks(words: str) -> list[int]:
    return [_WORD[w] for w in words.split()]


def determinize(game: GouJiGame, observation: GouJiObservation, rng: random.Random) -> GouJiState:
    """A deal agreeing with ``observation`` whose hidden cards are dealt at random.

    :raises WrongPhaseError: outside the play phase, off the seat's turn, or in a window.
    """
    seat = observation.seat
    if not is_searchable(observation) or seat is None or observation.hand is None:
        raise WrongPhaseError("determinize needs the view of the seat on turn in the play phase",
                              phase=observation.phase)
    base = _base(game)
    pack = [c for place in base.all_cards().values() for c in place]
    pool: list[list[Card]] = [[] for _ in range(NRANKS)]
    for c in pack:
        pool[RANK_OF[c]].append(c)

    def take(rank: int) -> Card | None:
        pile = pool[rank]
        return pile.pop() if pile else None

    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    # Own and shown hands are exact cards; remove them by identity of (rank, suit).
    exact = {seat: list(observation.hand), **{s: list(c) for s, c in observation.shown.items()}}
    for s, cards in exact.items():
        for c in cards:
            pile = pool[RANK_OF[c]]
            pile.remove(c)
            hands[s].append(c)
    played: list[Card] = []
    for r, k in enumerate(observation.played):
        for _ in range(k):
            c = take(r)
            if c is None:
                raise AssertionError("Gou Ji determinization: card count")  # pragma: no cover
            played.append(c)
    # Sizes: public ones, then the unknown ones shared out.
    left = sum(len(p) for p in pool)
    sizes: list[int] = [0] * SEATS
    hidden_size: list[int] = []
    for s in range(SEATS):
        if s in exact:
            sizes[s] = len(hands[s])
            continue
        count = observation.counts[s]
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
    # The tribute the seat gave: still in the receiver's hand unless seen played since.
    for line in observation.private:
        m = _GIVE.match(line)
        if m is None:
            continue
        receiver = int(m[2])
        if receiver in exact:
            continue
        ranks = _ranks(m[1])
        for e in (parse_event(h) for h in observation.history):
            if e.seat == receiver and isinstance(e.action, Play):
                for r in _play_ranks(e.action):
                    if r in ranks:
                        ranks.remove(r)
        for r in ranks:
            if len(hands[receiver]) < sizes[receiver]:
                c = take(r)
                if c is not None:
                    hands[receiver].append(c)
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

    state = base.clone()
    st: Any = state  # the private slots are filled here, in the game's own package
    st._start_hands = tuple(tuple(h) for h in hands)
    st._pending = None
    piles: list[list[list[Card]]] = [[[] for _ in range(NRANKS)] for _ in range(SEATS)]
    counts = [[0] * NRANKS for _ in range(SEATS)]
    for s, hand in enumerate(hands):
        for c in hand:
            r = RANK_OF[c]
            piles[s][r].append(c)
            counts[s][r] += 1
    st._cards = piles
    st._hands = counts
    st._left = [len(h) for h in hands]
    st._played = played
    st._played_counts = list(observation.played)
    events = [parse_event(line) for line in observation.history]
    st._history = events
    st._lines = list(observation.history)
    private: list[list[str]] = [[] for _ in range(SEATS)]
    private[seat] = list(observation.private)
    st._private = private
    st._public = list(observation.tribute)
    st._result = None
    opened = 0
    for s in observation.opened:
        opened |= 1 << s
    st._opened = opened
    st._open = sum(1 << s for s in range(SEATS) if s != seat and s in observation.shown
                   and (s - seat) % 2 == 1)
    if game.options.allow_open_hand and len(observation.hand) <= 10 and "open" not in \
            observation.legal_actions:
        st._open |= 1 << seat
    for s in observation.shown:  # a teammate's hand may be open too: its count shows it
        if (s - seat) % 2 == 0 and (len(observation.shown[s]) > 10 or (
                game.options.public_counts == "never" and observation.counts[s] is not None)):
            st._open |= 1 << s
    st._leader = observation.leader
    st._queue = []
    st._pairs = []
    st._phase = "play"
    st._top = parse_action(observation.top) if observation.top is not None else None
    st._top_seat = observation.top_seat if observation.top_seat is not None else -1
    st._passed = sum(1 << s for s in observation.passed)
    st._mode = observation.mode
    st._window = []
    st._window_kind = ""
    order = list(range(SEATS))
    for e in events:
        for note in e.notes:
            if m := _ORDER.search(note):
                order = [int(x) for x in m[1].split()]
    st._order = order
    pos = [0] * SEATS
    for p, s in enumerate(order):
        pos[s] = p
    st._pos = pos
    st._gouji_seat = observation.gouji_seat if observation.gouji_seat is not None else -1
    st._xian_req = observation.xian_request if observation.xian_request is not None else -1
    st._xian_offer = observation.to_act[1] if len(observation.to_act) > 1 and \
        not game.options.strict_penalty else -1
    trick: list[tuple[int, Play | None]] = []
    for item in observation.trick:
        head, _, text = item.partition(": ")
        action = parse_action(text)
        trick.append((int(head), action if isinstance(action, Play) else None))
    st._trick = trick
    st._out = list(observation.out_order)
    st._turn = observation.current_seat
    st._given = []
    st._fouls = []
    st._to_end = 0
    st._owe = None
    return state


def _play_ranks(p: Play) -> list[int]:
    from folkdeck.games.gouji.rules import BJ, RJ, TWO

    return [p.rank] * p.natural + [TWO] * p.w2 + [BJ] * p.wbj + [RJ] * p.wrj


def is_searchable(observation: Any) -> bool:
    """True on the seat's own turn in the play phase, no window open (see the module)."""
    seat = getattr(observation, "seat", None)
    return bool(getattr(observation, "phase", None) == "play" and seat is not None
                and observation.current_seat == seat and observation.hand
                and "no" not in observation.legal_actions)


__all__ = ["determinize", "is_searchable", "parse_event"]
