"""A toy game made with a small trick-game kit (:mod:`tests.toy_game.kit`, kept beside it), the way
``CONTRIBUTING.md`` ("Adding a game") says a simple trick game is added.

====================  ==================================================
Seats                 2-4, play to the right (seat + 1 next)
Pack                  24 cards, 9 to A of a French pack (:data:`PACK`)
Hidden information    the other hands and the undealt cards
Actions               a card (the kit's ``Play``)
Facts                 the shared ``played``, ``trick_won``, ``deal_ended``
Returns               tricks won
Presets               ``standard``, ``long`` (6 cards each)
====================  ==================================================

The game states its options, its pack and its trick rule (the strongest card wins), and
declares its spec; the kit deals, plays, shows, records, determinizes and matches it. Its
catalog words are ``messages.json``. Unlike a game of ``src/folkdeck/games/``, it does
not register :data:`SPEC` when imported: the tests register it, and add its words to the
catalogs, for the length of a test (``tests/toy_game/test_toy_game.py``).

>>> try:
...     ToyOptions(hand_size=13)
... except InvalidConfigError as exc:
...     exc.reason, exc.params["limit"]
('toy.hand_size', 12)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from folkdeck.cards import FRENCH_52, Pack, Rank
from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.protocol import BotFactory, GameSpec, LazyBots, MatchEnd
from tests.toy_game.kit import TrickGame, TrickRules, highest, trick_hooks

_RANKS: Final = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
PACK: Final = Pack("toy 24", tuple(c for c in FRENCH_52.cards if c.rank in _RANKS))
"""The 24 cards, weakest first (FRENCH_52 lists them by rank, then suit: S < C < D < H)."""
STRENGTH: Final = {card: i for i, card in enumerate(PACK.cards)}


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyOptions:
    """Every option of the toy game (``folkdeck.load("toy", players=3)`` fills it)."""

    players: int = 2
    hand_size: int = 3
    """Cards dealt to each seat (the rest stay face down)."""

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise InvalidConfigError("toy.players", option="players", value=self.players)
        limit = len(PACK.cards) // self.players
        if not 1 <= self.hand_size <= limit:
            raise InvalidConfigError("toy.hand_size", option="hand_size", value=self.hand_size, limit=limit)


def _make(options: ToyOptions) -> TrickGame:
    strength = STRENGTH.__getitem__
    return TrickGame(SPEC, options, TrickRules(pack=PACK, hand_size=options.hand_size, strength=strength,
                                               winner=highest(strength)))


def _bots() -> Mapping[str, BotFactory]:
    from folkdeck.agents import FirstLegalAgent, RandomAgent
    from folkdeck.agents.search import search_bots

    # ISMCTS and PIMC (the browser's hints ask ``pimc``) on the kit's determinizer.
    return {"random": RandomAgent, "first": FirstLegalAgent, **search_bots("toy", "first")}


SPEC: Final = GameSpec(
    name="toy", title="Toy high card", aliases=("toy-high-card",), min_players=2, max_players=4,
    default_players=2, options_type=ToyOptions, presets={"standard": {}, "long": {"hand_size": 6}},
    summary="Play a card; the highest card wins the trick.", default_bot="random",
    match_end=MatchEnd(deals="count", default_deals=3), hooks=trick_hooks(_make, LazyBots(_bots)))

MESSAGES: Final[dict[str, dict[str, Any]]] = json.loads(
    (Path(__file__).with_name("messages.json")).read_text(encoding="utf-8"))
"""The toy's catalog entries, by language (a game of the library adds them to
``src/folkdeck/i18n/en.json`` and ``ja.json``)."""
