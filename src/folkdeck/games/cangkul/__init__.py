"""Cangkul (Indonesia), Spanish Burro and Portuguese Burro: follow suit or dig (docs/rules/cangkul.md).

One engine, three registered games whose differences are options (a
:class:`~folkdeck.games.cangkul.rules.Ruleset`), not code:

==================  ==============================  ===================  ======================
                    ``cangkul``                     ``burro_es``         ``burro_pt``
==================  ==============================  ===================  ======================
Seats               3-5, clockwise                  3-8, counter-clockw. 3-8, counter-clockw.
Pack                French 52 (53 with ``joker``)   Spanish 48           Portuguese 40
Order (high→low)    A K Q J 10 … 2                  K Q(caballo) J(sota) K J(valete) Q(dama)
                                                    9 … 2 A              7 … 2 A (``pt_ace_high``)
Hand                7                               ``hand_size`` 5      ``hand_size`` 5
Stock               one pile                        one pile             two piles (left/right)
A pass              passers take the played cards   takes nothing        takes nothing
End of deal         first empty hand wins           last holder loses    last holder loses
Returns             ``score``: 1 to the winner      -1 (a penalty point) -1 (a penalty point)
==================  ==============================  ===================  ======================

A Cangkul deal whose passers keep taking the tricks with the stock empty ends as a
stalemate after ``stall_limit`` such tricks in a row (an engine gap rule, default 100).
Seats play in seat + 1 order in every game (docs/rules/cangkul.md §1.2); the dealer's next seat leads.
Hidden information: yes (hands, the stock). Actions: a card, ``draw`` (``draw left``,
``draw right``), ``pass`` (only to decline the joker). Sources: ``docs/rules/cangkul.md``
§10; the rules for players are in ``docs/rules/cangkul.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final, TypeVar

from folkdeck.engine.protocol import BotFactory, GameHooks, GameSpec, Lazy, LazyBots, MatchEnd
from folkdeck.engine.registry import register
from folkdeck.games.cangkul.actions import DRAW, DRAW_LEFT, DRAW_RIGHT, PASS, action_data, parse_action
from folkdeck.games.cangkul.events import describe_action
from folkdeck.games.cangkul.game import CangkulGame
from folkdeck.games.cangkul.match import DEFAULT_DEALS
from folkdeck.games.cangkul.observation import CangkulView
from folkdeck.games.cangkul.options import PRESETS, BurroEsOptions, BurroPtOptions, CangkulOptions, PackName
from folkdeck.games.cangkul.state import CangkulState

if TYPE_CHECKING:
    from folkdeck.engine.bots import CardReading
    from folkdeck.engine.determinize import Determinizer


def _bots(name: str) -> LazyBots:
    def load() -> Mapping[str, BotFactory]:
        from folkdeck.agents import FirstLegalAgent, RandomAgent
        from folkdeck.agents.learned import learned_bots
        from folkdeck.agents.search import search_bots
        from folkdeck.games.cangkul.agents import GreedyAgent, HeuristicAgent
        from folkdeck.games.cangkul.rollout import playout

        return {"heuristic": HeuristicAgent, "greedy": GreedyAgent, "random": RandomAgent,
                "first": FirstLegalAgent, **search_bots(name, "heuristic", rollout=playout),
                **learned_bots(name, "heuristic")}

    return LazyBots(load)


def _determinizer() -> Determinizer:
    from folkdeck.games.cangkul.determinize import DETERMINIZER

    return DETERMINIZER


_DETERMINIZER: Final = Lazy(_determinizer)
"""One determinizer for the three games (``determinize.py`` reads each one's rules)."""


OptionsT = TypeVar("OptionsT")


def _hooks(make: Callable[[OptionsT], CangkulGame], name: str) -> GameHooks:
    """The three games' hooks: the same code, each game's own bot table."""
    return GameHooks(action_data=action_data, make=make, describe_action=describe_action, view_type=CangkulView,
                     bots=_bots(name), determinizer=_DETERMINIZER,
                     card_reading=Lazy(functools.partial(_reading, _READ_ORDER[name])) if name in _READ_ORDER
                     else None)


_READ_ORDER: Final[dict[str, tuple[PackName, bool]]] = {"cangkul": ("french52", True), "burro_es": ("spanish48", False)}
"""The games whose pack and order are fixed, so their reading of the cards can rank them:
Portuguese Burro's order is an option (``pt_ace_high``), which the cards alone do not tell."""


def _reading(order: tuple[PackName, bool]) -> CardReading:
    from folkdeck.games.cangkul.agents import CangkulReading

    return CangkulReading(*order)


def _make_cangkul(options: CangkulOptions) -> CangkulGame:
    return CangkulGame(CANGKUL, options)


def _make_burro_es(options: BurroEsOptions) -> CangkulGame:
    return CangkulGame(BURRO_ES, options)


def _make_burro_pt(options: BurroPtOptions) -> CangkulGame:
    return CangkulGame(BURRO_PT, options)


_ACTION_WORDS: Final = ("draw", "left", "right", "pass")
_BURRO_END: Final = MatchEnd(deals="limit", default_deals=None, reason="penalty_limit")
"""A Burro match ends when a player's penalties reach ``penalty_limit``; a number of
deals is only an optional cap."""

CANGKUL: Final = register(GameSpec(
    name="cangkul", title="Cangkul", aliases=("minuman",), min_players=3, max_players=5,
    default_players=4, options_type=CangkulOptions, presets=PRESETS["cangkul"],
    summary="Indonesian digging game: follow suit or dig the stock; empty your hand first.",
    rules_doc="docs/rules/cangkul.md", default_bot="learned", card_notation="french",
    match_end=MatchEnd(deals="count", default_deals=DEFAULT_DEALS, reason="deals"),
    action_words=_ACTION_WORDS, hooks=_hooks(_make_cangkul, "cangkul"),
))
BURRO_ES: Final = register(GameSpec(
    name="burro_es", title="Spanish Burro", aliases=("burro", "burro-es", "spanish_burro"),
    min_players=3, max_players=8, default_players=4, options_type=BurroEsOptions,
    presets=PRESETS["burro_es"],
    summary="Spanish donkey: follow suit or draw; the last player holding cards takes a penalty.",
    rules_doc="docs/rules/cangkul.md", default_bot="learned", card_notation="spanish",
    match_end=_BURRO_END, action_words=_ACTION_WORDS, hooks=_hooks(_make_burro_es, "burro_es"),
))
BURRO_PT: Final = register(GameSpec(
    name="burro_pt", title="Portuguese Burro", aliases=("burro-pt", "portuguese_burro"),
    min_players=3, max_players=8, default_players=4, options_type=BurroPtOptions,
    presets=PRESETS["burro_pt"],
    summary="Portuguese donkey: Burro with the stock in two leaning piles.",
    rules_doc="docs/rules/cangkul.md", default_bot="heuristic", card_notation="portuguese",
    match_end=_BURRO_END, action_words=_ACTION_WORDS, hooks=_hooks(_make_burro_pt, "burro_pt"),
))

__all__ = ["BURRO_ES", "BURRO_PT", "CANGKUL", "DRAW", "DRAW_LEFT", "DRAW_RIGHT", "PASS",
           "BurroEsOptions", "BurroPtOptions", "CangkulGame", "CangkulOptions", "CangkulState",
           "CangkulView", "parse_action"]
