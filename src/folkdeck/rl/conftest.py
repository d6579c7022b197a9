"""The doctests of :mod:`folkdeck.rl` need the ``rl`` extra: without it (``make test``
installs only ``dev``) pytest leaves these modules out instead of failing to import them."""

import importlib.util

_EXTRA = ("numpy", "gymnasium", "pettingzoo", "pyspiel")

collect_ignore_glob = [] if all(importlib.util.find_spec(m) for m in _EXTRA) else ["*.py"]
