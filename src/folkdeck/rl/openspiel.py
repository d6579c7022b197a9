"""OpenSpiel: every folkdeck game as a Python game, ``python_folkdeck_<game>``.

Importing this module registers them all (``pyspiel.load_game("python_folkdeck_kaphai")``,
with parameters ``players`` and ``preset``: ``"python_folkdeck_kaphai(players=3)"``).

- **Chance nodes deal the cards**: one chance node per card of the deck, top first,
  whose outcomes are the card kinds still in the deck, each with probability copies
  left / cards left; the deal is then ``game.new_state(deck=...)`` (the engine's own
  dealing from a deck), so every deal has its true probability.
- **Player nodes are tokens** (:mod:`folkdeck.rl.substeps`): action ``i`` is token ``i``
  of :class:`~folkdeck.rl.encoding.Encoding` (a card, a word of the action grammar,
  ``<end>`` or ``<wait>``); out-of-turn rights are polls, so cucco, burning and putuh are
  ordinary decisions of their seat.
- **Observation** tensors and strings come from the seat's view only; the information
  state adds the seat's own past tokens (its waits included), for perfect recall.
- **Returns** are the deal's returns (``Result.returns``); ``min_utility``/``max_utility``
  are bounds, not tight: the games do not declare their extremes.

:func:`ismcts_bot` is an OpenSpiel ISMCTS bot that plays in ``folkdeck arena``; its
worlds come from the game's declared determinizer (``GameSpec.determinizer``). Importing
this module also offers it as ``openspiel-ismcts`` in the bot table of every game with a
determinizer.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections.abc import Mapping, Sequence
from typing import Protocol, TypedDict, Unpack

import numpy as np  # type: ignore[import-not-found, unused-ignore]
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

import folkdeck
from folkdeck.engine.facts import to_json
from folkdeck.engine.protocol import Action, Game
from folkdeck.engine.registry import get_spec
from folkdeck.engine.view import View, ViewEvent
from folkdeck.rl.encoding import Encoding
from folkdeck.rl.substeps import TokenDeal

MAX_TOKENS_PER_CARD = 40
"""``max_game_length`` is ``deck size × (1 + 40)``: a bound well above the longest random
deal measured (Gou Ji: about 2 tokens per card; ``tests/rl/test_openspiel.py`` checks
random games stay within it)."""
UTILITY_BOUND_PER_CARD = 10.0
"""``max_utility = -min_utility = 10 × deck size``: a loose bound on every game's returns
(penalty points are at most a few per card held)."""


def game_name(game: str) -> str:
    """The OpenSpiel short name: ``python_folkdeck_kaphai``."""
    return f"python_folkdeck_{get_spec(game).name}"


class _Shared:
    """What every state of one OpenSpiel game shares (never deep-copied by clones)."""

    def __init__(self, game: Game, enc: Encoding) -> None:
        self.game = game
        self.enc = enc

    def __deepcopy__(self, memo: dict[int, object]) -> _Shared:
        return self


class _SpielGame(Protocol):
    """What a state reads of its OpenSpiel game (a game of :func:`_make_game_class`, or one
    loaded by ``pyspiel.load_game`` and given its ``shared``)."""

    shared: _Shared

    def num_players(self) -> int: ...


def _game_type(name: str) -> pyspiel.GameType:
    spec = get_spec(name)
    return pyspiel.GameType(
        short_name=game_name(name), long_name=f"folkdeck {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players, min_num_players=spec.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": spec.default_players, "preset": ""})


def _make_game_class(name: str) -> type[pyspiel.Game]:
    game_type = _game_type(name)

    class FolkdeckSpielGame(pyspiel.Game):  # type: ignore[misc]
        """A folkdeck game for OpenSpiel (one deal)."""

        def __init__(self, params: Mapping[str, int | float | str | bool] | None = None) -> None:
            params = dict(params or {})
            players = int(params.get("players", game_type.parameter_specification["players"]))
            preset = str(params.get("preset", "")) or None
            game = folkdeck.load(name, preset, players=players)
            enc = Encoding.of(game)
            self.shared = _Shared(game, enc)
            info = pyspiel.GameInfo(
                num_distinct_actions=enc.num_tokens, max_chance_outcomes=len(enc.kinds),
                num_players=game.num_players,
                min_utility=-UTILITY_BOUND_PER_CARD * enc.deck_size,
                max_utility=UTILITY_BOUND_PER_CARD * enc.deck_size,
                utility_sum=None, max_game_length=enc.deck_size * (1 + MAX_TOKENS_PER_CARD))
            super().__init__(game_type, info, {"players": players, "preset": preset or ""})

        def new_initial_state(self) -> FolkdeckSpielState:
            return FolkdeckSpielState(self)

        def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                             params: object = None) -> FolkdeckObserver:
            perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            return FolkdeckObserver(self.shared.enc, perfect_recall)

    FolkdeckSpielGame.__name__ = FolkdeckSpielGame.__qualname__ = f"Folkdeck_{name}_Game"
    return FolkdeckSpielGame


class FolkdeckSpielState(pyspiel.State):  # type: ignore[misc]
    """A deal: the chance nodes of the deck, then the token decisions."""

    def __init__(self, game: _SpielGame) -> None:
        super().__init__(game)
        shared = game.shared
        self.shared = shared
        self.deck: list[int] = []
        self.left = list(shared.enc.copies)
        self.deal: TokenDeal | None = None
        self.own: list[list[int]] = [[] for _ in range(game.num_players())]

    # --- the tree ------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.deal.chooser
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.chooser is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        total = sum(self.left)
        return [(k, n / total) for k, n in enumerate(self.left) if n]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None and self.deal.chooser == player
        return self.deal.legal_tokens()

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            assert self.left[action] > 0, f"card kind {action} is not in the deck"
            self.left[action] -= 1
            self.deck.append(action)
            if not any(self.left):
                enc = self.shared.enc
                state = self.shared.game.new_state(deck=[enc.kinds[k] for k in self.deck])
                self.deal = TokenDeal(enc, state)
            return
        seat = self.deal.chooser
        assert seat is not None
        self.own[seat].append(action)
        self.deal.choose(action)

    def _action_to_string(self, player: int, action: int) -> str:
        enc = self.shared.enc
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {enc.kinds[action]}"
        return enc.tokens[action]

    def returns(self) -> list[float]:
        if self.deal is None or not self.deal.state.is_over():
            return [0.0] * len(self.own)
        return [float(r) for r in self.deal.returns()]

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealing: {len(self.deck)} cards"
        state = self.deal.state
        return json.dumps({"history": [e.line for e in state.history], "to_act": list(state.to_act),
                           "chosen": [self.shared.enc.tokens[t] for t in self.deal.chosen]})

    # --- resampling (ISMCTS) ---------------------------------------------------------------

    def resample(self, player: int, rng: random.Random) -> FolkdeckSpielState:
        """A state ``player`` cannot tell from this one: its view re-dealt by the game's
        determinizer, with the same decision in progress."""
        assert self.deal is not None
        game = self.shared.game
        determinizer = game.spec.determinizer
        if determinizer is None:
            raise ValueError(f"{game.spec.name} declares no determinizer (GameSpec.determinizer)")
        world = determinizer.worlds(game, self.deal.state.observe(player))(rng)
        new = self.clone()
        new.deal = TokenDeal(self.shared.enc, world)
        new.deal.chosen = list(self.deal.chosen)
        new.deal.waited = set(self.deal.waited)
        return new  # type: ignore[no-any-return]


class FolkdeckObserver:
    """OpenSpiel's PyObserver: the tensor of :meth:`Encoding.observe`; strings from the
    view (with the seat's own past tokens when ``perfect_recall``)."""

    def __init__(self, enc: Encoding, perfect_recall: bool) -> None:
        self.enc = enc
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(enc.size, np.float32)
        self.dict = {s.name: self.tensor[s.start:s.start + s.size] for s in enc.sections}
        self._events: dict[int, tuple[ViewEvent, str]] = {}

    def _event_text(self, event: ViewEvent) -> str:
        """One history event as JSON, cached: a deal's public events are the same objects
        in every view (the state's ``HistoryCache``), and serialising them was nine tenths
        of a Gou Ji information-state string. The cache holds the event, so its id stays
        its own."""
        hit = self._events.get(id(event))
        if hit is not None and hit[0] is event:
            return hit[1]
        if len(self._events) > 100_000:
            self._events.clear()
        text = json.dumps(event.to_dict(), sort_keys=True, separators=(",", ":"))
        self._events[id(event)] = (event, text)
        return text

    def set_from(self, state: FolkdeckSpielState, player: int) -> None:
        if state.deal is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = state.deal.observation(player)

    def string_from(self, state: FolkdeckSpielState, player: int) -> str:
        if state.deal is None:
            return f"p{player} dealing {len(state.deck)}"
        deal = state.deal
        view = deal.state.observe(player)
        now = {f.name: to_json(getattr(view, f.name)) for f in dataclasses.fields(view) if f.name != "history"}
        text = json.dumps(now, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            text += " history[" + ",".join(self._event_text(e) for e in view.history) + "]"
        mine = deal.chooser == player
        chosen = " ".join(self.enc.tokens[t] for t in deal.chosen) if mine else ""
        head = f"p{player} chosen[{chosen}] polled={int(deal.polled and mine)}"
        if self.perfect_recall:
            head += " own[" + " ".join(map(str, state.own[player])) + "]"
        return f"{head} {text}"


def register_games() -> None:
    """Register every registered game with OpenSpiel (idempotent): done on import; call it
    again for a game registered later (a game of one's own, the tests' toy game)."""
    for name in folkdeck.games():
        short = game_name(name)
        if short in pyspiel.registered_names():
            continue
        pyspiel.register_game(_game_type(name), _make_game_class(name))


register_games()


# --- the ISMCTS bot for `folkdeck arena` ----------------------------------------------------


class IsmctsAgent:
    """OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts``) as a folkdeck agent.

    From the seat's view it deals a world (the game's determinizer), then asks ISMCTS
    for each token of its action; every simulation re-deals the unseen cards
    (``set_resampler``), so the search never sees a hidden card. Rollouts are random
    (``RandomRolloutEvaluator``)."""

    def __init__(self, game: str = "kaphai", *, simulations: int = 200, uct_c: float = 2.0,
                 seed: int = 0, name: str = "ismcts", preset: str | None = None,
                 options: dict[str, object] | None = None) -> None:
        self.name = name
        self.game_name = game
        self.preset = preset
        self.options = dict(options or {})
        """The rules the search assumes (a view does not carry the table's options)."""
        self.simulations = simulations
        self.uct_c = uct_c
        self.seed = seed
        self._spiel: dict[tuple[int, str], _SpielGame] = {}

    def _spiel_game(self, game: Game) -> _SpielGame:
        preset_free = (game.num_players, repr(game.options))
        if preset_free not in self._spiel:
            spiel = pyspiel.load_game(game_name(self.game_name), {"players": game.num_players})
            # the game's own options (a preset, a table's settings) win over the defaults
            spiel.shared = _Shared(game, Encoding.of(game))
            self._spiel[preset_free] = spiel
        return self._spiel[preset_free]

    def _root(self, observation: View, rng: random.Random) -> FolkdeckSpielState:
        from folkdeck.engine.registry import load

        game = load(observation.game, self.preset, **{"players": observation.num_players, **self.options})
        spiel = self._spiel_game(game)
        determinizer = game.spec.determinizer
        if determinizer is None:
            raise ValueError(f"{game.spec.name} declares no determinizer")
        world = determinizer.worlds(game, observation)(rng)
        root = FolkdeckSpielState(spiel)
        root.left = [0] * len(root.left)
        root.deal = TokenDeal(spiel.shared.enc, world)
        return root

    def _search(self, root: FolkdeckSpielState, seat: int, legal: Sequence[Action],
                rng: random.Random) -> Action | None:
        from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped, import-not-found, unused-ignore]

        assert root.deal is not None
        np_rng = np.random.RandomState(rng.getrandbits(32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng)
        bot = ismcts.ISMCTSBot(root.get_game(), evaluator, self.uct_c, self.simulations,
                               random_state=np_rng, allow_inconsistent_action_sets=True)
        bot.set_resampler(lambda state, player: state.resample(player, rng))
        wanted = {str(a): a for a in legal}
        while True:
            token = bot.step(root)
            event = root.deal.choose(token)
            root.own[seat].append(token)
            if event is not None:
                return wanted[str(event.action)]
            if root.deal.chooser != seat:  # waited
                return None

    def act(self, observation: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        root = self._root(observation, rng)
        seat = observation.seat
        assert root.deal is not None and seat is not None
        # polls of others come first in a full deal; here the seat on turn decides now
        root.deal.waited = {s for s in root.deal.state.to_act[1:] if s != seat}
        if root.deal.chooser != seat:
            return legal_actions[0]
        chosen = self._search(root, seat, legal_actions, rng)
        assert chosen is not None, "the seat on turn does not wait"
        return chosen

    def interrupt(self, observation: View, legal_actions: Sequence[Action], rng: random.Random) -> Action | None:
        root = self._root(observation, rng)
        seat = observation.seat
        assert root.deal is not None and seat is not None
        root.deal.waited = {s for s in root.deal.state.to_act[1:] if s != seat}
        if root.deal.chooser != seat:
            return None
        return self._search(root, seat, legal_actions, rng)


class IsmctsOptions(TypedDict, total=False):
    """:class:`IsmctsAgent`'s keyword options."""

    simulations: int
    uct_c: float
    seed: int
    name: str
    preset: str | None
    options: dict[str, object] | None


def ismcts_bot(game: str = "kaphai", **options: Unpack[IsmctsOptions]) -> IsmctsAgent:
    """A factory for a game's bot table: ``"ismcts": lambda: ismcts_bot("kaphai")``."""
    return IsmctsAgent(game, **options)


def _offer_bots() -> None:
    """Offer OpenSpiel's ISMCTS as ``openspiel-ismcts`` in the bot table of every game that
    declares a determinizer (:meth:`~folkdeck.engine.bots.LazyBots.add`): the rl adapters
    add their bot, the games know nothing of them."""
    for name in folkdeck.games():
        spec = get_spec(name)
        if spec.hooks.determinizer is not None:
            spec.bots.add({"openspiel-ismcts": functools.partial(ismcts_bot, name)})


_offer_bots()


__all__ = ["FolkdeckObserver", "FolkdeckSpielState", "IsmctsAgent", "IsmctsOptions", "game_name", "ismcts_bot", "register_games"]
