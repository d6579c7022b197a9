"""The inputs a learned bot's network reads besides the view: each legal action's vector
(:class:`ActionFeatures`) and, for the models that use them, the shape of the hand each
action would leave (:class:`HandShape`) and the game's own reading of the cards
(:class:`ReadingColumns`: the game's :class:`~folkdeck.engine.bots.CardReading`).

All are functions of the encoding's arrays only (:class:`~folkdeck.agents.encoding.Encoding`:
the view's vector and the action's token counts), so the training data keep the plain
action rows and the rest is computed from them when a model trains or plays: data played
before a model used the shape or the reading train it all the same.

>>> import folkdeck
>>> enc = Encoding.of(folkdeck.load("kaphai"))
>>> shape = HandShape(enc)
>>> shape.groups, shape.size
(13, 96)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from folkdeck.agents.encoding import Encoding
from folkdeck.cards import Card
from folkdeck.engine.bots import CardReading

FloatArray = npt.NDArray[np.float32]
SHAPE: Final = "shape-1"
"""The ``features`` a model's metadata names when its network also reads :class:`HandShape`."""
SHAPE_SUITS: Final = "shape-2"
"""... and :class:`HandShape` with its suits (``suits=True``)."""
SHAPE_READING: Final = "shape-1+reading"
"""... and :class:`HandShape` then the game's reading of the cards (:class:`ReadingColumns`)."""
SHAPE_SUITS_READING: Final = "shape-2+reading"
"""... and :class:`HandShape` with its suits, then the game's reading."""
FEATURES: Final = {"plain": "", "shape": SHAPE, "shape+suits": SHAPE_SUITS, "shape+reading": SHAPE_READING,
                   "shape+suits+reading": SHAPE_SUITS_READING}
"""``folkdeck train --features`` names → a model's ``features``."""
MAX_ROWS: Final = 200_000
"""The most action rows :class:`ActionFeatures` keeps (a bound on its memory)."""
KEPT_READINGS: Final = 20_000
"""The most readings :class:`ReadingColumns` keeps while a bot plays (a bound on a long-running
server's memory: a position's readings are seldom asked again once it is played)."""
TRAINING_READINGS: Final = 2_000_000
"""... and while a network trains (a training set's distinct pairs, drawn by every epoch)."""
SETS: Final = 4
"""The hand-shape counts sets of up to this many cards of a rank (single, pair, triple, four)."""
_AT_LEAST: Final = np.arange(1, SETS + 1, dtype=np.float32)


