"""The result of a Cangkul or Burro deal, as pure functions of the final hands.

Three ways a deal ends: a player empties the hand (Cangkul: that player wins, seed
「手札がなくなったプレイヤーの勝ち」); the drop-out order is complete (Cangkul variation 1
and the Burros: the last holder loses); or a stalemate (``stall_limit``, an engine gap
rule, ``docs/rules/cangkul.md``).

>>> from folkdeck.games.cangkul.options import CangkulOptions
>>> from folkdeck.games.cangkul.rules import ruleset
>>> rules = ruleset(CangkulOptions(players=3))
>>> result = stalemate(rules, [2, 1, 1], [], 100)
>>> result.returns, result.details["winners"]
((0.0, 0.5, 0.5), [1, 2])
"""

from __future__ import annotations

from collections.abc import Sequence

from folkdeck.engine.protocol import Result
from folkdeck.games.cangkul.rules import Ruleset


def _ranks(left: Sequence[int], seats: Sequence[int], start: int) -> dict[int, int]:
    """Places from ``start`` by cards held (fewer is better; a tie shares the place)."""
    return {s: start + sum(1 for t in seats if left[t] < left[s]) for s in seats}


def out_result(rules: Ruleset, left: Sequence[int], winner: int) -> Result:
    """``winner`` emptied the hand (Cangkul without drop-out)."""
    n = len(left)
    if rules.score == "cards_left_penalty":
        placings: list[int | None] = [p for _, p in sorted(_ranks(left, range(n), 1).items())]
        returns = [-float(c) for c in left]
    else:
        placings = [1 if s == winner else None for s in range(n)]
        returns = [1.0 if s == winner else 0.0 for s in range(n)]
    return Result(tuple(placings), tuple(returns), "out", {"winner": winner, "cards_left": list(left)})


def last_holder_result(rules: Ruleset, left: Sequence[int], order: Sequence[int]) -> Result:
    """The drop-out order is complete: its last seat, the last holder, loses."""
    n = len(left)
    loser = order[-1]
    placings: list[int | None] = [None] * n
    for place, s in enumerate(order, 1):
        placings[s] = place
    penalty = float(left[loser]) if rules.score == "cards_left_penalty" else 1.0
    returns = [-penalty if s == loser else 0.0 for s in range(n)]
    return Result(tuple(placings), tuple(returns), "last_holder",
                  {"loser": loser, "order": list(order), "cards_left": list(left)})


def stalemate(rules: Ruleset, left: Sequence[int], order: Sequence[int], tricks: int) -> Result:
    """The deal stopped moving for ``tricks`` tricks: the fewest cards win (a tie shares
    the win), or with drop-out (``order``: the seats out so far) the most cards lose (a
    tie shares the loss). ``details`` name the ``winners`` (or ``losers``)."""
    details: dict[str, object] = {"stalemate": True, "stall_tricks": tricks, "cards_left": list(left)}
    if rules.drop_out:
        placings, returns = _most_cards_lose(rules, left, order, details)
    else:
        placings, returns = _fewest_cards_win(rules, left, details)
    return Result(tuple(placings), tuple(returns), "stalemate", details)


def _fewest_cards_win(rules: Ruleset, left: Sequence[int],
                      details: dict[str, object]) -> tuple[list[int | None], list[float]]:
    """A stalemate without drop-out: ``(placings, returns)``; names the winners in ``details``."""
    n = len(left)
    fewest = min(left)
    winners = [s for s in range(n) if left[s] == fewest]
    placings: list[int | None]
    if rules.score == "cards_left_penalty":
        placings = [p for _, p in sorted(_ranks(left, range(n), 1).items())]
        returns = [0.0 if s in winners else -float(left[s]) for s in range(n)]
    else:
        placings = [1 if s in winners else None for s in range(n)]
        returns = [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]
    details["winners"] = winners
    if len(winners) == 1:
        details["winner"] = winners[0]
    return placings, returns


def _most_cards_lose(rules: Ruleset, left: Sequence[int], order: Sequence[int],
                     details: dict[str, object]) -> tuple[list[int | None], list[float]]:
    """A stalemate with drop-out: the seats out keep their places, the others are ranked by
    cards left; ``(placings, returns)``; names the losers in ``details``."""
    n = len(left)
    still = [s for s in range(n) if left[s]]
    most = max(left[s] for s in still)
    losers = [s for s in still if left[s] == most]
    placings: list[int | None] = [None] * n
    for place, s in enumerate(order, 1):
        placings[s] = place
    for s, place in _ranks(left, still, len(order) + 1).items():
        placings[s] = place
    if rules.score == "cards_left_penalty":
        returns = [-float(most) if s in losers else 0.0 for s in range(n)]
    else:
        returns = [-1.0 / len(losers) if s in losers else 0.0 for s in range(n)]
    details.update(losers=losers, order=list(order))
    if len(losers) == 1:
        details["loser"] = losers[0]
    return placings, returns


__all__ = ["last_holder_result", "out_result", "stalemate"]
