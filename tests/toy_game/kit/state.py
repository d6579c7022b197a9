"""One deal of a simple trick game as a state machine, made from the game's
:class:`~tests.toy_game.kit.rules.TrickRules`: the action (:class:`Play` a card), its
refusals (the engine's shared ones), the flow of the tricks, the view, the clone and the
world a determinizer builds from a view.

>>> from tests.toy_game.kit import example_game
>>> state = example_game().new_state(hands=["9S KH AS", "10C QD JH"])
>>> [str(a) for a in state.legal_actions()]
['9S', 'KH', 'AS']
>>> [str(state.apply(state.parse_action(a))) for a in ("AS", "QD")]
['0: AS', '1: QD; trick_won']
>>> state.current_seat, state.observe(1).tricks
(0, (1, 0))
>>> try:
...     state.apply(Play(parse_card("10C")))
... except IllegalActionError as exc:
...     exc.reason, exc.params["cards"]
('not_held', '10C')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

from folkdeck.cards import Card, parse_card
from folkdeck.engine.determinize import events_of
from folkdeck.engine.errors import IllegalActionError, WrongPhaseError, not_an_action, not_held, not_your_turn
from folkdeck.engine.facts import DealEnded, Fact, Played, TrickWon
from folkdeck.engine.state_base import StateBase
from folkdeck.engine.values import Action, DealInfo, Event
from folkdeck.engine.view import TablePlay
from tests.toy_game.kit.rules import TrickDeal, TrickGameLike
from tests.toy_game.kit.view import TrickView


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` to the trick; its ``str()`` is the record grammar (the card in notation)."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)


def parse_play(text: str) -> Play:
    """An action from its notation (a card); legality is the state's business.

    >>> parse_play("10h")
    Play(card=Card.parse('10H'))

    :raises InvalidNotationError: for text that is not a card.
    """
    return Play(parse_card(text))


def describe_play(seat: int, action: Any) -> Fact:
    """The action as a fact, the shared ``played`` (``GameHooks.describe_action``).

    >>> describe_play(1, parse_play("KH")).to_dict()
    {'type': 'played', 'seat': 1, 'cards': ['KH'], 'combo': ''}
    """
    if not isinstance(action, Play):
        raise TypeError(f"not a card play: {action!r}")
    return Played(seat=seat, cards=(action.card,))


def _card(event: Event) -> Card:
    """The card an event of this game played (its every action is a :class:`Play`)."""
    play = event.action
    assert isinstance(play, Play)
    return play.card


def play_of(act: Fact) -> Play:
    """The action a view's event shows as its ``act`` fact (a one-card ``played``)."""
    if not isinstance(act, Played) or len(act.cards) != 1:
        raise ValueError(f"not a card play: {act!r}")
    return Play(act.cards[0])


