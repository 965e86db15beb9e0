"""Which file a memory is in a store: its store filename, and the name a new memory gets.

A store names a memory by its path relative to the memory dir, as store.list() shows it:
'name.md' for a private memory, 'team/name.md' for a team one (split_store_filename reads one,
store_filename writes one). A new memory is saved under the name its title gives
(store_checks.default_filename), or `stem_2.md`, `stem_3.md`... when another memory already
has it; the very same memory saved again (apart from its `modified:` time) keeps its file, so a
save repeated makes no duplicate (free_memory_filename, holds_same_memory).
"""

from __future__ import annotations

import os
from pathlib import Path

from memdir_nb.formats.frontmatter_render import without_modified
from memdir_nb.spec.constants import TEAM_DIRNAME
from memdir_nb.storage.access import ReadResult, holds_exactly, try_read_contained
from memdir_nb.storage.store_checks import MemoryValidationError, check_plain_md_name


def split_store_filename(filename: object) -> tuple[str, str]:
    """'x.md' -> ('private', 'x.md'); 'team/x.md' -> ('team', 'x.md')."""
    if not isinstance(filename, str):
        raise MemoryValidationError(
            f"filename must be a string such as 'x.md' or 'team/x.md', got {type(filename).__name__}"
        )
    if filename.startswith(TEAM_DIRNAME + "/"):  # scope_of_path, but refusing other folders
        return "team", check_plain_md_name(filename[len(TEAM_DIRNAME) + 1 :])
    if "/" in filename:
        raise MemoryValidationError(
            f"filename {filename!r} must be 'name.md' (private) or 'team/name.md' (team), "
            "relative to the memory dir, as store.list() shows them"
        )
    return "private", check_plain_md_name(filename)


def store_filename(scope: str, plain: str) -> str:
    """('team', 'x.md') -> 'team/x.md'; ('private', 'x.md') -> 'x.md'."""
    return f"{TEAM_DIRNAME}/{plain}" if scope == "team" else plain


def holds_same_memory(memory_dir: Path, path: Path, text: str) -> bool:
    """Whether path holds text, apart from the `modified:` time in its header."""
    if holds_exactly(memory_dir, path, text.encode("utf-8")):
        return True
    res = try_read_contained(memory_dir, path, len(text.encode("utf-8")) + 256)
    if not isinstance(res, ReadResult) or res.truncated or not res.valid_utf8:
        return False
    return without_modified(res.text) == without_modified(text)


def free_memory_filename(
    memory_dir: Path, scope: str, scope_dir: Path, base: str, text: str, explicit: bool
) -> str:
    """`base`, or `stem_2.md`, `stem_3.md`... when another memory already has that name; with
    explicit (a filename the caller chose), that name or MemoryValidationError."""
    stem = base[: -len(".md")]
    n = 1
    while True:
        plain = base if n == 1 else f"{stem}_{n}.md"
        path = scope_dir / plain
        if not os.path.lexists(path):
            return plain
        if not path.is_symlink() and holds_same_memory(memory_dir, path, text):
            return plain  # the very same memory saved again: no duplicate
        if explicit:
            rel = store_filename(scope, plain)
            raise MemoryValidationError(
                f"{rel} already holds another memory; call "
                f"store.update({rel!r}, ...) to change it, or pick a new filename"
            )
        n += 1
