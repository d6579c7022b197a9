"""``folkdeck train GAME``: the recipe of a learned bot, run in resumable stages.

1. **teach**: deals played by the game's search bot in every seat (:mod:`.selfplay`),
   each decision recording every legal action with the search's value, and the action
   played with the seat's return;
2. **fit**: supervised regression of the network on those values (:mod:`.network`);
3. **improve** (rounds): the learner plays epsilon-greedily against a pool (by default
   itself, the game's heuristic bot and its previous checkpoint; any bot of the game, its
   ``search`` say, with ``--pool``); its actions' returns are added to the
   data, and the network trains on all of it (deep Monte Carlo, as in DouZero);
4. after the fit and each round, an **evaluation**: duplicate deals of one learner
   against the heuristic bot in the other seats (the arena, fixed seed), logged against
   the CPU minutes spent so far.

Everything lands in the output folder: ``recipe.json``, the data shards
(``teach/0000.npz``...), the trainer's checkpoints (``fit.ckpt.npz``,
``round-1.ckpt.npz``...), the models (``fit.npz``, ``round-1.npz``... and ``model.npz``,
the last), and ``log.jsonl``. Run again with the same folder, a stopped run resumes
where its last saved piece ended; the same recipe and seed give the same data and, on
one machine, the same model.
"""

from __future__ import annotations

import functools
import json
import os
import resource
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Generic, NotRequired, TypedDict, TypeVar

import numpy as np

from folkdeck.agents.encoding import Encoding
from folkdeck.agents.features import SHAPE, TRAINING_READINGS, ActionFeatures
from folkdeck.agents.learned import MODEL_DIR, ModelMeta, encoding_signature
from folkdeck.engine.registry import get_spec, load
from folkdeck.sim.arena import ArenaConfig, GamePlayed, play_deals, summarize
from folkdeck.sim.backends import run_tasks
from folkdeck.sim.stats import MeanCIDict
from folkdeck.train.selfplay import Chunk, Samples, Weights, play_chunk

if TYPE_CHECKING:
    from folkdeck.train.network import Trainer

START_METHOD: Final = "forkserver"
"""How the workers start: not by a fork of this process once JAX's threads run in it."""
Progress = Callable[[str, int, int], None]
"""``(stage, done, total)``: a stage's progress, for a progress bar."""
T = TypeVar("T")
R = TypeVar("R")


class Figures(TypedDict):
    """One bot's figures in an evaluation (95% intervals over the deals)."""

    mean_return: MeanCIDict
    win_share: MeanCIDict


class HeldOut(TypedDict):
    """A fit's check on the held-out teacher decisions: after how many minibatches, and how
    its choices compared with the teacher's there (:class:`~folkdeck.train.network.Choices`)."""

    steps: int
    decisions: int
    agreement: float
    regret: float


class LogEntry(TypedDict):
    """What a stage logs: ``teach`` its data, ``fit`` and the rounds their loss and
    evaluation, ``calibrate`` a margin's evaluation."""

    stage: str
    decisions: int
    pairs: NotRequired[int]
    loss: NotRequired[float]
    margin: NotRequired[float]
    holdout: NotRequired[list[HeldOut]]
    """Per member, the check its fit kept (with ``--holdout``)."""
    eval: NotRequired[dict[str, Figures]]
    """Per bot: ``learned``, and the heuristic bot by its name."""


class LogRow(LogEntry):
    """A line of ``log.jsonl``: the entry and when it was written."""

    cpu_minutes: float
    """CPU minutes of the run so far, its workers' included."""
    wall: str


