"""Self-play data: deals played by a teacher or by the learner, as training samples.

A :class:`Chunk` is the picklable unit of work (plain data: the game, its rules, deal
numbers, the seat line-up and the learner's weights as arrays), run by
:func:`play_chunk` in whatever process the arena's backend chose
(:func:`folkdeck.sim.backends.run_tasks`: this process, a local pool or Ray). Workers
run the build that is installed, so ``folkdeck train`` on the compiled build plays its
deals at the compiled engine's speed. A chunk's samples depend only on its fields: the
deals' cards and every RNG come from :func:`~folkdeck.sim.arena.derive_seed`.

Three kinds of seat record samples:

- ``teacher``: the game's search bot values every legal action at each decision
  (:meth:`~folkdeck.agents.search.SearchAgent.action_values` with ``compared``: PIMC over
  sampled worlds, the game's own rollouts; with Gou Ji's confidence rule, what the rule
  compares), plays the best (or, with probability ``explore``, a random one, to visit
  positions a strong player avoids) and records every action with its value.
- ``student``: the network of ``weights`` plays epsilon-greedily, and the teacher values
  the legal actions of each of its decisions (the learner's own positions labelled by the
  teacher, as in DAgger, Ross, Gordon and Bagnell 2011).
- ``learner``: the network plays epsilon-greedily and records only the action it played.

When the deal ends, every recorded decision's played action also gets the seat's actual
return (deep Monte Carlo, as in DouZero), with ``return_weight``. What the network learns
is each action's *advantage*: a target less the mean of the teacher's values at its
decision (:meth:`Samples.advantages`), so that it spends nothing on who is ahead in the
deal, which is the same for every action of a decision.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from folkdeck.agents.encoding import Encoding
from folkdeck.agents.features import ActionFeatures
from folkdeck.agents.learned import LearnedAgent, ModelMeta, QNetwork
from folkdeck.agents.registry import make_agent
from folkdeck.agents.search import SearchAgent
from folkdeck.engine.bots import GameAgent
from folkdeck.engine.protocol import Action, Game, GameSpec
from folkdeck.engine.registry import load
from folkdeck.engine.view import View
from folkdeck.sim.arena import derive_seed
from folkdeck.sim.runner import play_deal

F16 = npt.NDArray[np.float16]
F32 = npt.NDArray[np.float32]
I32 = npt.NDArray[np.int32]
Weights = tuple[tuple[F32, ...], ...]
"""A network's layers (:attr:`QNetwork.layers <folkdeck.agents.learned.QNetwork.layers>`)."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """Deals to play and record (see the module docstring)."""

    game: str
    rules: tuple[tuple[str, object], ...]
    deals: tuple[int, ...]
    seed: int
    seats: tuple[str, ...]
    """Per seat: ``teacher``, ``student``, ``learner``, or a bot name of the game (not recorded)."""
    teacher: str = "pimc:fast"
    fallback: str = "heuristic"
    """The learned bot's heuristic: its choice is an input of the network (and the learner
    leaves it the out-of-turn offers)."""
    weights: Weights | None = None
    meta: ModelMeta = field(default_factory=ModelMeta)
    explore: float = 0.1
    return_weight: float = 0.5

    def make_game(self) -> Game:
        return load(self.game, None, **dict(self.rules))


