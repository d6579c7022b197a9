"""Learned bots: a small network scores each legal action from the seat's view.

As in DouZero (Zha et al. 2021), one network ``Q(view, action)`` estimates the acting
seat's return after an action; the bot plays the legal action it scores highest. The
view is :class:`~folkdeck.agents.encoding.Encoding`'s observation vector (the same one the
RL adapters use: the seat's hand, the counts, the table, who played what, the recent
history); an action is the count vector of its words in the encoding's token vocabulary,
a card's count divided by its copies in the pack (so that "hand less action" is linear
in the inputs), a constant, and whether the game's heuristic bot (the learned bot's
``fallback``) would play it here: the network learns where to depart from the heuristic.
A model whose metadata says ``features: shape-1`` also reads the shape each action leaves
the hand in, its cards counted by rank (:class:`~folkdeck.agents.features.HandShape`).

The network is a multilayer perceptron whose first layer is split, so that a decision
costs one matrix-vector product for the view and one small matrix product for all the
legal actions together; the rest runs on the actions as one batch::

    h1 = relu(W_view · view + W_action · action + b1)   h2 = relu(W2 · h1 + b2)   Q = w3 · h2 + b3

Inference needs only NumPy. The weights of each game ship in the package
(``folkdeck/agents/models/<game>.npz``, made by ``folkdeck train``, :mod:`folkdeck.train`)
and are read once per process, when the first bot of that game is made. A model is
trained for one rule set's table size and pack (its ``encoding`` signature); at another
table the bot says so by playing its ``fallback`` (the game's heuristic bot), as it does
for the out-of-turn offers (``interrupt``), which the network does not score.

``temperature`` 0 (the shipped bots) plays the best score, the first listed on a tie, and
draws nothing from the RNG; above 0 it draws from ``softmax(Q / temperature)`` with the
RNG it is handed, so a bot is reproducible from its seed either way.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, NotRequired, TypedDict

import numpy as np
import numpy.typing as npt

from folkdeck.agents.encoding import Encoding
from folkdeck.agents.features import ActionFeatures
from folkdeck.engine.bots import offer_interrupt
from folkdeck.engine.protocol import Action, BotFactory, Game, GameAgent, GameSpec
from folkdeck.engine.view import View
from folkdeck.json_types import JSONObject

FORMAT: Final = "folkdeck-qnet/1"
"""The ``format`` of a model file's metadata (``meta.json`` inside the ``.npz``)."""
MODEL_DIR: Final = Path(__file__).parent / "models"
"""Where the shipped models are: ``<game>.npz``."""
FloatArray = npt.NDArray[np.float32]


class EncodingSignature(TypedDict):
    """What a model's inputs depend on (:func:`encoding_signature`), as its metadata keeps it."""

    game: str
    players: int
    size: int
    tokens: list[str]
    sections: list[list[str | int]]
    """Per section of the observation: its name, first index and size."""
    card_words: NotRequired[dict[str, str]]
    """The words read as cards (``GameSpec.card_words``) and the card each reads as; absent
    in a game without them."""


class ModelMeta(TypedDict, total=False):
    """A model's metadata (``meta.json``): what ``folkdeck train`` writes; a model file
    needs only ``format`` and ``layers``."""

    format: str
    layers: int
    game: str
    encoding: EncodingSignature
    scale: float
    """The network's output times ``scale`` is in the game's return units."""
    margin: float
    fallback: str
    features: str
    reading: list[str]
    """The names of the game's reading's numbers the network reads (``features`` with a
    reading: :class:`~folkdeck.agents.features.ReadingColumns`)."""
    hidden: list[int]
    stage: str
    recipe: JSONObject
    """The training recipe (``recipe.json``)."""


def encoding_signature(encoding: Encoding) -> EncodingSignature:
    """What a model's inputs depend on: the table size, the observation layout and the
    token vocabulary (a model fits a game whose encoding has the same signature)."""
    signature: EncodingSignature = {
        "game": encoding.game, "players": encoding.num_players, "size": encoding.size,
        "tokens": list(encoding.tokens), "sections": [[s.name, s.start, s.size] for s in encoding.sections]}
    if encoding.word_kinds:  # (a Gou Ji model of before them read its sets as playing no natural card)
        signature["card_words"] = {w: str(encoding.kinds[k]) for w, k in encoding.word_kinds.items()}
    return signature


