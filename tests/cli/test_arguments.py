"""Arguments the terminal refuses with a clear message (issue 25)."""

from __future__ import annotations

from pathlib import Path

import pytest

from folkdeck.cli.main import main


@pytest.mark.parametrize("deals", ["0", "-3"])
def test_a_match_of_no_deals_is_refused(deals: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "kaphai", "--deals", deals, "--watch", "--seed", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == f"folkdeck play: --deals {deals}: a match has 1 deal or more"
    assert "Match over" not in captured.out
    assert main(["play", "kaphai", "--deals", deals, "--lang", "ja"]) == 2
    assert "1以上" in capsys.readouterr().err


@pytest.mark.parametrize(("deal", "lang", "message"), [
    ("5", "en", "folkdeck replay: deal 5 does not exist: the record has deals 0-1"),
    ("-1", "en", "folkdeck replay: deal -1 does not exist: the record has deals 0-1"),
    ("5", "ja", "folkdeck replay: ディール5はありません：この記録のディールは0〜1です"),
])
def test_a_deal_the_match_record_lacks_is_named_with_the_deals_it_has(
        deal: str, lang: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "match.json"
    assert main(["play", "kaphai", "--watch", "--seed", "1", "--deals", "2", "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["replay", str(record), "--deal", deal, "--lang", lang]) == 2
    assert capsys.readouterr().err.strip() == message
