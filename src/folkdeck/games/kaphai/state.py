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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Self

from folkdeck.engine.errors import (
    IllegalActionError,
    InvalidDealError,
    NotYourTurnError,
    WrongPhaseError,
    not_an_action,
    not_held,
    not_your_turn,
)
from folkdeck.engine.facts import DealEnded, Fact, Leads, Revealed, TrickWon, WentOut
from folkdeck.engine.protocol import Event, Result
from folkdeck.engine.state_base import StateBase
from folkdeck.engine.view import HistoryCache, TablePlay
from folkdeck.games.kaphai.actions import PASS, PUTUH, KapHaiAction, Pass, Putuh
from folkdeck.games.kaphai.actions import parse_action as _parse_action
from folkdeck.games.kaphai.events import (
    PutuhDeclared,
    PutuhWindow,
    PutuhWon,
    ThreeGame,
    ThreesPutOut,
    Thrown,
    describe_action,
)
from folkdeck.games.kaphai.moves import SINGLE, TRIPLE, MoveTable
from folkdeck.games.kaphai.observation import KapHaiPhase, KapHaiView
from folkdeck.games.kaphai.rules import (
    CARDS,
    FIVE,
    PUTUH_PATTERNS,
    RANK_MASKS,
    Combo,
    Kind,
    allowed,
    beats,
    can_throw,
    cards_of,
    notation,
    putuh,
    refusal,
)
from folkdeck.games.kaphai.viewread import read_view

if TYPE_CHECKING:
    from folkdeck.games.kaphai.game import KapHaiGame

_PUTUH: Final = KapHaiPhase.PUTUH
_PLAY: Final = KapHaiPhase.PLAY
_OVER: Final = KapHaiPhase.OVER
# The facts of tricks and places, made once per value (facts are immutable): made anew and
# kept in the history, they are work for the garbage collector in every deal (folkdeck bench).
_TRICK_WON: Final[dict[tuple[int, int], TrickWon]] = {}
_WENT_OUT: Final[dict[tuple[int, int], WentOut]] = {}


# ``_new_event(_EVENT, (seat, action, facts))`` == ``Event(seat, action, facts)``, without the
# named tuple's Python-level ``__new__`` (made on every action). Compiled, the ``Final`` alias
# is read from a C static, where the imported ``Event`` is looked up in the module's dict.
_new_event: Final = tuple.__new__
_EVENT: Final = Event


@dataclass(slots=True)
class _Putuh:
    """The declaration window: who may declare, who did, who has answered; ``order``
    the seats asked in turn (``ask_all_seats``), ``None`` when only the holders decide."""

    eligible: dict[int, tuple[int, int]]
    declared: list[int]
    answered: set[int]
    order: tuple[int, ...] | None = None


_SLOTS: Final = ("_game", "_rules", "_n", "_hands", "_start", "_undealt", "_shed", "_three_game", "_leader",
          "_lead_single", "_phase", "_turn", "_top", "_top_seat", "_passed", "_out", "_played", "_trick",
          "_history", "_putuh", "_result", "_tables", "_cache", "_opening")
"""Every attribute of a state, which :meth:`KapHaiState.clone` copies one by one (a class
compiled by mypyc, README "Fast build", has no ``__slots__`` to read)."""


