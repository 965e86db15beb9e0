"""Whole `~/.claude` homes shaped like the ones people publish in dotfiles repositories.

Each builder rebuilds one published shape in our own words (see docs/decisions.md, "Home
routes over published homes"): the same folders, keys and quirks, none of their text. A
builder writes a home under ``root`` and returns a :class:`HomeShape` that says what the
home routes must answer there: the memory dir `where` resolves to, whether auto memory is on,
how many memory dirs `list` finds and which doctor finding codes must (or must not) appear.

Real files, real symlinks (dangling ones included, as a copied home has them) and, where the
shape has one, a real git repository. Nothing here touches the developer's own home.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memdir_nb.home.path_rules import sanitize_path
from tests.support.fake_home import HAS_GIT, add_memory, make_repo

SESSION_ID = "5f0c2a8e-1b7d-4c3e-9a61-2d4e8f0b7c15"


@dataclass
class HomeShape:
    """One rebuilt home and what the home routes must say about it."""

    name: str
    home: Path  # the folder $HOME points at (it holds .claude)
    cwd: Path  # the project `where` and `doctor` are asked about
    memory_dir: Path | None  # the dir `where` must resolve to (None: no dir, memory is off)
    enabled: bool = True
    memory_dirs: int = 0  # how many memory dirs `list` finds in the home
    memories: int = 0  # how many memories those dirs hold together
    sessions: int = 0  # how many transcripts `sessions` lists
    findings: tuple[str, ...] = ()  # doctor codes that must appear
    not_findings: tuple[str, ...] = ()  # doctor codes that must not appear
    mentions: tuple[str, ...] = ()  # text doctor's report must contain (a setting, a fix)
    notes: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def claude_home(self) -> Path:
        return self.home / ".claude"


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _json(path: Path, data: object, *, indent: int | None = 2) -> Path:
    return _write(path, json.dumps(data, indent=indent) + "\n")


def _link(path: Path, target: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    return path


def _transcript(project_dir: Path, cwd: str, session: str = SESSION_ID, turns: int = 2) -> Path:
    """A small session transcript: alternating user and assistant lines that record the cwd."""
    lines = []
    for i in range(turns * 2):
        role = "user" if i % 2 == 0 else "assistant"
        lines.append(
            json.dumps(
                {
                    "type": role,
                    "uuid": f"{session[:8]}-{i}",
                    "sessionId": session,
                    "cwd": cwd,
                    "timestamp": f"2026-05-0{1 + i % 9}T10:00:00.000Z",
                    "message": {"role": role, "content": f"turn {i} about the build"},
                }
            )
        )
    return _write(project_dir / f"{session}.jsonl", "\n".join(lines) + "\n")


def _project(home: Path, name: str, *, repo: bool = False) -> Path:
    """A project folder under the home (a git repository when asked and git exists)."""
    path = home / name
    if repo and HAS_GIT:
        make_repo(path)
    else:
        path.mkdir(parents=True, exist_ok=True)
    return path


def _key_dir(home: Path, project: Path) -> Path:
    return home / ".claude" / "projects" / sanitize_path(os.path.realpath(project))


def _home(root: Path, user: str = "sam") -> Path:
    home = root / user
    (home / ".claude").mkdir(parents=True)
    return home


def _memories(memory_dir: Path, *names: str) -> None:
    for name in names:
        kind = name.split("_", 1)[0] if "_" in name else "project"
        add_memory(memory_dir, f"{name}.md", type=kind if kind in _TYPES else "project")


_TYPES = {"user", "feedback", "project", "reference"}


# ------------------------------------------------------------------------------- the shapes


def desktop_linux_backup(root: Path) -> HomeShape:
    """A whole Linux home backed up: sessions with subagent folders, one memory dir, a skill
    symlinked to a folder that is not in the backup, file history and plans."""
    home = _home(root, "vw")
    claude = home / ".claude"
    _json(claude / "settings.json", {"skipAutoPermissionPrompt": True})
    work = _project(home, "Claude")
    key = _key_dir(home, work)
    mem = key / "memory"
    _memories(mem, "project_desktop_theme", "project_team_lead")
    _transcript(key, str(work))
    _transcript(key, str(work), session="9d1e7a30-0c4b-4f7e-8b52-6a3f1e2d9c04")
    sub = key / SESSION_ID / "subagents"
    _write(sub / "agent-a1b2c3.jsonl", json.dumps({"type": "user", "cwd": str(work)}) + "\n")
    _json(sub / "agent-a1b2c3.meta.json", {"agentType": "general-purpose"})
    _write(key / SESSION_ID / "tool-results" / "fetched-page.jpg", b"\xff\xd8\xff\xe0not-a-jpeg")
    _transcript(_key_dir(home, home), str(home), session="0a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9")
    _link(claude / "skills" / "desktop", "/nonexistent/share/desktop-skill")
    _json(claude / "plugins" / "known_marketplaces.json", {})
    _json(claude / "plugins" / "blocklist.json", {"plugins": []})
    _write(claude / "file-history" / SESSION_ID / "abc@v1", "old contents\n")
    _write(claude / "plans" / "a-plan-name.md", "# plan\n")
    _write(claude / "history.jsonl", json.dumps({"display": "hi", "project": str(work)}) + "\n")
    return HomeShape(
        "desktop_linux_backup",
        home,
        work,
        mem,
        memory_dirs=1,
        memories=2,
        sessions=4,
        not_findings=("settings-problem",),
    )


def memory_for_the_home_itself(root: Path) -> HomeShape:
    """Claude Code started in the home folder: the home is the project, so ~/.claude/
    settings.json is both the user and the project layer, and settings.local.json in
    ~/.claude is the local layer; a big permissions list lives there."""
    home = _home(root, "anders")
    claude = home / ".claude"
    _json(
        claude / "settings.json",
        {
            "model": "opus",
            "permissions": {"allow": ["Bash(git status)"], "defaultMode": "acceptEdits"},
            "extraKnownMarketplaces": {"team": {"source": {"source": "github", "repo": "o/p"}}},
            "tui": "fullscreen",
        },
    )
    allow = [f"Bash(tool-{i}:*)" for i in range(300)]
    _json(claude / "settings.local.json", {"permissions": {"allow": allow}})
    mem = _key_dir(home, home) / "memory"
    _memories(
        mem,
        "feedback_ask_first",
        "feedback_sync_dotfiles",
        "feedback_reconnect",
        "feedback_no_cdn",
        "feedback_best_fix",
        "user_role",
        "reference_servers",
    )
    return HomeShape(
        "memory_for_the_home_itself", home, home, mem, memory_dirs=1, memories=7, sessions=0
    )


def server_with_claude_json(root: Path) -> HomeShape:
    """A server account: ~/.claude.json beside ~/.claude, projects keyed by hidden folders
    (a double dash) and /tmp, sessions only, no memory dir anywhere, rule files."""
    home = _home(root, "admin")
    claude = home / ".claude"
    _json(claude / "settings.json", {"skipDangerousModePermissionPrompt": True})
    _write(claude / "CLAUDE.md", "# House rules\n\nKeep answers short.\n")
    for rule in ("style", "testing", "workflow"):
        _write(claude / "rules" / f"{rule}.md", f"# {rule}\n")
    workspace = home / ".agentbox" / "workspace"
    workspace.mkdir(parents=True)
    nested = workspace / "projects" / "2026-03-09-random-prime"
    nested.mkdir(parents=True)
    for folder in (home, workspace, nested):
        _transcript(_key_dir(home, folder), str(folder))
    _transcript(claude / "projects" / "-tmp", "/tmp")
    _json(
        home / ".claude.json",
        {
            "numStartups": 41,
            "installMethod": "native",
            "projects": {str(home): {"allowedTools": []}, str(workspace): {"allowedTools": []}},
        },
    )
    return HomeShape(
        "server_with_claude_json",
        home,
        workspace,
        _key_dir(home, workspace) / "memory",
        memory_dirs=0,
        sessions=4,
        extra={"double_dash_key": sanitize_path(os.path.realpath(workspace))},
    )


def proxy_env_with_key(root: Path) -> HomeShape:
    """A laptop behind a model gateway: the user settings' env block holds an API key, a base
    URL and model names; a top-level primaryApiKey; todos, statsig, ide lock files, backups
    of ~/.claude.json and a debug/latest link to a log that is not there."""
    home = _home(root, "sv")
    claude = home / ".claude"
    _json(
        claude / "settings.json",
        {
            "env": {
                "ANTHROPIC_API_KEY": "sk-ant-fake-key-for-tests-000000000000",
                "ANTHROPIC_BASE_URL": "https://gateway.example.invalid",
                "ANTHROPIC_CUSTOM_MODEL_OPTION": "team-model",
                "CLAUDE_CODE_ATTRIBUTION_HEADER": "0",
            },
            "model": "team-model",
            "primaryApiKey": "fake-primary",
            "hasCompletedOnboarding": True,
        },
    )
    for i in range(6):
        _json(claude / "todos" / f"{SESSION_ID}-agent-{i}.json", [])
    _json(claude / "statsig" / "statsig.cached.evaluations.abc", {"data": "{}"})
    _json(claude / "ide" / "12345.lock", {"pid": 1, "workspaceFolders": []})
    _json(claude / "backups" / ".claude.json.backup.1778204129584", {"numStartups": 3})
    _write(claude / ".last-cleanup", "2026-05-01\n")
    _link(claude / "debug" / "latest", str(home / ".claude" / "debug" / "gone.txt"))
    code = home / "Documents" / "code"
    projects = [code / n for n in ("scratch", "scratch-ai", "production-cert-report")]
    for p in projects:
        p.mkdir(parents=True)
        _transcript(_key_dir(home, p), str(p))
    mem = _key_dir(home, projects[0]) / "memory"
    _write(mem / "MEMORY.md", "# Memory\n\nNothing saved yet.\n")
    _json(home / ".claude.json", {"projects": {str(p): {} for p in projects}})
    return HomeShape(
        "proxy_env_with_key",
        home,
        projects[0],
        mem,
        memory_dirs=1,
        memories=0,
        sessions=3,
        extra={"secret": "sk-ant-fake-key-for-tests-000000000000"},
    )


def worktree_keys_and_backups(root: Path) -> HomeShape:
    """A heavy user: settings.json with .backup, .bak and .orig copies beside it, an env
    block with an auth token, keys for Claude Code's own worktrees (a double dash before
    `claude-worktrees`), thousands of session-env folders, no memory yet."""
    home = _home(root, "xu")
    claude = home / ".claude"
    _json(
        claude / "settings.json",
        {
            "env": {"ANTHROPIC_AUTH_TOKEN": "fake-token", "ANTHROPIC_MODEL": "m"},
            "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"},
        },
    )
    for suffix in (".backup", ".bak", ".orig", ".backup.2026-04-08T14-13-31Z"):
        _json(claude / f"settings.json{suffix}", {"model": "old", "autoMemoryEnabled": False})
    _json(claude / "settings.local.json", {"permissions": {"allow": ["Read(*)"]}})
    repo = _project(home, "Projects/controller", repo=True)
    trees = repo / ".claude" / "worktrees"
    for name in ("elegant-margulis", "goofy-bardeen"):
        wt = trees / name
        wt.mkdir(parents=True)
        _transcript(_key_dir(home, wt), str(wt))
    _transcript(_key_dir(home, repo), str(repo))
    for i in range(2000):
        (claude / "session-env" / f"{i:08x}-0000-4000-8000-000000000000").mkdir(parents=True)
    return HomeShape(
        "worktree_keys_and_backups",
        home,
        repo,
        _key_dir(home, repo) / "memory",
        memory_dirs=0,
        sessions=3,
        not_findings=("auto-memory-disabled",),
    )


def plugins_only_no_projects(root: Path) -> HomeShape:
    """A home with hundreds of plugin files, caches and backups but no projects folder."""
    home = _home(root, "bro")
    claude = home / ".claude"
    _json(
        claude / "settings.json",
        {"alwaysThinkingEnabled": True, "editorMode": "vim", "enabledPlugins": {"a@b": True}},
    )
    for i in range(400):
        _write(claude / "plugins" / "cache" / f"p{i % 20}" / f"file{i}.md", "plugin text\n")
    _json(claude / "mcp-needs-auth-cache.json", {})
    _write(claude / "paste-cache" / "a.txt", "pasted\n")
    project = _project(home, "src/app")
    return HomeShape(
        "plugins_only_no_projects",
        home,
        project,
        _key_dir(home, project) / "memory",
        memory_dirs=0,
        sessions=0,
    )


def legacy_statsig_todos(root: Path) -> HomeShape:
    """An older home: statsig, todos, shell-snapshots, an agents.yaml, sessions in the
    2.0 layout (agent-*.jsonl beside the session), no settings.json at all."""
    home = _home(root, "robin")
    claude = home / ".claude"
    _json(claude / "statsig" / "statsig.stable_id.1", "abc")
    _json(claude / "todos" / f"{SESSION_ID}.json", [{"content": "x", "status": "pending"}])
    _write(claude / "shell-snapshots" / "snapshot-zsh-1.sh", "export PATH=/usr/bin\n")
    _write(claude / "agents.yaml", "agents: []\n")
    _write(claude / "agents" / "reviewer.md", "---\nname: reviewer\n---\nReview code.\n")
    key = _key_dir(home, home)
    _transcript(key, str(home))
    _write(key / "agent-1a2b3c4d.jsonl", json.dumps({"type": "user", "isSidechain": True}) + "\n")
    return HomeShape(
        "legacy_statsig_todos",
        home,
        home,
        key / "memory",
        memory_dirs=0,
        sessions=2,
    )


def hooks_and_policy_limits(root: Path) -> HomeShape:
    """Settings with hook commands and a voice setting; policy-limits.json and
    stats-cache.json beside them; no projects folder."""
    home = _home(root, "add")
    claude = home / ".claude"
    hook = {"type": "command", "command": "~/.claude/hooks/notify.sh"}
    _json(
        claude / "settings.json",
        {
            "hooks": {"Stop": [{"hooks": [hook]}], "PreToolUse": [{"matcher": "Bash"}]},
            "voiceEnabled": True,
            "model": "sonnet",
        },
    )
    _json(claude / "policy-limits.json", {"restrictions": {}})
    _json(claude / "stats-cache.json", {"version": 2, "dailyActivity": []})
    _write(claude / "commands" / "ship.md", "Ship it.\n")
    project = _project(home, "work")
    return HomeShape("hooks_and_policy_limits", home, project, _key_dir(home, project) / "memory")


def schema_key_and_local(root: Path) -> HomeShape:
    """A settings.json that starts with "$schema" and a feedback survey state, and a
    settings.local.json in ~/.claude that Claude Code reads only when started in ~."""
    home = _home(root, "dp")
    claude = home / ".claude"
    _json(
        claude / "settings.json",
        {
            "$schema": "https://json.schemastore.org/claude-code-settings.json",
            "feedbackSurveyState": {"lastShownTime": 1},
            "statusLine": {"type": "command", "command": "echo hi"},
        },
    )
    _json(claude / "settings.local.json", {"autoMemoryEnabled": False})
    project = _project(home, "code/site", repo=True)
    return HomeShape(
        "schema_key_and_local",
        home,
        project,
        _key_dir(home, project) / "memory",
        findings=("home-local-settings-unread",),
        not_findings=("auto-memory-disabled",),
        mentions=("sets autoMemoryEnabled", "move them to the user settings"),
    )


def dangling_settings_symlink(root: Path) -> HomeShape:
    """A profile switcher's leftover: ~/.claude/settings.json is a symlink to a profile
    folder that does not exist on this machine (the dotfiles were cloned elsewhere)."""
    home = _home(root, "jl")
    _link(home / ".claude" / "settings.json", "/nonexistent/.claude-profiles/test/settings.json")
    _write(home / ".claude" / "CLAUDE.md", "# Rules\n")
    project = _project(home, "app")
    return HomeShape(
        "dangling_settings_symlink",
        home,
        project,
        _key_dir(home, project) / "memory",
        findings=("settings-problem",),
        mentions=("/nonexistent/.claude-profiles/test/settings.json",),
    )


def stow_symlinked_settings(root: Path) -> HomeShape:
    """GNU stow: ~/.claude/settings.json is a relative symlink into ~/dotfiles/claude/.claude/,
    which holds the real file with an additionalDirectories list and an autoMemoryDirectory."""
    home = _home(root, "luca")
    real = _json(
        home / "dotfiles" / "claude" / ".claude" / "settings.json",
        {
            "additionalDirectories": ["~/notes"],
            "autoMemoryDirectory": "~/notes/claude-memory",
            "permissions": {"deny": ["Read(~/.ssh/**)"]},
        },
    )
    _link(home / ".claude" / "settings.json", os.path.relpath(real, home / ".claude"))
    mem = home / "notes" / "claude-memory"
    _memories(mem, "user_editor", "feedback_small_commits")
    project = _project(home, "src/tool")
    return HomeShape(
        "stow_symlinked_settings",
        home,
        project,
        mem,
        memory_dirs=1,  # outside projects/, named by the user settings: list finds it too
        memories=2,
    )


def stow_settings_session_at_home(root: Path) -> HomeShape:
    """The stow home above with Claude Code started in the home folder itself: then
    ~/.claude/settings.json is also <project>/.claude/settings.json, and must still be trusted
    as the user's own file (not doubted as a repository's)."""
    shape = stow_symlinked_settings(root)
    shape.name, shape.cwd = "stow_settings_session_at_home", shape.home
    shape.not_findings = ("dir-setting-ignored", "env-setting-ignored")
    return shape


def gateway_env_session_at_home(root: Path) -> HomeShape:
    """The gateway home above, started in the home folder: its env block is the user's."""
    shape = proxy_env_with_key(root)
    shape.name, shape.cwd = "gateway_env_session_at_home", shape.home
    shape.memory_dir = _key_dir(shape.home, shape.home) / "memory"
    shape.not_findings = ("env-setting-ignored", "dir-setting-ignored", "settings-problem")
    return shape


