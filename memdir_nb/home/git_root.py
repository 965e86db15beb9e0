"""Find the git root that keys a project: the canonical root all worktrees share, and the checkout top.

Real `git` is asked first (bounded by GIT_TIMEOUT_SECONDS); when it is missing or refuses
(e.g. "dubious ownership"), `.git` entries and gitdir/commondir pointer files are followed by
hand with bounded, regular-file-only reads.

A `.git` pointer is trusted only when git's own bookkeeping at its target confirms that it
belongs to this folder (see `git_pointer_problem`): a downloaded folder whose `.git` file
names another project's git dir must not pick that project's memory. An unconfirmed pointer
is not followed, by git or by hand: the folder holding it is its own root.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
import subprocess
import sys
import unicodedata
from pathlib import Path

from memdir_nb.home.config import environment_names
from memdir_nb.security.log_lines import OneLineRecords
from memdir_nb.spec.constants import GIT_CONFIG_READ_MAX_BYTES, GIT_POINTER_READ_MAX_BYTES
from memdir_nb.storage.containment import real_path, real_path_or_none, refuse_too_long
from memdir_nb.storage.programs import program_path
from memdir_nb.storage.regular_file import read_regular_file

logger = logging.getLogger(__name__)
logger.addFilter(OneLineRecords())  # a warning is one line, whatever it names

GIT_TIMEOUT_SECONDS = 10.0
# Every git call only asks where a repository is; none may run a command a repository's own
# config names. `rev-parse --show-superproject-working-tree` runs `git ls-files` in the
# enclosing repository, which runs its `core.fsmonitor` command: `where --cwd` on a folder
# with a separate git dir (every submodule) inside a downloaded repository ran what that
# repository's .git/config said (thirty-second session). `-c` reaches git's own children too.
_GIT_SAFE_CONFIG = ("-c", "core.fsmonitor=false")


def _run_git(git: str, cwd: Path, *args: str) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run(
            [git, *_GIT_SAFE_CONFIG, *args],
            cwd=cwd,
            capture_output=True,
            # git prints paths as the file system's bytes: decoded as os.fsdecode does, so a
            # folder whose name is not UTF-8 is named, not a UnicodeDecodeError
            encoding=sys.getfilesystemencoding(),
            errors=sys.getfilesystemencodeerrors(),
            timeout=GIT_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        logger.debug("git %s failed in %s: %s", " ".join(args), cwd, exc)
        return None


def _git_output(git: str, cwd: Path, *args: str) -> str | None:
    proc = _run_git(git, cwd, *args)
    if proc is None or proc.returncode != 0:
        return None
    return proc.stdout.strip()


class _NotARepository(Exception):
    """git itself answered that the folder is not inside a repository."""


def _find_root_with_git(start: Path, git: str) -> Path | None:
    """Ask git for the common dir; None means git failed (so the caller walks up instead)."""
    proc = _run_git(git, start, "rev-parse", "--path-format=absolute", "--git-common-dir")
    if proc is None:
        return None
    if proc.returncode != 0:
        if "not a git repository" in proc.stderr.lower():
            raise _NotARepository(proc.stderr.strip())
        logger.debug("git rev-parse failed in %s: %s", start, proc.stderr.strip())
        return None
    lines = proc.stdout.strip().splitlines()
    if not lines:
        return None
    # git older than 2.31 echoes the unknown --path-format option and prints a relative dir.
    common = Path(lines[-1])
    if not common.is_absolute():
        common = Path(real_path(start / common))
    if common.name == ".git":
        return common.parent
    # Unusual layouts: only then pay for the extra git calls.
    superproject = _git_output(git, start, "rev-parse", "--show-superproject-working-tree")
    if superproject:
        # A submodule's git dir lives in the superproject's .git/modules; it keeps its own key.
        toplevel = _git_output(git, start, "rev-parse", "--show-toplevel")
        return Path(toplevel) if toplevel else common
    # A bare repository (and every worktree made from it) or a --separate-git-dir repository:
    # the shared git dir itself is the identity all of its checkouts have in common.
    return common


def _read_git_text(path: Path, cap: int) -> str:
    """A git bookkeeping file's text: a regular file only (never a FIFO), bounded, UTF-8 and
    without a NUL byte (no path holds one: handed to realpath, a NUL raised ValueError out of
    `where` and `doctor`, attack round 18); OSError or UnicodeDecodeError otherwise."""
    text = read_regular_file(path, cap).data.decode("utf-8")
    if "\0" in text:
        raise OSError(errno.EINVAL, f"{path} holds a NUL byte, so it names no path")
    return text


def _read_small(path: Path) -> str:
    """A git pointer file's text (_read_git_text), stripped."""
    return _read_git_text(path, GIT_POINTER_READ_MAX_BYTES).strip()


