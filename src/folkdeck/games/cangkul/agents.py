"""Cangkul and Burro bots. They see only the view (:class:`CangkulView`) and the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from folkdeck.cards import Card, Suit
from folkdeck.games.cangkul.actions import CangkulAction, Draw, Pass
from folkdeck.games.cangkul.observation import CangkulView
from folkdeck.games.cangkul.options import PackName
from folkdeck.games.cangkul.rules import STRIDE, SUITS, Deck, deck_for, takes_trick

_SUITS: Final = tuple(Suit)


def _deck(view: CangkulView) -> Deck:
    return deck_for(view.pack, view.ace_high)  # type: ignore[arg-type]


def _strength(card: Card, deck: Deck) -> int:
    """A card's strength in its suit in the viewed game, 0 its lowest (the joker highest): a
    card's index is ``suit * STRIDE + strength`` (:func:`~folkdeck.games.cangkul.rules.deck_for`)."""
    if card.is_joker:
        return 99
    i = deck.index.get(card)
    return i % STRIDE if i is not None else 0


def _draw_choice(observation: CangkulView, draws: list[Draw]) -> Draw:
    """The bigger pile (left on a tie), or the only draw."""
    if len(draws) == 1:
        return draws[0]
    stock = getattr(observation, "stock", (0, 0))
    return max(draws, key=lambda d: (stock[d.pile] if isinstance(d, Draw) and d.pile is not None else 0,
                                     -(d.pile or 0)))


class GreedyAgent:
    """Sheds its weakest card: the lowest legal card (keeping the joker while another card
    will do), else draws (from the bigger pile) or passes."""

    name = "greedy"

    def act(self, observation: CangkulView, legal_actions: Sequence[CangkulAction],
            rng: random.Random) -> CangkulAction:
        deck = _deck(observation)
        cards = [a for a in legal_actions if isinstance(a, Card)]
        plain = [c for c in cards if not c.is_joker]
        if plain:
            return min(plain, key=lambda c: _strength(c, deck))
        draws = [a for a in legal_actions if isinstance(a, Draw)]
        if draws:
            return _draw_choice(observation, draws)
        if cards:
            return cards[0]
        return next(a for a in legal_actions if isinstance(a, Pass))


def known_voids(view: CangkulView) -> list[set[Suit]]:
    """Per seat, the suits it has shown it lacks (it drew or passed on that led suit) and
    holds none of publicly (a suit it took as a passer is not void): the view's ``voids``
    less the suits of its ``known`` cards.

    >>> from types import SimpleNamespace as NS
    >>> from folkdeck.cards import parse_cards
    >>> view = NS(voids=((), (Suit.HEARTS,), (Suit.SPADES,)), known=((), (), parse_cards("9S 2H")))
    >>> known_voids(view)  # doctest: +NORMALIZE_WHITESPACE
    [set(), {<Suit.HEARTS: 'H'>}, set()]
    """
    out: list[set[Suit]] = []
    for suits, known in zip(view.voids, view.known, strict=True):
        held = {c.suit for c in known}
        out.append({u for u in suits if u not in held})
    return out


class HeuristicAgent:
    """The default bot: keeps its long suits, leads from suits the others lack, and
    remembers from the view which players were void.

    - Leading: the suit scoring most for (active opponents known void in it) × 3 + (cards
      held in it), i.e. a suit others must dig for that it holds in length; it leads that
      suit's highest card when an opponent is void there (to keep the lead), else its lowest.
    - Following: the lowest card of the led suit, unless it is the last to play and can win
      cheaply (the lowest winning card), taking the lead.
    - Void: the joker only when it ends the hand or no draw is possible; otherwise it digs
      from the bigger pile.
    """

    name = "heuristic"

    def act(self, observation: CangkulView, legal_actions: Sequence[CangkulAction],
            rng: random.Random) -> CangkulAction:
        cards = [a for a in legal_actions if isinstance(a, Card)]
        plain = [c for c in cards if not c.is_joker]
        if not plain:
            return _void_choice(observation, legal_actions, cards)
        if not observation.table:
            return _lead(observation, plain)
        return _follow(observation, plain)


def _void_choice(observation: CangkulView, legal_actions: Sequence[CangkulAction],
                 cards: list[Card]) -> CangkulAction:
    """No suited card to play: the joker when it ends the hand or no draw is possible,
    else a draw from the bigger pile."""
    hand: tuple[Card, ...] = observation.hand or ()
    draws = [a for a in legal_actions if isinstance(a, Draw)]
    if cards and (len(hand) <= 2 or not draws):
        return cards[0]
    if draws:
        return _draw_choice(observation, draws)
    return cards[0] if cards else legal_actions[0]


