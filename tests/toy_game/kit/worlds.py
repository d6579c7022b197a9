"""The determinizer of every trick game of the kit: the cards a seat cannot see are the
other hands and the undealt rest, dealt again at random (each other seat as many as it
holds), everything public kept (:mod:`folkdeck.engine.determinize`).

A seat sees its own hand and every card played; the unseen pool is the pack less those.

>>> import random
>>> from tests.toy_game.kit import example_game
>>> game = example_game()
>>> state = game.new_state(seed=2)
>>> _ = state.apply(state.legal_actions()[0])
>>> view = state.observe(1)
>>> world = DETERMINIZER.worlds(game, view)(random.Random(0))
>>> world.observe(1).to_dict() == view.to_dict(), world.deal.trick == state.deal.trick
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from folkdeck.cards import Card
from folkdeck.engine.determinize import Determinization, Pool, deal
from folkdeck.engine.facts import Played
from tests.toy_game.kit.game import TrickGame
from tests.toy_game.kit.state import TrickState
from tests.toy_game.kit.view import TrickView


def unseen(game: TrickGame, view: TrickView) -> list[Card]:
    """The cards ``view``'s seat has not seen: the pack less its hand and every card played.

    :raises ValueError: for a view that does not fit the game's pack.
    """
    pool = Pool(game.rules.pack.cards, kind=game.rules.strength)
    pool.remove(view.hand or ())
    pool.remove(c for event in view.history if isinstance(event.act, Played) for c in event.act.cards)
    return pool.cards()


def worlds(game: TrickGame, view: TrickView) -> Callable[[random.Random], TrickState]:
    """The worlds of ``view`` (a seat's, in play): the view read once, one world a call.

    :raises TypeError: for a view of another game.
    """
    if view.game != game.spec.name or view.seat is None:
        raise TypeError(f"a seat's view of {game.spec.name} is needed, not {view.game}'s (seat {view.seat})")
    seat, own = view.seat, list(view.hand or ())
    pool = unseen(game, view)
    counts = {s: n or 0 for s, n in enumerate(view.counts) if s != seat}

    def world(rng: random.Random) -> TrickState:
        dealt = deal(pool, counts, rng)
        hands = [own if s == seat else dealt.hands[s] for s in range(view.num_players)]
        return game.state_type.from_view(game, view, hands=hands, undealt=dealt.rest)

    return world


def is_searchable(view: TrickView) -> bool:
    """A seat's view while the deal is played."""
    return view.seat is not None and view.phase == "play"


DETERMINIZER: Final = Determinization(TrickGame, TrickView, is_searchable, worlds)


__all__ = ["DETERMINIZER", "is_searchable", "unseen", "worlds"]