def _read_gitfile(dot_git: Path) -> Path | None:
    try:
        text = _read_small(dot_git)
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("gitdir:"):
        return None
    target = Path(text[len("gitdir:") :].strip())
    return target if target.is_absolute() else (dot_git.parent / target)


def _resolve_from(base: Path, text: str) -> Path:
    """A path written in a git bookkeeping file: absolute, or relative to the file's folder."""
    return Path(text) if os.path.isabs(text) else base / text


def _core_worktree(config: Path) -> str | None:
    """core.worktree from a git config file (a submodule's), or None; bounded, regular file only."""
    try:
        text = _read_git_text(config, GIT_CONFIG_READ_MAX_BYTES)
    except (OSError, UnicodeDecodeError):
        return None
    section = ""
    for raw in text.split("\n"):
        line = raw.strip()
        if line.startswith("["):
            section = line.strip("[]").strip().lower()
        elif section == "core" and "=" in line:
            key, value = (part.strip() for part in line.split("=", 1))
            if key.lower() == "worktree":
                return value.strip('"')
    return None


def _pointer_file_problem(dot_git: Path) -> str | None:
    """Why a .git file's gitdir is not confirmed as belonging to its folder (None: confirmed)."""
    git_dir = _read_gitfile(dot_git)
    if git_dir is None:
        return None  # not a pointer at all: nothing is followed
    if not os.path.isdir(git_dir):  # os.path: a name too long is no folder, not an OSError
        return f"{dot_git} points at {git_dir}, which is not a folder"
    folder = real_path(dot_git.parent)
    try:  # a linked worktree: <gitdir>/gitdir names this very .git file
        back = _read_small(git_dir / "gitdir")
    except (OSError, UnicodeDecodeError):
        back = None
    if back is not None:
        if real_path_or_none(_resolve_from(git_dir, back)) != os.path.join(folder, ".git"):
            return (
                f"{dot_git} points at {git_dir}, but that worktree entry belongs to {back} "
                "(its gitdir file), not to this folder"
            )
        try:
            common = _resolve_from(git_dir, _read_small(git_dir / "commondir"))
        except (OSError, UnicodeDecodeError):
            return f"{dot_git} points at {git_dir}, whose commondir file cannot be read"
        if not os.path.isdir(common):
            return f"{dot_git} points at {git_dir}, whose commondir {common} is not a folder"
        return None
    worktree = _core_worktree(git_dir / "config")  # a submodule: core.worktree names this folder
    if worktree is not None and real_path_or_none(_resolve_from(git_dir, worktree)) == folder:
        return None
    return (
        f"{dot_git} points at {git_dir}, but nothing there (no gitdir file naming this "
        "folder's .git, no core.worktree naming this folder) says it belongs to this folder"
    )