@dataclass(frozen=True, slots=True, eq=False)
class QNetwork:
    """``Q(view, action)``: the layers' weights and the model's metadata.

    ``layers[0]`` is ``(W_view, W_action, b)``; every later layer ``(W, b)``. ``scale``
    turns the network's output back into the game's return units.
    """

    layers: tuple[tuple[FloatArray, ...], ...]
    meta: ModelMeta

    @property
    def scale(self) -> float:
        return float(self.meta.get("scale", 1.0))

    @property
    def margin(self) -> float:
        """How much better (in return units) the network must score an action than the
        heuristic's choice to depart from it (chosen by the training's ``calibrate`` stage)."""
        return float(self.meta.get("margin", 0.0))

    def scores(self, view: FloatArray, actions: FloatArray) -> FloatArray:
        """Every action's estimated return (``actions``: one row per action)."""
        w_view, w_action, bias = self.layers[0]
        h = actions @ w_action
        h += view @ w_view + bias
        np.maximum(h, 0.0, out=h)
        for w, b in self.layers[1:-1]:
            h = h @ w + b
            np.maximum(h, 0.0, out=h)
        w, b = self.layers[-1]
        return np.asarray((h @ w + b)[:, 0] * self.scale, dtype=np.float32)

    @property
    def features(self) -> str:
        """What the network reads besides the plain action rows (``""``, ``shape-1``...:
        :class:`~folkdeck.agents.features.ActionFeatures`)."""
        return str(self.meta.get("features", ""))

    def fits(self, encoding: Encoding) -> bool:
        """Whether this model was trained for inputs of ``encoding``'s layout (and, if it
        reads the game's reading of the cards, for that reading's numbers)."""
        if self.meta.get("encoding") != encoding_signature(encoding):
            return False
        try:
            features = _features(encoding, self.features)
        except ValueError:  # features this package does not know, or a reading the game lacks
            return False
        return list(self.meta.get("reading", [])) == list(features.reading_names)

    def save(self, path: str | Path, *, half: bool = False) -> Path:
        """Write the model as a compressed ``.npz`` (its metadata as ``meta.json``); ``half``:
        its weights as ``float16``, half the size (what ships in the package: :meth:`load`
        reads them back as ``float32``, and the scores move by about a thousandth of their
        spread, below what separates a network's choices)."""
        dtype = np.float16 if half else np.float32
        arrays: dict[str, npt.NDArray[np.float32 | np.float16 | np.uint8]] = {
            f"l{i}_{j}": np.asarray(a, dtype=dtype) for i, layer in enumerate(self.layers) for j, a in enumerate(layer)}
        arrays["meta.json"] = np.frombuffer(json.dumps(self.meta, sort_keys=True).encode(), dtype=np.uint8)
        target = Path(path)
        with target.open("wb") as f:
            np.savez_compressed(f, allow_pickle=False, **arrays)  # plain arrays, as load reads them
        return target

    @classmethod
    def mean(cls, networks: Sequence[QNetwork], meta: ModelMeta) -> QNetwork:
        """One network whose scores are the mean of ``networks``' (an ensemble, with the same
        inputs, hidden sizes and ``scale``): as wide as all of them together, each layer's
        weights side by side (the first) or block-diagonal (the others), so that every
        member's units read only their own, and the output their mean. It plays as one
        network does, in one pass.

        >>> rng = np.random.default_rng(0)
        >>> def random_network() -> QNetwork:
        ...     shapes = (((3, 4), (2, 4), (1, 4)), ((4, 2), (1, 2)), ((2, 1), (1, 1)))
        ...     return QNetwork(tuple(tuple(rng.normal(size=s).astype(np.float32) for s in layer)
        ...                           for layer in shapes), {"scale": 2.0})
        >>> members = [random_network(), random_network()]
        >>> view, actions = rng.normal(size=3).astype(np.float32), rng.normal(size=(5, 2)).astype(np.float32)
        >>> both = QNetwork.mean(members, {"scale": 2.0})
        >>> bool(np.allclose(both.scores(view, actions), sum(m.scores(view, actions) for m in members) / 2))
        True
        """
        k = len(networks)
        if k == 1:
            return cls(networks[0].layers, {**meta, "format": FORMAT, "layers": len(networks[0].layers)})
        first = tuple(np.hstack([n.layers[0][i] for n in networks]) for i in range(3))
        hidden = []
        for j in range(1, len(networks[0].layers) - 1):
            blocks = [n.layers[j][0] for n in networks]
            weights = np.zeros((sum(b.shape[0] for b in blocks), sum(b.shape[1] for b in blocks)), dtype=np.float32)
            row = col = 0
            for b in blocks:
                weights[row:row + b.shape[0], col:col + b.shape[1]] = b
                row, col = row + b.shape[0], col + b.shape[1]
            hidden.append((weights, np.hstack([n.layers[j][1] for n in networks])))
        last = (np.vstack([n.layers[-1][0] for n in networks]) / k, sum(n.layers[-1][1] for n in networks) / k)
        layers = tuple(tuple(np.asarray(a, dtype=np.float32) for a in layer) for layer in (first, *hidden, last))
        return cls(layers, {**meta, "format": FORMAT, "layers": len(layers)})

    @classmethod
    def load(cls, path: str | Path) -> QNetwork:
        """Read a model written by :meth:`save`.

        :raises ValueError: a file that is not a folkdeck model.
        """
        with np.load(Path(path), allow_pickle=False) as data:
            if "meta.json" not in data.files:
                raise ValueError(f"{path}: not a folkdeck model (no meta.json)")
            meta = json.loads(bytes(data["meta.json"]).decode())
            if meta.get("format") != FORMAT:
                raise ValueError(f"{path}: model format {meta.get('format')!r}, expected {FORMAT!r}")
            layers: list[tuple[FloatArray, ...]] = []
            for i in range(int(meta["layers"])):
                parts = sorted((k for k in data.files if k.startswith(f"l{i}_")), key=lambda k: int(k.split("_")[1]))
                layers.append(tuple(np.ascontiguousarray(data[k], dtype=np.float32) for k in parts))
        return cls(tuple(layers), meta)