def chezmoi_source_tree(root: Path) -> HomeShape:
    """A chezmoi source tree given as the home: private_dot_claude/ holds a settings.json and
    a CLAUDE.md template; there is no .claude folder, nothing Claude Code would read."""
    home = root / "chezmoi-src"
    _json(home / "private_dot_claude" / "settings.json", {"statusLine": {"type": "command"}})
    _write(home / "private_dot_claude" / "CLAUDE.md.tmpl", "# {{ .name }}\n")
    (home / ".claude").mkdir()  # the home Claude Code would create on first start
    project = _project(root, "proj")
    return HomeShape("chezmoi_source_tree", home, project, _key_dir(home, project) / "memory")


def jsonc_comments(root: Path) -> HomeShape:
    """A hand-kept settings.json with // comments (a documented habit in dotfiles): Claude
    Code rejects the whole file, so its autoMemoryEnabled false does not apply."""
    home = _home(root, "cm")
    _write(
        home / ".claude" / "settings.json",
        '{\n  // memory off while I try another tool\n  "autoMemoryEnabled": false,\n'
        '  "model": "opus"\n}\n',
    )
    project = _project(home, "proj")
    return HomeShape(
        "jsonc_comments",
        home,
        project,
        _key_dir(home, project) / "memory",
        findings=("settings-problem",),
        mentions=("comment",),
    )


