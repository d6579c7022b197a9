"""A simple trick game's game object (:class:`TrickGame`: deals, matches), from the
game's options and :class:`~tests.toy_game.kit.rules.TrickRules`.

>>> from tests.toy_game.kit import example_game
>>> game = example_game()
>>> state = game.new_state(seed=4, setup={"leader": 1})
>>> state.current_seat, state.deal_info()["setup"], [len(h) for h in state.deal_info()["hands"]]
(1, {'leader': 1}, [3, 3])
>>> match = game.new_match(deals=2)
>>> match.next_deal().observe(0).setup
{'leader': 0}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from folkdeck.engine.game_base import GameBase
from folkdeck.engine.match_base import MatchBase
from folkdeck.engine.protocol import GameSpec
from tests.toy_game.kit.dealing import deal_hands, read_setup
from tests.toy_game.kit.rules import TrickRules, new_deal
from tests.toy_game.kit.state import TrickState


class TrickGame(GameBase[Any]):
    """A trick game with a set of options, played by ``rules`` (made from the options)."""

    state_type: ClassVar[type[TrickState]] = TrickState
    """The class of its deals (a test's broken variant puts its own here)."""

    def __init__(self, spec: GameSpec, options: Any, rules: TrickRules) -> None:
        super().__init__(spec, options)
        self._rules = rules

    @property
    def rules(self) -> TrickRules:
        return self._rules

    def new_state(self, *, seed: int | None = None, rng: random.Random | None = None,
                  deck: Sequence[Any] | None = None, hands: Sequence[Any] | None = None,
                  stock: Sequence[Any] | None = None, setup: Mapping[str, Any] | None = None) -> TrickState:
        """A new deal from ``seed``/``rng`` (shuffled), ``deck`` (top card first, dealt one
        at a time) or ``hands``; ``setup``: the rules' keys (by default ``leader``, 0).

        :raises InvalidDealError: naming the field (``hands[1]``, ``deck``, ``setup.leader``):
            :func:`~tests.toy_game.kit.dealing.deal_hands`,
            :func:`~tests.toy_game.kit.dealing.read_setup`.
        """
        rules, n = self.rules, self.num_players
        dealt, undealt = deal_hands(rules.pack, n, rules.hand_size, seed=seed, rng=rng, deck=deck, hands=hands,
                                    stock=stock)
        chosen = read_setup(setup, rules.setup, players=n)
        return self.state_type(self, new_deal(dealt, undealt, chosen, rules.first(chosen)))

    def new_match(self, *, deals: int | None = None, rng: random.Random | None = None,
                  first_dealer: int | None = None) -> MatchBase[TrickState]:
        """A match of ``deals`` deals (default: the spec's ``match_end.default_deals``, else
        3), what carries over given by the rules' ``carry``; the rules fix the start."""
        self.first_dealer(first_dealer)
        count = deals or self.spec.match_end.default_deals or 3
        return MatchBase(self, self.rules.carry(), deals=count, rng=rng or random.Random())


__all__ = ["TrickGame"]
