"""The rules for a memory path, before any folder is looked at.

A configured memory dir (an environment variable or a settings value) is checked and
normalised by `memory_path_problem`: it must be an absolute path of its own, never a root, a
drive or a network share; settings may write ``~/`` for the home. A lone surrogate (JSON's
``"\\ud800"``, or a byte that is not UTF-8 in an environment variable) is the U+FFFD that
Claude Code's file calls write in its place, so the path named is the folder it uses. A project's path becomes
the folder name that keys its memory by `sanitize_path`, as Claude Code names it.
"""

from __future__ import annotations

import contextlib
import os
import re
import unicodedata
from collections.abc import Mapping
from pathlib import PurePath

from memdir_nb.home.passwd import home_from_passwd
from memdir_nb.spec.constants import (
    AGENT_MEMORY_DIRNAME,
    AGENT_MEMORY_LOCAL_DIRNAME,
    ENTRYPOINT_NAME,
    PROJECTS_DIRNAME,
)
from memdir_nb.spec.text import without_lone_surrogates
from memdir_nb.storage.containment import (
    PathTraversalError,
    is_real_path_within,
    realpath_deepest_existing,
)

MAX_SANITIZED_LENGTH = 200
_KEY_MAX_LENGTH = MAX_SANITIZED_LENGTH + 1 + 7  # a long path's key: 200, a dash, 2**31 in base 36
_NETWORK_PREFIXES = ("\\\\", "//")

__all__ = [
    "MAX_SANITIZED_LENGTH",
    "cache_folder_problem",
    "configured_dirs",
    "folder_keyed",
    "is_project_key",
    "memory_path_problem",
    "rewritten_note",
    "sanitize_path",
    "validate_memory_path",
]


# --------------------------------------------------------------------------- sanitising


def _djb2_step(h: int, text: str) -> int:
    """djb2's 32-bit state h carried on over text's UTF-16 units."""
    data = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        unit = data[i] | (data[i + 1] << 8)
        h = ((h << 5) - h + unit) & 0xFFFFFFFF
    return h


def _djb2_base36(text: str) -> str:
    """Claude Code's fallback string hash: 32-bit djb2 over UTF-16 units, abs, base 36."""
    return _base36_of_state(_djb2_step(0, text))


def _base36_of_state(h: int) -> str:
    if h >= 0x80000000:
        h -= 0x100000000
    h = abs(h)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if h == 0:
        return "0"
    out = []
    while h:
        h, r = divmod(h, 36)
        out.append(digits[r])
    return "".join(reversed(out))


def _sanitized_piece(ch: str) -> str:
    # JavaScript counts UTF-16 units, so a character outside the BMP becomes two dashes.
    if ch.isascii() and ch.isalnum():
        return ch
    return "--" if ord(ch) > 0xFFFF else "-"


def sanitize_path(p: str | os.PathLike[str]) -> str:
    """Turn a path into one safe folder name: non-[a-zA-Z0-9] -> '-', long names get a hash."""
    text = os.fspath(p)
    sanitized = "".join(map(_sanitized_piece, text))
    if len(sanitized) <= MAX_SANITIZED_LENGTH:
        return sanitized
    return f"{sanitized[:MAX_SANITIZED_LENGTH]}-{_djb2_base36(text)}"


def folder_keyed(path: str | os.PathLike[str], key: str) -> str | None:
    """Of path and its parents (as pathlib lists them), the one whose sanitize_path is key.

    One pass over path: a key is made of the sanitised text so far (or its first 200 and the
    hash of the text so far), and both grow as the text does. Keying each parent anew cost a
    pass a parent: a transcript's 64 KB cwd of '/a' parts took minutes (attack round 21).
    """
    pure = PurePath(path)
    text, top = os.fspath(pure), pure.anchor or os.curdir  # '/', '//' (POSIX keeps it) or '.'
    ends = [i for i, ch in enumerate(text) if ch == os.sep and i >= len(pure.anchor)]
    found = _keyed_end(text, [*ends, len(text)], key)
    if found is None and top != text and sanitize_path(top) == key:
        return top
    return found


def _keyed_end(text: str, ends: list[int], key: str) -> str | None:
    """The longest text[:end] whose key is key (each end a parent's or the path's own)."""
    head, length, h, at, best = "", 0, 0, 0, None
    for end in ends:
        piece = text[at:end]
        made = "".join(map(_sanitized_piece, piece))
        length += len(made)
        if len(head) < MAX_SANITIZED_LENGTH:
            head = (head + made)[:MAX_SANITIZED_LENGTH]
        h, at = _djb2_step(h, piece), end
        if length <= MAX_SANITIZED_LENGTH:
            best = text[:end] if head == key else best
        elif f"{head}-{_base36_of_state(h)}" == key:
            best = text[:end]
    return best


def is_project_key(text: str) -> bool:
    """Whether text has the shape sanitize_path gives a key: letters, digits and dashes only."""
    return 0 < len(text) <= _KEY_MAX_LENGTH and all(
        ch.isascii() and (ch.isalnum() or ch == "-") for ch in text
    )


# --------------------------------------------------------------------------- validation

