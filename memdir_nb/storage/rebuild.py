"""Rebuilding a MEMORY.md from the topic files and writing it through the memory dir's store."""

from __future__ import annotations

import os
from typing import Literal

from memdir_nb.spec.constants import TEAM_DIRNAME
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.index_files import entrypoint_path, index_scope, rebuilt_index_text
from memdir_nb.storage.store import MemoryStore


def rebuild_index(
    scope_dir: str | os.PathLike[str],
    *,
    write: bool = True,
    scope: Literal["private", "team"] | None = None,
) -> str:
    """Rebuild a scope's MEMORY.md from its topic files' frontmatter; return the new text.

    With write=True the text is written through the store's transaction: team/ through the
    memory dir's (team rules, secret guard); any other folder is its own memory dir.
    """
    folder = absolute_dir(scope_dir)
    text = rebuilt_index_text(folder, scope=scope)
    if write:
        is_team = index_scope(folder, scope) == "team" and folder.name == TEAM_DIRNAME
        store = MemoryStore(folder.parent if is_team else folder)
        with store.transaction() as tx:
            tx.write(entrypoint_path(folder), text)  # re-checked now: a swapped folder is refused
    return text
