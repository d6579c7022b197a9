"""The toy game's entries of the message catalogs.

A real game adds these to ``src/folkdeck/i18n/en.json`` and ``ja.json``; the toy's tests
add them to the loaded catalogs for the length of a test (and take them out after).
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, dict[str, object]]] = {
    "en": {
        "term.toy.title": "Toy high card",
        "term.toy.summary": "Play a card; the highest card wins the trick.",
        "term.toy.play": "play",
        "term.toy.over": "deal over",
        "term.toy.most_tricks": "most tricks",
        "term.toy.deals": "the number of deals",
        "term.toy.option.players.help": "2 to 4",
        "term.toy.option.hand_size": "cards in a hand",
        "term.toy.option.hand_size.help": "cards dealt to each seat; the rest stay face down",
        "error.toy.players": "option players={value}: the toy game is for 2 to 4 players",
        "error.toy.hand_size": "option hand_size={value}: must be from 1 to {limit}",
        "error.toy.not_your_turn": "{seat:seat} may not act now: waiting for {to_act:seats}",
        "error.toy.not_held": {"person": "seat", "you": "you do not hold {cards:cards}",
                               "other": "{seat:seat} does not hold {cards:cards}"},
        "error.toy.not_an_action": "{action} is not an action of this game",
        "error.toy.no_stock": "the toy game has no stock",
        "error.toy.hands_count": "{count} hands given for {players} players",
        "error.toy.hand_cards": "{count} cards given: each hand holds {size}",
        "error.toy.whole_pack": "the deck must hold each of the 24 cards exactly once",
        "error.toy.setup_key": "unknown setup key '{key}' (the toy game takes leader)",
        "error.toy.setup_leader": "leader must be a seat from 0 to {last}",
    },
    "ja": {
        "term.toy.title": "トイ・ハイカード",
        "term.toy.summary": "1枚ずつ出し、いちばん強いカードがトリックを取る。",
        "term.toy.play": "プレイ",
        "term.toy.over": "ディール終了",
        "term.toy.most_tricks": "トリック数",
        "term.toy.deals": "ディール数",
        "term.toy.option.players.help": "2〜4人",
        "term.toy.option.hand_size": "手札の枚数",
        "term.toy.option.hand_size.help": "各席に配る枚数。残りは伏せたまま",
        "error.toy.players": "プレイヤーは{value}人にはできません。このゲームは2〜4人です",
        "error.toy.hand_size": "手札の枚数{value}はできません。1から{limit}までです",
        "error.toy.not_your_turn": "{seat:seat}は今は操作できません：{to_act:seats}の番です",
        "error.toy.not_held": "{seat:seat}は{cards:cards}を持っていません",
        "error.toy.not_an_action": "{action}はこのゲームの操作ではありません",
        "error.toy.no_stock": "このゲームに山札はありません",
        "error.toy.hands_count": "{players}人のゲームに{count}人分の手札が指定されています",
        "error.toy.hand_cards": "{count}枚が指定されています：手札は{size}枚です",
        "error.toy.whole_pack": "山は24枚のカードを1枚ずつ含まなければなりません",
        "error.toy.setup_key": "設定の項目「{key}」はありません（最初に出す席だけです）",
        "error.toy.setup_leader": "最初に出す席は0から{last}までの席です",
    },
}
