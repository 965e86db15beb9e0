"""`python -m memdir_nb.cli` runs the same command line as the installed `memdir-nb` script."""

import sys

from memdir_nb.cli.main import main

sys.exit(main())
