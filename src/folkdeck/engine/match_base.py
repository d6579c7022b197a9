"""What every match does the same way, whatever the game: dealing the next deal (from the
match's own RNG, or from a record's deal whose ``setup`` must be the one the match gives),
counting the deals, adding up the deals' returns, telling the score, and ending the match
with its winners. A game supplies only what carries over between its deals: a
:class:`CarryOver` (the next deal's setup, and what a finished deal changes).

>>> import random
>>> from folkdeck import load
>>> from folkdeck.engine.conformance import random_playout
>>> game = load("kaphai", players=3)
>>> match = MatchBase(game, CarryOver(), deals=2, rng=random.Random(1))
>>> while not match.is_over():
...     state = match.next_deal()
...     _ = random_playout(state, random.Random(2))
...     facts = match.finish_deal(state)
>>> [f.type for f in facts], match.standings().deals_played
(['score_changed', 'score_changed', 'score_changed', 'match_ended'], 2)
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Protocol, TypeVar, cast

from folkdeck.engine.errors import InvalidConfigError, InvalidDealError, WrongPhaseError
from folkdeck.engine.facts import Fact, MatchEnded, ScoreChanged
from folkdeck.engine.game_base import GameBase
from folkdeck.engine.protocol import Game, Match, Result, Standings, State
from folkdeck.engine.state_base import Blank, BlankMade

StateT = TypeVar("StateT", bound=State)
StateT_co = TypeVar("StateT_co", bound=State, covariant=True)

DEAL_SOURCES: Final = ("seed", "deck", "hands", "stock")
"""The fields of a record's deal that say how it was dealt (the rest is its ``setup``)."""


class DealingGame(Game, Protocol[StateT_co]):
    """A game whose ``new_state`` makes one kind of state (what a match deals)."""

    def new_state(self, *, seed: int | None = None, rng: random.Random | None = None,
                  deck: Sequence[object] | None = None, hands: Sequence[Sequence[object]] | None = None,
                  stock: Sequence[object] | None = None,
                  setup: Mapping[str, object] | None = None) -> StateT_co: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class DealSetup:
    """The next deal's setup as the match gives it, and how a record's setup is checked.

    ``given``: the setup the match deals with. ``checked``: the keys a record's setup must
    agree with, and the values the match gives (a key of ``given`` left out here is chance,
    such as a seed, taken from the record). ``if_omitted``: for a checked key a record leaves
    out, the value that counts as stated (a key not listed here may be left out: the match's
    value is used)."""

    given: Mapping[str, object]
    checked: Mapping[str, object]
    if_omitted: Mapping[str, object] = field(default_factory=dict)


class CarryOver(Blank):
    """What carries over between a game's deals; the defaults carry nothing.

    A game subclasses it and redefines the hooks its rules need; every hook has a working
    default, so a game with nothing to carry (every deal alike, its returns added up as
    points) uses this class as it is."""

    unit: str = "points"
    """The scores' unit (a term key: ``points``, ``chips``, ``penalties``)."""
    higher_wins: bool = True
    not_over_reason: str = "deal_not_over"
    """The reason key refusing to finish a deal that is not over."""
    limit_reason: str = "deals"
    """The ``match_ended`` reason when the number of deals ends the match."""

    def next_setup(self) -> DealSetup:
        """The next deal's setup; default: none, and nothing to check."""
        return DealSetup(given={}, checked={})

    def record_setup(self, plan: DealSetup, stated: Mapping[str, object],
                     sources: Mapping[str, object]) -> dict[str, object]:
        """The setup a record's deal (checked against ``plan``) is dealt with, given how it
        is dealt (``sources``: its ``seed``/``deck``/``hands``/``stock``); default: the
        match's setup with the record's other keys (its chance) added."""
        return {**plan.given, **stated}

    def record_dealt(self, state: State, stated: Mapping[str, object]) -> None:
        """Check a record's deal once dealt, where its cards decide part of the setup (who
        draws first), or take from it what the players chose (a free first dealer);
        default: nothing to check or take.

        :raises InvalidDealError: ``setup_mismatch`` naming ``setup.<key>``.
        """

    def carried(self) -> Mapping[str, object]:
        """What ``standings().carry`` shows; default: the next deal's given setup."""
        return self.next_setup().given

    def counts(self, result: Result) -> bool:
        """Whether a finished deal is one of the match's deals (a deal dealt again, as
        a Gou Ji revolution's, is not); default: every deal counts."""
        return True

    def score_facts(self, result: Result, totals: Sequence[float]) -> list[Fact]:
        """The facts of a counted deal's scoring, given every seat's new total of returns;
        default: one ``score_changed`` per seat."""
        return [ScoreChanged(seat=s, delta=r, total=totals[s], unit=self.unit)
                for s, r in enumerate(result.returns)]

    def after_deal(self, state: State, result: Result, *, last: bool) -> list[Fact]:
        """Carry a finished deal over to the next one; ``last``: whether the deal's scoring
        ended the match. Returns what it changed (who deals or leads next) as facts."""
        return []

    def own_end(self, totals: Sequence[float]) -> str | None:
        """The reason (a term key) the game's own rule ended the match (a target score, a
        penalty limit), given the totals of returns, or ``None``; default: only the number
        of deals ends a match."""
        return None

    def end_facts(self) -> list[Fact]:
        """Facts told at the match's end before ``match_ended`` (who lost, a pot settled);
        the winners are found after it. Default: none."""
        return []

    def scores(self, totals: Sequence[float]) -> tuple[float, ...]:
        """The standings' scores; default: the totals of the deals' returns."""
        return tuple(totals)

    def out_of_play(self) -> tuple[int, ...]:
        """Seats out of play (the standings' ``eliminated``, ranked last); default: none."""
        return ()

    def winners(self, scores: Sequence[float]) -> tuple[int, ...]:
        """The match's winners; default: the seats with the best score of those in play."""
        alive = [s for s in range(len(scores)) if s not in self.out_of_play()]
        best = (max if self.higher_wins else min)(scores[s] for s in alive)
        return tuple(s for s in alive if scores[s] == best)


