"""List the memory files in a memory dir, newest first, without opening any of them.

The walk uses os.scandir and never leaves the memory dir: symlinked folders are not
followed, and a symlinked file is listed only when its real path is inside the memory dir's
real path. Whatever is passed over for such a reason is listed in `skipped` with the reason;
nothing in a walk raises because of one bad file. A scan (memdir_nb.storage.scan) reads the
headers of the newest of these; whole-dir passes (lint, analysis, dream) read them all.
"""

from __future__ import annotations

import errno
import os
import stat as _stat
from collections.abc import Iterable
from itertools import islice

from memdir_nb.formats.names import depth_problem, folder_problem, is_memory_filename
from memdir_nb.spec.constants import (
    AGENT_MEMORY_DIRNAME,
    AGENT_MEMORY_LOCAL_DIRNAME,
    ENTRYPOINT_NAME,
    LOGS_DIRNAME,
    MEMORY_DIR_MAX_ENTRIES,
    PROJECTS_DIRNAME,
    TEAM_DIRNAME,
)
from memdir_nb.spec.records import Record, field
from memdir_nb.spec.shown_names import terminal_name
from memdir_nb.spec.taxonomy import scope_of_path
from memdir_nb.spec.text import first_few, terminal_line
from memdir_nb.storage.access import ReadRefused, file_kind
from memdir_nb.storage.containment import (
    eloop_words,
    is_real_path_within,
    real_path,
    unreadable_reason,
)
from memdir_nb.storage.home_folders import home_memory_dirs
from memdir_nb.storage.name_kinds import (
    MEMORY,
    REFUSED,
    REPOSITORY,
    file_name_kind,
    gate_refusal,
    is_repository_file,
)

DEFAULT_EXCLUDED_TOP_LEVEL: tuple[str, ...] = (LOGS_DIRNAME,)
MAX_NAMED_DIRS = 8  # sub-folders named in the message about a folder of memory dirs


class SkippedFile(Record, frozen=True):
    """A file or folder the scan passed over, and why."""

    path: str
    reason: str


class ListedFile(
    Record, slots=True
):  # not frozen: built 10,000 times per scan, never changed after
    """One memory file the walk found, before it is opened: where it is and its stat."""

    mtime_ns: int
    rel: str
    path: str  # absolute path as it sits in the memory dir
    open_path: str  # what to open: the path itself, or a symlink's verified real path
    st: os.stat_result  # stat of what open_path names, taken during the walk

    @property
    def scope(self) -> str:
        """'team' for files under team/, else 'private' (as MemoryHeader.scope)."""
        return scope_of_path(self.rel)


class WalkStopped(OSError):
    """A walk looked at MEMORY_DIR_MAX_ENTRIES files and folders and stopped: no memory dir
    holds that many, so the path named is a home folder, a whole disk or a project tree."""

    def __init__(self, root: str, cap: int) -> None:
        super().__init__(root, cap)
        self.root = root
        self.cap = cap

    @property
    def problem(self) -> str:
        """What happened and what the path looks like (one line)."""
        return (
            f"stopped after looking at {self.cap:,} files and folders under "
            f"{terminal_line(self.root)}: a memory dir holds a few hundred memory files, so "
            "this looks like a home folder, a whole disk or a project, not a memory dir"
        )

    @property
    def fix(self) -> str:
        """What to pass instead (one line)."""
        return (
            "pass the memory dir itself, the folder holding MEMORY.md, such as "
            "~/.claude/projects/<project>/memory (`memdir-nb where` prints this project's)"
        )

    def __str__(self) -> str:
        return f"{self.problem}; {self.fix}"


class MemoryListing(Record, frozen=True):
    """Every memory file under a dir, newest first, none opened; what was passed over and why."""

    root: str  # the memory dir, absolute
    real_root: str  # its real path (symlinks resolved)
    files: list[ListedFile] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # top-level README.md, LICENSE.md, ...
    stopped: WalkStopped | None = None  # the walk stopped at the cap (also the "." skip)


