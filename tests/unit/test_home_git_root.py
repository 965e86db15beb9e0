"""Rules of memdir_nb.home.git_root: a .git pointer is followed only when git's own bookkeeping confirms it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import memdir_nb.home.git_root as git_root
from memdir_nb.home.config import MemdirConfig
from memdir_nb.home.git_root import find_canonical_git_root, find_checkout_root, git_pointer_problem
from memdir_nb.home.paths import resolve_auto_mem_path, sanitize_path
from memdir_nb.reports.where import format_where, where

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
NO_GIT = "memdir-nb-no-such-git-binary"
GITS = [pytest.param("git", id="with-git"), pytest.param(NO_GIT, id="walking-by-hand")]


def git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return proc.stdout.strip()


def make_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.name", "Memdir Test")
    git(path, "config", "user.email", "memdir@example.invalid")
    git(path, "config", "commit.gpgsign", "false")
    (path / "README.md").write_text("hello\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path


@pytest.fixture
def victim(tmp_path: Path) -> tuple[Path, Path]:
    """Another project on this machine, with a real linked worktree made by `git worktree add`."""
    repo = make_repo(tmp_path / "victim")
    git(repo, "worktree", "add", "-q", "-b", "topic", str(tmp_path / "victim-wt"))
    return repo, repo / ".git" / "worktrees" / "victim-wt"


def downloaded(tmp_path: Path, dot_git: str) -> Path:
    """A folder fetched from elsewhere whose .git file holds the given text."""
    folder = tmp_path / "Downloads" / "project"
    (folder / "src").mkdir(parents=True)
    (folder / ".git").write_text(dot_git)
    return folder


def memory_dir(tmp_path: Path, cwd: Path, git_exe: str) -> str:
    config = MemdirConfig.for_tests(home=tmp_path / "home", cwd=cwd)
    return resolve_auto_mem_path(config, git=git_exe).path


@pytest.mark.parametrize("git_exe", GITS)
def test_a_worktree_made_by_git_is_followed_to_its_main_checkout(
    tmp_path: Path, victim: tuple[Path, Path], git_exe: str
) -> None:
    repo, _ = victim
    wt = tmp_path / "victim-wt"
    assert git_pointer_problem(wt) is None
    assert find_canonical_git_root(wt, git=git_exe) == repo
    assert memory_dir(tmp_path, wt, git_exe) == memory_dir(tmp_path, repo, git_exe)


@pytest.mark.parametrize("git_exe", GITS)
def test_a_downloaded_folder_pointing_at_another_projects_worktree_keeps_its_own_memory(
    tmp_path: Path, victim: tuple[Path, Path], git_exe: str
) -> None:
    repo, entry = victim
    folder = downloaded(tmp_path, f"gitdir: {entry}\n")
    holder, reason = git_pointer_problem(folder / "src") or (None, "")
    assert holder == folder and "belongs to" in reason
    assert find_canonical_git_root(folder / "src", git=git_exe) == folder
    assert find_checkout_root(folder / "src", git=git_exe) == folder
    mem = memory_dir(tmp_path, folder / "src", git_exe)
    assert sanitize_path(str(folder)) in mem and sanitize_path(str(repo)) not in mem
    report = where(MemdirConfig.for_tests(home=tmp_path / "home", cwd=folder), git=git_exe)
    assert report.memory_dir == mem and "belongs to" in (report.git_pointer_problem or "")
    assert "was not followed" in format_where(report)


@pytest.mark.parametrize(
    "pointer",
    [
        pytest.param("{repo}/.git", id="the-main-git-dir"),
        pytest.param("{repo}/.git/modules/none", id="a-missing-dir"),
        pytest.param("../../victim/.git/worktrees/victim-wt", id="a-relative-worktree-entry"),
    ],
)
def test_an_unconfirmed_pointer_is_not_followed(
    tmp_path: Path, victim: tuple[Path, Path], pointer: str
) -> None:
    repo, _ = victim
    folder = downloaded(tmp_path, "gitdir: " + pointer.format(repo=repo))
    assert git_pointer_problem(folder) is not None
    for git_exe in ("git", NO_GIT):
        assert find_canonical_git_root(folder, git=git_exe) == folder


def test_a_git_folder_holding_a_commondir_file_is_not_followed(
    tmp_path: Path, victim: tuple[Path, Path]
) -> None:
    repo, _ = victim
    folder = tmp_path / "unpacked"
    shutil.copytree(repo / ".git" / "worktrees" / "victim-wt", folder / ".git")
    (folder / ".git" / "commondir").write_text(f"{repo / '.git'}\n")
    assert "commondir" in (git_pointer_problem(folder) or (None, ""))[1]
    assert find_canonical_git_root(folder) == folder


def test_a_worktree_entry_whose_commondir_is_gone_is_not_followed(
    tmp_path: Path, victim: tuple[Path, Path]
) -> None:
    _, entry = victim
    (entry / "commondir").write_text("../../nowhere\n")
    wt = tmp_path / "victim-wt"
    assert "commondir" in (git_pointer_problem(wt) or (None, ""))[1]
    assert find_canonical_git_root(wt, git=NO_GIT) == wt


def test_a_submodule_is_confirmed_by_its_core_worktree(tmp_path: Path) -> None:
    lib = make_repo(tmp_path / "lib")
    app = make_repo(tmp_path / "app")
    git(app, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "vendor/lib")
    assert git_pointer_problem(app / "vendor" / "lib") is None
    assert find_canonical_git_root(app / "vendor" / "lib") == app / "vendor" / "lib"


def test_finding_a_submodules_root_runs_no_command_the_enclosing_repositorys_config_names(
    tmp_path: Path,
) -> None:
    # thirty-second session: `rev-parse --show-superproject-working-tree` runs `git ls-files`
    # in the enclosing repository, which ran its core.fsmonitor command: `where --cwd` in a
    # downloaded repository's submodule ran what that repository's .git/config said
    lib = make_repo(tmp_path / "lib")
    app = make_repo(tmp_path / "app")
    git(app, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "vendor/lib")
    marker = tmp_path / "ran"
    git(app, "config", "core.fsmonitor", f"touch '{marker}'; false")
    assert find_canonical_git_root(app / "vendor" / "lib") == app / "vendor" / "lib"
    assert not marker.exists()


def test_a_separate_git_dir_checkout_is_keyed_by_its_own_folder(tmp_path: Path) -> None:
    # git keeps no record at the git dir of which folder it serves, so nothing confirms the
    # pointer: the checkout is its own root rather than the git dir it names.
    git(tmp_path, "init", "-q", "--separate-git-dir", str(tmp_path / "store.git"), "work")
    assert find_canonical_git_root(tmp_path / "work") == tmp_path / "work"


@pytest.mark.parametrize("git_exe", [g.values[0] for g in GITS], ids=["with-git", "walking"])
def test_a_pointer_to_a_name_too_long_for_the_filesystem_is_not_followed(
    tmp_path: Path, git_exe: str
) -> None:
    # attack round 8: pathlib's is_dir raised ENAMETOOLONG out of the pointer check, so
    # `where`, `doctor` and every memory-dir resolution failed for a downloaded folder
    folder = downloaded(tmp_path, "gitdir: " + "a" * 3000 + "\n")
    folder_problem = git_pointer_problem(folder)
    assert folder_problem is not None and "not a folder" in folder_problem[1]
    assert find_canonical_git_root(folder, git=git_exe) == folder
    assert find_checkout_root(folder, git=git_exe) == folder
    assert memory_dir(tmp_path, folder, git_exe).endswith(f"/{sanitize_path(folder)}/memory/")
    report = format_where(where(MemdirConfig.for_tests(home=tmp_path / "home", cwd=folder)))
    assert "was not followed" in report


def test_a_project_whose_folder_name_is_not_utf8_is_found_by_git_and_keyed(
    tmp_path: Path,
) -> None:
    # git prints the folder's bytes; decoded strictly they ended `where`, `doctor` and every
    # memory-dir resolution in "'utf-8' codec can't decode byte 0xff"
    folder = Path(os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9"))  # Latin-1, from an archive
    folder.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True, capture_output=True)
    (folder / "src").mkdir()
    assert find_canonical_git_root(folder / "src") == folder
    assert memory_dir(tmp_path, folder / "src", "git").endswith(f"{sanitize_path(folder)}/memory/")


@pytest.mark.parametrize(
    ("name", "text"),
    [
        pytest.param("gitdir", b"/tmp/a\0b\n", id="gitdir"),
        pytest.param("config", b"[core]\n\tworktree = ../a\0b\n", id="core-worktree"),
    ],
)
def test_a_nul_byte_in_a_git_bookkeeping_file_is_not_followed(
    tmp_path: Path, name: str, text: bytes
) -> None:
    # attack round 18: the path a downloaded folder's git dir names was handed to realpath,
    # whose ValueError ("embedded null byte") ended `where` and `doctor`
    folder = downloaded(tmp_path, "gitdir: ../entry\n")
    (folder.parent / "entry").mkdir()
    (folder.parent / "entry" / name).write_bytes(text)
    git_pointer_problem(folder)
    assert find_canonical_git_root(folder, git=NO_GIT, warn=False) == folder
    report = where(MemdirConfig.for_tests(home=tmp_path / "home", cwd=folder), git=NO_GIT)
    assert sanitize_path(str(folder)) in report.memory_dir


def layouts(tmp_path: Path) -> dict[str, Path]:
    """Real folders where a project's key root is asked: plain checkouts (attached and detached
    HEAD), a linked worktree, a submodule, bare repositories, an invalid `.git` folder git
    passes over, a start inside a `.git` folder, and a folder in no repository."""
    repo = make_repo(tmp_path / "plain")
    (repo / "src" / "deep").mkdir(parents=True)
    detached = make_repo(tmp_path / "detached")
    git(detached, "checkout", "-q", "--detach")
    git(repo, "worktree", "add", "-q", "-b", "topic", str(tmp_path / "plain-wt"))
    lib = make_repo(tmp_path / "lib")
    app = make_repo(tmp_path / "app")
    git(app, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "vendor/lib")
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(repo, "init", "-q", "--bare", str(repo / "src" / "inner.git"))
    (repo / "src" / "hollow" / ".git").mkdir(parents=True)  # no HEAD: git looks further up
    (tmp_path / "nowhere" / "a").mkdir(parents=True)
    return {
        "plain top": repo,
        "plain deep": repo / "src" / "deep",
        "a file in a plain checkout": repo / "README.md",
        "detached HEAD": detached,
        "linked worktree": tmp_path / "plain-wt",
        "submodule": app / "vendor" / "lib",
        "bare": bare,
        "inside a bare one": bare / "refs",
        "a bare one in a checkout": repo / "src" / "inner.git",
        "an invalid .git folder": repo / "src" / "hollow",
        "inside .git": repo / ".git" / "refs",
        "no repository": tmp_path / "nowhere" / "a",
    }


def test_the_root_found_without_a_git_process_is_the_one_git_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    places = layouts(tmp_path)
    found = {name: find_canonical_git_root(start) for name, start in places.items()}
    monkeypatch.setattr(git_root, "_root_without_git", lambda start: (False, None))
    asked = {name: find_canonical_git_root(start) for name, start in places.items()}
    assert found == asked
    assert asked["plain deep"] == asked["plain top"] == asked["linked worktree"]
    assert asked["no repository"] is None
    assert asked["a bare one in a checkout"] == places["a bare one in a checkout"]
    assert asked["an invalid .git folder"] == places["plain top"]


def test_a_plain_checkout_or_no_repository_is_answered_without_running_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    places = layouts(tmp_path)
    ran: list[tuple[str, ...]] = []
    real_run = subprocess.run

    def counted(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        ran.append(tuple(args))
        return real_run(args, **kwargs)  # type: ignore[call-overload,no-any-return]  # the real run, counted

    monkeypatch.setattr(subprocess, "run", counted)  # git_root calls subprocess.run
    top = Path(os.path.realpath(places["plain top"]))
    for name in ("plain top", "plain deep", "a file in a plain checkout"):
        assert find_canonical_git_root(places[name]) == top
    detached = places["detached HEAD"]
    assert find_canonical_git_root(detached) == Path(os.path.realpath(detached))
    assert find_canonical_git_root(places["no repository"]) is None
    assert ran == []
    # a variable that moves git's search leaves the answer to git
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    assert find_canonical_git_root(places["plain deep"]) == top
    assert len(ran) == 1
    monkeypatch.delenv("GIT_CEILING_DIRECTORIES")
    for name in ("linked worktree", "submodule", "bare", "a bare one in a checkout", "inside .git"):
        before = len(ran)
        find_canonical_git_root(places[name])
        assert len(ran) > before, name
