"""Path security for writes into the memory directory and its shared `team/` folder.

Two layers, as in the spec's teamMemPaths module:

* `sanitize_path_key` looks at a relative key as text and refuses anything that is, or could
  become after some later decoding step, a traversal: null bytes, percent-encoded or
  Unicode-normalised `..`, `/` or `\\`, backslashes, absolute keys, `..` segments.
* `validate_team_mem_key` / `validate_team_mem_write_path` / `validate_memory_write_path`
  then check containment twice: once on the lexically resolved path (pass 1), and once on
  the real path of its deepest existing ancestor (pass 2), so a symlink planted inside the
  directory cannot redirect a write outside it.

Every failure raises `PathTraversalError`, whose `.rule` names the check that fired.
"""

from __future__ import annotations

import errno
import os
import stat
import unicodedata

from memdir_nb.spec.constants import NAME_MAX_BYTES, PATH_MAX_BYTES
from memdir_nb.spec.lazy_regex import compiled_on_first_use
from memdir_nb.spec.quoted import shown_problem, shown_repr
from memdir_nb.storage.real_paths import (
    MAX_SYMLINKS_FOLLOWED,
    PathTooLongError,
    SymlinkChainTooLongError,
    eloop_words,
    real_path,
    real_path_or_none,
    refuse_too_long,
    same_real_path,
    size_past_path_max,
    symlink_loop_words,
)

# pathlib (with urllib.parse, ipaddress, ntpath: about 18 M instructions) is imported where a
# Path is made or a key percent-decoded, not here: this module is on every scan's import path,
# and `memdir-nb scan` uses neither (docs/performance.md, twenty-third session).
TYPE_CHECKING = False  # mypy reads the block below; typing stays unimported at run time
if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "MAX_SYMLINKS_FOLLOWED",
    "NAME_MAX_BYTES",
    "PATH_MAX_BYTES",
    "PathTooLongError",
    "PathTraversalError",
    "SymlinkChainTooLongError",
    "check_path_length",
    "check_whole_path_length",
    "eloop_words",
    "is_real_path_within",
    "real_path",
    "real_path_or_none",
    "realpath_deepest_existing",
    "refuse_too_long",
    "same_real_path",
    "sanitize_path_key",
    "symlink_loop_words",
    "validate_memory_write_path",
    "validate_project_path",
    "validate_team_mem_key",
    "validate_team_mem_write_path",
]


# How many rounds of percent-decoding / NFKC we apply when looking for hidden traversal.
# Each round must change the text, so real keys stop after one or two.
_MAX_DECODE_ROUNDS = 8

_DRIVE_ABSOLUTE = compiled_on_first_use(r"^[A-Za-z]:[/\\]")
_PERCENT_ESCAPE = compiled_on_first_use(r"%[0-9A-Fa-f]{2}")
_DANGEROUS_OVERLONG = {ord("."), ord("/"), ord("\\"), 0}


