"""The Gou Ji tribute and trick flow, mixed into :class:`~folkdeck.games.gouji.state.GouJiState`.

Tricks (docs/rules/gouji.md §3.3), gouji duels (docs/rules/gouji.md §4.2, §11.3), going out
during a duel, burning (烧牌) and its aftermath, 先让让, and the end of the deal
(places 头科 … 大落, team scores). Tribute (进贡, docs/rules/gouji.md §2.6) comes first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from folkdeck.cards import Card
from folkdeck.engine.facts import Fact, TrickWon
from folkdeck.engine.protocol import Action, Event, Result
from folkdeck.games.gouji.actions import NO, OPEN, PASS, XIAN, Burn, Foul, Order, Return
from folkdeck.games.gouji.deal import SEATS, Setup, is_sweep, opposite, team, tribute_pairs
from folkdeck.games.gouji.events import (
    PLACE_TITLES,
    Answers,
    BurnWindow,
    GoujiCalled,
    GouJiDealOver,
    Liberation,
    Opened,
    ShangBan,
    TributeGiven,
    TributeReturned,
    TributeSkipped,
    TurnOrder,
    WentOutAs,
    XianAnswered,
)
from folkdeck.games.gouji.modern import ModernRules
from folkdeck.games.gouji.rules import (
    BJ,
    NRANKS,
    RANK_OF,
    RJ,
    TWO,
    Play,
    highest,
    is_gouji,
    with_cards,
)

if TYPE_CHECKING:
    from folkdeck.games.gouji.options import GouJiOptions

_SEATING: Final = list(range(SEATS))
"""The turn order before any re-ordering (docs/rules/gouji.md §7.4)."""
# The facts of every trick, gouji call and place, made once (facts are immutable): a fact
# made anew each time and kept in the history is work for the garbage collector in every
# deal (folkdeck bench).
_TRICK_WON: Final = tuple(tuple(TrickWon(seat=w, leader=t) for t in range(SEATS)) for w in range(SEATS))
_GOUJI_CALLED: Final = tuple(GoujiCalled(seat=s, opposite=opposite(s)) for s in range(SEATS))
_ANSWERS: Final = tuple(tuple(Answers(seat=opposite(x), gouji_seat=x, last=last) for last in (False, True))
                 for x in range(SEATS))
_WENT_OUT: Final = tuple(tuple(WentOutAs(seat=s, place=k + 1, title=PLACE_TITLES[k]) for k in range(SEATS))
                  for s in range(SEATS))


class PlayFlow(ModernRules):
    """Tribute and trick transitions; the state owns every container used here."""

    _opts: GouJiOptions
    _thresholds: dict[int, int]
    _setup: Setup
    _hands: list[list[int]]
    _cards: list[list[list[Card]]]
    _left: list[int]
    _played: list[Card]
    _played_counts: list[int]
    _history: list[Event]
    _tribute: list[Fact]
    """The tribute's facts (given, returned, skipped), for the views' ``status``: the
    exchange may happen before any event (a deal that starts with it)."""
    _result: Result | None
    _open: int
    _opened: int
    """``modern_kai_dian``: seats that have opened (开点): their gouji was passed by the opposite."""
    _leader: int
    _phase: str
    _pairs: list[tuple[int, int, int]]
    _top: Play | None
    _top_seat: int
    _passed: int
    _mode: str
    _window: list[int]
    """Seats still to answer the open play-phase window (burning or re-ordering)."""
    _window_kind: str
    _order: list[int]
    _pos: list[int]
    _gouji_seat: int
    _xian_offer: int
    _xian_req: int
    _trick: list[tuple[int, Play | None]]
    _table: list[tuple[int, tuple[Card, ...]]]
    """The cards of each play of the current trick (the views' ``table``)."""
    _out: list[int]
    _turn: int

    def _init_play(self) -> None:
        self._top = None
        self._top_seat = -1
        self._passed = 0
        self._mode = "normal"
        self._window = []
        self._window_kind = ""
        self._order = list(range(SEATS))
        self._pos = list(range(SEATS))
        self._opened = 0
        self._gouji_seat = -1
        self._xian_offer = -1
        self._xian_req = -1
        self._trick = []
        self._table = []
        self._out = [s for s in range(SEATS) if not self._left[s]]
        self._turn = self._leader
        self._played_counts = [0] * NRANKS
        self._fouls = []
        self._offences = []
        self._to_end = 0
        self._owe = None

    # --- cards ---------------------------------------------------------------------
    def _take(self, s: int, rank: int, n: int, named: tuple[Card, ...] | None = None) -> list[Card]:
        """Take ``n`` cards of ``rank`` from the hand of ``s``: first the copies ``named``
        (the suited cards a player typed; verified held), then any (the pile's last)."""
        pile = self._cards[s][rank]
        if not named:  # the usual case: the pile's last n
            cut = len(pile) - n
            taken = pile[cut:]
            del pile[cut:]
        else:
            taken = []
            for card in named:
                if RANK_OF[card] == rank and len(taken) < n:
                    pile.remove(card)
                    taken.append(card)
            rest = n - len(taken)
            if rest:
                taken += pile[len(pile) - rest:]
                del pile[len(pile) - rest:]
        self._hands[s][rank] -= n
        self._left[s] -= n
        return taken

    def _put(self, s: int, cards: list[Card], rank: int) -> None:
        self._cards[s][rank].extend(cards)
        self._hands[s][rank] += len(cards)
        self._left[s] += len(cards)

    # --- tribute ---------------------------------------------------------------------
    def _begin_tribute(self, notes: list[Fact]) -> None:
        setup = self._setup
        pairs: list[tuple[int, int, int]] = []
        if setup.places is not None and (not setup.revolution_redeal
                                         or self._opts.tribute_after_revolution):
            owed = [(g, r, n, "jin_gong") for g, r, n in tribute_pairs(setup.places, self._opts)]
            owed += [(g, r, n, "dian_gong") for g, r, n in self._dian_gong_pairs()]
            for giver, receiver, n, kind in owed:
                if not (self._left[giver] and self._left[receiver]):
                    continue
                if team(giver) == team(receiver) and self._opts.tribute_between_teammates == "skip":
                    notes.append(TributeSkipped(seat=giver, receiver=receiver))
                    self._tribute.append(notes[-1])
                    continue
                if self._opts.liberation and self._hands[giver][RJ] == 4:
                    notes.append(Liberation(seat=giver, receiver=receiver))
                    self._tribute.append(notes[-1])
                    continue
                given: list[Card] = []
                for r in highest(self._hands[giver], n):
                    moved = self._take(giver, r, 1)
                    self._put(receiver, moved, r)
                    given += moved
                notes.append(TributeGiven(seat=giver, receiver=receiver, count=n, kind=kind,
                                          cards=tuple(given)))
                self._tribute.append(notes[-1])
                pairs.append((giver, receiver, n))
        self._pairs = pairs
        if pairs:
            self._phase = "tribute"
        else:
            self._start_play(notes)

    def _give_back(self, s: int, action: Return, notes: list[Fact]) -> None:
        giver, _, n = self._pairs.pop(0)
        back: list[Card] = []
        named = list(action.cards or ())
        for r in action.ranks:
            moved = self._take(s, r, 1, tuple(named))
            if moved[0] in named:
                named.remove(moved[0])
            self._put(giver, moved, r)
            back += moved
        notes.append(TributeReturned(seat=s, receiver=giver, count=n, cards=tuple(back)))
        self._tribute.append(notes[-1])
        if not self._pairs:
            self._start_play(notes)

    def _start_play(self, notes: list[Fact]) -> None:
        self._phase = "play"
        self._turn = self._leader if self._left[self._leader] else self._next_with_cards(self._leader)
        notes.append(ShangBan(seat=self._turn))
        self._check_end(notes)

    # --- play --------------------------------------------------------------------------
    def _apply_play(self, s: int, action: Action, notes: list[Fact]) -> Action:
        """Perform ``action``; return it as the event records it (a set with the cards it
        took, see :meth:`_play`)."""
        if self._xian_req >= 0 and s == self._turn and not self._window and (
                type(action) is Play or action == PASS):
            notes.append(XianAnswered(seat=s, requester=self._xian_req,
                                      answer="agreed" if action == PASS else "refused"))
        if type(action) is Play and not self._window:
            self._xian_offer = -1
            self._xian_req = -1
            return self._play(s, action, notes, burn=False)
        if (action is PASS or action == PASS) and not self._window:
            self._xian_offer = -1
            self._xian_req = -1
            self._pass(s, notes)
            return action
        if action == OPEN:
            self._open |= 1 << s
            return action
        if action == XIAN:
            self._xian_req = s
            self._xian_offer = -1
            return action
        if type(action) is Foul:
            if self._window:  # a false burning claim
                self._window.pop(0)
                if self._foul(s, action.claim, notes):
                    return action
                if not self._window:
                    self._window_kind = ""
                    self._to_opposite(self._gouji_seat, notes)
                return action
            self._foul(s, action.claim, notes)  # a false 先让让
            return action
        if self._window_kind == "reorder":
            self._window.pop(0)
            if isinstance(action, Order):
                positions = sorted(self._pos[m] for m in action.seats)
                for p, m in zip(positions, action.seats, strict=True):
                    self._order[p] = m
                    self._pos[m] = p
                notes.append(TurnOrder(order=tuple(self._order)))
            if not self._window:
                self._window_kind = ""
            return action
        if self._window:
            if action == NO:
                self._window.pop(0)
                if not self._window:
                    self._window_kind = ""
                    self._to_opposite(self._gouji_seat, notes)
                return action
            assert isinstance(action, Burn)
            self._window = []
            self._window_kind = ""
            if self._opts.modern_burning:
                self._to_end |= 1 << s
            return Burn(self._play(s, action.play, notes, burn=True))
        self._xian_offer = -1
        self._xian_req = -1
        if action == PASS:
            self._pass(s, notes)
            return action
        assert isinstance(action, Play)
        return self._play(s, action, notes, burn=False)

    def _play(self, s: int, p: Play, notes: list[Fact], *, burn: bool) -> Play:
        """Play the set ``p`` (taking the cards it names, if any); return it naming every
        card taken, for the event (the views show them in hand order, docs/rules/gouji.md
        §1.3: sorting here would cost every playout)."""
        named = p.cards
        rank, natural = p[0], p[1]
        taken = self._take(s, rank, natural, named)
        counts = self._played_counts
        counts[rank] += natural
        if p[5] != natural:  # wild cards (size above the naturals)
            for r, n in ((TWO, p.w2), (BJ, p.wbj), (RJ, p.wrj)):
                if n:
                    taken += self._take(s, r, n, named)
                    counts[r] += n
        cards = tuple(taken)
        made = with_cards(p, cards)
        self._played += cards
        self._top = p
        self._top_seat = s
        self._trick.append((s, p))
        self._table.append((s, cards))
        if not self._left[s]:
            self._out.append(s)
            place = len(self._out)
            notes.append(_WENT_OUT[s][place - 1])
            if len(self._out) == 1:
                self._note_tou_ke(s)
            if self._check_end(notes):
                return made
        mode = self._mode
        if mode == "final":
            self._end_trick(notes)
            return made
        if burn:
            self._mode = "after_burn"
            self._advance(s, notes)
            return made
        o = opposite(s)
        if self._left[o] and (mode in ("duel", "after_burn") or is_gouji(p, self._thresholds)):
            self._gouji_seat = s
            if self._opts.burning:
                self._window = self._burn_window(s, p)
            if self._window:
                self._window_kind = "burn"
                notes.append(_GOUJI_CALLED[s])
                notes.append(BurnWindow(seats=tuple(self._window)))
            else:
                notes.append(_GOUJI_CALLED[s])
                self._to_opposite(s, notes)
            return made
        self._mode = "normal"
        self._advance(s, notes)
        self._offer_xian(s)
        return made

    def _to_opposite(self, x: int, notes: list[Fact]) -> None:
        o = opposite(x)
        self._mode = "duel" if self._left[x] else "final"
        self._turn = o
        notes.append(_ANSWERS[x][not self._left[x]])

    def _pass(self, s: int, notes: list[Fact]) -> None:
        self._passed |= 1 << s
        self._trick.append((s, None))
        mode = self._mode
        if mode == "duel" and self._tracks_opening and not self._opened >> self._top_seat & 1:
            self._opened |= 1 << self._top_seat
            notes.append(Opened(seat=self._top_seat))
        if mode == "final" or (mode == "duel" and self._opts.gouji_duel_end == "trick_ends"):
            self._end_trick(notes)
            return
        self._mode = "normal" if mode == "duel" else mode
        self._advance(s, notes)

    def _advance(self, s: int, notes: list[Fact]) -> None:
        """The next seat after ``s`` still in the trick; the trick ends when every seat
        but the one whose play stands has passed (or is out)."""
        seat = s
        top = self._top_seat
        order, pos = self._order, self._pos
        for _ in range(SEATS):
            seat = order[(pos[seat] + 1) % SEATS]
            if seat != top and self._left[seat] and not self._passed >> seat & 1:
                self._turn = seat
                return
        self._end_trick(notes)

    def _end_trick(self, notes: list[Fact]) -> None:
        winner = self._top_seat
        leader = winner if self._left[winner] else self._next_with_cards(winner)
        notes.append(_TRICK_WON[winner][leader])
        self._top = None
        self._top_seat = -1
        self._passed = 0
        self._mode = "normal"
        self._trick = []
        self._table = []
        self._turn = leader
        self._offer_reorder()

    def _offer_reorder(self) -> None:
        """``team_reorder``: with 2+ out and 4 or fewer left, each team with two or more
        players left may re-order its members' turns before a round (docs/rules/gouji.md §7.4)."""
        holding = [s for s in range(SEATS) if self._left[s]]
        if not self._opts.team_reorder or len(self._out) < 2 or len(holding) > 4:
            return
        reps = []
        for k in (0, 1):
            members = [s for s in holding if s % 2 == k]
            if len(members) >= 2:
                reps.append(members[0])
        if reps:
            self._window = reps
            self._window_kind = "reorder"

    def reorder_members(self, seat: int) -> tuple[int, ...]:
        """The remaining seats of ``seat``'s team in their turn positions' order."""
        members = [s for s in range(SEATS) if self._left[s] and team(s) == team(seat)]
        return tuple(sorted(members, key=lambda m: self._pos[m]))

    def _offer_xian(self, s: int) -> None:
        """先让让: i played, i+1 and i+2 passed, the opposite i+3 (= s) played."""
        i = (s + 3) % SEATS
        if not self._opts.xian_rang_rang or self._turn != (s + 1) % SEATS or not self._left[i] \
                or self._passed >> i & 1:
            return
        if self._order != _SEATING:
            return  # turns re-ordered: the seating that 先让让 describes no longer holds
        want = [(i, True), ((i + 1) % SEATS, False), ((i + 2) % SEATS, False), (s, True)]
        got = [(t, p is not None) for t, p in self._trick[-4:]]
        if got == want:
            self._xian_offer = i

    def _next_with_cards(self, seat: int) -> int:
        for _ in range(SEATS):
            seat = self._order[(self._pos[seat] + 1) % SEATS]
            if self._left[seat]:
                return seat
        return seat

    # --- the end -------------------------------------------------------------------------
    def _check_end(self, notes: list[Fact]) -> bool:
        holding = [s for s in range(SEATS) if self._left[s]]
        team_out = self._opts.end_when_team_out and any(
            all(not self._left[t] for t in range(k, SEATS, 2)) for k in (0, 1))
        if len(holding) > 1 and not team_out:
            return False
        after = self._out[-1] if self._out else 0
        holding.sort(key=lambda t: (self._left[t], (t - after) % SEATS))
        self._out += holding
        self._out += reversed(self._fouls)  # offenders last: the first is Da La
        self._note_tou_ke(self._out[0])
        places = [0] * SEATS
        for place, t in enumerate(self._out, 1):
            places[t] = place
        table = self._opts.score_table
        scores = [sum(table[places[t] - 1] for t in range(k, SEATS, 2)) for k in (0, 1)]
        sweep = is_sweep(places)
        if sweep and self._opts.sweep_double:
            scores = [2 * x for x in scores]
        details: dict[str, object] = {"order": list(self._out), "team_scores": scores,
                                      "sweep": sweep}
        if self._fouls:
            details["offenders"] = list(self._fouls)
        if self._owe is not None:
            details["dian_gong"] = list(self._owe)
        self._result = Result(tuple(places), tuple(float(scores[t % 2]) for t in range(SEATS)),
                              "out", details)
        self._phase = "over"
        self._window = []
        self._window_kind = ""
        self._xian_offer = -1
        notes.append(GouJiDealOver(order=tuple(self._out), sweep=sweep))
        return True
