"""Why memory would not load, or would load only in part, for a project: findings with fixes.

`diagnose` starts from `where` (the resolved dir, the enable chains, the settings that were
used or ignored) and then checks the memory dir with the existing rules: lint for index
entries, orphans, dangling lines, stale and secret memories; index.entries_past_caps for the
entries the caps cut. Every finding names its cause, the file or setting responsible and the
fix, in the CLI's words. Severity "action" means memory does not load fully (exit 1);
"note" is worth knowing but loses nothing (exit 0). Nothing here writes.
"""

from __future__ import annotations

import os
import stat
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from memdir_nb.config import MEMORY_DIR_ENV_VARS, MemdirConfig
from memdir_nb.constants import (
    ENTRYPOINT_NAME,
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    MAX_MEMORY_FILES,
    TEAM_DIRNAME,
)
from memdir_nb.paths import GateDecision, sanitize_path
from memdir_nb.where import PROJECTS_DIRNAME, WhereReport, plural, where

Severity = Literal["action", "note"]
# How many names a finding lists before it says "and N more".
MAX_ITEMS_SHOWN = 20


@dataclass(frozen=True)
class DoctorFinding:
    """One reason memory would not load fully: what, which file or setting, and the fix."""

    code: str
    severity: Severity
    cause: str
    responsible: str
    fix: str
    items: tuple[str, ...] = ()

    def format(self) -> str:
        """A few lines for the terminal."""
        lines = [
            f"[{self.severity}] {self.code}: {self.cause}",
            f"    responsible: {self.responsible}",
            f"    fix: {self.fix}",
        ]
        shown = self.items[:MAX_ITEMS_SHOWN]
        lines += [f"    - {item}" for item in shown]
        if len(self.items) > len(shown):
            lines.append(f"    ... and {len(self.items) - len(shown)} more")
        return "\n".join(lines)


