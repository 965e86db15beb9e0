"""Hostile names, escape sequences, relative dirs and FIFOs, each tried through every door.

Issue 18's classes, by route: the CLI (a real subprocess, as a user runs it), the Python API,
the widgets' view-models and the extraction tools. The attack data is written here, in these
tests' own words. docs/security.md holds the class x route table these tests fill in.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.extract.runner import ToolRunner
from memdir_nb.extract.sandbox import can_use_tool
from memdir_nb.formats.index import parse_index
from memdir_nb.formats.names import name_problem
from memdir_nb.lint import lint_memory_dir
from memdir_nb.recall import render_recall
from memdir_nb.recall.lexical import LexicalSelector
from memdir_nb.recall.selectors import make_selector
from memdir_nb.recall.session import RecallSession
from memdir_nb.reports.analysis import summarize
from memdir_nb.reports.claude_md import claude_md_reference
from memdir_nb.reports.fleet import export_parquet
from memdir_nb.security.printed_output import TerminalSafeStream
from memdir_nb.storage.containment import PathTraversalError
from memdir_nb.storage.daily_log import DailyLogError, append_daily_log, daily_log_file
from memdir_nb.storage.index_files import read_entrypoint
from memdir_nb.storage.rebuild import rebuild_index
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.store_checks import MemoryValidationError
from memdir_nb.toolloop.memory_commands import MemoryDirBackend
from memdir_nb.toolloop.memory_text import MemoryCommandError
from memdir_nb.ui.demo import build_demo_memory_dir
from memdir_nb.ui.views import browser as browser_view
from memdir_nb.ui.views import recall as recall_view
from memdir_nb.ui.views.team import promotion_verdict
from tests.support import link_chain
from tests.support.child_env import child_env
from tests.support.fake_home import add_memory

NOW_MS = 1_790_000_000_000.0

# Bytes that must never reach a terminal raw: ESC (ANSI, OSC), BEL, C1 controls in UTF-8
# (U+0080..U+009F), DEL, and the bidi overrides/isolates.
BIDI = tuple(ch.encode() for ch in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
RAW_CONTROLS = (
    b"\x1b",
    b"\x07",
    b"\x7f",
    *(bytes([0xC2, b]) for b in range(0x80, 0xA0)),
    *BIDI,
)

# Names a hostile folder may hold; the gate refuses each, with a reason.
HOSTILE_NAMES = {
    "esc": "esc_\x1b[31mred.md",
    "osc": "osc_\x1b]0;pwned\x07.md",
    "c1": "c1_\x9b2J.md",
    "del": "del_\x7f.md",
    "bidi": "bidi_\u202egnp.exe.md",
    "lower-index": "memory.md",
    "upper-suffix": "Notes.MD",
}
NOT_UTF8 = b"bad_\xff\xfe.md"

EVIL_HEADER = (
    "---\nname: evil \x1b]0;pwned\x07 name\n"
    "description: desc \x1b[31mred\x1b[0m \u202egnp.exe \x9b2J bell\x07\n"
    "type: project\n---\n\nbody \x1b[2J text \u202e\n"
)


def raw_controls(data: bytes) -> list[bytes]:
    """Which raw control sequences a command's output holds."""
    return [c for c in RAW_CONTROLS if c in data]


def run_cli(
    *args: str, cwd: Path | None = None, home: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    env = child_env(HOME=str(home or cwd or Path.cwd()))
    return subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args],
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=180,
    )


def plant_hostile_files(d: Path) -> Path:
    """Every hostile name, a file that is not UTF-8 by name, and a memory full of escapes."""
    for name in HOSTILE_NAMES.values():
        (d / name).write_text(EVIL_HEADER, encoding="utf-8")
    fd = os.open(os.fsencode(d) + b"/" + NOT_UTF8, os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, EVIL_HEADER.encode())
    os.close(fd)
    (d / "project_evil.md").write_text(EVIL_HEADER, encoding="utf-8")
    with open(d / "MEMORY.md", "a", encoding="utf-8") as fh:
        fh.write(
            "- [Evil \x1bP\x9b\x07 link](project_evil.md) \u2014 hook \x1b]8;;http://x\x07 \u202e\n"
        )
        fh.write("- [Upper](Notes.MD) \u2014 not a memory name\n")
    return d


