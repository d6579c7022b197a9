"""Any folkdeck bot as a token policy of the RL adapters (a learned bot, say).

The adapters spell each decision token by token (:class:`~folkdeck.rl.substeps.TokenDeal`);
a :class:`BotPolicy` asks the bot once per decision (its seat's view and legal actions,
an RNG seeded from the policy's seed and the position, so the same position always gets
the same answer) and then gives the tokens of the action it chose, one per call: its
words, ``<end>`` where a longer action shares them, and ``<wait>`` for a right declined.

- PettingZoo: ``policy.token(env.deal)`` is the action for ``env.agent_selection``;
- OpenSpiel: :meth:`BotPolicy.action_probabilities` is the ``policy.Policy`` method
  (``{token: 1.0}``) for a state of :mod:`folkdeck.rl.openspiel`.

>>> import folkdeck
>>> from folkdeck.rl import aec_env
>>> env = aec_env("kaphai")
>>> env.reset(seed=3)
>>> policy = BotPolicy(folkdeck.load("kaphai"), "heuristic", seed=1)
>>> for agent in env.agent_iter(max_iter=2000):
...     _, _, done, cut, _ = env.last()
...     env.step(None if done or cut else policy.token(env.deal))
>>> env.deal.state.is_over()
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from folkdeck.agents.registry import make_agent
from folkdeck.engine.protocol import Action, Game
from folkdeck.rl.encoding import END, WAIT, Encoding
from folkdeck.rl.substeps import TokenDeal

if TYPE_CHECKING:
    from folkdeck.rl.openspiel import FolkdeckSpielState


class BotPolicy:
    """The bot named ``bot`` of ``game`` in every seat, as a token policy."""

    def __init__(self, game: Game, bot: str = "learned", *, seed: int = 0) -> None:
        self.game, self.bot, self.seed = game, bot, seed
        self.encoding = Encoding.of(game)
        self._agents = [make_agent(game.spec, bot, game=game) for _ in range(game.num_players)]
        self._decided: tuple[tuple[int, int, int, bool], tuple[int, ...]] | None = None

    def token(self, deal: TokenDeal) -> int:
        """The next token of the bot's action for the deal's chooser.

        :raises ValueError: for a deal that is over.
        """
        seat = deal.chooser
        if seat is None:
            raise ValueError("the deal is over: no token to choose")
        key = (id(deal.state), len(deal.state.history), seat, deal.polled)
        if self._decided is None or self._decided[0] != key:
            self._decided = (key, self._spelling(deal, seat))
        tokens = self._decided[1]
        k = len(deal.chosen)
        if list(tokens[:k]) != deal.chosen:
            raise ValueError(f"the tokens chosen so far {deal.chosen} do not begin the bot's action {tokens}")
        return tokens[k] if k < len(tokens) else self.encoding.token_index[END]

    def _spelling(self, deal: TokenDeal, seat: int) -> tuple[int, ...]:
        """The tokens of the bot's choice at this decision (from its first word)."""
        state = deal.state
        legal = list(state.legal_actions(seat))
        view = state.observe(seat)
        rng = random.Random(f"{self.seed}/{len(state.history)}/{seat}/{int(deal.polled)}")
        agent = self._agents[seat]
        action: Action | None
        if deal.polled:
            interrupt = getattr(agent, "interrupt", None)
            action = interrupt(view, legal, rng) if interrupt is not None else None
            if action is None:
                return (self.encoding.token_index[WAIT],)
        else:
            action = agent.act(view, legal, rng)
        return self.encoding.spell(action)

    def action_probabilities(self, state: FolkdeckSpielState, player_id: int | None = None) -> dict[int, float]:
        """OpenSpiel's ``Policy`` method for a state of :mod:`folkdeck.rl.openspiel` (a
        player's node: the deck is dealt)."""
        assert state.deal is not None, "a chance node: OpenSpiel asks no policy there"
        return {self.token(state.deal): 1.0}


__all__ = ["BotPolicy"]
