"""security.log_lines: what the package logs is one line a record."""

from __future__ import annotations

import ast
import importlib
import logging
from pathlib import Path

import memdir_nb
from memdir_nb.security.log_lines import OneLineRecords


def test_a_logged_warning_is_one_line_whatever_the_names_it_quotes() -> None:
    # attack round 26: a settings file's path holding a newline printed a forged line
    record = logging.LogRecord(
        "x", logging.WARNING, __file__, 1, "cannot read %s: %s", ("/p\nFORGED: fine", 3), None
    )
    assert OneLineRecords().filter(record)
    assert record.getMessage() == "cannot read /p\\x0aFORGED: fine: 3"
    assert "\n" not in logging.Formatter().format(record)


def _modules_with_a_logger() -> list[str]:
    """Every package module that makes a logger at module level (`x = logging.getLogger(...)`)."""
    root = Path(memdir_nb.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and ast.unparse(node.value.func) == "logging.getLogger"
                and ast.unparse(node.value.args[0]) == "__name__"
            ):
                found.append(".".join(path.relative_to(root.parent).with_suffix("").parts))
    return found


def test_every_logger_the_package_makes_writes_one_line_a_record() -> None:
    # the extractor's runner logged a renamed memory's stranded links without the filter, so a
    # memory dir or link name holding a newline printed a line of its own (thirty-sixth session)
    modules = _modules_with_a_logger()
    assert "memdir_nb.extract.runner" in modules
    for name in modules:
        importlib.import_module(name)
        filters = logging.getLogger(name).filters
        assert any(isinstance(f, OneLineRecords) for f in filters), name