def walk_failure(exc: OSError, root: str) -> str:
    """The skip reason for a memory dir (root) whose walk failed: why it stopped, or why it
    could not be listed (one home for both words, used by the listing and the scan); a root
    past the system's length limit is said with its length, the limit and the fix
    (containment.unreadable_reason: it read "PathTooLongError", naming neither)."""
    if isinstance(exc, WalkStopped):
        return str(exc)
    if exc.errno == errno.ENAMETOOLONG:
        return f"cannot list the memory dir: {unreadable_reason(exc, root)}"
    return f"cannot list the memory dir: {type(exc).__name__}"


def _symlink_problem(path: str, exc: OSError) -> str:
    """A short reason for a symlink whose target cannot be stat'ed."""
    if exc.errno == errno.ELOOP:
        return eloop_words(path)
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return "dangling symlink"
    return f"unreadable symlink: {type(exc).__name__}"


class _Walk:
    """One walk's state: the files found, what was skipped, the top-level names ignored."""

    def __init__(
        self, root: str, real_root: str, excluded: frozenset[str], start: str = ""
    ) -> None:
        self.root = root
        self.real_root = real_root
        self.left = MEMORY_DIR_MAX_ENTRIES  # entries still to look at (read at each walk)
        self.excluded = excluded
        self.found: list[ListedFile] = []
        self.skipped: list[SkippedFile] = []
        self.ignored: list[str] = []
        # start: one folder below root to walk alone ("logs"), its depth counted from root
        first = os.path.join(root, start) if start else root
        self.stack: list[tuple[str, str]] = [(first, start + "/" if start else "")]

    def run(self) -> None:
        """Visit every folder under root (no symlinked folder, no dot-folder), depth first.

        Raises WalkStopped past MEMORY_DIR_MAX_ENTRIES entries: what was found by then is
        never a memory dir's listing, so no route is given half of one to act on.
        """
        while self.stack:
            folder, prefix = self.stack.pop()
            try:
                with os.scandir(folder) as it:  # one entry more than is left: past the cap
                    entries = list(islice(it, self.left + 1))
            except OSError as exc:
                if not prefix:
                    raise
                reason = unreadable_reason(exc, folder, "folder ")
                self.skipped.append(SkippedFile(prefix.rstrip("/"), reason))
                continue
            if len(entries) > self.left:
                raise WalkStopped(self.root, MEMORY_DIR_MAX_ENTRIES)
            self.left -= len(entries)
            for entry in entries:
                rel = prefix + entry.name
                try:
                    self.visit(entry, rel, prefix)
                except OSError as exc:  # vanished or unreadable between listing and stat
                    self.skipped.append(SkippedFile(rel, unreadable_reason(exc, entry.path)))

    def visit(self, entry: os.DirEntry[str], rel: str, prefix: str) -> None:
        """Record one folder entry: a memory file, a folder to walk, or a reason it is skipped."""
        name = entry.name
        if entry.is_symlink():
            _visit_symlink(entry, rel, self.real_root, self.found, self.skipped)
        elif entry.is_dir(follow_symlinks=False):
            if name.startswith(".") or (not prefix and name in self.excluded):
                return
            problem = folder_problem(name, top=not prefix)
            if problem is not None:  # a control, bidi, angle bracket or non-UTF-8 folder name
                self.skipped.append(SkippedFile(rel, f"folder name {problem}"))
                return
            too_deep = depth_problem(rel.count("/") + 1)
            if too_deep is not None:
                self.skipped.append(SkippedFile(rel, f"folder {too_deep}"))
                return
            self.stack.append((entry.path, rel + "/"))
        else:
            kind, refused = file_name_kind(name, not prefix)
            if kind is REFUSED:
                self.skipped.append(SkippedFile(rel, refused or ""))
            elif kind is REPOSITORY:
                self.ignored.append(name)
            elif kind is MEMORY:
                st = entry.stat(follow_symlinks=False)
                if _stat.S_ISREG(st.st_mode):
                    self.found.append(ListedFile(st.st_mtime_ns, rel, entry.path, entry.path, st))
                else:  # a FIFO, socket or device named like a memory: never opened
                    what = f"{file_kind(st.st_mode)}, not a regular file"
                    self.skipped.append(SkippedFile(rel, what))


