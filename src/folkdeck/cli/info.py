"""``folkdeck games``, ``folkdeck rules GAME`` and ``folkdeck schema GAME``.

``games`` lists each game's options with their defaults and choices written the way
``--rules`` takes them (``true``/``false``, not Python's ``True``), and what each option
does from the catalog (``term.<game>.option.<name>.help``). On a terminal they are tables;
through a pipe, plain lines that nothing cuts off.

>>> from folkdeck.cli.render import TerminalRenderer
>>> r = TerminalRenderer("en")
>>> shown_value(True), shown_value(("1", "2")), shown_value(None)
('true', '1,2', 'none')
>>> choices_of(bool, r), choices_of(int, r)
('true | false', 'a whole number')
"""

from __future__ import annotations

import json
import types
import typing
from typing import Literal, get_args, get_origin

from rich.cells import cell_len
from rich.console import Console
from rich.markdown import Markdown
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from folkdeck.cli.errors import CliError
from folkdeck.cli.render import TerminalRenderer
from folkdeck.cli.screen import page
from folkdeck.engine.options import option_fields
from folkdeck.engine.protocol import GameSpec
from folkdeck.engine.registry import games, get_spec
from folkdeck.engine.view import json_schema
from folkdeck.i18n.rules_docs import rules_document


def rules_text(game: str, lang: str = "en") -> str | None:
    """The players' rules (Markdown) of a game in ``lang``, from the package or the source
    tree, its Japanese lines joined as the browser gets them too
    (:func:`folkdeck.i18n.rules_docs.cjk_joined`)."""
    return rules_document(get_spec(game).rules_doc, lang)


def shown_value(value: object) -> str:
    """An option's value as ``--rules`` takes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, tuple | list):
        return ",".join(shown_value(v) for v in value)
    return str(value)


def choices_of(tp: object, r: TerminalRenderer) -> str:
    """What an option of type ``tp`` may be set to."""
    origin = get_origin(tp)
    if origin is Literal:
        return " | ".join(shown_value(v) for v in get_args(tp))
    if origin in (types.UnionType, typing.Union):
        inner = [choices_of(a, r) for a in get_args(tp) if a is not type(None)]
        return " | ".join([*inner, "none"])
    if tp is bool:
        return "true | false"
    if tp is int:
        return r.cli("games.number", sentence=False)
    if tp is float:
        return r.cli("games.decimal", sentence=False)
    if origin is tuple or tp is tuple:
        return r.cli("games.list", sentence=False)
    return str(getattr(tp, "__name__", tp))


def option_rows(spec: GameSpec, r: TerminalRenderer) -> list[tuple[str, str, str, str]]:
    """``(name, default, choices, what it does)`` for each of a game's options."""
    rows = []
    for name, (tp, default) in option_fields(spec.options_type).items():
        key = f"term.{spec.name}.option.{name}.help"
        meaning = r.message(key, sentence=False) if r.has(key) else ""
        rows.append((name, shown_value(default), choices_of(tp, r), meaning))
    return rows


def _about(spec: GameSpec, r: TerminalRenderer) -> list[str]:
    bots = ", ".join(spec.bots)
    return [r.cli("games.players", {"low": spec.min_players, "high": spec.max_players,
                                    "default": spec.default_players}),
            r.cli("games.presets", {"presets": ", ".join(spec.presets) or r.cli("games.none", sentence=False)}),
            r.cli("games.bots", {"bots": bots, "default": spec.default_bot})]


WIDEST = (0.12, 0.2)
"""The widest the default and choices columns may be, as shares of the terminal's width (a
longer cell wraps); the option's name is never narrower than the longest name, and the
meaning gets the rest."""
NARROWEST_MEANING = 30
"""Below this many columns for the meaning, the options are listed one under another
instead of as a table (an 80-column terminal): a squeezed table reads worse."""
_TABLE_FRAME = 13
"""What a four-column table's borders and padding take of the width."""


def list_games(lang: str = "en", console: Console | None = None) -> int:
    console = console or Console(highlight=False)
    r = TerminalRenderer(lang)
    heads = [r.cli(f"games.{k}", sentence=False) for k in ("option", "default", "choices", "meaning")]
    listed = []
    for name in games():
        spec = get_spec(name)
        r.game = spec.name
        title = r.cli("games.title", {
            "title": r.messages.get(f"term.{spec.name}.title", spec.title), "name": spec.name,
            "summary": r.messages.get(f"term.{spec.name}.summary", spec.summary)}, sentence=False)
        listed.append((title, option_rows(spec, r), _about(spec, r)))
    if console.is_terminal:
        # One set of column widths for every game's table: the columns line up down the page.
        longest = [max(cell_len(row[i]) for _, rows, _ in listed for row in [tuple(heads), *rows])
                   for i in range(3)]
        widths = [longest[0], *(min(n, max(int(console.width * share), 8))
                                for n, share in zip(longest[1:], WIDEST, strict=True))]
        stacked = console.width - sum(widths) - _TABLE_FRAME < NARROWEST_MEANING
        for title, rows, about in listed:
            console.print(Text(title, style="bold"))
            if stacked:
                _print_stacked(console, r, rows)
            else:
                _print_table(console, heads, rows, widths)
            for line in about:
                console.print(Text("  " + line))
            console.print()
    else:  # a pipe: one line per option, whole, tab-separated after the name
        for title, rows, about in listed:
            print(title)
            for row in rows:
                print("  " + "\t".join(row))
            for line in about:
                print("  " + line)
            print()
    print(r.cli("games.usage"))
    return 0


def _print_table(console: Console, heads: list[str], rows: list[tuple[str, str, str, str]],
                 widths: list[int]) -> None:
    table = Table(expand=True)
    for head, width in zip(heads, widths, strict=False):
        table.add_column(head, width=width, overflow="fold")
    table.add_column(heads[-1], ratio=1, overflow="fold")
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)


def _print_stacked(console: Console, r: TerminalRenderer, rows: list[tuple[str, str, str, str]]) -> None:
    """A narrow terminal's options: the name whole on its line with its default and choices,
    what it does indented under it; every line wraps, nothing is cut."""
    for name, default, choices, meaning in rows:
        line = Text("  ")
        line.append(name, style="bold")
        line.append("  " + r.cli("games.stacked", {"default": default, "choices": choices}, sentence=False))
        console.print(line)
        if meaning:
            console.print(Padding(Text(meaning), (0, 0, 0, 6), expand=False))


def show_rules(game: str, lang: str = "en", console: Console | None = None) -> int:
    """The rules, through a pager on a terminal (they are long), whole through a pipe."""
    text = rules_text(game, lang)
    if text is None:
        raise CliError("no_rules", exit_status=1, game=get_spec(game).name)
    page(console or Console(), Markdown(text))
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
