"""Cangkul and Burro bots. They see only the view (:class:`CangkulView`) and the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from folkdeck.cards import Card, Suit
from folkdeck.games.cangkul.actions import CangkulAction, Draw, Pass
from folkdeck.games.cangkul.observation import CangkulView
from folkdeck.games.cangkul.rules import SUITS, Deck, deck_for, takes_trick

_SUITS: Final = tuple(Suit)


def _deck(view: CangkulView) -> Deck:
    return deck_for(view.pack, view.ace_high)  # type: ignore[arg-type]


def _strength(card: Card, deck: Deck) -> int:
    """A card's strength in the viewed game (the joker highest)."""
    if card.is_joker:
        return 99
    i = deck.index.get(card)
    return i & 15 if i is not None else 0


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


__all__ = ["GreedyAgent", "HeuristicAgent", "known_voids"]