def _nearest_git_entry(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        if os.path.lexists(folder / ".git"):
            return folder / ".git"
    return None


def git_pointer_problem(start: str | os.PathLike[str]) -> tuple[Path, str] | None:
    """(folder, reason) when the nearest `.git` above start is a pointer git's bookkeeping does not confirm.

    Confirmed pointers: a linked worktree's `.git` file whose `<gitdir>/gitdir` names that
    very file and whose `commondir` resolves (`git worktree add`), and a submodule's whose
    `<gitdir>/config` core.worktree names the folder. A `.git` folder holding a `commondir`
    file (only worktree entries have one) is a pointer too, and never confirmed.
    """
    entry = _nearest_git_entry(Path(real_path(start)))
    if entry is None:
        return None
    if os.path.isdir(entry):
        if os.path.lexists(entry / "commondir"):
            return entry.parent, f"{entry} is a folder with a commondir file pointing elsewhere"
        return None
    problem = _pointer_file_problem(entry)
    return (entry.parent, problem) if problem else None


def _find_root_by_walking(start: Path) -> Path | None:
    """Without git: find the nearest .git entry and follow gitdir/commondir files by hand."""
    for folder in (start, *start.parents):
        dot_git = folder / ".git"
        if os.path.isdir(dot_git):
            return folder
        if os.path.isfile(dot_git):
            git_dir = _read_gitfile(dot_git)
            if git_dir is None:
                return folder
            commondir_file = git_dir / "commondir"
            try:
                common = Path(real_path(git_dir / _read_small(commondir_file)))
            except (OSError, UnicodeDecodeError):
                return folder  # a submodule or --separate-git-dir checkout: its own root
            return common.parent if common.name == ".git" else common
    return None


# GIT_ variables that do not move git's search for a repository (identities, transport, trace,
# which config files): with any other GIT_ name set (GIT_DIR, GIT_CEILING_DIRECTORIES, config
# given on the command line...), the folders alone do not decide git's answer, so git is asked.
_GIT_NAMES_NOT_FINDING = frozenset(
    {
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_NOSYSTEM",
        "GIT_CONFIG_SYSTEM",
        "GIT_TERMINAL_PROMPT",
        "GIT_ASKPASS",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_PAGER",
        "GIT_PROXY_COMMAND",
        "GIT_CURL_VERBOSE",
    }
)
_GIT_PREFIXES_NOT_FINDING = (
    "GIT_SSL_",
    "GIT_SSH",
    "GIT_HTTP_",
    "GIT_AUTHOR_",
    "GIT_COMMITTER_",
    "GIT_TRACE",
    "GIT_LFS_",
)
_HEX_ID_LENGTHS = (40, 64)  # a detached HEAD's object id: SHA-1 or SHA-256


def _valid_head(git_dir: Path) -> bool:
    """git's own test of a HEAD file (a symbolic ref under refs/, or an object id), or stricter:
    a regular file only (git also takes a symlink), read bounded."""
    head = git_dir / "HEAD"
    try:
        if not stat.S_ISREG(os.lstat(head).st_mode):
            return False
        text = _read_git_text(head, GIT_POINTER_READ_MAX_BYTES).rstrip()
    except (OSError, UnicodeDecodeError):
        return False
    if text.startswith("ref:"):
        return text[len("ref:") :].lstrip().startswith("refs/")
    return len(text) in _HEX_ID_LENGTHS and all(c in "0123456789abcdefABCDEF" for c in text)


def _plain_git_dir(dot_git: Path) -> bool:
    """A `.git` folder git would take as a repository (is_git_directory): objects and refs
    folders it may enter and a valid HEAD; no commondir file (a worktree entry's)."""
    return (
        os.path.isdir(dot_git)
        and not os.path.lexists(dot_git / "commondir")
        and all(
            os.path.isdir(dot_git / d) and os.access(dot_git / d, os.X_OK)
            for d in ("objects", "refs")
        )
        and _valid_head(dot_git)
    )


def _root_without_git(start: Path) -> tuple[bool, Path | None]:
    """(True, the canonical root) when the folders alone give git's own answer, without a git
    process (1.3-1.5 ms of CPU, 2-11 ms of wait: every plan with a cache folder asks, plan39b);
    (False, None) when git must be asked.

    Known: no `.git` entry and no HEAD (git's test for a bare repository) in start or any folder
    above it (git finds no repository: None); or the nearest `.git` is a folder git takes as a
    repository (_plain_git_dir), no folder below it holds a HEAD, and all of them are on start's
    file system (git stops at a mount point). Anything else (a `.git` file: a linked worktree
    or a submodule; a bare repository; an invalid `.git` folder git would pass over; a GIT_
    variable that moves the search) is git's to answer. Where git refuses a plain repository
    (dubious ownership, an unknown format), the walk after it answered the same folder."""
    for name in environment_names():
        if (
            name.startswith("GIT_")
            and name not in _GIT_NAMES_NOT_FINDING
            and not name.startswith(_GIT_PREFIXES_NOT_FINDING)
        ):
            return False, None
    real_start = Path(real_path(start))
    try:
        device = os.stat(real_start).st_dev
    except OSError:
        return False, None
    one_device = True
    for folder in (real_start, *real_start.parents):
        try:  # git stops at a mount point: past one, the answer is git's
            one_device = one_device and os.stat(folder).st_dev == device
        except OSError:
            one_device = False
        dot_git = folder / ".git"
        if os.path.lexists(dot_git):
            if one_device and _plain_git_dir(dot_git):
                return True, folder
            return False, None
        if os.path.lexists(folder / "HEAD"):
            return False, None
    return True, None


def find_canonical_git_root(
    start: str | os.PathLike[str], *, git: str | None = "git", warn: bool = True
) -> Path | None:
    """The main checkout's root for ``start`` (shared by all worktrees), or None outside git.

    An unconfirmed `.git` pointer is logged as a warning unless warn is False: a caller that
    reports the pointer itself (`where`), after resolving the dir once, says it once.
    A start past the system's length limit is refused first (PathTooLongError, the path quoted
    cut): Path.is_dir's own OSError quoted a 600 KB path whole (lefts38c).
    """
    refuse_too_long(os.fspath(start))
    start_path = Path(start)
    if not start_path.is_dir():
        start_path = start_path.parent
    untrusted = git_pointer_problem(start_path)
    if untrusted is not None:  # neither git nor the walk may follow it: the folder is its own root
        if warn:
            logger.warning("not following a git pointer: %s", untrusted[1])
        return _nfc_real(untrusted[0])
    known, root = _root_without_git(start_path)
    if known:
        return None if root is None else _nfc_real(root)
    git_exe = program_path(git) if git else None
    if git_exe is not None:
        try:
            root = _find_root_with_git(start_path, git_exe)
        except _NotARepository:
            return None
    if root is None:
        # git is missing or failed for another reason (e.g. "dubious ownership"): walk up.
        root = _find_root_by_walking(Path(real_path(start_path)))
    if root is None:
        return None
    return _nfc_real(root)


def project_key_root_of(cwd: str | os.PathLike[str], *, git: str | None = "git") -> Path:
    """The folder whose sanitised path keys a project's memory: the canonical git root, else cwd."""
    root = find_canonical_git_root(cwd, git=git)
    return root if root is not None else _nfc_real(Path(cwd))


def _nfc_real(path: Path) -> Path:
    return Path(unicodedata.normalize("NFC", real_path(path)))


def find_checkout_root(start: str | os.PathLike[str], *, git: str | None = "git") -> Path | None:
    """The top of the working tree holding ``start`` (a linked worktree's own folder), or None."""
    start_path = Path(start)
    if not start_path.is_dir():
        start_path = start_path.parent
    untrusted = git_pointer_problem(start_path)
    if untrusted is not None:
        return _nfc_real(untrusted[0])
    git_exe = program_path(git) if git else None
    if git_exe is not None:
        top = _git_output(git_exe, start_path, "rev-parse", "--show-toplevel")
        if top:
            return Path(unicodedata.normalize("NFC", real_path(top)))
    real_start = Path(real_path(start_path))
    for folder in (real_start, *real_start.parents):
        if (folder / ".git").exists():
            return Path(unicodedata.normalize("NFC", os.fspath(folder)))
    return None
