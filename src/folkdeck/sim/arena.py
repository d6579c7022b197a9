"""The arena: bots play duplicate deals; win shares, means with intervals, ratings.

Duplicate deals cancel the luck of the cards: each deal is played once per rotation,
the bots moving one seat on each time, so every bot holds every hand. A lineup that
repeats itself (``A,B,A,B,A,B``: period 2) is played only in its distinct rotations,
which already give every bot every hand. The deal's
cards come from ``(seed, deal)`` and each rotation's bot RNG from
``(seed, deal, rotation)``, so the arena's results depend on the seed only, never on
the backend, the number of jobs or the order in which the work finished.

>>> summary = run_arena(ArenaConfig("kaphai", ("heuristic", "random", "random", "random"),
...                                 deals=2, seed=1))
>>> [b.name for b in summary.bots], summary.games_played
(['heuristic', 'random'], 8)
"""

from __future__ import annotations

import csv
import hashlib
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

from folkdeck.agents.registry import MODEL_FILE_BOTS, make_agent
from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.frozen import frozen_reduction
from folkdeck.engine.protocol import Action, Game, GameAgent
from folkdeck.engine.record import Record
from folkdeck.engine.registry import get_spec, load
from folkdeck.engine.view import View
from folkdeck.json_types import JSONObject, JSONValue
from folkdeck.sim.backends import run_tasks
from folkdeck.sim.runner import play_deal
from folkdeck.sim.stats import MeanCI, MeanCIDict, mean_ci

if TYPE_CHECKING:
    from matplotlib.axes import Axes  # type: ignore[import-not-found, unused-ignore]


class GamePlayed(TypedDict):
    """One game of the arena (a deal in one rotation), as results files hold it."""

    deal: int
    rotation: int
    slots: list[int]
    """Seat -> index in the config's bots."""
    bots: list[str]
    placings: list[int | None]
    returns: list[float]
    reason: str
    timing: NotRequired[list[list[float]]]
    """Per seat: decisions, CPU seconds, the slowest (measured: not fixed by the seed)."""
    record: NotRequired[JSONObject]
    """The deal's record (:meth:`Record.to_dict`), unless left out."""


class ConfigDict(TypedDict):
    """An :class:`ArenaConfig` as results files hold it."""

    game: str
    bots: list[str]
    deals: int
    seed: int
    preset: str | None
    rules: dict[str, object]
    first_deal: int


class BotDict(TypedDict):
    """A :class:`BotSummary` as results files hold it."""

    name: str
    seats_played: int
    win_share: MeanCIDict
    mean_placing: MeanCIDict
    mean_return: MeanCIDict
    rating: float | None
    rating_mu: float | None
    rating_sigma: float | None
    decision_time: NotRequired[dict[str, float] | None]
    """Left out where the measured times are (``ArenaSummary.to_dict(timing=False)``)."""


