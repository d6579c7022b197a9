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
from itertools import combinations_with_replacement, permutations
from typing import TYPE_CHECKING, Any, Final, Self

from folkdeck.cards import Card
from folkdeck.engine.errors import IllegalActionError, NotYourTurnError, WrongPhaseError
from folkdeck.engine.facts import Fact
from folkdeck.engine.protocol import Action, Event, Result
from folkdeck.engine.view import HistoryCache
from folkdeck.games.gouji import flow
from folkdeck.games.gouji.actions import (
    DECLARE,
    INSIST,
    NO,
    OBJECT,
    OPEN,
    PASS,
    REVOLUTION,
    WITHDRAW,
    XIAN,
    Burn,
    Draw,
    Foul,
    GouJiAction,
    Order,
    Return,
    parse_action,
)
from folkdeck.games.gouji.deal import SEATS, Setup, team
from folkdeck.games.gouji.events import (
    DianGongOwed,
    Liberation,
    Offence,
    Redeal,
    ThreesShown,
    TributeGiven,
    TributeReturned,
    TributeSkipped,
    describe_action,
)
from folkdeck.games.gouji.modern import FOUL_BURN, FOUL_REVOLUTION, FOUL_XIAN
from folkdeck.games.gouji.rules import (
    BJ,
    HAND_ORDER,
    NRANKS,
    RANK_OF,
    RJ,
    TWO,
    Play,
    beats,
    follow_plays,
    holds,
    lead_plays,
    named_cards,
    play_from_counts,
    refusal,
    with_cards,
)

if TYPE_CHECKING:
    from folkdeck.games.gouji.game import GouJiGame
    from folkdeck.games.gouji.observation import GouJiView

FOUR: Final = 1
"""The rank index of the 4s (``modern_kai_dian``)."""
# ``_new_event(_EVENT, (seat, action, facts))`` == ``Event(seat, action, facts)``, without the
# named tuple's Python-level ``__new__`` (made on every action). Compiled, the ``Final`` alias
# is read from a C static, where the imported ``Event`` is looked up in the module's dict.
_new_event: Final = tuple.__new__
_EVENT: Final = Event

_WINDOW_WORDS: Final = {"start": (DECLARE, NO), "revolution": (REVOLUTION, NO), "objection": (OBJECT, NO),
                 "withdraw": (WITHDRAW, INSIST)}
_FIELDS: Final = ("_cards", "_claims", "_declared", "_declarer", "_fouls", "_game", "_gouji_seat", "_handed",
           "_hands", "_history", "_leader", "_left", "_mode", "_objected", "_offences", "_open",
           "_opened", "_opts", "_order", "_out", "_owe", "_pairs", "_passed", "_pending", "_phase",
           "_played", "_played_counts", "_pos", "_queue", "_result", "_rev_rest", "_setup",
           "_start_all", "_start_hands", "_table", "_thresholds", "_to_end", "_top", "_top_seat",
           "_tribute", "_trick", "_turn", "_views", "_window", "_window_kind", "_xian_offer",
           "_xian_req")
"""Every attribute of a state, which :meth:`GouJiState.clone` copies one by one: the compiled
build's state (README "Fast build") has no ``__dict__`` to copy."""


