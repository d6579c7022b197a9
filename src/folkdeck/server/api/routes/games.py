"""``/api/games``: the games, their options (with defaults), presets, bots and rules."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

import folkdeck
from folkdeck.cli.info import rules_text
from folkdeck.engine.errors import UnknownGameError
from folkdeck.engine.options import describe_options
from folkdeck.server.tables import PACKS

router = APIRouter(prefix="/api/games", tags=["games"])


def _game(name: str) -> dict[str, Any]:
    spec = folkdeck.get_spec(name)
    return {
        "name": spec.name, "title": spec.title, "summary": spec.summary,
        "min_players": spec.min_players, "max_players": spec.max_players,
        "default_players": spec.default_players, "pack": PACKS.get(spec.name, "french"),
        "options": [{"name": n, "default": d, "choices": c} for n, d, c in describe_options(spec.options_type)
                    if n != "players"],
        "presets": {k: dict(v) for k, v in spec.presets.items()},
        "bots": list(spec.bots), "default_bot": spec.default_bot,
    }


@router.get("")
def list_games() -> list[dict[str, Any]]:
    return [_game(name) for name in folkdeck.games()]


@router.get("/{name}")
def get_game(name: str) -> dict[str, Any]:
    try:
        return _game(name)
    except UnknownGameError as exc:
        raise HTTPException(404, exc.to_dict()) from exc


@router.get("/{name}/rules")
def get_rules(name: str) -> dict[str, str]:
    """The players' rules as Markdown (``docs/rules/<game>.md``)."""
    try:
        text = rules_text(name)
    except UnknownGameError as exc:
        raise HTTPException(404, exc.to_dict()) from exc
    if text is None:
        raise HTTPException(404, {"error": "no_rules", "message": f"no rules document for {name}"})
    return {"game": name, "markdown": text}
