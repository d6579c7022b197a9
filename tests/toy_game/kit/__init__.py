"""A small trick-game kit, kept with the toy game built on it.

No game of ``folkdeck.games`` is built on it, so it is not part of the package: it shows,
in a few modules, what a game hands the engine, and the toy game's tests check that the
engine serves such a game (records, matches, bots, the determinizer, the catalogs).

A game of this kind deals ``hand_size`` cards of one pack to each seat, the rest face
down; each seat in turn plays one card to the trick; the trick's winner takes it and
leads the next; the tricks won score the deal. Such a game gives only what is its own,
as data and functions (:class:`~tests.toy_game.kit.rules.TrickRules`: the pack, the
order of its cards, who wins a trick, which cards may be played, the setup keys, the
scoring, what carries from deal to deal), and gets by composition:

- :mod:`~tests.toy_game.kit.dealing`: the deal read from ``seed``/``rng``/``deck``/
  ``hands`` and the ``setup``, with the engine's coded refusals (``deal.hands_count``,
  ``deal.hand_cards``, ``deal.whole_pack``, ``deal.setup_key``, ``deal.setup_seat``,
  ``deal.no_stock``), worded once in the catalogs;
- :mod:`~tests.toy_game.kit.rules`: the deal's data (:class:`TrickDeal`, with its ``copy``);
- :mod:`~tests.toy_game.kit.state`: the action (:class:`Play`, a card, with its parser
  and its ``played`` fact), the state (:class:`TrickState`: legal actions, the shared
  refusals ``not_your_turn``/``not_held``/``not_an_action``/``not_playable``, the tricks'
  flow, the view, ``clone``, ``from_view``, the record's ``deal_info``, the card places);
- :mod:`~tests.toy_game.kit.view`: the view (:class:`TrickView`: tricks won, the setup);
- :mod:`~tests.toy_game.kit.game`: the game object (:class:`TrickGame`: ``new_state``,
  ``new_match`` on :class:`~folkdeck.engine.match_base.MatchBase`);
- :mod:`~tests.toy_game.kit.hooks`: the spec's hooks (:func:`trick_hooks`);
- :mod:`~tests.toy_game.kit.worlds`: the determinizer (the other hands and the undealt
  rest dealt again from the unseen pool), loaded at first use.

A game whose deal, turns or match say more (a stock, several cards at once, a bid, a
carry-over of its own) writes its own modules instead, as the games of
``folkdeck.games`` do.

>>> from folkdeck.cards import FRENCH_52
>>> rules = TrickRules(pack=FRENCH_52, hand_size=2, strength=FRENCH_52.cards.index,
...                    winner=highest(FRENCH_52.cards.index))
>>> state = TrickGame(EXAMPLE_SPEC, ExampleOptions(), rules).new_state(hands=["AS 2C", "KS 3C"])
>>> [str(state.apply(state.parse_action(card))) for card in ("AS", "KS", "2C", "3C")]
['0: AS', '1: KS; trick_won', '0: 2C', '1: 3C; trick_won; deal_ended']
>>> state.result().placings
(1, 1)
"""

from __future__ import annotations

from tests.toy_game.kit.example import EXAMPLE_SPEC, ExampleOptions, example_game
from tests.toy_game.kit.game import TrickGame
from tests.toy_game.kit.hooks import trick_hooks
from tests.toy_game.kit.rules import TrickDeal, TrickRules, any_card, highest, most_tricks, setup_leader
from tests.toy_game.kit.state import Play, TrickState, describe_play, parse_play
from tests.toy_game.kit.view import TrickView

__all__ = ["EXAMPLE_SPEC", "ExampleOptions", "Play", "TrickDeal", "TrickGame", "TrickRules", "TrickState",
           "TrickView", "any_card", "describe_play", "example_game", "highest", "most_tricks",
           "parse_play", "setup_leader", "trick_hooks"]
