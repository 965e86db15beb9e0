"""Deletes and renames of a folder in the memory timeline (formats/memory_timeline).

A Bash `rm -r notes` or `mv drafts archive` inside the memory dir names a folder, and its
operation is on every file under it. Whether a path is a folder is read from the session as a
whole: a path that a file of the dir, or of another change, lies under (real36: after
`rm -rf tech-lead` in a subfolder, the replay held a file named `tech-lead` in every earlier
turn, and refused it at each). `mv a b` moves folder a into b when b is a folder and renames it
b otherwise; the shell reading cannot tell which (formats/shell_ops names `b/a`), so a file
seen under `b/` but never under `b/a/` tells the second.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

F = TypeVar("F")


def folder_changes(
    changes: Sequence[tuple[str, str, str | None]], paths: Iterable[str]
) -> list[tuple[bool, str | None]]:
    """For each change (kind, rel, new_rel): whether it is a delete or rename of a folder, and
    its target (a rename's, perhaps the folder renamed rather than moved into; else new_rel).
    paths: the dir's files now; every path a change names counts too."""
    seen = {*paths, *(rel for _, rel, _ in changes), *(new for _, _, new in changes if new)}
    folders = {p[:i] for p in seen for i, ch in enumerate(p) if ch == "/"}
    found: list[tuple[bool, str | None]] = []
    for kind, rel, new in changes:
        if kind not in ("delete", "rename") or rel not in folders:
            found.append((False, new))
        elif new and new not in folders and posixpath.dirname(new) in folders:
            found.append((True, posixpath.dirname(new)))  # `mv a b` with no folder b: a is b
        else:
            found.append((True, new))
    return found


def move_folder(
    state: dict[str, F], old: str, new: str | None, renamed: Callable[[F, str], F]
) -> None:
    """Every file of state under folder old moved under new (None: removed), in place."""
    for rel in [r for r in state if r.startswith(old + "/")]:
        moved = state.pop(rel)
        if new is not None:
            to = new + rel[len(old) :]
            state[to] = renamed(moved, to)


def folder_touched(old: str, new: str | None, *states: Mapping[str, object]) -> set[str]:
    """The files a folder's move between old and new (either way) can change in states: each
    file under either folder, and its name under the other."""
    touched: set[str] = set()
    for state in states:
        for rel in state:
            for here, there in ((old, new), (new, old)):
                if here is not None and rel.startswith(here + "/"):
                    touched.add(rel)
                    if there is not None:
                        touched.add(there + rel[len(here) :])
    return touched
