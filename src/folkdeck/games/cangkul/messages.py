"""Why an action is illegal, in words (the ``reason`` of :class:`IllegalActionError`).

Pure functions of the deck, the led suit and the hand, so that the state's
``verify`` stays short.

>>> from folkdeck.games.cangkul.rules import deck_for, mask
>>> d = deck_for("french52")
>>> why_not_card(d, 3, "anytime", 1, d.index[d.cards[2]], mask("4H 9S", d), dig=False)
'seat 1 holds 4H: follow the led suit hearts (not 4S)'
"""

from __future__ import annotations

from folkdeck.games.cangkul.options import JokerPlay
from folkdeck.games.cangkul.rules import JOKER, JOKER_BIT, NO_SUIT, SUIT_MASKS, Deck, notation


def why_not_card(deck: Deck, suit: int, joker_play: JokerPlay, s: int, i: int, hand: int,
                 dig: bool) -> str:
    """Seat ``s`` may not play card index ``i`` (held) on the led ``suit``."""
    card = deck.cards[i]
    name = deck.suit_name(suit)
    if i == JOKER:
        return (f"seat {s} holds {name}: the joker may only be played "
                f"when void in the led suit (joker_play={joker_play})")
    follow = hand & SUIT_MASKS[suit]
    if follow:
        return f"seat {s} holds {notation(follow, deck)}: follow the led suit {name} (not {card})"
    if hand & JOKER_BIT and not dig:
        return f"seat {s} holds no {name} and must play the joker"
    return f"seat {s} holds no {name}: {card} cannot be played; draw"


def why_no_dig(deck: Deck, suit: int, trick_started: bool, s: int, hand: int) -> str:
    """Seat ``s`` may not draw (or pass) now."""
    if suit == NO_SUIT:
        return (f"seat {s} may play any card after the joker lead" if trick_started else
                f"seat {s} leads: play any card")
    name = deck.suit_name(suit)
    follow = hand & SUIT_MASKS[suit]
    if follow:
        return f"seat {s} holds {notation(follow, deck)}: follow the led suit {name} instead of drawing"
    return f"seat {s} holds no {name} and must play the joker"


__all__ = ["why_no_dig", "why_not_card"]