def trailing_comma(root: Path) -> HomeShape:
    """An IDE plugin rewrote settings.json with a trailing comma after the last entry."""
    home = _home(root, "tc")
    _write(
        home / ".claude" / "settings.json",
        '{\n  "model": "opus",\n  "autoMemoryDirectory": "~/mem",\n}\n',
    )
    project = _project(home, "proj")
    return HomeShape(
        "trailing_comma",
        home,
        project,
        _key_dir(home, project) / "memory",
        findings=("settings-problem",),
        mentions=("trailing comma",),
    )


def bom_settings(root: Path) -> HomeShape:
    """A settings.json saved by a Windows editor with a byte-order mark, naming a memory dir."""
    home = _home(root, "bom")
    body = json.dumps({"autoMemoryDirectory": "~/shared-memory"}, indent=2)
    _write(home / ".claude" / "settings.json", b"\xef\xbb\xbf" + body.encode())
    mem = home / "shared-memory"
    _memories(mem, "project_plan")
    project = _project(home, "proj")
    return HomeShape(
        "bom_settings",
        home,
        project,
        mem,
        memory_dirs=1,
        memories=1,
        not_findings=("settings-problem",),
    )


def dotted_user_android(root: Path) -> HomeShape:
    """A macOS user whose name holds dots (the key turns them into dashes), a memory dir for
    an Android project, an agent-memory folder at home level and a tasks folder."""
    home = _home(root, "07404.chen.chiu")
    claude = home / ".claude"
    _json(claude / "settings.json", {"effortLevel": "high", "model": "opus"})
    _json(claude / "settings.local.json", {"permissions": {"allow": ["Bash(./gradlew:*)"]}})
    app = _project(home, "Documents/AndroidStudioProject/android-shop", repo=True)
    key = _key_dir(home, app)
    _memories(key / "memory", "project_livedata_migration")
    _transcript(key, str(app))
    _transcript(_key_dir(home, home), str(home))
    add_memory(claude / "agent-memory" / "android-reviewer", "feedback_compose.md")
    _json(claude / "tasks" / "t1.json", {"id": 1})
    return HomeShape(
        "dotted_user_android",
        home,
        app,
        key / "memory",
        memory_dirs=2,
        memories=2,
        sessions=2,
        extra={"key": key.name},
    )


