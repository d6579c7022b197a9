"""Cangkul and Burro bots. They see only the observation and the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from folkdeck.cards import Card
from folkdeck.games.cangkul.actions import Draw, Pass
from folkdeck.games.cangkul.rules import deck_for

_SUITS = "SCDH"


def _strength(card: Card, title: str) -> int:
    """A card's strength in the observed game (the joker highest)."""
    if card.is_joker:
        return 99
    deck = deck_for("french52") if title == "Cangkul" else deck_for(
        "spanish48" if title == "Spanish Burro" else "portuguese40")
    i = deck.index.get(card)
    return i & 15 if i is not None else 0


def _draw_choice(observation: Any, draws: list[Any]) -> Any:
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

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        title = getattr(observation, "title", "Cangkul")
        cards = [a for a in legal_actions if isinstance(a, Card)]
        plain = [c for c in cards if not c.is_joker]
        if plain:
            return min(plain, key=lambda c: _strength(c, title))
        draws = [a for a in legal_actions if isinstance(a, Draw)]
        if draws:
            return _draw_choice(observation, draws)
        if cards:
            return cards[0]
        return next(a for a in legal_actions if isinstance(a, Pass))


def known_voids(observation: Any) -> list[set[str]]:
    """Per seat, the suits it has shown it lacks (it drew or passed on that led suit),
    forgetting a suit when it publicly takes a card of it and everything after a knock.

    >>> from types import SimpleNamespace as NS
    >>> known_voids(NS(num_players=3, log=((1, "draw", "H"), (2, "pass", "S"), (2, "take", "9S 2H"))))
    [set(), {'H'}, set()]
    """
    voids: list[set[str]] = [set() for _ in range(observation.num_players)]
    for seat, verb, arg in observation.log:
        if verb in ("draw", "pass"):
            voids[seat].add(arg)
        elif verb == "take":
            voids[seat] -= {token[-1] for token in arg.split()}
        elif verb == "knock":
            voids[seat].clear()
    return voids


class HeuristicAgent:
    """The default bot: keeps its long suits, leads from suits the others lack, and
    remembers from the public log which players were void.

    - Leading: the suit scoring most for (active opponents known void in it) × 3 + (cards
      held in it), i.e. a suit others must dig for that it holds in length; it leads that
      suit's highest card when an opponent is void there (to keep the lead), else its lowest.
    - Following: the lowest card of the led suit, unless it is the last to play and can win
      cheaply (the lowest winning card), taking the lead.
    - Void: the joker only when it ends the hand or no draw is possible; otherwise it digs
      from the bigger pile.
    """

    name = "heuristic"

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        title = getattr(observation, "title", "Cangkul")
        cards = [a for a in legal_actions if isinstance(a, Card)]
        plain = [c for c in cards if not c.is_joker]
        hand: tuple[Card, ...] = observation.hand or ()
        draws = [a for a in legal_actions if isinstance(a, Draw)]
        if not plain:
            if cards and (len(hand) <= 2 or not draws):
                return cards[0]
            if draws:
                return _draw_choice(observation, draws)
            return cards[0] if cards else legal_actions[0]

        def key(c: Card) -> int:
            return _strength(c, title)

        if not observation.trick:  # leading
            me = observation.seat
            voids = known_voids(observation)
            out = set(observation.out)
            others = [s for s in range(observation.num_players) if s != me and s not in out]
            length = {s: sum(1 for c in hand if c.suit is not None and c.suit.value == s) for s in _SUITS}

            def score(s: str) -> tuple[int, int]:
                lacking = sum(1 for o in others if s in voids[o])
                return lacking * 3 + length[s], lacking

            suits = {c.suit.value for c in plain if c.suit is not None}
            best = max(sorted(suits), key=score)
            in_suit = [c for c in plain if c.suit is not None and c.suit.value == best]
            return max(in_suit, key=key) if score(best)[1] else min(in_suit, key=key)
        led = observation.led_suit_letter
        if led is None:  # after a joker lead: shed a card of the longest suit
            return min(plain, key=lambda c: (-sum(1 for h in hand if h.suit == c.suit), key(c)))
        table = [Card.parse(c) for _, c in observation.trick]
        top = max((key(c) for c in table if c.is_joker or (c.suit is not None and c.suit.value == led)),
                  default=-1)
        remaining = [s for s in range(observation.num_players)
                     if s not in observation.out and s != observation.seat
                     and s not in {t for t, _ in observation.trick} and s not in observation.passers]
        if not remaining:
            winners = [c for c in plain if key(c) > top]
            if winners:
                return min(winners, key=key)
        return min(plain, key=key)


__all__ = ["GreedyAgent", "HeuristicAgent", "known_voids"]
