"""The whole-dir lint pass: scan, read each memory, run every rule, and collect sorted findings."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.formats.names import misread_name_problem
from memdir_nb.lint.findings import SEVERITIES, Finding, MemoryText, ScopeIndex
from memdir_nb.lint.fix_commands import named_dir, recover_call
from memdir_nb.lint.index_rules import lint_index, not_in_index, not_text_files
from memdir_nb.lint.links import LinkUses, link_findings
from memdir_nb.lint.name_twins import name_twins
from memdir_nb.lint.reading import read_scope_indexes, resolve_wiki_entries
from memdir_nb.lint.workers import Step, read_and_lint
from memdir_nb.spec.collector import collector_paused
from memdir_nb.spec.constants import ENTRYPOINT_NAME, STORE_JOURNAL_NAME
from memdir_nb.storage.agent_root_index import (
    agent_index_owners,
    agents_without_index,
    give_index_step,
    unloaded_agent_index,
)
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.index_files import nested_index_references
from memdir_nb.storage.listing import folder_of_memory_dirs
from memdir_nb.storage.scan import NAME_REFUSAL, SkippedFile, list_memory_files
from memdir_nb.storage.transaction import journal_damage, journal_problem


@dataclass(frozen=True)
class LintResult:
    """Findings plus what was read, so analysis can reuse one pass."""

    findings: list[Finding]
    memories: list[MemoryText]
    headers: list[MemoryHeader]
    indexes: list[ScopeIndex]
    skipped: list[SkippedFile]


# Dirs this large take over a second to read and lint, so they get a progress bar by default.
PROGRESS_MIN_FILES = 500


def progress_wanted(n_files: int, progress: bool | None) -> bool:
    """Whether to draw a bar: as asked, or by default for large dirs on a terminal or in Jupyter.

    A bar written to a pipe or a file (a pre-commit hook, `lint > out.txt 2>&1`) is noise in
    the log, so the default draws one only when stderr is a terminal, or in a notebook kernel
    (where tqdm.auto draws a widget, not text on stderr).
    """
    if progress is not None:
        return progress
    if n_files < PROGRESS_MIN_FILES:
        return False
    if "ipykernel" in sys.modules:
        return True
    stderr = sys.stderr
    try:
        return stderr is not None and stderr.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


@contextmanager
def _progress_bar(total: int, *, show: bool, desc: str) -> Iterator[Step | None]:
    """A tqdm.auto bar of total files (a widget in notebooks, stderr elsewhere) when show is set:
    yields its update function, or None; the bar ends full and is removed on leaving.
    """
    if not show:
        yield None
        return
    from tqdm.auto import tqdm

    class _Bar(tqdm):  # type: ignore[type-arg]  # tqdm is generic in its stubs, not at run time
        # No monitor thread: it would outlive the bar by up to ten seconds, and a process with
        # a second thread lints on one core (lint.workers.second_core_pays).
        monitor_interval = 0

    bar = _Bar(total=total, desc=desc, unit="file", leave=False)
    try:
        yield bar.update
    finally:
        bar.close()


def _skipped_finding(s: SkippedFile) -> Finding:
    return Finding(
        s.path,
        "skipped-by-scan",
        "warning",
        f"not read: {s.reason}",
        misread_name_problem(s.path)
        or (
            "rename it to a plain name such as feedback_testing.md, or move it out of the memory dir"
            if s.reason.startswith(NAME_REFUSAL)
            else "remove or fix the link/permissions, or move the file out of the memory dir"
        ),
    )


def lint_dir(
    memory_dir: str | os.PathLike[str],
    *,
    now_ms: float | None = None,
    progress: bool | None = None,
    workers: int | None = None,
) -> LintResult:
    """Lint every memory file and both indexes; return the findings and what was read.

    progress: None shows a bar only for dirs of PROGRESS_MIN_FILES or more, and only on a
    terminal or in a notebook (see progress_wanted); True/False force it.
    workers: None reads and lints the files on a second core too when that is safe and pays
    (lint.workers.second_core_pays), 1 on this core only, 2 on two. The result is the same.
    """
    with collector_paused():
        return _lint_dir(memory_dir, now_ms=now_ms, progress=progress, workers=workers)


def _lint_dir(
    memory_dir: str | os.PathLike[str],
    *,
    now_ms: float | None,
    progress: bool | None,
    workers: int | None,
    keep_texts: bool = True,
) -> LintResult:
    """lint_dir; keep_texts=False leaves LintResult.memories empty (findings wanted only)."""
    root = absolute_dir(memory_dir)
    if not root.is_dir():
        raise ValueError(
            f"{memory_dir} is not a directory; pass a memory dir (the folder holding MEMORY.md)"
        )
    nested = folder_of_memory_dirs(root)
    if nested is not None:  # each sub-folder is linted on its own; as one dir, all would mislead
        rule = "folder-of-memory-dirs"
        finding = Finding(".", rule, SEVERITIES[rule], nested.problem, nested.fix)
        return LintResult([finding], [], [], [], [])
    listing = list_memory_files(root)
    stopped = listing.stopped
    if stopped is not None:  # no memory dir is that big: linting what was found would mislead
        rule = "not-a-memory-dir"
        finding = Finding(".", rule, SEVERITIES[rule], stopped.problem, stopped.fix)
        return LintResult([finding], [], [], [], [])
    files = sorted(listing.files, key=lambda f: f.rel)
    listed = _by_scope((f.rel, f.scope) for f in files)
    early: list[tuple[list[ScopeIndex], list[Finding], list[Finding]]] = []

    def index_rules() -> None:
        # The indexes and their rules need no memory file's text, only the listing, so they
        # run while a second core still reads its half of the files. A file the read then
        # passes over (replaced since the listing) makes them run again below.
        indexes = read_scope_indexes(root)
        found = _index_findings(root, indexes, listed, listing.skipped)
        early.append((indexes, found, pending_journal(root)))

    show = progress_wanted(len(files), progress)
    with _progress_bar(len(files), show=show, desc=f"linting {root.name}") as step:
        done = read_and_lint(
            listing.root,
            listing.real_root,
            files,
            now_ms,
            workers=workers,
            step=step,
            keep_texts=keep_texts,
            meanwhile=index_rules,
        )
    skipped = list(listing.skipped)
    memories: list[MemoryText] = []
    headers: list[MemoryHeader] = []
    findings: list[Finding] = []
    links: dict[str, LinkUses] = {}
    for got in done:
        if isinstance(got, SkippedFile):
            skipped.append(got)
        else:
            if got[0] is not None:  # None: keep_texts=False
                memories.append(got[0])
            headers.append(got[1])
            findings.extend(named_dir(f, root) for f in got[2])
            if got[3]:
                links[got[1].filename] = got[3]
    headers.sort(key=lambda h: (-h.mtime_ms, h.filename))
    skipped.sort(key=lambda s: s.path)
    findings.extend(_skipped_finding(s) for s in skipped)
    indexes, index_findings, journal = early[0]
    not_text = not_text_files(findings)
    indexes, index_findings = _indexes_read_again(
        root, indexes, index_findings, headers, listed, skipped, not_text
    )
    findings.extend(index_findings)
    findings.extend(name_twins(h.filename for h in headers))
    findings.extend(link_findings(headers, links))
    findings.extend(journal)
    findings.extend(_never_loaded(root, [h.filename for h in headers]))
    findings.sort(key=lambda f: (f.path, f.line or 0, f.rule))
    return LintResult(findings, memories, headers, indexes, skipped)


def _indexes_read_again(
    root: str | os.PathLike[str],
    indexes: list[ScopeIndex],
    found: list[Finding],
    headers: list[MemoryHeader],
    listed: dict[str, list[str]],
    skipped: list[SkippedFile],
    not_text: frozenset[str],
) -> tuple[list[ScopeIndex], list[Finding]]:
    """The indexes and their findings once every header is read: again when a file the read
    passed over changed the listing, a `[[name]]` line names a memory by its name
    (resolve_wiki_entries; the early pass knew only the files of each link's stem), or a
    file read is binary (not_text: no index should list it, index_should_list)."""
    files_by_scope = _by_scope((h.filename, h.scope) for h in headers)
    by_name = resolve_wiki_entries(indexes, headers)
    if by_name is not None:
        indexes = by_name
    if files_by_scope != listed or by_name is not None or not_text:
        found = _index_findings(root, indexes, files_by_scope, skipped, not_text)
    return indexes, found


def _never_loaded(root: str | os.PathLike[str], files: list[str]) -> list[Finding]:
    """index-never-loaded when root is an agent memory root read as one memory dir: its own
    MEMORY.md reaches no prompt (storage.agent_root_index says why and which files it strands)."""
    note = unloaded_agent_index(root, files)
    if note is None:
        return []
    rule = "index-never-loaded"
    return [Finding(ENTRYPOINT_NAME, rule, SEVERITIES[rule], note.problem, note.fix)]


def _by_scope(files: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """The memory files (memory-dir relative), sorted, under their scope ("private", "team")."""
    out: dict[str, list[str]] = {"private": [], "team": []}
    for rel, scope in files:
        out[scope].append(rel)
    for rels in out.values():
        rels.sort()
    return out


def _index_findings(
    root: str | os.PathLike[str],
    indexes: list[ScopeIndex],
    files_by_scope: dict[str, list[str]],
    skipped: Iterable[SkippedFile],
    not_text: frozenset[str] = frozenset(),
) -> list[Finding]:
    """The findings of both indexes given the memory files of each scope and what the scan
    passed over: each index's rules, then the files no index lists (not_text: binary files,
    which none should)."""
    out: list[Finding] = []
    reasons = {s.path: s.reason for s in skipped}
    all_files = [rel for rels in files_by_scope.values() for rel in rels]
    nested = nested_index_references(root, all_files)
    owners = agent_index_owners(root, all_files)
    below = nested | owners.keys()  # as the rebuild and the dream leave them to their index
    for index in indexes:
        scope_files = files_by_scope.get(index.scope, [])
        out.extend(lint_index(index, scope_files, reasons, memory_dir=root, indexed_below=below))
    unindexed = {
        agent: give_index_step(root, agent)
        for agent in agents_without_index(root, set(owners.values()))
    }
    out.extend(not_in_index(indexes, files_by_scope, nested, owners, not_text, unindexed))
    return out


def pending_journal(memory_dir: str | os.PathLike[str]) -> list[Finding]:
    """A finding when a killed store step left its journal (transaction.journal_problem says why)."""
    problem = journal_problem(memory_dir)
    if problem is None:
        return []
    if journal_damage(memory_dir) is not None:
        return [
            Finding(
                STORE_JOURNAL_NAME,
                "store-journal-corrupt",
                SEVERITIES["store-journal-corrupt"],
                problem,
                f"call {recover_call(memory_dir)} from Python, or make any store write: it "
                f"renames the journal to {STORE_JOURNAL_NAME}.corrupt-<time> (nothing is "
                "deleted or replayed); then check the files it names and delete it",
            )
        ]
    return [
        Finding(
            STORE_JOURNAL_NAME,
            "store-journal-pending",
            SEVERITIES["store-journal-pending"],
            problem,
            f"call {recover_call(memory_dir)} from Python, or make any store write "
            "(save, update, forget); it rolls the step back or finishes it and removes the journal",
        )
    ]


def lint_memory_dir(
    memory_dir: str | os.PathLike[str], *, now_ms: float | None = None, progress: bool | None = None
) -> list[Finding]:
    """Every finding in a memory dir, sorted by file then line."""
    with collector_paused():  # the texts are not wanted, so a second core's are not sent back
        result = _lint_dir(
            memory_dir, now_ms=now_ms, progress=progress, workers=None, keep_texts=False
        )
    return result.findings


def count_by_severity(findings: Iterable[Finding]) -> dict[str, int]:
    """{'error': n, 'warning': m}."""
    out = {"error": 0, "warning": 0}
    for f in findings:
        out[f.severity] += 1
    return out