def credentials_and_env_flag(root: Path) -> HomeShape:
    """A home with a .credentials.json (never read), an env block that turns on agent teams,
    hooks, a project template's settings with a "_comment" key, model config files."""
    home = _home(root, "zo")
    claude = home / ".claude"
    _json(claude / ".credentials.json", {"claudeAiOauth": {"accessToken": "fake"}})
    _json(
        claude / "settings.json",
        {
            "env": {"CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS": "1"},
            "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "true"}]}]},
        },
    )
    _json(claude / "model-config.json", {"default": "opus"})
    _json(claude / "project-template" / ".claude" / "settings.json", {"_comment": "copy me"})
    app = _project(home, "Projects/Sentinel", repo=True)
    key = _key_dir(home, app)
    _memories(key / "memory", "feedback_tdd_agents")
    _transcript(key, str(app))
    return HomeShape(
        "credentials_and_env_flag",
        home,
        app,
        key / "memory",
        memory_dirs=1,
        memories=1,
        sessions=1,
    )


def root_account(root: Path) -> HomeShape:
    """A container's root account: the key is `-root`, settings with unknown keys, todos,
    an ide folder and a debug/latest link."""
    home = _home(root, "root")
    claude = home / ".claude"
    _json(claude / "settings.json", {"autoApprove": True, "permissionMode": "bypass"})
    _json(claude / "todos" / "x.json", [])
    _json(claude / "ide" / "1.lock", {})
    _link(claude / "debug" / "latest", "/root/.claude/debug/missing.txt")
    key = _key_dir(home, home)
    _transcript(key, str(home))
    return HomeShape("root_account", home, home, key / "memory", sessions=1)