def walk_memory_dir(
    root: str, real_root: str, exclude_top_level: Iterable[str]
) -> tuple[list[ListedFile], list[SkippedFile], list[str]]:
    """Every memory file under root, newest first, without leaving root; skipped; ignored names.

    Top-level repository files (README.md, LICENSE.md...) are not memories; their names are
    the third list, sorted. Raises OSError when root itself cannot be listed, and WalkStopped
    (an OSError) past MEMORY_DIR_MAX_ENTRIES files and folders.
    """
    walk = _Walk(root, real_root, frozenset(exclude_top_level))
    walk.run()
    walk.found.sort(key=_newest_first)
    return walk.found, walk.skipped, sorted(walk.ignored)


def _visit_symlink(
    entry: os.DirEntry[str],
    rel: str,
    real_root: str,
    found: list[ListedFile],
    skipped: list[SkippedFile],
) -> None:
    """Record a symlinked memory file if it stays inside the memory dir; report the rest."""
    try:
        st = os.stat(entry.path)
    except OSError as exc:
        if is_memory_filename(entry.name):
            skipped.append(SkippedFile(rel, _symlink_problem(entry.path, exc)))
        return
    if _stat.S_ISDIR(st.st_mode):
        skipped.append(SkippedFile(rel, "symlinked folder is not followed"))
        return
    refused = gate_refusal(entry.name)
    if refused is not None:
        skipped.append(SkippedFile(rel, refused))
        return
    if not is_memory_filename(entry.name):
        return
    if not _stat.S_ISREG(st.st_mode):
        skipped.append(SkippedFile(rel, "symlink target is not a regular file"))
        return
    try:
        real = real_path(entry.path)
    except OSError as exc:  # the link kept changing as it was resolved
        skipped.append(SkippedFile(rel, _symlink_problem(entry.path, exc)))
        return
    if not is_real_path_within(real, real_root, or_equal=True):
        skipped.append(SkippedFile(rel, "symlink leaves the memory dir"))
        return
    found.append(ListedFile(st.st_mtime_ns, rel, entry.path, real, st))


def _newest_first(item: ListedFile) -> tuple[int, str]:
    return (-item.mtime_ns, item.rel)


def list_memory_files(
    memory_dir: str | os.PathLike[str],
    *,
    exclude_top_level: Iterable[str] = DEFAULT_EXCLUDED_TOP_LEVEL,
) -> MemoryListing:
    """Walk memory_dir as scan_memory_dir does, newest first, without opening any file.

    Whole-dir passes (lint, analysis, dream planning) read every file in full anyway, so they
    list with this and read each file once, deriving its header from that read
    (memdir_nb.storage.headers.header_from_read) instead of a scan's separate header read.
    A dir that cannot be listed, or holds more than MEMORY_DIR_MAX_ENTRIES files and folders,
    gives no files and one skipped entry "." saying why (nothing when it does not exist).
    """
    root = os.path.abspath(os.fspath(memory_dir))
    real_root = root  # until resolved: a root past the path limit is refused unresolved
    try:
        real_root = real_path(root)
        found, skipped, ignored = walk_memory_dir(root, real_root, exclude_top_level)
    except FileNotFoundError:
        return MemoryListing(root, real_root)
    except OSError as exc:
        stopped = exc if isinstance(exc, WalkStopped) else None
        skipped = [SkippedFile(".", walk_failure(exc, root))]
        return MemoryListing(root, real_root, skipped=skipped, stopped=stopped)
    return MemoryListing(root, real_root, found, skipped, ignored)


