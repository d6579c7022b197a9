"""Cangkul and Burro determinization (the three games share this module).

Built from the observation and the game's rules only (never the real state), like
Kap Hai's (``docs/bots.md``). Everything public is copied: the trick, the passers, the
led suit, the order out, the log and the history, the hand sizes, the stock sizes. The
cards placed for sure:

- the seat's own hand;
- the cards a passer collected publicly and still holds (``known``): in that hand;
- every card whose last public move was a lead or a play: on the table (the trick) or
  dead (a finished trick nobody collected).

Every other card is hidden: in another hand (beyond its known cards), in the stock (its
one or two piles, in an unknown order), or (in a study position) out of the deal.
**Voids**: a seat that drew or passed on a led suit held none of it then, and it still
holds none of it *among its hidden cards* until it next takes a card unseen (a draw on
another suit that it keeps, or a knock): a draw on suit X keeps only non-X cards, a
matched draw is played at once. Under ``joker_play="must_when_void"`` digging also shows
no joker. The hidden cards are dealt at random under those voids, the most constrained
seat first (a few reshuffles if a greedy deal paints itself into a corner), the rest to
the stock.
"""

from __future__ import annotations

import random
from typing import Any

from folkdeck.cards import parse_card
from folkdeck.engine.errors import WrongPhaseError
from folkdeck.engine.protocol import Event
from folkdeck.games.cangkul.actions import parse_action
from folkdeck.games.cangkul.game import CangkulGame
from folkdeck.games.cangkul.observation import CangkulObservation
from folkdeck.games.cangkul.rules import JOKER, NO_SUIT, mask, trick_winner
from folkdeck.games.cangkul.state import _NEXTS, CangkulState, LogEntry

_SUITS = "SCDH"
_JOKER_CLASS = 4
_TRIES = 64


def parse_event(line: str) -> Event:
    """An event back from its public line (``"2: draw; seat 2 draws 5H and plays it"``)."""
    head, _, rest = line.partition(": ")
    parts = rest.split("; ")
    return Event(int(head), parse_action(parts[0]), tuple(parts[1:]))


def _class(i: int) -> int:
    return _JOKER_CLASS if i == JOKER else i >> 4


def voids(observation: CangkulObservation, deck: Any, joker_shown: bool) -> list[int]:
    """Per seat, a bitmask of card classes (suits 0-3, the joker 4) absent from its
    *hidden* cards now (its publicly taken cards aside).

    ``joker_shown``: digging shows no joker (``joker_play="must_when_void"``)."""
    n = observation.num_players
    void = [0] * n
    log = observation.log
    for k, (s, verb, arg) in enumerate(log):
        if verb in ("draw", "pass"):
            suit = _SUITS.index(arg)
            bits = 1 << suit | ((1 << _JOKER_CLASS) if joker_shown else 0)
            void[s] |= bits
            if verb == "draw":
                nxt = log[k + 1] if k + 1 < len(log) else None
                matched = nxt is not None and nxt[0] == s and nxt[1] == "play" and \
                    _class(deck.index[parse_card(nxt[2])]) == suit
                if not matched:
                    # One unseen non-X card joins the hand: only the void in X survives.
                    void[s] = 1 << suit
        elif verb == "knock":
            void[s] = 0
    return void


