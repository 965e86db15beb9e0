"""The `memdir-nb` command: look at a memory dir from the shell.

`main` reads the command line, runs the command's function and keeps what it prints safe for
the terminal. A plain `memdir-nb scan DIR` (cli.plain_scan) is read without argparse; every
other command line goes to the parsers (cli.parsers), loaded for it alone.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Sequence

from memdir_nb.cli.plain_scan import plain_scan
from memdir_nb.formats.names import name_encoding_problem
from memdir_nb.security.printed_output import closed_output_problem, terminal_safe_streams
from memdir_nb.spec.collector import freeze_what_is_loaded

# The scan's function, as cli.parsers names each command's ("module:function")
PLAIN_SCAN_FUNCTION = "scan_command:scan_dir"


def _handler(spec: str) -> Callable[..., int]:
    """The command function named "module:function", importing only that command's module.

    Each command's module is loaded when the command runs, so `memdir-nb scan` never pays for
    the demo builder, pandas or the embedding model.
    """
    module_name, func_name = spec.split(":")
    module = importlib.import_module(f"memdir_nb.cli.{module_name}")
    handler: Callable[..., int] = getattr(module, func_name)
    return handler


# OpenBLAS reads this when numpy first loads it, and starts that many threads (default: one per
# CPU) for the rest of the process. Every matrix product of the package runs on one BLAS thread
# (machine.one_blas_thread), so a command process has it load with one: the idle second thread
# spun for about 35 ms of numpy's import and 15 ms of a first dream plan (docs/performance.md,
# "Thirty-first session (plan31)"). Only where the process is the command's own (not a notebook
# or a test calling main with argv, whose numpy a user may want on every core); a value the
# user set is kept.
BLAS_THREADS_VARIABLE = "OPENBLAS_NUM_THREADS"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; everything a command prints passes the sanitiser."""
    if argv is None:
        _run_again_in_utf8_mode()
    words = sys.argv[1:] if argv is None else list(argv)
    func, args = _command(words)
    if argv is None:  # a process of its own (the console script, -m): what is loaded stays
        freeze_what_is_loaded()
        os.environ.setdefault(BLAS_THREADS_VARIABLE, "1")
    with terminal_safe_streams():
        return _run(func, *args)


def _command(words: list[str]) -> tuple[str, tuple[object, ...]]:
    """The command function's name and its arguments: a plain scan's values, else the
    parsed command line (the parsers exit with their usage and error for words they refuse)."""
    plain = plain_scan(words)
    if plain is not None:
        return PLAIN_SCAN_FUNCTION, (plain.dir, plain.limit, plain.json)
    # Local: argparse and every command's parser load only for a command line that is not a
    # plain scan (cli.plain_scan; docs/performance.md, forty-second session)
    from memdir_nb.cli.parsers import parse

    args = parse(words)
    return args.func, (args,)


def _run_again_in_utf8_mode() -> None:
    """Start the command again in Python's UTF-8 mode when this Python reads file names in
    another encoding (LANG=C with PYTHONUTF8=0, a Latin-1 locale): memory file names are UTF-8
    (Claude Code writes them so), and read as ASCII every name with an accent would be refused
    as "not valid UTF-8". The arguments are handed on as the bytes they came as.

    The command line is the one this Python was started with (sys.orig_argv: its options, the
    script or `-m`, the arguments), so sys.path is built again as it was: a console script's
    folder comes first, not the working directory that `-m` puts there, where a downloaded
    project's `memdir_nb/` or `yaml.py` would have run (attack round 19). An explicit
    `-X utf8=0` is kept to, not fought in a loop."""
    if sys.flags.utf8_mode or name_encoding_problem() is None:
        return
    if sys.executable and sys._xoptions.get("utf8") != "0":
        os.execv(sys.executable, [sys.executable, "-X", "utf8", *sys.orig_argv[1:]])


def _run(func: str, *args: object) -> int:
    """Run the command function func names with args; input it cannot act on ends in one line
    on stderr, never a traceback."""
    try:
        closed = closed_output_problem()
        if closed is not None:  # said before any work, so nothing is done unseen
            raise closed
        return int(_handler(func)(*args) or 0)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); exit quietly like other shell tools.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (ValueError, OSError) as exc:
        # Input we could not act on (a folder that vanished, a permission, a bad value):
        # one line naming it, never a traceback. Local: only a command that failed needs
        # its words, and `memdir-nb scan` imports no module it does not run (docs/performance.md).
        from memdir_nb.cli.error_line import error_line

        print(error_line(exc), file=sys.stderr)
        return 2
