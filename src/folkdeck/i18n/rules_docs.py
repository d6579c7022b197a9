"""The players' rules documents (``docs/rules/<game>.md``, in Japanese
``docs/rules/ja/<game>.md``): the terminal's ``folkdeck rules`` and the browser's rules
panel read them here. A language without its own document of a game gets the English one.

An installed wheel carries them as ``folkdeck/_docs/rules`` (``pyproject.toml``'s
force-include); a source checkout has them in ``docs/rules`` beside ``src``.

A document comes with its Japanese (or Chinese) lines joined where the source broke a
sentence between two such characters (:func:`cjk_joined`): Markdown makes a line break a
space, and Japanese has none between words. The terminal's pager and the server's rules
endpoint (which the browser renders) both get the document from here, so both read alike.

>>> import folkdeck
>>> all(rules_document(folkdeck.get_spec(name).rules_doc).startswith("#") for name in folkdeck.games())
True
"""

from __future__ import annotations

import re
import unicodedata
from importlib import resources
from pathlib import Path, PurePosixPath

from folkdeck.i18n import LANGUAGES


def rules_document(rules_doc: str, lang: str = "en") -> str | None:
    """The Markdown of a game's rules document (its ``GameSpec.rules_doc``, e.g.
    ``docs/rules/kaphai.md``) in ``lang`` (one of :data:`folkdeck.i18n.LANGUAGES`; English
    where the language has no document of this game), or None when there is none.

    >>> rules_document("docs/rules/kaphai.md", "ja").startswith("# カップハイ")
    True
    """
    if not rules_doc:
        return None
    if lang not in LANGUAGES:
        raise ValueError(f"no rules in {lang!r} (languages: {', '.join(LANGUAGES)})")
    name = PurePosixPath(rules_doc).name
    for folder in ((lang,) if lang != "en" else ()) + ("",):
        parts = (folder, name) if folder else (name,)
        packaged = resources.files("folkdeck").joinpath("_docs", "rules", *parts)
        if packaged.is_file():
            return cjk_joined(packaged.read_text("utf-8"))
        source = Path(str(resources.files("folkdeck"))).resolve().parents[1] / "docs" / "rules" / Path(*parts)
        if source.is_file():
            return cjk_joined(source.read_text("utf-8"))
    return None


_CJK = re.compile(r"[\u2e80-\u2fff\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
"""Chinese and Japanese characters: ideographs, kana, their punctuation and full-width forms."""
_WIDE_PUNCTUATION = re.compile(r"[\u3000-\u303f\u30fb\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]")
"""Full-width punctuation (、。「」（）：…): no space beside it, whatever stands on the other side."""
_BLOCK_START = re.compile(r"\s*(#|\||>|```|([-*+]|\d+\.)\s)")
_EMPHASIS = "*_"


def cjk_joined(markdown: str) -> str:
    r"""Markdown whose paragraph lines are joined where the break falls between two Chinese or
    Japanese characters, or beside full-width punctuation: Markdown turns a line break into a
    space, and Japanese has none between words (a stray space in the middle of a sentence).
    Latin words keep their space; headings, tables, lists' items, quotes and code stay as
    they are; a break beside emphasis stays where joining would stop it from closing.

    >>> cjk_joined("ルールは\n簡単です。\n\n- 一つ目\n- 二つ目\n  の続き")
    'ルールは簡単です。\n\n- 一つ目\n- 二つ目の続き'
    >>> cjk_joined("Kap Hai\nis simple"), cjk_joined("スートは copas\n（聖杯）と paus\nです")
    ('Kap Hai\nis simple', 'スートは copas（聖杯）と paus\nです')
    >>> cjk_joined("**強い**\nです"), cjk_joined("**（最強）**\nです")
    ('**強い**です', '**（最強）**\nです')
    """
    out: list[str] = []
    in_code = False
    for line in markdown.split("\n"):
        if line.lstrip().startswith("```"):
            in_code = not in_code
        elif not in_code and out and _continues(out[-1], line):
            out[-1] += line.strip()
            continue
        out.append(line)
    return "\n".join(out)


def _continues(previous: str, line: str) -> bool:
    """Whether ``line`` goes on ``previous``'s paragraph (or list item) with no space between."""
    if not previous.strip() or not line.strip() or _BLOCK_START.match(line) or previous.endswith("  "):
        return False  # a blank line, a new block, a hard line break
    if previous.lstrip().startswith(("#", "|", "```")):
        return False
    tail, head = previous.rstrip(), line.strip()
    left, right = tail.rstrip(_EMPHASIS), head.lstrip(_EMPHASIS)
    if not left or not right:
        return False
    before, after = left[-1], right[0]
    if not (_CJK.match(before) and _CJK.match(after)) and not (
            _WIDE_PUNCTUATION.match(before) or _WIDE_PUNCTUATION.match(after)):
        return False
    # CommonMark: a run of * closing after punctuation must be followed by a space or
    # punctuation (an opening one, preceded): keep the break that lets it close.
    if left != tail and _punctuation(before) and not _punctuation(after):
        return False
    return not (right != head and _punctuation(after) and not _punctuation(before))


def _punctuation(char: str) -> bool:
    return unicodedata.category(char)[0] in "PS"


__all__ = ["cjk_joined", "rules_document"]
