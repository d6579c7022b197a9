"""One deal of Gou Ji as an explicit state machine (seed 001, rules-notes §2).

Phases, in order: ``start`` (special deals: seats that drew two same-suit 3s may
``declare`` to lead), ``revolution`` (hands without 2s and jokers may call 革命;
teammates ``object``; the caller may ``withdraw``), ``tribute`` (receivers
``return`` cards), ``play``, ``over``. In ``play``, gouji (够级) starts a duel with
the opposite; before the opposite answers, the two entitled opponents are asked in
turn (X+1 first) whether they ``burn`` (烧牌) or say ``no``; 先让让 is an optional
``xian`` by a seat listed second in :attr:`to_act`.

A short deal from a study position (seat 0 leads; the others hold little):

>>> from folkdeck import load
>>> state = load("gouji").new_state(
...     hands=["9S 9H 2C", "10S", "3S", "KS KH", "4S", "5S 6S"], setup={"leader": 0})
>>> print(state.apply(state.parse_action("9 9")))
0: 9 9
>>> [str(a) for a in state.legal_actions()]      # 10S cannot beat a pair
['pass', 'open']
>>> for text in ["pass", "pass", "K K", "pass", "4", "5", "pass", "10", "pass", "pass"]:
...     print(state.apply(state.parse_action(text)))
1: pass
2: pass
3: K K; seat 3 goes out: Tou Ke 头科; gouji: seat 0 answers once more
0: pass; seat 3 wins the trick; seat 4 leads
4: 4; seat 4 goes out: Er Ke 二科
5: 5
0: pass
1: 10; seat 1 goes out: San Ke 三科
2: pass
5: pass; seat 1 wins the trick; seat 2 leads
>>> state.apply(state.parse_action("2"))
Traceback (most recent call last):
...
folkdeck.engine.errors.IllegalActionError: seat 2 does not hold 2
>>> for text in ["3", "6"]:
...     print(state.apply(state.parse_action(text)))
2: 3; seat 2 goes out: Si Ke 四科
5: 6; seat 5 goes out: Er La 二落; the deal is over: seat 3 Tou Ke, seat 4 Er Ke, seat 1 San Ke, seat 2 Si Ke, seat 5 Er La, seat 0 Da La
>>> state.result().placings, state.result().returns
((6, 3, 4, 1, 2, 5), (-2.0, 2.0, -2.0, 2.0, -2.0, 2.0))
"""

from __future__ import annotations

from itertools import combinations_with_replacement, permutations
from typing import TYPE_CHECKING, Any, Self

from folkdeck.cards import Card
from folkdeck.engine.errors import IllegalActionError, NotYourTurnError, WrongPhaseError
from folkdeck.engine.protocol import Action, Event, Result
from folkdeck.engine.state_base import StateBase
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
from folkdeck.games.gouji.modern import FOUL_BURN, FOUL_REVOLUTION, FOUL_XIAN
from folkdeck.games.gouji.rules import (
    BJ,
    NRANKS,
    RANK_OF,
    RJ,
    TWO,
    Play,
    beats,
    follow_plays,
    holds,
    lead_plays,
    refusal,
)

if TYPE_CHECKING:
    from folkdeck.games.gouji.game import GouJiGame
    from folkdeck.games.gouji.observation import GouJiObservation

FOUR = 1
"""The rank index of the 4s (``modern_kai_dian``)."""
RECENT = 30
"""Events kept in an observation's ``history`` (the record has them all)."""
_WINDOW_WORDS = {"start": (DECLARE, NO), "revolution": (REVOLUTION, NO), "objection": (OBJECT, NO),
                 "withdraw": (WITHDRAW, INSIST)}