class ResultsFile(TypedDict):
    """A JSON results file (:meth:`ArenaSummary.to_dict`, :func:`write_results`)."""

    config: ConfigDict
    rating_system: str
    bots: list[BotDict]
    games: list[GamePlayed]


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What to play: the game and rules, one bot name per seat, how many deals."""

    game: str
    bots: tuple[str, ...]
    deals: int
    seed: int = 0
    preset: str | None = None
    rules: tuple[tuple[str, object], ...] = ()
    keep_records: bool = True
    first_deal: int = 0
    """Deals are numbered from here: an arena can be played in pieces and merged."""

    def make_game(self) -> Game:
        options = dict(self.rules)
        options.setdefault("players", len(self.bots))
        return load(self.game, self.preset, **options)

    def __reduce__(self) -> tuple[object, ...]:
        return frozen_reduction(self)  # its fields by name (why: folkdeck.engine.build, "Pickling")

    def to_dict(self) -> ConfigDict:
        return {"game": self.game, "bots": list(self.bots), "deals": self.deals, "seed": self.seed,
                "preset": self.preset, "rules": dict(self.rules), "first_deal": self.first_deal}


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the parts (stable across processes, unlike ``hash``).

    >>> derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(2, 1)
    True
    """
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_deals(config: ArenaConfig, deals: Sequence[int]) -> list[GamePlayed]:
    """Every rotation of each of ``deals``: one dict per game played (the unit of work)."""
    game = config.make_game()
    spec = game.spec
    n = game.num_players
    out: list[GamePlayed] = []
    for deal in deals:
        deal_seed = derive_seed(config.seed, deal)
        for rotation in range(rotations(config.bots)):
            slots = [(s + rotation) % n for s in range(n)]  # seat -> index in config.bots
            names = [config.bots[i] for i in slots]
            agents = [_TimedAgent(make_agent(spec, name, game=game)) for name in names]
            state = game.new_state(seed=deal_seed)
            play_deal(state, agents, random.Random(derive_seed(config.seed, deal, rotation)))
            result = state.result()
            assert result is not None
            item: GamePlayed = {
                "deal": deal, "rotation": rotation, "slots": slots, "bots": names,
                "placings": list(result.placings), "returns": list(result.returns),
                "reason": result.reason,
                "timing": [[a.decisions, round(a.seconds, 6), round(a.slowest, 6)] for a in agents],
            }
            if config.keep_records:
                item["record"] = Record.from_state(state, players=list[JSONValue](names), deal_seed=deal_seed).to_dict()
            out.append(item)
    return out


class _TimedAgent:
    """A bot wrapped to measure the CPU time of its decisions (``time.process_time``, so
    other processes on the machine do not count). A decision is an ``act`` call with a
    choice (two or more legal actions) or an ``interrupt`` offer."""

    def __init__(self, agent: GameAgent) -> None:
        self.agent = agent
        self.name = agent.name
        self.decisions = 0
        self.seconds = 0.0
        self.slowest = 0.0
        self._agent_interrupt: Callable[[View, Sequence[Action], random.Random], Action | None] | None = \
            getattr(agent, "interrupt", None)
        if self._agent_interrupt is not None:
            self.interrupt = self._interrupt

    def _count(self, start: float) -> None:
        spent = time.process_time() - start
        self.decisions += 1
        self.seconds += spent
        self.slowest = max(self.slowest, spent)

    def act(self, observation: View, legal: Sequence[Action], rng: random.Random) -> Action:
        start = time.process_time()
        action: Action = self.agent.act(observation, legal, rng)
        if len(legal) > 1:
            self._count(start)
        return action

    def _interrupt(self, observation: View, legal: Sequence[Action], rng: random.Random) -> Action | None:
        start = time.process_time()
        assert self._agent_interrupt is not None
        action = self._agent_interrupt(observation, legal, rng)
        self._count(start)
        return action


@dataclass(frozen=True, slots=True)
class DecisionTime:
    """CPU seconds a bot spent per decision (a choice among two or more actions)."""

    decisions: int
    mean: float
    slowest: float

    def to_dict(self) -> dict[str, float]:
        return {"decisions": self.decisions, "mean_s": self.mean, "max_s": self.slowest}


def rotations(bots: Sequence[str]) -> int:
    """The distinct rotations of a lineup: its period.

    >>> rotations(["search", "heuristic", "heuristic", "heuristic"])
    4
    >>> rotations(["heuristic", "greedy"] * 3), rotations(["random"] * 4)
    (2, 1)
    """
    n = len(bots)
    return next(p for p in range(1, n + 1) if n % p == 0 and list(bots[p:]) + list(bots[:p]) == list(bots))


