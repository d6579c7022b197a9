"""``/api/games``: every game as its ``GameSpec`` declares it; rules, view schemas, catalogs.

The browser needs no game knowledge: a game's entry says how its cards are shown
(``card_notation``), its teams for the default number of players, its out-of-turn
``windows``, how its match ends (``match_end``), why deal records may wait
(``record_embargo``), its bots, options and presets. ``/i18n/<lang>.json`` is the merged
message catalog and ``/i18n/notation.json`` the display notations (the same files the
terminal renders with).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from fastapi import APIRouter
from fastapi.responses import JSONResponse

import folkdeck
from folkdeck.engine.match_base import first_dealer_free, first_seat_option
from folkdeck.engine.options import describe_options
from folkdeck.engine.protocol import Game, GameSpec
from folkdeck.engine.view import View, json_schema
from folkdeck.i18n import LANGUAGES, catalog, notations
from folkdeck.i18n.rules_docs import rules_document
from folkdeck.server.errors import ServerError

router = APIRouter(prefix="/api/games", tags=["games"])
i18n_router = APIRouter(prefix="/i18n", tags=["i18n"])

CACHE = {"Cache-Control": "public, max-age=300"}


def describe_game(spec: GameSpec) -> dict[str, object]:
    """What a lobby needs of a game, from its spec alone (JSON: its option values are the spec's)."""
    end = spec.match_end
    return {
        "name": spec.name, "title": spec.title, "summary": spec.summary,
        "min_players": spec.min_players, "max_players": spec.max_players,
        "default_players": spec.default_players,
        "card_notation": spec.card_notation, "pack": spec.card_notation,
        "teams": [list(team) for team in spec.teams(spec.default_players)],
        "windows": list(spec.windows),
        "match_end": {"deals": end.deals, "default_deals": end.default_deals, "reason": end.reason},
        "record_embargo": spec.record_embargo or None,
        "options": [{"name": n, "default": d, "choices": c} for n, d, c in describe_options(spec.options_type)
                    if n != "players"],
        "presets": {k: dict(v) for k, v in spec.presets.items()},
        "bots": list(spec.bots), "default_bot": spec.default_bot,
        **_first_seat(spec.make(spec.options_type())),
    }


def _first_seat(game: Game) -> dict[str, object]:
    """Which start the players choose: ``first_seat``, the field of ``POST /api/tables``
    that chooses it (``first_dealer``, ``first_kai_pai``; ``null``: the rules fix the start),
    and ``first_dealer_free``, kept for the clients that read it."""
    return {"first_seat": first_seat_option(game), "first_dealer_free": first_dealer_free(game)}


def _spec(name: str) -> GameSpec:
    try:
        return folkdeck.get_spec(name)
    except folkdeck.UnknownGameError as exc:
        raise ServerError(404, exc.code, exc.reason, **exc.params) from exc


@router.get("")
def list_games() -> JSONResponse:
    return JSONResponse(_games_json())


@cache
def _games_json() -> list[dict[str, object]]:
    """Made once: the registry and the specs do not change while the server runs."""
    return [describe_game(folkdeck.get_spec(name)) for name in folkdeck.games()]


@router.get("/{name}")
def get_game(name: str) -> Mapping[str, object]:  # JSON (a type FastAPI reads)
    return describe_game(_spec(name))


@router.get("/{name}/rules")
def get_rules(name: str, lang: str = "en") -> dict[str, str]:
    """The players' rules as Markdown (``docs/rules/<game>.md``; ``?lang=ja``: the Japanese
    ``docs/rules/ja/<game>.md``, or the English one where there is none)."""
    spec = _spec(name)
    if lang not in LANGUAGES:
        raise ServerError(404, "no_language", "server.no_language", lang=lang, languages=", ".join(LANGUAGES))
    text = rules_document(spec.rules_doc, lang)
    if text is None:
        raise ServerError(404, "no_rules", "server.no_rules", game=spec.name)
    return {"game": spec.name, "markdown": text}


@router.get("/{name}/schema")
def get_schema(name: str) -> Mapping[str, object]:
    """The JSON Schema of the game's views (what ``obs`` in a state message holds)."""
    spec = _spec(name)
    return json_schema(spec.view_type or View, title=f"{spec.title} view")


@i18n_router.get("/notation.json")
def get_notation() -> JSONResponse:
    """Display notations of the packs (``spanish``: ``Q`` shows as ``11``...)."""
    return JSONResponse(dict(notations()), headers=CACHE)


@i18n_router.get("/{lang}.json")
def get_catalog(lang: str) -> JSONResponse:
    """The merged message catalog of a language (``en``, ``ja``)."""
    if lang not in LANGUAGES:
        raise ServerError(404, "no_language", "server.no_language", lang=lang, languages=", ".join(LANGUAGES))
    return JSONResponse(dict(catalog(lang)), headers=CACHE)
