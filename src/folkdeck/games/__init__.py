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

from folkdeck.games import kaphai  # noqa: E402
from folkdeck.games import gouji  # noqa: E402
from folkdeck.games import cambio  # noqa: E402
from folkdeck.games import cangkul  # noqa: E402

__all__ = ["kaphai"]
