"""Cambio determinization: a full deal consistent with what one seat has seen.

Built from the observation and the game's rules only (never the real state), like
Kap Hai's (``docs/bots.md``). What a seat knows in Cambio:

- its own card, where it came from (``card_origin``) and the card it was dealt;
- the open discards (all of them under ``open_discards``; face-down ones are unknown),
  the cards the rules have shown (refusals: ``shown``), and the cards it gave away in
  exchanges and can follow (``known``);
- nothing of who else holds an OWL: the view's ``to_act`` lists the seat on turn and,
  holding an OWL out of turn, the seat itself, never another OWL holder (an OWL is a
  hidden card); so OWLs are dealt like any other unseen card;
- everything said (``declared``, the history) and, from the history's notes, where each
  card came from (exchanges and stock draws are announced: the CAT's curse needs it).

The unseen cards are the pack less all of those; the pack is the game's own (counted
from a fresh deal of the same game, so a different pack option needs no change here).
They are dealt at random to the other active seats whose card is not shown or known,
then to the face-down discards and the stock, in a fresh random order: the real stock
order (and the reshuffle seed of a used-up stock) is unknown to the players. The
worlds depend on the observation only, so two positions that look the same to the
seat give the same worlds from the same ``rng``.

Not reconstructed: what the *other* seats know of cards they gave away (their
``known``); it only matters to bots that read it during rollouts.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from folkdeck.cards import parse_card
from folkdeck.engine.errors import WrongPhaseError
from folkdeck.engine.protocol import Event
from folkdeck.games.cambio.actions import parse_action
from folkdeck.games.cambio.game import CambioGame
from folkdeck.games.cambio.observation import CambioObservation
from folkdeck.games.cambio.rules import KIND, STOCK
from folkdeck.games.cambio.state import CambioState

_UP = -1
_SWAP = re.compile(r"^seat (\d+) exchanges cards with seat (\d+)$")
_TAKE = re.compile(r"^seat (\d+) takes the top card of the stock")
_SHOWN = re.compile(r"^seat (\d+) holds (?:a|the) ")

_PACKS: dict[Any, Counter[int]] = {}


def pack_of(game: CambioGame) -> Counter[int]:
    """The kinds of the game's pack (counted once per options from a fresh deal)."""
    key = game.options
    found = _PACKS.get(key)
    if found is None:
        cards = [c for place in game.new_state(seed=0).all_cards().values() for c in place]
        found = _PACKS[key] = Counter(KIND[c] for c in cards)
    return found


def parse_event(line: str) -> Event:
    """An event back from its public line (``"0: change; seat 0 exchanges cards ..."``)."""
    head, _, rest = line.partition(": ")
    parts = rest.split("; ")
    return Event(int(head), parse_action(parts[0]), tuple(parts[1:]))


def _public_track(n: int, in_deal: tuple[int, ...],
                  events: list[Event]) -> tuple[list[int], list[bool]]:
    """Each seat's card origin and whether its card is public, followed through the notes."""
    origin = [s if s in in_deal else STOCK for s in range(n)]
    shown = [False] * n
    for e in events:
        for note in e.notes:
            if m := _SWAP.match(note):
                q, t = int(m[1]), int(m[2])
                origin[q], origin[t] = origin[t], origin[q]
                shown[q], shown[t] = shown[t], shown[q]
            elif m := _TAKE.match(note):
                q = int(m[1])
                origin[q] = STOCK
                shown[q] = False
            elif m := _SHOWN.match(note):
                shown[int(m[1])] = True
    return origin, shown


def determinize(game: CambioGame, observation: CambioObservation, rng: random.Random) -> CambioState:
    """A deal agreeing with ``observation`` whose unseen cards are dealt at random.

    :raises WrongPhaseError: for a spectator's view, a seat not active, or a deal over.
    """
    seat = observation.seat
    if not is_searchable(observation) or seat is None:
        raise WrongPhaseError("determinize needs an active seat's view during the exchanges",
                              phase=observation.phase)
    n = observation.num_players
    own = KIND[observation.card] if observation.card is not None else -1
    kinds = [-1] * n
    kinds[seat] = own
    left = Counter(pack_of(game))
    left[own] -= 1
    open_discards = [KIND[c] for c in observation.discards]
    left.subtract(open_discards)
    fixed: dict[int, int] = {}
    for s, text in (*observation.shown, *observation.known):
        k = KIND[parse_card(text)]
        if s not in fixed:
            fixed[s] = k
            left[k] -= 1
    active = set(observation.active)
    turn = observation.current_seat
    pool = [k for k in sorted(left) for _ in range(max(left[k], 0))]
    rng.shuffle(pool)
    unknown = [s for s in sorted(active) if s != seat and s not in fixed]
    for s, k in fixed.items():
        kinds[s] = k
    for s in unknown:  # every unseen card alike, OWLs included: the view tells no OWL
        kinds[s] = pool.pop()
    face_down = observation.discard_count - len(open_discards)
    discards = open_discards + pool[:face_down]
    stock = pool[face_down:]
    if len(stock) != observation.stock_count:
        raise AssertionError("Cambio determinization: card count")  # pragma: no cover

    dealer = observation.dealer
    setup = {"dealer": dealer, "deal": observation.deal, "game": observation.game_number,
             "chips": list(observation.chips), "pot": observation.pot,
             "reshuffle_seed": rng.getrandbits(32)}
    state = CambioState(game, kinds, stock, discards, setup)
    st: Any = state  # the private slots are filled here, in the game's own package
    events = [parse_event(line) for line in observation.history]
    in_deal = tuple(s in observation.in_deal for s in range(n))
    origin, shown = _public_track(n, observation.in_deal, events)
    public = {s for s, _ in observation.shown}
    for s in range(n):
        if s != seat:
            shown[s] = s in public
    if observation.card_origin is not None or observation.card_from_stock:
        origin[seat] = STOCK if observation.card_from_stock else int(observation.card_origin or 0)
    start = [k if k >= 0 else 0 for k in kinds]
    for s in range(n):
        if not in_deal[s]:
            start[s] = -1
    if observation.dealt_card is not None:
        start[seat] = KIND[observation.dealt_card]
    st._start = tuple(start)
    st._origin = origin
    st._in_deal = in_deal
    st._order, st._index = game.seating(dealer, in_deal)
    st._active = [s in active for s in range(n)]
    st._turn = turn
    st._pos = st._index[turn] if turn is not None else 0
    st._open = [_UP] * len(open_discards) + [0] * face_down
    st._dq = dict(observation.disqualified)
    st._declared = {s: parse_action(a) for s, a in observation.declared}
    st._history = events
    st._known = {seat: {s: KIND[parse_card(c)] for s, c in observation.known}} if observation.known else {}
    st._shown = shown
    st._rng = None  # a used-up stock is reshuffled by the (random) reshuffle_seed above
    return state


def is_searchable(observation: Any) -> bool:
    """True when :func:`determinize` applies: an active seat's view during the exchanges."""
    seat = getattr(observation, "seat", None)
    return bool(getattr(observation, "phase", None) == "exchange" and seat is not None
                and seat in observation.active and observation.card is not None)


__all__ = ["determinize", "is_searchable", "pack_of", "parse_event"]
