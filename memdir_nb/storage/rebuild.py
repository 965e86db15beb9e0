"""Rebuilding one folder's MEMORY.md through the memory dir's store (see storage.index_rebuild)."""

from __future__ import annotations

import os
from typing import Literal

from memdir_nb.spec.constants import TEAM_DIRNAME
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.index_files import index_scope
from memdir_nb.storage.index_rebuild import (
    check_scope_folder,
    plan_index_rebuild,
    rebuild_in_transaction,
)
from memdir_nb.storage.store import MemoryStore


def rebuild_index(
    scope_dir: str | os.PathLike[str],
    *,
    write: bool = True,
    scope: Literal["private", "team"] | None = None,
    drop_dangling: bool = False,
) -> str:
    """Rebuild a scope's MEMORY.md, keeping every line people wrote; return the new text.

    Memories no line points at are added under their own heading; dangling lines are removed
    only with drop_dangling. With write=True the text is written through the store's
    transaction (team/ through the memory dir's: team rules, secret guard; any other folder
    is its own memory dir), and the old index is kept in `.trash/rebuild-index-<stamp>/`.
    """
    folder = absolute_dir(scope_dir)
    if not write:
        return plan_index_rebuild(folder, scope=scope, drop_dangling=drop_dangling).text
    resolved = index_scope(folder, scope)
    is_team = resolved == "team" and folder.name == TEAM_DIRNAME
    store = MemoryStore(folder.parent if is_team else folder)
    check_scope_folder(folder, resolved)  # before taking the lock
    with store.transaction() as tx:
        result = rebuild_in_transaction(
            tx, {resolved: folder}, now_ms=store._now_ms(), drop_dangling=drop_dangling
        )
    return result.rebuilds[0].text
