"""A new table's configuration from a creation request, step by step: the game and its
options, the match's length, the seats (with their tokens), then the configuration that
the store keeps (:meth:`folkdeck.server.manager.TableManager.create` stores and deals it).

Every refusal is an :class:`~folkdeck.engine.errors.InvalidConfigError` naming the field.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import folkdeck
from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.match_base import first_seat_option, start_match
from folkdeck.engine.options import options_to_dict
from folkdeck.engine.protocol import Game, GameSpec
from folkdeck.json_types import JSONObject
from folkdeck.server.schemas import FIRST_SEATS, SeatIn, TableCreate
from folkdeck.server.tables import token_hash
from folkdeck.server.text import check_name


@dataclass(frozen=True, slots=True)
class NewSeats:
    """The seats of a new table: each seat's configuration (its token hashed), and the
    tokens given to the creator (empty for bots and open seats)."""

    configs: list[JSONObject]
    tokens: list[str]


def load_game(req: TableCreate) -> Game:
    """The requested game with its preset and options (``players`` among them).

    :raises InvalidConfigError: an unknown game, preset or option, or a seed on a live table.
    """
    options: dict[str, object] = dict(req.options)
    if req.players is not None:
        options["players"] = req.players
    game = folkdeck.load(req.game, req.preset, **options)
    if req.seed is not None and not req.practice:
        raise InvalidConfigError("server.seed_needs_practice", field="seed")
    return game


def deal_count(req: TableCreate, game: Game) -> int | None:
    """The deals in the match (the game's default unless given); a first seat the game
    fixes (a first dealer, a first kai pai) is refused here, before the table is made.

    :raises InvalidConfigError: deals for a game whose match is not counted in deals, or
        a first seat the game does not let the players choose (``first_dealer_not_free``...).
    """
    end = game.spec.match_end
    if req.deals is not None and end.deals == "none":
        raise InvalidConfigError("server.deals_not_counted", field="deals", game=game.spec.name)
    deals = req.deals if req.deals is not None else end.default_deals
    chosen = _chosen_first_seats(req)
    if chosen:
        start_match(game, deals=deals, rng=None, chosen=chosen)
    return deals


def _chosen_first_seats(req: TableCreate) -> dict[str, int]:
    """The first seats the request chose (``{"first_kai_pai": 3}``)."""
    fields = {name: getattr(req, name) for name in FIRST_SEATS}
    return {name: seat for name, seat in fields.items() if isinstance(seat, int)}


def first_seat(req: TableCreate, game: Game) -> dict[str, int]:
    """The match's first seat as the store keeps it: the one the request chose; else, on a
    live table of a game whose rules leave it free (a first dealer, a first kai pai), one
    drawn at random, as a table of people would pick anyone. A practice
    table keeps the game's own default, so that its seed deals as the library does."""
    chosen = _chosen_first_seats(req)
    option = first_seat_option(game)
    if chosen or option is None or req.practice:
        return chosen
    return {option: secrets.randbelow(game.num_players)}


def new_seats(req: TableCreate, spec: GameSpec, players: int) -> NewSeats:
    """Every seat as asked (by default a person at seat 0 and bots elsewhere).

    :raises InvalidConfigError: a seat list of another length, an unknown bot or a bad name.
    """
    given = list(req.seats)
    if len(given) not in (0, players):
        raise InvalidConfigError("server.seats_count", field="seats", players=players, given=len(given))
    seats = NewSeats([], [])
    for i in range(players):
        config, token = _seat(i, given[i] if given else None, spec)
        seats.configs.append(config)
        seats.tokens.append(token)
    return seats


def _seat(i: int, seat_in: SeatIn | None, spec: GameSpec) -> tuple[JSONObject, str]:
    """Seat ``i``'s configuration and its token (empty for a bot or an open seat)."""
    kind = seat_in.kind if seat_in else ("human" if i == 0 else "bot")
    bot = _bot(i, seat_in, spec) if kind == "bot" else None
    given = seat_in.name if seat_in and seat_in.name.strip() else ""
    name = check_name(given, f"seats[{i}].name") if given else (f"{bot} bot" if bot else f"Player {i + 1}")
    token = secrets.token_urlsafe(18) if kind == "human" else ""
    config: JSONObject = {"kind": "human" if kind == "open" else kind, "bot": bot, "name": name,
                          "token": token_hash(token) if token else None}
    if kind == "open":  # a person's seat that anyone may take
        config["open"] = True
    return config, token


def _bot(i: int, seat_in: SeatIn | None, spec: GameSpec) -> str:
    """The bot of bot seat ``i``: the one asked for, or the game's own."""
    bot = seat_in.bot if seat_in and seat_in.bot else spec.default_bot
    if bot not in spec.bots:
        raise InvalidConfigError("server.unknown_bot", field=f"seats[{i}].bot", bot=bot, bots=", ".join(spec.bots))
    return bot


def table_config(req: TableCreate, game: Game, deals: int | None, seats: NewSeats, watch: str) -> JSONObject:
    """What the store keeps of a new table (``watch``: the spectator token, kept hashed)."""
    # Live tables are shuffled from the server's own randomness: a seed chosen by the
    # table's creator would let them compute every hand. Practice tables may choose it,
    # and every seat is told (``practice`` in the public data and every view).
    seed = req.seed if req.seed is not None else secrets.randbits(62)
    spec = game.spec
    config: JSONObject = {
        "game": spec.name, "options": {**options_to_dict(game.options), "players": game.num_players},
        "deals": deals, "seed": seed, "practice": req.practice, "seats": list(seats.configs),
        "watch": token_hash(watch), "turn_seconds": req.turn_seconds, "auto_bot": spec.default_bot}
    config.update(first_seat(req, game))
    return config


__all__ = ["NewSeats", "deal_count", "first_seat", "load_game", "new_seats", "table_config"]