def _lead(observation: CangkulView, plain: list[Card]) -> Card:
    """The lead: the suit scoring most for (active opponents known void in it) × 3 + (cards
    held in it); its highest card when an opponent is void there, else its lowest."""
    deck = _deck(observation)
    hand: tuple[Card, ...] = observation.hand or ()
    me = observation.seat
    voids = known_voids(observation)
    out = set(observation.out)
    others = [s for s in range(observation.num_players) if s != me and s not in out]
    length = {s: sum(1 for c in hand if c.suit == s) for s in _SUITS}

    def score(s: Suit) -> tuple[int, int]:
        lacking = sum(1 for o in others if s in voids[o])
        return lacking * 3 + length[s], lacking

    suits = {c.suit for c in plain if c.suit is not None}
    best = max(sorted(suits, key=lambda u: u.value), key=score)
    in_suit = [c for c in plain if c.suit == best]
    return (max if score(best)[1] else min)(in_suit, key=lambda c: _strength(c, deck))


def _follow(observation: CangkulView, plain: list[Card]) -> Card:
    """A follow: the lowest card of the led suit, or the lowest winning card when last to
    play; after a joker lead, a card of the longest suit."""
    deck = _deck(observation)

    def key(c: Card) -> int:
        return _strength(c, deck)

    led = observation.led_suit
    if led is None:  # after a joker lead: shed a card of the longest suit
        hand: tuple[Card, ...] = observation.hand or ()
        return min(plain, key=lambda c: (-sum(1 for h in hand if h.suit == c.suit), key(c)))
    suit = SUITS.index(led)
    best = -1  # the trick's best card so far, by the rules' takes_trick
    for c in (c for play in observation.table for c in play.cards):
        i = deck.index.get(c)
        if i is not None and takes_trick(i, best, suit):
            best = i
    played = {t.seat for t in observation.table}
    remaining = [s for s in range(observation.num_players)
                 if s not in observation.out and s != observation.seat
                 and s not in played and s not in observation.passed]
    if not remaining:
        winners = [c for c in plain if takes_trick(deck.index[c], best, suit)]
        if winners:
            return min(winners, key=key)
    return min(plain, key=key)


class CangkulReading:
    """What a lead or a follow does to the suits, as a learned bot's inputs
    (:class:`~folkdeck.engine.bots.CardReading`), in a pack and its order (Cangkul's French
    pack, ace high, unless told; a game whose order is an option has no reading):
    how many cards of the play's suit are in play outside the hand (the others' hands, the
    stock, the trick), how many of them beat the card (none: the card is the top of its
    suit, and a lead of it keeps the lead unless a joker comes), the hand's cards of the
    suit left after the play and how many of those are below it, the suits left, and how
    many cards left are the top of their suits. Most of the teacher's departures from the
    heuristic are the rank it leads within a suit (docs/bots.md, "The Cangkul family's
    reading and held-out deals"); these numbers say which ranks keep the lead. Counts are in sevenths (Cangkul's
    hand), the suits in fourths; a draw, a pass or the joker reads as the hand it leaves.

    >>> from folkdeck.cards.notation import parse_cards
    >>> reading = CangkulReading()
    >>> numbers = reading.read(parse_cards("QS 9S 3S 4H"), parse_cards("KS 2S 5H AD"), parse_cards("QS"))
    >>> {name: round(x * (4 if name == "suits_left" else 7)) for name, x in zip(reading.names, numbers)}
    ... # doctest: +NORMALIZE_WHITESPACE
    {'suit_in_play': 2, 'in_play_above': 1, 'suit_left': 2, 'below_left': 2, 'suits_left': 2, 'tops_left': 0}
    """

    names: Final = ("suit_in_play", "in_play_above", "suit_left", "below_left", "suits_left", "tops_left")
    out_of_play: Final = ("dead",)

    def __init__(self, pack: PackName = "french52", ace_high: bool = True) -> None:
        self._deck = deck_for(pack, ace_high)

    def _strength(self, card: Card) -> int:
        return _strength(card, self._deck)

    def read(self, hand: Sequence[Card], unseen: Sequence[Card], play: Sequence[Card]) -> tuple[float, ...]:
        left = list(hand)
        for card in play:
            left.remove(card)
        suited = [c for c in play if not c.is_joker]
        tops = sum(1 for c in left if not c.is_joker and self._above(c, unseen) == 0)
        suits = len({c.suit for c in left if not c.is_joker})
        if not suited:
            return 0.0, 0.0, 0.0, 0.0, suits / 4, tops / 7
        card = suited[0]
        in_suit = [c for c in left if c.suit == card.suit]
        below = sum(1 for c in in_suit if self._strength(c) < self._strength(card))
        return (sum(1 for c in unseen if c.suit == card.suit) / 7, self._above(card, unseen) / 7,
                len(in_suit) / 7, below / 7, suits / 4, tops / 7)

    def _above(self, card: Card, cards: Sequence[Card]) -> int:
        return sum(1 for c in cards if c.suit == card.suit and self._strength(c) > self._strength(card))


__all__ = ["CangkulReading", "GreedyAgent", "HeuristicAgent", "known_voids"]
