"""The search bots' rollout policy for Cangkul and Burro: fast, and better than random.

A rollout plays a sampled world to its end thousands of times per decision, so it runs
on the engine's own action lists, without observations. Its policy is a noisy version
of how people play these games (and of :class:`~folkdeck.games.cangkul.agents.HeuristicAgent`):

- a follower plays its **lowest** card of the led suit (the listing's first card), keeping
  its high cards to win later tricks; it takes a trick cheaply when it plays last;
- a leader leads from its **longest** suit, its lowest card there;
- digging draws from a random pile;
- with probability ``NOISE`` any legal action instead, so that the worlds' futures vary.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from folkdeck.cards import Card
from folkdeck.engine.playout import policy_playout
from folkdeck.games.cangkul.rules import JOKER, NO_SUIT, SUIT_MASKS, suit_of, takes_trick

if TYPE_CHECKING:
    from folkdeck.games.cangkul.actions import CangkulAction
    from folkdeck.games.cangkul.state import CangkulState

NOISE: Final = 0.25
"""The share of moves a rollout plays at random."""


def playout(state: CangkulState, rng: random.Random) -> None:
    """Play ``state`` (a :class:`~folkdeck.games.cangkul.state.CangkulState`) to its end."""
    policy_playout(state, choose, rng)


def choose(state: CangkulState, rng: random.Random) -> CangkulAction:
    """The policy's action for the seat on turn (see the module docstring)."""
    index = state.game.deck.index
    deal = state.deal
    legal = state.legal_actions()
    n = len(legal)
    if n == 1 or rng.random() < NOISE:
        action = legal[rng.randrange(n)]
    elif not isinstance(legal[0], Card):
        action = legal[rng.randrange(n)]  # only draws (a pile each) or a pass
    elif deal.plays:
        action = legal[0]  # the lowest card of the led suit (cards come weakest first)
        if deal.suit != NO_SUIT and _last_to_play(state):
            # Last to play: the lowest card that takes the trick, if any (the joker
            # is kept: it is no cheap winner).
            best, suit = deal.win >> 4, deal.suit
            for a in legal:
                i = index.get(a) if isinstance(a, Card) else None
                if i is not None and i != JOKER and takes_trick(i, best, suit):
                    action = a
                    break
    else:
        hand = deal.hands[deal.turn]
        longest = max(range(4), key=lambda s: (hand & SUIT_MASKS[s]).bit_count())
        action = legal[0]
        for a in legal:
            i = index.get(a) if isinstance(a, Card) else None
            if i is not None and suit_of(i) == longest:
                action = a
                break
    return action


def _last_to_play(state: CangkulState) -> bool:
    """Whether every other seat still holding cards has played or passed in this trick."""
    deal = state.deal
    acted = deal.acted | 1 << deal.turn
    return all(acted >> s & 1 or not h for s, h in enumerate(deal.hands))


__all__ = ["NOISE", "choose", "playout"]
