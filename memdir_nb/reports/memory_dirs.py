"""Every memory dir under a Claude home: found, read, and described with its figures.

`list_memory_dirs` finds every project and agent memory dir under a Claude home
(`find_memory_dirs`), reads each one once (`read_dir_contents`) and describes it
(`describe_dir`): counts by type and scope, ages, and each index's use against the caps. A
project folder is named by a key; the project it belongs to is read from its transcripts or
found by walking real folders (`project_path_for_key`). Nothing here writes.
"""

from __future__ import annotations

import os
from collections import Counter, deque
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from memdir_nb.formats.index_caps import truncate_entrypoint_content
from memdir_nb.formats.jsonio import loads_bounded
from memdir_nb.home.claude_homes import no_claude_home
from memdir_nb.home.config import user_home
from memdir_nb.home.path_rules import (
    MAX_SANITIZED_LENGTH,
    folder_keyed,
    memory_path_problem,
    sanitize_path,
)
from memdir_nb.home.settings_files import load_settings_file
from memdir_nb.lint import read_scope_indexes
from memdir_nb.spec.constants import (
    AGENT_MEMORY_DIRNAME,
    AGENT_MEMORY_LOCAL_DIRNAME,
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    PROJECTS_DIRNAME,
    TRANSCRIPT_LINE_MAX_BYTES,
)
from memdir_nb.spec.freshness import memory_age_days
from memdir_nb.spec.shown_names import terminal_name
from memdir_nb.spec.text import plural, terminal_line
from memdir_nb.storage.containment import PathTraversalError, real_path, validate_project_path
from memdir_nb.storage.fsutil import is_folder
from memdir_nb.storage.regular_file import read_regular_file
from memdir_nb.storage.scan import scan_memory_dir

UNTYPED = "untyped"  # the count of memories with no (or an unknown) type
# Guessing a project's path from its key walks real folders; this bounds the folders listed.
MAX_GUESS_LISTINGS = 64
# Below where a long path's hashed key ends its 200 characters, any name may go on the path, so
# a guess looks at every name there: at most this many (and MAX_GUESS_LISTINGS folders entered,
# listed before or not). Unbounded, 20,000 folders there cost 1.8 s a key, and one `list` of 50
# such keys (a long-path repository's subfolders) 12.5 s, as each walked all the others listed.
MAX_GUESS_NAMES = 512
# How much of a session transcript is read when looking for the project's cwd.
TRANSCRIPT_PEEK_BYTES = 64 * 1024

__all__ = [
    "AGENT_MEMORY_DIRNAME",
    "AGENT_MEMORY_LOCAL_DIRNAME",
    "PROJECTS_DIRNAME",
    "UNTYPED",
    "DirContents",
    "FoundDir",
    "IndexUse",
    "MemoryDirInfo",
    "describe_dir",
    "find_memory_dirs",
    "format_list",
    "guess_project_path",
    "list_memory_dirs",
    "project_path_for_key",
    "read_dir_contents",
    "settings_memory_dir",
]


@dataclass(frozen=True)
class IndexUse:
    """One MEMORY.md against its caps."""

    scope: str
    exists: bool
    lines: int
    bytes: int
    truncated: bool
    problem: str | None = None  # the index is not a regular file (FIFO, folder, ...): not read
    line_cap: int = MAX_ENTRYPOINT_LINES
    byte_cap: int = MAX_ENTRYPOINT_BYTES


