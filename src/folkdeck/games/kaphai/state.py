"""One deal of Kap Hai as an explicit state machine (seed 000 §Ⅲ, notes §1.1).

Phases: ``putuh`` (only with ``putuh_optional``: the seats holding a putuh declare
or decline before the first lead), ``play`` (tricks), ``over``.

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
0: pass; seat 1 wins the trick and leads
>>> state.apply(state.parse_action("3C 3D")).line, state.current_seat
('1: 3C 3D', 2)
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Self

from folkdeck.engine.errors import (
    IllegalActionError,
    NotYourTurnError,
    WrongPhaseError,
)
from folkdeck.engine.protocol import Event, Result
from folkdeck.engine.state_base import StateBase
from folkdeck.games.kaphai.actions import PASS, PUTUH, KapHaiAction, Pass, Putuh, parse_action
from folkdeck.games.kaphai.observation import KapHaiObservation
from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import (
    FIVE,
    PUTUH_NAMES,
    RANK_MASKS,
    Combo,
    Kind,
    allowed,
    beats,
    can_throw,
    cards_of,
    hand_combos,
    notation,
    putuh,
    refusal,
)

if TYPE_CHECKING:
    from folkdeck.games.kaphai.game import KapHaiGame

Shape = tuple[int, int]
"""``(kind, size)``: plays answer plays of the same shape (bombs aside)."""


class _Table:
    """A hand's combinations by shape, each list sorted by key: the move generator's
    precomputed table. Replaced (never mutated) when the hand plays, so clones share it;
    the key lists and bomb lists are derived on first use and kept."""

    __slots__ = ("shapes", "_flat", "_keys", "_bombs")

    def __init__(self, shapes: dict[Shape, list[Combo]]) -> None:
        self.shapes = shapes
        self._flat: tuple[Combo, ...] | None = None
        self._keys: dict[Shape, list[int]] = {}
        self._bombs: dict[int, list[Combo]] = {}

    @classmethod
    def of(cls, hand: int, rules: KapHaiOptions) -> _Table:
        # hand_combos already leaves out what the options forbid (see allowed()).
        groups: dict[Shape, list[Combo]] = {}
        for c in hand_combos(hand, rules):
            shape = (c.kind, c.size)
            group = groups.get(shape)
            if group is None:
                groups[shape] = [c]
            else:
                group.append(c)
        for cs in groups.values():
            cs.sort(key=_KEY)  # stable: equal keys keep the generation order
        return cls(dict(sorted(groups.items())))

    def without(self, m: int) -> _Table:
        shapes = {}
        for shape, cs in self.shapes.items():
            kept = [c for c in cs if not c.mask & m]
            if kept:
                shapes[shape] = kept
        return _Table(shapes)

    def flat(self) -> tuple[Combo, ...]:
        """Every combination, by shape then key: the leader's choices."""
        if self._flat is None:
            self._flat = tuple(c for cs in self.shapes.values() for c in cs)
        return self._flat

    def above(self, shape: Shape, key: int) -> list[Combo]:
        """The combinations of ``shape`` with a key above ``key``."""
        cs = self.shapes.get(shape)
        if not cs:
            return []
        keys = self._keys.get(shape)
        if keys is None:
            keys = self._keys[shape] = [c.key for c in cs]
        return cs[bisect_right(keys, key):]

    def bombs(self, kind: int) -> list[Combo]:
        """The plays that cut any play of ``kind`` (notes §1.2): kares and tong-farsons
        cut singles, tong-farsons cut kares, pae-kare cuts pairs."""
        found = self._bombs.get(kind)
        if found is None:
            shapes = self.shapes
            tong = [c for c in shapes.get(_FIVE_STRAIGHT, ()) if c.flush]
            found = self._bombs[kind] = (
                [*shapes.get(_KARE, ()), *tong] if kind == Kind.SINGLE else
                tong if kind == Kind.KARE else
                list(shapes.get(_PAE_KARE, ())) if kind == Kind.PAIR else [])
        return found


_KARE: Shape = (Kind.KARE, 4)
_FIVE_STRAIGHT: Shape = (Kind.STRAIGHT, 5)
_PAE_KARE: Shape = (Kind.PAIR_RUN, 8)
_SINGLE: Shape = (Kind.SINGLE, 1)
_TRIPLE: Shape = (Kind.TRIPLE, 3)
_KEY = attrgetter("key")


@dataclass(slots=True)
class _Putuh:
    """The declaration window: who may declare, who did, who has answered."""

    eligible: dict[int, tuple[int, int]]
    declared: list[int]
    answered: set[int]