class MatchBase(BlankMade, Generic[StateT]):
    """A match of ``game``: ``deals`` deals at most (``None``: only the game's own rule
    ends it), with ``carry`` keeping what passes from deal to deal (see the module)."""

    def __init__(self, game: DealingGame[StateT], carry: CarryOver, *, deals: int | None,
                 rng: random.Random) -> None:
        self._game = game
        self._carry = carry
        self._deals = deals
        self._rng = rng
        self._played = 0
        self._ended = False
        self.totals = [0.0] * game.num_players
        """Every seat's returns added up over the counted deals."""

    @property
    def game(self) -> DealingGame[StateT]:
        return self._game

    @property
    def deals_played(self) -> int:
        return self._played

    def next_deal(self, *, deal: Mapping[str, object] | None = None) -> StateT:
        """The next deal, set up as the deals before leave it (:meth:`CarryOver.next_setup`).

        ``deal``: a record's deal (``setup`` and ``seed``/``deck``/``hands``/``stock``).
        Its ``setup`` must agree with the match's on every checked key; its other keys (a
        chance such as a seed) are taken from it.

        :raises InvalidDealError: ``setup_mismatch`` naming ``setup.<key>``, or a bad deal.
        """
        plan = self._carry.next_setup()
        if deal is None:
            return self._game.new_state(rng=self._rng, setup=plan.given)
        stated = stated_setup(deal)
        check_setup(stated, plan.checked, plan.if_omitted)
        # A record's values as they were read: the game checks them (deal_source), naming the field.
        sources: dict[str, Any] = {k: deal[k] for k in DEAL_SOURCES if deal.get(k) is not None}
        setup = self._carry.record_setup(plan, stated, sources)
        if sources:
            state = self._game.new_state(setup=setup, **sources)
        else:
            state = self._game.new_state(rng=self._rng, setup=setup)
        self._carry.record_dealt(state, stated)
        return state

    def finish_deal(self, state: State) -> tuple[Fact, ...]:
        """Account a finished deal: its scores (if it counts), what carries over, and the
        match's end with its winners after the last deal.

        :raises WrongPhaseError: for a deal that is not over.
        """
        result = state.result()
        if result is None:
            raise WrongPhaseError(self._carry.not_over_reason, phase=str(state.phase))
        facts: list[Fact] = []
        if self._carry.counts(result):
            self._played += 1
            for s, r in enumerate(result.returns):
                self.totals[s] += r
            facts.extend(self._carry.score_facts(result, self.totals))
        facts.extend(self._carry.after_deal(state, result, last=self.is_over()))
        return tuple(facts) + self.closing()

    def closing(self) -> tuple[Fact, ...]:
        """The facts of the match's end, once, when it is over (none before)."""
        if self._ended or not self.is_over():
            return ()
        self._ended = True
        reason = self._carry.own_end(self.totals) or self._carry.limit_reason
        told = self._carry.end_facts()  # may settle what the end leaves open (a pot) first
        winners = self._carry.winners(self._carry.scores(self.totals))
        return (*told, MatchEnded(reason=reason, winners=winners))

    def report(self) -> tuple[Fact, ...]:
        """Facts that belong to no deal; default: none (a game with a seating draw between
        deals redefines it)."""
        return ()

    def limit_reached(self) -> bool:
        return self._deals is not None and self._played >= self._deals

    def is_over(self) -> bool:
        return self._carry.own_end(self.totals) is not None or self.limit_reached()

    def standings(self) -> Standings:
        """The scores so far (:meth:`CarryOver.scores`) and what carries to the next deal."""
        carry = self._carry
        return Standings(deals_played=self._played, deals_limit=self._deals, over=self.is_over(),
                         unit=carry.unit, scores=carry.scores(self.totals),
                         higher_wins=carry.higher_wins, eliminated=carry.out_of_play(),
                         carry=carry.carried())


