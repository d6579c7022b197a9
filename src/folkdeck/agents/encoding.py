"""The numeric encodings that the RL adapters (:mod:`folkdeck.rl`) and the learned bots
(:mod:`folkdeck.agents.learned`) share: one generic scheme, driven by the game's spec and
its typed :class:`~folkdeck.engine.view.View`.

**Cards.** A game's card-kind vocabulary is the set of distinct cards of one deal's
``all_cards()`` (the pack the options choose: Kap Hai 52, Gou Ji 54 kinds × 4 copies,
Cambio 40 or 44...), in the order of the smallest known pack that holds them. A set of
cards is a vector of ``copies held / copies in the pack`` per kind.

**Actions: tokens.** An action is spelled by the words of its record grammar
(``str(action).split()``: Kap Hai ``"4C 4D"`` → ``4C``, ``4D``; Gou Ji ``"burn 9 9 2"`` →
``burn``, ``9``, ``9``, ``2``), each word one token of a fixed vocabulary: ``<wait>``,
``<end>``, the pack's cards in notation, then the game's other action words (spec field
``action_words``). A
decision is taken token by token (:mod:`folkdeck.rl.substeps`); the games print
combinations in one canonical order, so every action has exactly one spelling.

**Observation.** A flat ``float32`` vector (:class:`Encoding.sections` names its parts)
built from the seat's view only: never from the state, so it cannot hold a hidden card.
Seats are relative: index 0 is the viewer, 1 the next seat to play, and so on.

>>> import folkdeck
>>> enc = Encoding.of(folkdeck.load("kaphai"))
>>> len(enc.kinds), enc.tokens[:4], enc.spell("4C 4D") == (enc.token_index["4C"], enc.token_index["4D"])
(52, ('<wait>', '<end>', '2S', '2C'), True)
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
import zlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from folkdeck.cards import PACKS, Card
from folkdeck.engine.facts import Fact, fact_types
from folkdeck.engine.protocol import Game
from folkdeck.engine.view import View

WAIT = "<wait>"
"""Decline an out-of-turn right for now (offered only to a seat polled out of turn)."""
END = "<end>"
"""Commit the words chosen so far when they spell an action that others extend."""

PHASE_BUCKETS = 16
"""The phase is one-hot over ``crc32(phase) % 16`` (the tests check that a game's phases
fall in distinct buckets)."""
RECENT = 4
"""How many of the last events the observation spells out."""
HIGH = 1000.0
"""The observation's upper bound (every feature is a count ratio, a flag or a scaled
number; clipped to ``[-1, HIGH]``)."""


@dataclass(frozen=True, slots=True)
class Section:
    """A named slice of the observation vector."""

    name: str
    start: int
    size: int


def _word_kinds(game: str, words: Sequence[str], kinds: Sequence[Card]) -> dict[str, int]:
    """Each card word's kind: the first of the kinds whose rank it names."""
    ranks = [str(getattr(getattr(k, "rank", None), "value", "")) for k in kinds]
    missing = [w for w in words if w not in ranks]
    if missing:
        raise ValueError(f"{game}: card words {missing} name no rank of the pack")
    return {w: ranks.index(w) for w in words}


def _pack_order(kinds: set[Card]) -> tuple[Card, ...]:
    """The kinds in the order of the smallest known pack holding them all (else by text)."""
    packs = sorted((p for p in PACKS.values() if kinds <= set(p.cards)), key=lambda p: len(p.kinds))
    if packs:
        return tuple(k for k in packs[0].kinds if k in kinds)
    return tuple(sorted(kinds, key=str))


_Extra = tuple[str, str, int, tuple[enum.Enum, ...]]  # field name, encoder kind, size, enum members


def _extra_fields(view_type: type[View] | None, num_players: int, num_kinds: int) -> tuple[_Extra, ...]:
    """How each field a game's view adds to the core :class:`View` is encoded (by type)."""
    if view_type is None or view_type is View:
        return ()
    core = {f.name for f in dataclasses.fields(View)}
    hints = typing.get_type_hints(view_type)
    out = (_extra_field(f.name, hints[f.name], num_players, num_kinds)
           for f in dataclasses.fields(view_type) if f.name not in core)
    return tuple(e for e in out if e is not None)