@dataclass(frozen=True, slots=True)
class BotSummary:
    """One bot's figures over the arena (intervals over deals)."""

    name: str
    seats_played: int
    win_share: MeanCI
    mean_placing: MeanCI
    mean_return: MeanCI
    rating_mu: float | None
    rating_sigma: float | None
    """``None`` without openskill (JSON has no NaN: a results file must stay readable)."""
    decision_time: DecisionTime | None = None
    """Measured, so it varies from run to run (everything else is fixed by the seed)."""

    @property
    def rating(self) -> float | None:
        """The conservative rating ``mu - 3 sigma`` (openskill's ordinal), if rated."""
        if self.rating_mu is None or self.rating_sigma is None:
            return None
        return self.rating_mu - 3 * self.rating_sigma

    def to_dict(self) -> BotDict:
        return {"name": self.name, "seats_played": self.seats_played,
                "win_share": self.win_share.to_dict(), "mean_placing": self.mean_placing.to_dict(),
                "mean_return": self.mean_return.to_dict(), "rating": self.rating,
                "rating_mu": self.rating_mu, "rating_sigma": self.rating_sigma,
                "decision_time": self.decision_time.to_dict() if self.decision_time else None}


@dataclass(frozen=True, slots=True)
class ArenaSummary:
    config: ArenaConfig
    bots: tuple[BotSummary, ...]
    games: tuple[GamePlayed, ...] = field(repr=False)
    rating_system: str = "openskill PlackettLuce"

    @property
    def games_played(self) -> int:
        return len(self.games)

    def to_dict(self, *, timing: bool = True) -> ResultsFile:
        """Everything; ``timing=False`` leaves out the measured decision times, which
        are the only part of a summary that the seed does not fix."""
        bots = [b.to_dict() for b in self.bots]
        games = list(self.games)
        if not timing:
            for b in bots:
                del b["decision_time"]
            games = [_untimed(g) for g in games]
        return {"config": self.config.to_dict(), "rating_system": self.rating_system,
                "bots": bots, "games": games}


def _untimed(game: GamePlayed) -> GamePlayed:
    """A game without its measured ``timing``."""
    untimed = game.copy()
    untimed.pop("timing", None)
    return untimed


def summarize(config: ArenaConfig, games: Sequence[GamePlayed]) -> ArenaSummary:
    """Per bot name: win share, mean placing and mean return with 95% intervals over the
    deals (a deal's value is the bot's mean over its seats and rotations), and a rating."""
    names = list(dict.fromkeys(config.bots))
    per_deal: dict[str, dict[int, list[tuple[float, float, float]]]] = {n: {} for n in names}
    seats = dict.fromkeys(names, 0)
    clock = {n: [0.0, 0.0, 0.0] for n in names}  # decisions, seconds, slowest
    for g in games:
        n_seats = len(g["bots"])
        for seat, (decisions, seconds, slowest) in enumerate(g.get("timing", ())):
            total = clock[g["bots"][seat]]
            total[0] += decisions
            total[1] += seconds
            total[2] = max(total[2], slowest)
        for seat, name in enumerate(g["bots"]):
            place = g["placings"][seat]
            placing = float(place) if place is not None else float(n_seats)
            per_deal[name].setdefault(g["deal"], []).append(
                (1.0 if place == 1 else 0.0, placing, float(g["returns"][seat])))
            seats[name] += 1
    ratings = rate(games, names)
    bots = []
    for name in names:
        rows = [[sum(v[k] for v in vals) / len(vals) for k in range(3)]
                for _, vals in sorted(per_deal[name].items())]
        mu, sigma = ratings.get(name, (None, None))
        decisions, seconds, slowest = clock[name]
        timing = DecisionTime(int(decisions), seconds / decisions, slowest) if decisions else None
        bots.append(BotSummary(name, seats[name], mean_ci([r[0] for r in rows]),
                               mean_ci([r[1] for r in rows]), mean_ci([r[2] for r in rows]), mu, sigma,
                               timing))
    system = "openskill PlackettLuce" if ratings else "none (openskill not installed)"
    return ArenaSummary(config, tuple(bots), tuple(games), system)


