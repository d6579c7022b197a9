"""``folkdeck completion bash|zsh``: a completion script made from the command's own parser.

Commands, each command's options, the choices of options that have them (``--lang``,
``--backend``...), the games for a GAME argument and the bots for ``--bot`` and
``--bots`` all come from the parser and the registry, so the script never falls behind.
After ``--rules`` it offers the game's options as ``NAME=VALUE`` words (each choice of an
option that has choices, the default of one that has not).

>>> from folkdeck.cli.main import _parser
>>> script = completion_script(_parser(), "bash")
>>> "complete -F _folkdeck folkdeck" in script and "kaphai" in script and "--watch" in script
True
"""

from __future__ import annotations

import argparse
import shlex
from typing import Literal, get_args, get_origin

from folkdeck.cli.info import shown_value
from folkdeck.engine.options import option_fields
from folkdeck.engine.registry import games, get_spec

_FILE_OPTIONS = ("--record", "--out", "--plot", "--db")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return [o for a in parser._actions for o in a.option_strings if o.startswith("--") or o == "-h"]


def rule_words(game: str) -> list[str]:
    """What ``--rules`` takes for ``game``, word by word.

    >>> "burning=false" in rule_words("gouji"), "deals=6" in rule_words("gouji")
    (True, True)
    """
    words: list[str] = []
    for name, (tp, default) in option_fields(get_spec(game).options_type).items():
        if tp is bool:
            values = ["true", "false"]
        elif get_origin(tp) is Literal:
            values = [shown_value(v) for v in get_args(tp)]
        else:
            values = [shown_value(default)]
        words.extend(f"{name}={value}" for value in values)
    return words


def _rules_completion(names: list[str]) -> str:
    """Bash lines: after ``--rules`` (and its words so far), the options of the game named
    on the line (``play``'s default, ``kaphai``, when none is). Bash splits words at ``=``:
    the word is taken whole from the line, and only its part after ``=`` replaced."""
    cases = "\n".join(f"      {name}) words={shlex.quote(' '.join(rule_words(name)))};;" for name in names)
    return f"""  local in_rules=0 game=kaphai word words=""
  for ((i = COMP_CWORD - 1; i > 0; i--)); do
    case "${{COMP_WORDS[i]}}" in --rules) in_rules=1; break;; -*) break;; esac
  done
  if ((in_rules)) && [[ "$cur" != -* ]]; then
    for ((i = 1; i < COMP_CWORD; i++)); do
      case " {' '.join(names)} " in *" ${{COMP_WORDS[i]}} "*) game="${{COMP_WORDS[i]}}";; esac
    done
    case "$game" in
{cases}
    esac
    word="${{COMP_LINE:0:COMP_POINT}}"; word="${{word##* }}"
    COMPREPLY=($(compgen -W "$words" -- "$word"))
    if [[ "$word" == *=* ]]; then COMPREPLY=("${{COMPREPLY[@]#"${{word%%=*}}="}}"); fi
    return
  fi
"""


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The script for ``shell`` (``bash``; ``zsh`` runs the same through bashcompinit)."""
    commands = _subcommands(parser)
    names = list(games())
    bots = sorted({b for g in names for b in get_spec(g).bots})
    choices: dict[str, list[str]] = {"--bot": bots, "--bots": bots}
    for sub in [parser, *commands.values()]:
        for action in sub._actions:
            if action.choices and action.option_strings:
                for option in action.option_strings:
                    choices[option] = [str(c) for c in action.choices]
    words = " ".join
    per_command = "\n".join(
        f"    {name}) opts={shlex.quote(words(_options(sub)))};"
        f" takes_game={int(any(a.metavar == 'GAME' for a in sub._actions))};;"
        for name, sub in commands.items())
    per_option = "\n".join(f"    {option}) COMPREPLY=($(compgen -W {shlex.quote(words(values))} -- \"$cur\")); return;;"
                           for option, values in sorted(choices.items()))
    files = "|".join(_FILE_OPTIONS)
    script = f"""# folkdeck {shell} completion: eval "$(folkdeck completion {shell})"
_folkdeck() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" cmd="" opts="" takes_game=0 i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "${{COMP_WORDS[i]}}" in -*) ;; *) cmd="${{COMP_WORDS[i]}}"; break;; esac
  done
{_rules_completion(names)}  case "$prev" in
{per_option}
    {files}) COMPREPLY=($(compgen -f -- "$cur")); return;;
  esac
  if [[ -z "$cmd" ]]; then
    COMPREPLY=($(compgen -W {shlex.quote(words([*commands, *_options(parser)]))} -- "$cur")); return
  fi
  case "$cmd" in
{per_command}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif ((takes_game)); then
    COMPREPLY=($(compgen -W {shlex.quote(words(names))} -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -F _folkdeck folkdeck
"""
    if shell == "zsh":
        script = "autoload -U +X bashcompinit && bashcompinit\n" + script
    return script


__all__ = ["completion_script"]
