"""folkdeck: reference implementations of traditional card games.

>>> import folkdeck
>>> game = folkdeck.load("kaphai", players=4)
>>> state = game.new_state(seed=1)
>>> len(state.legal_actions()) > 0
True
"""

from typing import TYPE_CHECKING

from folkdeck.engine.facts import Fact
from folkdeck.engine.protocol import Event, Game, GameSpec, Match, Observation, Result, Standings, State
from folkdeck.engine.registry import get_spec, load
from folkdeck.engine.view import View
from folkdeck.errors import (
    AmbiguousActionError,
    CardGameError,
    IllegalActionError,
    InvalidConfigError,
    InvalidDealError,
    InvalidNotationError,
    MalformedRecordError,
    NotYourTurnError,
    UnknownGameError,
    WrongPhaseError,
)

# ``folkdeck.games`` is the package of games, made callable: ``folkdeck.games()`` lists
# the registered names (see folkdeck/games/__init__.py), and ``folkdeck.games.kaphai``
# stays importable. Type checkers see the registry function.
if TYPE_CHECKING:
    from folkdeck.engine.registry import games
else:
    from folkdeck import games

__version__ = "0.1.0"

__all__ = [
    "AmbiguousActionError", "CardGameError", "Event", "Fact", "Game", "GameSpec", "IllegalActionError",
    "InvalidConfigError", "InvalidDealError", "InvalidNotationError", "MalformedRecordError",
    "Match", "NotYourTurnError", "Observation", "Result", "Standings", "State", "UnknownGameError", "View",
    "WrongPhaseError", "__version__", "games", "get_spec", "load",
]
