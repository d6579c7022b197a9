"""What a missing extra says (issue 25): the extra's name and a command that works for a
wheel's user as well as in a clone."""

from __future__ import annotations

import subprocess
import sys


def test_folkdeck_rl_without_its_extra_names_the_extra() -> None:
    """``import folkdeck.rl`` without numpy (blocked here) gave a bare ModuleNotFoundError."""
    code = ("import sys; sys.modules['numpy'] = None\n"
            "try:\n    import folkdeck.rl\n"
            "except ImportError as exc:\n    print(type(exc).__name__, '|', exc)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    kind, _, message = done.stdout.partition(" | ")
    assert kind == "ImportError", done.stdout + done.stderr
    assert "numpy" in message and "pip install 'folkdeck[rl]'" in message, message
