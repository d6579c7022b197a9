"""A hint for a person at the table: what a good bot would play here, and why, as data.

:func:`advise` asks the game's hint bot (``GameInfo.hint_bot``: a search bot of
``folkdeck.agents.search``, the game's strongest that answers within a second) for the
value of every action it considers: the mean return of the seat over sampled deals that
agree with everything the seat has seen (``pimc`` tries each action on the same deals;
ISMCTS, Kap Hai's ``search``, tries the promising ones more often). The values come in the
bot's order of preference, which is its rule's (ISMCTS's visits, Gou Ji's confidence rule),
so the next action may have averaged more than the one played; the hint says so (the
catalog's ``hint.next_unsure``). The answer is an
:class:`Advice` (the action, how it was found, the values in the bot's order of
preference), which the browser and the terminal put into words from the message catalog
(``hint.*``); nothing here makes a sentence. Where the position cannot be searched (a
window before the cards are seen, a game without a determinizer), the advice is the
game's own quick bot's choice, without values.

>>> import random, folkdeck
>>> game = folkdeck.load("kaphai")
>>> state = game.new_state(seed=4)
>>> seat = state.current_seat
>>> advice = advise(game, state.observe(seat), state.legal_actions(seat), random.Random(1), rollouts=40)
>>> advice.action in [str(a) for a in state.legal_actions(seat)], advice.by in ("search", "bot")
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from folkdeck.agents.registry import make_agent
from folkdeck.engine.protocol import Action, Game
from folkdeck.engine.view import View
from folkdeck.json_types import JSONObject

if TYPE_CHECKING:
    from folkdeck.engine.record import Record

HINT_SECONDS: Final = 1.0
"""A hint's search stops after this long (a Gou Ji position with many plays): a player
waits at most a second. The learned bots answer in milliseconds but are weaker than the
search (docs/bots.md, "Learned bots"), so hints stay with it."""


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One action's mean return for the seat over ``worlds`` sampled deals."""

    action: str
    value: float
    worlds: int

    def to_dict(self) -> dict[str, object]:
        return {"action": self.action, "value": round(self.value, 4), "worlds": self.worlds}


@dataclass(frozen=True, slots=True)
class Advice:
    """``action``: what to play; ``by``: ``"search"`` (with ``values``, in the bot's order
    of preference: the first is ``action``; PIMC's by value, with Gou Ji's confidence rule
    by the rule, ISMCTS's by how often it tried each) or ``"bot"`` (the game's quick bot's
    choice: the position could not be searched)."""

    action: str
    by: str
    values: tuple[ActionValue, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"action": self.action, "by": self.by, "values": [v.to_dict() for v in self.values]}


def advise(game: Game, observation: View, legal: Sequence[Action], rng: random.Random, *,
           rollouts: int | None = None, time_limit: float | None = None,
           also: Sequence[Action] = ()) -> Advice:
    """The advice for the observing seat among ``legal`` (which must not be empty), by the
    game's hint bot at its own budget (``rollouts``: another) and at most ``time_limit``
    seconds; ``also``: actions to value even where the bot's root candidates leave them out
    (a review's chosen action)."""
    if not legal:
        raise ValueError("no legal action to advise on")
    from folkdeck.agents.search import SearchAgent

    spec = game.spec
    agent = make_agent(spec, spec.hint_bot, game=game)
    values = None
    if isinstance(agent, SearchAgent):  # every game's search bots are
        if rollouts is not None:
            agent.rollouts = rollouts
        agent.time_limit = time_limit
        values = agent.action_values(observation, legal, rng, also=also)
    if values:
        return Advice(action=str(values[0][0]), by="search",
                      values=tuple(ActionValue(str(a), v, n) for a, v, n in values))
    quick = make_agent(spec, spec.default_bot, game=game)
    return Advice(action=str(quick.act(observation, list(legal), rng)), by="bot")