class GouJiState(flow.PlayFlow):
    """A Gou Ji deal. Build it with :meth:`GouJiGame.new_state`."""

    _handed: tuple[GouJiAction, ...] | None = None
    """The play phase's legal list as :meth:`legal_actions` last gave it for this very
    position (cleared by every :meth:`apply`): a set equal to one of them and naming no
    cards is legal without verifying it again (docs/rules/gouji.md §8)."""

    def __init__(self, game: GouJiGame, hands: list[list[Card]], setup: Setup, *,
                 leader: int, claims: list[int], naming: bool = False,
                 asks_start: bool = False) -> None:
        """``claims``: the seats that completed two 3s of one suit, in that order;
        ``asks_start``: the deal has a 3s start (a special deal without a fixed leader)."""
        self._game = game
        self._opts = game.options
        self._thresholds = game.options.thresholds()
        self._setup = setup
        self._start_hands = tuple(tuple(h) for h in hands)
        self._pending = None
        if naming:  # the Da La names the drawer first: nobody holds cards yet (docs/rules/gouji.md §11.16)
            self._pending = [list(h) for h in hands]
            hands = [[] for _ in range(SEATS)]
        self._cards = [[[] for _ in range(NRANKS)] for _ in range(SEATS)]
        self._hands = [[0] * NRANKS for _ in range(SEATS)]
        for s, hand in enumerate(hands):
            piles, counts = self._cards[s], self._hands[s]
            for c in hand:
                r = RANK_OF[c]
                piles[r].append(c)
                counts[r] += 1
        self._left = [len(h) for h in hands]
        self._played: list[Card] = []
        self._history: list[Event] = []
        self._views = HistoryCache(describe_action)
        self._tribute: list[Fact] = []
        self._result: Result | None = None
        self._open = 0
        self._leader = leader
        self._claims = claims
        self._declared: list[int] = []
        """``ask_all_seats``: the seats that declared their 3s (the earliest claim leads)."""
        self._queue: list[int] = []
        self._declarer = -1
        self._objected = False
        self._rev_rest: list[int] = []
        self._pairs: list[tuple[int, int, int]] = []
        self._init_play()
        self._phase = "start"
        self._queue = list(claims)
        self._start_all = asks_start and self._opts.ask_all_seats
        """The 3s start asks every seat in turn from the first drawer; the earliest claim
        among the declarers leads (not the first declarer asked)."""
        if self._start_all:
            self._queue = [t for t in ((leader + k) % SEATS for k in range(SEATS)) if self._left[t]]
        if naming:
            assert setup.da_la is not None
            self._phase = "drawer"
            self._queue = [setup.da_la]
        elif not self._queue:
            self._begin_revolution([])

    # --- the protocol's read side ------------------------------------------------
    @property
    def game(self) -> GouJiGame:
        return self._game

    @property
    def num_players(self) -> int:
        return SEATS

    @property
    def to_act(self) -> tuple[int, ...]:
        phase = self._phase
        if phase == "play":
            if self._window:
                return (self._window[0],)
            if self._xian_offer >= 0:
                return (self._turn, self._xian_offer)
            if self._opts.strict_penalty:
                foul = self._xian_foul_seat()
                if foul >= 0:
                    return (self._turn, foul)
            return (self._turn,)
        if phase in _WINDOW_WORDS or phase == "drawer":
            return (self._queue[0],)
        if phase == "tribute":
            return (self._pairs[0][1],)
        return ()

    @property
    def leader(self) -> int:
        """The seat that leads the first trick (上班 Shang Ban)."""
        return self._leader

    @property
    def setup(self) -> Setup:
        return self._setup

    def hand_counts(self, seat: int) -> tuple[int, ...]:
        """Rank counts of a seat's hand (the engine's view: not for agents)."""
        return tuple(self._hands[seat])

    # --- legal actions -------------------------------------------------------------
    def _seat(self, seat: int | None) -> int:
        if seat is None:
            current = self.current_seat
            if current is None:
                raise WrongPhaseError("deal_over", phase=self._phase)
            return current
        if not 0 <= seat < SEATS:
            raise NotYourTurnError("no_such_seat", seat=seat, players=SEATS)
        return seat

    def legal_actions(self, seat: int | None = None) -> tuple[GouJiAction, ...]:
        """Windows: the action then the decline. Play: sets by represented rank, then by
        naturals and wilds ascending; then ``pass`` (when following) and ``open``.
        Burning: ``burn`` sets then ``no``. Tribute: ``return`` choices ascending."""
        phase = self._phase
        if phase == "play" and not self._window and (seat is None or seat == self._turn):
            handed = self._handed = self._play_actions(self._turn)
            return handed
        if phase == "over":
            return ()
        s = self._seat(seat)
        acting = self.to_act
        if s not in acting:
            return ()
        if phase == "revolution" and not self._may_revolt(s):
            return (FOUL_REVOLUTION, NO) if self._opts.strict_penalty else (NO,)
        if phase == "start" and s not in self._claims:
            return (NO,)  # ask_all_seats: asked without the right, it may only decline
        if phase in _WINDOW_WORDS:
            return _WINDOW_WORDS[phase]
        if phase == "tribute":
            return self._returns(s)
        if phase == "drawer":
            return self._drawer_choices()
        if self._window_kind == "reorder":
            current = self.reorder_members(s)
            return (*(Order(p) for p in permutations(current) if p != current), NO)
        if self._window:
            top = self._top
            assert top is not None
            plays = self._burns(s, top)
            if not plays and self._opts.strict_penalty:
                return (FOUL_BURN, NO)
            return (*(Burn(p) for p in plays), NO)
        if s != acting[0]:
            return (XIAN,) if s == self._xian_offer else (FOUL_XIAN,)
        return self._play_actions(s)

    def _play_actions(self, s: int) -> tuple[GouJiAction, ...]:
        out: list[GouJiAction]
        top = self._top
        opts = self._opts
        if top is None:
            out = lead_plays(self._hands[s])  # type: ignore[assignment]  # a fresh list
        else:
            out = follow_plays(self._hands[s], top, opts.bj_wild_rule)  # type: ignore[assignment]
        if not (opts.modern_bie_san or opts.modern_kai_dian or self._to_end >> s & 1):
            # The usual case, made without copying the list again.
            if top is not None:
                out.append(PASS)
            if opts.allow_open_hand and self._left[s] <= 10 and not self._open >> s & 1:
                out.append(OPEN)
            return tuple(out)
        if self._opts.modern_bie_san or self._opts.modern_kai_dian:
            kept = [p for p in out if isinstance(p, Play) and self._modern_why(s, p) is None]
            if kept or top is not None:  # a leader barred from every set may lead any
                out = list(kept)
        may_pass = top is not None
        if self._to_end >> s & 1:  # modern_burning: burn to the end
            whole = [p for p in out if isinstance(p, Play) and p.size == self._left[s]]
            if top is None and whole:
                out = list(whole)
            may_pass = may_pass and not out
        if may_pass:
            out.append(PASS)
        if self._can_open(s):
            out.append(OPEN)
        return tuple(out)

    def _returns(self, s: int) -> tuple[Return, ...]:
        n = self._pairs[0][2]
        hand = self._hands[s]
        held = [r for r in range(NRANKS) if hand[r]]
        out = []
        for combo in combinations_with_replacement(held, n):
            if all(hand[r] >= combo.count(r) for r in set(combo)):
                out.append(Return(combo))
        return tuple(out)

    def _can_open(self, s: int) -> bool:
        return (self._opts.allow_open_hand and self._left[s] <= 10
                and not self._open >> s & 1)

    def _modern_why(self, s: int, p: Play) -> str | None:
        """Why a modern restriction bars ``p`` (``None``: it does not).

        憋三 (``modern_bie_san``): 3s only as the whole last play, without jokers.
        开点 (``modern_kai_dian``): no 4s before opening, unless the hand holds only 4s.
        """
        if self._opts.modern_bie_san and p.rank == 0 and (p.size != self._left[s] or p.jokers):
            return "gouji.bie_san"
        if self._opts.modern_kai_dian and p.rank == FOUR and not self._opened >> s & 1 \
                and self._hands[s][FOUR] != self._left[s]:
            return "gouji.fours_before_opening"
        return None

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise the reason an action is illegal now; return ``None`` if it is legal.

        :raises WrongPhaseError: the deal is over, or the action belongs to another phase.
        :raises NotYourTurnError: the seat may not act now.
        :raises IllegalActionError: the rules refuse it (the message says why).
        """
        phase = self._phase
        if phase == "play" and not self._window and (seat is None or seat == self._turn):
            if type(action) is Play:
                self._verify_play(self._turn, action, self._top)
                return
            if action is PASS and self._top is not None and not self._to_end >> self._turn & 1:
                return
        if phase == "over":
            raise WrongPhaseError("gouji.deal_over_action", phase="over", action=str(action))
        s = self._seat(seat)
        acting = self.to_act
        if s not in acting:
            raise NotYourTurnError("gouji.not_now", seat=s, action=str(action),
                                   waiting=list(self.view_to_act(s)))
        if phase in _WINDOW_WORDS or phase in ("tribute", "drawer") or self._window \
                or s != acting[0]:
            if action not in self.legal_actions(s):
                reason, params = self._window_reason(s, action)
                raise WrongPhaseError(reason, seat=s, action=str(action), phase=phase, **params)
            named = action.cards if isinstance(action, Return) else \
                action.play.cards if isinstance(action, Burn) else None
            if named is not None:
                self._check_named(s, named, str(action))
            return
        if action == OPEN:
            if not self._can_open(s):
                reason = ("gouji.open_off" if not self._opts.allow_open_hand else
                          "gouji.already_open" if self._open >> s & 1 else "gouji.open_needs_ten")
                raise IllegalActionError(reason, seat=s, action="open", count=self._left[s])
            return
        top = self._top
        if action == PASS:
            if top is None:
                raise IllegalActionError("gouji.leader_may_not_pass", seat=s, action="pass")
            if self._to_end >> s & 1 and PASS not in self._play_actions(s):
                raise IllegalActionError("gouji.burn_to_the_end_pass", seat=s, action="pass")
            return
        if not isinstance(action, Play):
            raise WrongPhaseError("gouji.play_or_pass", seat=s, action=str(action), phase=phase)
        self._verify_play(s, action, top)

    def _verify_play(self, s: int, p: Play, top: Play | None) -> None:
        if not holds(self._hands[s], p):
            raise IllegalActionError("gouji.not_held", seat=s, action=str(p))
        if p.cards is not None:
            self._check_named(s, p.cards, str(p))
        if self._opts.modern_bie_san or self._opts.modern_kai_dian:
            why = self._modern_why(s, p)
            if why is not None and (top is not None or any(
                    self._modern_why(s, q) is None for q in lead_plays(self._hands[s]))):
                raise IllegalActionError(why, seat=s, action=str(p))
        if self._to_end >> s & 1 and top is None and p.size != self._left[s] \
                and p not in self._play_actions(s):
            raise IllegalActionError("gouji.burn_to_the_end_lead", seat=s, action=str(p))
        if top is not None and not beats(p, top, self._opts.bj_wild_rule):
            reason, params = refusal(p, top, self._opts.bj_wild_rule)
            raise IllegalActionError(reason, seat=s, action=str(p), **params)

    def _window_reason(self, s: int, action: Action) -> tuple[str, dict[str, Any]]:
        """Why ``action`` is no answer in the open window: a reason key and parameters."""
        phase = self._phase
        if phase == "drawer":
            return "gouji.name_the_drawer", {}
        if phase in _WINDOW_WORDS:
            return "gouji.window_answer", {"answers": [str(w) for w in self.legal_actions(s)],
                                           "window": phase}
        if phase == "tribute":
            return "gouji.return_cards", {"count": self._pairs[0][2]}
        if self._window_kind == "reorder":
            return "gouji.reorder_or_no", {"seats": list(self.reorder_members(s))}
        if self._window:
            top = str(self._top)
            if isinstance(action, Burn) and self._opts.modern_burning:
                return "gouji.modern_burn_refused", {"set": str(action.play), "top": top}
            if isinstance(action, Burn):
                return "gouji.burn_refused", {"set": str(action.play), "top": top}
            return "gouji.burn_or_no", {"top": top}
        return "gouji.out_of_turn_only", {"allowed": str(self.legal_actions(s)[0])}

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
        self._check_named(s, named, str(action))
        if isinstance(action, Play):
            return with_cards(action, named)
        if isinstance(action, Burn):
            return Burn(with_cards(action.play, named))
        return replace(action, cards=named)

    def _check_named(self, s: int, named: tuple[Card, ...], action: str) -> None:
        """Refuse named cards that the hand of ``s`` does not hold (``gouji.cards_not_held``)."""
        missing: list[Card] = []
        for card in dict.fromkeys(named):
            short = named.count(card) - self._cards[s][RANK_OF[card]].count(card)
            missing += [card] * max(0, short)
        if missing:
            raise IllegalActionError("gouji.cards_not_held", seat=s, action=action,
                                     cards=[str(c) for c in missing])

    # --- transitions ---------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn)."""
        phase = self._phase
        s = self._turn if seat is None and phase == "play" and not self._window else \
            self._seat(seat)
        handed = self._handed
        if handed is None or s != self._turn or type(action) is not Play or action.cards is not None \
                or action not in handed:
            self.verify(action, s)
        self._handed = None
        notes: list[Fact] = []
        if phase == "play":
            action = self._apply_play(s, action, notes)  # a set: with the cards it took
        elif phase == "tribute":
            assert isinstance(action, Return)
            self._give_back(s, action, notes)
        else:
            self._answer_window(s, action, notes)
        event = _new_event(_EVENT, (s, action, tuple(notes)))
        self._history.append(event)
        return event

    def _answer_window(self, s: int, action: Action, notes: list[Fact]) -> None:
        phase = self._phase
        if phase == "drawer":
            assert isinstance(action, Draw)
            self._name_drawer(action, notes)
            return
        self._queue.pop(0)
        if type(action) is Foul:  # a false revolution (strict_penalty)
            if not self._foul(s, action.claim, notes) and not self._queue:
                self._begin_tribute(notes)
            return
        if phase == "start":
            if action == DECLARE:
                threes = [c for c in self._start_hands[s] if c.rank.value == "3"]
                pair = next(c for c in threes if sum(d.suit == c.suit for d in threes) >= 2)
                notes.append(ThreesShown(seat=s, suit=str(pair)[-1]))
                if self._start_all:
                    self._declared.append(s)  # every seat is asked: the first claim leads
                else:
                    self._leader = s
                    self._queue = []
            if not self._queue:
                if self._declared:
                    self._leader = min(self._declared, key=self._claims.index)
                self._begin_revolution(notes)
        elif phase == "revolution":
            if action == REVOLUTION:
                self._declarer = s
                self._objected = False
                self._rev_rest = self._queue
                self._queue = [t for t in ((s + 2) % SEATS, (s + 4) % SEATS) if self._left[t]]
                self._phase = "objection"
                if not self._queue:
                    self._revolution(notes)
            elif not self._queue:
                self._begin_tribute(notes)
        elif phase == "objection":
            if action == OBJECT:
                self._objected = True
            if not self._queue:
                if self._objected:
                    self._phase = "withdraw"
                    self._queue = [self._declarer]
                else:
                    self._revolution(notes)
        elif action == INSIST:
            self._revolution(notes)
        else:
            self._phase = "revolution"
            self._queue = self._rev_rest
            if not self._queue:
                self._begin_tribute(notes)

    def _begin_revolution(self, notes: list[Fact]) -> None:
        self._phase = "revolution"
        self._queue = []
        if self._opts.revolution_allowed and all(n == 36 for n in self._left):
            order = [(self._leader + k) % SEATS for k in range(SEATS)]
            everyone = self._opts.strict_penalty or self._opts.ask_all_seats
            self._queue = [s for s in order if everyone or self._may_revolt(s)]
        if not self._queue:
            self._begin_tribute(notes)

    def _may_revolt(self, s: int) -> bool:
        """A hand with no 2 and no joker may call revolution (docs/rules/gouji.md §2.5)."""
        hand = self._hands[s]
        return not (hand[TWO] or hand[BJ] or hand[RJ])

    def _revolution(self, notes: list[Fact]) -> None:
        notes.append(Redeal(seat=self._declarer))
        self._phase = "over"
        self._queue = []
        self._result = Result((None,) * SEATS, (0.0,) * SEATS, "revolution",
                              {"declarer": self._declarer})

    # --- views, copies, records ----------------------------------------------------
    def _visible_count(self, viewer: int | None, s: int) -> int | None:
        n = self._left[s]
        mode = self._opts.public_counts
        if viewer == s or mode == "always" or (mode == "le10" and n <= 10) or n == 0 \
                or self._open >> s & 1:
            return n
        return None

    def _shown_to(self, viewer: int | None) -> dict[int, tuple[Card, ...]]:
        shown: dict[int, tuple[Card, ...]] = {}
        for s in range(SEATS):
            if s == viewer or not self._left[s]:
                continue
            mate = viewer is not None and team(s) == team(viewer)
            if self._open >> s & 1 or (mate and self._opts.share_hand_le10 and self._left[s] <= 10):
                shown[s] = self._hand_cards(s)
        return shown

    def _hand_cards(self, s: int) -> tuple[Card, ...]:
        """The hand as people read it (docs/rules/gouji.md §1.3): by rank, then ♠ ♣ ♦ ♥.
        The piles themselves keep the order the cards came in (which copy a rank-only
        set takes must not change, or old records would show other cards)."""
        order = HAND_ORDER.__getitem__
        return tuple(c for pile in self._cards[s] for c in sorted(pile, key=order))

    def public_to_act(self) -> tuple[int, ...]:
        """The seats of ``to_act`` every viewer may see (docs/rules/gouji.md §11.23). Public: the
        drawer, tribute, objection and withdrawal turns, play, re-order windows, a 先让让
        offer (the trick shows it) and ``strict_penalty``'s false-claim seat. With
        ``ask_all_seats`` (the default) the 3s start, revolution and burning windows ask
        every seat the public facts could entitle, so they are public too; without it
        (old records) who is asked there depends on hidden cards and is hidden, unless
        ``strict_penalty`` asks every seat of the revolution and burning windows."""
        acting = self.to_act
        if self._opts.ask_all_seats:
            return acting
        phase = self._phase
        strict = self._opts.strict_penalty
        if phase == "start" or (phase == "revolution" and not strict) or (
                phase == "play" and self._window_kind == "burn" and not strict):
            return ()
        return acting

    def view_to_act(self, seat: int | None) -> tuple[int, ...]:
        """``to_act`` as ``seat`` may see it: :meth:`public_to_act`, and ``seat`` itself."""
        public = self.public_to_act()
        return tuple(s for s in self.to_act if s in public or s == seat)

    def observe(self, seat: int | None) -> GouJiView:
        """The view of ``seat`` (``None``: a spectator): never another seat's hidden cards.
        Its ``to_act`` is :meth:`view_to_act`."""
        from folkdeck.games.gouji.observation import build_view, censor_history

        acting = self.view_to_act(seat)
        legal = (tuple(str(a) for a in self.legal_actions(seat))
                 if seat is not None and seat in acting else ())
        history = censor_history(self._views.view(self._history, seat), seat)
        return build_view(self, seat, acting, legal, history)

    @classmethod
    def from_view(cls, game: GouJiGame, view: GouJiView, *, hands: Sequence[Sequence[Card]],
                  played: Sequence[Card], events: Sequence[Event]) -> GouJiState:
        """A play-phase position that ``view``'s seat cannot tell from the real one: the
        view's public facts with ``hands`` (every seat's, the viewer's and the shown
        hands as the view has them) and ``played`` (every card played this deal, the
        current trick's as the view's ``table`` shows them) filled in by the caller (a
        determinizer). ``events`` is the deal's history rebuilt from the view
        (:func:`folkdeck.games.gouji.events.events_of`).

        :raises WrongPhaseError: for a view outside the play phase or in a window.
        """
        if view.phase != "play" or view.window or view.current_seat is None:
            raise WrongPhaseError("gouji.not_searchable", phase=str(view.phase))
        state: GouJiState = game.new_state(hands=[list(h) for h in hands],
                                           setup={"leader": view.current_seat})
        state._phase = "play"
        state._queue = []
        state._played = list(played)
        state._played_counts = list(view.played)
        state._history = list(events)
        state._tribute = [f for f in view.status if isinstance(
            f, TributeGiven | TributeReturned | TributeSkipped | Liberation)]
        state._offences = [f for f in view.status if isinstance(f, Offence)]
        state._fouls = [f.seat for f in state._offences]
        owe = [f.seats for f in view.status if isinstance(f, DianGongOwed)]
        state._owe = list(owe[0]) if owe else None
        state._opened = sum(1 << t for t in view.opened)
        state._open = sum(1 << t for t in view.laid_open)
        state._leader = view.leader
        top = view.top
        state._top = play_from_counts(_counts(top.cards)) if top is not None else None
        state._top_seat = top.seat if top is not None else -1
        state._passed = sum(1 << t for t in view.passed)
        state._mode = view.mode
        state._order = list(view.turn_order)
        state._pos = [view.turn_order.index(t) for t in range(SEATS)]
        state._gouji_seat = view.gouji_seat if view.gouji_seat is not None else -1
        state._xian_req = view.xian_request if view.xian_request is not None else -1
        state._xian_offer = view.to_act[1] if len(view.to_act) > 1 and \
            not game.options.strict_penalty else -1
        plays = iter(view.table)
        state._trick = [(t, play_from_counts(_counts(next(plays).cards)) if shown else None)
                        for t, shown in view.trick]
        state._table = [(p.seat, tuple(p.cards)) for p in view.table]
        state._out = list(view.out)
        state._turn = view.current_seat
        if game.options.modern_burning:  # a burner burns to the end until it is out
            state._to_end = sum(1 << e.seat for e in events if type(e.action) is Burn
                                and state._left[e.seat])
        return state

    def clone(self) -> Self:
        new = type(self).__new__(type(self))
        for name in _FIELDS:
            setattr(new, name, getattr(self, name))
        new._cards = [[list(p) for p in hand] for hand in self._cards]
        new._hands = [list(h) for h in self._hands]
        new._left = list(self._left)
        new._played = list(self._played)
        new._played_counts = list(self._played_counts)
        new._history = list(self._history)
        new._views = self._views.copy()
        new._tribute = list(self._tribute)
        new._declared = list(self._declared)
        new._queue = list(self._queue)
        new._rev_rest = list(self._rev_rest)
        new._pairs = list(self._pairs)
        new._window = list(self._window)
        new._order = list(self._order)
        new._pos = list(self._pos)
        new._trick = list(self._trick)
        new._table = list(self._table)
        new._out = list(self._out)
        new._fouls = list(self._fouls)
        new._offences = list(self._offences)
        return new

    def deal_info(self) -> dict[str, Any]:
        return {"setup": self._setup.to_dict(),
                "hands": [[str(c) for c in h] for h in self._start_hands]}

    def all_cards(self) -> dict[str, tuple[Any, ...]]:
        places: dict[str, tuple[Any, ...]] = {
            f"hand {s}": self._hand_cards(s) for s in range(SEATS)}
        places["played"] = tuple(self._played)
        if self._pending is not None:
            places["pack"] = tuple(c for h in self._pending for c in h)
        return places

    def hidden_cards(self, seat: int | None) -> tuple[Any, ...]:
        shown = self._shown_to(seat)
        pack = () if self._pending is None else tuple(c for h in self._pending for c in h)
        return pack + tuple(c for s in range(SEATS) if s != seat and s not in shown
                            for c in self._hand_cards(s))

    def __repr__(self) -> str:
        return (f"<GouJiState {self._phase} to_act={self.to_act} top={self._top} "
                f"mode={self._mode} left={self._left}>")


def _counts(cards: Sequence[Card]) -> list[int]:
    """Rank counts of some cards."""
    counts = [0] * NRANKS
    for c in cards:
        counts[RANK_OF[c]] += 1
    return counts