def symlinked_top_folders(root: Path) -> HomeShape:
    """agents/, commands/, rules/ and skills/ are absolute symlinks into a repository kept
    in ~/.claude/repos; settings.json has several dated .bak copies; huge todo and debug
    folders; a projects folder holding only memory."""
    home = _home(root, "ai")
    claude = home / ".claude"
    kit = claude / "repos" / "kit"
    for sub in ("agents", "commands", "rules", "skills"):
        _write(kit / sub / "README.md", f"{sub}\n")
        _link(claude / sub, str(kit / sub))
    _json(claude / "settings.json", {"statusLine": {"type": "command", "command": "x"}})
    for stamp in ("20251223150930", "20260114-162049"):
        _json(
            claude / f"settings.json.bak-{stamp}", {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}}
        )
    for i in range(1500):
        _json(claude / "todos" / f"t{i}.json", [])
    app = _project(home, "work", repo=True)
    mem = _key_dir(home, app) / "memory"
    _memories(mem, "project_vibe")
    # a second memory dir reached through a symlinked key folder (a moved project)
    moved = claude / "projects" / "-old-location-work"
    _link(moved, str(_key_dir(home, app)))
    return HomeShape(
        "symlinked_top_folders",
        home,
        app,
        mem,
        memory_dirs=1,
        memories=1,
        notes="the symlinked key folder must not count the same dir twice",
    )


