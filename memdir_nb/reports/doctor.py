"""Why memory would not load, or would load only in part, for a project: findings with fixes.

`diagnose` starts from `where` (the resolved dir, the enable chains, the settings that were
used or ignored) and then checks the memory dir with the existing rules: lint for index
entries, orphans, dangling lines, stale and secret memories; index.entries_past_caps for the
entries the caps cut. Every finding names its cause, the file or setting responsible and the
fix, in the CLI's words. Severity "action" means memory does not load fully (exit 1);
"note" is worth knowing but loses nothing (exit 0). Nothing here writes. The settings checks
live here; the checks of the dir itself are in memdir_nb.reports.dir_checks.
"""

from __future__ import annotations

import json
import ntpath
import os
from pathlib import Path

from memdir_nb.formats.names import is_memory_filename
from memdir_nb.home.claude_homes import unread_xdg_home
from memdir_nb.home.config import (
    MEMORY_DIR_ENV_VARS,
    MEMORY_SETTINGS_KEYS,
    REPO_ENV_ALLOWED,
    TRACKED_ENV_VARS,
    MemdirConfig,
)
from memdir_nb.home.path_rules import HOME_VARIABLES, leading_variable
from memdir_nb.home.paths import GateDecision, get_memory_base_dir, sanitize_path
from memdir_nb.home.settings_files import load_settings_file
from memdir_nb.reports.claude_md import IMPORTS, NAMES, claude_md_reference
from memdir_nb.reports.diagnosis import DoctorFinding, DoctorReport
from memdir_nb.reports.dir_checks import dir_findings
from memdir_nb.reports.memory_dirs import PROJECTS_DIRNAME
from memdir_nb.reports.where import WhereReport, where
from memdir_nb.spec.constants import ENTRYPOINT_NAME, TEAM_DIRNAME
from memdir_nb.spec.shell_words import shell_word
from memdir_nb.spec.text import plural
from memdir_nb.storage.containment import same_real_path
from memdir_nb.storage.fsutil import is_folder, is_regular_file

# ---------------------------------------------------------------------------- settings


def _settings_string(text: str) -> str:
    """text as a JSON string to paste into a settings file, its letters as they are (json.dumps
    wrote a folder "Jürgen" as "J\\u00fcrgen": valid, but not the path the person knows)."""
    return json.dumps(text, ensure_ascii=False)


def _disabled_fix(d: GateDecision) -> str:
    in_block = d.source.startswith("the env block of ")
    file = d.source.split("(", 1)[-1].rstrip(")") if "(" in d.source else d.source
    if d.setting == "CLAUDE_CODE_SAFE_MODE":
        where_set = f'the "env" block of {file}' if in_block else "your shell or launcher"
        return (
            f"leave safe mode: unset CLAUDE_CODE_SAFE_MODE in {where_set} "
            "(memory stays off in safe mode even with CLAUDE_CODE_DISABLE_AUTO_MEMORY=0)"
        )
    if d.level == 1:
        if in_block:
            return f'delete "CLAUDE_CODE_DISABLE_AUTO_MEMORY" from the "env" block of {file}'
        return "unset CLAUDE_CODE_DISABLE_AUTO_MEMORY (and remove it from your shell profile)"
    if d.level == 2:
        return (
            "start Claude Code without --bare, or unset CLAUDE_CODE_SIMPLE; "
            "CLAUDE_CODE_DISABLE_AUTO_MEMORY=0 forces memory on even in bare mode"
        )
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


def _absolute_hint(report: WhereReport, value: object) -> str:
    """For a relative memory dir setting (".claude/memory", "./notes"): the absolute path it
    most likely means, from the project's root, as the value to write instead; else ""."""
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        return ""
    if value.startswith("~") or os.path.isabs(value) or ntpath.isabs(value):
        return ""
    variable = leading_variable(value)
    if variable is not None:  # written for a shell, which settings are not: never the project's
        reference, name = variable
        rest = value[len(reference) :].replace("\\", "/").lstrip("/")
        if name in HOME_VARIABLES and rest:
            return (
                f"; a leading ~/ is the one expansion settings get, so write "
                f'"autoMemoryDirectory": {_settings_string("~/" + rest)}'
            )
        return f"; write the absolute path that {reference} holds in your shell instead"
    root = report.checkout_root or report.git_root or report.cwd
    meant = os.path.normpath(os.path.join(root, value))
    return (
        f"; a relative path is never used, and this one most likely means "
        f'"autoMemoryDirectory": {_settings_string(meant)}'
    )