@pytest.fixture(scope="module")
def hostile_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = build_demo_memory_dir(tmp_path_factory.mktemp("hostile") / "memory", now_ms=NOW_MS)
    return plant_hostile_files(d)


HOSTILE_REL = [*HOSTILE_NAMES.values(), os.fsdecode(NOT_UTF8)]


# ------------------------------------------------------------------------ class: hostile name


@pytest.mark.parametrize("name", HOSTILE_REL, ids=[*HOSTILE_NAMES, "not-utf8"])
def test_the_name_gate_refuses_each_hostile_name_with_a_reason(name: str) -> None:
    assert name_problem(name)


def test_scan_api_skips_each_hostile_name_and_says_why(hostile_dir: Path) -> None:
    report = scan_memory_dir(hostile_dir, limit=None)
    listed = {h.filename for h in report.headers}
    skipped = {s.path: s.reason for s in report.skipped}
    for name in HOSTILE_REL:
        assert name not in listed
        assert skipped[name].startswith("not a memory file name: it ")
    assert "project_evil.md" in listed  # a good name with hostile content is still a memory


def test_cli_scan_lists_the_skipped_names_escaped(hostile_dir: Path) -> None:
    out = run_cli("scan", str(hostile_dir))
    assert out.returncode == 0 and b"Traceback" not in out.stderr
    assert raw_controls(out.stdout + out.stderr) == []
    text = out.stdout.decode()
    assert "skipped esc_\\x1b[31mred.md: not a memory file name" in text
    assert "skipped bidi_\\u202egnp.exe.md" in text
    assert "skipped bad_\\udcff\\udcfe.md: not a memory file name: it is not valid UTF-8" in text
    assert "skipped memory.md: not a memory file name: it is the index" in text


def test_lint_api_reports_each_hostile_name_and_lints_the_rest(hostile_dir: Path) -> None:
    findings = lint_memory_dir(hostile_dir, now_ms=NOW_MS)
    flagged = {f.path for f in findings if f.rule == "skipped-by-scan"}
    assert set(HOSTILE_REL) <= flagged
    assert "project_evil.md" not in flagged  # a good name with hostile content is linted
    hints = {f.hint for f in findings if f.path in HOSTILE_REL}
    assert hints == {
        "rename it to a plain name such as feedback_testing.md, or move it out of the memory dir"
    }


