"""Information-set search bots: determinize, then Monte Carlo search.

A search bot sees what every bot sees (its seat's observation, the legal actions and
an RNG) plus the game object, whose rules are public (:meth:`SearchAgent.bind`;
:func:`folkdeck.agents.make_agent` binds it when given the game). To decide, it
samples *determinizations*: full states that agree with everything the seat has seen
and whose hidden cards are dealt again at random (each game's
``games/<g>/determinize.py``, the ``GameSpec.determinizer`` hook, built on the kit of
:mod:`folkdeck.engine.determinize`): the view is read once per decision, then every world
is one call of its sampler. Two searches run on them:

- ``pimc`` (perfect-information Monte Carlo): per sampled world, every legal action is
  tried and followed by a rollout; the action with the best mean return wins.
- ``ismcts`` (single-observer information-set MCTS, Cowling, Powley and Whitehouse
  2012): one tree over actions keyed by their notation, one new world per iteration,
  UCB selection among the children legal in that world (availability counts).

Rollouts play the game to its end with the game's fast engine, by uniformly random
legal actions (``rollout="random"``) or the game's heuristic bot
(``rollout="heuristic"``). The budget is a number of rollouts, not a time, so that a
bot is reproducible from its seed; ``time_limit`` adds a wall-clock cap for interactive
use (and gives up that reproducibility).

A game may opt in, through :func:`search_bots`, to its own level table, a playout
function that stops part way with an evaluation of the position, root candidates, an
ISMCTS depth limit, and PIMC as a policy improvement over a default action
(``confidence``); Gou Ji does (``games/gouji/rollout.py``). Without them every game
searches exactly as before.

Where a game has no determinizer, or the position is not searchable (a putuh window,
a seat's first look at its cards...), the bot plays its ``fallback`` (the game's
heuristic bot).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from folkdeck.agents.tree import Node, most_visited, ucb, untried
from folkdeck.engine.bots import offer_interrupt
from folkdeck.engine.determinize import Determinizer
from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.playout import random_playout
from folkdeck.engine.protocol import Action, BotFactory, Game, GameAgent, GameSpec, State
from folkdeck.engine.view import View as Observation

Sampler = Callable[[random.Random], State]
"""The worlds of one view: one per call (:meth:`Determinizer.worlds`)."""
# The game's own hooks take the game's own state and view types: `Any` here, as
# contravariant parameters, is what lets one search serve every game's typed hooks.
Playout = Callable[[Any, random.Random], None]
"""Advances a sampled world in place, to its end or part way (then ``Evaluate`` scores it)."""
Evaluate = Callable[[Any], Sequence[float]]
"""Every seat's (estimated) return at a position, finished or not."""
Candidates = Callable[[Any, Sequence[Any]], Sequence[Action]]
"""The root actions worth searching, from the observation and the legal actions."""


def determinizer_for(name: str) -> Determinizer | None:
    """The determinizer a game declares (``GameSpec.determinizer``), or ``None``."""
    from folkdeck.engine.registry import get_spec

    return get_spec(name).determinizer


@dataclass(frozen=True, slots=True)
class Level:
    """A strength level: rollouts per decision and the search's exploration constant."""

    rollouts: int
    exploration: float = 0.7


LEVELS: Final[dict[str, Level]] = {
    "fast": Level(rollouts=100),
    "default": Level(rollouts=400),
    "strong": Level(rollouts=1600),
}
"""``search:fast`` answers in about a quarter of the default's time, ``search:strong`` in
about four times it (``docs/bots.md`` has the measured figures)."""


@dataclass(frozen=True, slots=True)
class Paired:
    """PIMC's actions against the default (the first), tried on the same ``worlds``: the
    default's mean return, and per action its mean difference with it and the low end the
    ``confidence`` rule reads of that difference (0 for the default)."""

    base: float
    differences: list[float]
    lows: list[float]
    worlds: int


def _play_out(state: State, policy: GameAgent | None, rng: random.Random, max_steps: int = 10_000) -> None:
    """Play ``state`` to its end with the required seat's actions only."""
    if policy is None:
        random_playout(state, rng, max_steps)
        return
    steps = 0
    while not state.is_over():
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        action = legal[0] if len(legal) == 1 else policy.act(state.observe(seat), legal, rng)
        state.apply(action, seat)
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"rollout not over after {max_steps} steps: {state!r}")