class KapHaiState(StateBase[KapHaiAction, KapHaiView]):
    """A Kap Hai deal. Build it with :meth:`KapHaiGame.new_state` (or, for a search,
    :meth:`from_view`)."""

    __slots__ = _SLOTS

    def __init__(self, game: KapHaiGame, hands: list[int], *, undealt: int, three_game: bool,
                 leader: int, check_putuh: bool) -> None:
        rules = game.options
        self._game = game
        self._rules = rules
        self._n = len(hands)
        self._start = tuple(hands)
        self._undealt = undealt
        self._three_game = three_game
        self._hands = list(hands)
        self._shed = 0
        self._played = 0
        self._top: Combo | None = None
        self._top_seat = -1
        self._passed = 0
        self._out: list[int] = []
        self._trick: list[tuple[int, Combo, bool]] = []  # the plays of the trick: (seat, play, thrown)
        self._history: list[Event] = []
        self._cache: HistoryCache | None = None  # made by the first observe(): playouts never need it
        self._opening: tuple[Fact, ...] | None = None  # the 3-game's status facts, made when viewed
        self._result: Result | None = None
        self._putuh: _Putuh | None = None
        self._tables: list[MoveTable | None] = [None] * self._n
        self._lead_single = three_game
        self._phase = _PLAY
        if three_game:
            # docs/rules/kaphai.md §2.1: everyone puts out the 3s; the 3S holder leads a single. With 3S
            # out of play the holder of the lowest dealt card leads (docs/rules/kaphai.md §8.12).
            dealt = [h for h in hands if h]
            lowest = min((h & -h).bit_length() for h in dealt)
            leader = next(s for s, h in enumerate(hands) if h >> (lowest - 1) & 1)
            if rules.three_game_shed_threes:
                for s in range(self._n):
                    self._shed |= self._hands[s] & RANK_MASKS[0]
                    self._hands[s] &= ~RANK_MASKS[0]
        self._leader = leader
        self._turn = leader
        if check_putuh:
            eligible = {s: p for s, h in enumerate(hands) if (p := putuh(h, three_game)) is not None}
            if rules.putuh_optional and rules.ask_all_seats:
                # Every seat is asked, from the leader on: the window tells nobody who holds one.
                order = tuple((leader + k) % self._n for k in range(self._n))
                self._phase = _PUTUH
                self._putuh = _Putuh(eligible, [], set(), order)
            elif eligible and rules.putuh_optional:
                self._phase = _PUTUH
                self._putuh = _Putuh(eligible, [], set())
            elif eligible:
                self._finish_putuh(list(eligible), eligible)
                return
        for s in range(self._n):
            if not self._hands[s] and self._start[s]:
                self._out.append(s)  # only 3s were dealt to this seat: out at once
        if not self._hands[self._turn]:
            self._turn = self._next_active(self._turn)
        if sum(1 for h in self._hands if h) <= 1:
            self._finish_play()

    @classmethod
    def from_view(cls, game: KapHaiGame, view: KapHaiView, *, hands: Sequence[int],
                  undealt: int = 0) -> KapHaiState:
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
        seen = read_view(game, view)
        n = view.num_players
        if len(hands) != n:
            raise InvalidDealError("kaphai.hands_count", field="hands", count=len(hands), players=n)
        for s in range(n):
            if (hands[s] != seen.own if s == seen.seat else
                    hands[s].bit_count() != view.counts[s] or hands[s] & seen.fixed & ~seen.known[s]):
                raise InvalidDealError("kaphai.view_hand", field=f"hands[{s}]", seat=s)
        state = cls.__new__(cls)
        state._game = game
        state._rules = game.options
        state._n = n
        state._hands = list(hands)
        state._start = tuple(h | p for h, p in zip(hands, seen.gone_by, strict=True))
        state._undealt = undealt
        state._shed = seen.shed
        state._three_game = view.three_game
        state._leader = view.leader
        state._lead_single = view.lead_single
        state._phase = _PLAY
        state._turn = seen.turn
        state._top = seen.top
        state._top_seat = view.top.seat if view.top is not None else -1
        state._passed = seen.passed
        state._out = list(view.out)
        state._played = seen.played
        state._trick = list(seen.trick)
        state._history = list(seen.events)
        state._cache = None
        state._opening = seen.opening
        state._putuh = None
        state._result = None
        tables: list[MoveTable | None] = [None] * n
        tables[seen.seat] = seen.own_table
        state._tables = tables
        return state

    # --- the protocol's read side ------------------------------------------------
    @property
    def game(self) -> KapHaiGame:
        return self._game

    @property
    def phase(self) -> KapHaiPhase:
        return KapHaiPhase(self._phase)

    @property
    def to_act(self) -> tuple[int, ...]:
        if self._phase is _PLAY:
            return (self._turn,)
        if self._phase is _PUTUH:
            window = self._putuh
            assert window is not None
            if window.order is not None:
                return (window.order[len(window.answered)],)
            return tuple(s for s in window.eligible if s not in window.answered)
        return ()

    @property
    def top(self) -> Combo | None:
        """The play winning the current trick."""
        return self._top

    @property
    def top_seat(self) -> int | None:
        return self._top_seat if self._top is not None else None

    def hand(self, seat: int) -> tuple[Any, ...]:
        """The cards ``seat`` holds (the engine's view: not for agents)."""
        return cards_of(self._hands[seat])

    # --- legal actions -------------------------------------------------------------
    def _combos(self, seat: int, leading: bool) -> tuple[MoveTable, int]:
        """The seat's move table and the cards it lists that have been played since.

        A follower needs a short slice of one shape, filtered on the fly, so it keeps
        the table it has (its lists are made once and shared); a lead needs every
        combination of the hand now, so it moves to a table of that hand (which
        filters the lists the old one made).
        """
        table = self._tables[seat]
        hand = self._hands[seat]
        if table is None or hand & ~table.hand:  # (a hand only ever loses cards)
            table = self._tables[seat] = MoveTable.of(hand, self._rules)
            return table, 0
        gone = table.hand & ~hand
        if not gone or not leading:
            return table, gone
        table = self._tables[seat] = table.without(gone)
        return table, 0

    def legal_actions(self, seat: int | None = None) -> tuple[KapHaiAction, ...]:
        """Plays from weakest shape to strongest (by kind, size, key), then ``pass``.

        In the putuh window: ``putuh`` then ``pass`` for a seat holding a putuh; only
        ``pass`` for a seat asked without one (``ask_all_seats``).
        """
        phase = self._phase
        if phase is _PLAY and (seat is None or seat == self._turn):
            s = self._turn
        elif phase is _OVER:
            return ()
        else:
            s = self._seat(seat)
            if s not in self.to_act:
                return ()
        if phase is _PUTUH:
            assert self._putuh is not None
            return (PUTUH, PASS) if s in self._putuh.eligible else (PASS,)
        top = self._top
        table, gone = self._combos(s, top is None)
        if top is None:
            if self._lead_single:
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
        if tk == Kind.STRAIGHT:
            out: list[Combo] = []
            if top.size == 3 and rules.throw_222_on_any_three:
                out.extend(c for c in table.group(TRIPLE) if c.is_throwable)
            above = table.above((tk, top.size), top.key)
            out.extend(c for c in above if c.is_police(rules)) if top.is_police(rules) else out.extend(above)
            return out
        if tk == Kind.SINGLE and top.key >> 2 <= FIVE and (
                rules.low_single_free or rules.low_single_same_rank):
            out = [c for c in table.group(SINGLE) if beats(c, top, rules)]
        elif tk == Kind.TRIPLE and not top.is_throwable:
            out = [c for c in table.group(TRIPLE)[:1] if c.is_throwable]
            out.extend(table.above(TRIPLE, top.key))
        else:
            out = table.above((tk, top.size), top.key)
        bombs = table.bombs(tk)
        return [*out, *bombs] if bombs else out

    def verify(self, action: KapHaiAction, seat: int | None = None) -> None:
        """Raise the reason an action is illegal now; return ``None`` if it is legal.

        :raises WrongPhaseError: the deal is over, or the action belongs to another phase.
        :raises NotYourTurnError: the seat may not act now (naming only the seats whose
            turn is public: never a putuh holder).
        :raises IllegalActionError: the rules refuse it (the reason says why).
        """
        if self._phase is _OVER:
            raise WrongPhaseError("kaphai.deal_over", phase="over", action=str(action))
        s = self._seat(seat)
        if s not in self.to_act:
            waiting = self.public_to_act()
            if waiting:
                raise not_your_turn("kaphai", s, waiting, action)
            raise NotYourTurnError("kaphai.not_your_turn_window", seat=s, action=str(action))
        if self._phase is _PUTUH:
            assert self._putuh is not None
            if isinstance(action, Putuh) and s not in self._putuh.eligible:
                raise IllegalActionError("kaphai.no_putuh", seat=s, action="putuh")
            if not isinstance(action, (Putuh, Pass)):
                raise WrongPhaseError("kaphai.putuh_first", seat=s, action=str(action), phase="putuh")
            return
        if isinstance(action, Putuh):
            raise WrongPhaseError("kaphai.putuh_too_late" if self._rules.putuh_optional else
                                  "kaphai.putuh_automatic", seat=s, action="putuh", phase=str(self._phase))
        if isinstance(action, Pass):
            if self._top is None:
                raise IllegalActionError("kaphai.leader_must_lead", seat=s, action="pass")
            return
        if not isinstance(action, Combo):
            raise not_an_action("kaphai", s, action)
        self._check_play(s, action)

    def _check_play(self, s: int, combo: Combo) -> None:
        """Raise why seat ``s`` (on turn, in play) may not play ``combo`` now."""
        missing = combo.mask & ~self._hands[s]
        if missing:
            raise not_held("kaphai", s, combo, notation(missing))
        rules = self._rules
        # Only the run shapes depend on the options (allowed()): skip the call for the rest.
        if combo.kind >= Kind.PAIR_RUN and not allowed(combo, rules):
            raise IllegalActionError("kaphai.double_triple_off" if combo.kind is Kind.DOUBLE_TRIPLE
                                     else "kaphai.twos_in_runs_off", seat=s, action=str(combo))
        top = self._top
        if top is None:
            if self._lead_single and combo.kind is not Kind.SINGLE:
                raise IllegalActionError("kaphai.single_first_lead", seat=s, action=str(combo))
            return
        if beats(combo, top, rules) or can_throw(combo, top, rules):
            return
        raise IllegalActionError("kaphai.no_beat", seat=s, **refusal(combo, top, rules))

    def parse_action(self, text: str, seat: int | None = None) -> KapHaiAction:
        """Read ``text`` (cards, ``pass`` or ``putuh``); legality is checked by :meth:`apply`."""
        return _parse_action(text)

    # --- transitions ---------------------------------------------------------------
    def apply(self, action: KapHaiAction, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn)."""
        facts: list[Fact] = []
        if self._phase is _PLAY and (seat is None or seat == self._turn):
            # The hot path: a play or a pass on turn (the same checks as verify()).
            s = self._turn
            if type(action) is Combo:
                self._check_play(s, action)
                self._play(s, action, facts)
            elif action is PASS and self._top is not None:
                self._passed |= 1 << s
                self._advance(s, facts)
            else:
                self.verify(action, s)
                raise AssertionError(f"verify() accepted {action!r}")  # pragma: no cover
            event = _new_event(_EVENT, (s, action, tuple(facts) if facts else ()))
            self._history.append(event)
            return event
        s = self._seat(seat)
        self.verify(action, s)
        if self._phase is _PUTUH:
            self._answer_putuh(s, isinstance(action, Putuh), facts)
        elif isinstance(action, Pass):
            self._passed |= 1 << s
            self._advance(s, facts)
        else:
            assert isinstance(action, Combo)
            self._play(s, action, facts)
        event = _new_event(_EVENT, (s, action, tuple(facts)))
        self._history.append(event)
        return event

    def _play(self, s: int, combo: Combo, facts: list[Fact]) -> None:
        m = combo.mask
        self._hands[s] &= ~m
        self._played |= m
        self._lead_single = False
        top = self._top
        if top is not None and can_throw(combo, top, self._rules):
            # docs/rules/kaphai.md §3.4: thrown 2-2-2 does not take the trick; the thrower counts as passed.
            self._passed |= 1 << s
            self._trick.append((s, combo, True))
            facts.append(Thrown(seat=s, cards=combo.cards, top=top.cards, top_seat=self._top_seat))
        else:
            self._top = combo
            self._top_seat = s
            self._trick.append((s, combo, False))
        if not self._hands[s]:
            self._out.append(s)
            out = _WENT_OUT.get((s, len(self._out)))
            if out is None:
                out = _WENT_OUT[s, len(self._out)] = WentOut(seat=s, place=len(self._out))
            facts.append(out)
            if sum(1 for h in self._hands if h) <= 1:
                self._finish_play()
                facts.append(DealEnded(reason="out", winners=(self._out[0],), losers=(self._out[-1],)))
                return
        self._advance(s, facts)

    def _advance(self, s: int, facts: list[Fact]) -> None:
        """Give the turn to the next seat still in the trick, or end the trick."""
        n = self._n
        seat = s
        for _ in range(n):
            seat = (seat + 1) % n
            if seat == self._top_seat:
                break
            if self._hands[seat] and not self._passed >> seat & 1:
                self._turn = seat
                return
        winner = self._top_seat
        leader = winner if self._hands[winner] else self._lead_after_out(winner)
        won = _TRICK_WON.get((winner, leader))
        if won is None:
            won = _TRICK_WON[winner, leader] = TrickWon(seat=winner, leader=leader)
        facts.append(won)
        self._top = None
        self._top_seat = -1
        self._passed = 0
        self._trick = []
        self._turn = leader

    def _lead_after_out(self, winner: int) -> int:
        if self._rules.lead_after_out == "left_of_out":
            seat = winner
            for _ in range(self._n):
                seat = (seat - 1) % self._n
                if self._hands[seat]:
                    return seat
        return self._next_active(winner)

    def _next_active(self, seat: int) -> int:
        for _ in range(self._n):
            seat = (seat + 1) % self._n
            if self._hands[seat]:
                return seat
        return seat

    def _finish_play(self) -> None:
        places: list[int | None] = [None] * self._n
        for place, s in enumerate(self._out, 1):
            places[s] = place
        for s in range(self._n):
            if self._hands[s]:
                places[s] = len(self._out) + 1  # ビリ: the last player holding cards
                self._out.append(s)
        points = self._rules.placement_points
        returns = tuple(float(points[p - 1]) if p is not None else 0.0 for p in places)
        self._result = Result(tuple(places), returns, "out", {"order": list(self._out)})
        self._phase = _OVER

    def _answer_putuh(self, s: int, declares: bool, facts: list[Fact]) -> None:
        window = self._putuh
        assert window is not None
        window.answered.add(s)
        if declares:
            window.declared.append(s)
            facts.append(PutuhDeclared(seat=s, pattern=PUTUH_PATTERNS[window.eligible[s][0]]))
        asked = window.order if window.order is not None else window.eligible
        if len(window.answered) < len(asked):
            return
        if window.declared:
            self._finish_putuh(window.declared, window.eligible)
            facts.extend(self._putuh_end())
        else:
            self._phase = _PLAY
            self._putuh = None
            facts.append(Leads(seat=self._turn))

    def _finish_putuh(self, declarers: list[int], patterns: dict[int, tuple[int, int]]) -> None:
        """docs/rules/kaphai.md §4.2: the best pattern is 1st; no other places (or joint 1st)."""
        best = max(declarers, key=lambda s: patterns[s])
        winners = sorted(declarers) if self._rules.putuh_tie == "shared_first" else [best]
        places: list[int | None] = [1 if s in winners else None for s in range(self._n)]
        points = self._rules.placement_points
        returns = tuple(float(points[0] if p == 1 else points[1]) for p in places)
        # The declarers show their hands to the table (they are public from now on).
        details = {"putuh": {str(s): PUTUH_PATTERNS[patterns[s][0]] for s in declarers},
                   "winners": winners,
                   "shown": {str(s): notation(self._hands[s]) for s in declarers}}
        self._result = Result(tuple(places), returns, "putuh", details)
        self._out = list(winners)
        self._phase = _OVER

    def _putuh_end(self) -> tuple[Fact, ...]:
        """What a putuh deal ended with: each declarer's pattern and hand, the winners."""
        assert self._result is not None
        details = self._result.details
        facts: list[Fact] = []
        for key, pattern in details["putuh"].items():
            seat = int(key)
            facts.append(PutuhDeclared(seat=seat, pattern=pattern))
            facts.append(Revealed(seat=seat, cards=cards_of(self._hands[seat])))
        winners = tuple(details["winners"])
        return (*facts, PutuhWon(winners=winners), DealEnded(reason="putuh", winners=winners))

    # --- views, copies, records ----------------------------------------------------
    def view_to_act(self, seat: int | None) -> tuple[int, ...]:
        """``to_act`` as ``seat`` may see it (``None``: a spectator). In play, the seat on
        turn. In a putuh window that asks only the holders, only ``seat`` itself if it may
        still declare: who else may declare depends on their hidden hands (docs/rules/kaphai.md §4.4);
        with ``ask_all_seats``, the seat asked (everyone is, in turn)."""
        if self._phase is _PUTUH:
            window = self._putuh
            if window is not None and window.order is None:
                return (seat,) if seat is not None and seat in self.to_act else ()
        return self.to_act

    def public_to_act(self) -> tuple[int, ...]:
        """The seats of ``to_act`` every viewer may see: none in a putuh window that asks
        only the holders."""
        return self.view_to_act(None)

    def observe(self, seat: int | None) -> KapHaiView:
        """The view of ``seat`` (``None``: a spectator): never another seat's hand.

        Its ``to_act`` is :meth:`view_to_act` and its ``current_seat`` that tuple's first
        seat: no other seat's right to declare putuh shows through them."""
        acting = self.view_to_act(seat)
        legal = (tuple(str(a) for a in self.legal_actions(seat))
                 if seat is not None and seat in acting else ())
        top = self._top
        return KapHaiView(
            game="kaphai", seat=seat, num_players=self._n, phase=KapHaiPhase(self._phase),
            hand=cards_of(self._hands[seat]) if seat is not None else None,
            counts=tuple(h.bit_count() for h in self._hands),
            to_act=acting, current_seat=acting[0] if acting else None, legal_actions=legal,
            table=tuple(TablePlay(seat=t, cards=c.cards, label="thrown" if thrown else "")
                        for t, c, thrown in self._trick),
            top=TablePlay(seat=self._top_seat, cards=top.cards) if top is not None else None,
            passed=tuple(s for s in range(self._n) if self._passed >> s & 1),
            out=tuple(self._out), status=self._status(),
            history=self._history_cache().view(self._history, seat),
            result=self._result.to_dict() if self._result is not None else None,
            three_game=self._three_game, shed=cards_of(self._shed), played=cards_of(self._played),
            top_combo=top.term if top is not None else None, lead_single=self._lead_single,
            leader=self._leader)

    def _status(self) -> tuple[Fact, ...]:
        """What a player must know besides the table: the 3-game's start, the putuh window,
        and how a putuh deal ended."""
        status = self._opening_facts()
        if self._phase is _PUTUH:
            status = (*status, PutuhWindow(all_seats=self._putuh is not None and self._putuh.order is not None))
        elif self._result is not None and self._result.reason == "putuh":
            status = (*status, *self._putuh_end()[:-1])
        return status

    def _opening_facts(self) -> tuple[Fact, ...]:
        """A 3-game's start: who put out which 3s, and who leads with which card."""
        if self._opening is None:
            opening: list[Fact] = []
            dealt = [h for h in self._start if h]
            if self._three_game and dealt:
                shed = self._rules.three_game_shed_threes
                for s, h in enumerate(self._start):
                    if h & RANK_MASKS[0]:
                        opening.append(ThreesPutOut(seat=s, cards=cards_of(h & RANK_MASKS[0]), shed=shed))
                lowest = min((h & -h).bit_length() for h in dealt) - 1
                shown = lowest < 4  # a 3 is put out (or shown): any other card stays hidden
                opening.append(ThreeGame(seat=self._leader, card=CARDS[lowest] if shown else None,
                                         shed=shed))
            self._opening = tuple(opening)
        return self._opening

    def _history_cache(self) -> HistoryCache:
        cache = self._cache
        if cache is None:
            cache = self._cache = HistoryCache(describe_action)
        return cache

    def clone(self) -> Self:
        new = type(self).__new__(type(self))
        for name in _SLOTS:
            setattr(new, name, getattr(self, name))
        new._hands = list(self._hands)
        new._out = list(self._out)
        new._trick = list(self._trick)
        new._history = list(self._history)
        new._cache = self._cache.copy() if self._cache is not None else None
        new._tables = list(self._tables)  # tables are replaced, never mutated: share them
        if self._putuh is not None:
            new._putuh = _Putuh(dict(self._putuh.eligible), list(self._putuh.declared),
                                set(self._putuh.answered), self._putuh.order)
        return new

    def deal_info(self) -> dict[str, Any]:
        return {"setup": {"three_game": self._three_game, "leader": self._leader},
                "hands": [[str(c) for c in cards_of(h)] for h in self._start]}

    def all_cards(self) -> dict[str, tuple[Any, ...]]:
        places = {f"hand {s}": cards_of(h) for s, h in enumerate(self._hands)}
        places["played"] = cards_of(self._played)
        places["shed"] = cards_of(self._shed)
        places["undealt"] = cards_of(self._undealt)
        return places

    def hidden_cards(self, seat: int | None) -> tuple[Any, ...]:
        hidden = self._undealt
        result = self._result
        shown = ({int(k) for k in result.details.get("shown", {})}
                 if result is not None and result.reason == "putuh" else set())
        for s, h in enumerate(self._hands):
            if s != seat and s not in shown:
                hidden |= h
        return cards_of(hidden)

    def __repr__(self) -> str:
        return (f"<KapHaiState {self._phase} to_act={self.to_act} top={self._top} "
                f"counts={[h.bit_count() for h in self._hands]}>")
