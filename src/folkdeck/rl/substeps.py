"""A deal played token by token: the decision protocol every RL adapter shares.

**Who chooses.** Before each decision of the seat on turn (``state.to_act[0]``), every
other seat of ``state.to_act`` with legal actions is *polled*, in ``to_act`` order: it
may take its out-of-turn right (a putuh, burning, the cucco) or choose ``<wait>``. A seat
that waited is not asked again until an action changes the position; then the seat on
turn chooses, and may not wait. This is the order in which ``folkdeck.sim.runner`` offers
interrupts to bots, so the RL seats and the project's bots see the same game.

**How a choice is made.** The chooser picks the words of its action one token at a time
(:mod:`folkdeck.rl.encoding`). The mask allows exactly the tokens that continue the spelling
of at least one legal action; ``<end>`` is allowed when the words so far spell a legal
action that other legal actions extend. As soon as the words chosen fit one legal action
only, that action is played. Hence every legal action is reachable (follow its spelling)
and nothing else is (every allowed token keeps a legal action in reach, and an action is
played only when it is the one left or ``<end>`` names it exactly).

>>> import folkdeck
>>> from folkdeck.rl.encoding import Encoding
>>> game = folkdeck.load("kaphai")
>>> deal = TokenDeal(Encoding.of(game), game.new_state(seed=3))
>>> deal.chooser, len(deal.legal_tokens()) > 0
(0, True)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np  # type: ignore[import-not-found, unused-ignore]
import numpy.typing as npt  # type: ignore[import-not-found, unused-ignore]

from folkdeck.engine.protocol import Action, Event, State
from folkdeck.rl.encoding import END, WAIT, Encoding


class IllegalTokenError(ValueError):
    """A token the mask does not allow."""


class TokenDeal:
    """One deal of a game seen as a sequence of token choices."""

    __slots__ = ("enc", "state", "chosen", "waited", "_seat", "_polled", "_candidates",
                 "_wait", "_end")

    def __init__(self, enc: Encoding, state: State) -> None:
        self.enc = enc
        self.state = state
        self.chosen: list[int] = []
        """The tokens chosen so far in the current decision."""
        self.waited: set[int] = set()
        """Seats that declined their out-of-turn right since the last action."""
        self._seat: int | None = None
        self._polled = False
        self._candidates: list[tuple[tuple[int, ...], Action]] | None = None
        self._wait = enc.token_index[WAIT]
        self._end = enc.token_index[END]

    def clone(self) -> TokenDeal:
        new = TokenDeal(self.enc, self.state.clone())
        new.chosen = list(self.chosen)
        new.waited = set(self.waited)
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> TokenDeal:
        # OpenSpiel clones a Python state by deep-copying its attributes: the engine's
        # own clone is the fast and correct copy.
        return self.clone()

    # --- the decision --------------------------------------------------------------------

    def _decide(self) -> None:
        """Find the chooser and its candidate actions (spelled), once per decision."""
        if self._candidates is not None:
            return
        state = self.state
        self._seat, self._polled, self._candidates = None, False, []
        if state.is_over():
            return
        acting = state.to_act
        for seat in acting[1:]:
            if seat in self.waited or seat == acting[0]:
                continue
            legal = state.legal_actions(seat)
            if legal:
                self._seat, self._polled = seat, True
                self._candidates = [(self.enc.spell(a), a) for a in legal]
                return
        self._seat = acting[0]
        self._candidates = [(self.enc.spell(a), a) for a in state.legal_actions(acting[0])]

    @property
    def chooser(self) -> int | None:
        """The seat that chooses the next token (``None``: the deal is over)."""
        self._decide()
        return self._seat

    @property
    def polled(self) -> bool:
        """Whether the chooser is being offered an out-of-turn right (it may ``<wait>``)."""
        self._decide()
        return self._polled

    def _live(self) -> list[tuple[tuple[int, ...], Action]]:
        """The candidates whose spelling starts with the tokens chosen so far."""
        self._decide()
        assert self._candidates is not None
        k = len(self.chosen)
        prefix = tuple(self.chosen)
        return [c for c in self._candidates if c[0][:k] == prefix]

    def legal_tokens(self) -> list[int]:
        """The tokens the chooser may pick now, ascending."""
        live = self._live()
        k = len(self.chosen)
        tokens = {spelling[k] for spelling, _ in live if len(spelling) > k}
        if k and any(len(spelling) == k for spelling, _ in live):
            tokens.add(self._end)
        if self._polled and not k:
            tokens.add(self._wait)
        return sorted(tokens)

    def mask(self) -> npt.NDArray[np.int8]:
        out = np.zeros(self.enc.num_tokens, dtype=np.int8)
        if self.chooser is not None:
            out[self.legal_tokens()] = 1
        return out

    def legal_actions(self) -> list[Action]:
        """The chooser's game actions still in reach."""
        return [a for _, a in self._live()]

    def choose(self, token: int) -> Event | None:
        """Take one token; returns the event when it completed an action.

        :raises IllegalTokenError: for a token the mask does not allow.
        """
        if token not in self.legal_tokens():
            raise IllegalTokenError(f"token {token} ({self.enc.tokens[token] if 0 <= token < self.enc.num_tokens else '?'}) "
                                    f"is not allowed now; allowed: {self.legal_tokens()}")
        if token == self._wait:
            assert self._seat is not None
            self.waited.add(self._seat)
            self._candidates = None
            return None
        if token == self._end:
            exact = [a for spelling, a in self._live() if len(spelling) == len(self.chosen)]
            return self._play(exact[0])
        self.chosen.append(token)
        live = self._live()
        if len(live) == 1:
            return self._play(live[0][1])
        return None

    def play(self, action: Action) -> list[int]:
        """Choose every token of ``action`` (a legal action of the chooser); the tokens."""
        spelling = self.enc.spell(action)
        taken: list[int] = []
        for token in spelling:
            taken.append(token)
            if self.choose(token) is not None:
                return taken
        taken.append(self._end)
        self.choose(self._end)
        return taken

    def _play(self, action: Action) -> Event:
        seat = self._seat
        self.chosen = []
        self.waited = set()
        self._candidates = None
        return self.state.apply(action, seat)

    # --- what a seat sees ------------------------------------------------------------------

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation: its view, plus its own tokens chosen in this decision."""
        mine = self.chooser == seat
        return self.enc.observe(self.state.observe(seat), self.chosen if mine else (),
                                self._polled and mine)

    def returns(self) -> tuple[float, ...]:
        result = self.state.result()
        return tuple(result.returns) if result is not None else (0.0,) * self.state.num_players


def spelled_actions(enc: Encoding, actions: Sequence[Action]) -> dict[tuple[int, ...], Action]:
    """Each action by its spelling (raises if two actions share one)."""
    out: dict[tuple[int, ...], Action] = {}
    for action in actions:
        spelling = enc.spell(action)
        if spelling in out:
            raise ValueError(f"{enc.game}: actions {out[spelling]} and {action} have one spelling")
        out[spelling] = action
    return out


__all__ = ["IllegalTokenError", "TokenDeal", "spelled_actions"]