class GouJiState(flow.PlayFlow, StateBase):
    """A Gou Ji deal. Build it with :meth:`GouJiGame.new_state`."""

    def __init__(self, game: GouJiGame, hands: list[list[Card]], setup: Setup, *,
                 leader: int, claims: list[int], naming: bool = False) -> None:
        self._game = game
        self._opts = game.options
        self._thresholds = game.options.thresholds()
        self._setup = setup
        self._start_hands = tuple(tuple(h) for h in hands)
        self._pending = None
        if naming:  # the Da La names the drawer first: nobody holds cards yet (seed)
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
        self._lines: list[str] = []
        """Each event as other seats see it (a tribute return hides its cards)."""
        self._private: list[list[str]] = [[] for _ in range(SEATS)]
        self._public: list[str] = []
        self._result: Result | None = None
        self._open = 0
        self._leader = leader
        self._claims = claims
        self._queue: list[int] = []
        self._declarer = -1
        self._objected = False
        self._rev_rest: list[int] = []
        self._pairs: list[tuple[int, int, int]] = []
        self._init_play()
        self._phase = "start"
        self._queue = list(claims)
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
                raise WrongPhaseError("the deal is over: no seat may act", phase=self._phase)
            return current
        if not 0 <= seat < SEATS:
            raise NotYourTurnError(f"there is no seat {seat} in Gou Ji (seats 0-5)", seat=seat)
        return seat

    def legal_actions(self, seat: int | None = None) -> tuple[GouJiAction, ...]:
        """Windows: the action then the decline. Play: sets by represented rank, then by
        naturals and wilds ascending; then ``pass`` (when following) and ``open``.
        Burning: ``burn`` sets then ``no``. Tribute: ``return`` choices ascending."""
        phase = self._phase
        if phase == "play" and not self._window and (seat is None or seat == self._turn):
            return self._play_actions(self._turn)
        if phase == "over":
            return ()
        s = self._seat(seat)
        acting = self.to_act
        if s not in acting:
            return ()
        if phase == "revolution" and not self._may_revolt(s):
            return (FOUL_REVOLUTION, NO)
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
        if top is None:
            out = list(lead_plays(self._hands[s]))
        else:
            out = list(follow_plays(self._hands[s], top, self._opts.bj_wild_rule))
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
            return "3s may only be played as the whole last play, without jokers (modern_bie_san)"
        if self._opts.modern_kai_dian and p.rank == FOUR and not self._opened >> s & 1 \
                and self._hands[s][FOUR] != self._left[s]:
            return "4s may not be played before opening (开点, modern_kai_dian)"
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
            raise WrongPhaseError(f"the deal is over: {action} is not possible", phase="over",
                                  action=str(action))
        s = self._seat(seat)
        acting = self.to_act
        if s not in acting:
            waiting = ", ".join(f"seat {t}" for t in acting)
            raise NotYourTurnError(f"seat {s} may not act now: waiting for {waiting}", seat=s,
                                   action=str(action))
        if phase in _WINDOW_WORDS or phase in ("tribute", "drawer") or self._window \
                or s != acting[0]:
            if action not in self.legal_actions(s):
                raise WrongPhaseError(self._window_reason(s, action), seat=s, action=str(action),
                                      phase=phase)
            return
        if action == OPEN:
            if not self._can_open(s):
                why = ("allow_open_hand is off" if not self._opts.allow_open_hand else
                       "the hand is already open" if self._open >> s & 1 else
                       f"an open hand needs 10 or fewer cards (seat {s} holds {self._left[s]})")
                raise IllegalActionError(f"seat {s} cannot open the hand: {why}", seat=s,
                                         action="open", reason=why)
            return
        top = self._top
        if action == PASS:
            if top is None:
                raise IllegalActionError(f"seat {s} leads this trick and may not pass", seat=s,
                                         action="pass", reason="the leader must lead")
            if self._to_end >> s & 1 and PASS not in self._play_actions(s):
                bar = "a burner must burn to the end: no pass while a set beats (modern_burning)"
                raise IllegalActionError(f"seat {s} may not pass: {bar}", seat=s, action="pass",
                                         reason=bar)
            return
        if not isinstance(action, Play):
            raise WrongPhaseError(f"seat {s} must play a set or pass now, not {action}", seat=s,
                                  action=str(action), phase=phase)
        self._verify_play(s, action, top)

    def _verify_play(self, s: int, p: Play, top: Play | None) -> None:
        if not holds(self._hands[s], p):
            raise IllegalActionError(f"seat {s} does not hold {p}", seat=s, action=str(p),
                                     reason="cards not in hand")
        if self._opts.modern_bie_san or self._opts.modern_kai_dian:
            why = self._modern_why(s, p)
            if why is not None and (top is not None or any(
                    self._modern_why(s, q) is None for q in lead_plays(self._hands[s]))):
                raise IllegalActionError(f"{p}: {why}", seat=s, action=str(p), reason=why)
        if self._to_end >> s & 1 and top is None and p.size != self._left[s] \
                and p not in self._play_actions(s):
            why = "a burner must burn to the end: lead the whole rest (modern_burning)"
            raise IllegalActionError(f"{p}: {why}", seat=s, action=str(p), reason=why)
        if top is not None and not beats(p, top, self._opts.bj_wild_rule):
            why = refusal(p, top, self._opts.bj_wild_rule)
            raise IllegalActionError(f"{p} does not beat {top}: {why}", seat=s, action=str(p),
                                     reason=why)

    def _window_reason(self, s: int, action: Action) -> str:
        phase = self._phase
        if phase == "drawer":
            return f"seat {s} (Da La) must name the first drawer ('draw 0' … 'draw 5'), not {action}"
        if phase in _WINDOW_WORDS:
            words = " or ".join(str(w) for w in self.legal_actions(s))
            return f"seat {s} must answer {words} in the {phase} window, not {action}"
        if phase == "tribute":
            n = self._pairs[0][2]
            return (f"seat {s} must return {n} card(s) of the hand (e.g. 'return "
                    f"{' '.join(['3'] * n)}'), not {action}")
        if self._window_kind == "reorder":
            return (f"seat {s} must re-order the team's turns ('order "
                    f"{' '.join(map(str, self.reorder_members(s)))}') or say 'no', not {action}")
        if self._window:
            top = self._top
            if isinstance(action, Burn) and self._opts.modern_burning:
                return (f"seat {s} cannot burn with {action.play}: modern_burning needs the seat "
                        "opened (开点) and one set left after it")
            if isinstance(action, Burn):
                return (f"seat {s} cannot burn with {action.play}: it must beat {top} and leave "
                        "one set, or sets each holding a joker")
            return f"seat {s} must 'burn <set>' or say 'no' to burning {top}, not {action}"
        return f"seat {s} may only ask {self.legal_actions(s)[0]} out of turn, not {action}"

    def parse_action(self, text: str, seat: int | None = None) -> GouJiAction:
        """Read ``text`` in the record grammar; legality is checked by :meth:`apply`."""
        return parse_action(text)

    # --- transitions ---------------------------------------------------------------
    def apply(self, action: Action, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn)."""
        phase = self._phase
        s = self._turn if seat is None and phase == "play" and not self._window else \
            self._seat(seat)
        self.verify(action, s)
        notes: list[str] = []
        if phase == "play":
            self._apply_play(s, action, notes)
        elif phase == "tribute":
            assert isinstance(action, Return)
            self._give_back(s, action, notes)
        else:
            self._answer_window(s, action, notes)
        event = Event(s, action, tuple(notes))
        self._history.append(event)
        return event

    def _answer_window(self, s: int, action: Action, notes: list[str]) -> None:
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
                self._leader = s
                threes = [c for c in self._start_hands[s] if c.rank.value == "3"]
                suit = next(c.suit for c in threes if sum(d.suit == c.suit for d in threes) >= 2)
                assert suit is not None
                notes.append(f"seat {s} shows two 3s of one suit (3{suit.symbol} 3{suit.symbol}) "
                             "and leads")
                self._queue = []
            if not self._queue:
                self._begin_revolution(notes)
        elif phase == "revolution":
            if action == REVOLUTION:
                self._declarer = s
                notes.append(f"seat {s} calls revolution (革命)")
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
                notes.append(f"seat {s} objects to the revolution")
            if not self._queue:
                if self._objected:
                    self._phase = "withdraw"
                    self._queue = [self._declarer]
                else:
                    self._revolution(notes)
        elif action == INSIST:
            self._revolution(notes)
        else:
            notes.append(f"seat {s} withdraws the revolution")
            self._phase = "revolution"
            self._queue = self._rev_rest
            if not self._queue:
                self._begin_tribute(notes)

    def _begin_revolution(self, notes: list[str]) -> None:
        self._phase = "revolution"
        self._queue = []
        if self._opts.revolution_allowed and all(n == 36 for n in self._left):
            order = [(self._leader + k) % SEATS for k in range(SEATS)]
            self._queue = [s for s in order if self._opts.strict_penalty or self._may_revolt(s)]
        if not self._queue:
            self._begin_tribute(notes)

    def _may_revolt(self, s: int) -> bool:
        """A hand with no 2 and no joker may call revolution (seed)."""
        hand = self._hands[s]
        return not (hand[TWO] or hand[BJ] or hand[RJ])

    def _revolution(self, notes: list[str]) -> None:
        notes.append(f"revolution: seat {self._declarer} has the cards dealt again")
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
        return tuple(c for pile in self._cards[s] for c in pile)

    def _public_line(self, event: Event) -> str:
        if isinstance(event.action, Return):
            return f"{event.seat}: return ({len(event.action.ranks)} card(s))" + "".join(
                f"; {n}" for n in event.notes)
        return str(event)

    def public_to_act(self) -> tuple[int, ...]:
        """The seats of ``to_act`` every viewer may see (notes §2.1-§2.2). Public: the
        drawer, tribute, objection and withdrawal turns, play, re-order windows, a 先让让
        offer (the trick shows it) and ``strict_penalty``'s false-claim seat. Hidden: who
        may declare two 3s (``start``), call revolution or burn, since that depends on
        hidden cards; with ``strict_penalty`` every seat is asked there, so those are public."""
        acting = self.to_act
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

    def observe(self, seat: int | None) -> GouJiObservation:
        """The view of ``seat`` (``None``: a spectator): never another seat's hidden cards.
        Its ``to_act`` is :meth:`view_to_act`."""
        from folkdeck.games.gouji.observation import GouJiObservation

        lines = self._lines
        for event in self._history[len(lines):]:  # filled lazily: apply stays lean
            lines.append(self._public_line(event))
        acting = self.view_to_act(seat)
        legal = (tuple(str(a) for a in self.legal_actions(seat))
                 if seat is not None and seat in acting else ())
        top = self._top
        return GouJiObservation(
            seat=seat, phase=self._phase,
            hand=self._hand_cards(seat) if seat is not None else None,
            counts=tuple(self._visible_count(seat, s) for s in range(SEATS)),
            shown=self._shown_to(seat), top=str(top) if top is not None else None,
            top_seat=self._top_seat if top is not None else None, mode=self._mode,
            gouji_seat=self._gouji_seat if self._mode != "normal" or self._window else None,
            passed=tuple(s for s in range(SEATS) if self._passed >> s & 1),
            to_act=acting, current_seat=acting[0] if acting else None,
            trick=tuple(f"{s}: {'pass' if p is None else p}" for s, p in self._trick),
            history=tuple(self._lines[-RECENT:]) if seat is None else tuple(
                str(e) if e.seat == seat and isinstance(e.action, Return) else line
                for e, line in zip(self._history[-RECENT:], self._lines[-RECENT:], strict=True)),
            played=tuple(self._played_counts),
            out_order=tuple(self._out), leader=self._leader, tribute=tuple(self._public),
            private=tuple(self._private[seat]) if seat is not None else (),
            xian_request=self._xian_req if self._xian_req >= 0 else None,
            opened=tuple(t for t in range(SEATS) if self._opened >> t & 1),
            legal_actions=legal,
            result=self._result.to_dict() if self._result is not None else None)

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._cards = [[list(p) for p in hand] for hand in self._cards]
        new._hands = [list(h) for h in self._hands]
        new._left = list(self._left)
        new._played = list(self._played)
        new._played_counts = list(self._played_counts)
        new._history = list(self._history)
        new._lines = list(self._lines)
        new._private = [list(p) for p in self._private]
        new._public = list(self._public)
        new._queue = list(self._queue)
        new._rev_rest = list(self._rev_rest)
        new._pairs = list(self._pairs)
        new._given = list(self._given)
        new._window = list(self._window)
        new._order = list(self._order)
        new._pos = list(self._pos)
        new._trick = list(self._trick)
        new._out = list(self._out)
        new._fouls = list(self._fouls)
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
