"""The current user's home folder as the password database names it (not from $HOME)."""

from __future__ import annotations

import os
from pathlib import Path


class HomeNotFoundError(ValueError):
    """Neither $HOME nor the password database names the current user's home folder."""


def home_from_passwd() -> Path:
    """The current user's home directory from the password database (not from $HOME).

    A container started with a user id of its own (`docker run --user 12345`) has no entry
    there; with HOME unset too that was a KeyError traceback from every command. It is a
    HomeNotFoundError saying what to set.
    """
    import pwd  # POSIX only; imported here so the module still imports elsewhere

    uid = os.getuid()
    try:
        return Path(pwd.getpwuid(uid).pw_dir)
    except KeyError:
        raise HomeNotFoundError(
            f"the home folder is unknown: HOME is not set and user id {uid} has no entry in "
            "the password database; set HOME to your home folder (for example HOME=/home/me)"
        ) from None
