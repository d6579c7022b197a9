"""Hints and reviews (:mod:`folkdeck.agents.advice`): what the search bot would play, with
its values, and the weighing of a seat's decisions in a finished deal."""

from __future__ import annotations

import random

import pytest

import folkdeck
from folkdeck.agents.advice import COSTLY, advise, decisions, review
from folkdeck.engine.record import Record
from folkdeck.sim.runner import random_playout


@pytest.mark.parametrize("name", folkdeck.games())
def test_advice_is_a_legal_action_with_its_values_best_first(name: str) -> None:
    game = folkdeck.load(name)
    state = game.new_state(seed=21)
    while not state.is_over():
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            advice = advise(game, state.observe(seat), legal, random.Random(1), rollouts=30)
            shown = [str(a) for a in legal]
            assert advice.action in shown
            values = [v.value for v in advice.values]
            assert values == sorted(values, reverse=True)
            assert all(v.action in shown for v in advice.values)
            if advice.by == "search":
                assert advice.values[0].action == advice.action
            again = advise(game, state.observe(seat), legal, random.Random(1), rollouts=30)
            assert again == advice  # reproducible from its seed
            return
        state.apply(legal[0], seat)
    pytest.fail("the seeded deal reached its end without a decision with a choice: pick another seed")


def test_a_review_weighs_every_decision_with_a_choice_and_marks_the_costly() -> None:
    game = folkdeck.load("kaphai")
    state = game.new_state(seed=5)
    random_playout(state, random.Random(3))
    record = Record.from_state(state)
    choices = decisions(record, 0)
    mine = [e for e in state.history if e.line.startswith("0:")]
    assert 0 < len(choices) <= len(mine)
    assert all(d.chosen == state.history[d.index].line.partition(":")[2].strip() for d in choices)
    verdicts = review(game, choices, random.Random(1), rollouts=40, time_limit=None)
    assert [v.index for v in verdicts] == [d.index for d in choices]
    for v in verdicts:
        assert v.cost >= 0 and v.costly == (v.cost >= COSTLY)
        if v.chosen == v.best:
            assert v.cost == 0
    assert any(v.costly for v in verdicts)  # random play makes costly choices
