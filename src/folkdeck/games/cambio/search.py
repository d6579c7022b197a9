"""Cambio's search bots: determinized worlds weighted by what the others said.

The generic search (:mod:`folkdeck.agents.search`) plays Cambio poorly: its rollouts
let every other seat say ``change`` or ``keep`` at random and never call cucco out of
turn, and its worlds deal the hidden cards uniformly although a seat that said
``keep`` probably holds a high card. A Cambio decision is one word per seat, so the
search here spends its budget where the game is decided:

- **Worlds** come from :func:`~folkdeck.games.cambio.determinize.worlds` (every
  card the seat has seen placed, the rest dealt at random: OWLs too, since a view's
  ``to_act`` never names another OWL holder) and are then **weighted by
  the likelihood of every other seat's past words** under the :class:`OpponentModel`
  (importance sampling): the card each seat held when it spoke is found by undoing the
  public history (exchanges, stock draws, cards shown) in that world, and by the chance
  that its OWL holders have stayed silent so far (:func:`owl_silence`: nobody has
  called cucco, a public fact). ``belief=False`` turns the weighting off (plain PIMC).
- **Every legal action** is played out in each world (common random numbers: the same
  world and the same random draws of the others for each action), the later seats
  speaking by the model and OWL holders calling cucco as the counting bot does.
- The action with the best weighted mean return wins.

Returns per deal are the right objective: a deal costs a seat its stake (chips, or its
place in the game) exactly when it loses, whatever the others do, so lowering the
chance of losing is what every stake asks for (only in an elimination deal do the
others' losses matter too, through the pot, and the bots ignore that).

With the OWL, the bot calls cucco as soon as a request could reach it (an OWL holder
that is never asked cannot lose); on its own turn it searches like any other seat.

Every random choice comes from the ``rng`` handed to :meth:`CambioSearchAgent.act`,
so a bot is reproducible from its seed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from folkdeck.agents.search import SearchAgent
from folkdeck.engine.facts import Disqualified, Exchanged
from folkdeck.engine.protocol import Action, BotFactory, Event, GameSpec, Observation
from folkdeck.games.cambio.actions import CHANGE, CUCCO, KEEP
from folkdeck.games.cambio.agents import OWL_REACH, rollout
from folkdeck.games.cambio.determinize import DETERMINIZER, events_of, is_searchable
from folkdeck.games.cambio.events import Shows, TookStock, TookStockFaceDown
from folkdeck.games.cambio.game import CambioGame
from folkdeck.games.cambio.observation import CambioView
from folkdeck.games.cambio.rules import KIND, PACK_TABLES, may_call_cucco, seating
from folkdeck.games.cambio.state import CambioState

_UNKNOWN: Final = -2


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """How another seat is expected to speak: as the counting bot would in a fresh deal.

    For a seat at place ``pos`` of ``n`` active seats holding ``card`` (its own dealt
    card, or one passed to it, which the CAT cannot blame on it), the counting bot's
    two estimates, the chance of losing if it keeps and if it changes, are computed
    once by its own playouts (:func:`folkdeck.games.cambio.agents.rollout`) over
    ``samples`` uniform deals and cached; the seat says ``change`` with the chance
    that the counting bot's 100-sample estimate finds changing better (a normal
    approximation of its sampling noise), mixed with ``noise`` of uniform choice, so
    that a bot playing at random never makes a world impossible. An OWL holder keeps;
    an OWL holder out of turn calls cucco when the seat on turn sits at most
    ``owl_reach`` active seats to its left (the counting bot's rule, docs/rules/cambio.md §9).
    """

    noise: float = 0.05
    owl_reach: int = 2
    samples: int = 200
    sampled_up_to: int = 6
    """Larger tables use the analytic rule of :func:`_analytic_table` (sampling every
    place of a large table would cost seconds)."""

    def p_change(self, pack: str, n: int, pos: int, card: int, own: bool) -> float:
        """The chance that the seat at place ``pos`` of ``n`` active seats, holding
        ``card`` (a kind; ``own``: the card it was dealt), says ``change``."""
        if may_call_cucco(card, True) or n < 2:  # an OWL holder keeps (it may call instead)
            return self.noise / 2
        if n > self.sampled_up_to:
            return _analytic_table(pack, n - 1, self.noise)[card]
        diff, sd = _counting_view(pack, n, pos, card, own or pos == 0, self.samples)
        z = diff / max(sd / 10.0, 0.005)  # the counting bot's estimates use 100 samples
        return self.noise / 2 + (1 - self.noise) * 0.5 * math.erfc(-z / math.sqrt(2))

    def owl_calls(self, gap: int) -> bool:
        """Does an OWL holder call cucco when ``gap`` active seats sit between it and the
        seat on turn (to its left)?"""
        return gap < self.owl_reach


@lru_cache(maxsize=8192)
def _counting_view(pack: str, n: int, pos: int, card: int, own: bool,
                   samples: int) -> tuple[float, float]:
    """The counting bot's view of a fresh deal: the mean and standard deviation of its
    paired difference (losing if it keeps) - (losing if it changes), from ``samples``
    playouts by a generator seeded with the question itself (so it is reproducible)."""
    table = PACK_TABLES[pack]
    rng = random.Random(f"cambio-model:{pack}:{n}:{pos}:{card}:{own}")
    pool = list(table.full)
    pool.remove(card)
    order = list(range(n))
    origin0 = {s: s for s in order}
    origin0[pos] = pos if own else pos - 1
    total = total2 = 0.0
    for _ in range(samples):
        rng.shuffle(pool)
        cards = {s: pool[s if s < pos else s - 1] for s in order if s != pos}
        cards[pos] = card
        stock = pool[n - 1:]
        keep = rollout(order, pos, dict(cards), dict(origin0), list(stock), pos, False, table,
                       owl_reach=OWL_REACH)
        change = rollout(order, pos, cards, dict(origin0), stock, pos, True, table,
                         owl_reach=OWL_REACH)
        d = float(keep) - float(change)
        total += d
        total2 += d * d
    mean = total / samples
    return mean, math.sqrt(max(total2 / samples - mean * mean, 0.0))


@lru_cache(maxsize=256)
def _analytic_table(pack: str, others: int, noise: float) -> tuple[float, ...]:
    """Large tables: a seat changes when its card is more likely than an average card to
    be the lowest against ``others`` cards drawn from the rest of the pack (a logistic
    around ``1 / (others + 1)``)."""
    table = PACK_TABLES[pack]
    values = table.values
    rest = len(table.full) - 1
    average = 1 / (others + 1)
    out = [0.0] * len(values)
    for k in table.kinds:
        at_least = sum(1 for c in table.full if values[c] >= values[k]) - 1
        p_keep = math.comb(at_least, others) / math.comb(rest, others) if rest >= others else 1.0
        z = max(-50.0, min(50.0, (p_keep - average) / (0.18 * average)))
        out[k] = noise / 2 + (1 - noise) / (1 + math.exp(-z))
    return tuple(out)


def cards_when_spoken(world: CambioState, events: Sequence[Event]) -> list[tuple[int, Action, int]]:
    """``(seat, action, card)`` for every ``change``/``keep`` of the history, the card (a
    kind, or ``-2`` when it cannot be told) being the one the seat held when it spoke,
    found by undoing the public history (its typed facts) from the world's current cards."""
    cards = [world.kind_of(s) for s in range(world.num_players)]
    out: list[tuple[int, Action, int]] = []
    for event in reversed(events):
        for fact in reversed(event.facts):
            if isinstance(fact, Exchanged):
                q, t = fact.seat, fact.other
                cards[q], cards[t] = cards[t], cards[q]
            elif isinstance(fact, Shows | TookStock):
                card = fact.card if isinstance(fact, Shows) else fact.discarded
                cards[fact.seat] = KIND[card]
            elif isinstance(fact, TookStockFaceDown):
                cards[fact.seat] = _UNKNOWN
        if event.action is CHANGE or event.action is KEEP:
            out.append((event.seat, event.action, cards[event.seat]))
    out.reverse()
    return out


def speeches(game: CambioGame, obs: CambioView, events: Sequence[Event]) -> list[tuple[int, int, bool]]:
    """For every ``change``/``keep`` of the history (public knowledge): how many seats
    were active, the speaker's place among them, and whether it held its own dealt card
    (no exchange had reached it)."""
    in_deal = tuple(s in obs.in_deal for s in range(obs.num_players))
    active = list(seating(obs.dealer, in_deal)[0])
    reached: set[int] = set()
    out: list[tuple[int, int, bool]] = []
    for event in events:
        if event.action is CHANGE or event.action is KEEP:
            s = event.seat
            out.append((len(active), active.index(s) if s in active else 0, s not in reached))
        for fact in event.facts:
            if isinstance(fact, Exchanged):
                reached.add(fact.other)
            elif isinstance(fact, Disqualified) and fact.seat in active:
                active.remove(fact.seat)
    return out


def likelihood(world: CambioState, events: Sequence[Event], seat: int, model: OpponentModel,
               said: Sequence[tuple[int, int, bool]]) -> float:
    """The chance, under ``model``, that the other seats said what they said in the
    history (``said``: :func:`speeches`), had the world's cards been the real ones."""
    pack = world.game.options.pack
    w = 1.0
    for (s, action, card), (n, pos, own) in zip(cards_when_spoken(world, events), said,
                                                strict=True):
        if s == seat or card < 0:
            continue
        p = model.p_change(pack, n, pos, card, own)
        w *= p if action is CHANGE else 1 - p
    return w


def owl_silence(world: CambioState, seat: int, model: OpponentModel) -> float:
    """The chance, under ``model``, that no OWL holder of ``world`` has called cucco yet,
    ``seat`` being on turn: an OWL holder sitting after ``seat`` within the model's reach
    would have called before this decision (``noise`` per such holder). A belief drawn
    from the public fact that nobody called, not from any seat's right to call."""
    (order, index), active = world.seating_order, world.active_flags
    if world.current_seat != seat:
        return 1.0
    t = index[seat]
    w = 1.0
    for s in world.to_act[1:]:
        o = index[s]
        if s != seat and o > t and model.owl_calls(sum(1 for i in range(t + 1, o) if active[order[i]])):
            w *= model.noise
    return w


class CambioSearchAgent(SearchAgent):
    """Belief-weighted determinized search for Cambio (see the module docstring).

    :param worlds: worlds sampled per decision (each plays out every legal action).
    :param belief: weight the worlds by the others' past words (``False``: plain PIMC).
    :param model: the model of the other seats (their words and cucco calls).
    """

    def __init__(self, spec: GameSpec, *, worlds: int = 800, belief: bool = True,
                 model: OpponentModel | None = None, fallback: BotFactory | None = None,
                 time_limit: float | None = None, name: str = "search") -> None:
        super().__init__(spec, algorithm="pimc", rollouts=max(1, worlds), rollout="heuristic",
                         fallback=fallback, time_limit=time_limit, name=name)
        self.worlds = max(1, worlds)
        self.belief = belief
        self.model = model or OpponentModel()
        self._policy = None

    def interrupt(self, observation: Observation, legal: Sequence[Action],
                  rng: random.Random) -> Action | None:
        """Call cucco with the OWL as soon as a request could reach it: an OWL holder
        that is never asked cannot lose, so waiting only adds risk to its own deal."""
        obs = observation
        if CUCCO not in legal or not isinstance(obs, CambioView) or obs.seat is None:
            return None
        turn = obs.current_seat
        if turn is None or turn == obs.seat:
            return None
        order = [s % obs.num_players for s in range(obs.dealer + 1, obs.dealer + obs.num_players + 1)
                 if s % obs.num_players in obs.active]
        return CUCCO if order.index(turn) < order.index(obs.seat) else None

    def act(self, observation: Observation, legal_actions: Sequence[Action],
            rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        obs = observation
        if not isinstance(obs, CambioView) or not is_searchable(obs):
            chosen: Action = self.fallback.act(observation, legal_actions, rng)
            return chosen
        values = self.evaluate(obs, legal_actions, rng)
        keep_first = sorted(range(len(legal_actions)),
                            key=lambda i: legal_actions[i] is not KEEP)  # ties: keep
        return legal_actions[max(keep_first, key=lambda i: values[i])]

    def evaluate(self, obs: CambioView, legal: Sequence[Action], rng: random.Random) -> list[float]:
        """The weighted mean return of each legal action over the sampled worlds.

        The budget is ``worlds`` at four active seats or fewer and shrinks in proportion
        beyond (a world of a larger table costs more to play out), so that a decision
        takes about the same time at any table.
        """
        game = self._game_for(obs)
        seat = obs.seat
        if not isinstance(game, CambioGame) or seat is None:
            raise TypeError("a Cambio seat's view and game are needed")
        sample = DETERMINIZER.sampler(game, obs)
        events = events_of(obs)
        said = speeches(game, obs, events)
        model = self.model
        worlds = max(1, self.worlds * 4 // max(4, len(obs.active)))
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        totals = [0.0] * len(legal)
        plain = [0.0] * len(legal)
        weight = 0.0
        keys = [str(a) for a in legal]
        for i_world in range(worlds):
            world = sample(rng)
            if i_world == 0:
                self._check_world(world, seat, keys)
            w = likelihood(world, events, seat, model, said) * owl_silence(world, seat, model) \
                if self.belief else 1.0
            draws = [rng.random() for _ in range(obs.num_players)]
            weight += w
            for i, action in enumerate(legal):
                r = play_out(world.clone(), seat, action, draws, model)
                totals[i] += w * r
                plain[i] += r
            if deadline is not None and time.perf_counter() > deadline:
                worlds = i_world + 1
                break
        if weight <= 0.0:  # every weight underflowed: the worlds count alike
            return [t / worlds for t in plain]
        return [t / weight for t in totals]


def play_out(world: CambioState, seat: int, action: Action, draws: Sequence[float],
             model: OpponentModel) -> float:
    """``seat`` plays ``action``, then the deal is played to its end by ``model`` (each
    seat's word drawn from ``draws[seat]``; ``seat`` itself calls cucco as
    :meth:`CambioSearchAgent.interrupt` does); ``seat``'s return. It reads the sampled
    world's own ``to_act`` (the OWLs of that world), never the real position's."""
    world.apply(action, seat)
    pack = world.game.options.pack
    (order, index), active = world.seating_order, world.active_flags
    while not world.is_over():
        acting = world.to_act
        turn = acting[0]
        if len(acting) > 1:
            t = index[turn]
            caller = None
            for s in acting[1:]:
                o = index[s]
                if o < t:
                    continue
                gap = sum(1 for i in range(t + 1, o) if active[order[i]])
                if (s == seat and o > t) or (s != seat and model.owl_calls(gap)):
                    caller = s
                    break
            if caller is not None:
                world.apply(CUCCO, caller)
                break
        pos = sum(1 for i in range(index[turn]) if active[order[i]])
        p = model.p_change(pack, sum(active), pos, world.kind_of(turn), world.origin_of(turn) == turn)
        world.apply(CHANGE if draws[turn] < p else KEEP, turn)
    result = world.result()
    assert result is not None
    return float(result.returns[seat])


LEVELS: Final = {"fast": 200, "default": 800, "strong": 3200}
"""Worlds per decision of each level (each world plays out every legal action)."""


def cambio_search_bots() -> dict[str, BotFactory]:
    """``search`` (belief-weighted), ``search:fast``, ``search:strong``, and ``pimc``
    (uniform worlds), ``pimc:fast``, ``pimc:strong``."""
    def make(level: str, belief: bool) -> BotFactory:
        prefix = "search" if belief else "pimc"
        name = prefix if level == "default" else f"{prefix}:{level}"

        def factory() -> CambioSearchAgent:
            from folkdeck.engine.registry import get_spec
            from folkdeck.games.cambio.agents import CountingAgent

            return CambioSearchAgent(get_spec("cambio"), worlds=LEVELS[level], belief=belief,
                                     fallback=CountingAgent, name=name)
        return factory

    return {(p if lv == "default" else f"{p}:{lv}"): make(lv, p == "search")
            for p in ("search", "pimc") for lv in LEVELS}


__all__ = ["LEVELS", "CambioSearchAgent", "OpponentModel", "cambio_search_bots",
           "cards_when_spoken", "likelihood", "owl_silence", "play_out", "speeches"]

