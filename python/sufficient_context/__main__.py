"""``python -m sufficient_context``: the command line."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
