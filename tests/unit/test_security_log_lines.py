"""security.log_lines: what the package logs is one line a record."""

from __future__ import annotations

import logging

from memdir_nb.security.log_lines import OneLineRecords


def test_a_logged_warning_is_one_line_whatever_the_names_it_quotes() -> None:
    # attack round 26: a settings file's path holding a newline printed a forged line
    record = logging.LogRecord(
        "x", logging.WARNING, __file__, 1, "cannot read %s: %s", ("/p\nFORGED: fine", 3), None
    )
    assert OneLineRecords().filter(record)
    assert record.getMessage() == "cannot read /p\\x0aFORGED: fine: 3"
    assert "\n" not in logging.Formatter().format(record)