@dataclass(frozen=True)
class MemoryDirInfo:
    """One memory dir under a Claude home, with its headline figures."""

    path: str
    kind: str  # "project" | "agent:user" | "agent:project" | "agent:local" | "settings:user"
    key: str  # the folder name under projects/ (or the agent type)
    project_path: str | None  # the project the dir belongs to, where it can be told
    memories: int
    by_type: dict[str, int] = field(default_factory=dict)
    by_scope: dict[str, int] = field(default_factory=dict)
    newest_age_days: int | None = None
    oldest_age_days: int | None = None
    indexes: tuple[IndexUse, ...] = ()
    skipped: int = 0
    linked_from: tuple[str, ...] = ()  # project folders' `memory` links that lead here

    @property
    def truncated(self) -> bool:
        """Whether any of its indexes is cut when loaded."""
        return any(ix.truncated for ix in self.indexes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        out = asdict(self)
        out["truncated"] = self.truncated
        return out


@dataclass(frozen=True)
class DirContents:
    """What one read of a memory dir found: every header, both indexes, what was skipped."""

    headers: list[Any]
    indexes: list[Any]  # lint.ScopeIndex, one per MEMORY.md
    uses: list[IndexUse]
    skipped: int


def read_dir_contents(memory_dir: str | os.PathLike[str]) -> DirContents:
    """Scan every memory header (no cap) and read both indexes against their caps."""

    report = scan_memory_dir(memory_dir, limit=None)
    indexes = read_scope_indexes(memory_dir)
    uses = []
    for ix in indexes:
        t = truncate_entrypoint_content(ix.text)
        uses.append(
            IndexUse(
                ix.scope,
                ix.exists,
                t.line_count,
                t.byte_count,
                t.was_line_truncated or t.was_byte_truncated,
                ix.problem,
            )
        )
    return DirContents(list(report.headers), indexes, uses, len(report.skipped))


@dataclass(frozen=True)
class FoundDir:
    """A memory dir found under a Claude home, before it is read."""

    path: Path
    kind: str
    key: str
    project_path: str | None
    # the symlinks under projects/ (`<key>/memory`, a worktree's folder linked to this dir by
    # a hook) that lead to this very folder: listed with it, never as a dir of their own
    linked_from: tuple[str, ...] = ()


def describe_dir(
    found: FoundDir, contents: DirContents, *, now_ms: float | None = None
) -> MemoryDirInfo:
    """Counts by type and scope, ages and index use of one memory dir."""

    headers = contents.headers
    ages = [memory_age_days(h.mtime_ms, now_ms) for h in headers]
    return MemoryDirInfo(
        path=os.fspath(found.path),
        kind=found.kind,
        key=found.key,
        project_path=found.project_path,
        memories=len(headers),
        by_type=dict(sorted(Counter(h.type.value if h.type else UNTYPED for h in headers).items())),
        by_scope=dict(sorted(Counter(h.scope for h in headers).items())),
        newest_age_days=min(ages) if ages else None,
        oldest_age_days=max(ages) if ages else None,
        indexes=tuple(contents.uses),
        skipped=contents.skipped,
        linked_from=found.linked_from,
    )


def _cwd_from_transcripts(project_dir: Path) -> str | None:
    """The cwd recorded in the project's newest session transcript (first 64 KB), if any."""
    try:
        transcripts = sorted(
            (p for p in project_dir.glob("*.jsonl") if p.is_file() and not p.is_symlink()),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
    except OSError:
        return None
    for path in transcripts[:3]:
        try:
            head = read_regular_file(path, TRANSCRIPT_PEEK_BYTES).data
        except OSError:
            continue
        for line in head.decode("utf-8", errors="replace").split("\n"):  # records end at \n only
            try:
                record = loads_bounded(
                    line, max_bytes=TRANSCRIPT_LINE_MAX_BYTES, what="a transcript line"
                )
            except ValueError:  # bad JSON, or over the size or depth cap (JSONLimitError)
                continue
            if isinstance(record, dict) and isinstance(record.get("cwd"), str):
                return str(record["cwd"])
    return None


def _key_after(rest: str, piece: str, *, hashed: bool) -> str | None:
    """What is left of a key's walked part once a folder name's piece is taken, or None when
    the name does not go on the key. A hashed key's 200 characters may end inside a name."""
    if rest == piece or rest.startswith(piece + "-"):
        return rest[len(piece) :]
    if hashed and piece.startswith(rest):  # the 200 end inside this name
        return ""
    return None


class _Guess:
    """One guess_project_path call: its key, the shared listings and what it may still do."""

    def __init__(self, key: str, cache: dict[str, list[tuple[str, str]]]) -> None:
        self.key, self.cache = key, cache
        self.hashed = len(key) > MAX_SANITIZED_LENGTH
        self.listings = MAX_GUESS_LISTINGS  # listings this call makes
        self.below = [MAX_GUESS_LISTINGS, MAX_GUESS_NAMES]  # folders entered, names looked at

    def children(self, folder: str) -> list[tuple[str, str]]:
        names = self.cache.get(folder)
        if names is None:
            self.listings -= 1
            try:
                names = [("-" + sanitize_path(n), n) for n in sorted(os.listdir(folder))]
            except OSError:
                names = []
            self.cache[folder] = names
        return names

    def search_below(self, start: str) -> str | None:
        """The folder whose key is the key at or below start, where the 200 characters end:
        breadth first, within ``below`` (a key costs more than the stat of a name)."""
        if sanitize_path(start) == self.key:
            return start
        queue = deque([start])
        while queue and self.below[0] > 0 and self.listings > 0:
            self.below[0] -= 1
            folder = queue.popleft()
            for _piece, name in self.children(folder):
                if self.below[1] <= 0:
                    return None
                self.below[1] -= 1
                child = os.path.join(folder, name)
                if is_folder(child, follow=False):
                    if sanitize_path(child) == self.key:
                        return child
                    queue.append(child)
        return None

    def walk(self, folder: str, rest: str) -> str | None:
        if rest == "":
            return self.search_below(folder) if self.hashed else folder
        if self.listings <= 0 or not rest.startswith("-"):
            return None
        for piece, name in self.children(folder):
            after = _key_after(rest, piece, hashed=self.hashed)
            if after is None:
                continue
            child = os.path.join(folder, name)
            if os.path.isdir(child) and not os.path.islink(child):
                found = self.walk(child, after)
                if found is not None:
                    return found
        return None


def guess_project_path(
    key: str, *, root: str = os.sep, listings: dict[str, list[tuple[str, str]]] | None = None
) -> str | None:
    """An existing folder whose sanitised path is ``key``, found by walking real folders.

    A path longer than Claude Code's 200 sanitised characters has a key of its first 200 and a
    hash of the whole, so the walk follows those 200 and then looks below them for the folder
    whose own key is ``key`` (within MAX_GUESS_LISTINGS folders and MAX_GUESS_NAMES names).
    ``listings`` caches folder listings across calls (one `list` run looks up many keys that
    share their first folders); only listings this call makes count against its budget of
    listings, but every folder entered below the 200 counts against that search's.
    """
    guess = _Guess(key, {} if listings is None else listings)
    return guess.walk(root, key[:MAX_SANITIZED_LENGTH] if guess.hashed else key)


def project_path_for_key(
    project_dir: Path, *, listings: dict[str, list[tuple[str, str]]] | None = None
) -> str | None:
    """The project a projects/<key> folder belongs to: from transcripts, else the filesystem."""
    key = project_dir.name
    seen = _cwd_from_transcripts(project_dir)
    if seen is not None and (folder := folder_keyed(seen, key)) is not None:
        return folder
    return guess_project_path(key, listings=listings)


def _real_subfolders(folder: Path) -> list[Path]:
    """The real folders (no symlinks: they could lead anywhere) in a folder, sorted; none when
    it cannot be listed. One that cannot be looked at is left out (storage.fsutil.is_folder)."""
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    return [entry for entry in entries if is_folder(entry, follow=False)]


def _agent_dirs(base: Path, project: str | None = None) -> list[Path]:
    if not is_folder(base, follow=False):
        return []
    if project is not None:  # a repository's tree: a symlinked .claude/ may lead anywhere
        try:
            validate_project_path(base, project)
        except PathTraversalError:
            return []
    return [d for d in _real_subfolders(base) if not d.name.startswith(".")]


def settings_memory_dir(claude_home: str | os.PathLike[str]) -> Path | None:
    """The memory dir the Claude home's own user settings name in autoMemoryDirectory.

    That dir is where every project of this user keeps its memory, wherever it lies (a
    dotfiles user often keeps it outside ~/.claude). ``~/`` is the folder holding the Claude
    home when that is named .claude, else the current user's home. None when the key is
    unset or invalid (doctor says why) or the path is not a real folder.
    """
    home = Path(claude_home)
    data, _ = load_settings_file(home / "settings.json", "user")
    tilde = home.parent if home.name == ".claude" else user_home()
    valid, _ = memory_path_problem(data.get("autoMemoryDirectory"), True, home=tilde)
    if valid is None:
        return None
    path = Path(valid)
    return path if is_folder(path, follow=False) else None


def find_memory_dirs(claude_home: str | os.PathLike[str]) -> list[FoundDir]:
    """Every project and agent memory dir under a Claude home, and the dir its user settings
    name in autoMemoryDirectory (nothing read yet)."""
    home = Path(claude_home)
    if not home.is_dir():
        raise ValueError(no_claude_home(home))
    found: list[FoundDir] = []
    projects = home / PROJECTS_DIRNAME
    project_paths: list[str] = []
    listings: dict[str, list[tuple[str, str]]] = {}
    links: list[Path] = []
    if is_folder(projects, follow=False):
        for project in _real_subfolders(projects):
            memory = project / "memory"
            if not is_folder(memory, follow=False):  # a symlinked one could lead anywhere
                if os.path.islink(memory):
                    links.append(memory)
                continue
            path = project_path_for_key(project, listings=listings)
            if path:
                project_paths.append(path)
            found.append(FoundDir(memory, "project", project.name, path))
    for d in _agent_dirs(home / AGENT_MEMORY_DIRNAME):
        found.append(FoundDir(d, "agent:user", d.name, None))
    for project_path in sorted(set(project_paths)):
        claude = Path(project_path) / ".claude"
        for sub, kind in (
            (AGENT_MEMORY_DIRNAME, "agent:project"),
            (AGENT_MEMORY_LOCAL_DIRNAME, "agent:local"),
        ):
            for d in _agent_dirs(claude / sub, project_path):
                found.append(FoundDir(d, kind, d.name, project_path))
    chosen = settings_memory_dir(home)
    seen = {real_path(f.path) for f in found}
    if chosen is not None and real_path(chosen) not in seen:
        found.append(FoundDir(chosen, "settings:user", chosen.name, None))
    return _with_links(found, links)


def _with_links(found: list[FoundDir], links: list[Path]) -> list[FoundDir]:
    """found, each dir naming the `memory` links under projects/ that lead to it (a hook links
    a worktree's project folder to the main checkout's memory): nothing is read through a
    link, which is only resolved, and one leading to no listed dir names none."""
    if not links:
        return found
    at = {real_path(f.path): i for i, f in reversed(list(enumerate(found)))}
    named: dict[int, list[str]] = {}
    for link in links:
        try:
            i = at.get(real_path(link)) if is_folder(link) else None
        except OSError:  # a link that keeps changing while it is resolved
            i = None
        if i is not None:
            named.setdefault(i, []).append(os.fspath(link))
    return [
        replace(f, linked_from=tuple(named[i])) if i in named else f for i, f in enumerate(found)
    ]


def list_memory_dirs(
    claude_home: str | os.PathLike[str], *, now_ms: float | None = None
) -> list[MemoryDirInfo]:
    """Every project and agent memory dir under a Claude home, with counts, ages and index use."""
    return [
        describe_dir(found, read_dir_contents(found.path), now_ms=now_ms)
        for found in find_memory_dirs(claude_home)
    ]


def format_list(infos: list[MemoryDirInfo], looked_in: list[Path] | None = None) -> str:
    """One block per dir: where, whose, counts, ages, index use; then a total line. A key and a
    transcript's cwd are names others chose (a newline in one is shown as an escape), and each
    path is shown so it reads back (spec.shown_names.terminal_name): folders `bad<0xff>` and
    `bad\\udcff` were two blocks headed alike (attack36). With none found, the total line names
    the Claude homes looked_in and where to look next: "0 memory dirs found." named none
    (fresh37)."""
    if not infos and looked_in:
        where = ", ".join(terminal_name(home) for home in looked_in)
        return (
            f"0 memory dirs found under {where}; `memdir-nb where` names the dir this "
            "project would use, and --home names another Claude home."
        )
    lines = []
    for info in infos:
        lines.append(f"{terminal_name(info.path)}  [{info.kind}]")
        if info.kind == "settings:user":
            whose = "every project (named by autoMemoryDirectory in the user settings)"
        elif info.kind == "agent:user":  # its name is the agent's, not a project key (fresh36)
            whose = f"every project (the {info.key} agent's user-scope memory)"
        else:
            key = f"(cannot be told from the key {terminal_name(info.key)})"
            whose = terminal_name(info.project_path) if info.project_path else key
        lines.append(f"  project: {whose}")
        for link in info.linked_from:
            lines.append(f"  also reached through the link {terminal_name(link)}")
        types = ", ".join(f"{k} {v}" for k, v in info.by_type.items()) or "none"
        scopes = ", ".join(f"{k} {v}" for k, v in info.by_scope.items()) or "none"
        lines.append(f"  {plural(info.memories, 'memory')}: {types}; scope: {scopes}")
        if info.newest_age_days is not None:
            lines.append(
                f"  newest {plural(info.newest_age_days, 'day')} old, "
                f"oldest {plural(info.oldest_age_days or 0, 'day')} old"
            )
        for ix in info.indexes:
            if ix.problem:
                lines.append(f"  {ix.scope} index: {terminal_line(ix.problem)}")
                continue
            if not ix.exists:
                lines.append(f"  {ix.scope} index: no MEMORY.md")
                continue
            state = "TRUNCATED when loaded" if ix.truncated else "fits"
            lines.append(
                f"  {ix.scope} index: {ix.lines}/{ix.line_cap} lines, "
                f"{ix.bytes:,}/{ix.byte_cap:,} bytes, {state}"
            )
    lines.append(f"{plural(len(infos), 'memory dir')} found.")
    return "\n".join(lines)
