"""Where a write lands: the write-time checks that turn a path into a store target.

Every write of the store resolves its path here at the moment it writes: both containment
passes of `containment`, the realpath of the deepest existing ancestor, the store's own lock and
journal refused as targets, the trash's folders its own (never a link, attack round 30), and
team-ness decided on the resolved path (a folder linking to team/ is team). `StoreTransaction.resolve` and the daily log's append use it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.spec import constants
from memdir_nb.spec.timestamps import trash_stamp, trash_stamp_seconds
from memdir_nb.storage import containment as team_paths

_RESERVED = frozenset({constants.STORE_LOCK_NAME, constants.STORE_JOURNAL_NAME})


def _require_own_trash(root: str, checked: str, real_root: str) -> None:
    """A path named under .trash/ must reach it through folders of the dir's own, no link.

    Containment lets a folder link to another folder inside the dir, but `.trash -> archive`
    (or a batch folder linking out of the trash) put what was trashed among the memories:
    scan and recall listed it again, and restore, which lists .trash without following a
    link, could not bring the batch back (attack round 30). The final name may still be a
    link (a symlinked memory is trashed as the link it is).
    """
    named = os.path.relpath(os.path.dirname(checked), root).split(os.sep)
    if named[0] != constants.TRASH_DIRNAME:
        return
    real = team_paths.realpath_deepest_existing(os.path.dirname(checked))
    if os.path.relpath(real, real_root).split(os.sep) != named:
        shown = os.path.join(root, *named)
        raise team_paths.PathTraversalError(
            "trash-link",
            f"{shown!r} is not a folder of the memory dir's own: it leads to {real!r} through "
            "a symlink, so what is moved to the trash would land there (among the memories, "
            "where restore cannot find it). Move the link aside so "
            f"{constants.TRASH_DIRNAME} is a plain folder, then run again.",
        )


@dataclass(frozen=True)
class Target:
    """A write target after the write-time checks: its real path, parts and scope."""

    path: Path  # the real path (inside the real memory dir)
    rel: str  # '/'-separated, relative to the real memory dir
    parts: tuple[str, ...]
    team: bool  # inside the real team/ folder, whatever path named it

    @property
    def hidden(self) -> bool:
        """True when a component starts with a dot (trash, locks, temp files)."""
        return any(p.startswith(".") for p in self.parts)


def resolve_target(
    memory_dir: str | os.PathLike[str],
    path: str | os.PathLike[str],
    *,
    follow_final: bool = True,
) -> Target:
    """Both containment passes, then the resolved path relative to the real memory dir; raises PathTraversalError.

    follow_final=False resolves the folders only, so a move takes a symlinked memory itself
    (which must still point inside the dir) rather than the file it points to.
    """
    root = os.path.abspath(os.fspath(memory_dir))
    raw = os.fspath(path)
    checked = team_paths.validate_memory_write_path(
        raw if os.path.isabs(raw) else os.path.join(root, raw), root + os.sep
    )
    real_root = team_paths.realpath_deepest_existing(root)
    if follow_final:
        real = team_paths.realpath_deepest_existing(checked)
    else:
        real = os.path.join(
            team_paths.realpath_deepest_existing(os.path.dirname(checked)),
            os.path.basename(checked),
        )
    if not team_paths.is_real_path_within(real, real_root):  # pragma: no cover - pass 2 covers it
        raise team_paths.PathTraversalError("symlink-escape", f"{raw!r} leaves {root!r}")
    _require_own_trash(root, checked, real_root)
    parts = tuple(os.path.relpath(real, real_root).split(os.sep))
    if parts[-1] in _RESERVED and len(parts) == 1:
        raise team_paths.PathTraversalError(
            "reserved",
            f"{parts[-1]} is the store's own lock or journal, not a memory; write another file",
        )
    real_team = team_paths.realpath_deepest_existing(os.path.join(root, constants.TEAM_DIRNAME))
    team = team_paths.is_real_path_within(real, real_team)
    if team:  # the team rules, on the resolved path (an alias folder linking to team/ is team)
        team_paths.validate_team_mem_write_path(real, real_team)
    return Target(Path(real), "/".join(parts), parts, team)


def free_trash_path(trash_dir: Path, rel: str, now_ms: float) -> Path:
    """Where a forgotten memory rel goes in trash_dir: `<stamp>-<rel, '/' as '__'>`, with `-2`,
    `-3`... after the stamp while that name is taken (MemoryStore.forget)."""
    prefix = trash_stamp(now_ms, with_ms=True)
    flat = rel.replace("/", "__")
    candidate = trash_dir / f"{prefix}-{flat}"
    n = 2
    while os.path.lexists(candidate):
        candidate = trash_dir / f"{prefix}-{n}-{flat}"
        n += 1
    return candidate


# Beside a forgotten copy `<stamp>-x.md`, the index lines its forget dropped (index_writes):
# no memory name ends so (every one ends in .md), so it is never read as a forgotten copy.
KEPT_LINES_SUFFIX = ".index-line"


def kept_lines_name(trash_name: str) -> str:
    """The name of the file keeping the index lines dropped when trash_name was forgotten."""
    return trash_name + KEPT_LINES_SUFFIX


# `<stamp>` as free_trash_path writes it: 20261203T142000123Z (trash_stamp with_ms), 19 characters
_FORGOTTEN_STAMP_LEN = 19


def forgotten_stamp(trash_name: str) -> float | None:
    """The moment a name free_trash_path made (`<stamp>-<name>`) was forgotten, or None when
    trash_name is no such name. The layout has no manifest: the name is all there is."""
    stamp, rest = trash_name[:_FORGOTTEN_STAMP_LEN], trash_name[_FORGOTTEN_STAMP_LEN:]
    if not (stamp.endswith("Z") and rest.startswith("-") and len(rest) > 1):
        return None
    if trash_name.endswith(KEPT_LINES_SUFFIX):  # a forgotten copy's kept index lines
        return None
    return trash_stamp_seconds(stamp)


def forgotten_copy_order(trash_name: str, rel: str) -> tuple[float, int] | None:
    """Where trash_name stands among the copies of rel free_trash_path made (its stamp's
    moment, then its `-2`, `-3`... number; newest last when sorted), or None when trash_name
    is not a forgotten copy of rel."""
    seconds = forgotten_stamp(trash_name)
    if seconds is None:
        return None
    rest, flat = trash_name[_FORGOTTEN_STAMP_LEN + 1 :], rel.replace("/", "__")
    if rest == flat:
        return seconds, 1
    number = rest[: -len(flat) - 1] if rest.endswith("-" + flat) else ""
    return (seconds, int(number)) if number.isdigit() and number.isascii() else None