def test_store_refuses_each_hostile_name_and_writes_nothing(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    for name in HOSTILE_REL:
        with pytest.raises(MemoryValidationError, match="filename|index file"):
            store.save("A name", "A description", "project", "Body.", filename=name)
    assert not [p for p in tmp_path.rglob("*") if p.name != ".memdir.lock"]


def test_index_targets_follow_the_gate(hostile_dir: Path) -> None:
    text = (hostile_dir / "MEMORY.md").read_text(encoding="utf-8")
    targets = {e.target for e in parse_index(text)}
    assert "project_evil.md" in targets
    assert "Notes.MD" not in targets and "memory.md" not in targets
    assert not any(name_problem(t.rsplit("/", 1)[-1]) for t in targets)


def test_rebuild_index_api_and_cli_leave_hostile_names_out(
    hostile_dir: Path, tmp_path: Path
) -> None:
    old = (hostile_dir / "MEMORY.md").read_text(encoding="utf-8")
    text = rebuild_index(hostile_dir, write=False)
    assert "project_evil.md" in text and text.startswith(old)  # lines people wrote are kept
    added = text[len(old) :]
    assert not any(name in added for name in HOSTILE_REL)  # and no hostile name is added
    out = run_cli("rebuild-index", str(hostile_dir), "--dry-run")
    assert out.returncode == 0 and b"Traceback" not in out.stderr
    assert raw_controls(out.stdout + out.stderr) == []


def test_recall_api_and_cli_never_fail_on_hostile_names(hostile_dir: Path) -> None:
    shown = render_recall("evil name", hostile_dir, selector=make_selector("lexical"))
    assert "project_evil.md" in shown
    out = run_cli(
        "recall", "evil name", "--dir", str(hostile_dir), "--selector", "lexical", "--explain"
    )
    assert out.returncode == 0 and b"Traceback" not in out.stderr
    assert raw_controls(out.stdout + out.stderr) == []


def test_browser_view_model_skips_the_bad_files_and_lists_them_safely(hostile_dir: Path) -> None:
    rows = browser_view.memory_rows(hostile_dir, now_ms=NOW_MS)
    assert "project_evil.md" in {r.filename for r in rows}
    assert not set(HOSTILE_REL) & {r.filename for r in rows}
    skipped = browser_view.skipped_files(hostile_dir)
    assert "bad_\\udcff\\udcfe.md" in skipped and "esc_\\x1b[31mred.md" in skipped
    for path, why in skipped.items():
        path.encode("utf-8")  # no lone surrogate: the widget can send it to the browser
        assert not raw_controls(path.encode() + why.encode())


def test_recall_view_model_offers_only_gated_names(hostile_dir: Path) -> None:
    preview = recall_view.recall_preview(
        "evil name", hostile_dir, RecallSession(), LexicalSelector(), now_ms=NOW_MS
    )
    assert "project_evil.md" in preview.manifest
    assert not any(name in preview.manifest for name in HOSTILE_REL)
    assert "project_evil.md" in {os.path.basename(m.path) for m in preview.selected}


def test_browser_widget_shows_the_skipped_files(hostile_dir: Path) -> None:
    pytest.importorskip("ipywidgets")
    from memdir_nb.ui.widgets.browser import MemoryBrowser

    widget = MemoryBrowser(hostile_dir)
    assert "bad_\\udcff\\udcfe.md" in widget.skipped_box.value
    assert "project_evil.md" in {r.filename for r in widget.rows}


def test_analysis_summary_counts_the_good_files(hostile_dir: Path) -> None:
    pytest.importorskip("pandas")
    summary = summarize(hostile_dir, now_ms=NOW_MS)
    assert summary.total == 41  # the demo's 40 and project_evil.md
    assert set(HOSTILE_REL) <= {path for path, _ in summary.skipped}


def test_export_skips_a_dir_whose_name_is_not_utf8(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    projects = tmp_path / ".claude" / "projects"
    for key in (b"-tmp-bad\xff", b"-tmp-esc\x1b]0;x\x07", b"-tmp-ok"):
        mdir = Path(os.fsdecode(os.fsencode(projects) + b"/" + key + b"/memory"))
        add_memory(mdir, "feedback_x.md")
    result = export_parquet([tmp_path / ".claude"], tmp_path / "out", now_ms=NOW_MS)
    assert result.dirs == 2 and result.memories == 2
    assert len(result.skipped) == 1 and "not valid UTF-8" in result.skipped[0]
    out = run_cli(
        "export", "--parquet", str(tmp_path / "out2"), "--home", str(tmp_path), home=tmp_path
    )
    assert out.returncode == 0 and b"Traceback" not in out.stderr
    assert b"skipped" in out.stdout and raw_controls(out.stdout + out.stderr) == []


def test_extraction_sandbox_and_runner_refuse_hostile_names(tmp_path: Path) -> None:
    runner = ToolRunner(tmp_path)
    for name in HOSTILE_REL:
        call = {"file_path": str(tmp_path / name), "content": "x"}
        assert not can_use_tool("Write", call, tmp_path).allowed
        outcome = runner.run("Write", call)
        assert outcome.is_error
    assert runner.written == []
    assert can_use_tool(
        "Write", {"file_path": str(tmp_path / "MEMORY.md"), "content": "x"}, tmp_path
    )


def test_memory_tool_refuses_hostile_names(tmp_path: Path) -> None:
    backend = MemoryDirBackend(tmp_path)
    for name in HOSTILE_REL:
        with pytest.raises(MemoryCommandError):
            backend.create(f"/memories/{name}", "x")
    assert not [p for p in tmp_path.rglob("*") if not p.name.startswith(".")]


def test_extraction_glob_shows_hostile_names_escaped(hostile_dir: Path) -> None:
    outcome = ToolRunner(hostile_dir).run("Glob", {"pattern": "*.md", "path": str(hostile_dir)})
    assert not outcome.is_error
    assert "\x1b" not in outcome.content and "\u202e" not in outcome.content
    assert "esc_\\x1b[31mred.md" in outcome.content
    grep = ToolRunner(hostile_dir).run("Grep", {"pattern": "evil", "path": str(hostile_dir)})
    assert not grep.is_error and "\x1b[31mred.md" not in grep.content
    assert "bidi_\\u202egnp.exe.md:2:" in grep.content


# --------------------------------------------------------------------- class: escape sequences

HOME_COMMANDS = ("where", "doctor", "list")


@pytest.fixture(scope="module")
def hostile_home(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A home whose project keys, memories and transcripts hold escapes."""
    root = tmp_path_factory.mktemp("home")
    home, project = root / "home", root / "project"
    project.mkdir()
    projects = home / ".claude" / "projects"
    for key in ("-tmp-esc\x1b]0;title\x07", "-tmp-bidi\u202e", "-tmp-c1\x9b"):
        add_memory(projects / key / "memory", "feedback_x.md", name="evil \x1b[31m name \u202e")
        (projects / key / "s1.jsonl").write_text(
            json.dumps({"type": "user", "cwd": "/tmp/\x1b]0;x\x07\u202e"}) + "\n", encoding="utf-8"
        )
    return home, project


@pytest.mark.parametrize("command", HOME_COMMANDS)
def test_home_commands_print_no_raw_controls(command: str, hostile_home: tuple[Path, Path]) -> None:
    home, project = hostile_home
    args = ["--home", str(home)] + (["--cwd", str(project)] if command != "list" else [])
    for extra in ([], ["--json"]):
        out = run_cli(command, *args, *extra, home=home)
        assert b"Traceback" not in out.stderr and out.returncode in (0, 1)
        assert raw_controls(out.stdout + out.stderr) == []


@pytest.mark.parametrize("command", ("where", "doctor"))
def test_a_carriage_return_from_a_repository_never_reaches_stderr_raw(
    command: str, tmp_path: Path
) -> None:
    # attack round 11: stderr kept every '\r' (for progress bars), so a downloaded folder's
    # `.git` pointer, quoted by the "not following a git pointer" warning, could return to the
    # line's start and print its own words over the warning
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".claude").mkdir(parents=True)
    project.mkdir()
    (project / ".git").write_text(
        "gitdir: /nowhere/x\rmemory dir checked: nothing to report" + " " * 60 + "\n"
    )
    out = run_cli(command, "--cwd", str(project), "--home", str(home), home=home)
    assert b"Traceback" not in out.stderr and out.returncode in (0, 1)
    assert out.stderr.count(b"not following a git pointer") == 1  # once, though looked up twice
    assert b"\r" not in out.stdout + out.stderr
    assert b"/nowhere/x\\x0dmemory dir checked" in out.stderr  # shown, as a visible escape


def test_a_progress_bar_on_stderr_still_redraws_its_line() -> None:
    written = io.StringIO()
    stream = TerminalSafeStream(written, keep_carriage_returns=True)
    stream.write("\rencoding memories:  50%")  # how tqdm redraws: '\r' and the line, one call
    stream.write("\rencoding memories: 100%\x1b[A")
    assert written.getvalue() == "\rencoding memories:  50%\rencoding memories: 100%\\x1b[A"


@pytest.mark.parametrize(
    "args",
    [("scan",), ("scan", "--json"), ("lint",), ("index", "--show"), ("rebuild-index", "--dry-run")],
    ids=lambda a: " ".join(a),
)
def test_dir_commands_print_no_raw_controls(args: tuple[str, ...], hostile_dir: Path) -> None:
    out = run_cli(args[0], str(hostile_dir), *args[1:])
    assert b"Traceback" not in out.stderr and out.returncode in (0, 1)
    assert raw_controls(out.stdout + out.stderr) == []
    if args == ("index", "--show"):
        assert b"hook \\x1b]8;;http://x\\x07 \\u202e" in out.stdout  # shown as visible escapes


# ------------------------------------------------------------------------ class: relative dir


def test_cli_relative_dir_means_the_working_directory(tmp_path: Path) -> None:
    assert run_cli("demo", "demo1", cwd=tmp_path).returncode == 0
    rel = run_cli("index", "demo1", cwd=tmp_path)
    assert rel.returncode == 0 and b"no MEMORY.md yet" not in rel.stdout
    assert b"fits both caps" in rel.stdout
    for args in (("scan", "demo1"), ("lint", "demo1"), ("rebuild-index", "demo1", "--dry-run")):
        a = run_cli(*args, cwd=tmp_path)
        b = run_cli(args[0], str(tmp_path / "demo1"), *args[2:], cwd=tmp_path)
        assert a.returncode == b.returncode and a.stdout == b.stdout


def test_api_relative_dir_means_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m6").mkdir()
    log = append_daily_log("m6", "a note", now_ms=NOW_MS)
    assert log.is_absolute() and log.is_file()
    assert log.parent.parent.parent.parent == tmp_path / "m6"
    assert not (tmp_path / "m6" / "m6").exists()
    store = MemoryStore("m6")
    path = store.save("Deploy rule", "How we deploy", "project", "Body.", filename="project_d.md")
    assert path == tmp_path / "m6" / "project_d.md"
    assert "project_d.md" in read_entrypoint("m6")
    assert [h.filename for h in scan_memory_dir("m6").headers] == ["project_d.md"]
    assert not any(f.rule == "index-missing" for f in lint_memory_dir("m6"))
    assert [r.filename for r in browser_view.memory_rows("m6")] == ["project_d.md"]
    assert promotion_verdict("m6", "project_d.md").allowed
    runner = ToolRunner("m6")
    done = runner.run("Write", {"file_path": str(tmp_path / "m6" / "project_e.md"), "content": "x"})
    assert not done.is_error and (tmp_path / "m6" / "project_e.md").is_file()
    assert not (tmp_path / "m6" / "m6").exists()


# -------------------------------------------------------------------------------- class: FIFO


def test_fifo_at_todays_log_is_refused_not_waited_on(tmp_path: Path) -> None:
    """Run in a child process: a regression would block on open(), and the timeout catches it."""
    script = (
        "import os, sys\n"
        "from memdir_nb.storage.daily_log import append_daily_log, daily_log_file, DailyLogError\n"
        f"d = {str(tmp_path)!r}\n"
        f"p = daily_log_file(d, now_ms={NOW_MS})\n"
        "p.parent.mkdir(parents=True)\n"
        "os.mkfifo(p)\n"
        "try:\n"
        f"    append_daily_log(d, 'note', now_ms={NOW_MS})\n"
        "except DailyLogError as exc:\n"
        "    print('refused:', exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "refused:" in out.stdout and "a FIFO, not a regular file" in out.stdout


def test_fifo_at_todays_log_through_the_api(tmp_path: Path) -> None:
    path = daily_log_file(tmp_path, now_ms=NOW_MS)
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    with pytest.raises(DailyLogError, match="move it aside"):
        append_daily_log(tmp_path, "note", now_ms=NOW_MS)


def test_fifo_named_like_a_memory_is_skipped_by_every_view(tmp_path: Path) -> None:
    d = build_demo_memory_dir(tmp_path / "memory", now_ms=NOW_MS)
    os.mkfifo(d / "project_pipe.md")
    assert any(s.path == "project_pipe.md" for s in scan_memory_dir(d).skipped)
    assert "project_pipe.md" in browser_view.skipped_files(d)
    assert "project_pipe.md" not in rebuild_index(d, write=False)
    out = run_cli("lint", str(d))
    assert b"project_pipe.md" in out.stdout and b"Traceback" not in out.stderr


# ------------------------------------------------- class: a symlink at the daily log's own path


@pytest.mark.parametrize("into", ["team/feedback_x.md", "user_x.md", "logs/other.md"])
def test_a_daily_log_that_is_a_symlink_is_refused_never_appended_through(
    tmp_path: Path, into: str
) -> None:
    """A link at today's log to a memory (team/ included) must not take the append there."""
    (tmp_path / "team").mkdir()
    (tmp_path / "logs").mkdir()
    victim = tmp_path / into
    victim.write_text("a memory someone wrote\n", encoding="utf-8")
    path = daily_log_file(tmp_path, now_ms=NOW_MS)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(victim)
    with pytest.raises(DailyLogError, match="not a regular file; move it aside"):
        append_daily_log(tmp_path, "note with password=hunter2hunter2", now_ms=NOW_MS)
    assert victim.read_text(encoding="utf-8") == "a memory someone wrote\n"
    assert path.is_symlink()
    assert not (tmp_path / "team" / ".daily-log.lock").exists()


# ------------------------------------------ class: a chain of more links than the kernel follows


def test_a_memory_behind_a_long_link_chain_is_refused_on_every_route(tmp_path: Path) -> None:
    """Python 3.11's realpath recursed once a link: each route below raised RecursionError."""
    d = build_demo_memory_dir(tmp_path / "memory", now_ms=NOW_MS)
    link_chain(d / ".links", 1100, "../MEMORY.md")  # a memory, the first of 1,100 links
    os.symlink(".links/c0", d / "user_chained.md")
    with (d / "MEMORY.md").open("a", encoding="utf-8") as index:
        index.write("- [Chained](user_chained.md) — a link of links\n")
    tool = MemoryDirBackend(d)
    assert "/memories/feedback_no_recap.md" in tool.view("/memories")
    steps: list[Callable[[], str]] = [
        lambda: tool.view("/memories/user_chained.md"),
        lambda: tool.delete("/memories/user_chained.md"),
        lambda: tool.str_replace("/memories/user_chained.md", "a", "b"),
    ]
    for step in steps:
        with pytest.raises(
            MemoryCommandError, match=r"Chain of more than 40 symlinks .*not a loop\)"
        ):
            step()
    with pytest.raises(PathTraversalError, match="more than 40 symlinks"):
        MemoryStore(d).forget("user_chained.md")
    found = lint_memory_dir(d)
    assert any(
        f.path == "user_chained.md" and "chain of more than 40 symlinks" in f.message for f in found
    )
    assert "user_chained.md" in rebuild_index(d, write=False)
    for args in (("lint", str(d)), ("rebuild-index", str(d))):
        out = run_cli(*args)
        assert b"RecursionError" not in out.stderr and b"Traceback" not in out.stderr


def test_doctor_reads_a_claude_md_import_through_a_long_link_chain(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".claude" / "memory").mkdir(parents=True)
    (project / ".claude" / "memory" / "MEMORY.md").write_text("- [A](a.md) — a\n", "utf-8")
    link_chain(project / "links", 1100, "../.claude/memory/MEMORY.md")
    (project / "CLAUDE.md").write_text("@links/c0\n", encoding="utf-8")
    folder = project / ".claude" / "memory"
    assert claude_md_reference(project, folder, "MEMORY.md") == ""
    out = run_cli("doctor", "--cwd", str(project), "--home", str(tmp_path), home=tmp_path)
    assert b"Traceback" not in out.stderr, out.stderr[-300:]
