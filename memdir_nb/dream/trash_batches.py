"""The batches in .trash/ a restore can put back (dreams, the memory tool's deletes, replaced
indexes, imports), each a folder with a manifest.json, in the order their stamps name."""

from __future__ import annotations

import os

from memdir_nb.dream.restore_error import RestoreError
from memdir_nb.spec.constants import (
    DREAM_BATCH_PREFIX,
    IMPORT_BATCH_PREFIX,
    MEMORY_TOOL_BATCH_PREFIX,
    REBUILD_BATCH_PREFIX,
    TRASH_DIRNAME,
)
from memdir_nb.spec.timestamps import trash_stamp_seconds
from memdir_nb.storage import fsutil
from memdir_nb.storage.containment import absolute_dir


def list_dreams(memory_dir: str | os.PathLike[str]) -> list[str]:
    """Batch names of applied dreams in .trash/, oldest first."""
    return [b for b in list_trash_batches(memory_dir) if b.startswith(DREAM_BATCH_PREFIX)]


BATCH_PREFIXES = (
    DREAM_BATCH_PREFIX,
    MEMORY_TOOL_BATCH_PREFIX,
    REBUILD_BATCH_PREFIX,
    IMPORT_BATCH_PREFIX,
)


def list_trash_batches(memory_dir: str | os.PathLike[str]) -> list[str]:
    """Restorable batches in .trash/ (dreams, the memory tool's deletes, replaced indexes), oldest first.

    .trash itself is listed without following a link: one that is a symlink (or not a folder)
    is refused with RestoreError, rather than listing another folder's names. A batch that is
    a link is listed, and reading it is that batch's refusal (the contained reader's).
    """
    root = absolute_dir(memory_dir)
    try:
        names = fsutil.names_in_nofollow(root, [TRASH_DIRNAME])
    except FileNotFoundError:
        return []
    except fsutil.SymlinkSwapError as exc:
        raise RestoreError(
            f"{root / TRASH_DIRNAME} is not a folder of the memory dir's own (a symlink, or not "
            "a folder), so no batch in it is listed or restored; move it aside to see what it is"
        ) from exc
    found = []
    for name in names:
        for prefix in BATCH_PREFIXES:
            # fsutil's test: pathlib's is_file raised for a batch past PATH_MAX (or one this
            # user cannot enter), and that took the whole listing down (attack round 17)
            if name.startswith(prefix) and fsutil.is_regular_file(
                root / TRASH_DIRNAME / name / "manifest.json"
            ):
                found.append((_batch_order(name[len(prefix) :]), name))
    return [name for _order, name in sorted(found)]


def _batch_order(rest: str) -> tuple[float, str]:
    """A batch's place: the moment its stamp names (a local-time stamp of an older version and
    a UTC one of this version compared as moments, not as text), then the name."""
    seconds = trash_stamp_seconds(rest)
    return (seconds if seconds is not None else float("-inf"), rest)


def batch_seconds(batch: str) -> float:
    """The moment a batch's stamp names (-inf when it names none), as the listing orders it."""
    prefix = next((p for p in BATCH_PREFIXES if batch.startswith(p)), "")
    return _batch_order(batch[len(prefix) :])[0]
