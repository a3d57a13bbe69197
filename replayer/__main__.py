"""``python -m replayer``: the bezique command line."""

import sys

from .cli import main

sys.exit(main())
