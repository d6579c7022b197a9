"""The players' rules documents (``docs/rules/<game>.md``): the terminal's ``folkdeck
rules`` and the browser's rules panel read them here.

An installed wheel carries them as ``folkdeck/_docs/rules`` (``pyproject.toml``'s
force-include); a source checkout has them in ``docs/rules`` beside ``src``.

>>> import folkdeck
>>> all(rules_document(folkdeck.get_spec(name).rules_doc).startswith("#") for name in folkdeck.games())
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path, PurePosixPath


def rules_document(rules_doc: str) -> str | None:
    """The Markdown of a game's rules document (its ``GameSpec.rules_doc``, e.g.
    ``docs/rules/kaphai.md``), or None when there is none."""
    if not rules_doc:
        return None
    name = PurePosixPath(rules_doc).name
    packaged = resources.files("folkdeck").joinpath("_docs", "rules", name)
    if packaged.is_file():
        return packaged.read_text("utf-8")
    source = Path(str(resources.files("folkdeck"))).resolve().parents[1] / "docs" / "rules" / name
    if source.is_file():
        return source.read_text("utf-8")
    return None


__all__ = ["rules_document"]
