"""The ``memdir-nb`` command."""

from memdir_nb.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
