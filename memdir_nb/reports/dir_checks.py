"""Doctor's checks of the memory dir itself: a symlinked index, and lint's findings seen as load problems.

Index entries past the caps, dangling and orphaned entries, stale and secret memories become
DoctorFindings with the CLI's fix; memdir_nb.reports.doctor runs these after the settings checks.
"""

from __future__ import annotations

import os
import stat
from collections import defaultdict
from pathlib import Path
from typing import Any

from memdir_nb.formats.index import REBUILD_HEADING, entries_past_caps, truncate_entrypoint_content
from memdir_nb.lint import LintResult, lint_dir
from memdir_nb.lint.fix_commands import recover_call
from memdir_nb.reports.diagnosis import DoctorFinding
from memdir_nb.reports.where import WhereReport
from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    MAX_MEMORY_FILES,
    TEAM_DIRNAME,
)
from memdir_nb.spec.shell_words import shell_word
from memdir_nb.spec.text import plural
from memdir_nb.storage.containment import is_real_path_within, real_path
from memdir_nb.storage.folder_blocker import folder_blocker
from memdir_nb.storage.write_errors import NOT_UTF8_INDEX_FIX


def _index_file_findings(memory_dir: Path) -> list[DoctorFinding]:
    out = []
    for scope_dir in (memory_dir, memory_dir / TEAM_DIRNAME):
        index = scope_dir / ENTRYPOINT_NAME
        try:
            st = index.lstat()
        except OSError:
            continue
        if stat.S_ISLNK(st.st_mode):
            try:
                real, root = real_path(index), real_path(memory_dir)
            except OSError:  # the link kept changing while it was resolved: nothing to say yet
                continue
            inside = is_real_path_within(real, root)
            where_to = "a file inside the memory dir" if inside else "a file OUTSIDE the memory dir"
            out.append(
                DoctorFinding(
                    "index-symlink",
                    "action",
                    f"{scope_dir.name}/{ENTRYPOINT_NAME} is a symlink to {where_to} ({real}): what "
                    "is loaded then depends on a file that can change or vanish outside the index",
                    os.fspath(index),
                    "replace the link with a regular copy of the file it points at (a rebuild "
                    "writes through the link, it does not replace it)",
                )
            )
    return out


def _grouped(
    findings: list[Any], rule: str, *, severity: str | None = None
) -> dict[str, list[Any]]:
    groups: dict[str, list[Any]] = defaultdict(list)
    for f in findings:
        if f.rule == rule and (severity is None or f.severity == severity):
            groups[f.path].append(f)
    return groups


def _lint_findings(
    memory_dir: Path, report: WhereReport, now_ms: float | None
) -> list[DoctorFinding]:
    result = lint_dir(memory_dir, now_ms=now_ms, progress=False)
    return [
        *_index_file_findings_from_lint(memory_dir, result),
        *_journal_findings(memory_dir, result),
        *_entry_findings(memory_dir, result),
        *_content_findings(memory_dir, result, report),
    ]


def _index_file_findings_from_lint(memory_dir: Path, result: LintResult) -> list[DoctorFinding]:
    """Each index lint read: not regular, not UTF-8, cut by the caps, missing."""
    out: list[DoctorFinding] = []
    for ix in result.indexes:
        where_ix = os.path.join(memory_dir, ix.path)
        if ix.problem:
            out.append(
                DoctorFinding(
                    "index-not-regular",
                    "action",
                    f"{ix.problem}, so no index is loaded",
                    where_ix,
                    f"remove it and run `memdir-nb rebuild-index {shell_word(memory_dir)}`",
                )
            )
            continue
        if not ix.valid_utf8:
            out.append(
                DoctorFinding(
                    "index-invalid-utf8",
                    "action",
                    f"{ix.path} is not valid UTF-8; the bad bytes reach the prompt as "
                    "replacement characters",
                    where_ix,
                    NOT_UTF8_INDEX_FIX,
                )
            )
        loaded = truncate_entrypoint_content(ix.text)
        if loaded.warning:
            cut = entries_past_caps(ix.text)
            lost = (
                f"{plural(len(cut), 'entry', 'entries')} past the cut {'is' if len(cut) == 1 else 'are'} never seen"
                if cut
                else "no entry is lost yet, but everything after the cut is, and the model is warned"
            )
            out.append(
                DoctorFinding(
                    "index-past-caps",
                    "action",
                    f"{ix.path} is {loaded.line_count:,} lines / {loaded.byte_count:,} bytes, past "
                    f"the {MAX_ENTRYPOINT_LINES}-line / {MAX_ENTRYPOINT_BYTES:,}-byte caps: only "
                    f"its first {loaded.kept_line_count} lines load; {lost}",
                    where_ix,
                    "edit it by hand: keep one short line per memory and move prose into topic "
                    "files (rebuild-index keeps every line people wrote, so it cannot shorten it)",
                    tuple(f"line {e.line_no}: [{e.title}]({e.target})" for e in cut),
                )
            )
        if not ix.exists:
            scoped = [h for h in result.headers if h.scope == ix.scope]
            if scoped:
                out.append(
                    DoctorFinding(
                        "index-missing",
                        "action",
                        f"no {ix.path} although {plural(len(scoped), 'memory', 'memories')} "
                        f"{'exists' if len(scoped) == 1 else 'exist'} in this scope, so none is "
                        "listed up front",
                        where_ix,
                        f"run `memdir-nb rebuild-index {shell_word(memory_dir)}`",
                    )
                )
    return out


