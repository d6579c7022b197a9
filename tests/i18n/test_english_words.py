"""English screens are in English (issue 35): no Chinese or Japanese characters in the English
catalog (the names in those scripts belong on the Japanese screens and the rules pages), and an
option's help names its choices in words, never by their codes (the choices' own labels are
``term.<game>.option.<name>.<value>``)."""

from __future__ import annotations

import json
import re

import pytest

from folkdeck.i18n import catalog

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
OWN_NAME = {"ui.other_language"}  # the Japanese screen's name, written in Japanese on purpose


def test_the_english_catalog_has_no_chinese_or_japanese_characters() -> None:
    found = {key: value for key, value in catalog("en").items()
             if key not in OWN_NAME and CJK.search(json.dumps(value, ensure_ascii=False))}
    assert not found


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_option_help_names_no_choice_by_its_code(lang: str) -> None:
    messages = catalog(lang)
    bad = []
    for key in messages:
        if ".option." not in key or key.endswith(".help") or key.count(".") != 4:
            continue  # term.<game>.option.<name>.<value>: a choice's label
        game, name, choice = key.split(".")[1], key.split(".")[3], key.split(".")[4]
        help_text = str(messages.get(f"term.{game}.option.{name}.help", ""))
        if "_" in choice and re.search(rf"\b{re.escape(choice)}\b", help_text):
            bad.append((key, help_text))
    assert not bad