class ActionFeatures:
    """Each action's input vector (cached by its notation: a game has few distinct ones):
    its words' counts, a constant 1, and a flag for the heuristic bot's choice; with
    ``features`` (a model's: :data:`SHAPE`, :data:`SHAPE_SUITS`), the network's input also
    holds :class:`HandShape` and, with :data:`SHAPE_READING` or :data:`SHAPE_SUITS_READING`, the game's reading
    (:meth:`inputs`)."""

    def __init__(self, encoding: Encoding, *, features: str = "", readings_kept: int = KEPT_READINGS) -> None:
        if features not in FEATURES.values():
            raise ValueError(f"unknown features {features!r}: one of {sorted(FEATURES.values())}")
        self.encoding = encoding
        self.row_size = encoding.num_tokens + 2
        """The plain row (what the training data keep)."""
        self.shape = HandShape(encoding, suits=features.startswith(SHAPE_SUITS)) if features else None
        self.reading = (ReadingColumns.for_game(encoding, readings_kept) if features.endswith("+reading")
                        else None)
        self.size = (self.row_size + (self.shape.size if self.shape is not None else 0)
                     + (self.reading.size if self.reading is not None else 0))
        """The network's action input."""
        scale = np.ones(encoding.num_tokens, dtype=np.float32)
        for kind, copies in zip(encoding.kinds, encoding.copies, strict=True):
            scale[encoding.token_index[str(kind)]] = 1.0 / copies
        self._scale = scale
        # every action row met so far, one per line of a table, by notation: a Gou Ji lead
        # of thousands of sets takes its rows with one indexing rather than a stack of each
        self._index: dict[str, int] = {}
        self._table = np.zeros((64, self.row_size), dtype=np.float32)

    def row(self, action: object) -> FloatArray:
        """One action's plain vector (``None`` is the encoding's ``<wait>``, declining a right)."""
        row: FloatArray = self.matrix([action])[0]
        return row

    def matrix(self, actions: Sequence[object], preferred: object = None) -> FloatArray:
        """The plain vectors of ``actions``, one row each; the one whose notation is
        ``preferred``'s (the heuristic bot's choice) flagged in the last column."""
        keys = ["<wait>" if a is None else str(a) for a in actions]  # once: a Gou Ji lead has thousands
        lines = np.asarray(self._lines(keys), dtype=np.intp)  # (may grow the table)
        out = self._table[lines]
        if preferred is not None:
            key = str(preferred)
            for i, k in enumerate(keys):
                if k == key:
                    out[i, -1] = 1.0
        return out

    def _lines(self, keys: Sequence[str]) -> list[int]:
        """The table's line of each notation, the new ones spelt and added."""
        index = self._index
        lines = [index.get(k, -1) for k in keys]
        if -1 not in lines:
            return lines
        if len(index) + len(keys) > MAX_ROWS:  # a bound on the memory: start the table again
            index.clear()
        return [index[k] if k in index else self._add(k) for k in keys]

    def _add(self, key: str) -> int:
        line = len(self._index)
        if line == len(self._table):
            self._table = np.concatenate([self._table, np.zeros_like(self._table)])
        row = self._table[line]
        row[:] = 0.0
        for token in self.encoding.spell(key):
            row[token] += self._scale[token]
        row[-2] = 1.0
        self._index[key] = line
        return line

    @property
    def reading_names(self) -> tuple[str, ...]:
        """The names of the game's reading's numbers, if the inputs hold them."""
        return self.reading.names if self.reading is not None else ()

    def inputs(self, views: FloatArray, rows: FloatArray) -> FloatArray:
        """The network's action inputs: the plain ``rows``, then (with ``shape``) the hand
        shape of each, then (with ``reading``) the game's reading (``views``: one view for
        all the rows, or one per row)."""
        if self.shape is None:
            return rows
        out = np.empty((len(rows), self.size), dtype=np.float32)
        out[:, :self.row_size] = rows
        at = self.row_size + self.shape.size
        self.shape.of(views, rows, out=out[:, self.row_size:at])
        if self.reading is not None:
            self.reading.of(views, rows, out=out[:, at:])
        return out


