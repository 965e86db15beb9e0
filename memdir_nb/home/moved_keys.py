"""The keys a moved project's folders had and have: the one rule for a session's old keys.

Claude Code files a transcript under the key of the folder a session ran in and keeps the
project's memory under the key of its canonical git root: that folder or one above it. A
session run in ``kiln/web`` writes ``…/projects/-media-old-kiln/memory/…`` while its
transcript sits in ``-media-old-kiln-web``. When the project moves (a home copied to another
machine, a folder renamed, and the project folders renamed with it), the transcript is filed
under the new key of its working folder (``-srv-work-kiln-web``) while its records still name
the old ones. The old key of the working folder, or of a folder above it, has become the
folder the transcript is filed under less what the working folder's key adds to that
folder's (``-web``): ``-srv-work-kiln``. A key the session names that belongs to no folder on
the way up from its working folder is left alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from memdir_nb.formats.transcript_paths import key_fold, rooted, slashed
from memdir_nb.home.path_rules import MAX_SANITIZED_LENGTH, sanitize_path


def _folder_keys(cwd: str) -> Iterator[tuple[str, str]]:
    """(key, added) for the working folder and each folder above it but the root: the
    folder's key and what the working folder's key adds to it ('' for the folder itself).
    A working folder whose key is cut and hashed (past MAX_SANITIZED_LENGTH) has no folder
    above it whose key is a start of its own: only itself is given."""
    whole = sanitize_path(cwd)
    yield whole, ""
    if len(whole) > MAX_SANITIZED_LENGTH:  # its key is no longer its text: nothing to cut
        return
    text = slashed(cwd).rstrip("/")
    anchor = text.index("/") + 1 if rooted(text) else len(text)  # '/' or 'D:/'
    for at in range(len(text) - 1, anchor - 1, -1):
        if text[at] == "/":
            key = sanitize_path(text[:at])  # slashed: an upper-case drive letter
            if key_fold(whole).startswith(key_fold(key)):
                yield whole[: len(key)], whole[len(key) :]  # the case the records gave


def moved_keys(cwd: str | None, filed_as: str) -> Iterator[tuple[str, str]]:
    """(old key, key now) for the session's working folder and each folder above it, its
    transcript filed under the project folder named filed_as (see the module doc); nothing
    for no working folder or a relative one. Nearest folder first."""
    if not cwd or not rooted(slashed(cwd)):
        return
    for key, added in _folder_keys(cwd):
        if not added:
            yield key, filed_as
        elif len(filed_as) > len(added) and key_fold(filed_as).endswith(key_fold(added)):
            yield key, filed_as[: len(filed_as) - len(added)]


def former_project_keys(cwd: str | None, filed_as: str, memory_key: str) -> tuple[str, ...]:
    """The old keys whose key now is memory_key and that differ from it: the keys the
    session's records name for the memory dir under memory_key (the dir beside its transcript,
    or a folder's above its working folder), when the project moved."""
    own = key_fold(memory_key)
    found = (old for old, now in moved_keys(cwd, filed_as) if key_fold(now) == own)
    return tuple(dict.fromkeys(old for old in found if key_fold(old) != own))