def _extra_field(name: str, hint: object, num_players: int, num_kinds: int) -> _Extra | None:
    """How one field of a game's view is encoded, by its type (``None``: it is not)."""
    args = typing.get_args(hint)
    optional = typing.get_origin(hint) in (typing.Union, types.UnionType) and type(None) in args
    base = next((a for a in args if a is not type(None)), hint) if optional and len(args) == 2 else hint
    if base is bool:
        return (name, "bool", 1, ())
    if base in (int, float):
        return (name, "number", 2 if optional else 1, ())
    if base is Card:
        return (name, "card", num_kinds, ())
    if isinstance(base, type) and issubclass(base, enum.Enum):
        return (name, "enum", len(base), tuple(base))
    b_args = typing.get_args(base)
    if typing.get_origin(base) is tuple and b_args and b_args[-1] is Ellipsis:
        item = b_args[0]
        if item is Card:
            return (name, "cards", num_kinds, ())
        if item in (int, bool, float) or item == (int | None):
            return (name, "per_seat", num_players, ())
        i_args = typing.get_args(item)
        if typing.get_origin(item) is tuple and len(i_args) == 2 and i_args[1] is Ellipsis:
            # per seat, a set of cards (Cangkul's cards known in a hand) or of enum members
            # (the suits a seat is shown to lack): a block per seat, relative seats
            if i_args[0] is Card:
                return (name, "seat_cards", num_players * num_kinds, ())
            member = i_args[0]
            if isinstance(member, type) and issubclass(member, enum.Enum):
                return (name, "seat_enums", num_players * len(member), tuple(member))
    return None


