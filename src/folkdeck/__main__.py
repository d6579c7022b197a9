"""``python -m folkdeck``."""

import sys

from folkdeck.cli.main import main

sys.exit(main())