# An environment variable written where a settings value starts, as a shell or Windows writes
# one: $NAME, ${NAME} or %NAME%. Claude Code expands only a leading '~/' in a settings value,
# so such a value is a relative path (a folder named "$HOME"), rejected like any other.
_LEADING_VARIABLE = re.compile(
    r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)\}|(?P<plain>[A-Za-z_][A-Za-z0-9_]*))"
    r"|%(?P<windows>[A-Za-z_][A-Za-z0-9_()]*)%"
)
# The variables that hold the user's home folder, which a settings value can name as '~/'.
HOME_VARIABLES = frozenset({"HOME", "USERPROFILE"})
# "C:/Dev/app/memory", "D:\\notes": a drive path, which only Windows reads as absolute
_WINDOWS_DRIVE_PATH = re.compile(r"[A-Za-z]:[\\/]")


def leading_variable(raw: str) -> tuple[str, str] | None:
    """(the reference as written, the variable's name) when raw starts with an environment
    variable ($HOME, ${VAULT}, %USERPROFILE%); else None."""
    m = _LEADING_VARIABLE.match(raw)
    if m is None:
        return None
    return m.group(0), m.group("braced") or m.group("plain") or m.group("windows")


def _default_home(home: str | os.PathLike[str] | None) -> str:
    return os.fspath(home) if home is not None else os.fspath(home_from_passwd())


def memory_path_problem(
    raw: object, expand_tilde: bool, *, home: str | os.PathLike[str] | None = None
) -> tuple[str | None, str | None]:
    """Validate a memory dir setting (any JSON value a settings file holds); returns (normalised path, None) or (None, reason)."""
    if raw is None or raw == "":
        return None, "empty"
    if not isinstance(raw, str):
        return None, f"not a string (got {type(raw).__name__})"
    if "\0" in raw:
        return None, "contains a null byte"
    candidate, problem = _expand_home(raw, home) if expand_tilde else (raw, None)
    if problem is not None:
        return None, problem
    normalized = os.path.normpath(candidate).rstrip("/\\")
    problem = _root_problem(candidate, normalized)
    if problem is None and not os.path.isabs(normalized):
        variable = leading_variable(raw)
        if raw.startswith("~"):
            problem = "is relative ('~' is only expanded in settings files, as '~/...')"
        elif variable is not None:
            problem = (
                f"is not an absolute path: {variable[0]} is not expanded (only a settings "
                f"file's leading '~/' is), so it names a folder called {variable[0]}"
            )
        elif _WINDOWS_DRIVE_PATH.match(raw):
            problem = (
                f"is not an absolute path here: it is a Windows path (drive {raw[:2]}), "
                "absolute only on Windows (a settings file shared with a Windows machine? "
                "a path starting with ~/ works on both)"
            )
        else:
            problem = "is not an absolute path"
    if problem is None and len(normalized) < 3:
        problem = "is too short (a filesystem root or near it)"
    if problem is not None:
        return None, problem
    # Node writes each lone surrogate as U+FFFD: the folder Claude Code makes and reads is
    # that one, and a path holding a surrogate cannot even be opened here (attack round 26)
    return unicodedata.normalize("NFC", without_lone_surrogates(normalized + os.sep)), None


def rewritten_note(raw: str) -> str:
    """What `memory_path_problem` changed in a path it accepted, in words ("" when nothing):
    `where` and `doctor` say so beside the rewritten path (attack round 26)."""
    rewritten = without_lone_surrogates(raw)
    if rewritten == raw:
        return ""
    at = next(i for i, (a, b) in enumerate(zip(raw, rewritten, strict=True)) if a != b)
    return (
        f"it holds a lone surrogate (U+{ord(raw[at]):04X}, character {at + 1}), which no file "
        "name can hold; Claude Code writes U+FFFD in its place, so the memory dir is that folder"
    )


def configured_dirs(
    env: Mapping[str, str], names: tuple[str, ...], instead: str, *, tilde: bool
) -> tuple[tuple[str, str] | None, list[str]]:
    """(name, value) of the first of the variables `names` set to an absolute folder (or, with
    tilde, `~/...`), and a problem for each one set to a relative path before it: "NAME='x' is
    not an absolute path; using INSTEAD instead". A relative folder is another folder from
    each working folder (a notebook started inside a memory dir would keep its caches there),
    and the XDG spec calls such a value invalid. The one rule for CLAUDE_CONFIG_DIR,
    MEMDIR_NB_CACHE_DIR and XDG_CACHE_HOME (attack round 26)."""
    problems: list[str] = []
    for name in names:
        value = env.get(name)
        if not value:
            continue
        if os.path.isabs(value) or (tilde and (value == "~" or value.startswith("~/"))):
            return (name, value), problems
        problems.append(
            f"{name}={value!r} is not an absolute path; using {instead} instead. "
            "Set it to an absolute path."
        )
    return None, problems


