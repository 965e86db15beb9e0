"""The unified diff a command shows of a file it rewrites, or would: one home.

The guide's rule for a command that rewrites a person's file: keep the old one, and show the
change. `rebuild-index` (its `--dry-run` preview and what it wrote, lefts37), `import
--overwrite` (each file it replaces, its `--dry-run` too, lefts37b; a conflict's preview,
lefts38) and a dream plan (`ConsolidationPlan.diff`, lefts38: a file the plan creates or moves
to the trash is `/dev/null` on that side, as git shows it) print this diff.

Lines are split where the loader ends one (``\\n``, ``\\r\\n`` or a lone ``\\r``:
`index_caps.index_file_lines`), never at the other characters `str.splitlines` breaks at. The
caller passes the label as it is shown (a name through `spec.shown_names.terminal_name`) and
prints the result through `spec.text.terminal_safe`, the one sanitiser, which shows a control
in a line as an escape.

`bounded_file_diff` is the form for bytes from anywhere (an archive's entry): text that is not
UTF-8 (or holds NUL) is named as binary, not diffed; at most `DIFF_SHOWN_LINES` lines of each
file's diff are shown, each cut at `DIFF_SHOWN_LINE_CHARS` characters, and the rest counted
("… and N more lines of this diff"); a file past `DIFF_MAX_BYTES` is not diffed (difflib's
matcher is quadratic at worst) and its sizes are given instead.
"""

from __future__ import annotations

import difflib

from memdir_nb.formats.index_caps import index_file_lines

DIFF_SHOWN_LINES = 40  # of one file's diff, its two header lines included
DIFF_SHOWN_LINE_CHARS = 300  # of one line of it
DIFF_MAX_BYTES = 512 * 1024  # either side past this: sizes, not a diff


def _diff_lines(old: str | None, new: str | None, label: str) -> list[str]:
    """The unified diff's lines, each ending in a newline (a lone CR end shown, then one).
    None: no file on that side (`/dev/null`)."""
    lines = difflib.unified_diff(
        index_file_lines(old or ""),
        index_file_lines(new or ""),
        "/dev/null" if old is None else f"a/{label}",
        "/dev/null" if new is None else f"b/{label}",
    )
    return [line if line.endswith("\n") else line + "\n" for line in lines]


def unified_file_diff(old: str | None, new: str | None, label: str) -> str:
    """A unified diff of old against new, ``a/label`` and ``b/label`` ('' when they match);
    None on a side: the file does not exist there, named `/dev/null` (created, or removed).

    Every line ends in a newline, the last one too, so the next thing printed starts a line.
    """
    return "".join(_diff_lines(old, new, label))


def _text(data: bytes) -> str | None:
    """The bytes as text, or None when they are not UTF-8 or hold a NUL (a binary file)."""
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _cut(line: str) -> str:
    """One diff line cut at DIFF_SHOWN_LINE_CHARS characters, its cut said, its end kept."""
    body = line.removesuffix("\n")
    if len(body) <= DIFF_SHOWN_LINE_CHARS:
        return line
    return (
        f"{body[:DIFF_SHOWN_LINE_CHARS]}… ({len(body) - DIFF_SHOWN_LINE_CHARS:,} more characters)\n"
    )


def bounded_file_diff(old: bytes, new: bytes, label: str) -> str:
    """The diff of one replaced file as a report shows it: bounded, binary named, never raw.

    Ends in a newline ('' when the bytes match).
    """
    if old == new:
        return ""
    if max(len(old), len(new)) > DIFF_MAX_BYTES:
        return (
            f"{label}: {len(old):,} bytes -> {len(new):,} bytes (over {DIFF_MAX_BYTES:,} bytes, "
            "so no diff is shown)\n"
        )
    old_text, new_text = _text(old), _text(new)
    if old_text is None or new_text is None:
        return f"Binary files a/{label} and b/{label} differ\n"
    lines = _diff_lines(old_text, new_text, label)
    shown = "".join(_cut(line) for line in lines[:DIFF_SHOWN_LINES])
    more = len(lines) - DIFF_SHOWN_LINES
    if more > 0:
        shown += f"… and {more:,} more lines of this diff (not shown)\n"
    return shown