class HandShape:
    """What the hand would be after each action, counted by rank rather than by card: a
    pair is a pair whatever its suits, which a network of the cards alone has to learn for
    every pair of suits apart.

    The cards of a rank form a *group* (a joker, whose rank is its own, a group alone; a
    card without a rank too). Per group, as fractions of the group's copies in the pack: the
    cards left after the action, whether at least 1, 2, 3 and 4 are left, the cards the
    action plays and the cards the seat has not seen (neither in its hand nor played by
    anyone); then how many groups would be left as a single, a pair, a triple and four or
    more, and the cards left in all. With ``suits``, the same by suit, where following suit
    is the game (Cangkul, the Burros): per suit the cards left, whether none is left (a
    void), the cards played and the cards unseen.
    """

    def __init__(self, encoding: Encoding, *, suits: bool = False) -> None:
        self.ranks = CardGroups(encoding, [getattr(k, "rank", None) or k for k in encoding.kinds])
        self.suits = CardGroups(encoding, [getattr(k, "suit", None) or k for k in encoding.kinds]) if suits else None
        self.groups = self.ranks.groups
        self.size = 7 * self.groups + SETS + 1 + (4 * self.suits.groups if self.suits is not None else 0)
        self._blocks = np.kron(np.eye(SETS, dtype=np.float32), np.ones((self.groups, 1), dtype=np.float32))

    def of(self, views: FloatArray, rows: FloatArray, *, out: FloatArray | None = None) -> FloatArray:
        """The shape features of each action row (``views``: ``(1, V)`` or ``(n, V)``),
        written into ``out`` if given (``(n, size)``: a part of the network's input)."""
        if out is None:
            out = np.empty((len(rows), self.size), dtype=np.float32)
        g = self.groups
        left, played, unseen = self.ranks.counts(views, rows)
        copies = self.ranks.copies
        np.divide(left, copies, out=out[:, :g])
        # at least 1, 2, 3, 4 left: four blocks of g columns, one comparison
        at_least = out[:, g:(SETS + 1) * g]
        at_least.reshape(len(rows), SETS, g)[...] = left[:, None, :] >= _AT_LEAST[:, None]
        # groups left as a single, a pair, a triple, four or more: differences of the "at
        # least"s, their counts summed by a product (whole numbers: exact in any order)
        sets = out[:, (SETS + 1) * g:(SETS + 1) * g + SETS]
        np.matmul(at_least, self._blocks, out=sets)
        sets[:, :-1] -= sets[:, 1:].copy()
        sets /= self.groups
        at = (SETS + 1) * g + SETS
        np.divide(played, copies, out=out[:, at:at + g])
        np.divide(unseen, copies, out=out[:, at + g:at + 2 * g])
        out[:, at + 2 * g] = left.sum(axis=1) / self.ranks.total
        if self.suits is not None:
            left, played, unseen = self.suits.counts(views, rows)
            copies, k = self.suits.copies, self.suits.groups
            at += 2 * g + 1
            np.divide(left, copies, out=out[:, at:at + k])
            np.equal(left, 0.0, out=out[:, at + k:at + 2 * k], casting="unsafe")
            np.divide(played, copies, out=out[:, at + 2 * k:at + 3 * k])
            np.divide(unseen, copies, out=out[:, at + 3 * k:at + 4 * k])
        return out