@functools.cache
def shipped_model(game: str) -> QNetwork | None:
    """The model shipped for ``game``, read once per process (``None``: none ships)."""
    path = MODEL_DIR / f"{game}.npz"
    return QNetwork.load(path) if path.exists() else None


@functools.cache
def model_file(path: str) -> QNetwork:
    """The model in the file at ``path``, read once per process (:meth:`QNetwork.load`)."""
    return QNetwork.load(path)


class LearnedAgent:
    """Plays the legal action its network scores highest (see the module docstring).

    :param spec: the game.
    :param network: the model, or a function that gives it (read when first needed).
    :param fallback: a factory of the bot for what the network does not play: a table
        the model was not trained for, and the out-of-turn offers.
    :param temperature: 0 plays the best score; above 0 samples ``softmax(Q/temperature)``.
    """

    searches = False
    """It answers in milliseconds (the server runs it with the quick bots)."""

    def __init__(self, spec: GameSpec, network: QNetwork | Callable[[], QNetwork | None],
                 fallback: BotFactory | None = None, *, temperature: float = 0.0,
                 name: str = "learned") -> None:
        if temperature < 0:
            raise ValueError(f"temperature must be 0 or more, not {temperature}")
        self.name = name
        self.spec = spec
        self.temperature = temperature
        self._network = network
        self.fallback: GameAgent = (fallback or spec.bots[spec.default_bot])()
        self._game: Game | None = None
        self._ready: tuple[QNetwork, Encoding, ActionFeatures] | None = None
        self._checked_players: int | None = None

    @staticmethod
    def fallback_of(spec: GameSpec) -> GameAgent:
        """A new bot of the kind the game's shipped ``learned`` bot falls back to."""
        learned = spec.bots["learned"]()
        assert isinstance(learned, LearnedAgent)
        return learned.fallback

    def bind(self, game: Game) -> None:
        """Tell the bot the rules of its deals (the encoding depends on them)."""
        self._game = game
        self._checked_players = None
        bind = getattr(self.fallback, "bind", None)
        if bind is not None:
            bind(game)

    def _model_for(self, view: View) -> tuple[QNetwork, Encoding, ActionFeatures] | None:
        if self._checked_players == view.num_players:
            return self._ready
        from folkdeck.engine.registry import load

        network = self._network() if callable(self._network) else self._network
        game = self._game if self._game is not None else load(self.spec.name, players=view.num_players)
        encoding = _encoding(game)
        fits = network is not None and network.fits(encoding)
        self._ready = (network, encoding, _features(encoding, network.features)) if network and fits else None
        self._checked_players = view.num_players
        return self._ready

    def scores(self, view: View, actions: Sequence[Action]) -> FloatArray | None:
        """The network's estimate of each action's advantage for the seat (``None``: no
        model fits this table)."""
        scored = self._scored(view, actions)
        return None if scored is None else scored[0]

    def _scored(self, view: View, actions: Sequence[Action]) -> tuple[FloatArray, int | None, float] | None:
        """The scores, the index of the heuristic's choice and the model's margin."""
        ready = self._model_for(view)
        if ready is None:
            return None
        network, encoding, features = ready
        rows = features.matrix(actions, self.preferred(view, actions))
        flagged = np.flatnonzero(rows[:, -1])
        observed = encoding.observe(view)
        return (network.scores(observed, features.inputs(observed[None, :], rows)),
                int(flagged[0]) if len(flagged) else None, network.margin)

    def preferred(self, view: View, legal: Sequence[Action]) -> Action:
        """The fallback (heuristic) bot's choice, an input of the network: drawn with an
        RNG of its own, so that asking does not move the bot's."""
        chosen: Action = self.fallback.act(view, legal, random.Random(0))
        return chosen

    def act(self, observation: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        scored = self._scored(observation, legal_actions)
        if scored is None:
            chosen: Action = self.fallback.act(observation, legal_actions, rng)
            return chosen
        scores, preferred, margin = scored
        return legal_actions[choose(scores, self.temperature, rng, preferred, margin)]

    def interrupt(self, observation: View, legal: Sequence[Action], rng: random.Random) -> Action | None:
        return offer_interrupt(self.fallback, observation, legal, rng)


def choose(scores: FloatArray, temperature: float, rng: random.Random, preferred: int | None = None,
           margin: float = 0.0) -> int:
    """The index to play: at temperature 0 the best score (the first on a tie), unless it
    beats the ``preferred`` action's (the heuristic's choice) by no more than ``margin``;
    above 0 a draw from ``softmax(scores / temperature)`` with ``rng``.

    >>> scores = np.array([0.1, 0.7, 0.7], dtype=np.float32)
    >>> choose(scores, 0.0, random.Random(0)), choose(scores, 0.0, random.Random(0), preferred=0, margin=0.8)
    (1, 0)
    """
    if temperature == 0.0:
        best = int(np.argmax(scores))
        if preferred is not None and scores[best] - scores[preferred] <= margin:
            return preferred
        return best
    z = (scores - scores.max()) / temperature
    weights = np.exp(z.astype(np.float64))
    return rng.choices(range(len(scores)), weights=weights.tolist())[0]


_ENCODINGS: dict[tuple[str, str], Encoding] = {}


def _encoding(game: Game) -> Encoding:
    """The game's encoding, made once per rule set (it deals a deal to count the pack)."""
    key = (game.spec.name, repr(game.options))
    encoding = _ENCODINGS.get(key)
    if encoding is None:
        encoding = _ENCODINGS[key] = Encoding.of(game)
    return encoding


@functools.cache
def _features(encoding: Encoding, features: str) -> ActionFeatures:
    return ActionFeatures(encoding, features=features)


SEARCH_WIDTH: Final = 3
"""``learned+search`` searches the network's best this many actions."""


def learned_bots(game_name: str, fallback: str, *, search: bool = True,
                 hand_over: int | None = None) -> dict[str, BotFactory]:
    """The learned bots of a game, when a model ships for it (else none): ``learned``, the
    network's choice at temperature 0, ``fallback`` (a bot name of the game) where it does
    not play; with ``search``, ``learned+search`` (:class:`LearnedSearch`)."""
    if not (MODEL_DIR / f"{game_name}.npz").exists():
        return {}

    def learned() -> LearnedAgent:
        from folkdeck.engine.registry import get_spec

        spec = get_spec(game_name)
        return LearnedAgent(spec, functools.partial(shipped_model, game_name), spec.bots[fallback])

    if not search:
        return {"learned": learned}
    return {"learned": learned, "learned+search": LearnedSearch(game_name, learned, hand_over)}


class LearnedSearch:
    """The factory of a game's ``learned+search`` bot: the game's ``search`` bot searching
    only the network's best :data:`SEARCH_WIDTH` actions (its candidates). With ``hand_over``
    (a game's opt-in), it plays the network's choice while the seat holds at least that many
    cards, and the search (every action) after (:class:`HandOver`).

    ``network`` makes the learned bot (the shipped model's); :meth:`of_file` is the same bot
    with the network of a model file, the bot name ``learned+search=PATH`` of
    :func:`folkdeck.agents.make_agent` (a training run's teacher of its own checkpoint, or a
    checkpoint measured with the search)."""

    def __init__(self, game_name: str, network: Callable[[], LearnedAgent], hand_over: int | None = None,
                 name: str = "learned+search") -> None:
        self.game_name, self.network, self.hand_over, self.name = game_name, network, hand_over, name

    def __call__(self) -> GameAgent:
        from folkdeck.agents.search import SearchAgent
        from folkdeck.engine.registry import get_spec

        searcher = get_spec(self.game_name).bots["search"]()
        assert isinstance(searcher, SearchAgent)
        network = self.network()
        if self.hand_over is not None:  # every action searched: the network is weakest where it hands over
            return HandOver(network, searcher, self.hand_over, self.name)
        searcher.narrow(_BestOf(network, SEARCH_WIDTH), self.name)
        return searcher

    def of_file(self, spec: GameSpec, path: str) -> LearnedSearch:
        """The same bot with the network of the model file at ``path`` (read when a bot is made)."""
        return LearnedSearch(self.game_name, functools.partial(agent_from_file, spec, path), self.hand_over,
                             f"learned+search={path}")


class HandOver:
    """The learned bot while the seat holds ``cards`` cards or more, then the search: the
    network plays the opening about as the search does, and the search reads the end of the
    deal, where the network falls short of it (docs/bots.md, "The teacher's consistency").
    Out-of-turn offers are the search bot's."""

    searches = True

    def __init__(self, network: LearnedAgent, search: GameAgent, cards: int, name: str = "learned+search") -> None:
        self.network, self.search, self.cards = network, search, cards
        self.name = name

    def bind(self, game: Game) -> None:
        for bot in (self.network, self.search):
            bind = getattr(bot, "bind", None)
            if bind is not None:
                bind(game)

    def act(self, observation: View, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        hand = getattr(observation, "hand", None) or ()
        bot = self.network if len(hand) >= self.cards else self.search
        chosen: Action = bot.act(observation, legal_actions, rng)
        return chosen

    def interrupt(self, observation: View, legal: Sequence[Action], rng: random.Random) -> Action | None:
        return offer_interrupt(self.search, observation, legal, rng)


class _BestOf:
    """The network's best ``width`` actions (in their listed order), as search candidates."""

    def __init__(self, agent: LearnedAgent, width: int) -> None:
        self.agent, self.width = agent, width

    def __call__(self, view: View, legal: Sequence[Action]) -> Sequence[Action]:
        scores = self.agent.scores(view, legal)
        if scores is None or len(legal) <= self.width:
            return legal
        best = sorted(np.argsort(-scores, kind="stable")[:self.width].tolist())
        return [legal[i] for i in best]


def fallback_factory(spec: GameSpec) -> BotFactory:
    """The bot a learned bot of ``spec``'s game leaves what its network does not play:
    the shipped ``learned`` bot's own fallback, or the game's default bot."""
    if "learned" not in spec.bots:
        return spec.bots[spec.default_bot]
    return functools.partial(LearnedAgent.fallback_of, spec)


def agent_from_file(spec: GameSpec, path: str, *, fallback: str | None = None,
                    temperature: float = 0.0) -> LearnedAgent:
    """A learned bot playing the model in ``path`` (a training checkpoint, say): the bot
    name ``learned=PATH`` of :func:`folkdeck.agents.make_agent`. Its ``fallback`` is the
    one the model was trained beside (its metadata's ``fallback``), unless given."""
    name = fallback or str(model_file(path).meta.get("fallback", ""))
    backup = spec.bots[name] if name in spec.bots else fallback_factory(spec)
    return LearnedAgent(spec, functools.partial(model_file, path), backup,
                        temperature=temperature, name=f"learned={path}")


__all__ = ["FORMAT", "MODEL_DIR", "ActionFeatures", "EncodingSignature", "HandOver", "LearnedAgent", "LearnedSearch",
           "ModelMeta", "QNetwork",
           "agent_from_file", "choose", "encoding_signature", "fallback_factory", "learned_bots", "model_file", "shipped_model"]
