"""One deal of Kap Hai as an explicit state machine (docs/rules/kaphai.md §2, §8).

Phases (:class:`~folkdeck.games.kaphai.observation.KapHaiPhase`): ``putuh`` (only with
``putuh_optional``: before the first lead every seat in turn declares or passes — or,
without ``ask_all_seats``, only the seats holding a putuh), ``play`` (tricks), ``over``.
Events carry typed facts (:mod:`folkdeck.games.kaphai.events`).

A short deal from a study position (the record example of ``docs/records.md``):

>>> from folkdeck import load
>>> state = load("kaphai").new_state(
...     hands=["4C 4D 9S", "4S 4H 5S 5H 3C 3D", "KS", "AS"],
...     setup={"three_game": False, "leader": 0})
>>> [str(a) for a in state.legal_actions()]
['4C', '4D', '9S', '4C 4D']
>>> print(state.apply(state.parse_action("4C 4D")))
0: 4C 4D
>>> [str(a) for a in state.legal_actions()]
['4S 4H', '5S 5H', 'pass']
>>> for text in ["5S 5H", "pass", "pass", "pass"]:
...     print(state.apply(state.parse_action(text)))
1: 5S 5H
2: pass
3: pass
0: pass; trick_won
>>> state.apply(state.parse_action("3C 3D")).line, state.current_seat
('1: 3C 3D', 2)
"""


from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NoReturn, Self

from folkdeck.cards import Card
from folkdeck.engine.errors import (
    IllegalActionError,
    NotYourTurnError,
    WrongPhaseError,
    not_an_action,
    not_held,
    not_your_turn,
)
from folkdeck.engine.facts import Fact
from folkdeck.engine.state_base import StateBase
from folkdeck.engine.values import Action, DealInfo, Event, new_event
from folkdeck.engine.view import TablePlay
from folkdeck.games.kaphai.actions import PASS, PUTUH, KapHaiAction, Pass, Putuh
from folkdeck.games.kaphai.actions import parse_action as _parse_action
from folkdeck.games.kaphai.deal import KapHaiDeal, PutuhWindow, deal_from_view
from folkdeck.games.kaphai.events import PutuhWindow as PutuhWindowFact
from folkdeck.games.kaphai.events import ThreeGame, ThreesPutOut, describe_action
from folkdeck.games.kaphai.moves import SINGLE, TRIPLE, MoveTable
from folkdeck.games.kaphai.observation import KapHaiPhase, KapHaiView
from folkdeck.games.kaphai.options import KapHaiGameLike, KapHaiOptions
from folkdeck.games.kaphai.play import KapHaiFlow
from folkdeck.games.kaphai.rules import (
    CARDS,
    KIND_DOUBLE_TRIPLE,
    KIND_PAIR_RUN,
    KIND_SINGLE,
    KIND_STRAIGHT,
    KIND_TRIPLE,
    RANK_MASKS,
    Combo,
    allowed,
    beats,
    can_throw,
    cards_of,
    low_single_relief,
    may_answer_straight,
    may_throw_on,
    notation,
    putuh,
    refusal,
)
from folkdeck.games.kaphai.viewread import read_view

_PUTUH: Final = KapHaiPhase.PUTUH
_PLAY: Final = KapHaiPhase.PLAY
_OVER: Final = KapHaiPhase.OVER


