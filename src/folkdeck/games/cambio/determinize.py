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
from collections.abc import Callable
from typing import Final

from folkdeck.engine.determinize import Determinization, Pool, deal
from folkdeck.engine.determinize import events_of as events_from
from folkdeck.engine.errors import WrongPhaseError
from folkdeck.engine.facts import Fact
from folkdeck.engine.protocol import Event
from folkdeck.engine.view import View
from folkdeck.games.cambio.actions import CambioAction
from folkdeck.games.cambio.game import CambioGame
from folkdeck.games.cambio.observation import CambioView, Phase
from folkdeck.games.cambio.rules import KIND, PACK_TABLES
from folkdeck.games.cambio.state import CambioState

_WORDS: Final = {a.value: a for a in CambioAction}
_FACE_DOWN: Final = "face_down"
_STOCK: Final = "stock"


def pack_of(game: CambioGame) -> Counter[int]:
    """The kinds of the game's pack, with their copies."""
    return Counter(game.pack.full)


def _action_of(act: Fact) -> CambioAction:
    return _WORDS[getattr(act, "word", "")]


def events_of(view: CambioView) -> tuple[Event, ...]:
    """The deal's events as ``view``'s seat saw them: typed actions and facts (no text)."""
    return events_from(view.history, _action_of)


def _kind(kind: int) -> int:
    return kind


def worlds(game: CambioGame, view: CambioView) -> Callable[[random.Random], CambioState]:
    """The worlds of ``view``: the unseen cards counted once, each call dealing them
    again (see the module).

    :raises WrongPhaseError: for a spectator's view, a seat not active, or a deal over.
    """
    seat = view.seat
    if not is_searchable(view) or seat is None:
        raise WrongPhaseError("cambio.not_searchable", phase=str(view.phase))
    pool = Pool(PACK_TABLES[view.pack].full, _kind)
    seen = [KIND[c] for c in view.discards]
    if view.card is not None:
        seen.append(KIND[view.card])
    fixed: set[int] = set()
    for s, card in (*view.shown, *view.known):
        if s not in fixed:
            fixed.add(s)
            seen.append(KIND[card])
    pool.remove(seen)
    unseen = pool.cards()
    hidden = [s for s in sorted(view.active) if s != seat and s not in fixed]
    face_down = view.discard_count - len(view.discards)
    if len(unseen) != face_down + view.stock[0] + len(hidden):
        raise AssertionError("Cambio determinization: card count")  # pragma: no cover
    # Dealt from the shuffled pool's top: the face-down discards, the stock, then one card
    # to each hidden seat from the last (every unseen card alike, OWLs included: the view
    # tells no OWL).
    counts: dict[int | str, int] = {_FACE_DOWN: face_down, _STOCK: view.stock[0]}
    counts.update((s, 1) for s in reversed(hidden))

    def world(rng: random.Random) -> CambioState:
        dealt = deal(unseen, counts, rng)
        return CambioState.from_view(game, view, hands={s: dealt.hands[s][0] for s in hidden},
                                     stock=dealt.hands[_STOCK], face_down=dealt.hands[_FACE_DOWN],
                                     reshuffle_seed=rng.getrandbits(32))

    return world


def is_searchable(view: View) -> bool:
    """True when :meth:`DETERMINIZER.determinize` applies: an active seat's view during the exchanges."""
    return bool(isinstance(view, CambioView) and view.phase == Phase.EXCHANGE and view.seat is not None
                and view.seat in view.active and view.card is not None)


DETERMINIZER: Final = Determinization(CambioGame, CambioView, is_searchable, worlds)
"""The game's determinizer (``GameSpec.determinizer``)."""

__all__ = ["DETERMINIZER", "events_of", "is_searchable", "pack_of", "worlds"]