def _journal_findings(memory_dir: Path, result: LintResult) -> list[DoctorFinding]:
    """A pending or corrupt store journal, as lint reports it."""
    out: list[DoctorFinding] = []
    for f in result.findings:
        # a killed store step (files may be half moved), or a journal that cannot be trusted
        if f.rule not in ("store-journal-pending", "store-journal-corrupt"):
            continue
        corrupt = f.rule == "store-journal-corrupt"
        then = (
            "sets it aside too (renamed, never deleted); then check the files it names"
            if corrupt
            else "repairs it too"
        )
        out.append(
            DoctorFinding(
                "corrupt-journal" if corrupt else "interrupted-step",
                "action",
                f.message,
                os.fspath(memory_dir / f.path),
                f"in Python, run {recover_call(memory_dir)}; any store write "
                f"(save, update, forget) {then}",
            )
        )
    return out


def _index_files(memory_dir: Path, index_rels: set[str]) -> str:
    """The index file(s) findings belong to: MEMORY.md, team/MEMORY.md, or both."""
    return " and ".join(os.fspath(memory_dir / rel) for rel in sorted(index_rels))


def _index_of(memory_file: str) -> str:
    """The index that lists a memory file: its scope's (team/MEMORY.md for a team/ file)."""
    team = memory_file.startswith(f"{TEAM_DIRNAME}/")
    return f"{TEAM_DIRNAME}/{ENTRYPOINT_NAME}" if team else ENTRYPOINT_NAME


def _entry_findings(memory_dir: Path, result: LintResult) -> list[DoctorFinding]:
    """Memories the index does not list, and index lines that point nowhere."""
    out: list[DoctorFinding] = []
    missing = sorted(f.path for f in result.findings if f.rule == "not-in-index")
    if missing:
        out.append(
            DoctorFinding(
                "not-in-index",
                "action",
                f"{plural(len(missing), 'topic file')} missing from the index: recall can still "
                f"find {'it' if len(missing) == 1 else 'them'}, but the index never lists "
                f"{'it' if len(missing) == 1 else 'them'} up front",
                _index_files(memory_dir, {_index_of(m) for m in missing}),
                "add a '- [Title](file.md) — hook' line for each, or run "
                f"`memdir-nb rebuild-index {shell_word(memory_dir)}` (it adds them under "
                f"'{REBUILD_HEADING}' and keeps every other line)",
                tuple(missing),
            )
        )
    dangling_findings = [f for f in result.findings if f.rule == "index-dangling-entry"]
    dangling = [f"{f.path}:{f.line}: {f.message}" for f in dangling_findings]
    if dangling:
        out.append(
            DoctorFinding(
                "index-dangling",
                "action",
                f"{plural(len(dangling), 'index line')} {'points' if len(dangling) == 1 else 'point'} "
                "at nothing",
                _index_files(memory_dir, {f.path for f in dangling_findings}),
                "delete those lines (or restore the files); "
                f"`memdir-nb rebuild-index --drop-dangling {shell_word(memory_dir)}` drops them and keeps "
                "the old index in .trash/",
                tuple(dangling),
            )
        )
    return out