class _ChoosesFirstSeat(Protocol):
    def new_match(self, *, deals: int | None = None, rng: random.Random | None = None,
                  **first_seat: int) -> Match: ...


def first_seat_option(game: Game) -> str | None:
    """The option that chooses ``game``'s free first seat (``first_dealer``,
    ``first_kai_pai``: :attr:`~folkdeck.engine.game_base.GameBase.first_seat`), or ``None``."""
    return game.first_seat_option if isinstance(game, GameBase) else None


def first_dealer_free(game: Game) -> bool:
    """Whether ``game``'s players choose a match's first dealer
    (:attr:`~folkdeck.engine.game_base.GameBase.first_dealer_free`)."""
    return isinstance(game, GameBase) and game.first_dealer_free


def start_match(game: Game, *, deals: int | None, rng: random.Random | None,
                chosen: Mapping[str, int | None] | None = None) -> Match:
    """``game.new_match``, with the first seat the players chose, if any: ``chosen`` maps
    options to seats (``{"first_dealer": 2}``, ``{"first_kai_pai": 3}``; a ``None`` seat is
    not chosen). Each is checked against the game's free first seat before the match is made
    (the :class:`~folkdeck.engine.protocol.Game` protocol does not declare the keywords).

    :raises InvalidConfigError: ``<option>_not_free`` where the game's rules fix that start,
        ``<option>_seat`` for a seat not at the table.
    """
    given = {option: seat for option, seat in (chosen or {}).items() if seat is not None}
    for option, seat in given.items():
        if not isinstance(game, GameBase):
            raise InvalidConfigError(f"{option}_not_free", option=option, field=option, game=game.spec.name)
        game.chosen_first_seat(option, seat)
    if not given:
        return game.new_match(deals=deals, rng=rng)
    return cast(_ChoosesFirstSeat, game).new_match(deals=deals, rng=rng, **given)


def stated_setup(deal: Mapping[str, object]) -> Mapping[str, object]:
    """A record deal's ``setup`` (empty when left out).

    :raises InvalidDealError: ``not_object`` for a setup that is not an object.
    """
    stated = deal.get("setup") or {}
    if not isinstance(stated, Mapping):
        raise InvalidDealError("not_object", field="setup")
    return stated


def check_setup(stated: Mapping[str, object], checked: Mapping[str, object],
                if_omitted: Mapping[str, object] | None = None) -> None:
    """Refuse a record's setup that differs from the match's on a checked key (JSON
    equality: ``true`` is not ``1``, a tuple is a list).

    >>> check_setup({"dealer": 2}, {"dealer": 2, "leader": None}, {"leader": None})
    >>> try:
    ...     check_setup({"dealer": True}, {"dealer": 1})
    ... except InvalidDealError as exc:
    ...     exc.params["field"], exc.params["found"], exc.params["expected"]
    ('setup.dealer', 'true', '1')

    :raises InvalidDealError: ``setup_mismatch`` naming ``setup.<key>`` (``expected`` and
        ``found`` as JSON text).
    """
    omitted = if_omitted or {}
    for key, expected in checked.items():
        if key in stated:
            found = stated[key]
        elif key in omitted:
            found = omitted[key]
        else:
            continue
        if as_json(found) != as_json(expected):
            raise InvalidDealError("setup_mismatch", field=f"setup.{key}", key=key,
                                   expected=as_json(expected), found=as_json(found))


def as_json(value: object) -> str:
    """A value as JSON text, as a record holds it (what a setup check compares)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


__all__ = ["DEAL_SOURCES", "CarryOver", "DealSetup", "DealingGame", "MatchBase", "as_json",
           "check_setup", "first_dealer_free", "first_seat_option", "start_match", "stated_setup"]
