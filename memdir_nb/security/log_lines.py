"""The print boundary for what the package logs: a warning is one record, a record one line.

:class:`OneLineRecords`, on every logger of the package that warns (`home.config`,
`home.paths`, `home.git_root`, `storage.store`, `recall.model_files`, `extract.runner`;
tests/unit/test_security_log_lines.py checks every module-level logger), passes each record's message through
:func:`memdir_nb.spec.text.terminal_line`, whatever handler then prints it: Python's
last-resort handler on a CLI's stderr, a notebook's, or one the user set up. A settings file's
or a `.git` pointer's path holding a newline (a project folder named `p\nFORGED: …`) otherwise
printed a line of its own (attack round 26). It lives apart from `printed_output` so that
`memdir-nb scan`, which loads that module and not `logging`, stays as lean as it was.
"""

from __future__ import annotations

import logging

from memdir_nb.spec.text import terminal_line

__all__ = ["OneLineRecords"]


class OneLineRecords(logging.Filter):
    """A logger's filter that makes each record's message one terminal line (terminal_line):
    the names it quotes keep their newlines and escapes as visible text."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = terminal_line(record.getMessage()), None
        return True