def determinize(game: CangkulGame, observation: CangkulObservation,
                rng: random.Random) -> CangkulState:
    """A state agreeing with ``observation`` whose hidden cards are dealt at random.

    :raises WrongPhaseError: for a spectator's view or a deal that is over.
    """
    seat = observation.seat
    if not is_searchable(observation) or seat is None or observation.hand is None:
        raise WrongPhaseError("determinize needs a seat's view during play", phase=observation.phase)
    deck = game.deck
    rules = game.rules
    n = observation.num_players
    own = mask(observation.hand, deck)
    known = [mask(k, deck) if k else 0 for k in observation.known]
    known[seat] = 0
    # Where each played card is now: the last public move of a card decides.
    on_table = 0
    for _, verb, arg in observation.log:
        if verb in ("lead", "play"):
            on_table |= 1 << deck.index[parse_card(arg)]
        elif verb == "take":
            on_table &= ~mask(arg, deck)
    trick = [(s, deck.index[parse_card(c)]) for s, c in observation.trick]
    trick_mask = 0
    for _, i in trick:
        trick_mask |= 1 << i
    dead = on_table & ~trick_mask
    fixed = own | on_table
    for k in known:
        fixed |= k
    pool = [i for i in range(deck.full.bit_length()) if deck.full >> i & 1 and not fixed >> i & 1]
    need = {s: observation.counts[s] - known[s].bit_count() for s in range(n) if s != seat}
    stock_total = sum(observation.stock)
    spare = len(pool) - sum(need.values()) - stock_total
    if spare < 0:
        raise AssertionError("Cangkul determinization: card count")  # pragma: no cover
    void = voids(observation, deck, rules.joker_play == "must_when_void")
    hands = _deal(pool, need, void, rng)
    hands[seat] = own
    rest = hands.pop(-1)
    for s in range(n):
        hands[s] |= known[s]
    piles: list[list[int]] = []
    at = 0
    for size in observation.stock:
        piles.append(rest[at:at + size])  # top last; the order is random already
        at += size
    unused = 0
    for i in rest[at:]:
        unused |= 1 << i

    state: CangkulState = object.__new__(CangkulState)
    st: Any = state  # the private slots are filled here, in the game's own package
    st._game = game
    st._rules = rules
    st._jp = rules.joker_play
    st._deck = deck
    st._by_id = deck.by_id
    st._n = n
    st._nexts = _NEXTS[n]
    st._hands = [hands[s] for s in range(n)]
    st._known = known[:seat] + [mask(observation.known[seat], deck) if observation.known[seat] else 0] \
        + known[seat + 1:]
    st._start_hands = tuple(st._hands)
    st._start_stock = tuple(c for p in piles for c in reversed(p))
    st._piles = piles
    st._setup = {"leader": observation.trick_leader}
    st._unused = unused
    st._dead = dead
    st._rng = random.Random(rng.getrandbits(32)) if rules.knock_prob > 0 else None
    st._phase = "play"
    st._turn = observation.current_seat
    st._trick_leader = observation.trick_leader
    st._plays = trick
    st._suit = _SUITS.index(observation.led_suit_letter) if observation.led_suit_letter else NO_SUIT
    acted = 0
    for s, _ in trick:
        acted |= 1 << s
    for s in observation.passers:
        acted |= 1 << s
    st._acted = acted
    st._passers = list(observation.passers)
    st._out = list(observation.out)
    st._history = [parse_event(line) for line in observation.history]
    st._log = [_log_entry(e, deck) for e in observation.log]
    st._collected = [(s, mask(c, deck)) for s, c in observation.collected]
    st._result = None
    st._stall = _stall(observation)
    st._win = 0
    if trick:  # the trick's best play so far, as the state keeps it
        best = trick_winner(trick)
        st._win = next(c for t, c in trick if t == best) << 4 | best
    return state


def _stall(observation: CangkulObservation) -> int:
    """The state's stall counter: the public count, or -1 while a trick in which a player
    went out is in progress (its end then counts from 0, as in the state)."""
    if observation.trick:
        for _, verb, _ in reversed(observation.log):
            if verb == "out":
                return -1
            if verb == "lead":
                break
    return observation.stall


def _deal(pool: list[int], need: dict[int, int], void: list[int],
          rng: random.Random) -> dict[int, Any]:
    """``need[s]`` cards to each seat avoiding its void classes; key -1: the rest, shuffled."""
    order = sorted(need, key=lambda s: (-void[s].bit_count(), s))
    for _ in range(_TRIES):
        cards = list(pool)
        rng.shuffle(cards)
        hands: dict[int, Any] = {}
        ok = True
        for s in order:
            v = void[s]
            take: list[int] = []
            keep: list[int] = []
            for i in cards:
                if len(take) < need[s] and not v >> _class(i) & 1:
                    take.append(i)
                else:
                    keep.append(i)
            if len(take) < need[s]:
                ok = False
                break
            m = 0
            for i in take:
                m |= 1 << i
            hands[s] = m
            cards = keep
        if ok:
            hands[-1] = cards
            return hands
    # The voids could not be met (they always can for a real position): deal them unconstrained.
    cards = list(pool)
    rng.shuffle(cards)
    hands = {}
    for s in order:
        m = 0
        for i in cards[:need[s]]:
            m |= 1 << i
        hands[s] = m
        cards = cards[need[s]:]
    hands[-1] = cards
    return hands


def _log_entry(entry: tuple[int, str, str], deck: Any) -> LogEntry:
    s, verb, arg = entry
    if verb in ("lead", "play"):
        return (s, verb, deck.index[parse_card(arg)])
    if verb in ("draw", "pass"):
        return (s, verb, _SUITS.index(arg))
    if verb == "take":
        return (s, verb, mask(arg, deck))
    return (s, verb, int(arg))


def is_searchable(observation: Any) -> bool:
    """True when :func:`determinize` applies (a seat's view during play)."""
    return bool(getattr(observation, "phase", None) == "play" and observation.seat is not None)


__all__ = ["determinize", "is_searchable", "parse_event", "voids"]
