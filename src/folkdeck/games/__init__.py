"""Every game folkdeck knows, registered here and only here (one import per game).

The module is callable: ``folkdeck.games()`` returns the registered game names.
"""

import sys
import types

from folkdeck.engine import registry


class _GamesPackage(types.ModuleType):
    def __call__(self) -> tuple[str, ...]:
        return registry.games()


sys.modules[__name__].__class__ = _GamesPackage

from folkdeck.games import (
    cambio,
    cangkul,
    gouji,
    kaphai,
)

__all__ = ["cambio", "cangkul", "gouji", "kaphai"]
