"""Cambio (カンビオ), the Cucco-pack gambling game in its modern Japanese rules (docs/rules/cambio.md).

==================  =========================================================
Seats               2-39 (one card each, one card left for the stock; 2-43 with
                    ``pack=nifty44``); play to
                    the right (seat + 1 next), the dealer last
Teams               none
Pack                Cucco 40: FOOL -4 … OWL 15, two of each (docs/rules/cambio.md §1.1); or
                    ``pack=nifty44``: 44 cards, XI and XII between 10 and HOUSE
Hidden information  yes (the cards in hands, the stock)
Actions             ``change``, ``keep``; ``cucco`` (an OWL holder, also out of turn)
Returns             -1 for each loser of the deal, 0 otherwise; chips in the match
Presets             ``standard``, ``sudden``, ``italian_fool``, ``owl_refuses``,
                    ``closed_discards``, ``nifty44``
==================  =========================================================

Sources: ``docs/rules/cambio.md`` §10; the full rules for players are in
``docs/rules/cambio.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from folkdeck.engine.protocol import BotFactory, GameHooks, GameSpec, Lazy, LazyBots, MatchEnd
from folkdeck.engine.registry import register
from folkdeck.games.cambio.actions import CHANGE, CUCCO, KEEP, CambioAction, action_data, parse_action
from folkdeck.games.cambio.events import describe_action
from folkdeck.games.cambio.game import CambioGame
from folkdeck.games.cambio.match import CambioMatch
from folkdeck.games.cambio.observation import CambioView
from folkdeck.games.cambio.options import MAX_PLAYERS, PRESETS, CambioOptions
from folkdeck.games.cambio.state import CambioState

if TYPE_CHECKING:
    from folkdeck.engine.determinize import Determinizer


def _make(options: CambioOptions) -> CambioGame:
    return CambioGame(SPEC, options)


def _bots() -> dict[str, BotFactory]:
    from folkdeck.agents import FirstLegalAgent, RandomAgent
    from folkdeck.agents.learned import learned_bots
    from folkdeck.games.cambio.agents import CountingAgent
    from folkdeck.games.cambio.search import cambio_search_bots

    return {"counting": CountingAgent, "random": RandomAgent, "first": FirstLegalAgent,
            **cambio_search_bots(), **learned_bots("cambio", "counting", search=False)}


def _determinizer() -> Determinizer:
    from folkdeck.games.cambio.determinize import DETERMINIZER

    return DETERMINIZER


SPEC: Final = register(GameSpec(
    name="cambio", title="Cambio", aliases=("cucco", "cuccu", "kuku", "campio"),
    min_players=2, max_players=MAX_PLAYERS, default_players=4, options_type=CambioOptions,
    presets=PRESETS,
    summary="Cucco-pack gambling game: pass your weak card to the right, don't hold the lowest.",
    rules_doc="docs/rules/cambio.md", default_bot="counting",
    # The stock carries over between deals: a deal's record would show cards still hidden
    # in the session, so every record opens when the session is over.
    record_embargo="stock_carries_over",
    card_notation="cucco", windows=("cucco",),
    # A session runs until a player is bankrupt; a number of deals is only an optional cap.
    match_end=MatchEnd(deals="limit", default_deals=None, reason="bankruptcy"),
    action_words=("change", "keep", "cucco"),
    hooks=GameHooks(action_data=action_data, make=_make, describe_action=describe_action, view_type=CambioView,
                    bots=LazyBots(_bots), determinizer=Lazy(_determinizer)),
))

__all__ = ["CHANGE", "CUCCO", "KEEP", "SPEC", "CambioAction", "CambioGame", "CambioMatch",
           "CambioOptions", "CambioState", "CambioView", "parse_action"]