@dataclass(frozen=True)
class DoctorReport:
    """The where report, the dir that was checked, and the findings."""

    where: WhereReport
    checked_dir: str
    findings: tuple[DoctorFinding, ...] = field(default_factory=tuple)

    @property
    def exit_code(self) -> int:
        """0 when memory would load fully, 1 when a finding needs action."""
        return 1 if any(f.severity == "action" for f in self.findings) else 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the --json output)."""
        return {
            "where": self.where.to_dict(),
            "checked_dir": self.checked_dir,
            "exit_code": self.exit_code,
            "findings": [asdict(f) for f in self.findings],
        }


# ---------------------------------------------------------------------------- settings


def _disabled_fix(d: GateDecision) -> str:
    in_block = d.source.startswith("the env block of ")
    file = d.source.split("(", 1)[-1].rstrip(")") if "(" in d.source else d.source
    if d.level == 1:
        if in_block:
            return f'delete "CLAUDE_CODE_DISABLE_AUTO_MEMORY" from the "env" block of {file}'
        return "unset CLAUDE_CODE_DISABLE_AUTO_MEMORY (and remove it from your shell profile)"
    if d.level == 2:
        return "start Claude Code without --bare, or unset CLAUDE_CODE_SIMPLE"
    if d.level == 3:
        return (
            "set CLAUDE_CODE_REMOTE_MEMORY_DIR to an absolute path on persistent storage, "
            "or unset CLAUDE_CODE_REMOTE"
        )
    if "project settings" in d.source:
        return (
            f'delete "autoMemoryEnabled": false from {file} (a repository setting can only '
            "switch memory off), or ask the repository's owners why it is there"
        )
    return f'set "autoMemoryEnabled": true in {file}, or delete the key'


def _gate_findings(report: WhereReport) -> list[DoctorFinding]:
    out = []
    d = report.auto_memory
    if not d.enabled:
        out.append(
            DoctorFinding(
                "auto-memory-disabled",
                "action",
                f"auto memory is off: {d.reason} (level {d.level} of the enable chain); "
                "nothing is loaded or saved",
                f"{d.setting} in {d.source}" if d.setting else d.source,
                _disabled_fix(d),
            )
        )
        return out
    if report.kairos.enabled:
        out.append(
            DoctorFinding(
                "kairos-mode",
                "note",
                "KAIROS is on: sessions append to daily logs under logs/ and MEMORY.md is not "
                "loaded into the prompt until consolidation turns the logs into topic files",
                f"{report.kairos.setting} in {report.kairos.source}",
                "nothing to fix; unset MEMDIR_NB_KAIROS to load MEMORY.md again",
            )
        )
    return out


def _step_findings(report: WhereReport) -> list[DoctorFinding]:
    out = []
    for step in report.steps:
        if step.outcome == "ignored":
            out.append(
                DoctorFinding(
                    "dir-setting-ignored",
                    "action",
                    f"autoMemoryDirectory={step.value!r} is ignored: {step.detail}",
                    f"autoMemoryDirectory in {step.source}",
                    "move the setting to local settings (.claude/settings.local.json) or user "
                    "settings (~/.claude/settings.json), which are trusted for the dir",
                )
            )
        elif step.outcome == "rejected":
            out.append(
                DoctorFinding(
                    "dir-setting-rejected",
                    "action",
                    f"{step.rule}={step.value!r} is not used: it {step.detail}",
                    f"{step.rule} in {step.source}",
                    "give an absolute path (settings files may start it with ~/) that is not "
                    "the home folder, a filesystem root or a network path",
                )
            )
        elif step.outcome == "shadowed":
            out.append(
                DoctorFinding(
                    "dir-setting-shadowed",
                    "note",
                    f"{step.rule}={step.value!r} is not used because an earlier rule in the "
                    "chain already chose the dir",
                    f"{step.rule} in {step.source}",
                    "delete whichever setting you do not mean; `memdir-nb where` shows the order",
                )
            )
    return out


def _problem_findings(report: WhereReport) -> list[DoctorFinding]:
    out = []
    for problem in report.problems:
        file = problem.split(": ", 1)[0]
        if any(var in problem for var in MEMORY_DIR_ENV_VARS) and "project settings" in problem:
            out.append(
                DoctorFinding(
                    "dir-setting-ignored",
                    "action",
                    problem,
                    file,
                    "move the variable to the env block of local or user settings",
                )
            )
        else:
            out.append(
                DoctorFinding(
                    "settings-problem",
                    "action",
                    problem,
                    file,
                    "fix the file as the message says; until then Claude Code ignores it",
                )
            )
    return out


def _worktree_findings(report: WhereReport, config: MemdirConfig) -> list[DoctorFinding]:
    if not report.is_worktree or report.checkout_root is None:
        return []
    own = Path(config.claude_home) / PROJECTS_DIRNAME / sanitize_path(report.checkout_root)
    orphan = own / "memory"
    if os.path.realpath(orphan) == os.path.realpath(report.memory_dir) or not orphan.is_dir():
        return []
    files = sorted(p.name for p in orphan.glob("*.md") if p.name != ENTRYPOINT_NAME)
    if not files:
        return []
    return [
        DoctorFinding(
            "worktree-orphan",
            "action",
            f"{plural(len(files), 'memory', 'memories')} saved under this worktree's own key are "
            "never loaded: every worktree shares the main checkout's memory dir",
            os.fspath(orphan),
            f"move them into {report.memory_dir}, then run "
            f"`memdir-nb rebuild-index {report.memory_dir}`",
            tuple(files),
        )
    ]


# ---------------------------------------------------------------------------- the dir


def _index_file_findings(memory_dir: Path) -> list[DoctorFinding]:
    out = []
    for scope_dir in (memory_dir, memory_dir / TEAM_DIRNAME):
        index = scope_dir / ENTRYPOINT_NAME
        try:
            st = index.lstat()
        except OSError:
            continue
        if stat.S_ISLNK(st.st_mode):
            real = os.path.realpath(index)
            root = os.path.realpath(memory_dir)
            inside = real.startswith(root.rstrip(os.sep) + os.sep)
            where_to = "a file inside the memory dir" if inside else "a file OUTSIDE the memory dir"
            out.append(
                DoctorFinding(
                    "index-symlink",
                    "action",
                    f"{scope_dir.name}/{ENTRYPOINT_NAME} is a symlink to {where_to} ({real}): what "
                    "is loaded then depends on a file that can change or vanish outside the index",
                    os.fspath(index),
                    f"replace the link with a regular file: `memdir-nb rebuild-index {memory_dir}`",
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
    from memdir_nb.index import entries_past_caps, truncate_entrypoint_content
    from memdir_nb.lint import lint_dir, scope_of

    result = lint_dir(memory_dir, now_ms=now_ms, progress=False)
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
                    f"remove it and run `memdir-nb rebuild-index {memory_dir}`",
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
                    f"re-save it as UTF-8, or run `memdir-nb rebuild-index {memory_dir}`",
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
                    "keep one short line per memory and move prose into topic files; "
                    f"`memdir-nb rebuild-index {memory_dir}` rewrites it from the topic files",
                    tuple(f"line {e.line_no}: [{e.title}]({e.target})" for e in cut),
                )
            )
        if not ix.exists:
            scoped = [h for h in result.headers if scope_of(h.filename) == ix.scope]
            if scoped:
                out.append(
                    DoctorFinding(
                        "index-missing",
                        "action",
                        f"no {ix.path} although {plural(len(scoped), 'memory', 'memories')} "
                        f"{'exists' if len(scoped) == 1 else 'exist'} in this scope, so none is "
                        "listed up front",
                        where_ix,
                        f"run `memdir-nb rebuild-index {memory_dir}`",
                    )
                )
    missing = sorted(f.path for f in result.findings if f.rule == "not-in-index")
    if missing:
        out.append(
            DoctorFinding(
                "not-in-index",
                "action",
                f"{plural(len(missing), 'topic file')} missing from the index: recall can still "
                f"find {'it' if len(missing) == 1 else 'them'}, but the index never lists "
                f"{'it' if len(missing) == 1 else 'them'} up front",
                os.fspath(memory_dir / ENTRYPOINT_NAME),
                "add a '- [Title](file.md) — hook' line for each, or run "
                f"`memdir-nb rebuild-index {memory_dir}` (it rewrites hooks from descriptions)",
                tuple(missing),
            )
        )
    dangling = [
        f"{f.path}:{f.line}: {f.message}"
        for f in result.findings
        if f.rule == "index-dangling-entry"
    ]
    if dangling:
        out.append(
            DoctorFinding(
                "index-dangling",
                "action",
                f"{plural(len(dangling), 'index line')} {'points' if len(dangling) == 1 else 'point'} "
                "at nothing",
                os.fspath(memory_dir / ENTRYPOINT_NAME),
                f"delete those lines (or restore the files); `memdir-nb rebuild-index {memory_dir}` drops them",
                tuple(dangling),
            )
        )
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
                f"`memdir-nb lint {memory_dir}` shows the line",
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
                "set MEMDIR_NB_TEAM_MEMORY=1 (the stand-in for tengu_herring_clock) to load it",
            )
        )
    return out


def _dir_findings(
    memory_dir: Path, report: WhereReport, now_ms: float | None
) -> list[DoctorFinding]:
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


def diagnose(
    config: MemdirConfig,
    *,
    memory_dir: str | os.PathLike[str] | None = None,
    git: str | None = "git",
    now_ms: float | None = None,
) -> DoctorReport:
    """Every reason memory would not load fully for config.cwd (or for memory_dir, if given)."""
    report = where(config, git=git)
    now = config.now_ms() if now_ms is None else now_ms
    chosen = memory_dir if memory_dir is not None else report.memory_dir
    findings = [
        *_gate_findings(report),
        *_step_findings(report),
        *_problem_findings(report),
        *_worktree_findings(report, config),
    ]
    if not chosen:  # no dir can be resolved (the gate finding says why)
        return DoctorReport(report, "", tuple(findings))
    checked = Path(chosen)
    if memory_dir is not None and os.path.realpath(checked) != os.path.realpath(report.memory_dir):
        findings.append(
            DoctorFinding(
                "other-dir-checked",
                "note",
                f"checked {checked} as asked; this project's own memory dir is {report.memory_dir}",
                os.fspath(checked),
                "nothing to fix; drop the dir argument to check the project's own dir",
            )
        )
    findings += _dir_findings(checked, report, now)
    order = {"action": 0, "note": 1}
    findings.sort(key=lambda f: order[f.severity])
    return DoctorReport(report, os.fspath(checked), tuple(findings))


def format_doctor(report: DoctorReport) -> str:
    """The findings as text, then one summary line."""
    lines = [f"memory dir: {report.checked_dir}"]
    for f in report.findings:
        lines.append(f.format())
    actions = sum(f.severity == "action" for f in report.findings)
    notes = len(report.findings) - actions
    if actions:
        lines.append(
            f"{plural(actions, 'finding')} {'needs' if actions == 1 else 'need'} action, "
            f"{plural(notes, 'note')}: "
            "memory would not load fully."
        )
    else:
        lines.append(f"no action needed ({plural(notes, 'note')}): memory would load fully.")
    return "\n".join(lines)
