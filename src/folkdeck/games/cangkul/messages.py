"""Why an action is illegal, as a reason key and its parameters (the catalogs'
``error.cangkul.*`` messages say it in words).

Pure functions of the deck, the led suit and the hand, so that the state's
``verify`` stays short. Suits are term keys (``hearts``: the catalog names the pack's
suit, ``copas`` in a Burro); cards are in notation.

>>> from folkdeck.games.cangkul.rules import deck_for, mask
>>> d = deck_for("french52")
>>> why_not_card(d, 3, "anytime", 1, d.index[d.cards[2]], mask("4H 9S", d), dig=False)
('cangkul.follow_suit', {'seat': 1, 'held': '4H', 'suit': 'hearts', 'card': '4S'})
"""

from __future__ import annotations

from folkdeck.games.cangkul.events import SUIT_TERMS
from folkdeck.games.cangkul.options import JokerPlay
from folkdeck.games.cangkul.rules import FOLLOW, JOKER, JOKER_BIT, NO_SUIT, Deck, notation

Why = tuple[str, dict[str, object]]
"""A refusal: the reason key and its parameters."""


def why_not_card(deck: Deck, suit: int, joker_play: JokerPlay, s: int, i: int, hand: int,
                 dig: bool) -> Why:
    """Seat ``s`` may not play card index ``i`` (held) on the led ``suit``."""
    card = deck.names[i]
    name = SUIT_TERMS[suit]
    if i == JOKER:
        return "cangkul.joker_only_void", {"seat": s, "suit": name, "joker_play": joker_play}
    follow = hand & FOLLOW[suit]
    if follow:
        return "cangkul.follow_suit", {"seat": s, "held": notation(follow, deck), "suit": name, "card": card}
    if hand & JOKER_BIT and not dig:
        return "cangkul.must_play_joker", {"seat": s, "suit": name}
    return "cangkul.void_draw", {"seat": s, "suit": name, "card": card}


def why_no_dig(deck: Deck, suit: int, trick_started: bool, s: int, hand: int, *, passing: bool = False) -> Why:
    """Seat ``s`` may not draw (or, ``passing``, pass) now."""
    if suit == NO_SUIT:
        return ("cangkul.any_after_joker" if trick_started else "cangkul.leader_plays"), {"seat": s}
    name = SUIT_TERMS[suit]
    follow = hand & FOLLOW[suit]
    if follow:
        return ("cangkul.follow_not_pass" if passing else "cangkul.follow_not_draw"), {
            "seat": s, "held": notation(follow, deck), "suit": name}
    return "cangkul.must_play_joker", {"seat": s, "suit": name}


__all__ = ["Why", "why_no_dig", "why_not_card"]
