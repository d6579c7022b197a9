"""The players' rules documents (``docs/rules/<game>.md``), read without the CLI.

An installed wheel carries them as ``folkdeck/_docs/rules`` (``pyproject.toml``'s
force-include); a source checkout has them in ``docs/rules`` beside ``src``.

>>> import folkdeck
>>> all(rules_text(name).startswith("#") for name in folkdeck.games())
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path, PurePosixPath

from folkdeck.engine.registry import get_spec


def rules_text(game: str) -> str | None:
    """The rules (Markdown) of a game, or None if it has no document.

    :raises UnknownGameError: for a name the registry does not know.
    """
    spec = get_spec(game)
    if not spec.rules_doc:
        return None
    name = PurePosixPath(spec.rules_doc).name
    packaged = resources.files("folkdeck").joinpath("_docs", "rules", name)
    if packaged.is_file():
        return packaged.read_text("utf-8")
    source = Path(str(resources.files("folkdeck"))).resolve().parents[1] / "docs" / "rules" / name
    if source.is_file():
        return source.read_text("utf-8")
    return None


__all__ = ["rules_text"]
