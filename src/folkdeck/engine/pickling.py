"""How a game, a state and a match pickle.

Users of Ray, multiprocessing or a notebook checkpoint, and the arena's worker processes,
expect ``pickle.loads(pickle.dumps(x))`` to give an ``x`` equal to the one dumped that plays
on identically. Pickle's default, a blank instance whose attributes are set one by one,
does not serve most of the engine's classes (why: :mod:`folkdeck.engine.build`,
"Pickling"), so what the engine's base classes hold is pickled as what it is made from
instead, here, once:

- a game's spec (:class:`~folkdeck.engine.protocol.GameSpec`) as its registered name: its
  hooks hold functions local to the game's package (a bot table's loader), which pickle
  cannot name; it loads as the registered spec itself. The registry says so
  (:mod:`folkdeck.engine.registry`, with :mod:`copyreg`): it names the specs, and this
  module imports nothing that names a game object, so that no import goes in a circle;
- a game (:class:`~folkdeck.engine.game_base.GameBase`) as its spec and options, made
  again by the spec's ``make`` hook (:func:`made_game`);
- a state (:class:`~folkdeck.engine.state_base.StateBase`) as its record: the game, the
  deal as it began (``deal_info()``: the setup, the hands, the stock) and its events,
  dealt again and replayed when loaded (:func:`replayed_state`). A record replays with
  identical results (``docs/records.md``), and the loaded state's history is checked
  against the events dumped: none of the state's inner objects (move tables, the deal's
  data, the pack) crosses. A world a search sampled from a view did not begin as a deal:
  where its events do not replay into the same events, loading it is refused
  (:class:`pickle.UnpicklingError`);
- a match (:class:`~folkdeck.engine.match_base.MatchBase`) and what it carries between
  deals (:class:`~folkdeck.engine.match_base.CarryOver`) attribute by attribute, its
  game as above: a blank instance (:class:`~folkdeck.engine.state_base.BlankMade`,
  :class:`~folkdeck.engine.state_base.Blank`) is filled;
- actions, cards, results and the other frozen values as their constructor calls (each
  class's ``__reduce__``: :meth:`folkdeck.cards.Card.__reduce__`; a frozen dataclass's
  fields by name, :func:`~folkdeck.engine.frozen.frozen_reduction`: the standings, an
  arena's configuration);
  views, facts and events are plain Python values.

>>> import pickle, random
>>> from folkdeck import load
>>> state = load("cangkul", "joker").new_state(seed=4)
>>> for _ in range(6):
...     _ = state.apply(state.legal_actions()[0])
>>> again = pickle.loads(pickle.dumps(state))
>>> again.history == state.history, again.game.options == state.game.options
(True, True)
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from folkdeck.engine.errors import CardGameError

if TYPE_CHECKING:
    from folkdeck.engine.protocol import Game, GameSpec, State
    from folkdeck.engine.values import DealInfo, Event

def made_game(spec: GameSpec, options: object) -> Game:
    """The game of ``spec`` (a registered :class:`~folkdeck.engine.protocol.GameSpec`) with
    ``options``: what a pickled game loads as."""
    return spec.hooks.make(options)


def state_reduction(state: State) -> tuple[Callable[[Game, DealInfo, Sequence[Event]], State],
                                           tuple[Game, DealInfo, tuple[Event, ...]]]:
    """``state.__reduce__()``: its game, the deal as it began and its events."""
    info = state.deal_info()
    deal: DealInfo = {"setup": info["setup"], "hands": info["hands"]}
    if "stock" in info:
        deal["stock"] = info["stock"]
    return (replayed_state, (state.game, deal, state.history))


def replayed_state(game: Game, deal: DealInfo, events: Sequence[Event]) -> State:
    """The deal ``deal`` of ``game`` after ``events``' actions (each an
    :class:`~folkdeck.engine.protocol.Event`): what a pickled state loads as.

    :raises pickle.UnpicklingError: when the events do not replay, or replay into other
        events (a world sampled from a view, which did not begin as a deal).
    """
    state = game.new_state(**deal)
    try:
        for event in events:
            state.apply(event.action, event.seat)
    except CardGameError as exc:
        raise pickle.UnpicklingError(f"a {game.spec.name} state does not replay from its deal (a world sampled "
                                     f"from a view does not pickle): {exc}") from exc
    if state.history != tuple(events):
        raise pickle.UnpicklingError(f"a {game.spec.name} state replays into other events than it held (a world "
                                     "sampled from a view does not pickle)")
    return state


__all__ = ["made_game", "replayed_state", "state_reduction"]