class PathTraversalError(ValueError):
    """A path or key that could leave the directory it must stay in; `.rule` says which check fired."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(shown_problem(message))  # a 1 MB key was quoted whole (attack38)
        self.rule = rule


# ---------------------------------------------------------------------------------------------
# Pass 0: the key as text
# ---------------------------------------------------------------------------------------------


def _percent_decode_once(text: str) -> str:
    """Decode the well-formed %XX escapes in text; malformed ones stay as they are."""
    if "%" not in text:
        return text
    from urllib.parse import unquote_to_bytes  # local: see the imports

    return (
        unquote_to_bytes(text).decode("utf-8", errors="replace")
        if _PERCENT_ESCAPE().search(text)
        else text
    )


def _overlong_dangerous(text: str) -> bool:
    """True if text percent-encodes an overlong UTF-8 form of '.', '/', '\\' or NUL (e.g. %C0%AE)."""
    if not _PERCENT_ESCAPE().search(text):
        return False
    from urllib.parse import unquote_to_bytes  # local: see the imports

    raw = unquote_to_bytes(text)
    i = 0
    while i < len(raw):
        b0 = raw[i]
        if b0 in (0xC0, 0xC1) and i + 1 < len(raw):
            cp = ((b0 & 0x1F) << 6) | (raw[i + 1] & 0x3F)
            if cp in _DANGEROUS_OVERLONG:
                return True
        elif b0 == 0xE0 and i + 2 < len(raw) and raw[i + 1] < 0xA0:
            cp = ((raw[i + 1] & 0x3F) << 6) | (raw[i + 2] & 0x3F)
            if cp in _DANGEROUS_OVERLONG:
                return True
        elif b0 == 0xF0 and i + 3 < len(raw) and raw[i + 1] < 0x90:
            cp = ((raw[i + 2] & 0x3F) << 6) | (raw[i + 3] & 0x3F)
            if cp in _DANGEROUS_OVERLONG:
                return True
        i += 1
    return False


def _introduces_traversal(original: str, transformed: str) -> bool:
    """True if transformed has a NUL, backslash, slash or '..' that original did not have."""
    if transformed == original:
        return False
    return (
        transformed.count("\0") > original.count("\0")
        or transformed.count("\\") > original.count("\\")
        or transformed.count("/") > original.count("/")
        or transformed.count("..") > original.count("..")
    )


def _decode_chain(key: str, steps: tuple[str, ...]) -> list[str]:
    """Every distinct form of key reached by repeatedly applying the given steps ('url', 'nfkc')."""
    forms = []
    current = key
    for _ in range(_MAX_DECODE_ROUNDS):
        changed = False
        for step in steps:
            nxt = (
                _percent_decode_once(current)
                if step == "url"
                else unicodedata.normalize("NFKC", current)
            )
            if nxt != current:
                current = nxt
                forms.append(current)
                changed = True
        if not changed:
            break
    return forms


def _check_encoded_traversal(key: str) -> None:
    """Reject keys whose percent-decoded and/or NFKC-normalised forms gain traversal characters."""
    if _overlong_dangerous(key):
        raise PathTraversalError(
            "url-encoded-traversal",
            f"Overlong UTF-8 percent-encoding of '.', '/' or '\\' in path key {key!r}; "
            "use the plain characters of the file name instead.",
        )
    for form in _decode_chain(key, ("url",)):
        if "\0" in form:
            raise PathTraversalError(
                "null-byte",
                f"Percent-encoded null byte in path key {key!r}; remove the %00 from the name.",
            )
        if _introduces_traversal(key, form):
            raise PathTraversalError(
                "url-encoded-traversal",
                f"URL-encoded traversal in path key {key!r} (decodes to {shown_repr(form)}); "
                "write the file name without percent-encoded '.', '/' or '\\'.",
            )
    for form in _decode_chain(key, ("nfkc",)):
        if _introduces_traversal(key, form):
            raise PathTraversalError(
                "unicode-traversal",
                f"Unicode-normalised traversal in path key {key!r} (NFKC gives {shown_repr(form)}); "
                "use ordinary characters instead of fullwidth or compatibility dots and slashes.",
            )
    for form in _decode_chain(key, ("nfkc", "url")):
        if "\0" in form or _introduces_traversal(key, form):
            raise PathTraversalError(
                "mixed-encoding-traversal",
                f"Traversal hidden behind mixed Unicode and percent-encoding in path key {key!r} "
                f"(decodes to {shown_repr(form)}); use a plain file name.",
            )


def sanitize_path_key(key: str) -> str:
    """Return key unchanged if it is a safe relative key, else raise PathTraversalError naming the rule."""
    if not isinstance(key, str):
        raise TypeError(f"path key must be a str, not {type(key).__name__}")
    if key == "":
        raise PathTraversalError("empty", "Empty path key; give a file name such as 'notes.md'.")
    if "\0" in key:
        raise PathTraversalError(
            "null-byte", f"Null byte in path key {key!r}; remove it from the file name."
        )
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in key):
        raise PathTraversalError(
            "invalid-unicode",
            f"Path key {key!r} contains lone surrogates (undecodable bytes); use a valid UTF-8 name.",
        )
    _check_encoded_traversal(key)
    if "\\" in key:
        raise PathTraversalError(
            "backslash",
            f"Backslash in path key {key!r}; use '/' to separate folders.",
        )
    if key.startswith("/") or _DRIVE_ABSOLUTE().match(key):
        raise PathTraversalError(
            "absolute",
            f"Absolute path key {key!r}; keys are relative to the memory folder, e.g. 'notes/x.md'.",
        )
    segments = key.split("/")
    if ".." in segments:
        raise PathTraversalError(
            "parent-segment",
            f"Path key {key!r} has a '..' segment; name the file directly, without going up a folder.",
        )
    if segments[-1] in ("", "."):
        raise PathTraversalError(
            "not-a-file",
            f"Path key {key!r} names a folder, not a file; end it with a file name such as 'x.md'.",
        )
    return key


# ---------------------------------------------------------------------------------------------
# Pass 2 helpers: real paths (resolved by storage.real_paths, re-exported here)
# ---------------------------------------------------------------------------------------------


def realpath_deepest_existing(path: str | os.PathLike[str]) -> str:
    """Realpath of the deepest existing ancestor of path, with the missing tail re-joined."""
    current = os.path.abspath(os.fspath(path))
    if "\0" in current:
        raise PathTraversalError("null-byte", f"Null byte in path {current!r}.")
    # before the walk up: each step takes the whole path's dirname and real_path refuses a
    # path past PATH_MAX, so 300,000 folders walked up one at a time, quadratic (polish38)
    check_whole_path_length(current)
    tail: list[str] = []
    while True:
        try:
            real = real_path(current, strict=True)
        except OSError as exc:
            code = exc.errno
            if code == errno.ENOENT:
                # A true miss walks up; a symlink whose target is missing is refused, since
                # writing through it would create a file wherever the link points.
                try:
                    st = os.lstat(current)
                except OSError:
                    pass
                else:
                    if stat.S_ISLNK(st.st_mode):
                        raise PathTraversalError(
                            "dangling-symlink",
                            f"Dangling symlink (its target does not exist) at {current!r}; "
                            "remove the link or point it inside the memory folder.",
                        ) from exc
            elif code == errno.ELOOP:
                chain = isinstance(exc, SymlinkChainTooLongError)
                fix = (
                    "point the first link at the file itself"
                    if chain
                    else "remove the looping link"
                )
                words = symlink_loop_words(exc)
                raise PathTraversalError(
                    "symlink-loop", f"{words[0].upper()}{words[1:]} at {current!r}; {fix}."
                ) from exc
            elif code not in (errno.ENOTDIR, errno.ENAMETOOLONG):
                raise PathTraversalError(
                    "cannot-verify",
                    f"Cannot verify where {current!r} really points "
                    f"({errno.errorcode.get(code or 0, code)}: {exc.strerror}); "
                    "refusing the write. Check the folder's permissions.",
                ) from exc
        else:
            return os.path.join(real, *reversed(tail)) if tail else real
        parent = os.path.dirname(current)
        if parent == current:
            raise PathTraversalError(
                "cannot-verify", f"No existing ancestor found for {path!r}; refusing the write."
            )
        tail.append(os.path.basename(current))
        current = parent


def absolute_dir(folder: str | os.PathLike[str]) -> Path:
    """The one path convention: a relative memory dir (or scope, or home) is relative to the cwd.

    Every entry point that takes a folder (the CLI's argument types, MemoryStore, scan, the
    index readers, the daily log, lint, the views) turns it into an absolute path here, once,
    before it builds any path inside it. Paths handed to the contained reader or the store's
    resolver are then absolute, so a relative dir is never joined onto itself ('m6/m6/logs').
    """
    from pathlib import Path  # local: see the imports

    return Path(os.path.abspath(os.fspath(folder)))


def is_real_path_within(real_path: str, real_dir: str, *, or_equal: bool = False) -> bool:
    """True if real_path lies strictly inside real_dir (separator-aware, so 'team-evil' is not in 'team').

    The one containment predicate of the package: every "is this path inside that root" check
    imports it. With or_equal, the root itself counts as inside too. Both paths are compared
    as given (resolve them first when symlinks matter).
    """
    base = real_dir.rstrip(os.sep) + os.sep
    if or_equal and real_path.rstrip(os.sep) + os.sep == base:
        return True
    return real_path.startswith(base) and len(real_path) > len(base)


# ---------------------------------------------------------------------------------------------
# The two-pass validators
# ---------------------------------------------------------------------------------------------


def check_path_length(resolved: str, base: str) -> None:
    """Refuse names the filesystem would reject, with a clear error instead of a late OSError.

    resolved is an absolute path inside base; each name below base is checked, and the whole.
    """
    rel = resolved[len(base) :]
    for part in rel.split(os.sep):
        if len(os.fsencode(part)) > NAME_MAX_BYTES:
            raise PathTraversalError(
                "too-long",
                f"File or folder name {part[:40]!r}... is {len(os.fsencode(part))} bytes; "
                f"the limit is {NAME_MAX_BYTES}. Use a shorter name.",
            )
    check_whole_path_length(resolved)


def check_whole_path_length(resolved: str) -> None:
    """check_path_length's test of the whole path (PATH_MAX_BYTES), its names left alone: for
    a walk that passes over a name too long to exist (realpath_deepest_existing)."""
    size = size_past_path_max(resolved)
    if size is not None:
        raise PathTraversalError(
            "too-long",
            f"Path is {size} bytes; the limit is {PATH_MAX_BYTES}. "
            "Use fewer or shorter folder names.",
        )


def unreadable_reason(exc: OSError, path: str, what: str = "") -> str:
    """The skip reason for a file or folder (what: "folder ") that could not be looked at:
    the error's class ("unreadable: PermissionError"), but for a path the system refuses as too
    long, which is said with its length, the limit and the fix (it read "unreadable folder:
    OSError", naming neither), as check_path_length says it of a path about to be made."""
    if exc.errno == errno.ENAMETOOLONG:
        size = len(os.fsencode(path))
        longest = max((len(os.fsencode(n)) for n in path.split(os.sep)), default=0)
        if size <= PATH_MAX_BYTES and longest > NAME_MAX_BYTES:  # one name, not the whole
            return (
                f"{what}path holds a name of {longest:,} bytes, longer than the system allows "
                f"({NAME_MAX_BYTES:,}); give it a shorter name"
            )
        return (
            f"{what}path is {size:,} bytes, longer than the system allows ({PATH_MAX_BYTES:,}); "
            "move the memory dir nearer the root or give its folders shorter names"
        )
    return f"unreadable {what}".rstrip() + f": {type(exc).__name__}"


def _validate_within(
    path: str | os.PathLike[str], base_dir: str | os.PathLike[str], label: str
) -> str:
    """Pass 1 (lexical containment) then pass 2 (real containment); return the resolved path."""
    raw = os.fspath(path)
    base_raw = os.fspath(base_dir)
    if "\0" in raw or "\0" in base_raw:
        raise PathTraversalError("null-byte", f"Null byte in path {raw!r}; remove it.")
    if base_raw == "":
        raise ValueError(f"The {label} path is empty; pass the folder the write must stay in.")
    base = os.path.abspath(base_raw)
    candidate = raw if os.path.isabs(raw) else os.path.join(base, raw)
    resolved = os.path.abspath(candidate)
    base_with_sep = base.rstrip(os.sep) + os.sep

    # Pass 1: lexical containment, separator-aware.
    if not (resolved.startswith(base_with_sep) and len(resolved) > len(base_with_sep)):
        raise PathTraversalError(
            "escapes-dir",
            # the path quoted whole once (resolved); as sent and the base, cut (polish38)
            f"Path {shown_repr(raw)} resolves to {resolved!r}, outside the {label} "
            f"{shown_repr(base_with_sep)}.",
        )

    # Pass 2: follow symlinks on the deepest existing ancestor, for both the target and the
    # base (the configured base may itself be a symlink; its target is then the real base).
    real_target = realpath_deepest_existing(resolved)
    real_base = realpath_deepest_existing(base)
    if not is_real_path_within(real_target, real_base):
        raise PathTraversalError(
            "symlink-escape",
            f"Path {shown_repr(raw)} escapes the {label} through a symlink: it really points "
            f"to {real_target!r}, outside {shown_repr(real_base)}. Remove the symlink or write "
            "elsewhere.",
        )
    # A path past PATH_MAX was refused before the walk (realpath_deepest_existing: 300,000
    # short folders kept it busy for 90 s, attack38); a name too long is checked here, after a
    # symlink leading out, which is the path's first problem (the attack corpus's
    # too-long-behind-escape).
    check_path_length(resolved, base_with_sep)
    return resolved


def validate_team_mem_write_path(
    path: str | os.PathLike[str], team_dir: str | os.PathLike[str]
) -> str:
    """Check that a write to path (absolute, or relative to team_dir) stays inside team_dir; return it resolved."""
    return _validate_within(path, team_dir, "team memory folder")


def validate_team_mem_key(key: str, team_dir: str | os.PathLike[str]) -> str:
    """Sanitize a relative key and check that team_dir/key stays inside team_dir; return the absolute path."""
    sanitize_path_key(key)
    return validate_team_mem_write_path(
        os.path.join(os.path.abspath(os.fspath(team_dir)), key), team_dir
    )


def validate_memory_write_path(
    path: str | os.PathLike[str], memory_dir: str | os.PathLike[str]
) -> str:
    """The same two passes for the private scope: path must stay inside memory_dir; return it resolved."""
    return _validate_within(path, memory_dir, "memory folder")


def validate_project_path(path: str | os.PathLike[str], project_dir: str | os.PathLike[str]) -> str:
    """The same two passes for a folder a project keeps in its own tree (`.claude/agent-memory/x`).

    A repository can commit symlinks, so a path the project's tree holds must really stay in
    the project folder; return it resolved.
    """
    return _validate_within(path, project_dir, "project folder")
