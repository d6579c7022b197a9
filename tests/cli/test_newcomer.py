"""A newcomer's first hour (the issue's list, item by item): the terminal in this process,
through a pipe, and under a pseudo-terminal where it draws a screen and reads keys."""

from __future__ import annotations

import codecs
import importlib.util
import os
import pty
import re
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from folkdeck.cli import screen
from folkdeck.cli.main import main
from folkdeck.cli.render import styled
from folkdeck.engine.registry import games, get_spec

from .conftest import GAMES, Play, no_ansi

ENOUGH = "1\n" * 3000


class Terminal:
    """``python -m folkdeck ARGS`` on a pseudo-terminal: what it drew, keys to send."""

    def __init__(self, *args: str, rows: int = 40, cols: int = 100, echo: bool = True) -> None:
        env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "", "TERM": "xterm-256color",
               "LINES": str(rows), "COLUMNS": str(cols), "PAGER": "cat"}
        master, slave = pty.openpty()
        if not echo:  # keys sent while the program draws would land inside its escape sequences
            attrs = termios.tcgetattr(slave)
            attrs[3] &= ~termios.ECHO
            termios.tcsetattr(slave, termios.TCSANOW, attrs)
        self.proc = subprocess.Popen([sys.executable, "-m", "folkdeck", *args], stdin=slave,
                                     stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.fd = master
        self.out = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # a character may span reads

    def read(self, seconds: float) -> str:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                break
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                break
            if not data:
                break
            self.out += self._decoder.decode(data)
        return self.out

    def until(self, pattern: str, seconds: float = 30) -> str:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not re.search(pattern, no_ansi(self.out)):
            self.read(0.2)
        return no_ansi(self.out)

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=20)
        finally:
            os.close(self.fd)


# --- --watch: paced, every hand, keys that work -------------------------------------------

def test_watching_on_a_terminal_is_paced_shows_every_hand_and_obeys_its_keys() -> None:
    term = Terminal("play", "kaphai", "--watch", "--seed", "1", "--deals", "1", "--bot", "random",
                    "--delay", "30")
    try:
        shown = term.until(r"Seat 3 \(\d+ cards\)")
        assert "Keys: space pause" in shown  # the banner names the keys that do something
        for seat in range(4):  # every hand is on the table
            assert re.search(rf"Seat {seat} \(\d+ cards\): ", shown), shown[-3000:]
        term.read(1.5)
        drawn = term.out.count("\x1b[2J")
        term.read(1.5)
        assert term.out.count("\x1b[2J") == drawn, "30 s a move: nothing moves by itself"
        for step in (1, 2):  # one key, one event
            term.send("n")
            term.read(1.5)
            assert term.out.count("\x1b[2J") == drawn + step
        term.send("q")
        assert "Goodbye" in term.until("Goodbye", 10)
        assert term.close() == 0
    finally:
        term.proc.kill()


def test_watching_through_a_pipe_prints_every_hand_and_promises_no_keys(scripted: Play) -> None:
    status, out, _ = scripted("kaphai", "--watch", "--seed", "1", "--deals", "1", "--bot", "random")
    assert status == 0
    assert "Keys:" not in out and "Type a number" not in out
    assert all(re.search(rf"Seat {s} \(\d+ cards\): ", out) for s in range(4))
    assert "Bots (random) play every seat" in out


# --- playing on a terminal: one screen, redrawn; who you face; the last trick ----------------

def test_playing_on_a_terminal_redraws_one_screen() -> None:
    term = Terminal("play", "cangkul", "--seed", "2", "--deals", "1", "--delay", "0")
    try:
        shown = term.until(r"Your options:")
        assert "You face 3 bots (learned)" in shown  # the game's default bot, named
        assert "\x1b[2J" in term.out  # the screen is cleared and drawn, not scrolled
        for _ in range(8):
            term.send("1\r")
            term.read(1.0)
        assert "Last trick:" in no_ansi(term.out)
        term.send("q\r")
        assert term.close() == 0
    finally:
        term.proc.kill()


def test_the_rules_in_the_game_go_through_the_pager() -> None:
    term = Terminal("play", "kaphai", "--seed", "1", "--deals", "1")
    try:
        term.until(r"Your options:")
        term.send("r\r")  # PAGER=cat here: the whole document comes through it
        shown = term.until(r"Your options:[\s\S]*Kap Hai[\s\S]*Your options:")
        assert shown.count("Your options:") >= 2
        term.send("q\r")
        assert term.close() == 0
    finally:
        term.proc.kill()


def test_the_pager_gets_long_text_on_a_terminal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    monkeypatch.setenv("PAGER", f"tee {paged}")
    console = Console(force_terminal=True, width=60, file=open(os.devnull, "w"))  # noqa: SIM115
    screen.page(console, Text("line\n" * 300))
    assert paged.read_text().count("line") == 300
    plain = Console(file=open(tmp_path / "out.txt", "w"), width=60)  # noqa: SIM115 - not a terminal
    screen.page(plain, Text("whole"))
    plain.file.close()
    assert (tmp_path / "out.txt").read_text().strip() == "whole"


def test_pace_keys_without_a_terminal_are_a_plain_delay() -> None:
    start = time.monotonic()
    screen.Pace(delay=0.2).wait()
    assert 0.15 < time.monotonic() - start < 1.0