class KapHaiState(StateBase[KapHaiAction, KapHaiView, KapHaiDeal]):
    """A Kap Hai deal. Build it with :meth:`KapHaiGame.new_state` (or, for a search,
    :meth:`from_view`). What play changes is in :attr:`deal` (:class:`~folkdeck.games.
    kaphai.deal.KapHaiDeal`); the transitions are its :class:`~folkdeck.games.kaphai.play.
    KapHaiFlow`, shared by its clones with the game, the rules and the caches."""

    __slots__ = ("_game", "_rules", "_flow", "_opening")
    _shared = ("_game", "_rules", "_flow", "_opening")
    """All it holds beside its deal: a clone shares them."""
    _game: KapHaiGameLike
    _rules: KapHaiOptions
    _flow: KapHaiFlow
    _opening: tuple[Fact, ...] | None
    """The 3-game's status facts, made when first viewed (from the dealt hands)."""

    def __init__(self, game: KapHaiGameLike, hands: list[int], *, undealt: int, three_game: bool,
                 leader: int, check_putuh: bool) -> None:
        rules = game.options
        n = len(hands)
        self._table(game, n)
        deal = self.deal = KapHaiDeal(
            start=tuple(hands), undealt=undealt, three_game=three_game, leader=leader, hands=list(hands),
            shed=0, played=0, phase=_PLAY, turn=leader, lead_single=three_game, top=None, top_seat=-1,
            passed=0, out=[], trick=[], history=[], putuh=None, result=None, tables=[None] * n)
        if three_game:
            # docs/rules/kaphai.md §2.1: everyone puts out the 3s; the 3S holder leads a single. With 3S
            # out of play the holder of the lowest dealt card leads (docs/rules/kaphai.md §8.12).
            dealt = [h for h in hands if h]
            lowest = min((h & -h).bit_length() for h in dealt)
            deal.leader = deal.turn = next(s for s, h in enumerate(hands) if h >> (lowest - 1) & 1)
            if rules.three_game_shed_threes:
                for s in range(n):
                    deal.shed |= deal.hands[s] & RANK_MASKS[0]
                    deal.hands[s] &= ~RANK_MASKS[0]
        if check_putuh and self._open_putuh():
            return
        for s in range(n):
            if not deal.hands[s] and deal.start[s]:
                deal.out.append(s)  # only 3s were dealt to this seat: out at once
        if not deal.hands[deal.turn]:
            deal.turn = self._flow.next_active(deal, deal.turn)
        if sum(1 for h in deal.hands if h) <= 1:
            self._flow.finish_play(deal)

    def _table(self, game: KapHaiGameLike, n: int) -> None:
        """What the state holds besides its deal."""
        self._game = game
        self._rules = game.options
        self._n = n
        self._flow = KapHaiFlow(game.options, n)
        self._cache = None
        self._opening = None

    def _open_putuh(self) -> bool:
        """docs/rules/kaphai.md §4: open the declaration window, or end the deal at once when
        putuh wins automatically; whether the deal is over."""
        deal, rules = self.deal, self._rules
        eligible = {s: p for s, h in enumerate(deal.start) if (p := putuh(h, deal.three_game)) is not None}
        if rules.putuh_optional and rules.ask_all_seats:
            # Every seat is asked, from the leader on: the window tells nobody who holds one.
            order = tuple((deal.leader + k) % self._n for k in range(self._n))
            deal.phase = _PUTUH
            deal.putuh = PutuhWindow(eligible, [], set(), order)
        elif eligible and rules.putuh_optional:
            deal.phase = _PUTUH
            deal.putuh = PutuhWindow(eligible, [], set())
        elif eligible:
            self._flow.finish_putuh(deal, list(eligible), eligible)
            return True
        return False

    @classmethod
    def from_view(cls, game: KapHaiGameLike, view: KapHaiView, *, hands: Sequence[int],
                  undealt: int = 0) -> Self:
        """A deal in the play phase that agrees with ``view`` and whose hands are ``hands``.

        ``hands[s]`` is seat *s*'s hand as a card bitmask (:func:`~folkdeck.games.kaphai.
        rules.mask`): the viewer's must be its own hand and every other one must hold as
        many cards as ``view.counts`` says; ``undealt`` holds the cards out of play (2-3
        players). Everything public is taken from the view as it is (the table, who passed,
        who is out, the history, the 3s), so the new state's view for the same seat equals
        ``view``. This is how :mod:`folkdeck.games.kaphai.determinize` samples worlds; what
        it reads of the view is parsed once per view and shared by every world.

        :raises WrongPhaseError: for a spectator's view or a view outside the play phase.
        :raises InvalidDealError: for hands that do not match the view (``hands[s]``).
        """
        seen = read_view(game.options, view)
        state = cls.__new__(cls)
        state.deal = deal_from_view(view, seen, hands, undealt)
        state._table(game, view.num_players)
        state._opening = seen.opening
        return state

    # --- the protocol's read side ------------------------------------------------
    @property
    def game(self) -> KapHaiGameLike:
        return self._game

    @property
    def phase(self) -> KapHaiPhase:
        return KapHaiPhase(self.deal.phase)

    @property
    def to_act(self) -> tuple[int, ...]:
        deal = self.deal
        if deal.phase is _PLAY:
            return (deal.turn,)
        if deal.phase is _PUTUH:
            window = deal.putuh
            assert window is not None
            if window.order is not None:
                return (window.order[len(window.answered)],)
            return tuple(s for s in window.eligible if s not in window.answered)
        return ()

    @property
    def top(self) -> Combo | None:
        """The play winning the current trick."""
        return self.deal.top

    @property
    def top_seat(self) -> int | None:
        return self.deal.top_seat if self.deal.top is not None else None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds (the engine's view: not for agents)."""
        return cards_of(self.deal.hands[seat])

    # --- legal actions -------------------------------------------------------------
    def _combos(self, seat: int, leading: bool) -> tuple[MoveTable, int]:
        """The seat's move table and the cards it lists that have been played since.

        A follower needs a short slice of one shape, filtered on the fly, so it keeps
        the table it has (its lists are made once and shared); a lead needs every
        combination of the hand now, so it moves to a table of that hand (which
        filters the lists the old one made).
        """
        deal = self.deal
        table = deal.tables[seat]
        hand = deal.hands[seat]
        if table is None or hand & ~table.hand:  # (a hand only ever loses cards)
            table = deal.tables[seat] = MoveTable.of(hand, self._rules)
            return table, 0
        gone = table.hand & ~hand
        if not gone or not leading:
            return table, gone
        table = deal.tables[seat] = table.without(gone)
        return table, 0

    def legal_actions(self, seat: int | None = None) -> tuple[KapHaiAction, ...]:
        """Plays from weakest shape to strongest (by kind, size, key), then ``pass``.

        In the putuh window: ``putuh`` then ``pass`` for a seat holding a putuh; only
        ``pass`` for a seat asked without one (``ask_all_seats``).
        """
        deal = self.deal
        phase = deal.phase
        if phase is _PLAY and (seat is None or seat == deal.turn):
            s = deal.turn
        elif phase is _OVER:
            return ()
        else:
            s = self._seat(seat)
            if s not in self.to_act:
                return ()
        if phase is _PUTUH:
            assert deal.putuh is not None
            return (PUTUH, PASS) if s in deal.putuh.eligible else (PASS,)
        top = deal.top
        table, gone = self._combos(s, top is None)
        if top is None:
            if deal.lead_single:
                return tuple(table.group(SINGLE))
            return table.flat()
        answers = self._answers(table, top)
        if gone:
            return (*(c for c in answers if not c.mask & gone), PASS)
        return (*answers, PASS)

    def _answers(self, table: MoveTable, top: Combo) -> list[Combo]:
        """The plays of ``table`` that may go on ``top``, in legal-action order (docs/rules/kaphai.md §3.2, §3.3);
        the caller drops those using cards already played."""
        rules = self._rules
        tk = top.kind
        if tk is KIND_STRAIGHT:
            out: list[Combo] = []
            if may_throw_on(top, rules):
                out.extend(c for c in table.group(TRIPLE) if c.is_throwable)
            above = table.above((tk, top.size), top.key)
            out.extend([c for c in above if may_answer_straight(c, top, rules)])
            return out
        if tk is KIND_SINGLE and low_single_relief(top, rules):
            out = [c for c in table.group(SINGLE) if beats(c, top, rules)]
        elif tk is KIND_TRIPLE and may_throw_on(top, rules):
            out = [c for c in table.group(TRIPLE)[:1] if c.is_throwable]
            out.extend(table.above(TRIPLE, top.key))
        else:
            out = table.above((tk, top.size), top.key)
        bombs = table.bombs(tk)
        return [*out, *bombs] if bombs else out

    def _check_other(self, s: int, action: Action) -> Combo:
        """:meth:`apply`'s check, in play, of seat ``s`` (on turn) and an action that is
        neither a :class:`Combo` itself nor a pass: a subclass of Combo is checked as a
        play and returned; a putuh is too late; anything else is not an action."""
        if isinstance(action, Putuh):
            raise WrongPhaseError("kaphai.putuh_too_late" if self._rules.putuh_optional else
                                  "kaphai.putuh_automatic", seat=s, action="putuh", phase="play")
        if isinstance(action, Combo):
            self._check_play(s, action)
            return action
        raise not_an_action("kaphai", s, action)

    def _refuse_turn(self, action: Action, s: int) -> NoReturn:
        """Seat ``s`` may not act now: name only the seats whose turn is public."""
        waiting = self.public_to_act()
        if waiting:
            raise not_your_turn("kaphai", s, waiting, action)
        raise NotYourTurnError("kaphai.not_your_turn_window", seat=s, action=str(action))

    def _check_putuh(self, action: Action, seat: int | None) -> int:
        """The putuh window: an asked seat declares (if it holds a putuh) or passes."""
        window = self.deal.putuh
        assert window is not None
        s = self._seat(seat)
        if s not in self.to_act:
            self._refuse_turn(action, s)
        if isinstance(action, Putuh) and s not in window.eligible:
            raise IllegalActionError("kaphai.no_putuh", seat=s, action="putuh")
        if not isinstance(action, (Putuh, Pass)):
            raise WrongPhaseError("kaphai.putuh_first", seat=s, action=str(action), phase="putuh")
        return s

    def _check_play(self, s: int, combo: Combo) -> None:
        """Raise why seat ``s`` (on turn, in play) may not play ``combo`` now."""
        missing = combo.mask & ~self.deal.hands[s]
        if missing:
            raise not_held("kaphai", s, combo, notation(missing))
        rules = self._rules
        # Only the run shapes depend on the options (allowed()): skip the call for the rest.
        if combo.kind >= KIND_PAIR_RUN and not allowed(combo, rules):
            raise IllegalActionError("kaphai.double_triple_off" if combo.kind is KIND_DOUBLE_TRIPLE
                                     else "kaphai.twos_in_runs_off", seat=s, action=str(combo))
        top = self.deal.top
        if top is None:
            if self.deal.lead_single and combo.kind is not KIND_SINGLE:
                raise IllegalActionError("kaphai.single_first_lead", seat=s, action=str(combo))
            return
        if beats(combo, top, rules) or can_throw(combo, top, rules):
            return
        raise IllegalActionError("kaphai.no_beat", seat=s, **refusal(combo, top, rules))

    def parse_action(self, text: str, seat: int | None = None) -> KapHaiAction:
        """Read ``text`` (cards, ``pass`` or ``putuh``); legality is checked by :meth:`apply`."""
        return _parse_action(text)

    # --- transitions ---------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn).

        The one statement of who may do what (:meth:`verify` tries it on a copy): play
        here (a combo through :meth:`_check_play`, the rare cases in :meth:`_check_other`),
        the putuh window in :meth:`_check_putuh`.
        """
        deal = self.deal
        phase = deal.phase
        facts: list[Fact] = []
        if phase is _PLAY:
            s = deal.turn  # in play, to_act is the seat on turn alone
            if seat is not None and seat != s:
                self._refuse_turn(action, self._seat(seat))
            # The pass first, by identity (there is one PASS): isinstance(PASS, Combo) would
            # fail, and a failing isinstance() looks the action's __class__ up (0.4 % of a playout).
            if action is PASS:
                if deal.top is None:
                    raise IllegalActionError("kaphai.leader_must_lead", seat=s, action="pass")
                deal.passed |= 1 << s
                self._flow.advance(deal, s, facts)
            elif isinstance(action, Combo):
                self._check_play(s, action)
                self._flow.play(deal, s, action, facts)
            else:
                self._flow.play(deal, s, self._check_other(s, action), facts)
        elif phase is _OVER:
            raise WrongPhaseError("kaphai.deal_over", phase="over", action=str(action))
        else:
            s = self._check_putuh(action, seat)
            self._flow.answer_putuh(deal, s, isinstance(action, Putuh), facts)
        event = new_event((s, action, tuple(facts) if facts else ()))
        deal.history.append(event)
        return event

    # --- views, copies, records ----------------------------------------------------
    def _view_to_act(self, seat: int | None) -> tuple[int, ...]:
        """``to_act`` as ``seat`` may see it (``None``: a spectator). In play, the seat on
        turn. In a putuh window that asks only the holders, only ``seat`` itself if it may
        still declare: who else may declare depends on their hidden hands (docs/rules/kaphai.md §4.4);
        with ``ask_all_seats``, the seat asked (everyone is, in turn)."""
        window = self.deal.putuh
        if self.deal.phase is _PUTUH and window is not None and window.order is None:
            return (seat,) if seat is not None and seat in self.to_act else ()
        return self.to_act

    def public_to_act(self) -> tuple[int, ...]:
        """The seats of ``to_act`` every viewer may see: none in a putuh window that asks
        only the holders."""
        return self._view_to_act(None)

    def observe(self, seat: int | None) -> KapHaiView:
        """The view of ``seat`` (``None``: a spectator): never another seat's hand. Its
        ``to_act`` is :meth:`_view_to_act`: no other seat's right to declare putuh shows
        through it."""
        core = self._view_core(seat, self._view_to_act(seat), describe_action)
        deal = self.deal
        top = deal.top
        return KapHaiView(
            **core, game="kaphai", phase=KapHaiPhase(deal.phase),
            hand=cards_of(deal.hands[seat]) if seat is not None else None,
            counts=tuple([h.bit_count() for h in deal.hands]),
            table=tuple([TablePlay(seat=t, cards=c.cards, label="thrown" if thrown else "")
                         for t, c, thrown in deal.trick]),
            top=TablePlay(seat=deal.top_seat, cards=top.cards) if top is not None else None,
            passed=tuple([s for s in range(self._n) if deal.passed >> s & 1]),
            out=tuple(deal.out), status=self._status(),
            three_game=deal.three_game, shed=cards_of(deal.shed), played=cards_of(deal.played),
            top_combo=top.term if top is not None else None, lead_single=deal.lead_single,
            leader=deal.leader)

    def _status(self) -> tuple[Fact, ...]:
        """What a player must know besides the table: the 3-game's start, the putuh window,
        and how a putuh deal ended."""
        deal = self.deal
        status = self._opening_facts()
        if deal.phase is _PUTUH:
            status = (*status, PutuhWindowFact(all_seats=deal.putuh is not None and deal.putuh.order is not None))
        elif deal.result is not None and deal.result.reason == "putuh":
            status = (*status, *self._flow.putuh_end(deal)[:-1])
        return status

    def _opening_facts(self) -> tuple[Fact, ...]:
        """A 3-game's start: who put out which 3s, and who leads with which card."""
        if self._opening is None:
            deal = self.deal
            opening: list[Fact] = []
            dealt = [h for h in deal.start if h]
            if deal.three_game and dealt:
                shed = self._rules.three_game_shed_threes
                for s, h in enumerate(deal.start):
                    if h & RANK_MASKS[0]:
                        opening.append(ThreesPutOut(seat=s, cards=cards_of(h & RANK_MASKS[0]), shed=shed))
                lowest = min((h & -h).bit_length() for h in dealt) - 1
                shown = lowest < 4  # a 3 is put out (or shown): any other card stays hidden
                opening.append(ThreeGame(seat=deal.leader, card=CARDS[lowest] if shown else None,
                                         shed=shed))
            self._opening = tuple(opening)
        return self._opening

    def deal_info(self) -> DealInfo:
        deal = self.deal
        return {"setup": {"three_game": deal.three_game, "leader": deal.leader},
                "hands": [[str(c) for c in cards_of(h)] for h in deal.start]}

    def all_cards(self) -> dict[str, tuple[Card, ...]]:
        deal = self.deal
        places = {f"hand {s}": cards_of(h) for s, h in enumerate(deal.hands)}
        places["played"] = cards_of(deal.played)
        places["shed"] = cards_of(deal.shed)
        places["undealt"] = cards_of(deal.undealt)
        return places

    def hidden_cards(self, seat: int | None) -> tuple[Card, ...]:
        deal = self.deal
        hidden = deal.undealt
        result = deal.result
        shown = ({int(k) for k in result.details.get("shown", {})}
                 if result is not None and result.reason == "putuh" else set())
        for s, h in enumerate(deal.hands):
            if s != seat and s not in shown:
                hidden |= h
        return cards_of(hidden)

    def __repr__(self) -> str:
        deal = self.deal
        return (f"<KapHaiState {deal.phase} to_act={self.to_act} top={deal.top} "
                f"counts={[h.bit_count() for h in deal.hands]}>")