@dataclass(frozen=True, slots=True, eq=False)
class Encoding:
    """A configured game's card kinds, action tokens and observation layout."""

    game: str
    num_players: int
    kinds: tuple[Card, ...]
    copies: tuple[int, ...]
    deck_size: int
    tokens: tuple[str, ...]
    fact_codes: tuple[str, ...]
    extras: tuple[_Extra, ...]
    sections: tuple[Section, ...]
    size: int
    kind_index: Mapping[Card, int]
    token_index: Mapping[str, int]
    fact_index: Mapping[str, int]
    word_kinds: Mapping[str, int] = dataclasses.field(default_factory=dict)
    """The spec's ``card_words`` (Gou Ji's ranks, ``9``), each the index of the first kind of
    its rank: the card such a word counts as."""

    @classmethod
    def of(cls, game: Game) -> Encoding:
        """The encoding of ``game`` (its options fix the players and the pack)."""
        spec = game.spec
        n = game.num_players
        deal = Counter(c for cards in game.new_state(seed=0).all_cards().values() for c in cards)
        kinds = _pack_order(set(deal))
        copies = tuple(deal[k] for k in kinds)
        words = spec.action_words
        tokens = tuple(dict.fromkeys((WAIT, END, *(str(k) for k in kinds), *words)))
        codes = tuple(sorted(c for c in fact_types() if "." not in c or c.startswith(spec.name + ".")))
        K = len(kinds)
        extras = _extra_fields(spec.view_type, n, K)
        parts = [("hand", K), ("hand_size", 1), ("counts", n), ("counts_known", n), ("to_act", n),
                 ("current_seat", n + 1), ("table", K), ("top", K), ("top_seat", n + 1),
                 ("passed", n), ("out", n), ("stock", 2), ("played_by", n * K),
                 ("recent", RECENT * (n + K + 2)), ("phase", PHASE_BUCKETS),
                 ("status", len(codes)), *((f"view.{name}", size) for name, _, size, _ in extras),
                 ("chosen", len(tokens)), ("polled", 1)]
        sections, start = [], 0
        for name, size in parts:
            sections.append(Section(name, start, size))
            start += size
        return cls(game=spec.name, num_players=n, kinds=kinds, copies=copies,
                   deck_size=sum(copies), tokens=tokens, fact_codes=codes, extras=extras,
                   sections=tuple(sections), size=start,
                   kind_index={k: i for i, k in enumerate(kinds)},
                   token_index={t: i for i, t in enumerate(tokens)},
                   fact_index={c: i for i, c in enumerate(codes)},
                   word_kinds=_word_kinds(spec.name, spec.card_words, kinds))

    def __deepcopy__(self, memo: dict[int, object]) -> Encoding:
        return self  # immutable: OpenSpiel's state clones share it

    @property
    def num_tokens(self) -> int:
        return len(self.tokens)

    def action_cards(self) -> npt.NDArray[np.float32]:
        """``(num_tokens, kinds)``: the cards of each kind an action plays per unit of its
        row's token column, as :class:`~folkdeck.agents.features.ActionFeatures` writes a row (a
        card's count over its copies; a card word's count): ``row @ action_cards()`` counts
        the action's cards by kind, a card word as the first kind of its rank.

        >>> import folkdeck
        >>> enc = Encoding.of(folkdeck.load("gouji"))
        >>> cards = enc.action_cards()
        >>> [str(enc.kinds[k]) for k in cards[enc.token_index["9"]].nonzero()[0]], float(cards[enc.token_index["BJ"]].sum())
        (['9S'], 4.0)
        """
        out = np.zeros((self.num_tokens, len(self.kinds)), dtype=np.float32)
        for kind, copies in enumerate(self.copies):
            out[self.token_index[str(self.kinds[kind])], kind] = copies
        for word, kind in self.word_kinds.items():
            out[self.token_index[word], kind] = 1.0
        return out

    def section(self, name: str) -> Section:
        return next(s for s in self.sections if s.name == name)

    def spell(self, action: object) -> tuple[int, ...]:
        """The token ids of an action (or its record text).

        :raises KeyError: for a word outside the vocabulary (a game whose grammar grew:
            declare the word in ``GameSpec.action_words``).
        """
        try:
            return tuple(self.token_index[w] for w in str(action).split())
        except KeyError as exc:
            raise KeyError(f"{self.game}: action word {exc.args[0]!r} of {str(action)!r} is not in "
                           "the token vocabulary (GameSpec.action_words)") from None

    def word(self, token: int) -> str:
        return self.tokens[token]

    # --- the observation ------------------------------------------------------------------

    def observe(self, view: View, chosen: Sequence[int] = (), polled: bool = False) -> npt.NDArray[np.float32]:
        """The observation vector of ``view`` (a seat's), with the tokens ``chosen`` so far
        in the current decision and whether the seat is being offered an out-of-turn right."""
        n = self.num_players
        out = np.zeros(self.size, dtype=np.float32)
        me = view.seat if view.seat is not None else 0

        def rel(seat: int) -> int:
            return (seat - me) % n

        sec = {s.name: s.start for s in self.sections}
        self._put_seats(out, sec, view, rel)
        self._put_table(out, sec, view, rel)
        self._put_history(out, sec, view, rel)
        out[sec["phase"] + zlib.crc32(view.phase.encode()) % PHASE_BUCKETS] = 1.0
        for fact in view.status:
            f = self.fact_index.get(fact.type)
            if f is not None:
                out[sec["status"] + f] = 1.0
        for name, kind, size, members in self.extras:
            self._put_extra(out, sec[f"view.{name}"], kind, size, members, getattr(view, name), rel)
        for token in chosen:
            out[sec["chosen"] + token] += 1.0
        out[sec["polled"]] = float(polled)
        np.clip(out, -1.0, HIGH, out=out)
        return out

    def _put_cards(self, out: npt.NDArray[np.float32], offset: int, cards: Sequence[Card] | None) -> None:
        for card in cards or ():
            k = self.kind_index.get(card)
            if k is not None:
                out[offset + k] += 1.0 / self.copies[k]

    def _put_seats(self, out: npt.NDArray[np.float32], sec: Mapping[str, int], view: View,
                   rel: Callable[[int], int]) -> None:
        """The hand, the counts, who may act, who passed and who is out."""
        n = self.num_players
        per_seat = max(1.0, self.deck_size / n)
        self._put_cards(out, sec["hand"], view.hand)
        out[sec["hand_size"]] = len(view.hand or ()) / per_seat
        for seat, count in enumerate(view.counts[:n]):
            out[sec["counts"] + rel(seat)] = -1.0 if count is None else count / per_seat
            out[sec["counts_known"] + rel(seat)] = float(count is not None)
        for seat in view.to_act:
            out[sec["to_act"] + rel(seat)] = 1.0
        out[sec["current_seat"] + (n if view.current_seat is None else rel(view.current_seat))] = 1.0
        for seat in view.passed:
            out[sec["passed"] + rel(seat)] = 1.0
        for place, seat in enumerate(view.out, start=1):
            out[sec["out"] + rel(seat)] = place / n

    def _put_table(self, out: npt.NDArray[np.float32], sec: Mapping[str, int], view: View,
                   rel: Callable[[int], int]) -> None:
        """The trick on the table, the play to beat and the stock."""
        for play in view.table:
            self._put_cards(out, sec["table"], play.cards)
        if view.top is not None:
            self._put_cards(out, sec["top"], view.top.cards)
        out[sec["top_seat"] + (self.num_players if view.top is None else rel(view.top.seat))] = 1.0
        for i, pile in enumerate(view.stock):
            out[sec["stock"] + min(i, 1)] += pile / self.deck_size

    def _put_history(self, out: npt.NDArray[np.float32], sec: Mapping[str, int], view: View,
                     rel: Callable[[int], int]) -> None:
        """The cards each seat has played, and the last ``RECENT`` events."""
        n, K = self.num_players, len(self.kinds)
        for event in view.history:
            cards = _act_cards(event.act)
            if cards:
                self._put_cards(out, sec["played_by"] + rel(event.seat) * K, cards)
        width = n + K + 2
        for i, event in enumerate(view.history[-RECENT:][::-1]):
            base = sec["recent"] + i * width
            out[base + rel(event.seat)] = 1.0
            self._put_cards(out, base + n, _act_cards(event.act))
            passed = event.act is not None and event.act.type == "passed" or event.action == "pass"
            out[base + n + K + (0 if passed else 1)] = 1.0

    def _put_extra(self, out: npt.NDArray[np.float32], at: int, kind: str, size: int,
                   members: tuple[enum.Enum, ...], value: object, rel: Callable[[int], int]) -> None:
        """One field a game's view adds, encoded by its ``kind`` (:func:`_extra_field`)."""
        if kind == "bool":
            out[at] = float(bool(value))
        elif kind == "number":
            if isinstance(value, int | float):
                out[at] = float(value) / self.deck_size
                if size == 2:  # an optional number: its presence flag
                    out[at + 1] = 1.0
        elif kind == "card":
            if isinstance(value, Card) and value in self.kind_index:
                out[at + self.kind_index[value]] = 1.0
        elif kind == "cards":
            if isinstance(value, tuple):
                self._put_cards(out, at, value)
        elif kind == "enum":
            if value in members:
                out[at + members.index(value)] = 1.0
        elif kind == "per_seat" and isinstance(value, tuple):
            for seat, v in enumerate(value):
                if seat < self.num_players and v is not None:
                    out[at + rel(seat)] = float(v) / self.deck_size if not isinstance(v, bool) else float(v)
        elif kind in ("seat_cards", "seat_enums") and isinstance(value, tuple):
            block = size // self.num_players
            for seat, items in enumerate(value[:self.num_players]):
                base = at + rel(seat) * block
                if kind == "seat_cards":
                    self._put_cards(out, base, items)
                else:
                    for item in items:
                        if item in members:
                            out[base + members.index(item)] = 1.0

    def extras_members(self, name: str) -> tuple[enum.Enum, ...]:
        """The enum members of the view field ``name``'s section, in their order (an enum
        field's one-hot, or a per-seat set's block)."""
        return next(members for field, _, _, members in self.extras if field == name)

    def describe(self) -> list[tuple[str, int, int]]:
        """The layout as ``(section, start, size)`` rows (for the docs and the tests)."""
        return [(s.name, s.start, s.size) for s in self.sections]


def _act_cards(act: Fact | None) -> tuple[Card, ...]:
    """The cards an action put down, from its fact's ``cards`` field (``played``, a burn...)."""
    if act is None:
        return ()
    cards = getattr(act, "cards", None)
    if isinstance(cards, tuple) and all(isinstance(c, Card) for c in cards):
        return cards
    return ()


__all__ = ["END", "HIGH", "WAIT", "Encoding", "Section"]