@dataclass(frozen=True, slots=True)
class Recipe:
    """Everything that makes a model (``recipe.json``); the defaults are the shipped
    models' recipe for a game unless ``docs/bots.md``'s model card says otherwise."""

    game: str
    rules: tuple[tuple[str, object], ...] = ()
    seed: int = 0
    hidden: tuple[int, ...] = (128, 64)
    teacher: str = "pimc:fast"
    teach_deals: int = 200
    explore: float = 0.1
    return_weight: float = 0.0
    fit_steps: int = 3000
    batch: int = 512
    learning_rate: float = 1e-3
    rounds: int = 3
    round_deals: int = 200
    round_steps: int = 1500
    pool: tuple[str, ...] = ("heuristic", "self", "previous")
    eval_deals: int = 40
    chunk_deals: int = 4
    margins: tuple[float, ...] = (0.0, 0.1, 0.25, 0.5)
    """The ``calibrate`` stage's candidates, in units of the returns' spread."""
    members: int = 1
    """How many networks the fit and the rounds train, on the same data, from the seeds
    ``seed``, ``seed + 1``...: the model is their mean (:meth:`QNetwork.mean
    <folkdeck.agents.learned.QNetwork.mean>`), one network ``members`` times as wide."""
    holdout: float = 0.0
    """The share of the teacher's data (its last shards: whole deals) kept out of the fit to
    stop it early: the fit and the rounds keep the network that chose best on them
    (:meth:`Trainer.fit <folkdeck.train.network.Trainer.fit>`); 0: every deal trains, for
    every step."""
    features: str = SHAPE
    """``shape-1``: the network also reads the hand's shape by rank, ``shape-2`` by rank and
    by suit (:class:`~folkdeck.agents.features.HandShape`), ``shape-1+reading`` by rank and
    the game's reading of the cards (:class:`~folkdeck.agents.features.ReadingColumns`);
    ``""``: the plain action rows only (the first models)."""

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Recipe:
        data = json.loads(text)
        data["rules"] = tuple(tuple(r) for r in data["rules"])
        data.setdefault("features", "")  # a run begun before the hand's shape had none
        data.setdefault("holdout", 0.0)  # ... or before the held-out deals
        for key in ("hidden", "pool", "margins"):
            if key in data:  # a field added since the run began keeps its default
                data[key] = tuple(data[key])
        return cls(**data)


def cpu_minutes() -> float:
    """CPU time of this process, in minutes (its workers' time is counted by :class:`Timed`)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return (own.ru_utime + own.ru_stime) / 60.0


class Timed(Generic[T, R]):
    """A task function that also says how much CPU it took and in which process: a
    worker's time is not this process's, and a fork server's workers are not its children."""

    def __init__(self, fn: Callable[[T], R]) -> None:
        self.fn = fn

    def __call__(self, task: T) -> tuple[R, float, int]:
        start = time.process_time()
        result = self.fn(task)
        return result, time.process_time() - start, os.getpid()