_DIR_RULES = ("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", "autoMemoryDirectory")  # rules 1 and 2


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
                    "settings (~/.claude/settings.json), which are trusted for the dir"
                    + _absolute_hint(report, step.value),
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
                    "the home folder, a filesystem root or a network path"
                    + _absolute_hint(report, step.value),
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
        elif step.outcome == "used" and step.detail and step.rule in _DIR_RULES:
            out.append(  # the rule rewrote the path it uses (a lone surrogate, attack round 26)
                DoctorFinding(
                    "dir-setting-rewritten",
                    "note",
                    f"{step.rule}={step.value!r} is used rewritten: {step.detail}",
                    f"{step.rule} in {step.source}",
                    "nothing is wrong with the folder; `memdir-nb where` shows the path in use",
                )
            )
    return out


def _problem_findings(report: WhereReport) -> list[DoctorFinding]:
    return [
        DoctorFinding(
            "settings-problem",
            "action",
            problem,
            problem.split(": ", 1)[0],
            "fix the file as the message says; until then Claude Code ignores it",
        )
        for problem in report.problems
    ]


def _ignored_env_findings(config: MemdirConfig) -> list[DoctorFinding]:
    """A repository's env block set a variable off the allow-list: say so, and where it belongs."""
    allowed = ", ".join(sorted(REPO_ENV_ALLOWED))
    out = []
    for ignored in config.ignored_env:
        where_memory = ignored.name in MEMORY_DIR_ENV_VARS
        out.append(
            DoctorFinding(
                "dir-setting-ignored" if where_memory else "env-setting-ignored",
                "action" if where_memory else "note",
                f"{ignored.describe()}: a repository's settings may set only {allowed}, "
                "and only to 1/true (switching memory off)",
                f"env.{ignored.name} in {ignored.layer} settings ({ignored.path})",
                f"if you mean it, set {ignored.name} in the env block of user settings "
                f"({config.claude_home / 'settings.json'}) or in your shell",
            )
        )
    return out


def _home_local_findings(config: MemdirConfig) -> list[DoctorFinding]:
    """Memory keys in the Claude home's own settings.local.json, which Claude Code reads only
    as the local settings of a session started in the home folder (it writes that file when
    such a session grants a permission). Anywhere else the keys do nothing: say so."""
    path = Path(config.claude_home) / "settings.local.json"
    local = config.cwd / ".claude" / "settings.local.json"
    if same_real_path(path, local):
        return []  # read: it is this project's local layer
    data, _ = load_settings_file(path, "home local")
    block = data.get("env")
    env: dict[str, object] = block if isinstance(block, dict) else {}
    keys = [k for k in MEMORY_SETTINGS_KEYS if k in data]
    keys += [f"env.{v}" for v in TRACKED_ENV_VARS if v.startswith("CLAUDE_") and v in env]
    if not keys:
        return []
    user = Path(config.claude_home) / "settings.json"
    return [
        DoctorFinding(
            "home-local-settings-unread",
            "note",
            f"{path} sets {', '.join(keys)}, but Claude Code reads a settings.local.json only "
            f"from the folder a session starts in ({local}); for this project it is not read",
            os.fspath(path),
            f"to apply them in every project move them to the user settings ({user}); "
            f"for this project only, to {local}",
        )
    ]


def _worktree_findings(report: WhereReport, config: MemdirConfig) -> list[DoctorFinding]:
    if not report.is_worktree or report.checkout_root is None:
        return []
    own = Path(config.claude_home) / PROJECTS_DIRNAME / sanitize_path(report.checkout_root)
    orphan = own / "memory"
    if same_real_path(orphan, report.memory_dir) or not orphan.is_dir():
        return []
    files = sorted(p.name for p in orphan.iterdir() if is_memory_filename(p.name))
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
            f"`memdir-nb rebuild-index {shell_word(report.memory_dir)}`",
            tuple(files),
        )
    ]