@dataclass(slots=True)
class Samples:
    """Decisions and (decision, action) pairs as arrays (``float16`` inputs)."""

    views: F16
    """One observation vector per decision."""
    actions: F16
    """One action vector per pair."""
    decision: I32
    """Each pair's row in ``views``."""
    target: F32
    """Each pair's target: a teacher's value or the seat's return."""
    weight: F32
    played: npt.NDArray[np.bool_]
    """Whether the pair is the action played (the teacher's choice, or the learner's)."""
    returns: F32
    """The seat's return of each decision's deal (for the value scale and the logs)."""

    @property
    def num_decisions(self) -> int:
        return int(self.views.shape[0])

    @property
    def num_pairs(self) -> int:
        return int(self.actions.shape[0])

    def advantages(self) -> tuple[F32, F32]:
        """Each pair's target less its decision's baseline (the mean of the teacher's values
        there), and its weight (0 at a decision the teacher did not value: no baseline)."""
        valued = self.weight == 1.0
        counts = np.bincount(self.decision[valued], minlength=self.num_decisions)
        sums = np.bincount(self.decision[valued], weights=self.target[valued], minlength=self.num_decisions)
        baseline = np.divide(sums, counts, out=np.zeros(self.num_decisions), where=counts > 0)
        known = counts[self.decision] > 0
        target = (self.target - baseline[self.decision]).astype(np.float32)
        return np.where(known, target, 0.0).astype(np.float32), np.where(known, self.weight, 0.0).astype(np.float32)

    @classmethod
    def concat(cls, parts: Sequence[Samples]) -> Samples:
        offsets = np.cumsum([0] + [p.num_decisions for p in parts[:-1]])
        return cls(np.concatenate([p.views for p in parts]), np.concatenate([p.actions for p in parts]),
                   np.concatenate([p.decision + o for p, o in zip(parts, offsets, strict=True)]).astype(np.int32),
                   np.concatenate([p.target for p in parts]), np.concatenate([p.weight for p in parts]),
                   np.concatenate([p.played for p in parts]), np.concatenate([p.returns for p in parts]))

    def save(self, path: str) -> None:
        np.savez_compressed(path, views=self.views, actions=self.actions, decision=self.decision,
                            target=self.target, weight=self.weight, played=self.played, returns=self.returns)

    @classmethod
    def load(cls, path: str) -> Samples:
        with np.load(path) as d:
            return cls(d["views"], d["actions"], d["decision"], d["target"], d["weight"], d["played"],
                       d["returns"])


class _Recorder:
    """Collects one deal's decisions of the recorded seats."""

    def __init__(self, encoding: Encoding, features: ActionFeatures) -> None:
        self.encoding, self.features = encoding, features
        self.views: list[F32] = []
        self.seat_of: list[int] = []
        self.pairs: list[tuple[int, F32, float, float, bool]] = []  # decision, action, target, weight, played
        self.played_row: list[F32] = []

    def decision(self, seat: int, view: View, valued: Sequence[tuple[Action, float]], played: Action,
                 preferred: Action) -> None:
        d = len(self.views)
        self.views.append(self.encoding.observe(view))
        self.seat_of.append(seat)
        key = str(played)
        actions = [a for a, _ in valued]
        rows = self.features.matrix([*actions, played], preferred)
        for i, (action, value) in enumerate(valued):
            self.pairs.append((d, rows[i], value, 1.0, str(action) == key))
        self.played_row.append(rows[-1])

    def samples(self, returns: Sequence[float], return_weight: float) -> Samples:
        pairs = list(self.pairs)
        if return_weight > 0:
            pairs += [(d, row, float(returns[self.seat_of[d]]), return_weight, True)
                      for d, row in enumerate(self.played_row)]
        width = self.features.row_size
        return Samples(
            np.asarray(self.views, dtype=np.float16).reshape(-1, self.encoding.size),
            np.asarray([p[1] for p in pairs], dtype=np.float16).reshape(-1, width),
            np.asarray([p[0] for p in pairs], dtype=np.int32),
            np.asarray([p[2] for p in pairs], dtype=np.float32),
            np.asarray([p[3] for p in pairs], dtype=np.float32),
            np.asarray([p[4] for p in pairs], dtype=np.bool_),
            np.asarray([float(returns[s]) for s in self.seat_of], dtype=np.float32))


def with_unsearched(rows: Sequence[tuple[Action, float, int]], legal: Sequence[Action]) -> list[tuple[Action, float]]:
    """The teacher's values, best first, and every legal action its search left out (a
    game's root candidates: Gou Ji's) at the worst searched value: the network must not
    learn nothing of the actions it will be asked to score at the table."""
    valued = [(a, v) for a, v, _ in rows]
    searched = {str(a) for a, _ in valued}
    worst = min(v for _, v in valued)
    return valued + [(a, worst) for a in legal if str(a) not in searched]


