"""The CLI's argument types: each refuses bad input with an argparse error in CLI words.

`memdir-nb scan` takes its dir as text (`existing_dir_text`), so the scan process never imports
pathlib (with urllib.parse, ipaddress and ntpath, about 18 M instructions: docs/performance.md,
twenty-third session); every other argument that names a path is a `Path`, as before.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable

from memdir_nb.clock import now_ms_problem
from memdir_nb.spec.constants import SELECTOR_TIMEOUT_MAX_S, SELECTOR_TIMEOUT_S
from memdir_nb.spec.quoted import shown_repr
from memdir_nb.storage.containment import absolute_dir, unreadable_reason

TYPE_CHECKING = False  # typing stays unimported at run time; mypy reads the block below
if TYPE_CHECKING:
    import argparse
    from pathlib import Path


def dash_value_hint(value: str, command: str = "COMMAND ...") -> str:
    """The fix for a value that starts with '-' (a query, a file name): argparse reads it as an
    option, so it goes after `--` (attack40: `memdir-nb restore DIR -notes.md` said only
    "unrecognized arguments", and `recall DIR --dir=X` recalled from X with DIR as the query)."""
    return (
        "a value that starts with '-' is read as an option; to pass one (a query, a file "
        f"name), put `--` before it: memdir-nb {command} -- {shown_repr(value)}"
    )


def _refusal(message: str) -> argparse.ArgumentTypeError:
    """The error each type here raises for input it refuses: argparse prints its message.

    argparse is imported here, for a refusal, and not at the top: `memdir-nb scan DIR` reads
    its plain command line without argparse (cli.plain_scan), through existing_dir_text and
    positive_int, so a scan whose arguments are accepted never loads it (about 12 M
    instructions of the process: docs/performance.md, forty-second session). A refused
    argument goes on to argparse, which reports it.
    """
    import argparse  # local: see the docstring

    return argparse.ArgumentTypeError(message)


def plain_path(raw: str) -> Path:
    """An argparse type: raw as a Path, unchecked (what `type=Path` gave, without importing
    pathlib into every command's process)."""
    from pathlib import Path  # local: see the module's docstring

    return Path(raw)


def user_path_text(raw: str) -> str:
    """raw, a leading `~` expanded against the user's home as the config finds it.

    Only the home is read (HOME, else the password database), never a settings file: a path
    argument does not depend on them. The empty word means the current folder, as `Path("")`.
    """
    if not raw.startswith("~"):
        return raw or "."
    # Local: home.config loads logging, JSON and the settings machinery, which a path without
    # `~` never needs; every `memdir-nb scan DIR` would pay for them (docs/performance.md).
    from memdir_nb.home.config import expand_user, user_home

    return os.fspath(expand_user(raw, user_home()))


def user_path(raw: str) -> Path:
    """user_path_text(raw) as a Path."""
    return plain_path(user_path_text(raw))


def _literal_tilde(raw: str) -> str | None:
    """The first part of raw when it starts with a `~` that is not expanded (`~sam/mem`,
    `~+/x`): only `~` and `~/...` are, so such a path names a folder of that name here."""
    if not raw.startswith("~") or raw == "~" or raw.startswith("~/"):
        return None
    return raw.split("/", 1)[0]


def tilde_note(raw: str) -> str:
    """What a leading `~` in raw was read as, for an error about the path ('' without one).

    A `~` quoted on the command line (`scan '~/mem'`) reaches the CLI as it is: `~/...` is
    expanded against the home, `~name/...` is not (a shell would look up name's home), so an
    error about either says which folder was looked at and how to name the one meant (fresh32).
    """
    first = _literal_tilde(raw)
    if first is not None:
        return (
            f"; it was taken literally, as a folder named {first!r} in the current folder (only "
            f"a leading '~' or '~/' is expanded here): give the full path, or leave the "
            f"{first} unquoted so the shell expands it"
        )
    if raw.startswith("~"):
        return f"; {raw!r} was read as {user_path_text(raw)} (`~` is the home folder)"
    return ""


def output_path(raw: str) -> Path:
    """An argparse type: a path to write to, a leading `~/` expanded as every path argument's.

    `~name/...` is refused: taken literally it would create a folder named `~name` here.
    """
    if _literal_tilde(raw) is not None:
        raise _refusal(f"{raw!r} would be written{tilde_note(raw)}")
    return user_path(raw)


def positive_int(raw: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(raw)
    except ValueError:
        raise _refusal(f"{raw!r} is not a whole number; give e.g. 20") from None
    if value < 1:
        raise _refusal(f"{raw} is less than 1; give a count of 1 or more")
    return value


def selector_timeout(raw: str) -> float:
    """An argparse type: how many seconds the Claude selector may wait, more than 0 and at most
    SELECTOR_TIMEOUT_MAX_S (nan and inf are refused by the same comparison)."""
    example = f"give e.g. {SELECTOR_TIMEOUT_S:g}"
    try:
        value = float(raw)
    except ValueError:
        raise _refusal(f"{shown_repr(raw)} is not a number of seconds; {example}") from None
    if not 0 < value <= SELECTOR_TIMEOUT_MAX_S:
        raise _refusal(
            f"{shown_repr(raw)} is not a number of seconds more than 0 and at most "
            f"{SELECTOR_TIMEOUT_MAX_S:,g}; {example}"
        )
    return value


def epoch_ms(raw: str) -> float:
    """An argparse type: a pinned "now" in epoch milliseconds, as the clock's rule allows."""
    try:
        value = float(raw)
    except ValueError:
        raise _refusal(f"{raw!r} is not a number") from None
    problem = now_ms_problem(value)
    if problem is not None:
        raise _refusal(problem)
    return value


def _is_kind(path: str | Path, raw: str, test: Callable[[int], bool], wanted: str) -> bool:
    """Whether path (followed) is of the kind test checks; an argparse error when it cannot be
    looked at for another reason than being absent (pathlib's is_dir raised those, so a name
    past NAME_MAX or a folder this user cannot enter ended in a traceback; attack round 14)."""
    try:
        return test(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:  # its length, the limit and the fix, quoted cut
            why = unreadable_reason(exc, os.path.abspath(os.fspath(path)))
            raise _refusal(f"{shown_repr(raw)} cannot be looked at: {why}; pass {wanted}") from None
        raise _refusal(
            f"{shown_repr(raw)} cannot be looked at ({exc.strerror or exc}); pass {wanted}"
        ) from None


def _not_a_folder(path: str | Path, raw: str) -> str:
    """Why path, which is no folder, was refused: it is not there, or it is something else
    (a file, a FIFO). "is not a directory" said the same of both, so a mistyped path read as
    if the folder were a file (fresh36)."""
    what = "is not a directory" if os.path.lexists(path) else "does not exist"
    return f"{raw!r} {what}{tilde_note(raw)}"


def _not_a_file(path: str | Path, raw: str) -> str:
    """Why path, which is no regular file, was refused: not there, or something else (a folder)."""
    what = "is not a file" if os.path.lexists(path) else "does not exist"
    return f"{raw!r} {what}{tilde_note(raw)}"


def _folder_wanting(wanted: str) -> Callable[[str], Path]:
    """An argparse type: an existing folder (any folder, not only a memory dir), made absolute;
    a refusal ends with wanted, what to pass (fresh38: `--cwd nope` said only "does not
    exist", where every memory dir argument says what to pass and how to find it)."""

    def folder(raw: str) -> Path:
        path = user_path(raw)
        if not _is_kind(path, raw, stat.S_ISDIR, wanted):
            raise _refusal(f"{_not_a_folder(path, raw)}; {wanted}")
        return absolute_dir(path)

    return folder


def _file_wanting(wanted: str) -> Callable[[str], Path]:
    """An argparse type: an existing file; a refusal ends with wanted, as _folder_wanting's."""

    def file(raw: str) -> Path:
        path = user_path(raw)  # `~` as every path argument reads it (HOME, else the passwd entry)
        if not _is_kind(path, raw, stat.S_ISREG, wanted):
            raise _refusal(f"{_not_a_file(path, raw)}; {wanted}")
        return path

    return file


cwd_dir = _folder_wanting(
    "pass the project folder, the one Claude Code runs in (without --cwd: the current folder)"
)
home_dir = _folder_wanting(
    "pass a home folder holding .claude, or a Claude home itself (the folder holding "
    "projects/); without --home: ~/.claude"
)
settings_file = _file_wanting("pass the JSON file you give Claude Code with --settings")
transcript_file = _file_wanting(
    "pass a session transcript, a <session>.jsonl in ~/.claude/projects/<key>/ "
    "(`memdir-nb sessions` lists them)"
)
archive_file = _file_wanting("pass a zip written by `memdir-nb export --archive`")


def new_path(raw: str) -> Path:
    """An argparse type: a non-empty path (the empty string would mean the current folder)."""
    if not raw.strip():
        raise _refusal("the path is empty; give the folder to create")
    return absolute_dir(output_path(raw))


# What a memory dir argument wants, and how to find the one meant (fresh36: a newcomer whose
# path was wrong was told to pass "the folder holding MEMORY.md" and not where that is).
MEMORY_DIR_WANTED = (
    "pass the memory dir (the folder holding MEMORY.md; Claude Code keeps each project's in "
    "~/.claude/projects/<key>/memory/, and `memdir-nb where`, run in the project, names it)"
)


def existing_dir(raw: str) -> Path:
    """An argparse type: an existing memory dir, made absolute (a relative one is cwd-relative)."""
    return absolute_dir(existing_dir_text(raw))


def existing_dir_text(raw: str) -> str:
    """existing_dir's checks and absolute path, as text (the scan command's dir: no pathlib).

    The kernel reads 'a//b', 'a/./b' and a trailing '/' as Path's normal form of them, so the
    checks see the folder Path(raw) named; os.path.abspath then normalises it as absolute_dir.
    """
    path = user_path_text(raw)
    if not _is_kind(path, raw, stat.S_ISDIR, "the memory dir (the folder holding MEMORY.md)"):
        raise _refusal(f"{_not_a_folder(path, raw)}; {MEMORY_DIR_WANTED}")
    return os.path.abspath(path)