def _content_findings(
    memory_dir: Path, result: LintResult, report: WhereReport
) -> list[DoctorFinding]:
    """Secrets, stale projects, the scan cap, skipped files and a team/ folder nobody loads."""
    out: list[DoctorFinding] = []
    secrets = sorted(_grouped(result.findings, "secret", severity="error"))
    if secrets:
        out.append(
            DoctorFinding(
                "team-secret",
                "action",
                f"{plural(len(secrets), 'team memory', 'team memories')} look like they hold a "
                "credential, shared with everyone on the project",
                os.fspath(memory_dir / TEAM_DIRNAME),
                "remove the secret, name where it is kept instead, and rotate it; "
                f"`memdir-nb lint {shell_word(memory_dir)}` shows the line",
                tuple(secrets),
            )
        )
    stale = sorted(_grouped(result.findings, "stale-project"))
    if stale:
        out.append(
            DoctorFinding(
                "stale-memories",
                "note",
                f"{plural(len(stale), 'project memory', 'project memories')} unchanged for over a "
                "year: goals and deadlines drift, and the model may trust them",
                os.fspath(memory_dir),
                "check each still holds; update it with absolute dates or delete it",
                tuple(stale),
            )
        )
    if len(result.headers) > MAX_MEMORY_FILES:
        out.append(
            DoctorFinding(
                "scan-cap",
                "action",
                f"{len(result.headers):,} memory files, but recall considers only the newest "
                f"{MAX_MEMORY_FILES}; the oldest {len(result.headers) - MAX_MEMORY_FILES:,} are never picked",
                os.fspath(memory_dir),
                "merge or delete old memories (the dream planner proposes merges)",
            )
        )
    if result.skipped:
        out.append(
            DoctorFinding(
                "skipped-files",
                "note",
                f"{plural(len(result.skipped), 'file')} skipped while reading (symlinks that leave "
                "the dir, unreadable files)",
                os.fspath(memory_dir),
                "remove the links or fix the permissions",
                tuple(f"{s.path}: {s.reason}" for s in result.skipped),
            )
        )
    team_off = report.auto_memory.enabled and not report.team_memory.enabled
    if team_off and (memory_dir / TEAM_DIRNAME).is_dir():
        out.append(
            DoctorFinding(
                "team-memory-off",
                "note",
                f"team/ exists but team memory is off ({report.team_memory.reason}), so team "
                "memories are not loaded",
                f"{report.team_memory.setting} ({report.team_memory.source})",
                "set MEMDIR_NB_TEAM_MEMORY=1 (memdir_nb's team-memory switch) to load it",
            )
        )
    return out


def dir_findings(
    memory_dir: Path, report: WhereReport, now_ms: float | None
) -> list[DoctorFinding]:
    if (blocker := folder_blocker(memory_dir)) is not None:
        where, kind = blocker
        what = (
            "the memory dir"
            if where == os.path.abspath(memory_dir)
            else "a parent of the memory dir"
        )
        return [
            DoctorFinding(
                "memory-dir-not-a-dir",
                "action",
                f"{what} is {kind}, not a folder, so the memory dir cannot be made and nothing "
                "can be saved",
                where,
                "move it away (or point CLAUDE_CONFIG_DIR or autoMemoryDirectory at a "
                "folder); the dir is created at the next session",
            )
        ]
    if not os.path.lexists(memory_dir):
        return [
            DoctorFinding(
                "no-memory-dir",
                "note",
                "no memory dir yet: nothing has been saved for this project "
                "(the dir is created at the first session with auto memory on)",
                os.fspath(memory_dir),
                "nothing to fix; if you expected memories, `memdir-nb list` shows every dir "
                "under the Claude home and the project each belongs to",
            )
        ]
    if not memory_dir.is_dir():
        return [
            DoctorFinding(
                "memory-dir-not-a-dir",
                "action",
                "the memory dir path exists but is not a directory, so nothing can be saved",
                os.fspath(memory_dir),
                "move the file away; the dir is created at the next session",
            )
        ]
    return [*_index_file_findings(memory_dir), *_lint_findings(memory_dir, report, now_ms)]
