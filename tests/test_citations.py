"""Every citation resolves for a reader of the repository.

The rules come from public pages, which ``docs/rules/<game>.md`` cites by title and section;
code and tests cite those numbered sections ("docs/rules/kaphai.md §3.2"). No file may name a
document that is not in the repository (a team's private notes or saved copies of pages), and
every "docs/rules/<game>.md §N" cited in ``src/`` and ``tests/`` must name a section that
exists in that document.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = {".py", ".md", ".js", ".json", ".html", ".css", ".txt", ".toml", ".cfg", ".ini", ".yml", ".yaml"}
FORBIDDEN = re.compile(r"seed 00|rules-notes|notes §|notes K\d")
CITATION = re.compile(r"docs/rules/(\w+)\.md`{0,2}[ ,]*((?:§\s?\d+(?:\.\d+)?[ ,and–-]*)+)")
SECTION = re.compile(r"^#{2,4} (\d+(?:\.\d+)?)\.? ", re.M)
SECTION_NUMBER = re.compile(r"§\s?(\d+(?:\.\d+)?)")


def _files(*tops: str) -> list[Path]:
    out: list[Path] = []
    for top in tops:
        path = ROOT / top
        if path.is_file():
            out.append(path)
        elif path.is_dir():
            out.extend(p for p in sorted(path.rglob("*"))
                       if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts)
    return out


def _sections(game: str) -> set[str]:
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    return set(SECTION.findall(text))


def _where(path: Path, text: str, pos: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, pos) + 1}"


def test_no_file_names_a_document_outside_the_repository() -> None:
    this = Path(__file__).resolve()
    found = []
    for path in _files("src", "tests", "docs", "README.md", "CONTRIBUTING.md"):
        if path == this:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [f"{_where(path, text, m.start())}: {m.group()!r}" for m in FORBIDDEN.finditer(text)]
    assert not found, "cite docs/rules/<game>.md sections instead:\n" + "\n".join(found)


def test_every_rules_document_has_numbered_sections() -> None:
    for doc in sorted((ROOT / "docs" / "rules").glob("*.md")):
        sections = _sections(doc.stem)
        assert {"1", "2"} <= sections, f"{doc.name} has no numbered sections"
        text = doc.read_text(encoding="utf-8")
        assert "## Quick start" in text.split("## 1.")[0], f"{doc.name} does not open with a quick start"


def test_every_rules_document_has_a_japanese_version_with_the_same_sections() -> None:
    """``docs/rules/ja/<game>.md`` (the browser's rules panel in 日本語, ``folkdeck rules
    --lang ja``) follows its English document section by section, so a § cited anywhere
    reads the same in both; it opens with a quick start and is written in Japanese."""
    kana = re.compile(r"[\u3040-\u30ff]")
    for doc in sorted((ROOT / "docs" / "rules").glob("*.md")):
        ja = ROOT / "docs" / "rules" / "ja" / doc.name
        assert ja.is_file(), f"no Japanese version of {doc.name}"
        text = ja.read_text(encoding="utf-8")
        english = doc.read_text(encoding="utf-8")
        assert SECTION.findall(text) == SECTION.findall(english), f"ja/{doc.name}: sections differ"
        assert "## クイックスタート" in text.split("## 1.")[0], f"ja/{doc.name} does not open with a quick start"
        prose = [line for line in text.splitlines()
                 if line.strip() and not line.startswith(("|", "```", "    ")) and not line.strip().startswith("`")]
        japanese = sum(1 for line in prose if kana.search(line))
        assert japanese >= 0.8 * len(prose), f"ja/{doc.name}: only {japanese} of {len(prose)} lines in Japanese"


def test_every_cited_section_exists() -> None:
    this = Path(__file__).resolve()
    missing = []
    count = 0
    for path in _files("src", "tests"):
        if path == this:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in CITATION.finditer(text):
            game = m.group(1)
            doc = ROOT / "docs" / "rules" / f"{game}.md"
            if not doc.is_file():
                missing.append(f"{_where(path, text, m.start())}: no document docs/rules/{game}.md")
                continue
            sections = _sections(game)
            for number in SECTION_NUMBER.findall(m.group(2)):
                count += 1
                if number not in sections:
                    missing.append(f"{_where(path, text, m.start())}: docs/rules/{game}.md has no §{number}")
    assert not missing, "\n".join(missing)
    assert count > 0


@pytest.mark.parametrize("text, ok", [
    ("see docs/rules/kaphai.md §3.2", True),
    ("see ``docs/rules/kaphai.md`` §3.2, §8.1", True),
    ("see docs/rules/kaphai.md §99", False),
])
def test_the_citation_pattern(text: str, ok: bool) -> None:
    m = CITATION.search(text)
    assert m is not None
    assert all(n in _sections(m.group(1)) for n in SECTION_NUMBER.findall(m.group(2))) is ok