# --- decisions: out-of-turn chances are asked for, refusals name the range ------------------

@pytest.mark.parametrize(("game", "seed"), [("cambio", 1), ("gouji", 2)])
def test_an_out_of_turn_chance_is_asked_for(scripted: Play, game: str, seed: int) -> None:
    """Cambio's cucco and Gou Ji's xian come while another seat is on turn: the person is
    asked, told who is on turn, and may let the chance go with Enter."""
    _, out, _ = scripted(game, "--seed", str(seed), "--deals", "1", "--bot", "random", script=ENOUGH)
    found = re.search(r"Your options: 1\) (.*)\n(Seat \d) is on turn, but you may act now, out of turn: "
                      r"pick from the list, or press Enter to let play go on", out)
    assert found, out[-3000:]
    _, passed, _ = scripted(game, "--seed", str(seed), "--deals", "1", "--bot", "random",
                            script="\n" + ENOUGH)  # Enter first: the chance goes, play goes on
    assert "Match over" in passed


@pytest.mark.parametrize("typed", ["0", "99"])
def test_a_number_is_always_a_choice(scripted: Play, typed: str) -> None:
    _, out, _ = scripted("kaphai", "--seed", "5", "--deals", "1", script=f"{typed}\nq\n")
    assert re.search(rf"Refused: there is no play {typed}: type a number from 1 to \d+", out)
    assert "not a card" not in out and "bad suit" not in out


def test_a_person_is_told_which_bots_they_face(scripted: Play) -> None:
    for game in GAMES:
        _, out, _ = scripted(game, "--seed", "1", "--deals", "1", script="q\n")
        spec = get_spec(game)
        assert f"bots ({spec.default_bot})" in out, (game, out[:600])


# --- help, --version, completion --------------------------------------------------------------

def test_bare_folkdeck_is_help_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "play" in out and "folkdeck play kaphai" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and re.fullmatch(r"folkdeck \S+\n", capsys.readouterr().out)


@pytest.mark.parametrize("command", ["play", "rules", "arena", "schema", "bench"])
def test_help_lists_the_games(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert all(g in out for g in games()), out


def test_play_help_gives_each_games_real_default_bot(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "strongest" not in out
    for game in games():
        assert f"{game} {get_spec(game).default_bot}" in out


def test_the_completion_script_is_valid_bash_and_knows_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", "bash"]) == 0
    script = capsys.readouterr().out
    assert all(g in script for g in games()) and "--watch" in script and "greedy" in script
    checked = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True)
    assert checked.returncode == 0, checked.stderr
    completed = subprocess.run(
        ["bash", "-c", script + '\nCOMP_WORDS=(folkdeck play ka); COMP_CWORD=2; _folkdeck; echo "${COMPREPLY[@]}"'],
        text=True, capture_output=True)
    assert completed.stdout.split() == ["kaphai"]


# --- folkdeck games ---------------------------------------------------------------------------

def test_games_shows_true_false_as_typed_and_what_each_option_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out  # a pipe: plain lines, nothing cut
    assert not re.search(r"\t(False|True)\t|(True|False) \|", out)
    row = next(line for line in out.splitlines() if line.strip().startswith("owl_refuses_when_asked"))
    assert row.split("\t")[1:] == ["false", "true | false",
                                   "an OWL asked to exchange refuses and calls cucco"]
    assert max(map(len, out.splitlines())) > 100  # long help lines stay whole through a pipe


def test_games_on_a_terminal_is_a_table_with_the_meanings() -> None:
    from folkdeck.cli.info import list_games

    console = Console(force_terminal=True, width=200, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    list_games("en", console)
    text = console.export_text()
    assert "what it does" in text and "an OWL asked to exchange refuses" in text


# --- extras and bench ---------------------------------------------------------------------

def test_arena_plot_without_matplotlib_fails_before_playing(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the deals were played before the plot was refused")

    monkeypatch.setattr("folkdeck.cli.arena.run_arena", never)
    assert main(["arena", "kaphai", "--bots", "random,random,random,random", "--plot", "x.png", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "matplotlib" in err and "pip install 'folkdeck[arena]' (in a clone" in err


def test_serve_without_its_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    # Issue 25: not only a clone's command (a wheel's user has no clone).
    assert "install the server extra: pip install 'folkdeck[server]' (in a clone" in err


def test_bench_takes_about_the_seconds_asked(capsys: pytest.CaptureFixture[str]) -> None:
    # CPU time of this process, not the wall clock: bench budgets CPU seconds, and a busy
    # machine (CI runs the suite on two workers) stretches the wall time, not the CPU time.
    start = time.process_time()
    assert main(["bench", "kaphai", "gouji", "--seconds", "0.5", "--json"]) == 0
    assert time.process_time() - start < 2.5  # 2 games x 0.5 s, the floor loop, and loading them
    assert capsys.readouterr().out.count('"deals"') == 2


def test_black_suits_have_no_colour_that_vanishes_on_light_terminals() -> None:
    from folkdeck.cli.render import TerminalRenderer

    text = styled(TerminalRenderer("en").cards("AS 10H"))
    styles = {text.plain[s.start:s.end]: str(s.style) for s in text.spans}
    assert styles == {"A♠": "bold", "10♥": "bold red"}
