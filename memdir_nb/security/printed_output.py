"""The print boundary: everything the CLI and the notebooks print passes the one terminal sanitiser.

Commands and notebooks print names, descriptions, index lines, lint findings and transcript
text read from memory dirs, Claude homes and transcripts: places the person running them does
not control. A name holding ESC, an OSC sequence, a C1 control or a bidirectional override would
otherwise reach the terminal raw (retitle the window, hide a line, make one name display as
another). JupyterLab, Voila and VS Code render the same escapes in a cell's printed output
(colours, and a carriage return that writes over the line). Rather than escape each string
where it is formatted, :func:`terminal_safe_streams` wraps stdout and stderr for a whole CLI
command, and :func:`keep_printed_output_safe` wraps them for the rest of a notebook's kernel
(the notebooks' dir openers call it), so every ``print`` goes through
:func:`memdir_nb.spec.text.terminal_safe`, including ones added later.

Newlines and tabs pass. A carriage return is escaped on stdout; stderr keeps one that opens a
write, because a progress bar (tqdm, during a long lint or an encoding run) redraws its line
by writing '\r' and the new line in one call. A carriage return inside a write is escaped
there too: a warning quoting a hostile value (a repository's `.git` pointer, logged on
stderr) could otherwise return to the line's start and print over the warning itself.

What the package logs passes `security.log_lines.OneLineRecords` instead: one line a record.
"""

from __future__ import annotations

import contextlib
import errno
import sys
from collections.abc import Iterator

from memdir_nb.spec.text import terminal_safe

TYPE_CHECKING = False  # typing stays unimported at run time; mypy reads the block below
if TYPE_CHECKING:
    from typing import Any, TextIO


def _escaped_for(text: str, encoding: str) -> str:
    """Text with each character the encoding lacks written as its backslash escape."""
    return text.encode(encoding, "backslashreplace").decode(encoding)


# What a command says when it was started with its output shut (`>&-`, a service manager that
# closes fd 1): Python leaves sys.stdout None, and the wrapper's first write ended the command
# in an AttributeError traceback after it had done its work (forty-first session).
CLOSED_OUTPUT_MESSAGE = (
    "standard output is closed (the command was started with its output shut, as `>&-` "
    "does), so nothing it finds could be printed and it did not run; send the output "
    "somewhere, e.g. `> report.txt` or `> /dev/null`"
)


class ClosedStream:
    """Stands in for a standard stream the process was started without (sys.stdout None).

    Output: each write is the OSError a closed descriptor gives (EBADF), in words. Errors
    (stderr): writes are dropped, as Python drops its own when stderr is closed."""

    encoding = "utf-8"

    def __init__(self, *, drop: bool) -> None:
        self.drop = drop

    def write(self, text: str) -> int:
        if self.drop:
            return len(text)
        raise OSError(errno.EBADF, CLOSED_OUTPUT_MESSAGE)

    def flush(self) -> None:
        """Nothing is held."""

    def isatty(self) -> bool:
        return False

    def close(self) -> None:
        """Already closed."""

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "the stream was closed when the process started")


class TerminalSafeStream:
    """A text stream that writes everything through terminal_safe to the stream it wraps."""

    def __init__(self, raw: TextIO | ClosedStream, *, keep_carriage_returns: bool = False) -> None:
        self.raw = raw
        self.keep_carriage_returns = keep_carriage_returns

    def write(self, text: str) -> int:
        """Write text with every unsafe character shown as a visible escape (a progress bar's
        opening carriage return kept on stderr)."""
        if self.keep_carriage_returns and text.startswith("\r"):
            safe = "\r" + terminal_safe(text[1:])
        else:
            safe = terminal_safe(text)
        try:
            self.raw.write(safe)
        except UnicodeEncodeError:
            # A stream whose encoding lacks a character (LANG=C without Python's UTF-8 mode, a
            # Latin-1 terminal) gets its escape instead: the line prints, the command goes on.
            # The wrapper encodes the whole text before writing, so nothing was half-written.
            self.raw.write(_escaped_for(safe, getattr(self.raw, "encoding", None) or "ascii"))
        return len(text)

    def writelines(self, lines: Any) -> None:
        """Write each line through write()."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding, close...
        return getattr(self.raw, name)


def closed_output_problem() -> OSError | None:
    """The error a command gives before any work when its standard output is closed, else None."""
    out = sys.stdout
    raw = out.raw if isinstance(out, TerminalSafeStream) else out
    if raw is None or (isinstance(raw, ClosedStream) and not raw.drop):
        return OSError(errno.EBADF, CLOSED_OUTPUT_MESSAGE)
    return None


@contextlib.contextmanager
def terminal_safe_streams() -> Iterator[None]:
    """Route sys.stdout and sys.stderr through the sanitiser until the block ends.

    A stream the process was started without (None) is a ClosedStream: `closed_output_problem`
    refuses the command when it is stdout; errors on a closed stderr are dropped."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = TerminalSafeStream(ClosedStream(drop=False) if out is None else out)
    sys.stderr = TerminalSafeStream(
        ClosedStream(drop=True) if err is None else err, keep_carriage_returns=True
    )
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def keep_printed_output_safe() -> None:
    """Route sys.stdout and sys.stderr through the sanitiser from now on (once; a notebook's kernel).

    Calling it again changes nothing: a stream already wrapped is not wrapped twice.
    """
    if not isinstance(sys.stdout, TerminalSafeStream):
        sys.stdout = TerminalSafeStream(sys.stdout)
    if not isinstance(sys.stderr, TerminalSafeStream):
        sys.stderr = TerminalSafeStream(sys.stderr, keep_carriage_returns=True)