class CardGroups:
    """The pack's card kinds grouped by a key (their rank, their suit; ``keys``: one per
    kind, in the encoding's order), and the counts of a hand, an action and the unseen
    cards per group."""

    def __init__(self, encoding: Encoding, keys: Sequence[object]) -> None:
        index: dict[object, int] = {}
        group = [index.setdefault(key, len(index)) for key in keys]
        self.groups = len(index)
        kinds = len(encoding.kinds)
        copies = np.asarray(encoding.copies, dtype=np.float32)
        # kind fraction (count / copies) → group count: a kinds × groups matrix of copies
        self._to_group = np.zeros((kinds, self.groups), dtype=np.float32)
        self._to_group[np.arange(kinds), group] = copies
        self.copies = self._to_group.sum(axis=0)
        self.total = float(copies.sum())
        sections = {s.name: s for s in encoding.sections}
        self._hand = slice(sections["hand"].start, sections["hand"].start + kinds)
        played = sections["played_by"]
        self._played = slice(played.start, played.start + played.size)
        self._kinds = kinds
        # an action row's tokens → the cards it plays by group (a card word a card of its rank)
        self._tokens = encoding.num_tokens
        self._action_to_group = encoding.action_cards() @ (self._to_group > 0).astype(np.float32)

    def counts(self, views: FloatArray, rows: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Per action row and group: the cards the action leaves in the hand, the cards it
        plays, and the cards the seat has not seen (the same for every action)."""
        hand = views[:, self._hand] @ self._to_group
        played_by = views[:, self._played].reshape(len(views), -1, self._kinds).sum(axis=1)
        unseen = np.clip(self.copies - hand - played_by @ self._to_group, 0.0, None)
        played = rows[:, :self._tokens] @ self._action_to_group
        left = np.clip(hand - played, 0.0, None)
        return left, played, np.broadcast_to(unseen, left.shape)


class ReadingColumns:
    """The game's reading of the cards (:class:`~folkdeck.engine.bots.CardReading`, the
    ``card_reading`` hook) for each action row: the seat's hand, the cards it has not seen
    and the action's cards, counted from the arrays, then read by the game. A reading is
    kept by those counts, so a training set reads each of its distinct pairs once, however
    many minibatches draw it."""

    def __init__(self, encoding: Encoding, reading: CardReading, kept: int = KEPT_READINGS) -> None:
        self.reading = reading
        self.kept = kept
        """The most readings kept (then the memory starts again)."""
        self.names = tuple(reading.names)
        self.size = len(self.names)
        self._kinds = encoding.kinds
        kinds = len(encoding.kinds)
        self._copies = np.asarray(encoding.copies, dtype=np.float32)
        sections = {s.name: s for s in encoding.sections}
        self._hand = slice(sections["hand"].start, sections["hand"].start + kinds)
        # the cards out of play: the view's fields the game names, else every seat's played cards
        gone = [sections[f"view.{name}"] for name in reading.out_of_play] or [sections["played_by"]]
        self._gone = [slice(s.start, s.start + s.size) for s in gone]
        self._tokens = encoding.num_tokens
        self._action_cards = encoding.action_cards()
        self._known: dict[bytes, tuple[float, ...]] = {}

    @classmethod
    def for_game(cls, encoding: Encoding, kept: int = KEPT_READINGS) -> ReadingColumns:
        """The reading of ``encoding``'s game.

        :raises ValueError: if the game declares no reading."""
        from folkdeck.engine.registry import get_spec

        hook = get_spec(encoding.game).hooks.card_reading
        if hook is None:
            raise ValueError(f"{encoding.game} has no card reading (GameHooks.card_reading)")
        return cls(encoding, hook.get(), kept)

    def of(self, views: FloatArray, rows: FloatArray, *, out: FloatArray) -> FloatArray:
        """The reading of each action row, written into ``out`` (``(n, size)``)."""
        copies, kinds = self._copies, len(self._kinds)
        hand = np.rint(views[:, self._hand] * copies)
        gone = sum(views[:, part].reshape(len(views), -1, kinds).sum(axis=1) for part in self._gone)
        unseen = np.clip(copies - hand - np.rint(gone * copies), 0.0, None)
        seat = np.broadcast_to(np.concatenate([hand, unseen], axis=1), (len(rows), 2 * kinds))
        counts = np.concatenate([seat, np.rint(rows[:, :self._tokens] @ self._action_cards)], axis=1).astype(np.int8)
        known = self._known
        if len(known) + len(rows) > self.kept:
            known.clear()
        seat_key = b""
        held: tuple[Card, ...] = ()
        hidden: tuple[Card, ...] = ()
        for i, line in enumerate(counts):
            key = line.tobytes()
            numbers = known.get(key)
            if numbers is None:
                if key[:2 * kinds] != seat_key:  # one seat's cards for all the rows of its decision
                    seat_key, held, hidden = key[:2 * kinds], self._cards(line[:kinds]), self._cards(line[kinds:2 * kinds])
                numbers = known[key] = tuple(self.reading.read(held, hidden, self._cards(line[2 * kinds:])))
            out[i] = numbers
        return out

    def _cards(self, counts: npt.NDArray[np.int8]) -> tuple[Card, ...]:
        return tuple(self._kinds[k] for k in np.flatnonzero(counts) for _ in range(int(counts[k])))


__all__ = ["FEATURES", "SETS", "SHAPE", "SHAPE_READING", "SHAPE_SUITS", "SHAPE_SUITS_READING", "ActionFeatures", "CardGroups", "HandShape",
           "ReadingColumns"]