def windows_path_in_settings(root: Path) -> HomeShape:
    """A README told users to put a Windows path (backslashes, drive letter) in
    autoMemoryDirectory; on this machine it is not absolute, so Claude Code skips it."""
    home = _home(root, "win")
    _json(
        home / ".claude" / "settings.json",
        {"model": "sonnet", "autoMemoryDirectory": "c:\\Project\\life\\.claude\\memory"},
    )
    project = _project(home, "life", repo=True)
    return HomeShape(
        "windows_path_in_settings",
        home,
        project,
        _key_dir(home, project) / "memory",
        findings=("dir-setting-rejected",),
        mentions=(r"c:\\Project\\life",),
    )


def memory_pinned_to_one_key(root: Path) -> HomeShape:
    """A user pinned every session to one backup project's memory dir under projects/ (a
    Windows-style key, C--Users-...), so all projects share it."""
    home = _home(root, "bn")
    key = "C--Users-bn-Documents-Claude-Code-Memory-Backup"
    mem = home / ".claude" / "projects" / key / "memory"
    _memories(mem, "project_portal", "reference_library", "feedback_blind_session")
    _json(
        home / ".claude" / "settings.json",
        {"autoMemoryDirectory": f"~/.claude/projects/{key}/memory"},
    )
    project = _project(home, "Projects/file-portal", repo=True)
    _transcript(_key_dir(home, project), str(project))
    return HomeShape(
        "memory_pinned_to_one_key",
        home,
        project,
        mem,
        memory_dirs=1,
        memories=3,
        sessions=1,
    )


