"""How the CLI's help is laid out: argparse's own formatter, with the terminal's width read
without shutil (which imports bz2, lzma and fnmatch for every command that builds a parser)."""

from __future__ import annotations

import argparse
import os
import sys


def terminal_columns() -> int:
    """The terminal's width as `shutil.get_terminal_size().columns` gives it (its documented rule).

    COLUMNS when it holds a positive whole number, else the width of the terminal on
    sys.__stdout__, else 80. argparse builds a formatter on every `add_argument` and its
    constructor asks shutil, which imports bz2, lzma and fnmatch: about 7 M instructions of
    every `memdir-nb scan` (docs/performance.md, twenty-third session).
    """
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    stdout = sys.__stdout__  # None without a stdout (pythonw): shutil's AttributeError case
    try:
        return (os.get_terminal_size(stdout.fileno()).columns if stdout else 0) or 80
    except (AttributeError, ValueError, OSError):
        return 80


class HelpFormatter(argparse.HelpFormatter):
    """argparse's own formatter, its default width read by terminal_columns instead of shutil."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = terminal_columns() - 2  # what argparse subtracts from shutil's figure
        super().__init__(prog, indent_increment, max_help_position, width)
