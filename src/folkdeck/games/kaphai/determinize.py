"""Kap Hai determinization: a full state consistent with what one seat has seen.

The search bots (:mod:`folkdeck.agents.search`) see only views, so the sampler is built
from the view and the game (its rules are public), never from the real state.
Everything public is kept as it is (:meth:`KapHaiState.from_view
<folkdeck.games.kaphai.state.KapHaiState.from_view>` reads it from the typed view: the
table, who passed, who is out, the history, the 3s, the card counts). The only hidden
cards in Kap Hai are the other hands (and the undealt piles with 2-3 players): every card
not in the seat's hand, not played and not put out is dealt again at random, each other
seat receiving exactly as many as it holds and the undealt piles the rest — except the 3s
a seat showed in a 3-game without putting them out (``three_game_shed_threes=false``),
which stay with it until played. A pass reveals nothing in Kap Hai (passing is always
allowed), so the uniform deal is the consistent one.

The state is built directly (not by replaying the deal), so sampling costs one shuffle
and a few copies; the pool and the counts come from the kit
(:mod:`folkdeck.engine.determinize`), read once per view by :func:`worlds`.

>>> import random
>>> from folkdeck import load
>>> game = load("kaphai")
>>> real = game.new_state(seed=3)
>>> _ = real.apply(real.legal_actions()[0])
>>> seat = real.current_seat
>>> world = DETERMINIZER.determinize(game, real.observe(seat), random.Random(1))
>>> world.observe(seat).to_dict() == real.observe(seat).to_dict()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from folkdeck.engine.determinize import Determinization, deal, to_mask, unseen_bits
from folkdeck.engine.view import View
from folkdeck.games.kaphai.game import KapHaiGame
from folkdeck.games.kaphai.observation import KapHaiView
from folkdeck.games.kaphai.rules import FULL
from folkdeck.games.kaphai.state import KapHaiState
from folkdeck.games.kaphai.viewread import read_view


def worlds(game: KapHaiGame, view: KapHaiView) -> Callable[[random.Random], KapHaiState]:
    """The worlds of ``view``: its public deal read once (:func:`~folkdeck.games.kaphai.
    viewread.read_view`), each call dealing the unknown cards of one world.

    :raises WrongPhaseError: for a spectator's view, or outside the play phase (the putuh
        window is decided on the seat's own hand, with nothing to search).
    """
    seen = read_view(game.options, view)
    seat = seen.seat
    pool = unseen_bits(FULL, seen.own | seen.played | seen.shed | seen.fixed)
    counts = {s: (view.counts[s] or 0) - seen.known[s].bit_count()
              for s in range(view.num_players) if s != seat}

    def world(rng: random.Random) -> KapHaiState:
        dealt = deal(pool, counts, rng)
        hands = [seen.own if s == seat else seen.known[s] | to_mask(dealt.hands[s])
                 for s in range(view.num_players)]
        return KapHaiState.from_view(game, view, hands=hands, undealt=to_mask(dealt.rest))

    return world


def is_searchable(view: View) -> bool:
    """True when :meth:`DETERMINIZER.determinize` applies (a seat's view in the play phase)."""
    return isinstance(view, KapHaiView) and view.phase == "play" and view.seat is not None


DETERMINIZER: Final = Determinization(KapHaiGame, KapHaiView, is_searchable, worlds)
"""The game's determinizer (``GameSpec.determinizer``)."""

__all__ = ["DETERMINIZER", "is_searchable", "worlds"]
