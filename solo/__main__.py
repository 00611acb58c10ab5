"""``python -m solo``: the same program as the ``solo`` command (for an environment whose scripts
folder is not on PATH)."""

import sys

from solo.faces.cli import main

sys.exit(main())