def _default_dir_findings(report: WhereReport, config: MemdirConfig) -> list[DoctorFinding]:
    """Memories in the project's default dir when a setting or override chose another one.

    Claude Code loads only the chosen dir, but its write instruction has named the default
    dir all the same (anthropics/claude-code#59127, May 2026), and a dir used before the
    setting was written stays where it was: either way those memories are never loaded. (The
    cowork override is set for cowork sessions only: other sessions still load the default.)
    """
    if not report.source.startswith("settings:") or not report.key or not report.memory_dir:
        return []
    default = get_memory_base_dir(config) / PROJECTS_DIRNAME / report.key / "memory"
    if not is_folder(default, follow=False) or same_real_path(default, report.memory_dir):
        return []
    files = _memory_names(default)
    if not files:
        return []
    chosen = "autoMemoryDirectory"
    return [
        DoctorFinding(
            "default-dir-unloaded",
            "action",
            f"{plural(len(files), 'memory', 'memories')} in this project's default memory dir "
            f"{'is' if len(files) == 1 else 'are'} never loaded: {chosen} makes "
            f"{report.memory_dir} the memory dir (Claude Code has been seen to write new "
            "memories to the default dir all the same, anthropics/claude-code#59127)",
            os.fspath(default),
            f"move them into {report.memory_dir}, then run "
            f"`memdir-nb rebuild-index {shell_word(report.memory_dir)}`; or remove {chosen} to use the "
            "default dir again",
            tuple(files[:20]),
        )
    ]


def _memory_dir_keys(home: Path) -> list[str]:
    """The keys of the memory dirs in a Claude home's layout, `home/projects/<key>/memory/`."""
    try:
        projects = list((home / PROJECTS_DIRNAME).iterdir())
    except OSError:
        return []
    # a symlinked project or memory folder could lead anywhere: only real folders count, and
    # one that cannot be looked at (past PATH_MAX, not enterable) is none
    real = [p for p in projects if is_folder(p, follow=False)]
    return sorted(p.name for p in real if is_folder(p / "memory", follow=False))


def _xdg_home_findings(config: MemdirConfig) -> list[DoctorFinding]:
    """Memory dirs in an XDG Claude home the CLI does not read (home.claude_homes)."""
    xdg = unread_xdg_home(config)
    if xdg is None:
        return []
    dirs = _memory_dir_keys(xdg)
    if not dirs:
        return []
    return [
        DoctorFinding(
            "xdg-home-unread",
            "note",
            f"{xdg} holds {plural(len(dirs), 'memory dir')} that Claude Code does not read: its "
            f"home is {config.claude_home}. It kept its home there only in a few 1.0.x releases "
            "of June 2025, with XDG_CONFIG_HOME set; today it reads that folder only when "
            "CLAUDE_CONFIG_DIR names it",
            os.fspath(xdg),
            f"to use that home, set CLAUDE_CONFIG_DIR={shell_word(xdg)}; to keep {config.claude_home}, "
            f"move the memory dirs you want into {config.claude_home / PROJECTS_DIRNAME} "
            f"(`memdir-nb list --home {shell_word(xdg)}` lists them)",
            tuple(dirs[:20]),
        )
    ]


# A memory dir committed with the project (.claude/memory/MEMORY.md is in thousands of public
# repositories); reports.claude_md reads whether CLAUDE.md imports or names it.
REPO_MEMORY_PARTS = (".claude", "memory")


