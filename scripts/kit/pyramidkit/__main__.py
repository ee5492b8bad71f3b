"""`python3 -m pyramidkit`: the `pyramid` command (pyramidkit.cli). PYRAMID_PROG names it in usage lines (the
launcher in a checkout sets it to its own path)."""

import os
import sys

from pyramidkit.cli import main

sys.exit(main(sys.argv[1:], os.environ.get("PYRAMID_PROG") or "pyramid"))
