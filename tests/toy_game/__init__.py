"""A toy game built the way ``CONTRIBUTING.md`` ("Adding a game") says a game is added.

====================  ==================================================
Seats                 2-4, play to the right (seat + 1 next)
Pack                  24 cards, 9 to A of a French pack (``rules.PACK``)
Hidden information    the other hands and the undealt cards
Actions               a card (``Play``)
Facts                 the shared ``played``, ``trick_won``, ``deal_ended``
Returns               tricks won
Presets               ``standard``, ``long`` (6 cards each)
====================  ==================================================

Its modules are the ones every game has (``options``, ``rules``, ``actions``,
``events``, ``observation``, ``deal``, ``state``, ``game``, ``match``,
``determinize``, and the catalog entries in ``messages``). Unlike a game of
``src/folkdeck/games/``, this module does not register :data:`SPEC` when imported: the
tests register it for the length of a test (``tests/toy_game/test_toy_game.py``), so that
no other test sees a toy among ``folkdeck.games()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from folkdeck.engine.spec import BotFactory, GameHooks, GameSpec, Lazy, LazyBots, MatchEnd
from tests.toy_game.events import describe_action
from tests.toy_game.game import ToyGame
from tests.toy_game.observation import ToyView
from tests.toy_game.options import PRESETS, ToyOptions

if TYPE_CHECKING:
    from folkdeck.engine.determinize import Determinizer


def _make(options: ToyOptions) -> ToyGame:
    return ToyGame(SPEC, options)


def _bots() -> Mapping[str, BotFactory]:
    from folkdeck.agents import FirstLegalAgent, RandomAgent
    from folkdeck.agents.search import search_bots

    # The search bots (ISMCTS, PIMC; the browser's hints ask ``pimc``) need only the
    # determinizer below; ``first`` is what they fall back on where a view is not searchable.
    return {"random": RandomAgent, "first": FirstLegalAgent, **search_bots("toy", "first")}


def _determinizer() -> Determinizer:
    from tests.toy_game.determinize import DETERMINIZER

    return DETERMINIZER


SPEC: Final = GameSpec(
    name="toy", title="Toy high card", aliases=("toy-high-card",),
    min_players=2, max_players=4, default_players=2, options_type=ToyOptions, presets=PRESETS,
    summary="Play a card; the highest card wins the trick.", default_bot="random",
    match_end=MatchEnd(deals="count", default_deals=3),
    hooks=GameHooks(make=_make, describe_action=describe_action, view_type=ToyView,
                    bots=LazyBots(_bots), determinizer=Lazy(_determinizer)),
)
