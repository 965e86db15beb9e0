"""The print boundary (security/printed_output.py): what the CLI and the notebooks print is sanitised."""

from __future__ import annotations

import io
import sys

import pytest

from memdir_nb.security.printed_output import (
    CLOSED_OUTPUT_MESSAGE,
    TerminalSafeStream,
    closed_output_problem,
    keep_printed_output_safe,
    terminal_safe_streams,
)


def _captured(monkeypatch: pytest.MonkeyPatch) -> tuple[io.StringIO, io.StringIO]:
    """sys.stdout and sys.stderr replaced by buffers (monkeypatch puts the real ones back).

    Called in the test body: pytest's own capture sets sys.stdout again when a test starts.
    """
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    return out, err


def test_after_keep_printed_output_safe_an_escape_sequence_prints_as_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out, err = _captured(monkeypatch)
    keep_printed_output_safe()
    print("name \x1b[2K\rhidden \x1b]0;title\x07")
    print("\x9b31m on stderr", file=sys.stderr)
    assert "\x1b" not in out.getvalue() and "\r" not in out.getvalue()
    assert out.getvalue() == "name \\x1b[2K\\x0dhidden \\x1b]0;title\\x07\n"
    assert "\x9b" not in err.getvalue() and "\\x9b31m" in err.getvalue()


def test_keep_printed_output_safe_wraps_each_stream_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    captured = _captured(monkeypatch)
    keep_printed_output_safe()
    first = sys.stdout
    keep_printed_output_safe()
    assert sys.stdout is first and isinstance(sys.stdout, TerminalSafeStream)
    assert sys.stdout.raw is captured[0]
    assert isinstance(sys.stderr, TerminalSafeStream) and sys.stderr.keep_carriage_returns


def test_terminal_safe_streams_puts_the_streams_back_after_the_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out, _ = _captured(monkeypatch)
    with terminal_safe_streams():
        print("\x1b[31mred")
    print("\tplain")
    assert sys.stdout is out
    assert out.getvalue() == "\\x1b[31mred\n\tplain\n"


def test_a_stream_that_cannot_encode_a_character_prints_its_escape_instead() -> None:
    # LANG=C with Python's UTF-8 coercion off (PYTHONUTF8=0), or a Latin-1 terminal: stdout is
    # ASCII, and a memory named "Zürich — notes" must still print, as an escape, not end the
    # command with "error: 'ascii' codec can't encode".
    buffer = io.BytesIO()
    raw = io.TextIOWrapper(buffer, encoding="ascii", errors="strict")
    stream = TerminalSafeStream(raw)
    stream.write("Zürich — 日本\n")
    raw.flush()
    assert buffer.getvalue() == b"Z\\xfcrich \\u2014 \\u65e5\\u672c\n"


def test_a_process_started_without_stdout_is_told_so_before_any_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, err = _captured(monkeypatch)
    monkeypatch.setattr(sys, "stdout", None)  # what Python leaves when fd 1 was closed (`>&-`)
    with terminal_safe_streams():
        problem = closed_output_problem()
        assert problem is not None and CLOSED_OUTPUT_MESSAGE in str(problem)
        with pytest.raises(OSError, match="standard output is closed"):
            sys.stdout.write("x")
        assert not sys.stdout.isatty()
        print("an error line", file=sys.stderr)
    assert sys.stdout is None
    assert err.getvalue() == "an error line\n"


def test_errors_on_a_closed_stderr_are_dropped_and_stdout_still_prints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out, _ = _captured(monkeypatch)
    monkeypatch.setattr(sys, "stderr", None)
    with terminal_safe_streams():
        assert closed_output_problem() is None
        print("lost", file=sys.stderr)
        assert not sys.stderr.isatty()
        sys.stderr.flush()
        sys.stderr.close()  # what the CLI does when its reader went away
        print("kept")
    assert out.getvalue() == "kept\n"
