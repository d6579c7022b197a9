"""Kap Hai's own facts, and its actions described as facts (docs/events.md, Kap Hai).

The shared vocabulary (:mod:`folkdeck.engine.facts`) says most of a deal: ``played``
(with the combination's term key), ``passed``, ``trick_won``, ``went_out``,
``deal_ended``, ``revealed``. The facts below are the game's own:

* :class:`ThreeGame`, :class:`ThreesPutOut` (view status): how a 3-game starts — who put
  out which 3s, and who leads with a single because of them (docs/rules/kaphai.md §2.1).
* :class:`Thrown` (event): 2-2-2 thrown on a triple does not take the lead (docs/rules/kaphai.md §3.4).
* :class:`PutuhWindow` (view status): the declarations before the first lead.
* :class:`PutuhDeclared`, :class:`PutuhWon` (event, and the status of a putuh deal).
* :class:`PutuhCall` (the action ``putuh`` itself).
* :class:`NextThreeGame` (a match's report after a putuh deal).

>>> from folkdeck.cards import parse_cards
>>> from folkdeck.engine.facts import fact_from_dict
>>> fact = Thrown(seat=1, cards=parse_cards("2C 2D 2H"), top=parse_cards("3S 3C 3D"), top_seat=0)
>>> fact_from_dict(fact.to_dict()) == fact
True
>>> from folkdeck.i18n import Renderer
>>> Renderer("en", game="kaphai").fact(fact)
'Seat 1 throws 2C 2D 2H; 3S 3C 3D by seat 0 still leads'
"""

from __future__ import annotations

from dataclasses import dataclass

from folkdeck.cards import Card
from folkdeck.engine.facts import Fact, Passed, Played
from folkdeck.games.kaphai.actions import Putuh
from folkdeck.games.kaphai.rules import Combo


@dataclass(frozen=True, slots=True, kw_only=True)
class ThreeGame(Fact, type="kaphai.three_game"):
    """The deal is a 3-game: ``seat`` leads, with a single card only, because it put out
    (``shed``: the 3s left the hands; else they were only shown) ``card``, the 3♠. With
    the 3♠ out of play (2-3 players) the holder of the lowest card dealt leads: ``card``
    is that card when it is a 3 (put out, so public), else ``None`` (it stays hidden)."""

    seat: int
    card: Card | None
    shed: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class ThreesPutOut(Fact, type="kaphai.threes_put_out"):
    """In a 3-game ``seat`` put out (``shed``; else only showed) the 3s ``cards``."""

    seat: int
    cards: tuple[Card, ...]
    shed: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Thrown(Fact, type="kaphai.thrown"):
    """``seat`` threw ``cards`` (2-2-2) on ``top``, played by ``top_seat``, which still
    leads the trick; the thrower counts as passed (docs/rules/kaphai.md §3.4)."""

    seat: int
    cards: tuple[Card, ...]
    top: tuple[Card, ...]
    top_seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PutuhWindow(Fact, type="kaphai.putuh_window"):
    """The putuh window is open (``putuh_optional``). ``all_seats``: every seat is asked
    in turn (``ask_all_seats``); else only seats holding a putuh decide, unnamed."""

    all_seats: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PutuhCall(Fact, type="kaphai.putuh_call"):
    """The action ``putuh``: ``seat`` declares putuh."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PutuhDeclared(Fact, type="kaphai.putuh_declared"):
    """``seat`` holds putuh ``pattern`` (a term key: ``six_pairs`` … ``four_threes``,
    docs/rules/kaphai.md §4.1) and declared it (or, without ``putuh_optional``, won by it when dealt)."""

    seat: int
    pattern: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PutuhWon(Fact, type="kaphai.putuh_won"):
    """Putuh ends the deal: ``winners`` take 1st place (more than one only with
    ``putuh_tie=shared_first``); nobody else is placed and the next deal is a 3-game."""

    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class NextThreeGame(Fact, type="kaphai.next_three_game"):
    """After a putuh the next deal is a 3-game: whoever puts out the 3♠ leads it (a
    match's report, in place of ``next_deal``)."""


def describe_action(seat: int, action: object) -> Fact:
    """The action itself as a fact: ``played`` (with the combination's term key),
    ``passed`` or ``kaphai.putuh_call``.

    >>> from folkdeck.games.kaphai.actions import PASS, parse_action
    >>> describe_action(2, parse_action("4C 4D")).to_dict()
    {'type': 'played', 'seat': 2, 'cards': ['4C', '4D'], 'combo': 'pair'}
    >>> describe_action(1, PASS)
    Passed(seat=1)
    """
    if isinstance(action, Combo):
        return Played(seat=seat, cards=action.cards, combo=action.term)
    if isinstance(action, Putuh):
        return PutuhCall(seat=seat)
    return Passed(seat=seat)


__all__ = ["NextThreeGame", "PutuhCall", "PutuhDeclared", "PutuhWindow", "PutuhWon", "ThreeGame", "ThreesPutOut", "Thrown",
           "describe_action"]
