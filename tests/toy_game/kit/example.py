"""The smallest game the kit makes, for the examples of its modules: "high card" with the
French 52 pack, 2 to 4 seats, ``hand_size`` cards each, the strongest card winning the
trick. It is never registered (``folkdeck.games()`` does not list it); a game of the
library declares its own spec, options and catalog words (``CONTRIBUTING.md``, "Adding
a game", and ``tests/toy_game/``, a game made this way and held to every check).

>>> game = example_game(players=3, hand_size=2)
>>> game.num_players, game.rules.hand_size, len(game.new_state(seed=1).deal.undealt)
(3, 2, 46)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from folkdeck.cards import FRENCH_52
from folkdeck.engine.protocol import GameSpec, LazyBots
from tests.toy_game.kit.game import TrickGame
from tests.toy_game.kit.hooks import trick_hooks
from tests.toy_game.kit.rules import TrickRules, highest


@dataclass(frozen=True, slots=True, kw_only=True)
class ExampleOptions:
    """The example's options (unchecked: it is made only by :func:`example_game`)."""

    players: int = 2
    hand_size: int = 3


def _make(options: ExampleOptions) -> TrickGame:
    rules = TrickRules(pack=FRENCH_52, hand_size=options.hand_size, strength=FRENCH_52.cards.index,
                       winner=highest(FRENCH_52.cards.index))
    return TrickGame(EXAMPLE_SPEC, options, rules)


EXAMPLE_SPEC: Final = GameSpec(
    name="example", title="High card", min_players=2, max_players=4, default_players=2,
    options_type=ExampleOptions, default_bot="random", hooks=trick_hooks(_make, LazyBots()))
"""The example's spec (never registered)."""


def example_game(players: int = 2, hand_size: int = 3) -> TrickGame:
    """The example game for ``players`` seats, ``hand_size`` cards each."""
    return _make(ExampleOptions(players=players, hand_size=hand_size))


__all__ = ["EXAMPLE_SPEC", "ExampleOptions", "example_game"]
