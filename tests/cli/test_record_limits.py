"""The record reader's limits (docs/records.md, "Limits of the reader"; issue 37): they hold
for the whole file, the fields kept as they are included, and are stated once, for
``folkdeck replay``, the library and the server alike (the server's side:
``tests/server/test_boundary.py``). A refusal quotes a long name from the record shortened."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from folkdeck.cli.main import main
from folkdeck.engine.errors import MalformedRecordError
from folkdeck.engine.jsonin import MAX_BYTES, MAX_DEPTH, MAX_INT_DIGITS
from folkdeck.engine.record import loads
from folkdeck.errors import QUOTE_CHARS
from folkdeck.i18n import catalog

DOC = Path(__file__).resolve().parents[2] / "docs" / "records.md"
DEAL = {"format": "folkdeck-record/1", "game": "kaphai", "rules": {"players": 4}, "seed": 1, "actions": []}

WITHIN = {
    "nested as deep as the limit": "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1),  # the record is a level
    "an integer as long as the limit": "9" * MAX_INT_DIGITS,
    "a character beyond the BMP, as a surrogate pair": '"\\ud83c\\udca1"',
}
"""An extra top-level field's JSON at the reader's limits: kept as it is."""
BEYOND = {
    "json_too_deep": "[" * MAX_DEPTH + "]" * MAX_DEPTH,
    "json_int_too_long": "9" * 301,
    "json_surrogate": '"\\ud800"',
    "json_not_a_number": "NaN",
}
"""An extra top-level field's JSON one step beyond a limit, by the reason of its refusal."""


def with_note(note: str) -> str:
    """The deal record :data:`DEAL` with one more top-level field, ``note``, of JSON ``note``."""
    return json.dumps(DEAL)[:-1] + f', "note": {note}}}'


def _replay(capsys: pytest.CaptureFixture[str], path: Path, text: str) -> tuple[int, str]:
    path.write_text(text, encoding="utf-8")
    status = main(["replay", str(path)])
    return status, capsys.readouterr().err


@pytest.mark.parametrize("note", WITHIN.values(), ids=WITHIN.keys())
def test_an_extra_field_within_the_limits_is_kept(note: str, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert loads(with_note(note)).to_dict()["note"] == json.loads(note)
    assert _replay(capsys, tmp_path / "r.json", with_note(note)) == (0, "")


@pytest.mark.parametrize(("reason", "note"), BEYOND.items(), ids=BEYOND.keys())
def test_an_extra_field_beyond_a_limit_is_refused_as_any_field(reason: str, note: str, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(MalformedRecordError) as err:
        loads(with_note(note))
    assert err.value.reason == reason
    status, said = _replay(capsys, tmp_path / "r.json", with_note(note))
    assert status == 2 and said.count("\n") == 1 and err.value.render("en") in said


def _limits_section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### Limits of the reader")
    return text[start:text.index("\n#", start + 1)]


def test_the_limits_are_stated_once_with_the_readers_values() -> None:
    """Issue 37: the limits were documented for the server only, and not as the reader's."""
    section = _limits_section()
    assert MAX_BYTES == 4 * 1024 * 1024 and "a file over 4 MiB" in section
    assert f"deeper than {MAX_DEPTH} levels" in section
    assert f"more than {MAX_INT_DIGITS} digits" in section
    assert "`folkdeck replay`" in section and "`POST /api/replay`" in section
    assert f"at most {QUOTE_CHARS} characters" in section
    reasons = set(re.findall(r"`(json_[a-z0-9_]+)`", section))
    assert reasons >= {*BEYOND, "json_too_large", "json_not_utf8", "json_syntax"}
    for lang in ("en", "ja"):
        assert all(f"error.{reason}" in catalog(lang) for reason in reasons)


def test_a_refusal_quotes_a_long_key_shortened(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 37: a 1,000-character key was repeated whole (twice: in the field and the message)."""
    key = "k" * 1000
    for record in (json.dumps({**DEAL, "rules": {"players": 4, key: 1}}),
                   json.dumps({**DEAL, "setup": {key: 1}}),
                   with_note("1")[:-1] + f', "{key}": "\\ud800"}}'):
        status, said = _replay(capsys, tmp_path / "r.json", record)
        assert status == 2 and "k" * (QUOTE_CHARS + 1) not in said and "k" * QUOTE_CHARS + "…" in said, said
