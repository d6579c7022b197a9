"""The terminal's coach: a hint on the person's turn (``t``) and a review of their decisions
in the last finished deal (``w``), from :mod:`folkdeck.agents.advice`: the same search and
the same words as the browser's (the catalog's ``ui.hint.*`` and ``ui.review.*``).

Actions are named as the terminal's list of choices names them (:func:`option_label`), and
values are the seat's mean return per deal over the search's sampled deals, signed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from folkdeck.agents.advice import HINT_SECONDS, Advice, Verdict, advise, decisions, review
from folkdeck.cli.render import TerminalRenderer, option_label
from folkdeck.engine.protocol import Action, GameSpec, State
from folkdeck.engine.record import Record

Label = Callable[[str], str]
"""An action's notation → how the list of choices names it."""


def signed(value: float | None) -> str:
    """A mean return as the hint and the review show it.

    >>> signed(0.5), signed(-1.25), signed(0)
    ('+0.50', '-1.25', '0.00')
    """
    number = float(value or 0.0)
    return f"{'+' if number > 0 else ''}{number:.2f}"


def labeller(spec: GameSpec, r: TerminalRenderer, seat: int, legal: Sequence[Action], window: str = "") -> Label:
    """Names the actions of ``legal`` (by notation) as the terminal's choices do."""
    by_text = {str(a): a for a in legal}
    describe = spec.describe_action

    def label(text: str) -> str:
        action = by_text.get(text)
        if action is None:
            return text
        return option_label(describe(seat, action) if describe is not None else None, action, r, window)
    return label


def hint_lines(state: State, seat: int, spec: GameSpec, r: TerminalRenderer, rng: random.Random) -> list[str]:
    """What a search bot would play for ``seat`` now, and why (at most ``HINT_SECONDS`` of search)."""
    legal = state.legal_actions(seat)
    view = state.observe(seat)
    advice = advise(state.game, view, legal, rng, time_limit=HINT_SECONDS)
    return [hint_text(advice, r, labeller(spec, r, seat, legal, str(getattr(view, "window", "") or "")))]


def hint_text(advice: Advice, r: TerminalRenderer, label: Label) -> str:
    """The hint's explanation in the catalog's words (as the browser's ``hintText``)."""
    if advice.by != "search" or not advice.values:
        return r.message("ui.hint.bot", {"action": label(advice.action)})
    best, *rest = advice.values
    text = r.message("ui.hint.search", {"action": label(best.action), "worlds": best.worlds,
                                        "value": signed(best.value)})
    if not rest:
        return f"{text} {r.message('ui.hint.only')}"
    # The bot's order is its rule's (ISMCTS: visits; Gou Ji: a confidence rule), so the next may average more.
    key = "ui.hint.next_unsure" if rest[0].value > best.value else "ui.hint.next"
    return f"{text} {r.message(key, {'action': label(rest[0].action), 'value': signed(rest[0].value)})}"


def review_lines(record: Record, seat: int, deal: int, spec: GameSpec, r: TerminalRenderer,
                 rng: random.Random) -> list[str]:
    """The review of ``seat``'s decisions in a finished deal: a title, a summary, a line per
    decision (the costly ones marked)."""
    choices = decisions(record, seat)
    verdicts = review(record.make_game(), choices, rng)
    labels = {d.index: labeller(spec, r, seat, d.legal, str(getattr(d.view, "window", "") or "")) for d in choices}
    costly = sum(v.costly for v in verdicts)
    lines = [r.message("ui.review.title", {"deal": deal}),
             r.message("ui.review.summary", {"count": costly, "total": len(verdicts)})]
    return lines + [verdict_line(v, r, labels[v.index]) for v in verdicts]


def verdict_line(v: Verdict, r: TerminalRenderer, label: Label) -> str:
    """One decision of a review (as the browser's review list words it)."""
    params: dict[str, object] = {"step": v.index + 1, "chosen": label(v.chosen), "best": label(v.best)}
    if v.by != "search":
        line = r.message("ui.review.bot", params)
    elif v.chosen == v.best:
        line = r.message("ui.review.same", {**params, "value": signed(v.best_value)})
    elif v.chosen_value is None:
        line = r.message("ui.review.unweighed", {**params, "value": signed(v.best_value)})
    else:
        key = "ui.review.as_good" if v.best_value is not None and v.chosen_value >= v.best_value else "ui.review.other"
        line = r.message(key, {**params, "cost": signed(v.cost), "value": signed(v.chosen_value),
                               "best_value": signed(v.best_value)})
    return f"{r.message('ui.review.costly')} {line}" if v.costly else line


__all__ = ["hint_lines", "hint_text", "labeller", "review_lines", "signed", "verdict_line"]
