"""``folkdeck games`` and ``folkdeck rules GAME``."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from folkdeck.engine.options import describe_options
from folkdeck.engine.registry import games, get_spec


def rules_text(game: str) -> str | None:
    """The players' rules (Markdown) of a game, from the package or the source tree."""
    spec = get_spec(game)
    name = Path(spec.rules_doc).name
    here = Path(__file__).resolve()
    for candidate in (here.parents[1] / "_docs" / "rules" / name,
                      here.parents[3] / "docs" / "rules" / name):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    return None


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
    console = Console()
    if text is None:
        console.print(f"no rules document found for {game}")
        return 1
    console.print(Markdown(text))
    return 0
