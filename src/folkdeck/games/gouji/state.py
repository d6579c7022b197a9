"""One deal of Gou Ji as an explicit state machine (docs/rules/gouji.md).

Phases, in order: ``start`` (special deals: seats that drew two same-suit 3s may
``declare`` to lead), ``revolution`` (hands without 2s and jokers may call 革命;
teammates ``object``; the caller may ``withdraw``), ``tribute`` (receivers
``return`` cards), ``play``, ``over``. In ``play``, gouji (够级) starts a duel with
the opposite; before the opposite answers, the two opponents beside the gouji player
are asked in turn (X+1 first) whether they ``burn`` (烧牌) or say ``no`` (with
``ask_all_seats``, the default, whenever they hold cards, so that the question tells
nothing; without it, only when they can burn); 先让让 is an optional ``xian`` by a seat
listed second in :attr:`to_act`.

A short deal from a study position (seat 0 leads; the others hold little). Seat 3's
gouji asks seats 4 and 2, beside it, whether they burn, before seat 0 answers:

>>> from folkdeck import load
>>> state = load("gouji").new_state(
...     hands=["9S 9H 2C", "10S", "3S", "KS KH", "4S", "5S 6S"], setup={"leader": 0})
>>> state.apply(state.parse_action("9 9")).line
'0: 9 9'
>>> [str(a) for a in state.legal_actions()]      # 10S cannot beat a pair
['pass', 'open']
>>> for text in ["pass", "pass", "K K", "no", "no", "pass", "4", "5", "pass", "10", "pass", "pass"]:
...     print(state.apply(state.parse_action(text)))
1: pass
2: pass
3: K K; gouji.went_out; gouji.gouji; gouji.burn_window
4: no
2: no; gouji.answers
0: pass; trick_won
4: 4; gouji.went_out
5: 5
0: pass
1: 10; gouji.went_out
2: pass
5: pass; trick_won
>>> state.apply(state.parse_action("2"))
Traceback (most recent call last):
...
folkdeck.engine.errors.IllegalActionError: seat 2 does not hold 2
>>> for text in ["3", "6"]:
...     print(state.apply(state.parse_action(text)))
2: 3; gouji.went_out
5: 6; gouji.went_out; gouji.deal_over
>>> state.result().placings, state.result().returns
((6, 3, 4, 1, 2, 5), (-2.0, 2.0, -2.0, 2.0, -2.0, 2.0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from folkdeck.cards import Card
from folkdeck.engine.errors import WrongPhaseError, not_an_action, not_your_turn
from folkdeck.engine.facts import Fact
from folkdeck.engine.state_base import StateBase
from folkdeck.engine.values import Action, DealInfo, Event, new_event
from folkdeck.games.gouji.actions import ACTION_TYPES, PASS, Burn, GouJiAction, Return, parse_action
from folkdeck.games.gouji.deal import GouJiDeal, hand_cards, new_deal
from folkdeck.games.gouji.dealing import SEATS, Setup
from folkdeck.games.gouji.events import describe_action
from folkdeck.games.gouji.legal import (
    check_named,
    play_actions,
    verify_play,
    verify_turn,
    window_actions,
    window_reason,
)
from folkdeck.games.gouji.observation import GouJiView, build_view, censor_history, deal_from_view, shown_to
from folkdeck.games.gouji.options import GouJiGameLike
from folkdeck.games.gouji.play import GouJiFlow
from folkdeck.games.gouji.prelude import WINDOW_WORDS, Prelude
from folkdeck.games.gouji.rules import Play, named_cards, with_cards


class GouJiState(StateBase[GouJiAction, GouJiView, GouJiDeal]):
    """A Gou Ji deal. Build it with :meth:`GouJiGame.new_state`.

    Its data is one :class:`~folkdeck.games.gouji.deal.GouJiDeal` (``deal``); its rules
    are the :class:`~folkdeck.games.gouji.play.GouJiFlow` and
    :class:`~folkdeck.games.gouji.prelude.Prelude` made from the game's options (with the
    :class:`~folkdeck.games.gouji.modern.ModernRules` they choose), shared by its clones.
    """

    _shared = ("_game", "_flow", "_prelude", "_handed")
    """All it holds beside its deal: a clone shares them."""
    _game: GouJiGameLike
    _flow: GouJiFlow
    _prelude: Prelude
    _handed: tuple[GouJiAction, ...] | None = None
    """The play phase's legal list as :meth:`legal_actions` last gave it for this very
    position (cleared by every :meth:`apply`): a set equal to one of them and naming no
    cards is legal without verifying it again (docs/rules/gouji.md §8)."""

    def __init__(self, game: GouJiGameLike, hands: list[list[Card]], setup: Setup, *,
                 leader: int, claims: list[int], naming: bool = False,
                 asks_start: bool = False) -> None:
        """``claims``: the seats that completed two 3s of one suit, in that order;
        ``asks_start``: the deal has a 3s start (a special deal without a fixed leader)."""
        flow = GouJiFlow(game.options)
        d = new_deal(hands, setup, leader=leader, claims=claims, naming=naming)
        self._assemble(game, flow, Prelude(flow), d)
        d.queue = list(claims)
        # The 3s start asks every seat in turn from the first drawer; the earliest claim
        # among the declarers leads (not the first declarer asked).
        d.start_all = asks_start and flow.opts.ask_all_seats
        if d.start_all:
            d.queue = [t for t in ((leader + k) % SEATS for k in range(SEATS)) if d.left[t]]
        if naming:
            assert setup.da_la is not None
            d.phase = "drawer"
            d.queue = [setup.da_la]
        elif not d.queue:
            self._prelude.begin_revolution(d, [])

    def _assemble(self, game: GouJiGameLike, flow: GouJiFlow, prelude: Prelude, deal: GouJiDeal) -> None:
        self._game = game
        self._n = SEATS
        self._flow = flow
        self._prelude = prelude
        self.deal = deal
        self._cache = None

    # --- the protocol's read side ------------------------------------------------
    @property
    def game(self) -> GouJiGameLike:
        return self._game

    @property
    def to_act(self) -> tuple[int, ...]:
        d = self.deal
        phase = d.phase
        if phase == "play":
            if d.window:
                return (d.window[0],)
            if d.xian_offer >= 0:
                return (d.turn, d.xian_offer)
            if self._flow.opts.strict_penalty:
                foul = self._flow.modern.xian_foul_seat(d)
                if foul >= 0:
                    return (d.turn, foul)
            return (d.turn,)
        if phase in WINDOW_WORDS or phase == "drawer":
            return (d.queue[0],)
        if phase == "tribute":
            return (d.pairs[0][1],)
        return ()

    @property
    def leader(self) -> int:
        """The seat that leads the first trick (上班 Shang Ban)."""
        return self.deal.leader

    @property
    def setup(self) -> Setup:
        return self.deal.setup

    @property
    def thresholds(self) -> dict[int, int]:
        """The gouji thresholds of the options: the count of each rank that makes a gouji."""
        return self._flow.thresholds

    def hand_counts(self, seat: int) -> tuple[int, ...]:
        """Rank counts of a seat's hand (the engine's view: not for agents)."""
        return tuple(self.deal.counts[seat])

    def reorder_members(self, seat: int) -> tuple[int, ...]:
        """The remaining seats of ``seat``'s team in their turn positions' order."""
        return self._flow.reorder_members(self.deal, seat)

    # --- legal actions -------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> tuple[GouJiAction, ...]:
        """Windows: the action then the decline. Play: sets by represented rank, then by
        naturals and wilds ascending; then ``pass`` (when following) and ``open``.
        Burning: ``burn`` sets then ``no``. Tribute: ``return`` choices ascending."""
        d = self.deal
        phase = d.phase
        if phase == "play" and not d.window and (seat is None or seat == d.turn):
            handed = self._handed = play_actions(self._flow, d, d.turn)
            return handed
        if phase == "over":
            return ()
        s = self._seat(seat)
        acting = self.to_act
        if s not in acting:
            return ()
        return window_actions(self._flow, d, s, acting)

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise the reason an action is illegal now; return ``None`` if it is legal.

        :raises WrongPhaseError: the deal is over, or the action belongs to another phase.
        :raises NotYourTurnError: the seat may not act now.
        :raises IllegalActionError: the rules refuse it (the message says why).
        """
        d = self.deal
        phase = d.phase
        if phase == "play" and not d.window and (seat is None or seat == d.turn):
            if action is PASS and d.top is not None and not d.to_end >> d.turn & 1:
                return
            if isinstance(action, Play):
                verify_play(self._flow, d, d.turn, action, d.top)
                return
        if phase == "over":
            raise WrongPhaseError("gouji.deal_over_action", phase="over", action=str(action))
        s = self._seat(seat)
        acting = self.to_act
        if s not in acting:
            raise not_your_turn("gouji", s, self._view_to_act(s), action)
        if not isinstance(action, ACTION_TYPES):
            raise not_an_action("gouji", s, action)
        if phase in WINDOW_WORDS or phase in ("tribute", "drawer") or d.window \
                or s != acting[0]:
            legal = self.legal_actions(s)
            if action not in legal:
                reason, params = window_reason(self._flow, d, s, action, legal)
                raise WrongPhaseError(reason, seat=s, action=str(action), phase=phase, **params)
            named = action.cards if isinstance(action, Return) else \
                action.play.cards if isinstance(action, Burn) else None
            if named is not None:
                check_named(d, s, named, str(action))
            return
        verify_turn(self._flow, d, s, action)

    def parse_action(self, text: str, seat: int | None = None) -> GouJiAction:
        """Read ``text`` in the record grammar; legality is checked by :meth:`apply`.

        A set (also after ``burn`` or ``return``) may name cards by suit: ``QC QC QH``.
        Suits never change what a set is (the action equals, and is written as, ``Q Q Q``),
        but the cards named are the ones the seat (default: the first to act) gives up:
        the action carries them (:attr:`Play.cards <folkdeck.games.gouji.rules.Play.cards>`)
        and the engine takes exactly those copies. Cards the seat does not hold are refused
        here, never replaced by others of the rank.

        :raises InvalidNotationError: for text outside the grammar.
        :raises IllegalActionError: ``gouji.cards_not_held``: the seat does not hold a card
            it named (``cards``: the missing ones).
        """
        action = parse_action(text)
        named = named_cards(text)
        if not named or not isinstance(action, Play | Burn | Return):
            return action
        acting = self.to_act
        s = seat if seat is not None else (acting[0] if acting else None)
        if s is None or not 0 <= s < SEATS:
            return action  # nobody to hold them: apply refuses the action anyway
        check_named(self.deal, s, named, str(action))
        if isinstance(action, Play):
            return with_cards(action, named)
        if isinstance(action, Burn):
            return Burn(with_cards(action.play, named))
        return replace(action, cards=named)

    # --- transitions ---------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn)."""
        d = self.deal
        phase = d.phase
        s = d.turn if seat is None and phase == "play" and not d.window else self._seat(seat)
        handed = self._handed
        if handed is None or s != d.turn or not isinstance(action, Play) or action.cards is not None \
                or action not in handed:
            self.verify(action, s)
        self._handed = None
        notes: list[Fact] = []
        if phase == "play":
            action = self._flow.apply_play(d, s, action, notes)  # a set: with the cards it took
        elif phase == "tribute":
            assert isinstance(action, Return)
            self._prelude.give_back(d, s, action, notes)
        else:
            self._prelude.answer(d, s, action, notes)
        event = new_event((s, action, tuple(notes)))
        d.history.append(event)
        return event

    # --- views, copies, records ----------------------------------------------------
    def public_to_act(self) -> tuple[int, ...]:
        """The seats of ``to_act`` every viewer may see (docs/rules/gouji.md §11.23). Public: the
        drawer, tribute, objection and withdrawal turns, play, re-order windows, a 先让让
        offer (the trick shows it) and ``strict_penalty``'s false-claim seat. With
        ``ask_all_seats`` (the default) the 3s start, revolution and burning windows ask
        every seat the public facts could entitle, so they are public too; without it
        (old records) who is asked there depends on hidden cards and is hidden, unless
        ``strict_penalty`` asks every seat of the revolution and burning windows."""
        acting = self.to_act
        opts = self._flow.opts
        if opts.ask_all_seats:
            return acting
        d = self.deal
        phase = d.phase
        strict = opts.strict_penalty
        if phase == "start" or (phase == "revolution" and not strict) or (
                phase == "play" and d.window_kind == "burn" and not strict):
            return ()
        return acting

    def _view_to_act(self, seat: int | None) -> tuple[int, ...]:
        """``to_act`` as ``seat`` may see it: :meth:`public_to_act`, and ``seat`` itself."""
        public = self.public_to_act()
        return tuple(s for s in self.to_act if s in public or s == seat)

    def observe(self, seat: int | None) -> GouJiView:
        """The view of ``seat`` (``None``: a spectator): never another seat's hidden cards.
        Its ``to_act`` is :meth:`_view_to_act`; in its history a tribute return names its
        cards to the returning seat alone
        (:func:`~folkdeck.games.gouji.observation.censor_history`)."""
        core = self._view_core(seat, self._view_to_act(seat), describe_action)
        core["history"] = censor_history(core["history"], seat)
        return build_view(core, self.deal, self._flow.opts, seat)

    @classmethod
    def from_view(cls, game: GouJiGameLike, view: GouJiView, *, hands: Sequence[Sequence[Card]],
                  played: Sequence[Card], events: Sequence[Event]) -> GouJiState:
        """A play-phase position that ``view``'s seat cannot tell from the real one: the
        view's public facts with ``hands`` (every seat's, the viewer's and the shown
        hands as the view has them) and ``played`` (every card played this deal, the
        current trick's as the view's ``table`` shows them) filled in by the caller (a
        determinizer). ``events`` is the deal's history rebuilt from the view
        (:func:`folkdeck.engine.determinize.events_of` with the game's ``action_of``).

        :raises WrongPhaseError: for a view outside the play phase or in a window.
        """
        if view.phase != "play" or view.window or view.current_seat is None:
            raise WrongPhaseError("gouji.not_searchable", phase=str(view.phase))
        options = game.options
        deal = deal_from_view(view, hands=hands, played=played, events=events,
                              modern_burning=options.modern_burning,
                              strict_penalty=options.strict_penalty)
        state = cls.__new__(cls)
        flow = GouJiFlow(options)
        state._assemble(game, flow, Prelude(flow), deal)
        return state

    def deal_info(self) -> DealInfo:
        d = self.deal
        return {"setup": d.setup.to_dict(), "hands": [[str(c) for c in h] for h in d.start_hands]}

    def all_cards(self) -> dict[str, tuple[Card, ...]]:
        d = self.deal
        places = {f"hand {s}": hand_cards(d, s) for s in range(SEATS)}
        places["played"] = tuple(d.played)
        if d.pending is not None:
            places["pack"] = tuple(c for h in d.pending for c in h)
        return places

    def hidden_cards(self, seat: int | None) -> tuple[Card, ...]:
        d = self.deal
        shown = shown_to(d, self._flow.opts, seat)
        pack = () if d.pending is None else tuple(c for h in d.pending for c in h)
        return pack + tuple(c for s in range(SEATS) if s != seat and s not in shown
                            for c in hand_cards(d, s))

    def __repr__(self) -> str:
        d = self.deal
        return f"<GouJiState {d.phase} to_act={self.to_act} top={d.top} mode={d.mode} left={d.left}>"
