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

import importlib.util
from collections.abc import Callable
from typing import Any, Final

from folkdeck.engine.protocol import GameSpec, LazyBots, MatchEnd
from folkdeck.engine.registry import register
from folkdeck.games.kaphai.actions import PASS, PUTUH, parse_action
from folkdeck.games.kaphai.events import describe_action
from folkdeck.games.kaphai.game import KapHaiGame
from folkdeck.games.kaphai.observation import KapHaiPhase, KapHaiView
from folkdeck.games.kaphai.options import PRESETS, KapHaiOptions
from folkdeck.games.kaphai.rules import Combo, Kind, beats, classify
from folkdeck.games.kaphai.state import KapHaiState


def _make(options: KapHaiOptions) -> KapHaiGame:
    return KapHaiGame(SPEC, options)


def _bots() -> dict[str, Callable[[], Any]]:
    from folkdeck.agents import FirstLegalAgent, RandomAgent
    from folkdeck.agents.search import search_bots
    from folkdeck.games.kaphai.agents import GreedyAgent, HeuristicAgent
    from folkdeck.games.kaphai.rollout import playout

    # Rollouts by people's habits, not uniformly random moves (docs/bots.md has the A/B runs).
    table: dict[str, Callable[[], Any]] = {
        "random": RandomAgent, "first": FirstLegalAgent, "greedy": GreedyAgent,
        "heuristic": HeuristicAgent, **search_bots("kaphai", "heuristic", rollout=playout)}
    if importlib.util.find_spec("pyspiel") is not None:  # the rl extra: OpenSpiel's own ISMCTS
        table["openspiel-ismcts"] = _openspiel_ismcts
    return table


def _openspiel_ismcts() -> Any:
    from folkdeck.rl.openspiel import ismcts_bot

    return ismcts_bot("kaphai")


SPEC: Final = register(GameSpec(
    name="kaphai", title="Kap Hai", aliases=("kap-hai", "kap_hai", "kaphi"),
    min_players=2, max_players=4, default_players=4, options_type=KapHaiOptions, make=_make,
    presets=PRESETS, summary="Cambodian climbing game: shed your 13 cards first.",
    rules_doc="docs/rules/kaphai.md", bots=LazyBots(_bots), default_bot="greedy",
    card_notation="french", windows=("putuh",), match_end=MatchEnd(deals="count", default_deals=5),
    determinizer="folkdeck.games.kaphai.determinize", describe_action=describe_action,
    view_type=KapHaiView, action_words=("pass", "putuh"),
))

__all__ = ["PASS", "PUTUH", "SPEC", "Combo", "KapHaiGame", "KapHaiOptions", "KapHaiPhase", "KapHaiState",
           "KapHaiView", "Kind",
           "beats", "classify", "parse_action"]
