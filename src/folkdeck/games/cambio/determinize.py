"""Cambio determinization: a full deal consistent with what one seat has seen.

Built from the view and the game's rules only (never the real state), like
Kap Hai's (``docs/bots.md``). What a seat knows in Cambio, all as typed view fields:

- its own card (``hand``), where it came from (``card_origin``) and the card it was dealt;
- the open discards (all of them under ``open_discards``; face-down ones are unknown),
  the cards the rules have shown (refusals: ``shown``), and the cards it gave away in
  exchanges and can follow (``known``);
- nothing of who else holds an OWL: the view's ``to_act`` lists the seat on turn and,
  holding an OWL out of turn, the seat itself, never another OWL holder (an OWL is a
  hidden card); so OWLs are dealt like any other unseen card;
- everything said (``declared``, the history's facts) and where each card came from
  (``origins``: exchanges and stock draws are announced; the CAT's curse needs it).

The unseen cards are the pack less all of those. They are dealt at random to the other
active seats whose card is not shown or known, then to the face-down discards and the
stock, in a fresh random order: the real stock order (and the reshuffle seed of a
used-up stock) is unknown to the players. The worlds depend on the view only, so two
positions that look the same to the seat give the same worlds from the same ``rng``;
the deal is built by :meth:`~folkdeck.games.cambio.state.CambioState.from_view`.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Final

from folkdeck.engine.errors import WrongPhaseError
from folkdeck.engine.protocol import Event
from folkdeck.games.cambio.actions import CambioAction
from folkdeck.games.cambio.game import CambioGame
from folkdeck.games.cambio.observation import CambioView, Phase
from folkdeck.games.cambio.rules import KIND, PACK_TABLES
from folkdeck.games.cambio.state import CambioState

_WORDS: Final = {a.value: a for a in CambioAction}


def pack_of(game: CambioGame) -> Counter[int]:
    """The kinds of the game's pack, with their copies."""
    return Counter(game.pack.full)


def events_of(view: CambioView) -> list[Event]:
    """The deal's events as ``view``'s seat saw them: typed actions and facts (no text)."""
    return [Event(e.seat, _WORDS[getattr(e.act, "word", "")], e.facts) for e in view.history]


def determinize(game: CambioGame, view: CambioView, rng: random.Random) -> CambioState:
    """A deal agreeing with ``view`` whose unseen cards are dealt at random.

    :raises WrongPhaseError: for a spectator's view, a seat not active, or a deal over.
    """
    seat = view.seat
    if not is_searchable(view) or seat is None:
        raise WrongPhaseError("cambio.not_searchable", phase=str(view.phase))
    left = Counter(PACK_TABLES[view.pack].full)
    if view.card is not None:
        left[KIND[view.card]] -= 1
    left.subtract(KIND[c] for c in view.discards)
    fixed: set[int] = set()
    for s, card in (*view.shown, *view.known):
        if s not in fixed:
            fixed.add(s)
            left[KIND[card]] -= 1
    pool = [k for k in sorted(left) for _ in range(max(left[k], 0))]
    rng.shuffle(pool)
    hands = {}
    for s in sorted(view.active):  # every unseen card alike, OWLs included: the view tells no OWL
        if s != seat and s not in fixed:
            hands[s] = pool.pop()
    face_down = view.discard_count - len(view.discards)
    stock = pool[face_down:]
    if len(stock) != view.stock[0]:
        raise AssertionError("Cambio determinization: card count")  # pragma: no cover
    return CambioState.from_view(game, view, hands=hands, stock=stock, face_down=pool[:face_down],
                                 reshuffle_seed=rng.getrandbits(32))


def is_searchable(view: Any) -> bool:
    """True when :func:`determinize` applies: an active seat's view during the exchanges."""
    seat = getattr(view, "seat", None)
    return bool(isinstance(view, CambioView) and view.phase == Phase.EXCHANGE and seat is not None
                and seat in view.active and view.card is not None)


__all__ = ["determinize", "events_of", "is_searchable", "pack_of"]