def one_name_per_file(
    files: list[ListedFile],
) -> tuple[list[ListedFile], list[tuple[str, str]]]:
    """files with one name for each file (its device and inode), and (name left out, name
    kept) for the others: the name that is no symlink is kept, else the first.

    A symlink inside the dir to a memory beside it (or a hard link) names the same file: read
    as a second memory with the same text, a link and its target were near-duplicates, and a
    dream kept the link and trashed the file it leads to (attack round 18).
    """
    chosen: dict[tuple[int, int], ListedFile] = {}
    for f in files:
        held = chosen.setdefault((f.st.st_dev, f.st.st_ino), f)
        if held is not f and held.open_path != held.path and f.open_path == f.path:
            chosen[(f.st.st_dev, f.st.st_ino)] = f  # the file itself, not a link to it
    kept: list[ListedFile] = []
    left: list[tuple[str, str]] = []
    for f in files:
        held = chosen[(f.st.st_dev, f.st.st_ino)]
        if held is f:
            kept.append(f)
        else:
            left.append((f.rel, held.rel))
    return kept, left


def list_daily_logs(memory_dir: str | os.PathLike[str]) -> list[str]:
    """The daily logs under logs/, as paths relative to the memory dir, sorted.

    Walked as the listing walks the dir (gated names, no symlinked folder, no deeper than
    any route goes); a logs/ that is a symlink or not a folder holds no logs.
    """
    root = os.path.abspath(os.fspath(memory_dir))
    logs = os.path.join(root, LOGS_DIRNAME)
    if os.path.islink(logs) or not os.path.isdir(logs):
        return []
    walk = _Walk(root, real_path(root), frozenset(), start=LOGS_DIRNAME)
    walk.run()
    return sorted(f.rel for f in walk.found)


def refusal_reason(exc: ReadRefused) -> str:
    """The skip reason a scan gives for a file the contained reader refused (no path in it)."""
    if exc.kind == "unreadable" and exc.errno not in (None, 0, errno.ELOOP):
        return f"unreadable: {type(OSError(exc.errno, '')).__name__}"
    detail = exc.detail
    return detail[3:] if detail.startswith("is ") else detail


class FolderOfMemoryDirs(Record, frozen=True):
    """A folder that is not one memory dir but holds several: an agent memory root (Claude Code
    keeps an agent's memory in .claude/agent-memory/<agent>/ and agent-memory-local/<agent>/; an
    index written above them is never loaded: own_index), or a Claude home or its projects/
    (home: storage.home_folders). A record (spec.records), as formats.frontmatter_fast.PlainColon:
    a NamedTuple's class compiles its string annotations on every scan's import path."""

    folder: str  # absolute
    names: tuple[str, ...]  # the sub-folders holding a MEMORY.md, sorted
    own_index: bool = False  # an agent memory root holding a MEMORY.md no session loads
    home: bool = False  # a Claude home or its projects/: names are projects/<key>/memory

    @property
    def problem(self) -> str:
        """What the folder is, naming its memory dirs: one line (every name in it passes
        spec.text.terminal_line, as an agent's dir is named by whoever made it: one holding a
        newline printed its second half as a line of its own in scan, index and recall,
        attack round 24; and through terminal_name, so `bad<0xff>/` and `bad\\udcff/` are two
        names, attack36)."""
        shown = first_few([f"{terminal_name(n)}/" for n in self.names], MAX_NAMED_DIRS)
        own = (
            f"its own {ENTRYPOINT_NAME} is never loaded (Claude Code loads "
            f"{terminal_line(os.path.basename(self.folder))}/<agent>/{ENTRYPOINT_NAME} for "
            "each agent and nothing from the folder above them)"
            if self.own_index
            else f"it holds no {ENTRYPOINT_NAME} of its own"
        )
        what = (
            f"a Claude home (or its projects/, or the home folder holding it), with one "
            f"project's memory dir in each of {shown}"
            if self.home
            else f"{own}, and each of its sub-folders ({shown}) holds its own {ENTRYPOINT_NAME} "
            "(as agent memory does, in .claude/agent-memory/<agent>/)"
        )
        name = terminal_line(self.folder)
        return f"{name} is a folder of memory dirs, not one memory dir: {what}"

    @property
    def fix(self) -> str:
        """How to run the command on one of them (one line, as problem)."""
        base = (
            _projects_prefix(self.names[0]) + "<key>/memory"
            if self.home
            else f"{os.path.basename(self.folder)}/<name>"
        )
        example = terminal_line(os.path.join(self.folder, self.names[0]))
        return f"pass {terminal_line(base)}, one memory dir at a time, such as {example}"


