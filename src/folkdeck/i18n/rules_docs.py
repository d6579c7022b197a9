"""The players' rules documents (``docs/rules/<game>.md``, in Japanese
``docs/rules/ja/<game>.md``): the terminal's ``folkdeck rules`` and the browser's rules
panel read them here. A language without its own document of a game gets the English one.

An installed wheel carries them as ``folkdeck/_docs/rules`` (``pyproject.toml``'s
force-include); a source checkout has them in ``docs/rules`` beside ``src``.

>>> import folkdeck
>>> all(rules_document(folkdeck.get_spec(name).rules_doc).startswith("#") for name in folkdeck.games())
True
"""

from __future__ import annotations

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
            return packaged.read_text("utf-8")
        source = Path(str(resources.files("folkdeck"))).resolve().parents[1] / "docs" / "rules" / Path(*parts)
        if source.is_file():
            return source.read_text("utf-8")
    return None


__all__ = ["rules_document"]