class TrickState(StateBase[Play, TrickView, TrickDeal]):
    """A trick deal: made by :meth:`TrickGame.new_state
    <tests.toy_game.kit.game.TrickGame.new_state>` or, for a search, :meth:`from_view`."""

    __slots__ = ("_game",)
    _shared = ("_game",)
    """All it holds beside its deal: a clone shares them."""

    def __init__(self, game: TrickGameLike, deal: TrickDeal) -> None:
        self._game, self._n, self.deal = game, len(deal.hands), deal
        self._cache = None

    @classmethod
    def from_view(cls, game: TrickGameLike, view: TrickView, /, *, hands: Sequence[Sequence[Card]],
                  undealt: Sequence[Card] = ()) -> Self:
        """A deal ``view``'s seat (in play) cannot tell from the real one, whose hidden cards
        are ``hands`` (every seat's; the viewer's its own) and ``undealt``: the public rest
        (the trick, the tricks won, the setup, the history) is the view's."""
        events = events_of(view.history, play_of)
        played = [_card(event) for event in events]
        gone: list[list[Card]] = [[] for _ in range(view.num_players)]
        for event, card in zip(events, played, strict=True):
            gone[event.seat].append(card)
        finished = len(events) - len(view.table)  # the plays of the tricks already taken
        deal = TrickDeal(start=tuple(tuple(h) + tuple(g) for h, g in zip(hands, gone, strict=True)),
                         undealt=tuple(undealt), setup=dict(view.setup), hands=[list(h) for h in hands],
                         turn=view.to_act[0] if view.to_act else 0,
                         trick=[(p.seat, p.cards[0]) for p in view.table],
                         won=played[:finished], tricks=list(view.tricks),
                         phase=view.phase, history=list(events))
        return cls(game, deal)

    @property
    def game(self) -> TrickGameLike:
        return self._game

    @property
    def to_act(self) -> tuple[int, ...]:
        return () if self.is_over() else (self.deal.turn,)

    # --- the rules -------------------------------------------------------------------
    def _playable(self, seat: int) -> Sequence[Card]:
        return self._game.rules.playable(self.deal.hands[seat], self.deal.trick)

    def legal_actions(self, seat: int | None = None) -> tuple[Play, ...]:
        """The cards the seat on turn may play, in the pack's order (none for another seat)."""
        if self.is_over() or (seat is not None and seat != self.deal.turn):
            return ()
        return tuple(Play(c) for c in self._sorted(self._playable(self.deal.turn)))

    def verify(self, action: Action, seat: int | None = None) -> None:
        """:raises IllegalActionError: (or a subclass) with the engine's shared reasons:
        ``deal_over``, ``not_your_turn``, ``not_an_action``, ``not_held``, ``not_playable``."""
        if self.is_over():
            raise WrongPhaseError("deal_over", phase="over", action=str(action))
        s = self._seat(seat)
        if s != self.deal.turn:
            raise not_your_turn("", s, self.public_to_act(), action)
        if not isinstance(action, Play):
            raise not_an_action("", s, action)
        if action.card not in self.deal.hands[s]:
            raise not_held("", s, action, str(action.card))
        if action.card not in self._playable(s):
            raise IllegalActionError("not_playable", seat=s, action=str(action))

    def parse_action(self, text: str, seat: int | None = None) -> Play:
        return parse_play(text)

    def apply(self, action: Action, seat: int | None = None) -> Event:
        self.verify(action, seat)
        assert isinstance(action, Play)  # verify refuses any other action
        deal = self.deal
        s = deal.turn
        deal.hands[s].remove(action.card)
        deal.trick.append((s, action.card))
        deal.turn = (s + 1) % self._n
        facts = self._take_trick() if len(deal.trick) == self._n else ()
        event = Event(s, action, facts)
        deal.history.append(event)
        return event

    def _take_trick(self) -> tuple[Fact, ...]:
        """The full trick goes to its winner, who leads next; the last one ends the deal."""
        deal, rules = self.deal, self._game.rules
        winner = deal.turn = rules.winner(deal.trick)
        deal.tricks[winner] += 1
        deal.won.extend(c for _, c in deal.trick)
        deal.trick.clear()
        taken = TrickWon(seat=winner, leader=winner)
        if any(deal.hands):
            return (taken,)
        result = deal.result = rules.score(deal.tricks)
        deal.phase = "over"
        return (taken, DealEnded(reason=result.reason,
                                 winners=tuple(s for s, p in enumerate(result.placings) if p == 1)))

    # --- what leaves the engine ------------------------------------------------------
    def _sorted(self, cards: Sequence[Card]) -> tuple[Card, ...]:
        return tuple(sorted(cards, key=self._game.rules.strength))

    def observe(self, seat: int | None) -> TrickView:
        core = self._view_core(seat, self.to_act, describe_play)
        deal = self.deal
        trick = deal.trick
        top = None
        if trick:
            leading = self._game.rules.winner(trick)
            top = TablePlay(seat=leading, cards=tuple(c for s, c in trick if s == leading))
        return TrickView(
            **core, game=self._game.spec.name, phase=deal.phase,
            hand=self._sorted(deal.hands[seat]) if seat is not None else None,
            counts=tuple(len(h) for h in deal.hands),
            table=tuple(TablePlay(seat=s, cards=(c,)) for s, c in trick), top=top,
            tricks=tuple(deal.tricks), setup=dict(deal.setup))

    def deal_info(self) -> DealInfo:
        return {"setup": dict(self.deal.setup), "hands": [[str(c) for c in hand] for hand in self.deal.start]}

    def all_cards(self) -> dict[str, tuple[Card, ...]]:
        deal = self.deal
        places = {f"hand {s}": tuple(h) for s, h in enumerate(deal.hands)}
        places.update(trick=tuple(c for _, c in deal.trick), won=tuple(deal.won), undealt=deal.undealt)
        return places

    def hidden_cards(self, seat: int | None) -> tuple[Card, ...]:
        others = (c for s, h in enumerate(self.deal.hands) if s != seat for c in h)
        return (*others, *self.deal.undealt)

    def __repr__(self) -> str:
        return f"<TrickState {self._game.spec.name} {self.deal.phase} to_act={self.to_act} tricks={self.deal.tricks}>"


__all__ = ["Play", "TrickState", "describe_play", "parse_play", "play_of"]