def _projects_prefix(name: str) -> str:
    """The part of a home's memory dir name before its key: `projects/`, `.claude/projects/`
    (a home folder), or `projects/` for a projects/ folder's own `<key>/memory`."""
    head = name.rsplit("/", 2)[0] + "/" if name.count("/") >= 2 else ""
    return head or f"{PROJECTS_DIRNAME}/"


def _holds_nothing(folder: str) -> bool:
    """Whether a folder holds neither a memory file nor a visible sub-folder (an agent memory
    dir no agent has written to yet); an unreadable one is taken to hold something."""
    try:
        with os.scandir(folder) as it:
            for entry in it:
                if entry.name.startswith("."):
                    continue
                if entry.is_dir(follow_symlinks=False) or is_memory_filename(entry.name):
                    return False
    except OSError:
        return False
    return True


def is_agent_memory_root(root: str) -> bool:
    """Whether root is an agent memory root by the name it was reached by or by its real
    name: `~/am`, a link to .claude/agent-memory, is one too (attack round 23: it read as one
    memory dir, both agents' memories listed as its own)."""
    names = (AGENT_MEMORY_DIRNAME, AGENT_MEMORY_LOCAL_DIRNAME)
    if os.path.basename(root) in names:
        return True
    try:
        return os.path.basename(real_path(root)) in names
    except OSError:  # the path kept changing as it was resolved: the name given stands
        return False


def folder_of_memory_dirs(folder: str | os.PathLike[str]) -> FolderOfMemoryDirs | None:
    """The folder's memory dirs when it is a folder of them, else None (a memory dir, or neither).

    A folder of memory dirs has no MEMORY.md and no memory file of its own, and every visible
    sub-folder (team/ and logs/ are a memory dir's own parts, never counted) holds a
    MEMORY.md. A memory dir with topic sub-folders (topics/, projects/) is not one: they
    hold no index, or the dir has its own MEMORY.md or memory files beside them.

    Claude Code's agent memory roots (agent-memory/, agent-memory-local/) are never a memory
    dir, so an index written at such a root (a list of the agents) does not make one, and a
    folder no agent has written to yet (empty) is no topic folder. A root whose index lists
    memory files of its own or in a sub-folder without an index (an agent that wrote its
    index one level too high) is still read as one memory dir, so that index can be kept.
    """
    root = os.path.abspath(os.fspath(folder))
    agent_root = is_agent_memory_root(root)
    own_index = os.path.lexists(os.path.join(root, ENTRYPOINT_NAME))
    if own_index and not agent_root:
        return None
    if not agent_root and (homes := home_memory_dirs(root)):  # ~/.claude, or its projects/
        return FolderOfMemoryDirs(root, homes, home=True)
    try:
        with os.scandir(root) as it:
            entries = list(it)
    except OSError:
        return None
    names = []
    for entry in entries:
        name = entry.name
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if not is_dir:
            if is_memory_filename(name) and not is_repository_file(name):
                return None  # a memory file of its own: a memory dir without an index yet
            continue
        if name.startswith(".") or name in (TEAM_DIRNAME, LOGS_DIRNAME):
            continue
        if not os.path.isfile(os.path.join(entry.path, ENTRYPOINT_NAME)):
            if agent_root and _holds_nothing(entry.path):
                continue  # an agent that has written nothing yet
            return None  # a topic folder: this is a memory dir (without its index yet)
        names.append(name)
    return FolderOfMemoryDirs(root, tuple(sorted(names)), own_index) if names else None
