"""Test helpers shared across test suites: memory-dir builders and a local Messages API."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from memdir_nb.formats.index import parse_index
from memdir_nb.spec.constants import ENTRYPOINT_NAME, STORE_LOCK_NAME, TEAM_DIRNAME
from memdir_nb.storage.scan import scan_memory_dir

DAY_MS = 86_400_000


def write_memory(
    memory_dir: Path,
    filename: str,
    *,
    name: str,
    description: str,
    type: str = "project",
    body: str = "Body text.",
    age_days: float = 0.0,
    now_ms: float,
) -> Path:
    """Write a memory file with YAML frontmatter and set its mtime to age_days before now_ms."""
    path = Path(memory_dir) / filename
    path.parent.mkdir(parents=True, exist_ok=True)
    header = yaml.safe_dump(
        {"name": name, "description": description, "type": type},
        sort_keys=False,
        allow_unicode=True,
    )
    path.write_text(f"---\n{header}---\n\n{body}\n", encoding="utf-8")
    mtime_s = (now_ms - age_days * DAY_MS) / 1000.0
    os.utime(path, (mtime_s, mtime_s))
    return path


# A fixed clock for tests that build the demo dir: 2026-02-02, so ages read the same every run.
NOW = 1_770_000_000_000.0


def snapshot(
    root: Path,
    *,
    ignore: Collection[str] = (STORE_LOCK_NAME,),
    skip_dot_paths: bool = False,
    mtimes: bool = False,
) -> dict[str, tuple[Any, ...]]:
    """Everything under root, to prove an operation changed nothing (or exactly what it should).

    Relative path -> (kind, content) with kind "file" (bytes), "link" (its target, not followed)
    or "dir"; with mtimes=True each entry also carries its mtime_ns. `ignore` names relative
    paths to leave out: by default the store's lock file, since taking the lock before refusing
    is not a write. skip_dot_paths leaves out anything under a dot-folder (trash, locks).
    """
    out: dict[str, tuple[Any, ...]] = {}
    if not os.path.lexists(root):
        return out
    for dirpath, dirnames, filenames in os.walk(root):
        for name in sorted(dirnames + filenames):
            full = os.path.join(dirpath, name)
            rel = Path(os.path.relpath(full, root)).as_posix()
            if rel in ignore or (skip_dot_paths and any(p.startswith(".") for p in rel.split("/"))):
                continue
            if os.path.islink(full):
                entry: tuple[Any, ...] = ("link", os.readlink(full))
            elif os.path.isdir(full):
                entry = ("dir", b"")
            else:
                entry = ("file", Path(full).read_bytes())
            if mtimes:
                entry += (os.lstat(full).st_mtime_ns,)
            out[rel] = entry
    return dict(sorted(out.items()))


# ---------------------------------------------------------------- store consistency (reliability)

BODY_END = "END-OF-BODY"  # the last line of every body the soak tests write: a torn file lacks it


def index_targets(scope_dir: Path) -> list[str]:
    """Every entry target in a scope's MEMORY.md, duplicates kept."""
    path = scope_dir / ENTRYPOINT_NAME
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return [e.target for e in parse_index(text)]


def check_consistent(memory_dir: Path) -> list[str]:
    """Problems found: files without exactly one index line, lines pointing at nothing."""
    problems = []
    headers = scan_memory_dir(memory_dir, limit=None).headers
    for scope, scope_dir in (("private", memory_dir), ("team", memory_dir / TEAM_DIRNAME)):
        targets = index_targets(scope_dir)
        rel = [
            h.filename.split("/", 1)[1] if scope == "team" else h.filename
            for h in headers
            if h.scope == scope
        ]
        for name in rel:
            n = targets.count(name)
            if n != 1:
                problems.append(f"{scope}/{name}: {n} index lines")
        for t in set(targets) - set(rel):
            problems.append(f"{scope} index points at missing {t}")
    return problems


# ---------------------------------------------------------------- the symlink attack tree (security)


@dataclass(frozen=True)
class AttackTree:
    """Paths of a memory dir whose team/ folder holds symlinks of every kind."""

    root: Path  # holds memory/ and an outside/ folder
    memory: Path  # <root>/memory
    team: Path  # <root>/memory/team
    team_evil: Path  # <root>/memory/team-evil (a sibling that shares the prefix)
    outside: Path  # <root>/outside


def build_attack_tree(root: Path) -> AttackTree:
    """Create the tree; every link is a real symlink on disk."""
    memory = root / "memory"
    team = memory / TEAM_DIRNAME
    team_evil = memory / "team-evil"
    outside = root / "outside"
    for d in (team / "sub", team / "inner_dir", team_evil, outside):
        d.mkdir(parents=True, exist_ok=True)
    (memory / "private_secret.md").write_text("private\n")
    (team / "existing.md").write_text("team file\n")
    (outside / "target.md").write_text("outside\n")

    links = {
        team / "link_root": "/",
        team / "link_etc": "/etc",
        team / "link_sibling": "../team-evil",
        team / "link_private": "../private_secret.md",
        team / "link_outside_abs": str(outside),
        team / "link_outside_file": str(outside / "target.md"),
        team / "sub" / "up": "../..",
        team / "dangling": str(root / "does-not-exist"),
        team / "dangling_inside": "not_yet_created.md",
        team / "loop_a": "loop_b",
        team / "loop_b": "loop_a",
        team / "self": "self",
        team / "link_inside": "inner_dir",
        team / "link_inside_abs": str(team / "inner_dir"),
        memory / "private_link_out": str(outside),
    }
    for link, target in links.items():
        os.symlink(target, link)
    return AttackTree(root=root, memory=memory, team=team, team_evil=team_evil, outside=outside)


def link_chain(folder: Path, links: int, end: str) -> Path:
    """links symlinks in folder, each leading to the next and the last to end; the first."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(links):
        os.symlink(f"c{i + 1}" if i + 1 < links else end, folder / f"c{i}")
    return folder / "c0"


def make_nested(folder: Path, depth: int) -> list[Path]:
    """folder/a/a/…/a, depth folders below folder (folder made too), made one at a time
    (os.makedirs recurses once a folder in Python 3.11); every folder made, the deepest last."""
    made = [folder]
    folder.mkdir()
    for _ in range(depth):
        made.append(made[-1] / "a")
        made[-1].mkdir()
    return made


@contextlib.contextmanager
def nested_folders(folder: Path, depth: int) -> Iterator[Path]:
    """make_nested, the deepest yielded, and all removed one at a time afterwards: shutil.rmtree
    (pytest's own cleanup of tmp_path too) recurses once a folder in Python 3.11, and raises
    RecursionError at about 1,000."""
    made = make_nested(folder, depth)
    try:
        yield made[-1]
    finally:
        for path in reversed(made):
            for entry in os.scandir(path):
                if not entry.is_dir(follow_symlinks=False):
                    os.unlink(entry.path)
            os.rmdir(path)