def rate(games: Sequence[GamePlayed], names: Sequence[str]) -> dict[str, tuple[float, float]]:
    """An openskill Plackett-Luce rating per bot name (``{}`` without openskill).

    Games are rated in arena order (deal, rotation). A game with several seats of one
    bot rates each seat from the bot's rating and keeps the mean of the updates.
    """
    try:
        from openskill.models import PlackettLuce  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return {}
    model = PlackettLuce()
    current = {n: model.rating(name=n) for n in names}
    for g in games:
        seats = g["bots"]
        worst = len(seats)
        ranks: list[float] = [p if p is not None else worst for p in g["placings"]]
        teams = [[model.rating(mu=current[n].mu, sigma=current[n].sigma, name=n)] for n in seats]
        updated = model.rate(teams, ranks=ranks)
        for name in set(seats):
            mine = [t[0] for t, n in zip(updated, seats, strict=True) if n == name]
            current[name] = model.rating(mu=sum(r.mu for r in mine) / len(mine),
                                         sigma=sum(r.sigma for r in mine) / len(mine), name=name)
    return {n: (r.mu, r.sigma) for n, r in current.items()}


def run_arena(config: ArenaConfig, *, jobs: int = 1, backend: str = "process",
              address: str | None = None, chunk: int | None = None,
              on_progress: Callable[[int], None] | None = None) -> ArenaSummary:
    """Play the arena and summarize it. ``on_progress(k)`` reports ``k`` more deals done.

    :raises InvalidConfigError: for a wrong number of bots or an unknown bot or game.
    """
    spec = get_spec(config.game)
    if not spec.min_players <= len(config.bots) <= spec.max_players:
        raise InvalidConfigError("bots_per_seat", option="bots", count=len(config.bots), title=spec.title,
                                 low=spec.min_players, high=spec.max_players)
    for name in dict.fromkeys(config.bots):
        if name not in spec.bots and not name.startswith(MODEL_FILE_BOTS):
            raise InvalidConfigError("unknown_bot", option="bots", bot=name, game=spec.name,
                                     bots=", ".join(spec.bots))
        make_agent(spec, name)  # a model file (``learned=PATH``...) is read, and refused, now
    if config.deals < 1:
        raise InvalidConfigError("deals_at_least_one", option="deals")
    config.make_game()  # check the rules before any work is sent out
    size = chunk or max(1, min(25, config.deals // (max(1, jobs) * 8)))
    end = config.first_deal + config.deals
    chunks = [tuple(range(i, min(i + size, end))) for i in range(config.first_deal, end, size)]
    done = None
    if on_progress is not None:
        progress = on_progress

        def done(i: int) -> None:
            progress(len(chunks[i]))
    results = run_tasks(_Task(config), chunks, jobs=jobs, backend=backend, address=address,
                        on_done=done)
    games = [g for part in results for g in part]
    return summarize(config, games)


class _Task:
    """The picklable unit of work: one chunk of deals."""

    def __init__(self, config: ArenaConfig) -> None:
        self.config = config

    def __call__(self, deals: Sequence[int]) -> list[GamePlayed]:
        return play_deals(self.config, deals)

    def __reduce__(self) -> tuple[type[_Task], tuple[ArenaConfig]]:
        # Pickled as its constructor call, `_Task(config)` (why: folkdeck.engine.build,
        # "Pickling").
        return (_Task, (self.config,))


# --- output ----------------------------------------------------------------------
def write_results(summary: ArenaSummary, path: str | Path) -> Path:
    """JSON (the summary and every game with its record) or CSV (one row per seat)."""
    path = Path(path)
    if path.suffix.lower() == ".csv":
        with path.open("w", newline="") as fp:
            writer = csv.writer(fp)
            writer.writerow(["deal", "rotation", "seat", "bot", "placing", "return", "reason", "record"])
            for g in summary.games:
                record = json.dumps(g["record"], separators=(",", ":")) if "record" in g else ""
                for seat, bot in enumerate(g["bots"]):
                    writer.writerow([g["deal"], g["rotation"], seat, bot, g["placings"][seat],
                                     g["returns"][seat], g["reason"], record if seat == 0 else ""])
        return path
    path.write_text(json.dumps(summary.to_dict(), indent=1) + "\n")
    return path


def load_results(path: str | Path) -> ResultsFile:
    """A JSON results file back (its records load with :meth:`Record.from_dict`)."""
    data: ResultsFile = json.loads(Path(path).read_text())
    return data


def plot_results(summary: ArenaSummary, path: str | Path) -> Path:
    """A PNG: each bot's win share and mean return with their 95% intervals.

    :raises InvalidConfigError: without matplotlib (``pip install 'folkdeck[arena]'``).
    """
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]  # the arena extra

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:
        raise InvalidConfigError("needs_extra", option="plot", feature="plot", module="matplotlib",
                                 extra="arena") from exc
    names = [b.name for b in summary.bots]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6))
    panels: list[tuple[Axes, str, Callable[[BotSummary], MeanCI]]] = [
        (axes[0], "win share", lambda b: b.win_share),
        (axes[1], "mean return", lambda b: b.mean_return)]
    for ax, title, get in panels:
        values = [get(b) for b in summary.bots]
        ax.bar(names, [v.mean for v in values], yerr=[v.half_width for v in values], capsize=6,
               color=["#3b6ea5", "#d08c2b", "#5a9e5a", "#a64d79", "#777777", "#c44e52"][:len(names)])
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
    c = summary.config
    fig.suptitle(f"{c.game}: {', '.join(c.bots)} — {c.deals} duplicate deals, seed {c.seed} (95% CI)",
                 fontsize=9)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def merge_results(parts: Sequence[ResultsFile]) -> ArenaSummary:
    """One summary from results files of the same arena played in pieces (``first_deal``).

    The pieces must share game, rules, bots and seed, and hold distinct deals; merged, they
    give exactly the summary of one run over all their deals.

    :raises InvalidConfigError: if the pieces are of different arenas or overlap.
    """
    if not parts:
        raise InvalidConfigError("merge_nothing", option="merge")
    first = parts[0]["config"]
    same: tuple[Literal["game", "bots", "seed", "preset", "rules"], ...] = ("game", "bots", "seed", "preset", "rules")
    games: list[GamePlayed] = []
    deals: set[int] = set()
    for part in parts:
        if any(part["config"][k] != first[k] for k in same):
            raise InvalidConfigError("merge_different", option="merge")
        mine = {g["deal"] for g in part["games"]}
        if mine & deals:
            raise InvalidConfigError("merge_overlap", option="merge", deals=sorted(mine & deals)[:5])
        deals |= mine
        games.extend(part["games"])
    games.sort(key=lambda g: (g["deal"], g["rotation"]))
    config = ArenaConfig(first["game"], tuple(first["bots"]), len(deals), first["seed"], first["preset"],
                         tuple(sorted(first["rules"].items())), first_deal=min(deals))
    return summarize(config, games)


def replay_games(data: ResultsFile) -> int:
    """Replay every record of a loaded results file; the number replayed.

    :raises ReplayError: if a record does not replay.
    """
    count = 0
    for g in data["games"]:
        if "record" in g:
            state = Record.from_dict(g["record"]).replay()
            result = state.result()
            assert result is not None and list(result.returns) == g["returns"], g["deal"]
            count += 1
    return count


__all__ = ["ArenaConfig", "ArenaSummary", "BotDict", "BotSummary", "ConfigDict", "DecisionTime", "ResultsFile",
           "derive_seed", "load_results", "merge_results", "rotations", "play_deals",
           "plot_results", "rate", "replay_games", "run_arena", "summarize", "write_results"]