class _TeacherSeat:
    """A search bot that records its values (a bot of the runner's protocol)."""

    def __init__(self, seat: int, search: SearchAgent, heuristic: GameAgent, recorder: _Recorder,
                 explore: float) -> None:
        self.name = "teacher"
        self.seat, self.search, self.recorder, self.explore = seat, search, recorder, explore
        self.heuristic = heuristic

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        rows = self.search.action_values(view, legal, rng, compared=True)
        preferred = self.heuristic.act(view, legal, random.Random(0))
        if not rows:  # a position the search does not search: its fallback decides
            choice: Action = self.search.fallback.act(view, legal, rng)
            self.recorder.decision(self.seat, view, (), choice, preferred)
            return choice
        valued = with_unsearched(rows, legal)
        choice = legal[rng.randrange(len(legal))] if rng.random() < self.explore else valued[0][0]
        self.recorder.decision(self.seat, view, valued, choice, preferred)
        return choice

    def interrupt(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action | None:
        return self.search.interrupt(view, legal, rng)


class _LearnerSeat:
    """The learner, epsilon-greedy, recording the actions it plays (with the teacher's
    values of every legal action, when it has a teacher: a ``student``)."""

    def __init__(self, seat: int, agent: LearnedAgent, recorder: _Recorder, explore: float,
                 teacher: SearchAgent | None = None) -> None:
        self.name = "learner"
        self.seat, self.agent, self.recorder, self.explore = seat, agent, recorder, explore
        self.teacher = teacher

    def act(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        choice = legal[rng.randrange(len(legal))] if rng.random() < self.explore else self.agent.act(view, legal, rng)
        rows = self.teacher.action_values(view, legal, rng, compared=True) if self.teacher is not None else None
        self.recorder.decision(self.seat, view, with_unsearched(rows or [], legal) if rows else [], choice,
                               self.agent.preferred(view, legal))
        return choice

    def interrupt(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action | None:
        return self.agent.interrupt(view, legal, rng)


def _teacher(spec: GameSpec, name: str, game: Game) -> SearchAgent:
    """The teacher bot: a search bot, which values every legal action."""
    agent = make_agent(spec, name, game=game)
    if not isinstance(agent, SearchAgent):
        raise ValueError(f"the teacher {name!r} is not a search bot: it values no action")
    return agent


def play_chunk(chunk: Chunk) -> Samples:
    """Play and record the chunk's deals (the function the backends run)."""
    game = chunk.make_game()
    spec = game.spec
    encoding = Encoding.of(game)
    features = ActionFeatures(encoding)
    network = QNetwork(chunk.weights, chunk.meta) if chunk.weights is not None else None
    parts = []
    for deal in chunk.deals:
        recorder = _Recorder(encoding, features)
        seats: list[GameAgent] = []
        for seat, role in enumerate(chunk.seats):
            if role == "teacher":
                search = _teacher(spec, chunk.teacher, game)
                heuristic = make_agent(spec, chunk.fallback, game=game)
                seats.append(_TeacherSeat(seat, search, heuristic, recorder, chunk.explore))
            elif role in ("learner", "student"):
                if network is None:
                    raise ValueError(f"a {role} seat needs the chunk's weights")
                agent = LearnedAgent(spec, network, spec.bots[chunk.fallback])
                agent.bind(game)
                teacher = _teacher(spec, chunk.teacher, game) if role == "student" else None
                seats.append(_LearnerSeat(seat, agent, recorder, chunk.explore, teacher))
            else:
                seats.append(make_agent(spec, role, game=game))
        state = game.new_state(seed=derive_seed(chunk.seed, deal))
        play_deal(state, seats, random.Random(derive_seed(chunk.seed, deal, "bots")))
        result = state.result()
        assert result is not None
        parts.append(recorder.samples(result.returns, chunk.return_weight))
    return Samples.concat(parts)


__all__ = ["Chunk", "Samples", "play_chunk"]
