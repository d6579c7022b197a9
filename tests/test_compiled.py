"""The compiled build (README "Fast build") plays exactly the games of the pure-Python sources.

These tests run where folkdeck is installed compiled (``make fast``, then ``make
test-fast-build``; CI does both) and skip elsewhere. The pure side runs in a subprocess
from ``src/`` (``PYTHONPATH=src``), which refuses to go on if any folkdeck module it
loaded is not a ``.py`` file; both sides play the same seeded random deals and hash every
event (seat, action, facts), the result and, now and then, every seat's final view.
"""

from __future__ import annotations

import dis
import hashlib
import importlib.util
import json
import os
import pickle
import random
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

import folkdeck
from folkdeck.engine.build import INTERPRETED, build, compiled, is_compiled_module
from folkdeck.engine.registry import get_spec
from folkdeck.engine.state_base import StateBase
from folkdeck.sim.runner import random_playout

ROOT = Path(__file__).resolve().parents[1]
DEALS_PER_GAME = 2000
"""Seeded random deals per game, shared among its player counts and presets."""
VIEWS_EVERY = 16
"""Every seat's final view is hashed too for one deal in this many (views cost more)."""

pytestmark = [
    pytest.mark.compiled,
    pytest.mark.skipif(not compiled(), reason="folkdeck is not the compiled build here (README \"Fast build\": "
                                              "`make fast`, then `make test-fast-build`)"),
]


