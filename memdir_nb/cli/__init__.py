"""The ``memdir-nb`` command."""

from memdir_nb.cli.main import main

TYPE_CHECKING = False  # argparse stays unimported by a plain scan (cli.plain_scan)
if TYPE_CHECKING:
    from memdir_nb.cli.parsers import build_parser

__all__ = ["build_parser", "main"]


def __getattr__(name: str) -> object:
    """build_parser, from cli.parsers on first use: importing it here would load argparse in
    every `memdir-nb scan` process (PEP 562)."""
    if name != "build_parser":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from memdir_nb.cli.parsers import build_parser  # local: see the docstring

    return build_parser
