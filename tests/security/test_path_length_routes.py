"""A path longer than any system call takes, on each route into storage.real_paths.real_path.

Resolving a path is quadratic in its number of parts, as os.path.realpath is: 300,000
one-letter folders (600 KB) held a route for more than 40 s (polish38). real_path now refuses
such a path at once (PathTooLongError, errno ENAMETOOLONG), strict or not, and the walk up a
path's ancestors (realpath_deepest_existing) checks the whole length first. The timeouts are
generous; each test asserts the refusal, not a time.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.home.git_root import find_canonical_git_root, git_pointer_problem
from memdir_nb.home.path_rules import cache_folder_problem
from memdir_nb.reports.claude_md import IMPORTS, claude_md_reference
from memdir_nb.spec.constants import PATH_MAX_BYTES
from memdir_nb.storage.containment import (
    PathTooLongError,
    PathTraversalError,
    real_path,
    real_path_or_none,
    realpath_deepest_existing,
    same_real_path,
)
from memdir_nb.storage.fsutil import open_real_dir
from memdir_nb.storage.listing import list_memory_files
from memdir_nb.storage.scan import scan_memory_dir

PARTS = 300_000


def _huge(tmp_path: Path) -> str:
    return os.path.join(tmp_path, "a/" * PARTS + "b")


ROUTES: dict[str, Callable[[str, Path], object]] = {
    "real_path": lambda p, _t: real_path(p),
    "real_path-strict": lambda p, _t: real_path(p, strict=True),
    "open_real_dir (a caller's folder)": lambda p, _t: open_real_dir(p),
    "git_pointer_problem (a caller's cwd)": lambda p, _t: git_pointer_problem(p),
    # lefts38c: Path.is_dir's own OSError quoted the 600 KB path whole
    "find_canonical_git_root (a caller's cwd)": lambda p, _t: find_canonical_git_root(p),
    "find_canonical_git_root, no git": lambda p, _t: find_canonical_git_root(p, git=None),
}


@pytest.mark.timeout(30)
@pytest.mark.parametrize("route", sorted(ROUTES))
def test_a_path_of_many_folders_is_refused_as_too_long_before_it_is_resolved(
    tmp_path: Path, route: str
) -> None:
    with pytest.raises(PathTooLongError) as info:
        ROUTES[route](_huge(tmp_path), tmp_path)
    assert info.value.errno == errno.ENAMETOOLONG
    assert f"({PATH_MAX_BYTES:,})" in str(info.value) and len(str(info.value)) < 1_000


@pytest.mark.timeout(30)
def test_a_walk_up_a_path_of_many_folders_is_refused_before_the_walk(tmp_path: Path) -> None:
    """realpath_deepest_existing (containment's pass 2, the cache folder's and a home's
    checks) walked up one ancestor at a time, a dirname of the whole path at each step."""
    with pytest.raises(PathTraversalError) as info:
        realpath_deepest_existing(_huge(tmp_path))
    assert info.value.rule == "too-long"


@pytest.mark.timeout(30)
def test_a_settings_cache_folder_of_many_folders_is_judged_at_once(tmp_path: Path) -> None:
    """A cache folder read from a settings file: cannot be resolved, so cannot be made."""
    huge = _huge(tmp_path)
    assert cache_folder_problem(huge, tmp_path / "claude", os.fspath(tmp_path), ()) is None


@pytest.mark.timeout(30)
def test_a_memory_dir_of_many_folders_is_scanned_to_a_skip_at_once(tmp_path: Path) -> None:
    huge = _huge(tmp_path)
    report = scan_memory_dir(huge)
    assert report.headers == [] and [s.path for s in report.skipped] == ["."]
    # lefts38c: the reason says the length, the limit and the fix, not "PathTooLongError"
    size = len(os.fsencode(os.path.abspath(huge)))
    assert report.skipped[0].reason == (
        f"cannot list the memory dir: path is {size:,} bytes, longer than the system allows "
        f"({PATH_MAX_BYTES:,}); move the memory dir nearer the root or give its folders "
        "shorter names"
    )


@pytest.mark.timeout(30)
def test_a_memory_dir_of_many_folders_is_listed_to_a_skip_as_the_scan_gives(
    tmp_path: Path,
) -> None:
    """lint, analysis and the dream list with list_memory_files: the same skip, no raise."""
    huge = _huge(tmp_path)
    listing = list_memory_files(huge)
    assert listing.files == [] and [s.path for s in listing.skipped] == ["."]
    assert listing.skipped[0].reason == scan_memory_dir(huge).skipped[0].reason


def test_a_path_at_the_limit_is_still_resolved(tmp_path: Path) -> None:
    """Refused only past PATH_MAX_BYTES: a path the system takes is resolved as before."""
    at_limit = os.path.join(tmp_path, "x" * 200 + "/")
    at_limit += "y/" * ((PATH_MAX_BYTES - len(at_limit)) // 2)
    assert len(os.fsencode(at_limit)) <= PATH_MAX_BYTES
    assert real_path(at_limit) == os.path.normpath(at_limit)
    past = at_limit + "z" * PATH_MAX_BYTES
    assert real_path_or_none(past) is None
    assert not same_real_path(past, past)  # names no file, so it is the same as none


def test_an_import_longer_than_any_path_names_no_file_and_doctor_goes_on(tmp_path: Path) -> None:
    """claude_md: an @-import is read from a CLAUDE.md (up to 64 KB); one past the system's
    limit names no file, and the look-up goes on to the next import, as before."""
    folder = tmp_path / ".claude" / "memory"
    folder.mkdir(parents=True)
    (folder / "MEMORY.md").write_text("- [Stack](stack.md) - db\n", encoding="utf-8")
    long_import = "@" + "a/" * 30_000 + "x.md"
    (tmp_path / "CLAUDE.md").write_text(
        f"{long_import}\n@.claude/memory/MEMORY.md\n", encoding="utf-8"
    )
    assert claude_md_reference(tmp_path, folder, "MEMORY.md") == IMPORTS


def test_a_worktree_entry_naming_a_path_past_the_limit_is_not_followed(tmp_path: Path) -> None:
    """home/git_root: a worktree entry's gitdir file (read from disk, up to 4 KB) joined to
    its folder can pass the limit: it names no .git file, so the pointer is unconfirmed."""
    entry = tmp_path / "entry"
    entry.mkdir()
    (entry / "gitdir").write_text("b/" * 2_040 + ".git\n", encoding="utf-8")
    (entry / "commondir").write_text("..\n", encoding="utf-8")
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / ".git").write_text(f"gitdir: {entry}\n", encoding="utf-8")
    found = git_pointer_problem(folder)
    assert found is not None and "gitdir file" in found[1]