class Run:
    """One training run in an output folder (see the module docstring)."""

    def __init__(self, recipe: Recipe, out: str | Path, *, jobs: int = 1, backend: str = "process",
                 address: str | None = None, progress: Progress | None = None,
                 log: Callable[[LogRow], None] | None = None) -> None:
        self.recipe, self.out = recipe, Path(out)
        self.jobs, self.backend, self.address = jobs, backend, address
        self.progress = progress or (lambda stage, done, total: None)
        self.echo = log or (lambda row: None)
        self.out.mkdir(parents=True, exist_ok=True)
        saved = self.out / "recipe.json"
        if saved.exists() and Recipe.from_json(saved.read_text()) != recipe:
            raise ValueError(f"{saved} holds another recipe: use a new folder, or the same options")
        saved.write_text(recipe.to_json())
        game = load(recipe.game, None, **dict(recipe.rules))
        self.game = game
        self.encoding = Encoding.of(game)
        self.spent = self._spent_before()
        self._started = cpu_minutes()
        self._workers = 0.0  # CPU minutes of the tasks that ran in other processes

    # --- bookkeeping -------------------------------------------------------------
    def _spent_before(self) -> float:
        """CPU minutes of earlier sittings of this run (from the log)."""
        rows = self.rows()
        return max((r["cpu_minutes"] for r in rows), default=0.0)

    def cpu(self) -> float:
        return self.spent + cpu_minutes() - self._started + self._workers

    def run_tasks(self, fn: Callable[[T], R], tasks: list[T]) -> list[R]:
        """``[fn(t) for t in tasks]`` on the run's backend, their CPU time counted."""
        out = []
        for result, seconds, pid in run_tasks(Timed(fn), tasks, jobs=self.jobs, backend=self.backend,
                                              address=self.address, start_method=START_METHOD):
            if pid != os.getpid():
                self._workers += seconds / 60.0
            out.append(result)
        return out

    def rows(self) -> list[LogRow]:
        path = self.out / "log.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

    def write_row(self, entry: LogEntry) -> None:
        row: LogRow = {"cpu_minutes": round(self.cpu(), 3), "wall": time.strftime("%Y-%m-%dT%H:%M:%S"), **entry}
        with (self.out / "log.jsonl").open("a") as f:
            f.write(json.dumps(row, sort_keys=True) + "\n")
        self.echo(row)

    @functools.cached_property
    def features(self) -> ActionFeatures:
        """The network's inputs (one for the run, keeping every reading: a training set's
        pairs are read once, however many minibatches draw them)."""
        return ActionFeatures(self.encoding, features=self.recipe.features, readings_kept=TRAINING_READINGS)

    def meta(self, scale: float, stage: str, members: int = 1) -> ModelMeta:
        """A model's metadata (``members``: how many networks it is the mean of)."""
        return {"game": self.recipe.game, "encoding": encoding_signature(self.encoding), "scale": scale,
                "fallback": self.heuristic(), "features": self.recipe.features,
                "reading": list(self.features.reading_names),
                "hidden": [h * members for h in self.recipe.hidden], "stage": stage, "recipe": json.loads(self.recipe.to_json())}

    # --- data ------------------------------------------------------------------------
    def play(self, stage: str, chunks: list[Chunk]) -> list[Samples]:
        """Play ``chunks`` in pieces of a few per worker, each piece saved as it ends (a
        stopped run skips the pieces it has); the pieces' samples, in order."""
        folder = self.out / stage
        folder.mkdir(exist_ok=True)
        piece = self.piece
        parts = []
        for start in range(0, len(chunks), piece):
            path = folder / f"{start:04d}.npz"
            if not path.exists():
                results = self.run_tasks(play_chunk, chunks[start:start + piece])
                tmp = folder / f"{start:04d}.tmp.npz"
                Samples.concat(results).save(str(tmp))
                tmp.replace(path)
            parts.append(Samples.load(str(path)))
            self.progress(stage, min(len(chunks), start + piece), len(chunks))
        return parts

    @property
    def piece(self) -> int:
        """How many chunks a saved piece of a stage's data holds (two per worker)."""
        return max(1, self.jobs) * 2

    def pieces(self, deals: int) -> int:
        """How many pieces ``deals`` deals are saved in (the teacher's: what ``--holdout``
        splits)."""
        chunks = -(-deals // self.recipe.chunk_deals)
        return -(-chunks // self.piece)

    def chunks(self, deals: int, first: int, seats: Callable[[int], tuple[str, ...]],
               weights: Weights | None = None, meta: ModelMeta | None = None) -> list[Chunk]:
        """The chunks of ``deals`` deals numbered from ``first`` (``weights`` and ``meta``: the
        learner's model, for a round)."""
        r = self.recipe
        size = r.chunk_deals
        return [Chunk(r.game, r.rules, tuple(range(first + i, first + min(i + size, deals))), r.seed,
                      seats(i // size), teacher=r.teacher, fallback=self.heuristic(), explore=r.explore,
                      return_weight=r.return_weight, weights=weights, meta=meta if meta is not None else {})
                for i in range(0, deals, size)]

    def heuristic(self) -> str:
        """The game's heuristic bot (Cambio's is its default, ``counting``)."""
        spec = get_spec(self.recipe.game)
        return "heuristic" if "heuristic" in spec.bots else spec.default_bot

    # --- evaluation ------------------------------------------------------------------
    def evaluate(self, model: Path, seed: int = 10_000) -> dict[str, Figures]:
        """One learner against the heuristic bot, duplicate deals in every rotation (the
        deals of ``recipe.seed + seed``)."""
        r = self.recipe
        learner = f"learned={model}"
        bots = (learner, *[self.heuristic()] * (self.game.num_players - 1))
        config = ArenaConfig(r.game, bots, r.eval_deals, seed=r.seed + seed, rules=r.rules, keep_records=False)
        pieces = [(r.game, bots, r.rules, config.seed, tuple(range(i, min(i + r.chunk_deals, r.eval_deals))))
                  for i in range(0, r.eval_deals, r.chunk_deals)]
        games = self.run_tasks(_arena_deals, pieces)
        summary = summarize(config, [g for part in games for g in part])
        figures: dict[str, Figures] = {}
        for bot in summary.bots:
            key = "learned" if bot.name == learner else bot.name
            figures[key] = {"mean_return": bot.mean_return.to_dict(), "win_share": bot.win_share.to_dict()}
        return figures


def _arena_deals(piece: tuple[str, tuple[str, ...], tuple[tuple[str, object], ...], int, tuple[int, ...]]
                 ) -> list[GamePlayed]:
    """Some deals of an evaluation, from plain data (a worker builds the arena's config)."""
    game, bots, rules, seed, deals = piece
    return play_deals(ArenaConfig(game, bots, len(deals), seed=seed, rules=rules, keep_records=False), deals)


# --- the stages ------------------------------------------------------------------------
def _member(run: Run, stage: str, m: int) -> str:
    """The name of member ``m``'s checkpoint and model in ``stage``: the stage's own if it
    is the only one (``fit.ckpt.npz``, ``fit.npz``), else ``fit.m0.ckpt.npz``..."""
    return stage if run.recipe.members == 1 else f"{stage}.m{m}"


def _trainer(run: Run, stage: str, m: int = 0) -> Trainer:
    """Member ``m``'s trainer, its parameters the checkpoint of ``stage`` if saved, else new."""
    from folkdeck.train.network import Trainer, init_params

    r = run.recipe
    features = run.features
    trainer = Trainer(init_params(run.encoding.size, features.size, r.hidden, r.seed + m),
                      learning_rate=r.learning_rate, inputs=features.inputs)
    path = run.out / f"{_member(run, stage, m)}.ckpt.npz"
    if path.exists():
        with np.load(path) as saved:
            trainer.load_state(dict(saved))
    return trainer


def _checkpoint(run: Run, stage: str, m: int, trainer: Trainer, scale: float) -> None:
    """Save member ``m``'s state and its own model."""
    name = _member(run, stage, m)
    tmp = run.out / f"{name}.ckpt.tmp.npz"
    stopped = ({"stopped_at": np.asarray([trainer.stopped.steps])} if trainer.stopped is not None else {})
    np.savez(tmp, allow_pickle=False, **trainer.state_arrays(), **stopped)  # plain arrays, as np.load reads them
    trainer.export(run.meta(scale, stage)).save(run.out / f"{name}.npz")
    tmp.replace(run.out / f"{name}.ckpt.npz")  # last: a member whose checkpoint exists is done


def _fit(run: Run, stage: str, start: str | None, data: Samples, scale: float, steps: int,
         holdout: Samples | None) -> Path:
    """Train every member from ``start``'s checkpoint (or new) on ``data`` (stopping early on
    ``holdout``, if any), then save the model (their mean) and evaluate it."""
    from folkdeck.agents.learned import QNetwork

    model = run.out / f"{stage}.npz"
    if any(row["stage"] == stage for row in run.rows()):
        return model
    members = run.recipe.members
    losses, held = [], []
    for m in range(members):
        if not (run.out / f"{_member(run, stage, m)}.ckpt.npz").exists():  # a stopped run skips the members done
            trainer = _trainer(run, start if start else stage, m)
            trainer.fit(data, scale, steps, run.recipe.batch, np.random.default_rng(run.recipe.seed + m), holdout)
            _checkpoint(run, stage, m, trainer, scale)
        trainer = _trainer(run, stage, m)
        losses.append(trainer.evaluate(data, scale))
        if holdout is not None:
            choices = trainer.choices(holdout)
            with np.load(run.out / f"{_member(run, stage, m)}.ckpt.npz") as saved:
                kept = int(saved["stopped_at"][0])
            held.append(HeldOut(steps=kept, decisions=choices.decisions, agreement=round(choices.agreement, 4),
                                regret=round(choices.regret, 5)))
    if members > 1:
        networks = [QNetwork.load(run.out / f"{_member(run, stage, m)}.npz") for m in range(members)]
        QNetwork.mean(networks, run.meta(scale, stage, members)).save(model)
    entry: LogEntry = {"stage": stage, "loss": round(float(np.mean(losses)), 5), "decisions": data.num_decisions,
                       "pairs": data.num_pairs}
    if held:
        entry["holdout"] = held
    run.write_row({**entry, "eval": run.evaluate(model)})
    return model


def _split(run: Run, parts: list[Samples]) -> tuple[Samples, Samples | None]:
    """The teacher's pieces to train on, and those held out (``recipe.holdout`` of them, at
    least one; none without a holdout)."""
    if run.recipe.holdout <= 0:
        return Samples.concat(parts), None
    kept = min(len(parts) - 1, max(1, round(run.recipe.holdout * len(parts))))
    if kept < 1:
        raise ValueError(f"a holdout needs two pieces of teacher deals or more, not {len(parts)}")
    return Samples.concat(parts[:-kept]), Samples.concat(parts[-kept:])


def train(run: Run) -> Path:
    """Run (or resume) every stage; the final model's path (``model.npz``)."""
    r = run.recipe
    n = run.game.num_players
    parts = run.play("teach", run.chunks(r.teach_deals, 0, lambda i: ("teacher",) * n))
    every = Samples.concat(parts)
    if not any(row["stage"] == "teach" for row in run.rows()):
        run.write_row({"stage": "teach", "decisions": every.num_decisions, "pairs": every.num_pairs})
    scale = max(1e-3, float(np.std(every.returns)) if every.num_decisions else 1.0)
    data, holdout = _split(run, parts)
    model = _fit(run, "fit", None, data, scale, r.fit_steps, holdout)
    previous, first = model, r.teach_deals
    for k in range(1, r.rounds + 1):
        weights = QNetworkFile(model)
        pool = list(r.pool)

        def seats(i: int, pool: list[str] = pool, previous: Path = previous) -> tuple[str, ...]:
            kind = pool[i % len(pool)]
            if kind == "self":
                return ("student",) * n
            other = {"previous": f"learned={previous}", "heuristic": run.heuristic()}.get(kind, kind)
            return tuple("student" if s == i % n else other for s in range(n))

        more = run.play(f"round-{k}", run.chunks(r.round_deals, first, seats, weights=weights.layers,
                                                 meta=weights.meta))
        data = Samples.concat([data, *more])
        previous, model = model, _fit(run, f"round-{k}", "fit" if k == 1 else f"round-{k - 1}", data, scale,
                                      r.round_steps, holdout)
        first += r.round_deals
    final = run.out / "model.npz"
    shutil.copyfile(calibrate(run, model), final)
    return final


def calibrate(run: Run, model: Path) -> Path:
    """Choose the model's ``margin`` (how much better than the heuristic's choice an action
    must score before the bot departs from it) among ``recipe.margins``, by evaluations on
    deals of their own (seed + 20,000); the chosen variant's path."""
    from folkdeck.agents.learned import QNetwork

    network = QNetwork.load(model)
    done = {row["margin"]: row for row in run.rows() if row["stage"] == "calibrate"}
    for m in run.recipe.margins:
        if m not in done:
            variant = QNetwork(network.layers, {**network.meta, "margin": m * network.scale})
            path = variant.save(run.out / f"calibrate-{m:g}.npz")
            run.write_row({"stage": "calibrate", "margin": m, "decisions": 0, "eval": run.evaluate(path, 20_000)})
    rows = {row["margin"]: row for row in run.rows() if row["stage"] == "calibrate"}
    best = max(run.recipe.margins, key=lambda m: (rows[m]["eval"]["learned"]["mean_return"]["mean"], -m))
    return run.out / f"calibrate-{best:g}.npz"


class QNetworkFile:
    """A saved model's layers and metadata, as a chunk carries them to its worker."""

    def __init__(self, path: Path) -> None:
        from folkdeck.agents.learned import QNetwork

        network = QNetwork.load(path)
        self.layers, self.meta = network.layers, network.meta


def ship(model: Path, game: str) -> Path:
    """Write a model to the package's models (``folkdeck/agents/models/<game>.npz``), its
    weights as ``float16`` (:meth:`QNetwork.save <folkdeck.agents.learned.QNetwork.save>`)."""
    from folkdeck.agents.learned import QNetwork

    MODEL_DIR.mkdir(exist_ok=True)
    return QNetwork.load(model).save(MODEL_DIR / f"{game}.npz", half=True)


__all__ = ["Figures", "HeldOut", "LogEntry", "LogRow", "Progress", "Recipe", "Run", "cpu_minutes", "ship", "train"]
