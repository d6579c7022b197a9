"""``folkdeck completion bash``: what it offers where (issue 25: after ``--rules`` it
offered game names; it must offer the game's ``NAME=VALUE`` words)."""

from __future__ import annotations

import shlex
import subprocess

import pytest

from folkdeck.cli.completion import completion_script, rule_words
from folkdeck.cli.main import _parser


def _complete(line: str, words: list[str]) -> list[str]:
    """What bash offers for ``line`` (cursor at its end), its words split as bash splits
    them (``=`` is a word of its own)."""
    script = completion_script(_parser(), "bash")
    setup = (f"COMP_LINE={shlex.quote(line)}; COMP_POINT=${{#COMP_LINE}}; "
             f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); COMP_CWORD={len(words) - 1}")
    done = subprocess.run(["bash", "-c", f'{script}\n{setup}; _folkdeck; printf "%s\\n" "${{COMPREPLY[@]}}"'],
                          text=True, capture_output=True, check=True)
    return done.stdout.split()


@pytest.mark.parametrize(("line", "words", "expected"), [
    ("folkdeck play gouji --rules ", ["folkdeck", "play", "gouji", "--rules", ""], rule_words("gouji")),
    ("folkdeck play --rules put", ["folkdeck", "play", "--rules", "put"],
     [w for w in rule_words("kaphai") if w.startswith("put")]),
    ("folkdeck play gouji --rules burning=true bur", ["folkdeck", "play", "gouji", "--rules", "burning", "=",
                                                      "true", "bur"], ["burning=true", "burning=false"]),
    ("folkdeck play gouji --rules burning=", ["folkdeck", "play", "gouji", "--rules", "burning", "="],
     ["true", "false"]),
    ("folkdeck arena cambio --bots random --rules ", ["folkdeck", "arena", "cambio", "--bots", "random",
                                                      "--rules", ""], rule_words("cambio")),
])
def test_rules_completes_the_games_option_words(line: str, words: list[str], expected: list[str]) -> None:
    offered = _complete(line, words)
    assert offered == expected
    assert "kaphai" not in offered and "gouji" not in offered


def test_an_option_after_the_rules_words_completes_as_an_option() -> None:
    offered = _complete("folkdeck play gouji --rules burning=true --se",
                        ["folkdeck", "play", "gouji", "--rules", "burning", "=", "true", "--se"])
    assert offered == ["--seed", "--seat"]