def project_keeps_a_home_layout(root: Path) -> HomeShape:
    """A repository committing, beside its `.claude/memory/`, a Claude home's memory dir from a
    Windows machine, `.claude/projects/C--Users-…-<project>/memory/` (real35: a published
    repository does): Claude Code reads projects/ only in its home, so neither loads; the
    session here runs with the home's own default dir, not written yet."""
    home = _home(root, "ana")
    project = _project(home, "studio/glaze-calc", repo=True)
    _memories(project / ".claude" / "memory", "feedback_metric_units")
    key = "C--Users-ana-Documents-Uni-glaze-calc"
    _memories(project / ".claude" / "projects" / key / "memory", "feedback_no_cone_ten")
    return HomeShape(
        "project_keeps_a_home_layout",
        home,
        project,
        _key_dir(home, project) / "memory",
        findings=("repo-memory-unloaded", "home-layout-in-project"),
        mentions=(key, "memdir-nb list --home"),
    )


def memory_switched_off(root: Path) -> HomeShape:
    """autoMemoryEnabled false in user settings (a memory plugin's README asks for it)
    while an old memory dir is still there."""
    home = _home(root, "rk")
    _json(home / ".claude" / "settings.json", {"autoMemoryEnabled": False})
    project = _project(home, "proj", repo=True)
    mem = _key_dir(home, project) / "memory"
    _memories(mem, "feedback_old")
    return HomeShape(
        "memory_switched_off",
        home,
        project,
        mem,
        enabled=False,
        memory_dirs=1,
        memories=1,
        findings=("auto-memory-disabled",),
        mentions=("autoMemoryEnabled",),
    )


def env_forces_memory_on(root: Path) -> HomeShape:
    """A container's settings: an env block with CLAUDE_CODE_DISABLE_AUTO_MEMORY "0" (forces
    memory on) beside autoMemoryEnabled false."""
    home = _home(root, "ct")
    _json(
        home / ".claude" / "settings.json",
        {
            "autoMemoryEnabled": False,
            "env": {
                "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0",
                "CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS": "1",
            },
        },
    )
    project = _project(home, "group", repo=True)
    return HomeShape("env_forces_memory_on", home, project, _key_dir(home, project) / "memory")


def unicode_and_long_keys(root: Path) -> HomeShape:
    """Project folders named in Korean and with a path long enough that the key is cut and
    hashed; both hold memory."""
    home = _home(root, "kim")
    korean = _project(home, "문서/프로젝트")
    long_path = _project(home, "/".join(["a-very-long-folder-name-for-testing"] * 8))
    for p in (korean, long_path):
        _memories(_key_dir(home, p) / "memory", "project_notes")
        _transcript(_key_dir(home, p), str(p))
    return HomeShape(
        "unicode_and_long_keys",
        home,
        long_path,
        _key_dir(home, long_path) / "memory",
        memory_dirs=2,
        memories=2,
        sessions=2,
    )


SHAPES: tuple[Callable[[Path], HomeShape], ...] = (
    desktop_linux_backup,
    memory_for_the_home_itself,
    server_with_claude_json,
    proxy_env_with_key,
    worktree_keys_and_backups,
    plugins_only_no_projects,
    legacy_statsig_todos,
    hooks_and_policy_limits,
    schema_key_and_local,
    dangling_settings_symlink,
    stow_symlinked_settings,
    stow_settings_session_at_home,
    gateway_env_session_at_home,
    chezmoi_source_tree,
    jsonc_comments,
    trailing_comma,
    bom_settings,
    dotted_user_android,
    credentials_and_env_flag,
    root_account,
    symlinked_top_folders,
    windows_path_in_settings,
    memory_pinned_to_one_key,
    project_keeps_a_home_layout,
    memory_switched_off,
    env_forces_memory_on,
    unicode_and_long_keys,
)