class SearchAgent:
    """Determinization plus PIMC or ISMCTS (see the module docstring).

    :param algorithm: ``"pimc"`` or ``"ismcts"``.
    :param rollouts: the budget per decision (rollouts, one per iteration).
    :param rollout: ``"random"`` or ``"heuristic"`` (the fallback bot plays the rollouts).
    :param fallback: a factory of the bot used where the position cannot be searched.
    :param time_limit: an optional wall-clock cap in seconds (not reproducible).
    :param evaluate: scores the position a rollout stopped at (a playout function may stop
        part way); without it a rollout must reach the end.
    :param candidates: restricts the root to these of the legal actions.
    :param tree_depth: ISMCTS grows its tree at most this deep (``None``: no limit).
    :param confidence: PIMC keeps the first legal (or candidate) action, the default,
        unless another one beats it on the same worlds by this many standard errors of
        the mean difference (``None``: the best mean wins).
    """

    searches = True
    """It thinks for long (the server runs it in its search workers)."""

    def __init__(self, spec: GameSpec, *, algorithm: str = "ismcts", rollouts: int = 600,
                 exploration: float = 0.7, rollout: str | Playout = "random",
                 fallback: BotFactory | None = None, time_limit: float | None = None,
                 name: str = "search", evaluate: Evaluate | None = None,
                 candidates: Candidates | None = None, tree_depth: int | None = None,
                 confidence: float | None = None) -> None:
        if algorithm not in ("pimc", "ismcts"):
            raise ValueError(f"unknown search algorithm {algorithm!r} (pimc, ismcts)")
        if not callable(rollout) and rollout not in ("random", "heuristic"):
            raise ValueError(f"unknown rollout policy {rollout!r} (random, heuristic, or a "
                             "playout function)")
        if tree_depth is not None and tree_depth < 1:
            raise ValueError(f"tree_depth must be at least 1 (or None), not {tree_depth}")
        self.name = name
        self.spec = spec
        self.algorithm = algorithm
        self.rollouts = max(1, rollouts)
        self.exploration = exploration
        self.rollout = rollout
        self.time_limit = time_limit
        self.fallback: GameAgent = (fallback or spec.bots.get(spec.default_bot) or _first)()
        self._policy: GameAgent | None = self.fallback if rollout == "heuristic" else None
        self._playout: Playout | None = rollout if callable(rollout) else None
        self._evaluate = evaluate
        self._candidates = candidates
        self.tree_depth = tree_depth
        self.confidence = confidence
        self._game: Game | None = None
        self._determinizer = spec.determinizer

    def bind(self, game: Game) -> None:
        """Tell the bot the rules of the deal it plays (they are public), and its fallback,
        which plays the positions it does not search (and its rollouts' moves)."""
        self._game = game
        bind = getattr(self.fallback, "bind", None)
        if bind is not None:
            bind(game)

    def narrow(self, candidates: Candidates, name: str) -> None:
        """Search only the actions ``candidates`` keeps, of those the game's own root
        candidates keep (a learned network's best few, :mod:`folkdeck.agents.learned`)."""
        own = self._candidates

        def both(observation: Observation, legal: Sequence[Action]) -> Sequence[Action]:
            kept = (list(own(observation, legal)) or list(legal)) if own is not None else list(legal)
            return candidates(observation, kept)

        self._candidates = both
        self.name = name

    def _game_for(self, observation: Observation) -> Game:
        if self._game is None:
            from folkdeck.engine.registry import load

            # Unbound: the default rules at the observed table size.
            self._game = load(self.spec.name, players=observation.num_players)
        return self._game

    def _check_world(self, world: State, seat: int, keys: Sequence[str]) -> None:
        """Refuse a sampled world in which an action legal in the deal (``keys``) is not.

        A world agrees with everything the seat sees, its own hand among it, so the seat's
        legal actions are the deal's in every world unless the worlds are dealt under other
        rules than the deal's: an unbound bot (the default rules) playing a deal of other
        options. Searching on would try an action those rules refuse, or rank the actions
        of another game; the bot says so instead. The seat's legal actions follow from what
        it sees and the rules alone, alike in every world: each search checks its first.

        :raises InvalidConfigError: ``search_rules_differ`` naming the bot, the seat and
            the action.
        """
        found = {str(a) for a in world.legal_actions(seat)}
        for key in keys:
            if key not in found:
                raise InvalidConfigError("search_rules_differ", option="bind", bot=self.name,
                                         game=self.spec.name, seat=seat, action=key)

    def interrupt(self, observation: Observation, legal: Sequence[Action],
                  rng: random.Random) -> Action | None:
        return offer_interrupt(self.fallback, observation, legal, rng)

    def act(self, observation: Observation, legal_actions: Sequence[Action],
            rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        determinizer = self._determinizer
        seat = observation.seat
        if determinizer is None or seat is None or not determinizer.is_searchable(observation):
            chosen: Action = self.fallback.act(observation, legal_actions, rng)
            return chosen
        game = self._game_for(observation)
        sample = determinizer.worlds(game, observation)
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        if self._candidates is not None:
            legal_actions = list(self._candidates(observation, legal_actions)) or legal_actions
            if len(legal_actions) == 1:
                return legal_actions[0]
        if self.algorithm == "pimc":
            return self._pimc(legal_actions, seat, sample, rng, deadline)
        return self._ismcts(legal_actions, seat, sample, rng, deadline)

    def action_values(self, observation: Observation, legal_actions: Sequence[Action],
                      rng: random.Random, *, compared: bool = False,
                      also: Sequence[Action] = ()) -> list[tuple[Action, float, int]] | None:
        """Each root action's mean return for the observing seat, in the order this bot
        prefers them (the first is what it plays), with the number of rollouts behind it
        (the game's root ``candidates`` only, where it declares them, and the legal ones of
        ``also``: a review weighs the player's choice wherever the search would not look),
        by its own algorithm:

        - PIMC tries every action on the same sampled worlds and orders them by mean; with
          the ``confidence`` rule, by the low end the rule reads of each one's difference
          with the default's return on the same worlds (its mean less ``confidence``
          standard errors), so an action of a higher mean may come after the default;
          ``compared``: each is valued by that low end, the default by its mean (what the
          rule compares, the learned bots' teacher's targets: docs/bots.md, "Gou Ji's
          teacher values");
        - ISMCTS returns its root's children (the actions its tree tried), each with its
          mean return and visits, the most visited first (the one it plays).

        ``None`` where this bot cannot search the position (no determinizer, an
        unsearchable view, a spectator). The hint of the browser and the terminal
        (:mod:`folkdeck.agents.advice`) and the teacher of the learned bots
        (:mod:`folkdeck.train.selfplay`, which plays the first)."""
        seat = observation.seat
        determinizer = self._determinizer
        if determinizer is None or seat is None or not determinizer.is_searchable(observation):
            return None
        sample = determinizer.worlds(self._game_for(observation), observation)
        legal = list(legal_actions)
        if self._candidates is not None:
            legal = list(self._candidates(observation, legal)) or legal
            wanted = {str(a) for a in also} - {str(a) for a in legal}
            legal += [a for a in legal_actions if str(a) in wanted]
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        if self.algorithm == "ismcts":
            children = self._ismcts_root(legal, seat, sample, rng, deadline).children
            visited = [(a, children[str(a)]) for a in legal if str(a) in children]
            visited = [(a, n) for a, n in visited if n.visits]
            ranked = sorted(visited, key=lambda an: (-an[1].visits, -an[1].total / an[1].visits))
            return [(a, n.total / n.visits, n.visits) for a, n in ranked]
        if self.confidence is not None:
            paired = self._paired(legal, seat, sample, rng, deadline)
            order = sorted(range(len(legal)), key=lambda i: -paired.lows[i])  # stable: the default wins ties
            shown = paired.lows if compared else paired.differences
            return [(legal[i], paired.base + shown[i], paired.worlds) for i in order]
        totals, counts = self._pimc_values(legal, seat, sample, rng, deadline)
        rows = [(a, totals[i] / counts[i], counts[i]) for i, a in enumerate(legal) if counts[i]]
        return sorted(rows, key=lambda row: -row[1])

    def _returns(self, world: State, rng: random.Random) -> tuple[float, ...]:
        """Every seat's return after a rollout from ``world`` (played out or evaluated)."""
        if self._playout is not None:
            self._playout(world, rng)
        else:
            _play_out(world, self._policy, rng)
        if self._evaluate is not None:
            return tuple(self._evaluate(world))
        result = world.result()
        if result is None:
            raise RuntimeError(f"the rollout stopped before the end and no evaluation was "
                               f"given: {world!r}")
        return tuple(result.returns)

    # --- PIMC ----------------------------------------------------------------------
    def _pimc(self, legal: Sequence[Action], seat: int, sample: Sampler, rng: random.Random,
              deadline: float | None) -> Action:
        if self.confidence is not None:
            return self._pimc_paired(legal, seat, sample, rng, deadline)
        totals, counts = self._pimc_values(legal, seat, sample, rng, deadline)
        best = max(range(len(legal)), key=lambda i: (totals[i] / counts[i] if counts[i] else -math.inf, -i))
        return legal[best]

    def _pimc_values(self, legal: Sequence[Action], seat: int, sample: Sampler, rng: random.Random,
                     deadline: float | None) -> tuple[list[float], list[int]]:
        """Every action's summed return and count over the sampled worlds (each world tries
        every action, each followed by one rollout)."""
        keys = [str(a) for a in legal]
        totals = [0.0] * len(legal)
        counts = [0] * len(legal)
        worlds = max(1, self.rollouts // len(legal))
        for w in range(worlds):
            world = sample(rng)
            if w == 0:
                self._check_world(world, seat, keys)
            for i, key in enumerate(keys):
                trial = world.clone()
                trial.apply(trial.parse_action(key, seat), seat)
                totals[i] += self._returns(trial, rng)[seat]
                counts[i] += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        return totals, counts

    def _pimc_paired(self, legal: Sequence[Action], seat: int, sample: Sampler, rng: random.Random,
                     deadline: float | None) -> Action:
        """PIMC as a policy improvement over the default action ``legal[0]``: the action
        whose low end (:meth:`_paired`) is highest, if above the default's 0."""
        lows = self._paired(legal, seat, sample, rng, deadline).lows
        best, best_low = 0, 0.0
        for i in range(1, len(legal)):
            if lows[i] > best_low:
                best, best_low = i, lows[i]
        return legal[best]

    def _paired(self, legal: Sequence[Action], seat: int, sample: Sampler, rng: random.Random,
                deadline: float | None) -> Paired:
        """Each action's return less the default's on the same worlds (common random
        numbers): its mean and the low end of its interval (the mean less ``confidence``
        standard errors of it; 0 for the default itself)."""
        keys = [str(a) for a in legal]
        sums = [0.0] * len(legal)
        squares = [0.0] * len(legal)
        base = 0.0
        worlds = max(2, self.rollouts // len(legal))
        done = 0
        for w in range(worlds):
            world = sample(rng)
            if w == 0:
                self._check_world(world, seat, keys)
            values = []
            for key in keys:
                trial = world.clone()
                trial.apply(trial.parse_action(key, seat), seat)
                values.append(self._returns(trial, rng)[seat])
            for i, v in enumerate(values):
                d = v - values[0]
                sums[i] += d
                squares[i] += d * d
            base += values[0]
            done += 1
            if deadline is not None and done >= 2 and time.perf_counter() > deadline:
                break  # two worlds at least: an error needs two differences
        assert self.confidence is not None
        differences = [total / done for total in sums]
        lows = [0.0] * len(legal)
        for i in range(1, len(legal)):
            mean = differences[i]
            spread = max(0.0, squares[i] / done - mean * mean)
            error = math.sqrt(spread / (done - 1))
            lows[i] = mean - self.confidence * error
        return Paired(base / done, differences, lows, done)

    # --- ISMCTS --------------------------------------------------------------------
    def _ismcts(self, legal: Sequence[Action], seat: int, sample: Sampler, rng: random.Random,
                deadline: float | None) -> Action:
        return most_visited(self._ismcts_root(legal, seat, sample, rng, deadline), legal)

    def _ismcts_root(self, legal: Sequence[Action], seat: int, sample: Sampler, rng: random.Random,
                     deadline: float | None) -> Node:
        """The root of the tree grown by the budget's iterations."""
        root = Node(seat)
        lo, hi = math.inf, -math.inf
        keys = [str(a) for a in legal]
        allowed = set(keys) if self._candidates is not None else None
        for iteration in range(self.rollouts):
            world = sample(rng)
            if iteration == 0:
                self._check_world(world, seat, keys)
            path = self._descend(world, root, allowed, lo, hi, rng)
            returns = self._returns(world, rng)
            lo = min(lo, *returns)
            hi = max(hi, *returns)
            for n in path:
                n.visits += 1
                n.total += returns[n.seat]
            if deadline is not None and iteration % 16 == 15 and time.perf_counter() > deadline:
                break
        return root

    def _descend(self, world: State, root: Node, allowed: set[str] | None, lo: float, hi: float,
                 rng: random.Random) -> list[Node]:
        """One iteration's walk down the tree, playing ``world`` on: UCB among the children
        legal in this world, until an untried action is added (one drawn at random), the
        depth limit or the end of the deal. The nodes walked, for the backup."""
        node = root
        path: list[Node] = []
        depth = self.tree_depth
        while not world.is_over() and (depth is None or len(path) < depth):
            mover = world.to_act[0]
            actions = world.legal_actions(mover)
            if node is root and allowed is not None:
                actions = tuple(a for a in actions if str(a) in allowed)
            fresh = untried(node, actions)
            if fresh:
                a = fresh[rng.randrange(len(fresh))]
                child = Node(mover)
                node.children[str(a)] = child
                world.apply(a, mover)
                path.append(child)
                break
            best_a, node = ucb(node, actions, self.exploration, lo, hi)
            world.apply(best_a, mover)
            path.append(node)
        return path


def _first() -> GameAgent:
    from folkdeck.agents.base import FirstLegalAgent

    return FirstLegalAgent()


def search_bots(game_name: str, fallback: str | None = None, *,
                levels: dict[str, Level] | None = None, rollout: str | Playout = "random",
                evaluate: Evaluate | None = None, candidates: Candidates | None = None,
                tree_depth: int | None = None, confidence: float | None = None,
                search_algorithm: str = "ismcts") -> dict[str, BotFactory]:
    """The ``search`` family of bot factories for a game: ``search`` (ISMCTS at the default
    level), ``search:fast``, ``search:strong``, and ``pimc``, ``pimc:fast``, ``pimc:strong``.

    The game's spec is looked up when a bot is made (the factories go into that spec).
    The keywords are a game's opt-in settings (the defaults are every other game's):
    its own ``levels`` table (the keys of :data:`LEVELS`), a ``rollout`` playout function
    with an ``evaluate`` of the position it stops at, the root ``candidates``, a
    ``tree_depth`` limit for ISMCTS and PIMC's ``confidence`` rule (see :class:`SearchAgent`),
    and ``search_algorithm``, the algorithm of the ``search`` names: with ``"pimc"`` they
    play PIMC and ISMCTS keeps its own names ``ismcts``, ``ismcts:fast``, ``ismcts:strong``.
    """
    if search_algorithm not in ("pimc", "ismcts"):
        raise ValueError(f"unknown search algorithm {search_algorithm!r} (pimc, ismcts)")
    table = LEVELS if levels is None else levels

    def make(level: str, algorithm: str, prefix: str) -> BotFactory:
        def factory() -> SearchAgent:
            from folkdeck.engine.registry import get_spec

            spec = get_spec(game_name)
            chosen = table[level]
            heur = spec.bots.get(fallback) if fallback else None
            name = prefix if level == "default" else f"{prefix}:{level}"
            return SearchAgent(spec, algorithm=algorithm, rollouts=chosen.rollouts,
                               exploration=chosen.exploration, fallback=heur, name=name,
                               rollout=rollout, evaluate=evaluate, candidates=candidates,
                               tree_depth=tree_depth, confidence=confidence)
        return factory

    families = [("search", search_algorithm), ("pimc", "pimc")]
    if search_algorithm != "ismcts":
        families.append(("ismcts", "ismcts"))
    bots = {}
    for prefix, algorithm in families:
        for level in table:
            bots[prefix if level == "default" else f"{prefix}:{level}"] = make(level, algorithm, prefix)
    return bots


__all__ = ["LEVELS", "Level", "SearchAgent", "determinizer_for", "search_bots"]
