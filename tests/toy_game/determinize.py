"""The toy game's determinizer, made with the kit (:mod:`folkdeck.engine.determinize`).

A seat sees its hand and every card played; the other hands and the face-down cards are
the unseen pool, dealt again at random to each other seat (as many as it holds) and the
face-down rest. The game states only that, and builds the world with
:meth:`ToyState.from_view <tests.toy_game.state.ToyState.from_view>` (of the game's
``state_type``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from folkdeck.cards import Card
from folkdeck.engine.determinize import Determinization, Pool, deal
from folkdeck.engine.facts import Played
from folkdeck.engine.view import View
from tests.toy_game.game import ToyGame
from tests.toy_game.observation import ToyView
from tests.toy_game.rules import PACK, STRENGTH
from tests.toy_game.state import ToyState


def worlds(game: ToyGame, view: ToyView) -> Callable[[random.Random], ToyState]:
    """The worlds of ``view`` (a seat's, in play): the view read once, one world a call."""
    seat, own = view.seat, list(view.hand or ())
    assert seat is not None
    pool = Pool(PACK.cards, kind=STRENGTH.__getitem__)
    pool.remove(own)
    pool.remove(c for event in view.history if isinstance(event.act, Played) for c in event.act.cards)
    unseen = pool.cards()
    counts = {s: n or 0 for s, n in enumerate(view.counts) if s != seat}

    def world(rng: random.Random) -> ToyState:
        dealt = deal(unseen, counts, rng)
        hands: list[list[Card]] = [own if s == seat else dealt.hands[s] for s in range(view.num_players)]
        return game.state_type.from_view(game, view, hands=hands, undealt=dealt.rest)

    return world


def is_searchable(view: View) -> bool:
    """A seat's view while the deal is played."""
    return isinstance(view, ToyView) and view.seat is not None and view.phase == "play"


DETERMINIZER: Final = Determinization(ToyGame, ToyView, is_searchable, worlds)
