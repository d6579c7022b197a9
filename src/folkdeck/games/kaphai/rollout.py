"""The search bots' rollout policy for Kap Hai: fast, and closer to real play than random.

A rollout plays a sampled world to its end a hundred times or more per decision, so it
runs on the engine's own action lists, without observations. Uniformly random rollouts
pass half the time and break every set, so the worlds they finish look little like a
game between people. This policy is a noisy version of how people play (『カップハイ完全攻略!』 Ⅵ,
docs/rules/kaphai.md §7, and :class:`~folkdeck.games.kaphai.agents.HeuristicAgent`):

- a leader leads its **lowest card**, in the **largest** combination that holds it
  (shed low cards, keep sets whole: Ⅵ①, docs/rules/kaphai.md §7);
- a follower plays the **cheapest** answer (plays are listed weakest first), but keeps its
  2s and bombs (kare, tong-farson, pae-kare) rather than spend them on an ordinary
  trick, passing instead, unless it would then hold only a few cards (Ⅵ⑤ and the
  advice to hold bombs for 2s, docs/rules/kaphai.md §7);
- with probability ``NOISE`` any legal action instead, so that the worlds' futures vary.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from folkdeck.engine.playout import policy_playout
from folkdeck.games.kaphai.actions import KapHaiAction
from folkdeck.games.kaphai.rules import TWO, Combo, is_bomb

if TYPE_CHECKING:
    from folkdeck.games.kaphai.state import KapHaiState

NOISE: Final = 0.2
"""The share of moves a rollout plays at random."""

SAVE_UNTIL: Final = 4
"""A follower spends a 2 or a bomb when it would leave at most this many cards."""

_TWO_BITS: Final = 0xF << (4 * TWO)


def playout(state: KapHaiState, rng: random.Random) -> None:
    """Play ``state`` (a :class:`~folkdeck.games.kaphai.state.KapHaiState`) to its end."""
    policy_playout(state, choose, rng)


def choose(state: KapHaiState, rng: random.Random) -> KapHaiAction:
    """The policy's action for the seat on turn (see the module docstring)."""
    legal = state.legal_actions()
    n = len(legal)
    deal = state.deal
    if n == 1 or deal.phase != "play" or rng.random() < NOISE:
        return legal[rng.randrange(n)]
    if deal.top is None:
        return _lead(legal, deal.hands[deal.turn])
    action = legal[0]
    if isinstance(action, Combo) and _precious(action) and \
            deal.hands[deal.turn].bit_count() - action.size > SAVE_UNTIL:
        return legal[-1]  # pass (listed last)
    return action


def _lead(legal: tuple[KapHaiAction, ...], hand: int) -> KapHaiAction:
    low = hand & -hand
    best = legal[0]
    size = 0
    for c in legal:  # a lead: plays only
        if isinstance(c, Combo) and c.mask & low and c.size > size:
            best, size = c, c.size
    return best


def _precious(combo: Combo) -> bool:
    """A 2, or a bomb (:func:`~folkdeck.games.kaphai.rules.is_bomb`): worth more kept than
    spent on an ordinary trick."""
    return bool(combo.mask & _TWO_BITS) or is_bomb(combo)


__all__ = ["NOISE", "SAVE_UNTIL", "choose", "playout"]
