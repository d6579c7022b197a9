"""One toy deal as a state machine: a :class:`~folkdeck.engine.state_base.StateBase`.

>>> from tests.toy_game.game import ToyGame
>>> from tests.toy_game import SPEC
>>> from tests.toy_game.options import ToyOptions
>>> state = ToyGame(SPEC, ToyOptions()).new_state(hands=["9S KH AS", "10C QD JH"])
>>> [str(a) for a in state.legal_actions()]
['9S', 'KH', 'AS']
>>> [str(state.apply(a)) for a in (state.parse_action("AS"), state.parse_action("QD"))]
['0: AS', '1: QD; trick_won']
>>> state.current_seat, state.observe(1).tricks
(0, (1, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Self

from folkdeck.cards import Card
from folkdeck.engine.determinize import events_of
from folkdeck.engine.errors import WrongPhaseError, not_an_action, not_held, not_your_turn
from folkdeck.engine.facts import DealEnded, Fact, Played, TrickWon
from folkdeck.engine.protocol import Event, Result
from folkdeck.engine.spec import DescribeAction
from folkdeck.engine.state_base import StateBase
from folkdeck.engine.view import TablePlay, ViewCore
from tests.toy_game.actions import Play, ToyAction, parse_action
from tests.toy_game.deal import ToyDeal
from tests.toy_game.events import describe_action
from tests.toy_game.observation import ToyView
from tests.toy_game.rules import STRENGTH, placings, trick_winner

if TYPE_CHECKING:
    from tests.toy_game.game import ToyGame


def _sorted(cards: list[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=STRENGTH.__getitem__))


def _action_of(act: Fact) -> Play:
    """The action a view's event shows as its ``act`` fact (a toy event's is ``played``)."""
    if not isinstance(act, Played) or len(act.cards) != 1:
        raise ValueError(f"not a toy action: {act!r}")
    return Play(act.cards[0])


class ToyState(StateBase[ToyAction, ToyView, ToyDeal]):
    """A toy deal; made by :meth:`ToyGame.new_state` or, for a search, :meth:`from_view`."""

    __slots__ = ("_game", "_n", "deal")

    def __init__(self, game: ToyGame, deal: ToyDeal) -> None:
        self._game, self._n, self.deal = game, len(deal.hands), deal
        self._cache = None

    @classmethod
    def from_view(cls, game: ToyGame, view: ToyView, /, *, hands: Sequence[Sequence[Card]],
                  undealt: Sequence[Card] = ()) -> Self:
        """A deal ``view``'s seat cannot tell from the real one, whose hidden cards are
        ``hands`` (every seat's, the viewer's its own) and ``undealt``: the public rest
        (the table, the tricks, the history) is the view's."""
        events = events_of(view.history, _action_of)
        gone: list[list[Card]] = [[] for _ in range(view.num_players)]
        for event in events:
            gone[event.seat].append(event.action.card)
        table = [c for play in view.table for c in play.cards]
        deal = ToyDeal(start=tuple(tuple(h) + tuple(g) for h, g in zip(hands, gone, strict=True)),
                       undealt=tuple(undealt), leader=view.leader, hands=[list(h) for h in hands],
                       trick=[(p.seat, p.cards[0]) for p in view.table],
                       won=[c for g in gone for c in g if c not in table], tricks=list(view.tricks),
                       turn=view.to_act[0], phase=view.phase, history=list(events))
        return cls(game, deal)

    # --- the read side (StateBase reads phase, history and result from the deal) ------
    @property
    def game(self) -> ToyGame:
        return self._game

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.is_over() else (self.deal.turn,)

    # --- the rules -------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> tuple[ToyAction, ...]:
        """Every card of the hand on turn, weakest first (none for another seat)."""
        if self.is_over() or (seat is not None and seat != self.deal.turn):
            return ()
        return tuple(Play(c) for c in _sorted(self.deal.hands[self.deal.turn]))

    def verify(self, action: ToyAction, seat: int | None = None) -> None:
        """:raises IllegalActionError: (or a subclass) naming why ``action`` is refused."""
        if self.is_over():
            raise WrongPhaseError("deal_over", phase="over", action=str(action))
        s = self._seat(seat)
        if s != self.deal.turn:
            raise not_your_turn("toy", s, self.public_to_act(), action)
        if not isinstance(action, Play):
            raise not_an_action("toy", s, action)
        if action.card not in self.deal.hands[s]:
            raise not_held("toy", s, action, str(action.card))

    def parse_action(self, text: str, seat: int | None = None) -> ToyAction:
        return parse_action(text)

    def apply(self, action: ToyAction, seat: int | None = None) -> Event:
        self.verify(action, seat)
        deal = self.deal
        s = deal.turn
        deal.hands[s].remove(action.card)
        deal.trick.append((s, action.card))
        facts: list[Fact] = []
        deal.turn = (s + 1) % self._n
        if len(deal.trick) == self._n:
            winner = deal.turn = trick_winner(deal.trick)
            deal.tricks[winner] += 1
            deal.won.extend(c for _, c in deal.trick)
            deal.trick.clear()
            facts.append(TrickWon(seat=winner, leader=winner))
            if not any(deal.hands):
                places = placings(deal.tricks)
                deal.phase = "over"
                deal.result = Result(placings=places, returns=tuple(map(float, deal.tricks)),
                                     reason="most_tricks")
                facts.append(DealEnded(reason="most_tricks",
                                       winners=tuple(s for s, p in enumerate(places) if p == 1)))
        event = Event(s, action, tuple(facts))
        deal.history.append(event)
        return event

    # --- what leaves the engine ------------------------------------------------------
    def _view(self, core: ViewCore, seat: int | None) -> ToyView:
        """The toy's own part of a view; StateBase made the common ``core``."""
        deal = self.deal
        trick = deal.trick
        top = max(trick, key=lambda play: STRENGTH[play[1]]) if trick else None
        return ToyView(
            **core, game="toy", phase=deal.phase,
            hand=_sorted(deal.hands[seat]) if seat is not None else None,
            counts=tuple(len(h) for h in deal.hands),
            table=tuple(TablePlay(seat=s, cards=(c,)) for s, c in trick),
            top=TablePlay(seat=top[0], cards=(top[1],)) if top is not None else None,
            tricks=tuple(deal.tricks), leader=deal.leader)

    def _describe(self) -> DescribeAction:
        return describe_action

    def clone(self) -> Self:
        new = type(self).__new__(type(self))
        new._game, new._n, new.deal = self._game, self._n, self.deal.copy()
        new._cache = self._cache.copy() if self._cache is not None else None
        return new

    def deal_info(self) -> dict[str, Any]:
        return {"setup": {"leader": self.deal.leader},
                "hands": [[str(c) for c in hand] for hand in self.deal.start]}

    def all_cards(self) -> dict[str, tuple[Card, ...]]:
        deal = self.deal
        places = {f"hand {s}": tuple(h) for s, h in enumerate(deal.hands)}
        places.update(trick=tuple(c for _, c in deal.trick), won=tuple(deal.won), undealt=deal.undealt)
        return places

    def hidden_cards(self, seat: int | None) -> tuple[Card, ...]:
        others = (c for s, h in enumerate(self.deal.hands) if s != seat for c in h)
        return (*others, *self.deal.undealt)

    def __repr__(self) -> str:
        return f"<ToyState {self.deal.phase} to_act={self.to_act} tricks={self.deal.tricks}>"
