"""The rules as ``folkdeck rules GAME`` shows them (issue 25): no stray ``*`` from emphasis
that does not close, and no stray space where a Japanese source line breaks."""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path

import pytest
from rich.console import Console

import folkdeck
from folkdeck.cli.info import show_rules
from folkdeck.i18n.rules_docs import cjk_joined

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
CJK = r"[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]"


def _shown(game: str, lang: str) -> str:
    console = Console(file=io.StringIO(), width=100, record=True)
    assert show_rules(game, lang, console) == 0
    return console.export_text()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", folkdeck.games())
def test_no_emphasis_mark_is_left_showing(game: str, lang: str) -> None:
    stray = [line for line in _shown(game, lang).splitlines() if "*" in line]
    assert not stray, stray


@pytest.mark.parametrize("doc", sorted(DOCS.glob("*.md")) + sorted(DOCS.glob("ja/*.md")), ids=str)
def test_no_emphasis_is_nested(doc: Path) -> None:
    """``**bold *italic***`` needs a full CommonMark parser: the browser's small renderer
    (and many others) leave its stars showing."""
    paragraphs = re.split(r"\n\s*\n", re.sub(r"`[^`]*`", "code", doc.read_text("utf-8")))
    nested = [p for p in paragraphs for bold in re.findall(r"\*\*(.+?)\*\*", p, re.S) if "*" in bold]
    assert not nested, nested


@pytest.mark.parametrize("game", folkdeck.games())
def test_japanese_lines_join_without_a_space(game: str) -> None:
    """A Japanese sentence broken over two source lines is one sentence: the pager must not
    show a space where the line broke (Markdown makes a line break a space)."""
    source = (DOCS / "ja" / Path(folkdeck.get_spec(game).rules_doc).name).read_text("utf-8")
    source = re.sub(r"[*`]", "", source)  # a space the source puts beside emphasis is its own
    spaced = re.findall(rf"{CJK} {CJK}", _shown(game, "ja"))
    assert not [pair for pair in spaced if pair not in source], spaced


def test_joining_keeps_blocks_apart() -> None:
    text = "# 見出し\n本文は\n続きます。\n\n| 表 | 列 |\n|---|---|\n\n```\nコード\nそのまま\n```\n> 引用\n"
    assert cjk_joined(text) == "# 見出し\n本文は続きます。\n\n| 表 | 列 |\n|---|---|\n\n```\nコード\nそのまま\n```\n> 引用\n"


@pytest.mark.parametrize("doc", sorted(DOCS.glob("ja/*.md")), ids=str)
def test_no_space_beside_bold_between_japanese_words(doc: Path) -> None:
    """Japanese puts no space between words, bold or not (「手番は**反時計回り**に」). A space
    stays only where CommonMark needs it: bold that begins or ends with punctuation
    (「**（最強）** です」) does not close without one."""
    text = doc.read_text("utf-8")
    opening = re.finditer(rf"{CJK} \*\*({CJK})", text)
    closing = re.finditer(rf"({CJK})\*\* {CJK}", text)
    spaced = [m.group() for m in (*opening, *closing) if unicodedata.category(m.group(1))[0] not in "PS"]
    assert not spaced, spaced
