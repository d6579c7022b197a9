"""Kap Hai (カップハイ), the Cambodian climbing game described in 『カップハイ完全攻略!』.

==================  =========================================================
Seats               2-4, play to the right (seat + 1 next)
Teams               none
Pack                French 52; 3 low … A, 2 high; suits S < C < D < H
Hidden information  yes (hands; undealt piles with 2-3 players)
Actions             a combination of cards, ``pass``, ``putuh``
Facts               ``games/kaphai/events.py``; view ``KapHaiView``
Returns             ``placement_points`` by place (default 3, 2, 1, 0)
Presets             ``standard``, ``local`` (local rules), ``shared_putuh``
==================  =========================================================

Sources: that page and the readings folkdeck settled where it is unclear
(``docs/rules/kaphai.md`` §10, §8); the full rules for players, with the local rules of the
``local`` preset (``docs/rules/kaphai.md`` §6), are in ``docs/rules/kaphai.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from folkdeck.engine.protocol import BotFactory, GameHooks, GameSpec, Lazy, LazyBots, MatchEnd
from folkdeck.engine.registry import register
from folkdeck.games.kaphai.actions import PASS, PUTUH, action_data, parse_action
from folkdeck.games.kaphai.events import describe_action
from folkdeck.games.kaphai.game import KapHaiGame
from folkdeck.games.kaphai.observation import KapHaiPhase, KapHaiView
from folkdeck.games.kaphai.options import PRESETS, KapHaiOptions
from folkdeck.games.kaphai.rules import Combo, Kind, beats, classify
from folkdeck.games.kaphai.state import KapHaiState

if TYPE_CHECKING:
    from folkdeck.engine.bots import CardReading
    from folkdeck.engine.determinize import Determinizer


def _make(options: KapHaiOptions) -> KapHaiGame:
    return KapHaiGame(SPEC, options)


def _bots() -> dict[str, BotFactory]:
    from folkdeck.agents import FirstLegalAgent, RandomAgent
    from folkdeck.agents.learned import learned_bots
    from folkdeck.agents.search import search_bots
    from folkdeck.games.kaphai.agents import GreedyAgent, HeuristicAgent
    from folkdeck.games.kaphai.rollout import playout

    # Rollouts by people's habits, not uniformly random moves (docs/bots.md has the A/B runs);
    # learned+search hands the last eight cards to the search (docs/bots.md, "Learned bots").
    return {"random": RandomAgent, "first": FirstLegalAgent, "greedy": GreedyAgent,
            "heuristic": HeuristicAgent, **search_bots("kaphai", "heuristic", rollout=playout),
            **learned_bots("kaphai", "heuristic", hand_over=9)}


def _reading() -> CardReading:
    from folkdeck.games.kaphai.agents import KapHaiReading

    return KapHaiReading()


def _determinizer() -> Determinizer:
    from folkdeck.games.kaphai.determinize import DETERMINIZER

    return DETERMINIZER


SPEC: Final = register(GameSpec(
    name="kaphai", title="Kap Hai", aliases=("kap-hai", "kap_hai", "kaphi"),
    min_players=2, max_players=4, default_players=4, options_type=KapHaiOptions,
    presets=PRESETS, summary="Cambodian climbing game: shed your 13 cards first.",
    rules_doc="docs/rules/kaphai.md", default_bot="learned",
    hint_bot="search",  # ISMCTS: +1.913 a deal against the heuristic where pimc made +1.725 (docs/bots.md)
    card_notation="french", windows=("putuh",), match_end=MatchEnd(deals="count", default_deals=5),
    action_words=("pass", "putuh"),
    hooks=GameHooks(action_data=action_data, make=_make, describe_action=describe_action, view_type=KapHaiView,
                    bots=LazyBots(_bots), determinizer=Lazy(_determinizer),
                    card_reading=Lazy(_reading)),
))

__all__ = ["PASS", "PUTUH", "SPEC", "Combo", "KapHaiGame", "KapHaiOptions", "KapHaiPhase", "KapHaiState",
           "KapHaiView", "Kind",
           "beats", "classify", "parse_action"]
