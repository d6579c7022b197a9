"""The trainer (``folkdeck train``, :mod:`folkdeck.train`; the ``train`` extra).

The fast run checks what needs no JAX (the self-play samples); ``-m slow`` (make test-all,
which installs the extra) trains for seconds: the loss on a fixed batch must fall, the
exported NumPy model must compute what the JAX network computes, and a stopped run must
resume to the same model.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import folkdeck
from folkdeck.agents.encoding import Encoding
from folkdeck.agents.learned import ActionFeatures, QNetwork
from folkdeck.train.selfplay import Chunk, Samples, play_chunk


def test_a_teacher_chunk_records_every_valued_action_and_the_returns() -> None:
    chunk = Chunk("cangkul", (), (0,), 7, ("teacher",) * 4, teacher="pimc:fast", explore=0.0)
    data = play_chunk(chunk)
    encoding = Encoding.of(folkdeck.load("cangkul"))
    assert data.views.shape == (data.num_decisions, encoding.size)
    assert data.actions.shape == (data.num_pairs, ActionFeatures(encoding).size)
    assert data.num_decisions > 0 and data.decision.max() < data.num_decisions
    # every decision's played action carries the seat's return, with the recipe's weight
    returns = data.weight == chunk.return_weight
    assert returns.sum() == data.num_decisions
    assert np.array_equal(data.target[returns], data.returns)
    assert data.played[returns].all()
    assert play_chunk(chunk).target.tolist() == data.target.tolist()  # the seed fixes the samples


def test_a_teacher_that_is_not_a_search_bot_is_refused() -> None:
    # the heuristic bot values no action: the teacher seat needs a search bot's values
    with pytest.raises(ValueError, match="'heuristic' is not a search bot"):
        play_chunk(Chunk("kaphai", (), (0,), 5, ("teacher",) * 4, teacher="heuristic"))


def test_samples_round_trip_through_a_file(tmp_path: Path) -> None:
    data = play_chunk(Chunk("kaphai", (), (1,), 3, ("teacher", "heuristic", "heuristic", "heuristic"),
                            teacher="pimc:fast"))
    data.save(str(tmp_path / "s.npz"))
    again = Samples.load(str(tmp_path / "s.npz"))
    assert np.array_equal(again.views, data.views) and np.array_equal(again.target, data.target)
    both = Samples.concat([data, again])
    assert both.num_pairs == 2 * data.num_pairs
    assert both.decision[data.num_pairs:].min() == data.num_decisions


@pytest.mark.slow
def test_a_short_training_lowers_the_loss_and_exports_the_same_function(tmp_path: Path) -> None:
    pytest.importorskip("jax", reason="the train extra (make test-all installs it)")
    from folkdeck.train.network import Trainer, arrays, forward, init_params

    data = play_chunk(Chunk("kaphai", (), (0, 1), 5, ("teacher",) * 4, teacher="pimc:fast"))
    encoding = Encoding.of(folkdeck.load("kaphai"))
    trainer = Trainer(init_params(encoding.size, encoding.num_tokens + 2, (32, 16), seed=0))
    scale = float(np.std(data.returns)) or 1.0
    before = trainer.evaluate(data, scale)
    trainer.fit(data, scale, steps=150, batch=128, rng=np.random.default_rng(0))
    assert trainer.evaluate(data, scale) < 0.8 * before
    network = QNetwork.load(trainer.export({"scale": scale}).save(tmp_path / "m.npz"))
    views, actions, _, _ = arrays(data, scale, np.arange(20))
    expected = np.asarray(forward(trainer.params, views, actions)) * scale
    got = np.concatenate([network.scores(v, a[None, :]) for v, a in zip(views, actions, strict=True)])
    assert np.allclose(got, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.slow
def test_a_fit_with_a_holdout_keeps_the_network_that_chose_best_there() -> None:
    """Early stopping (``--holdout``): the fit checks the held-out teacher decisions evenly
    and ends with the parameters of the check whose choices fell least short of the
    teacher's."""
    pytest.importorskip("jax", reason="the train extra (make test-all installs it)")
    from folkdeck.train.network import Choices, Trainer, init_params

    data = play_chunk(Chunk("kaphai", (), (0,), 5, ("teacher",) * 4, teacher="pimc:fast"))
    holdout = play_chunk(Chunk("kaphai", (), (2,), 5, ("teacher",) * 4, teacher="pimc:fast"))
    encoding = Encoding.of(folkdeck.load("kaphai"))
    trainer = Trainer(init_params(encoding.size, encoding.num_tokens + 2, (32, 16), seed=0))
    scale = float(np.std(data.returns)) or 1.0
    trainer.fit(data, scale, steps=60, batch=64, rng=np.random.default_rng(0), holdout=holdout, checks=4)
    assert [c.steps for c in trainer.checked] == [15, 30, 45, 60]
    best = min(trainer.checked, key=lambda c: c.choices.regret)
    assert trainer.stopped == best and trainer.choices(holdout) == best.choices
    assert best.choices.decisions > 10 and 0.0 <= best.choices.agreement <= 1.0
    from folkdeck.train import Recipe

    older = json.loads(Recipe("kaphai").to_json())
    del older["holdout"]  # a run begun before the holdout: every deal trains
    assert Recipe.from_json(json.dumps(older)).holdout == 0.0
    network = trainer.export({})  # the NumPy model scores the held-out pairs, decision by decision
    scores = np.zeros(holdout.num_pairs, dtype=np.float32)
    for d in range(holdout.num_decisions):  # (the played actions' return samples come last)
        pairs = np.flatnonzero(holdout.decision == d)
        scores[pairs] = network.scores(holdout.views[d].astype(np.float32), holdout.actions[pairs].astype(np.float32))
    assert trainer.choices(holdout) == Choices.of(holdout, scores)


