"""A value shown as one word of a shell command that a fix text or a hint prints.

Its own module, apart from `spec.shown_names`, so that `memdir-nb scan`, which shows names but
prints no command, does not import `shlex` on its start (thirty-sixth session: +0.4 ms a scan).
"""

from __future__ import annotations

import shlex

from memdir_nb.spec.text import terminal_line


def shell_word(value: object) -> str:
    """A path (or other value) shown as one word of a command a fix text gives: shell-quoted
    (`shlex.quote`, so a space or a `$` in it stays one word), on one line (`terminal_line`).
    The one form of a dir in a printed command: restore's hints, lint's and doctor's fixes."""
    return terminal_line(shlex.quote(str(value)))