def _repo_memory_findings(report: WhereReport) -> list[DoctorFinding]:
    """A memory dir kept in the repository that auto memory does not load (a note).

    Claude Code loads only the resolved dir's MEMORY.md; a `.claude/memory/` committed with
    the project reaches the model only when CLAUDE.md (or a prompt) sends it there. When the
    folder is the resolved dir (autoMemoryDirectory or a symlink), there is nothing to say.
    """
    root = Path(report.checkout_root or report.git_root or report.cwd)
    repo_dir = root.joinpath(*REPO_MEMORY_PARTS)
    # fsutil's tests, not pathlib's: those raise for a path past PATH_MAX or a folder this user
    # cannot enter, and took the whole doctor down (attack round 17)
    if not is_folder(repo_dir, follow=False):
        return []
    if report.memory_dir and same_real_path(repo_dir, report.memory_dir):
        return []
    if not is_regular_file(repo_dir / ENTRYPOINT_NAME):
        return []
    memories = _memory_names(repo_dir)
    if memories is None:
        return []
    team = repo_dir / TEAM_DIRNAME  # its team memory, committed beside it
    team_names = _memory_names(team) if is_folder(team, follow=False) else None
    memories += [f"{TEAM_DIRNAME}/{name}" for name in team_names or ()]
    where_named = {
        IMPORTS: "CLAUDE.md imports its MEMORY.md, so that index loads with CLAUDE.md at every "
        "session start, as instructions (not auto memory's caps or recall): its topic files are "
        "read only when Claude opens them",
        NAMES: "CLAUDE.md names it, so Claude reads it by hand",
    }.get(
        claude_md_reference(root, repo_dir, ENTRYPOINT_NAME),
        "nothing in CLAUDE.md names it, so Claude never sees it",
    )
    rel = "/".join(REPO_MEMORY_PARTS)
    return [
        DoctorFinding(
            "repo-memory-unloaded",
            "note",
            f"{rel}/ in the project holds a MEMORY.md and "
            f"{plural(len(memories), 'memory file')}, but auto memory loads "
            f"{report.memory_dir or 'no dir'}: {where_named}",
            os.fspath(repo_dir),
            "to make it this project's auto memory, set "
            f'"autoMemoryDirectory": {_settings_string(os.fspath(repo_dir))} '
            f"(the absolute path; a relative one is not used) in {root / '.claude'}"
            "/settings.local.json or your user settings; to keep the two apart, nothing to fix",
            tuple(memories[:20]),
        )
    ]


def _project_home_layout_findings(report: WhereReport, config: MemdirConfig) -> list[DoctorFinding]:
    """The project's .claude/ holding memory dirs in a Claude home's layout (a note).

    real35: a repository committed `.claude/projects/C--Users-…/memory/` beside its
    `.claude/memory/`, a home's memory dir from a Windows machine. Claude Code reads projects/
    only in its home (~/.claude, or CLAUDE_CONFIG_DIR), so none of them loads; when the
    project's .claude/ is the home, there is nothing to say.
    """
    dot = Path(report.checkout_root or report.git_root or report.cwd) / ".claude"
    if not is_folder(dot, follow=False) or same_real_path(dot, config.claude_home):
        return []
    keys = _memory_dir_keys(dot)
    if not keys:
        return []
    return [
        DoctorFinding(
            "home-layout-in-project",
            "note",
            f".claude/{PROJECTS_DIRNAME}/ in the project holds "
            f"{plural(len(keys), 'memory dir')} in a Claude home's layout "
            f"({PROJECTS_DIRNAME}/<key>/memory/), which Claude Code does not read: it reads "
            f"{PROJECTS_DIRNAME}/ only in its home, {config.claude_home}",
            os.fspath(dot / PROJECTS_DIRNAME),
            f"to keep those memories, move the files into {report.memory_dir or 'the memory dir'}"
            f" and run `memdir-nb rebuild-index` there (`memdir-nb list --home {shell_word(dot)}` lists "
            "them); if they were copied there by mistake, nothing loads them",
            tuple(keys[:20]),
        )
    ]


def _memory_names(folder: Path) -> list[str] | None:
    """The memory files' names in one folder, sorted (None when it cannot be listed)."""
    try:
        return sorted(p.name for p in folder.iterdir() if is_memory_filename(p.name))
    except OSError:
        return None


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
        *_ignored_env_findings(config),
        *_worktree_findings(report, config),
        *_default_dir_findings(report, config),
        *_home_local_findings(config),
        *_xdg_home_findings(config),
        *_repo_memory_findings(report),
        *_project_home_layout_findings(report, config),
    ]
    if not chosen:  # no dir can be resolved (the gate finding says why)
        return DoctorReport(report, "", tuple(findings))
    checked = Path(chosen)
    if memory_dir is not None and not same_real_path(checked, report.memory_dir):
        findings.append(
            DoctorFinding(
                "other-dir-checked",
                "note",
                f"checked {checked} as asked; this project's own memory dir is {report.memory_dir}",
                os.fspath(checked),
                "nothing to fix; drop the dir argument to check the project's own dir",
            )
        )

    findings += dir_findings(checked, report, now)
    order = {"action": 0, "note": 1}
    findings.sort(key=lambda f: order[f.severity])
    return DoctorReport(report, os.fspath(checked), tuple(findings))