@pytest.mark.slow
def test_a_run_with_a_holdout_logs_what_each_fit_kept_and_refuses_too_few_deals(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("jax", reason="the train extra (make test-all installs it)")
    from folkdeck.cli.main import main

    out = tmp_path / "run"
    args = ["train", "cangkul", "--out", str(out), "--rounds", "1", "--round-deals", "2", "--fit-steps", "20",
            "--round-steps", "10", "--eval-deals", "2", "--jobs", "1", "--quiet", "--teacher", "pimc:fast",
            "--margins", "0", "--holdout", "0.5", "--members", "2", "--hidden", "16,8"]
    assert main([*args, "--teach-deals", "8"]) == 2  # two chunks of four deals: one piece, nothing to hold out
    assert "8 deals make 1 piece of 8 deals" in capsys.readouterr().err
    assert main([*args, "--teach-deals", "16", "--out", str(tmp_path / "run2")]) == 0
    assert "held out: agreement " in capsys.readouterr().out  # the fit's line names what it kept
    rows = [json.loads(line) for line in (tmp_path / "run2" / "log.jsonl").read_text().splitlines()]
    for row in rows[1:3]:  # the fit and the round: a check kept per member
        assert [h["steps"] % (2 if row["stage"] == "fit" else 1) for h in row["holdout"]] == [0, 0]
        assert all(h["decisions"] > 0 for h in row["holdout"])


@pytest.mark.slow
def test_the_train_command_runs_resumes_and_ships_nothing_unasked(tmp_path: Path) -> None:
    pytest.importorskip("jax", reason="the train extra (make test-all installs it)")
    from folkdeck.cli.main import main

    out = tmp_path / "run"
    args = ["train", "cangkul", "--out", str(out), "--teach-deals", "2", "--rounds", "1", "--round-deals", "2",
            "--fit-steps", "20", "--round-steps", "10", "--eval-deals", "2", "--jobs", "1", "--quiet",
            "--teacher", "pimc:fast", "--margins", "0,0.5"]
    assert main(args) == 0
    rows = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    assert [r["stage"] for r in rows] == ["teach", "fit", "round-1", "calibrate", "calibrate"]
    assert [r["margin"] for r in rows[3:]] == [0.0, 0.5]
    assert {"learned", "heuristic"} <= set(rows[1]["eval"])
    model = (out / "model.npz").read_bytes()
    assert main(args) == 0  # everything saved: nothing is played or trained again
    assert (out / "model.npz").read_bytes() == model
    assert len((out / "log.jsonl").read_text().splitlines()) == 5
    assert main([*args, "--seed", "1"]) == 2  # another recipe in the same folder is refused


@pytest.mark.slow
def test_an_ensemble_run_ships_the_mean_of_its_members_reading_the_games_reading(tmp_path: Path) -> None:
    """``--members 2``: two networks fitted from two seeds on the same data; the model is
    one network whose scores are their mean (and with ``--features shape+reading`` it reads
    Kap Hai's reading of the cards, whose names it keeps)."""
    pytest.importorskip("jax", reason="the train extra (make test-all installs it)")
    from folkdeck.cli.main import main
    from folkdeck.games.kaphai.agents import KapHaiReading

    out = tmp_path / "run"
    args = ["train", "kaphai", "--out", str(out), "--teach-deals", "2", "--rounds", "1", "--round-deals", "2",
            "--fit-steps", "20", "--round-steps", "10", "--eval-deals", "2", "--jobs", "1", "--quiet",
            "--teacher", "pimc:fast", "--margins", "0", "--members", "2", "--features", "shape+reading",
            "--hidden", "16,8"]
    assert main(args) == 0
    members = [QNetwork.load(out / f"round-1.m{m}.npz") for m in range(2)]
    model = QNetwork.load(out / "round-1.npz")
    assert model.meta["hidden"] == [32, 16] and model.meta["reading"] == list(KapHaiReading.names)
    assert not np.allclose(members[0].layers[0][0], members[1].layers[0][0])  # two seeds
    game = folkdeck.load("kaphai")
    encoding = Encoding.of(game)
    features = ActionFeatures(encoding, features=model.features)
    state = game.new_state(seed=4)
    seat = state.to_act[0]
    view = encoding.observe(state.observe(seat))
    inputs = features.inputs(view[None, :], features.matrix(state.legal_actions(seat)))
    mean = sum(m.scores(view, inputs) for m in members) / 2
    assert np.allclose(model.scores(view, inputs), mean, atol=1e-5)
    assert main(args) == 0  # resumed: every member saved, nothing trained again


def test_the_pool_takes_any_bot_of_the_game_and_refuses_others() -> None:
    """``--pool``: the rounds' opponents, ``self``, ``previous``, ``heuristic`` or a bot
    of the game (its ``search``, as the issue's pool of the heuristic, the search and
    earlier checkpoints); a name that is none of them is refused before anything runs."""
    from folkdeck.cli.main import _parser
    from folkdeck.cli.train import _recipe
    from folkdeck.engine.errors import InvalidConfigError

    def recipe(pool: str) -> tuple[str, ...]:
        return _recipe(_parser().parse_args(["train", "kaphai", "--pool", pool])).pool

    assert recipe("heuristic,self,previous") == ("heuristic", "self", "previous")
    assert recipe("search, previous") == ("search", "previous")
    with pytest.raises(InvalidConfigError) as refused:
        recipe("heuristic,nobody")
    assert refused.value.reason == "unknown_bot" and refused.value.params["bot"] == "nobody"
    assert "nobody" in refused.value.render("en") and "search" in refused.value.render("en")


def test_the_games_reading_is_asked_only_of_a_game_that_declares_one() -> None:
    """``--features shape+reading`` reads the game's ``card_reading`` hook: a game without
    one is refused with a coded error before anything runs, naming the games that have one."""
    from folkdeck.agents.features import SHAPE_READING
    from folkdeck.cli.errors import CliError
    from folkdeck.cli.main import _parser
    from folkdeck.cli.train import _recipe

    def recipe(game: str) -> str:
        return _recipe(_parser().parse_args(["train", game, "--features", "shape+reading"])).features

    assert recipe("kaphai") == SHAPE_READING and recipe("cangkul") == "shape-1+reading"
    with pytest.raises(CliError) as refused:
        recipe("gouji")
    assert refused.value.reason == "no_card_reading" and refused.value.params["games"] == "cangkul, burro_es, kaphai"
    assert "gouji" in refused.value.render("en") and "cangkul" in refused.value.render("ja")


def test_a_teacher_may_be_learned_plus_search_of_a_model_file(tmp_path: Path) -> None:
    """``--teacher learned+search=PATH``: the game's ``learned+search`` with a checkpoint's
    network (expert iteration: a network and its search teach the next network; docs/bots.md,
    "Gou Ji's teacher values"); its file is read before anything runs, and a bad one refused."""
    from folkdeck.agents.learned import MODEL_DIR
    from folkdeck.cli.main import _parser
    from folkdeck.cli.train import _recipe
    from folkdeck.engine.errors import InvalidConfigError

    def teacher(name: str) -> str:
        return _recipe(_parser().parse_args(["train", "gouji", "--teacher", name])).teacher

    shipped = f"learned+search={MODEL_DIR / 'gouji.npz'}"
    assert teacher(shipped) == shipped and teacher("learned+search") == "learned+search"
    bad = tmp_path / "bad.npz"
    np.savez(bad, x=np.zeros(2))
    with pytest.raises(InvalidConfigError) as refused:
        teacher(f"learned+search={bad}")
    assert refused.value.reason == "bad_model_file"
    with pytest.raises(InvalidConfigError) as refused:
        teacher("learned+nothing")
    assert refused.value.reason == "unknown_bot"
