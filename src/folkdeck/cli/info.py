"""``folkdeck games``, ``folkdeck rules GAME`` and ``folkdeck schema GAME``."""

from __future__ import annotations

import json

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from folkdeck.cli.errors import CliError
from folkdeck.engine.options import describe_options
from folkdeck.engine.registry import games, get_spec
from folkdeck.engine.view import json_schema
from folkdeck.i18n.rules_docs import rules_document


def rules_text(game: str) -> str | None:
    """The players' rules (Markdown) of a game, from the package or the source tree."""
    return rules_document(get_spec(game).rules_doc)


def list_games() -> int:
    console = Console()
    for name in games():
        spec = get_spec(name)
        table = Table(title=f"{spec.title} ({spec.name}): {spec.summary}", title_justify="left")
        table.add_column("option")
        table.add_column("default")
        table.add_column("choices")
        for row in describe_options(spec.options_type):
            table.add_row(*row)
        console.print(table)
        console.print(f"  players {spec.min_players}-{spec.max_players}; presets: "
                      f"{', '.join(spec.presets) or '-'}; bots: {', '.join(spec.bots)}\n")
    return 0


def show_rules(game: str) -> int:
    text = rules_text(game)
    if text is None:
        raise CliError("no_rules", exit_status=1, game=get_spec(game).name)
    Console().print(Markdown(text))
    return 0


def show_schema(game: str) -> int:
    """Print the JSON Schema of the game's view (what ``replay --view`` and the server send).

    :raises CliError: for a game that has not declared its view type.
    """
    spec = get_spec(game)
    if spec.view_type is None:
        raise CliError("no_view_type", game=spec.name)
    print(json.dumps(json_schema(spec.view_type, title=f"{spec.name} view"), indent=2, ensure_ascii=False))
    return 0