def cache_folder_problem(
    folder: str,
    claude_home: str | os.PathLike[str],
    cwd: str,
    memory_dirs: tuple[str, ...],
    *,
    notes: bool = True,
    home: str | os.PathLike[str] | None = None,
) -> str | None:
    """Why folder cannot hold memdir_nb's caches (it is in, or is, a memory dir), else None.

    The one rule for every file memdir_nb derives from memories (caches, the Parquet and
    archive exports, bounds37): folder may also be a file's path (an archive's), judged by
    where it would be. notes=False leaves out the last test, a folder holding Markdown: an
    export goes where a person asks (a repository's root holds README.md), a cache never does.
    The climb for a MEMORY.md above folder stops below home and the filesystem's root: no
    memory dir is a whole home, and a MEMORY.md someone keeps there must not refuse
    ~/.cache/memdir_nb, the default every refused value falls back to (the lead, 37th session).

    The caches hold what was read out of memory dirs: the vector cache's snippets table keeps
    the text of every memory recalled, in any project, beside 42 MB of layer matrices. Kept in
    a team folder (which teams keep in git or sync by rsync) or in a project's agent memory
    (committed with the repository), private memories of every project were written where
    teammates read them, past the secret guard (attack37). A relative value is refused by
    `configured_dirs`; this refuses an absolute one that leads into memory, by its real path:
    the Claude home's projects/ and agent-memory/ folders (every project and agent memory dir,
    and the transcripts), the project's .claude/agent-memory(-local)/ folders under cwd, the
    memory dirs configured (`memory_dirs`), a folder holding
    MEMORY.md or inside one, and a folder that holds Markdown files (memdir_nb writes none
    into its cache, so such a folder is someone's notes: a memory dir without its index)."""
    try:
        real = realpath_deepest_existing(folder)
        roots = [
            os.path.join(os.fspath(claude_home), PROJECTS_DIRNAME),
            os.path.join(os.fspath(claude_home), AGENT_MEMORY_DIRNAME),
            os.path.join(cwd, ".claude", AGENT_MEMORY_DIRNAME),
            os.path.join(cwd, ".claude", AGENT_MEMORY_LOCAL_DIRNAME),
            *memory_dirs,
        ]
        for root in roots:
            within = os.path.isabs(root) and is_real_path_within(
                real, realpath_deepest_existing(root), or_equal=True
            )
            if within:
                return f"is inside {root}, where memory lives"
    except (PathTraversalError, OSError):
        return None  # a folder that cannot be resolved cannot be made either: the cache says so
    current = real
    above = _home_and_above(home)
    while current not in above:
        if os.path.isfile(os.path.join(current, ENTRYPOINT_NAME)):
            return f"is inside the memory dir {current} (it holds {ENTRYPOINT_NAME})"
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    if not notes:
        return None
    with contextlib.suppress(OSError), os.scandir(real) as entries:
        for entry in entries:
            if entry.name.endswith(".md"):
                return f"holds memory files ({entry.name}), as a memory dir does"
    return None


def _home_and_above(home: str | os.PathLike[str] | None) -> set[str]:
    """The real paths of home and of every folder above it (only the root without a home)."""
    found = {os.path.abspath(os.sep)}
    if home is None:
        return found
    with contextlib.suppress(PathTraversalError, OSError):
        current = realpath_deepest_existing(os.fspath(home))
        while current not in found:
            found.add(current)
            current = os.path.dirname(current)
    return found


def under_home(home: str | os.PathLike[str], rest: str) -> str:
    """home joined with what followed a leading `~/`, as Node's path.join joins them.

    os.path.join starts again from the root at an absolute part, so `~//etc/cron.d` named
    /etc/cron.d, while Claude Code (and a shell) take it as ~/etc/cron.d: `where` and `doctor`
    showed a folder outside the home that Claude Code never uses, and `~//` passed the
    "never the home itself" rule (attack round 30). The one home of this join: settings
    values and path arguments both expand through it.
    """
    return os.path.join(os.fspath(home), rest.lstrip("/"))


def _expand_home(raw: str, home: str | os.PathLike[str] | None) -> tuple[str, str | None]:
    """A settings value's leading '~/' expanded to the home; never to the home itself or above."""
    if not raw.startswith(("~/", "~\\")):
        return raw, None
    rest = raw[2:]
    rest_norm = os.path.normpath(rest.replace("\\", "/").lstrip("/") or ".")
    if rest_norm == "." or rest_norm.split("/", 1)[0] == "..":
        return raw, "expands to the home directory or one of its ancestors"
    return under_home(_default_home(home), rest), None


def _root_problem(candidate: str, normalized: str) -> str | None:
    """Why a path names a network share, the filesystem root or a drive root (None if not)."""
    if candidate.startswith(_NETWORK_PREFIXES) or normalized.startswith(_NETWORK_PREFIXES):
        return "is a UNC / network path"
    if normalized == "":
        return "is the filesystem root (too short)"
    drive = normalized[:1]
    if len(normalized) == 2 and normalized[1] == ":" and drive.isascii() and drive.isalpha():
        return "is a Windows drive root"
    return None


def validate_memory_path(
    raw: str | None, expand_tilde: bool, *, home: str | os.PathLike[str] | None = None
) -> str | None:
    """Normalise a configured memory dir (one trailing sep, NFC), or None if it is unsafe."""
    return memory_path_problem(raw, expand_tilde, home=home)[0]
