"""The conformance checks every registered game must pass (``tests/test_conformance.py``).

:func:`check_deal` plays one seeded random deal through the public protocol and
checks, at every step: cards are conserved; whoever may act has legal actions;
every listed action is legal by ``is_legal``; sampled illegal actions (another
seat's, or actions legal earlier but not now) are refused with no state change;
no view contains a card all of whose copies are hidden from that seat; a position
that differs only in cards a seat cannot see looks the same to it
(:func:`check_hidden_twins`); no view's
``to_act`` names a seat whose right to act is not public, other than the viewer
itself (:func:`check_view_to_act`); clones are independent. At the end: the deal is over with a result, and its record
round-trips to the same final position.

Test code: nothing in the library imports this module (``random_playout`` lives in
:mod:`folkdeck.engine.playout`; it is re-exported here for older callers).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from typing import Final

from folkdeck.cards import PACKS
from folkdeck.engine.errors import CardGameError, IllegalActionError
from folkdeck.engine.facts import Fact, fact_from_dict
from folkdeck.engine.playout import random_playout
from folkdeck.engine.protocol import Action, Game, State
from folkdeck.engine.record import Record, dumps, loads
from folkdeck.engine.view import View


def fingerprint(state: State) -> str:
    """Everything observable about a state, for "nothing changed" checks.

    The public view goes in with its last event only: events are only ever appended, so the
    history's length and last event say whether it changed (and the check stays cheap in a
    long deal, where it runs after every step)."""
    cards = {k: sorted(map(str, v)) for k, v in state.all_cards().items()}
    history = state.history
    view = state.observe(None)
    view = dataclasses.replace(view, history=view.history[-1:])
    return json.dumps([view.to_dict(), cards, len(history),
                       history[-1].line if history else None, list(state.to_act)],
                      sort_keys=True, default=str)


# Every card's canonical notation, in every pack.
_CANONICAL: Final = frozenset(str(c) for pack in PACKS.values() for c in pack.cards)


def _card_tokens(value: object) -> set[str]:
    """Every card token mentioned anywhere in a JSON-ready value."""
    out: set[str] = set()
    if isinstance(value, str):
        words = value.replace(",", " ").replace("(", " ").replace(")", " ").split()
        for i, token in enumerate(words):
            if i and words[i - 1].lower() == "seat":
                continue  # "seat 1" names a seat, not the Cucco card 1
            if token in _CANONICAL:  # canonical notation only: not words such as "2s"
                out.add(token)
    elif isinstance(value, dict):
        for v in value.values():
            out |= _card_tokens(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out |= _card_tokens(v)
    return out


def check_views(state: State, total: Counter[str], *, since: int = 0) -> int:
    """No seat's view (nor the spectator's) names a card all of whose copies it cannot see.

    ``since``: the history's events before this index were checked already (a view's event
    is the same every time it is shown), so a caller that checks every few steps passes the
    number this returned last time and the check stays linear in a long deal."""
    for seat in [*range(state.num_players), None]:
        hidden = Counter(str(c) for c in state.hidden_cards(seat))
        fully_hidden = {card for card, n in hidden.items() if n >= total[card]}
        view = state.observe(seat)
        if since and isinstance(view, View):
            view = dataclasses.replace(view, history=tuple(e for e in view.history if e.index >= since))
        leaked = _card_tokens(view.to_dict()) & fully_hidden
        assert not leaked, f"view of seat {seat} shows hidden cards {sorted(leaked)}"
    return len(state.history)


def check_view_to_act(state: State) -> None:
    """Each view's ``to_act`` is the state's, less the seats whose right is not public.

    A game declares which seats of ``state.to_act`` every viewer may see with an
    optional ``public_to_act()`` method (default: ``to_act[0]``, the seat the game waits
    for). A seat's view must list exactly the public seats plus the seat itself when it
    is in ``to_act``, in ``to_act``'s order; a spectator's only the public ones; and the
    view's ``current_seat`` is its ``to_act[0]`` (``None`` when empty). So a view never
    shows who may act out of turn on the strength of a hidden card (the Cambio OWL)."""
    acting = state.to_act
    declared = getattr(state, "public_to_act", None)
    public = tuple(declared()) if callable(declared) else acting[:1]
    assert set(public) <= set(acting), f"public_to_act {public} is not part of to_act {acting}"
    for viewer in [*range(state.num_players), None]:
        view = state.observe(viewer)
        expected = [s for s in acting if s in public or s == viewer]
        data = view.to_dict()
        for shown in (data.get("to_act"), getattr(view, "to_act", None)):
            if shown is None:
                continue  # a view without to_act (Cangkul's) still has current_seat
            assert isinstance(shown, list | tuple) and list(shown) == expected, (
                f"view of seat {viewer} lists to_act {shown}; the state's is "
                f"{list(acting)} and only {list(public)} are public")
        current = getattr(view, "current_seat", None)
        assert current == (expected[0] if expected else None), \
            f"view of seat {viewer}: current_seat {current} is not its to_act[0] {expected[:1]}"


def check_hidden_twins(game: Game, state: State, rng: random.Random) -> None:
    """Two positions that differ only in cards a seat cannot see give it the same view.

    The twin is a world the game's determinizer (the ``GameSpec.determinizer`` hook)
    deals from the seat's view alone: the same public facts, the unseen cards dealt at
    random. The seat's view of the twin must equal its real view, ``to_act`` included, so
    a view that told a right to act coming from a hidden card (another seat's OWL) fails
    here whatever the game declares. Checked for every seat whose view the determinizer
    takes (games without one are skipped)."""
    determinizer = game.spec.determinizer
    if determinizer is None:
        return
    for seat in range(state.num_players):
        view = state.observe(seat)
        if not determinizer.is_searchable(view):
            continue
        twin = determinizer.worlds(game, view)(random.Random(rng.getrandbits(32)))
        assert twin.observe(seat).to_dict() == view.to_dict(), \
            f"seat {seat}: a position differing only in cards it cannot see looks different to it"


def check_deal(game: Game, seed: int, *, max_steps: int = 20_000, views_every: int = 2,
               twins_every: int = 3) -> State:
    """Play one random deal with every check; return the finished state."""
    rng = random.Random(seed)
    twin_rng = random.Random(f"twins/{seed}")  # apart from ``rng``: the deal's moves stay as they were
    state = game.new_state(seed=seed)
    total = _cards(state)
    seen: list[tuple[int, Action]] = []
    checked = 0
    for step in range(max_steps):
        cards_now = _cards(state)
        assert cards_now == total, f"step {step}: cards not conserved: {cards_now - total} / {total - cards_now}"
        if step % views_every == 0:
            checked = check_views(state, total, since=checked)
            check_view_to_act(state)
        if step % twins_every == 0:
            check_hidden_twins(game, state, twin_rng)
        if state.is_over():
            break
        _check_step(state, seen, rng, step)
    else:
        raise AssertionError(f"seed {seed}: deal not over after {max_steps} steps")
    result = state.result()
    assert result is not None and len(result.placings) == state.num_players
    assert state.to_act == () and state.legal_actions(0) == ()
    check_events(game, state)
    _check_round_trip(state)
    return state


def _cards(state: State) -> Counter[str]:
    return Counter(str(c) for cards in state.all_cards().values() for c in cards)


def _check_step(state: State, seen: list[tuple[int, Action]], rng: random.Random, step: int) -> None:
    """One step of :func:`check_deal`: the legal actions of the seat on turn are listed once
    each and legal, illegal ones are refused, verifying and a clone change nothing; then a random action
    (now and then another seat's, out of turn) is applied."""
    acting = state.to_act
    assert acting, f"step {step}: not over but nobody may act"
    assert state.current_seat == acting[0]
    assert all(0 <= s < state.num_players for s in acting)
    legal = state.legal_actions(acting[0])
    assert legal, f"step {step}: seat {acting[0]} must act but has no legal action"
    assert legal == state.legal_actions(), "legal_actions() must default to the seat on turn"
    assert len(set(legal)) == len(legal), f"step {step}: repeated legal actions"
    for a in rng.sample(legal, min(4, len(legal))):
        assert state.is_legal(a, acting[0]), f"step {step}: listed {a} but is_legal is False"
        seen.append((acting[0], a))
    if rng.random() < 0.5:
        _check_refusals(state, legal, seen, rng, step)
    if rng.random() < 0.1:
        before = fingerprint(state)
        state.verify(legal[0], acting[0])  # a game may verify by applying to a copy
        assert fingerprint(state) == before, f"step {step}: verifying a legal action changed the state"
        twin = state.clone()
        twin_legal = twin.legal_actions()
        twin.apply(twin_legal[rng.randrange(len(twin_legal))])
        assert fingerprint(state) == before, f"step {step}: a clone's move changed the original"
    seat = acting[0]
    if len(acting) > 1 and rng.random() < 0.3:
        seat = rng.choice(acting[1:])  # take an out-of-turn action sometimes
        legal = state.legal_actions(seat)
    state.apply(legal[rng.randrange(len(legal))], seat)


def check_events(game: Game, state: State) -> None:
    """Every event says what happened as typed facts with a JSON form that reads back the
    same, the game describes every action as a fact, and every view is a typed
    :class:`~folkdeck.engine.view.View` whose JSON form is plain JSON."""
    describe = game.spec.describe_action
    for index, event in enumerate(state.history):
        for fact in (describe(event.seat, event.action), *event.facts):
            assert isinstance(fact, Fact), f"event {index}: {fact!r} is not a typed fact"
            data = json.loads(json.dumps(fact.to_dict()))
            assert fact_from_dict(data) == fact, f"event {index}: {fact!r} does not read back from JSON"
    for seat in (None, *range(state.num_players)):
        view = state.observe(seat)
        assert isinstance(view, View), f"{game.spec.name}: observe() must return a View"
        assert isinstance(view, game.spec.view_type), f"{game.spec.name}: a view is not a {game.spec.view_type}"
        json.dumps(view.to_dict())


def _check_coded(exc: CardGameError, step: int) -> None:
    """A refusal carries a catalog key and JSON parameters (the browser renders it)."""
    from folkdeck.i18n import catalog

    assert f"error.{exc.reason}" in catalog("en"), f"step {step}: refusal {exc.reason!r} has no message key"
    json.dumps(dict(exc.params))


def _check_refusals(state: State, legal: tuple[Action, ...], seen: list[tuple[int, Action]],
                    rng: random.Random, step: int) -> None:
    acting = state.to_act
    candidates: list[tuple[int, Action]] = []
    outsiders = [s for s in range(state.num_players) if s not in acting]
    if outsiders:
        candidates.append((rng.choice(outsiders), legal[0]))
    legal_set = set(legal)
    for seat, action in rng.sample(seen, min(3, len(seen))):
        if seat == acting[0] and action not in legal_set:
            candidates.append((seat, action))
    for seat, action in candidates:
        if seat in acting and state.is_legal(action, seat):
            continue  # legal for an out-of-turn seat: not a refusal case
        before = fingerprint(state)
        assert not state.is_legal(action, seat), f"step {step}: {seat}: {action} should be illegal"
        try:
            state.apply(action, seat)
        except IllegalActionError as exc:
            _check_coded(exc, step)
        else:
            raise AssertionError(f"step {step}: illegal {seat}: {action} was applied")
        assert fingerprint(state) == before, f"step {step}: a refused action changed the state"


def _check_round_trip(state: State) -> None:
    record = loads(dumps(Record.from_state(state)))
    again = record.replay()
    assert [e.line for e in again.history] == [e.line for e in state.history]
    assert fingerprint(again) == fingerprint(state), "record round-trip changed the position"
    r1, r2 = state.result(), again.result()
    assert r1 is not None and r2 is not None and r1.to_dict() == r2.to_dict()


__all__ = ["check_deal", "check_events", "check_hidden_twins", "check_view_to_act", "check_views",
           "fingerprint", "random_playout"]