REVIEW_ROLLOUTS: Final = 120
"""Rollouts per decision of a deal's review (a deal has dozens of decisions)."""
REVIEW_SECONDS: Final = 0.4
"""A decision's search stops after this long (a Gou Ji deal has a hundred decisions)."""
COSTLY: Final = 0.25
"""A decision is marked costly when the best action's mean return beat the chosen one's
by at least this much (in the game's return per deal: points, chips, places)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a seat in a finished deal: the event's ``index``, the seat's view and
    legal actions then, and what it chose."""

    index: int
    view: View
    legal: tuple[Action, ...]
    chosen: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """The review of one :class:`Decision`: the chosen action and the best one with their
    mean returns (``chosen_value`` is ``None`` when the search did not weigh the chosen
    action: an ISMCTS tree that never tried it in its time; a search of root candidates
    weighs it beside them), ``cost`` (best less chosen, 0 when it was the best) and
    ``costly``."""

    index: int
    chosen: str
    best: str
    best_value: float | None
    chosen_value: float | None
    cost: float
    costly: bool
    by: str
    chosen_data: JSONObject | None = None
    """The chosen and the best action as data (``GameHooks.action_data``), for a table
    that names them as its buttons do without parsing their notation."""
    best_data: JSONObject | None = None

    def to_dict(self) -> dict[str, object]:
        return {"index": self.index, "chosen": self.chosen, "best": self.best,
                "best_value": _rounded(self.best_value), "chosen_value": _rounded(self.chosen_value), "cost": round(self.cost, 4), "costly": self.costly,
                "by": self.by, "chosen_data": self.chosen_data, "best_data": self.best_data}


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def decisions(record: Record, seat: int) -> list[Decision]:
    """The decisions ``seat`` made in a deal's record (:class:`folkdeck.engine.record.Record`)
    that had a choice (two legal actions or more), replayed from the deal's start."""
    from folkdeck.engine.record import apply_line

    replay = record.start()
    out = []
    for index, line in enumerate(record.actions):
        who = int(line.partition(":")[0])
        if who == seat:
            legal = tuple(replay.legal_actions(seat))
            if len(legal) > 1:
                out.append(Decision(index, replay.observe(seat), legal, line.partition(":")[2].strip()))
        apply_line(replay, index, line)
    return out


def review(game: Game, choices: Sequence[Decision], rng: random.Random, *,
           rollouts: int = REVIEW_ROLLOUTS, time_limit: float | None = REVIEW_SECONDS) -> list[Verdict]:
    """Each decision weighed by the search: the best action, and what choosing another cost
    (``time_limit``: at most this many seconds per decision, so a long deal's review ends)."""
    out = []
    # the hook taken out of the spec first: the compiled build (mypyc) miscompiled
    # ``spec.action_data(a)``, a call of the callable a property returns, into a TypeError
    as_data = game.spec.action_data
    for d in choices:
        chosen = [a for a in d.legal if str(a) == d.chosen]  # weighed even where the search would not look
        advice = advise(game, d.view, d.legal, rng, rollouts=rollouts, time_limit=time_limit, also=chosen)
        values = {v.action: v.value for v in advice.values}
        best_value = values.get(advice.action)
        chosen_value = values.get(d.chosen)
        cost = 0.0 if d.chosen == advice.action or best_value is None or chosen_value is None else \
            max(0.0, best_value - chosen_value)
        data = {str(a): as_data(a).to_dict(str(a)) for a in d.legal}
        out.append(Verdict(d.index, d.chosen, advice.action, best_value, chosen_value, cost, cost >= COSTLY,
                           advice.by, data.get(d.chosen), data.get(advice.action)))
    return out


__all__ = ["COSTLY", "HINT_SECONDS", "REVIEW_SECONDS", "REVIEW_ROLLOUTS", "ActionValue", "Advice", "Decision",
           "Verdict", "advise", "decisions", "review"]
