"""Every game folkdeck knows, registered here and only here (one import per game)."""

from folkdeck.games import kaphai

__all__ = ["kaphai"]