def cases(name: str) -> list[tuple[str, str | None, int, int]]:
    """``(game, preset, players, deals)``: game ``name`` at its fewest, default and most
    players and with each preset, :data:`DEALS_PER_GAME` deals shared among them."""
    spec = get_spec(name)
    variants: list[tuple[str | None, int]] = [
        (None, p) for p in sorted({spec.min_players, spec.default_players, spec.max_players})]
    variants += [(preset, spec.default_players) for preset in spec.presets]
    return [(name, preset, players, DEALS_PER_GAME // len(variants)) for preset, players in variants]


def deal_hashes(name: str, preset: str | None, players: int, deals: int) -> list[str]:
    """One hash per seeded random deal (seed 0, 1, ...) of everything it produced."""
    game = folkdeck.load(name, preset, players=players)
    out = []
    for seed in range(deals):
        state = game.new_state(seed=seed)
        random_playout(state, random.Random(seed))
        digest = hashlib.sha256()
        for event in state.history:
            digest.update(json.dumps(event.to_dict(), sort_keys=True).encode())
        result = state.result()
        digest.update(json.dumps(result.to_dict() if result else None, sort_keys=True, default=str).encode())
        if seed % VIEWS_EVERY == 0:
            for seat in range(state.num_players):
                digest.update(json.dumps(state.observe(seat).to_dict(), sort_keys=True, default=str).encode())
        out.append(digest.hexdigest())
    return out


def game_hashes(name: str) -> dict[str, list[str]]:
    """The deals' hashes of every case of game ``name``, by case."""
    return {f"{n}/{p or 'default'}/{k}p": deal_hashes(n, p, k, d) for n, p, k, d in cases(name)}


_PURE = """
import json, sys
import folkdeck
from folkdeck.engine.build import compiled
from tests.test_compiled import game_hashes
loaded = sorted(m for m, mod in sys.modules.items() if m.startswith("folkdeck")
                and not (getattr(mod, "__file__", None) or ".py").endswith(".py"))
if compiled() or loaded:
    sys.exit(f"not the pure sources: {loaded or 'folkdeck.engine.build'} compiled")
print(json.dumps(game_hashes(sys.argv[1])))
"""


# One test per game (each with its own pure subprocess), so that the games spread over the
# test workers instead of one test playing them all at the end of a run.
@pytest.mark.parametrize("name", folkdeck.games())
def test_same_seeds_play_the_same_games_as_the_pure_sources(name: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    pure = subprocess.run([sys.executable, "-c", _PURE, name], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert pure.returncode == 0, pure.stderr[-2000:]
    expected = json.loads(pure.stdout)
    got = game_hashes(name)
    assert got.keys() == expected.keys()
    differing = {case: next(seed for seed, (a, b) in enumerate(zip(got[case], expected[case], strict=True))
                            if a != b)
                 for case in got if got[case] != expected[case]}
    assert not differing, (f"the compiled build plays other games than src/ (case: first differing seed): "
                           f"{differing}; is the build older than the sources? `make fast` rebuilds it")
    assert sum(map(len, got.values())) >= DEALS_PER_GAME * 0.95


def test_the_core_is_compiled_and_the_rest_is_not() -> None:
    """Every module ``folkdeck.engine.build`` says is compiled loads from an extension
    module; every one it leaves to the interpreter (``INTERPRETED``) has none."""
    package = Path(folkdeck.__file__).parent
    wrong = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).as_posix()
        name = rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        extensions = list(path.parent.glob(f"{path.stem}.*.so")) + list(path.parent.glob(f"{path.stem}.*.pyd"))
        if is_compiled_module(rel):
            spec = importlib.util.find_spec(name)
            if not extensions or spec is None or spec.origin is None or spec.origin.endswith(".py"):
                wrong.append(f"{rel} should be compiled")
        elif extensions:
            wrong.append(f"{rel} should be interpreted ({INTERPRETED.get(rel, 'INTERPRETED')})")
    assert not wrong
    assert build() == "mypyc"


@pytest.mark.parametrize("name", folkdeck.games())
def test_each_deals_init_and_copy_are_compiled(name: str) -> None:
    """A deal class is a plain dataclass in the sources; the build writes its ``__init__``
    and ``copy`` into the source it compiles (``folkdeck.engine.build``, "Deal data"), so
    neither is a Python function here, as the dataclass's own ``__init__`` and the pure
    build's ``copy`` are."""
    state = folkdeck.load(name).new_state(seed=0)
    assert isinstance(state, StateBase)
    deal_class = type(state.deal)
    python_functions = [m for m in ("__init__", "copy") if isinstance(vars(deal_class)[m], types.FunctionType)]
    assert not python_functions, f"{deal_class.__name__}: {python_functions} run interpreted"
    assert type(state.deal.copy()) is deal_class


@pytest.mark.parametrize("name", folkdeck.games())
def test_each_states_clone_is_written_out_and_compiled(name: str) -> None:
    """A state names the parts its clones share in ``_shared``; the build writes each state
    class a ``clone`` that assigns them one by one (``folkdeck.engine.build``, "Clones"),
    compiled, in place of the base's reading them by name."""
    state = folkdeck.load(name).new_state(seed=0)
    assert isinstance(state, StateBase)
    cls = type(state)
    assert "clone" in vars(cls), f"{cls.__name__} has no clone of its own"
    assert not isinstance(vars(cls)["clone"], types.FunctionType)
    clone = state.clone()
    assert all(getattr(clone, part) is getattr(state, part) for part in cls._shared)
    assert clone.deal is not state.deal


def _play_first_actions(state: object) -> None:
    """A loop of interpreted calls of a state's methods, as a user's own code makes them."""
    while not state.is_over():  # type: ignore[attr-defined]
        state.apply(state.legal_actions()[0])  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", folkdeck.games())
def test_interpreted_code_calls_a_compiled_states_methods_through_a_specialized_look_up(name: str) -> None:
    """On Python 3.11 each ``state.method(...)`` in interpreted code is looked up by a
    specialized instruction, not through the class hierarchy at every call
    (``folkdeck.engine.state_base._FILL_DICT_SLOT``); Python 3.12 has no ``LOAD_METHOD``."""
    if sys.version_info >= (3, 12):
        pytest.skip("Python 3.12 specializes a method look-up on an empty __dict__ slot itself")
    play = types.FunctionType(_play_first_actions.__code__.replace(), globals())  # fresh caches
    game = folkdeck.load(name)
    for seed in range(12):  # 3.11 specializes a function's instructions after it ran a few times
        play(game.new_state(seed=seed))
    looked_up = [i.opname for i in dis.get_instructions(play, adaptive=True) if i.opname.startswith("LOAD_METHOD")]
    assert looked_up and all(op in ("LOAD_METHOD_NO_DICT", "LOAD_METHOD_WITH_DICT") for op in looked_up), looked_up


@pytest.mark.parametrize("name", folkdeck.games())
def test_every_seats_view_pickles_in_the_compiled_build(name: str) -> None:
    """The server sends a bot's view to its worker processes by pickle: a view (and every
    card in it) comes back equal in the compiled build too (a frozen compiled class refuses
    the default unpickling that sets its fields one by one)."""
    state = folkdeck.load(name).new_state(seed=3)
    rng = random.Random(3)
    for _ in range(5):  # a position with a history (in play, unless a Cambio deal ends sooner)
        if state.is_over():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    for seat in range(state.num_players):
        view = state.observe(seat)
        assert pickle.loads(pickle.dumps(view)) == view


@pytest.mark.parametrize("name", folkdeck.games())
def test_every_action_view_and_result_pickles_in_the_compiled_build(name: str) -> None:
    """A bot worker's answer (an action) comes back to the server by pickle, and a
    tournament's workers send back results: over whole seeded deals of every preset, every
    legal action, every seat's view now and then and the result come back equal."""
    spec = get_spec(name)
    for preset in (None, *spec.presets):
        game = folkdeck.load(name, preset)
        for seed in range(6):
            state, rng, step = game.new_state(seed=seed), random.Random(seed), 0
            while not state.is_over():
                legal = state.legal_actions()
                for action in legal:
                    again = pickle.loads(pickle.dumps(action))
                    assert again == action and str(again) == str(action), (name, preset, seed, action)
                if step % 7 == 0:
                    for seat in range(state.num_players):
                        view = state.observe(seat)
                        assert pickle.loads(pickle.dumps(view)) == view
                state.apply(legal[rng.randrange(len(legal))])
                step += 1
            assert pickle.loads(pickle.dumps(state.result())) == state.result()


def test_the_compiled_arena_plays_alike_in_worker_processes(tmp_path: Path) -> None:
    """``folkdeck arena --jobs 2`` from the compiled build: each worker gets its task (the
    arena's configuration) by pickle and sends back its games. A compiled class's
    constructor runs ``__init__``, which pickle's default called without the task's
    configuration, so every worker died (``BrokenProcessPool``) and ``--jobs`` defaults
    to every CPU; now the workers play what one process plays (engine/pickling.py)."""
    played = []
    for jobs in (2, 1):
        out = tmp_path / f"jobs{jobs}.json"
        run = subprocess.run([sys.executable, "-m", "folkdeck", "arena", "kaphai", "--bots",
                              "search:fast,heuristic,heuristic,heuristic", "--deals", "2", "--seed", "1",
                              "--jobs", str(jobs), "--quiet", "--out", str(out)],
                             cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr[-3000:]
        results = json.loads(out.read_text())
        played.append([{k: v for k, v in g.items() if k != "timing"} for g in results["games"]])
    assert played[0] == played[1] and len(played[0]) == 8  # 2 deals x 4 rotations


def test_the_compiled_servers_bots_play_every_game_and_die_with_it(tmp_path: Path) -> None:
    """``folkdeck serve`` from the compiled build: its bots think in worker processes, which
    get views and send back actions by pickle, so a table of bots of every game plays its
    deal to the end; on SIGKILL the server's workers and fork server die with it."""
    from tests.server.test_crash import Server
    from tests.server.test_shutdown import _descendants, kill_all, signal_and_expect_gone

    server = Server(tmp_path / "compiled.sqlite3")
    processes: set[int] = set()
    try:
        tables = {}
        for name in folkdeck.games():
            players = get_spec(name).default_players
            made = server.http.post("/api/tables", json={
                "game": name, "seed": 5, "practice": True, "deals": 1, "seats": [{"kind": "bot"}] * players})
            assert made.status_code in (200, 201), made.text
            tables[name] = made.json()["id"]
        deadline = time.monotonic() + 120
        unfinished = set(tables)
        while unfinished:
            assert time.monotonic() < deadline, f"the bots did not finish: {sorted(unfinished)}"
            processes |= _descendants(server.proc.pid)
            unfinished = {n for n in unfinished
                          if not server.http.get(f"/api/tables/{tables[n]}").json()["match_over"]}
            time.sleep(0.2)
        assert processes, "no bot worker was started"
        signal_and_expect_gone(server, signal.SIGKILL, processes)
    finally:
        kill_all(server, processes)
    log = server.proc.stdout.read() if server.proc.stdout else ""
    assert "worker died" not in log and "Traceback" not in log, log[-3000:]