class KapHaiState(StateBase):
    """A Kap Hai deal. Build it with :meth:`KapHaiGame.new_state`."""

    __slots__ = ("_game", "_rules", "_n", "_hands", "_start", "_undealt", "_shed", "_three_game",
                 "_leader", "_lead_single", "_phase", "_turn", "_top", "_top_seat", "_passed",
                 "_out", "_played", "_trick", "_history", "_putuh", "_result", "_tables", "_history_text")

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
        self._trick: list[tuple[int, KapHaiAction, bool]] = []
        self._history: list[Event] = []
        self._history_text: list[str] = []  # str() of the events, extended lazily by observe()
        self._result: Result | None = None
        self._putuh: _Putuh | None = None
        self._tables: list[tuple[int, _Table] | None] = [None] * self._n
        self._lead_single = three_game
        self._phase = "play"
        if three_game:
            # Seed §Ⅲ①: everyone puts out the 3s; the 3S holder leads a single. With 3S
            # out of play the holder of the lowest dealt card leads (note K12).
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
            if eligible and rules.putuh_optional:
                self._phase = "putuh"
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

    # --- the protocol's read side ------------------------------------------------
    @property
    def game(self) -> KapHaiGame:
        return self._game

    @property
    def to_act(self) -> tuple[int, ...]:
        if self._phase == "play":
            return (self._turn,)
        if self._phase == "putuh":
            assert self._putuh is not None
            return tuple(s for s in self._putuh.eligible if s not in self._putuh.answered)
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
    def _combos(self, seat: int, leading: bool) -> tuple[_Table, int]:
        """The seat's table and the cards it lists that have been played since.

        Following only needs short slices of the table, which are filtered on the
        fly; a lead needs every combination, so the table is cleaned first.
        """
        entry = self._tables[seat]
        hand = self._hands[seat]
        if entry is None:
            table = _Table.of(hand, self._rules)
        else:
            gone = entry[0] & ~hand
            if not gone or not leading:
                return entry[1], gone
            table = entry[1].without(gone)
        self._tables[seat] = (hand, table)
        return table, 0

    def legal_actions(self, seat: int | None = None) -> tuple[KapHaiAction, ...]:
        """Plays from weakest shape to strongest (by kind, size, key), then ``pass``.

        In the putuh window: ``putuh`` then ``pass`` for each eligible seat.
        """
        phase = self._phase
        if phase == "play" and (seat is None or seat == self._turn):
            s = self._turn
        elif phase == "over":
            return ()
        else:
            s = self._seat(seat)
            if s not in self.to_act:
                return ()
        if phase == "putuh":
            return (PUTUH, PASS)
        top = self._top
        table, gone = self._combos(s, top is None)
        if top is None:
            if self._lead_single:
                return tuple(table.shapes.get((Kind.SINGLE, 1), ()))
            return table.flat()
        answers = self._answers(table, top)
        if gone:
            return (*(c for c in answers if not c.mask & gone), PASS)
        return (*answers, PASS)

    def _answers(self, table: _Table, top: Combo) -> list[Combo]:
        """The plays of ``table`` that may go on ``top``, in legal-action order (§1.2);
        the caller drops those using cards already played."""
        rules = self._rules
        tk = top.kind
        if tk == Kind.STRAIGHT:
            out: list[Combo] = []
            if top.size == 3 and rules.throw_222_on_any_three:
                out.extend(c for c in table.shapes.get(_TRIPLE, ()) if c.is_throwable)
            above = table.above((tk, top.size), top.key)
            out.extend(c for c in above if c.is_police(rules)) if top.is_police(rules) else out.extend(above)
            return out
        if tk == Kind.SINGLE and top.key >> 2 <= FIVE and (
                rules.low_single_free or rules.low_single_same_rank):
            out = [c for c in table.shapes.get(_SINGLE, ()) if beats(c, top, rules)]
        elif tk == Kind.TRIPLE and not top.is_throwable:
            out = [c for c in table.shapes.get(_TRIPLE, ())[:1] if c.is_throwable]
            out.extend(table.above(_TRIPLE, top.key))
        else:
            out = table.above((tk, top.size), top.key)
        bombs = table.bombs(tk)
        return [*out, *bombs] if bombs else out

    def verify(self, action: KapHaiAction, seat: int | None = None) -> None:
        """Raise the reason an action is illegal now; return ``None`` if it is legal.

        :raises WrongPhaseError: the deal is over, or the action belongs to another phase.
        :raises NotYourTurnError: the seat may not act now.
        :raises IllegalActionError: the rules refuse it (the message says why).
        """
        if self._phase == "over":
            raise WrongPhaseError(f"the deal is over: {action} is not possible", phase="over",
                                  action=str(action))
        s = self._seat(seat)
        if s not in self.to_act:
            waiting = ", ".join(f"seat {t}" for t in self.to_act)
            raise NotYourTurnError(f"seat {s} may not act now: waiting for {waiting}", seat=s,
                                   action=str(action))
        if self._phase == "putuh":
            if not isinstance(action, (Putuh, Pass)):
                raise WrongPhaseError(f"seat {s} must first declare putuh or pass", seat=s,
                                      action=str(action), phase="putuh")
            return
        if isinstance(action, Putuh):
            reason = ("putuh wins automatically under these rules (putuh_optional is off)"
                      if not self._rules.putuh_optional else
                      "putuh may only be declared right after the deal, before the first lead")
            raise WrongPhaseError(f"seat {s} cannot declare putuh: {reason}", seat=s,
                                  action="putuh", phase=self._phase)
        if isinstance(action, Pass):
            if self._top is None:
                raise IllegalActionError(f"seat {s} leads this trick and may not pass", seat=s,
                                         action="pass", reason="the leader must lead")
            return
        if not isinstance(action, Combo):
            raise IllegalActionError(f"{action!r} is not a Kap Hai action", seat=s, action=str(action))
        why = self._play_refusal(s, action)
        if why is not None:
            raise IllegalActionError(why, seat=s, action=str(action), reason=why)

    def _play_refusal(self, s: int, combo: Combo) -> str | None:
        """Why seat ``s`` (on turn, in play) may not play ``combo`` now, or None."""
        missing = combo.mask & ~self._hands[s]
        if missing:
            return f"seat {s} does not hold {notation(missing)}"
        rules = self._rules
        if not allowed(combo, rules):
            return (f"{combo} is not allowed: double triples are off (allow_double_triple)"
                    if combo.kind is Kind.DOUBLE_TRIPLE else
                    f"{combo} is not allowed: 2s may not take part in consecutive pairs or polu "
                    "(twos_in_pair_runs is off)")
        top = self._top
        if top is None:
            if self._lead_single and combo.kind is not Kind.SINGLE:
                return f"{combo} cannot open a 3-game: the first lead must be a single card"
            return None
        if beats(combo, top, rules) or can_throw(combo, top, rules):
            return None
        return refusal(combo, top, rules)

    def parse_action(self, text: str, seat: int | None = None) -> KapHaiAction:
        """Read ``text`` (cards, ``pass`` or ``putuh``); legality is checked by :meth:`apply`."""
        return parse_action(text)

    # --- transitions ---------------------------------------------------------------
    def apply(self, action: KapHaiAction, seat: int | None = None) -> Event:
        """Verify and perform ``action`` for ``seat`` (default: the seat on turn)."""
        if self._phase == "play" and (seat is None or seat == self._turn):
            # The hot path: a play or a pass on turn (the same checks as verify()).
            s = self._turn
            notes: list[str] = []
            if type(action) is Combo:
                why = self._play_refusal(s, action)
                if why is not None:
                    raise IllegalActionError(why, seat=s, action=str(action), reason=why)
                self._play(s, action, notes)
            elif action is PASS and self._top is not None:
                self._passed |= 1 << s
                self._trick.append((s, PASS, False))
                self._advance(s, notes)
            else:
                self.verify(action, s)
                raise AssertionError(f"verify() accepted {action!r}")  # pragma: no cover
            event = Event(s, action, tuple(notes))
            self._history.append(event)
            return event
        s = self._seat(seat)
        self.verify(action, s)
        notes = []
        if self._phase == "putuh":
            self._answer_putuh(s, isinstance(action, Putuh), notes)
        elif isinstance(action, Pass):
            self._passed |= 1 << s
            self._trick.append((s, PASS, False))
            self._advance(s, notes)
        else:
            assert isinstance(action, Combo)
            self._play(s, action, notes)
        event = Event(s, action, tuple(notes))
        self._history.append(event)
        return event

    def _play(self, s: int, combo: Combo, notes: list[str]) -> None:
        m = combo.mask
        self._hands[s] &= ~m
        self._played |= m
        self._lead_single = False
        top = self._top
        if top is not None and can_throw(combo, top, self._rules):
            # Figure 3: thrown 2-2-2 does not take the trick; the thrower counts as passed.
            self._passed |= 1 << s
            self._trick.append((s, combo, True))
            notes.append(f"seat {s} throws {combo}; {top} by seat {self._top_seat} still leads")
        else:
            self._top = combo
            self._top_seat = s
            self._trick.append((s, combo, False))
        if not self._hands[s]:
            self._out.append(s)
            notes.append(f"seat {s} goes out, place {len(self._out)}")
            if sum(1 for h in self._hands if h) <= 1:
                self._finish_play()
                notes.append("the deal is over")
                return
        self._advance(s, notes)

    def _advance(self, s: int, notes: list[str]) -> None:
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
        if leader == winner:
            notes.append(f"seat {winner} wins the trick and leads")
        else:
            notes.append(f"seat {winner} wins the trick; seat {leader} leads")
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
        self._phase = "over"

    def _answer_putuh(self, s: int, declares: bool, notes: list[str]) -> None:
        window = self._putuh
        assert window is not None
        window.answered.add(s)
        if declares:
            window.declared.append(s)
            notes.append(f"seat {s} declares putuh ({PUTUH_NAMES[window.eligible[s][0]]})")
        if len(window.answered) < len(window.eligible):
            return
        if window.declared:
            self._finish_putuh(window.declared, window.eligible)
            notes.append(f"putuh: seat {self._out[0]} wins the deal")
        else:
            self._phase = "play"
            self._putuh = None

    def _finish_putuh(self, declarers: list[int], patterns: dict[int, tuple[int, int]]) -> None:
        """Seed §Ⅴ①G: the best pattern is 1st; no other places (or joint 1st)."""
        best = max(declarers, key=lambda s: patterns[s])
        winners = sorted(declarers) if self._rules.putuh_tie == "shared_first" else [best]
        places: list[int | None] = [1 if s in winners else None for s in range(self._n)]
        points = self._rules.placement_points
        returns = tuple(float(points[0] if p == 1 else points[1]) for p in places)
        # The declarers show their hands to the table (they are public from now on).
        details = {"putuh": {str(s): PUTUH_NAMES[patterns[s][0]] for s in declarers},
                   "winners": winners,
                   "shown": {str(s): notation(self._hands[s]) for s in declarers}}
        self._result = Result(tuple(places), returns, "putuh", details)
        self._out = list(winners)
        self._phase = "over"

    # --- views, copies, records ----------------------------------------------------
    def view_to_act(self, seat: int | None) -> tuple[int, ...]:
        """``to_act`` as ``seat`` may see it (``None``: a spectator). In play, the seat on
        turn. In the putuh window only ``seat`` itself, if it may still declare: who else
        may declare depends on their hidden hands (notes §1.3)."""
        acting = self.to_act
        if self._phase == "putuh":
            return (seat,) if seat is not None and seat in acting else ()
        return acting

    def public_to_act(self) -> tuple[int, ...]:
        """The seats of ``to_act`` every viewer may see: none in the putuh window."""
        return () if self._phase == "putuh" else self.to_act

    def observe(self, seat: int | None) -> KapHaiObservation:
        """The view of ``seat`` (``None``: a spectator): never another seat's hand.

        Its ``to_act`` is :meth:`view_to_act` and its ``current_seat`` that tuple's first
        seat: in the putuh window no other seat's right to declare shows through them."""
        acting = self.view_to_act(seat)
        legal = (tuple(str(a) for a in self.legal_actions(seat))
                 if seat is not None and seat in acting else ())
        return KapHaiObservation(
            seat=seat, num_players=self._n, phase=self._phase,
            hand=cards_of(self._hands[seat]) if seat is not None else None,
            counts=tuple(h.bit_count() for h in self._hands),
            top=str(self._top) if self._top is not None else None,
            top_name=self._top.name if self._top is not None else None,
            top_seat=self.top_seat, passed=tuple(s for s in range(self._n) if self._passed >> s & 1),
            to_act=acting, current_seat=acting[0] if acting else None,
            trick=tuple(f"{t}: {a}" + (" (thrown)" if thrown else "") for t, a, thrown in self._trick),
            history=self._history_lines(), out_order=tuple(self._out),
            three_game=self._three_game, shed=notation(self._shed), legal_actions=legal,
            result=self._result.to_dict() if self._result is not None else None)

    def _history_lines(self) -> tuple[str, ...]:
        text = self._history_text
        if len(text) < len(self._history):
            text.extend(str(e) for e in self._history[len(text):])
        return tuple(text)

    def clone(self) -> Self:
        new = object.__new__(type(self))
        for name in self.__slots__:
            setattr(new, name, getattr(self, name))
        new._hands = list(self._hands)
        new._out = list(self._out)
        new._trick = list(self._trick)
        new._history = list(self._history)
        new._history_text = list(self._history_text)
        new._tables = list(self._tables)  # tables are replaced, never mutated: share them
        if self._putuh is not None:
            new._putuh = _Putuh(dict(self._putuh.eligible), list(self._putuh.declared),
                                set(self._putuh.answered))
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
        shown = set(self._result.details.get("winners", ())) if self._result is not None else set()
        for s, h in enumerate(self._hands):
            if s != seat and not (self._result is not None and self._result.reason == "putuh"
                                  and s in shown):
                hidden |= h
        return cards_of(hidden)

    def __repr__(self) -> str:
        return (f"<KapHaiState {self._phase} to_act={self.to_act} top={self._top} "
                f"counts={[h.bit_count() for h in self._hands]}>")
