"""The environment of a child process that a test starts with a minimal environment of its own.

Tests that run `python -m memdir_nb.cli` (or a README command) as a user would give the child a
small environment: PATH and HOME, not the suite's. That also dropped PYTHONDONTWRITEBYTECODE,
so each such child wrote `__pycache__/` into the checkout's `memdir_nb/` (the package is
installed editable): a run of `make test` on a shared host left 20 folders of bytecode in the
repository however the suite was started (fresh32). A child built here keeps the bytecode
settings of the process that runs the suite, and nothing else of its environment.
"""

from __future__ import annotations

import os

MINIMAL_PATH = "/usr/bin:/bin"
# How the suite was told to treat bytecode: not to write it, or to write it elsewhere.
BYTECODE_VARIABLES = ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")


def child_env(**variables: str) -> dict[str, str]:
    """PATH=/usr/bin:/bin, this process's bytecode settings, then the variables given."""
    env = {name: os.environ[name] for name in BYTECODE_VARIABLES if name in os.environ}
    env["PATH"] = MINIMAL_PATH
    env.update(variables)
    return env
