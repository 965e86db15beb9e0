"""The memdir-nb command, run as a user runs it: a real subprocess on a real dir."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import memdir_nb
from memdir_nb.cli.main import main
from memdir_nb.formats.index import MAX_ENTRYPOINT_LINES
from memdir_nb.machine import usable_cpus
from memdir_nb.spec.constants import INDEX_READ_MAX_BYTES
from memdir_nb.storage import listing
from memdir_nb.ui.demo import build_demo_memory_dir
from memdir_nb.ui.demo.session import build_demo_session
from memdir_nb.ui.demo.session_records import RecordWriter
from tests.conftest import (
    CITED_KILN_LINE,
    LEDGER_PROMPT,
    PASTED_API_KEY,
    build_cited_forgotten_dir,
    build_forgotten_dir,
    build_ledger_session,
    build_metadata_session,
    build_notices_session,
    build_queued_sessions,
)
from tests.support.ascii_locale import ASCII_LOCALE, skip_unless_python_starts
from tests.support.child_env import child_env

NOW_MS = 1_790_000_000_000.0


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = child_env(HOME=str(cwd or Path.cwd()))
    return subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo_memory_dir(tmp_path_factory.mktemp("cli") / "memory", now_ms=NOW_MS)


def test_scan_prints_one_manifest_line_per_memory(demo_dir: Path) -> None:
    out = run_cli("scan", str(demo_dir))
    assert out.returncode == 0, out.stderr
    lines = [ln for ln in out.stdout.splitlines() if ln.startswith("- ")]
    assert len(lines) == 40
    assert all(" (" in ln and "): " in ln for ln in lines)
    assert "40 memories listed." in out.stdout


def test_scan_reports_the_malformed_header(demo_dir: Path) -> None:
    out = run_cli("scan", str(demo_dir))
    assert "team/reference_release_steps.md" in out.stdout.split("with a header problem")[1]


def test_scan_names_header_problems_truly_and_at_most_ten_of_them(tmp_path: Path) -> None:
    # a file that is not UTF-8, or not text, was summed up as "a malformed header (fields
    # recovered line by line)", though its header parsed or it had none; and 200 YAML slips
    # printed 200 names on one line (fresh37)
    mem = tmp_path / "memory"
    add_memory(mem, "user_cafe.md", description="cafe orders")
    (mem / "user_cafe.md").write_bytes(
        (mem / "user_cafe.md").read_bytes().replace(b"cafe", b"caf\xe9")
    )
    (mem / "blob.md").write_bytes(bytes(range(256)))
    for i in range(12):  # a description with an unquoted ': ' is a YAML slip
        (mem / f"project_slip_{i:02d}.md").write_text(
            f"---\nname: Slip {i}\ndescription: case {i}: rule\ntype: project\n---\n\nBody.\n"
        )
    out = run_cli("scan", str(mem))
    assert out.returncode == 0, out.stderr
    line = next(ln for ln in out.stdout.splitlines() if "header problem" in ln)
    assert line.startswith("14 with a header problem (`memdir-nb lint` on this dir says what ")
    assert "recovered line by line" not in out.stdout
    assert line.endswith(", … and 4 more")
    assert line.count(".md") == 10


def test_scan_json_lists_memories_and_skipped(demo_dir: Path) -> None:
    out = run_cli("scan", str(demo_dir), "--json")
    payload = json.loads(out.stdout)
    assert payload["total_found"] == 40
    assert {m["type"] for m in payload["memories"]} == {"user", "feedback", "project", "reference"}
    assert payload["skipped"] == []


def test_scan_says_what_the_cap_left_out(demo_dir: Path) -> None:
    out = run_cli("scan", str(demo_dir), "--limit", "5")
    assert "newest 5 of 40" in out.stdout


def test_index_reports_both_caps_on_the_oversized_team_index(demo_dir: Path) -> None:
    out = run_cli("index", str(demo_dir), "--json")
    reports = {r["scope"]: r for r in json.loads(out.stdout)}
    assert not reports["private"]["line_capped"] and not reports["private"]["byte_capped"]
    team = reports["team"]
    assert team["line_capped"] and team["byte_capped"]
    assert team["lines"] > MAX_ENTRYPOINT_LINES and team["bytes"] > 25_000
    assert team["warning"].startswith("> WARNING: MEMORY.md is ")
    assert team["content"].endswith(team["warning"])


def test_index_text_report_names_the_dropped_lines(demo_dir: Path) -> None:
    out = run_cli("index", str(demo_dir), "--scope", "team")
    assert "lines kept" in out.stdout and "dropped" in out.stdout
    assert "private:" not in out.stdout


def test_an_index_over_the_read_cap_is_named_once_and_reported_as_loaded_in_part(
    tmp_path: Path,
) -> None:
    memory_dir = tmp_path / "memory"
    memory_dir.mkdir()
    body = "".join(f"- [Note {i}](user_note_{i}.md) \u2014 a hook\n" for i in range(40_000))
    (memory_dir / "MEMORY.md").write_text(body, encoding="utf-8")
    size = (memory_dir / "MEMORY.md").stat().st_size
    assert size > INDEX_READ_MAX_BYTES
    out = run_cli("index", str(memory_dir))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[1] == (
        f"  MEMORY.md is {size} bytes; only the first {INDEX_READ_MAX_BYTES} bytes were read: "
        "the counts below are of that part"
    )
    assert "MEMORY.md MEMORY.md" not in out.stdout
    assert "nothing is loaded" not in out.stdout  # its first 200 lines are, as for any index
    assert f"truncated: {MAX_ENTRYPOINT_LINES} lines kept" in out.stdout


@pytest.mark.parametrize("command", ["scan", "index", "lint", "rebuild-index", "restore"])
def test_missing_dir_is_a_clear_usage_error_saying_it_does_not_exist_and_where_to_look(
    tmp_path: Path, command: str
) -> None:
    # fresh36: a mistyped path was "is not a directory", as if it were a file, and the fix
    # ("the folder holding MEMORY.md") did not say where that folder is or how to find it
    out = run_cli(command, str(tmp_path / "nope"))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    said = " ".join(out.stderr.split())
    assert f"'{tmp_path / 'nope'}' does not exist; pass the memory dir" in said
    assert "~/.claude/projects/<key>/memory/" in said and "`memdir-nb where`" in said
    (tmp_path / "afile").write_text("x\n")
    out = run_cli(command, str(tmp_path / "afile"))
    assert out.returncode == 2 and f"'{tmp_path / 'afile'}' is not a directory;" in out.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("scan", "{d}"),
        ("lint", "{d}"),
        ("recall", "{d}", "how do we deploy?"),
        ("scan", "--json", "{d}"),
    ],
    ids=["scan", "lint", "recall", "scan-json"],
)
def test_an_empty_memory_dir_is_named_as_empty_with_where_to_find_the_one_meant(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    # fresh36: scan said "0 memories listed", lint "0 errors, 0 warnings" and recall "No memory
    # in ... clearly helps", each as of a healthy dir, on a mistyped or guessed empty folder
    empty = tmp_path / "memroy"
    empty.mkdir()
    out = run_cli(*(a.format(d=empty) for a in args))
    assert out.returncode == 0, out.stderr
    assert f"{empty} is empty (no MEMORY.md, no memory file)" in out.stdout
    assert "`memdir-nb where`" in out.stdout
    assert "clearly helps" not in out.stdout
    assert list(empty.iterdir()) == []  # nothing written


def test_scan_opens_with_its_count_when_no_memory_is_listed_and_spaces_it_after_a_manifest(
    tmp_path: Path,
) -> None:
    # the blank line sets the count apart from the manifest above it; with no manifest it was
    # a stray first line of output
    empty = tmp_path / "memory"
    empty.mkdir()
    out = run_cli("scan", str(empty))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("0 memories listed.\n")
    (empty / "user_role.md").write_text("---\nname: role\ntype: user\n---\n\nPotter.\n")
    listed = run_cli("scan", str(empty)).stdout.splitlines()
    assert listed[0].startswith("- ") and listed[1:3] == ["", "1 memory listed."]


def test_a_home_folder_holding_a_claude_home_is_named_as_a_folder_of_memory_dirs(
    tmp_path: Path,
) -> None:
    # fresh36: `memdir-nb scan ~` said "0 memories listed" (a dot folder is never walked)
    memory = tmp_path / ".claude" / "projects" / "-home-ana-src-kiln" / "memory"
    memory.mkdir(parents=True)
    (memory / "user_role.md").write_text("---\nname: role\ntype: user\n---\n\nPotter.\n")
    out = run_cli("scan", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "0 memories listed" not in out.stdout
    assert f"note: {tmp_path} is a folder of memory dirs" in out.stdout
    assert f"such as {memory}" in out.stdout


def test_each_command_s_help_says_what_it_does(tmp_path: Path) -> None:
    # fresh36: `memdir-nb scan --help` showed only the usage and the arguments
    out = run_cli("scan", "--help")
    assert out.returncode == 0
    assert "list the memories a selector would see" in out.stdout


def test_demo_refuses_a_dir_that_is_not_a_demo(tmp_path: Path) -> None:
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.md").write_text("keep me\n")
    out = run_cli("demo", str(target), "--overwrite")
    assert out.returncode == 2
    assert out.stderr.startswith("error: ")
    assert (target / "notes.md").read_text() == "keep me\n"


def test_demo_builds_a_dir_the_scan_can_read(tmp_path: Path) -> None:
    out = run_cli("demo", str(tmp_path / "d"), "--now-ms", str(NOW_MS))
    assert out.returncode == 0, out.stderr
    assert "(40 memories)" in out.stdout


def test_demo_overwrite_names_where_it_kept_what_a_person_added(tmp_path: Path) -> None:
    target = tmp_path / "d"
    assert run_cli("demo", str(target), "--now-ms", str(NOW_MS)).returncode == 0
    (target / "user_mine.md").write_text("---\nname: mine\n---\nkeep me\n", encoding="utf-8")
    out = run_cli("demo", str(target), "--now-ms", str(NOW_MS), "--overwrite")
    assert out.returncode == 0, out.stderr
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("d.kept-")]
    assert (
        len(kept) == 1
        and (kept[0] / "user_mine.md").read_text() == "---\nname: mine\n---\nkeep me\n"
    )
    assert f"kept the earlier demo at {kept[0]}" in out.stdout
    assert "1 file in it (user_mine.md)" in out.stdout
    assert not (target / "user_mine.md").exists()


def test_recall_prints_memories_wrapped_as_injected(demo_dir: Path) -> None:
    out = run_cli(
        "recall", "how do we deploy to production", "--dir", str(demo_dir), "--selector", "lexical"
    )
    assert out.returncode == 0, out.stderr
    assert "<system-reminder>" in out.stdout
    assert "reference_deploy_runbook.md" in out.stdout


def test_recall_takes_the_dir_first_like_every_other_command(demo_dir: Path) -> None:
    first = run_cli(
        "recall", str(demo_dir), "how do we deploy to production", "--selector", "lexical"
    )
    flag = run_cli(
        "recall", "how do we deploy to production", "--dir", str(demo_dir), "--selector", "lexical"
    )
    assert first.returncode == 0, first.stderr
    assert first.stdout == flag.stdout and "reference_deploy_runbook.md" in first.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("how do we deploy",), 'no memory dir given; pass it first: memdir-nb recall DIR "QUERY"'),
        (("{dir}", "deploy", "--dir", "{dir}"), "the memory dir is given twice"),
        (("/no/such/dir", "deploy"), "'/no/such/dir' does not exist"),
    ],
)
def test_recall_without_one_memory_dir_says_how_to_give_it(
    demo_dir: Path, args: tuple[str, ...], says: str
) -> None:
    out = run_cli("recall", *(a.format(dir=demo_dir) for a in args), "--selector", "lexical")
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("words", "fix"),
    [
        (("restore", "{dir}", "-notes.md"), "memdir-nb restore ... -- '-notes.md'"),
        (("recall", "{dir}", "--selector=lexical"), "memdir-nb recall DIR -- 'QUERY'"),
    ],
)
def test_a_value_that_starts_with_a_dash_is_refused_naming_the_double_dash_fix(
    demo_dir: Path, words: tuple[str, ...], fix: str
) -> None:
    # attack40: a file name or a query that starts with '-' is read as an option: restore said
    # only "unrecognized arguments: -notes.md", and recall "no memory dir given" though DIR was
    # given; neither named `--`, after which a value is a value
    out = run_cli(*(w.format(dir=demo_dir) for w in words))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "a value that starts with '-' is read as an option" in out.stderr and fix in out.stderr
    options = ("--selector", "lexical") if words[0] == "recall" else ()  # options come first
    dashed = run_cli(words[0], *options, str(demo_dir), "--", words[2])
    assert "read as an option" not in dashed.stderr
    if words[0] == "recall":  # the query after `--` is recalled for
        assert dashed.returncode == 0, dashed.stderr


@pytest.mark.parametrize("now", ["1e300", "1e20", "1e16", "-1"])
def test_a_pinned_now_no_file_can_be_given_is_a_usage_error_naming_the_range(
    tmp_path: Path, now: str
) -> None:
    # attack round 11: `demo --now-ms 1e300` ended in a traceback, 1e16 in "year 318857 is out
    # of range", 1e20 in "choose a folder you can write to" (the folder was fine)
    out = run_cli("demo", str(tmp_path / "d"), f"--now-ms={now}")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "argument --now-ms" in out.stderr and "2262-04-11" in out.stderr
    assert not (tmp_path / "d").exists()


def test_recall_without_key_cannot_use_claude(demo_dir: Path) -> None:
    out = run_cli("recall", "anything", "--dir", str(demo_dir), "--selector", "anthropic")
    assert out.returncode == 2
    assert "ANTHROPIC_API_KEY" in out.stderr


# --------------------------------------------------------------------------- where, doctor, list, export (branch doctor)

from tests.support.fake_home import add_memory, make_world, write_json  # noqa: E402
from tests.support.transcripts import (  # noqa: E402
    fork_of,
    pane_teammate,
    rewritten_on_resume,
)


def run_env(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = child_env(**{"HOME": "/nonexistent-home", **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=120,
    )


def test_where_json_traces_a_dir_chosen_by_the_settings_flag(tmp_path: Path) -> None:
    w = make_world(tmp_path)
    flag = write_json(tmp_path / "extra.json", {"autoMemoryDirectory": "/srv/flag-mem"})
    out = run_env(
        "where", "--cwd", str(w.project), "--home", str(w.home), "--settings", str(flag), "--json"
    )
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    assert (payload["memory_dir"], payload["source"]) == ("/srv/flag-mem/", "settings:flag")


def test_where_text_names_the_env_block_that_disabled_memory(tmp_path: Path) -> None:
    w = make_world(tmp_path)
    w.settings("local", {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}})
    out = run_env("where", "--cwd", str(w.project), "--home", str(w.home))
    assert out.returncode == 0, out.stderr
    line = next(ln for ln in out.stdout.splitlines() if ln.strip().startswith("auto memory"))
    assert "off" in line and "level 1" in line and "settings.local.json" in line


def test_doctor_exits_1_when_action_is_needed_and_0_when_memory_loads(tmp_path: Path) -> None:
    w = make_world(tmp_path)
    mem = w.memory_dir_for(w.project)
    add_memory(mem, "feedback_db.md")
    ok = run_env("doctor", "--cwd", str(w.project), "--home", str(w.home))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "memory would load fully" in ok.stdout
    w.settings("user", {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}})
    bad = run_env("doctor", "--cwd", str(w.project), "--home", str(w.home), "--json")
    assert bad.returncode == 1
    (f,) = [f for f in json.loads(bad.stdout)["findings"] if f["code"] == "auto-memory-disabled"]
    assert "settings.json" in f["responsible"] and f["fix"]


@pytest.mark.parametrize("command", ["where", "doctor"])
def test_a_broken_settings_file_is_reported_once_by_where_and_doctor(
    tmp_path: Path, command: str
) -> None:
    w = make_world(tmp_path)
    (w.home / ".claude" / "settings.json").write_text('{"autoMemoryDirectory": ', "utf-8")
    out = run_env(command, "--cwd", str(w.project), "--home", str(w.home))
    both = out.stdout + out.stderr
    assert both.count("not valid JSON") == 1, both
    assert "not valid JSON" in out.stdout and out.stderr == ""


def test_other_commands_still_warn_of_a_broken_settings_file_on_stderr(tmp_path: Path) -> None:
    w = make_world(tmp_path)
    (w.home / ".claude" / "settings.json").write_text('{"autoMemoryDirectory": ', "utf-8")
    out = run_env("list", env={"HOME": str(w.home)})
    assert out.returncode == 0, out.stderr
    assert out.stderr.count("not valid JSON") == 1, out.stderr


def test_list_counts_dirs_with_plurals(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    add_memory(w.memory_dir_for(w.project), "feedback_db.md")
    out = run_env("list", "--home", str(w.home))
    assert out.returncode == 0, out.stderr
    assert "1 memory dir found." in out.stdout and "1 memory: feedback 1" in out.stdout
    data = json.loads(run_env("list", "--home", str(w.claude_home), "--json").stdout)
    assert data[0]["memories"] == 1 and data[0]["project_path"] == str(w.project)


def test_list_finding_no_memory_dir_names_the_claude_home_it_looked_in(tmp_path: Path) -> None:
    # fresh37: "0 memory dirs found." named no home, while `sessions` said "No session
    # transcripts under <home>."; a user with no ~/.claude (or the wrong HOME) could not tell
    w = make_world(tmp_path, repo=False)
    out = run_env("list", env={"HOME": str(w.home)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"0 memory dirs found under {w.claude_home}; ")
    assert "memdir-nb where" in out.stdout and "--home" in out.stdout


def test_a_home_named_twice_or_under_a_second_name_is_listed_once(tmp_path: Path) -> None:
    # A published fleet kept several config roots (~/.claude, ~/.claude-secondary, ...) and
    # measured two of them to be one tree; naming both read every dir and session twice.
    w = make_world(tmp_path, repo=False)
    add_memory(w.memory_dir_for(w.project), "feedback_db.md")
    mirror = tmp_path / "claude-mirror"
    mirror.symlink_to(w.claude_home)
    homes = ("--home", str(w.claude_home), "--home", str(mirror), "--home", str(w.home))
    out = run_env("list", *homes)
    assert out.returncode == 0, out.stderr
    assert "1 memory dir found." in out.stdout


def test_list_names_a_worktree_folder_whose_memory_links_to_a_listed_dir(tmp_path: Path) -> None:
    # a WorktreeCreate hook links projects/<worktree key>/memory to the main checkout's dir
    # (docs/claude_code_2026.md): list lists the dir once, and now says the link leads there
    # (it was silent, while `sessions --dir` counts the worktree's sessions as the dir's)
    w = make_world(tmp_path, repo=False)
    main = w.memory_dir_for(w.project)
    add_memory(main, "feedback_db.md")
    worktree = main.parent.parent / (main.parent.name + "-worktrees-fix")
    worktree.mkdir()
    (worktree / "memory").symlink_to(Path("..") / main.parent.name / "memory")
    (main.parent.parent / "elsewhere").mkdir()
    (main.parent.parent / "elsewhere" / "memory").symlink_to(tmp_path)  # leads to no listed dir
    out = run_env("list", "--home", str(w.home))
    assert out.returncode == 0, out.stderr
    assert "1 memory dir found." in out.stdout
    assert f"  also reached through the link {worktree / 'memory'}\n" in out.stdout
    assert out.stdout.count("also reached through") == 1
    data = json.loads(run_env("list", "--home", str(w.home), "--json").stdout)
    assert data[0]["linked_from"] == [str(worktree / "memory")]


def test_export_writes_two_parquet_files(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    w = make_world(tmp_path, repo=False)
    add_memory(w.memory_dir_for(w.project), "feedback_db.md")
    out = run_env("export", "--parquet", str(tmp_path / "pq"), "--home", str(w.home))
    assert out.returncode == 0, out.stderr
    assert "(1 memory)" in out.stdout and "(1 memory dir)" in out.stdout
    assert (tmp_path / "pq" / "memories.parquet").is_file()
    assert (tmp_path / "pq" / "dirs.parquet").is_file()


@pytest.mark.parametrize(
    "args",
    [
        ("export", "--parquet", "{mem}/team", "--home", "{home}"),
        ("export", "--archive", "{agent}/memory.zip", "--dir", "{mem}"),
        ("export", "--archive", "{mem}/memory.zip", "--dir", "{agent}"),
    ],
    ids=["parquet-into-team", "archive-into-agent-memory", "archive-into-project-memory"],
)
def test_export_into_a_memory_dir_is_refused_with_the_fix_and_writes_nothing(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    # bounds37: an export holds every memory's text; written into a memory dir it is published
    # by whatever publishes the dir (a team sync, a commit), and the store is its only writer
    pytest.importorskip("pyarrow")
    w = make_world(tmp_path, repo=False)
    mem = w.memory_dir_for(w.project)
    add_memory(mem, "feedback_db.md")
    add_memory(mem, "team/reference_board.md", type="reference")
    agent = w.claude_home / "agent-memory" / "reviewer"
    add_memory(agent, "feedback_style.md")
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    filled = [a.format(mem=mem, home=w.home, agent=agent) for a in args]
    out = run_env(*filled, env={"HOME": str(w.home)})
    assert out.returncode == 2, out.stdout
    assert out.stderr.startswith("error: ") and "is inside" in out.stderr
    assert "nothing was written" in out.stderr and "outside every memory dir" in out.stderr
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


def test_rebuild_index_writes_an_index_lint_accepts(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md", index=False)
    (mem / "MEMORY.md").write_text("- [Gone](feedback_gone.md) — deleted\n")
    out = run_env("rebuild-index", str(mem))
    assert out.returncode == 0, out.stderr
    assert "feedback_gone.md" in (mem / "MEMORY.md").read_text()  # kept: not asked to drop it
    assert "keeps 1 dangling line (--drop-dangling removes them)" in out.stdout
    again = run_env("rebuild-index", str(mem))
    assert "up to date (every memory has a line); keeps 1 dangling line (--drop" in again.stdout
    out = run_env("rebuild-index", "--drop-dangling", str(mem))
    assert out.returncode == 0, out.stderr
    assert "removed 1 dangling line" in out.stdout and ".trash" in out.stdout
    assert "feedback_db.md" in (mem / "MEMORY.md").read_text()
    lint = run_env("lint", str(mem), "--json")
    rules = {f["rule"] for f in json.loads(lint.stdout)}
    assert not rules & {"index-dangling-entry", "not-in-index", "index-missing"}


def test_rebuild_index_warns_when_the_entries_it_adds_would_not_load(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    for i in range(220):
        add_memory(mem, f"project_m{i:03d}.md", index=False)
    listed = "".join(f"- [m{i}](project_m{i:03d}.md) — memory number {i}\n" for i in range(190))
    (mem / "MEMORY.md").write_text(listed)
    out = run_env("rebuild-index", "--dry-run", str(mem))
    assert out.returncode == 0, out.stderr
    assert "adds 30 entries" in out.stdout
    assert "warning: MEMORY.md would be 223 lines" in out.stdout
    assert "only its first 200 lines load, so the last 23 never reach" in out.stdout
    small = tmp_path / "small"
    for i in range(5):
        add_memory(small, f"project_m{i:03d}.md", index=i < 2)
    fits = run_env("rebuild-index", "--dry-run", str(small))
    assert "adds 3 entries" in fits.stdout and "warning" not in fits.stdout


def test_rebuild_index_refuses_to_push_an_index_past_its_caps_unless_told(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "memory"
    for i in range(220):
        add_memory(mem, f"project_m{i:03d}.md", index=False)
    listed = "".join(f"- [m{i}](project_m{i:03d}.md) — memory number {i}\n" for i in range(190))
    (mem / "MEMORY.md").write_text(listed)
    refused = run_env("rebuild-index", str(mem))
    assert refused.returncode == 1
    assert "would take it from 190 lines to 223 lines" in refused.stderr
    assert "Nothing was written" in refused.stderr and "--over-caps" in refused.stderr
    assert (mem / "MEMORY.md").read_text() == listed and not (mem / ".trash").exists()
    written = run_env("rebuild-index", "--over-caps", str(mem))
    assert written.returncode == 0, written.stderr
    assert "warning: MEMORY.md is now 223 lines" in written.stdout
    assert (mem / "MEMORY.md").read_text().startswith(listed)


def test_rebuild_index_counts_and_diffs_the_old_index_by_newlines_only(tmp_path: Path) -> None:
    # U+2028 and a form feed end a line for str.splitlines, not for the loader or the caps.
    mem = tmp_path / "memory"
    for i in range(220):
        add_memory(mem, f"project_m{i:03d}.md", index=False)
    listed = [f"- [m{i}](project_m{i:03d}.md) \u2014 memory number {i}\n" for i in range(190)]
    listed[188] = "- [m188](project_m188.md) \u2014 memory\u2028number 188\n"
    listed[189] = "- [m189](project_m189.md) \u2014 memory\x0cnumber 189\n"
    (mem / "MEMORY.md").write_text("".join(listed), encoding="utf-8")
    refused = run_env("rebuild-index", str(mem))
    assert refused.returncode == 1
    assert "would take it from 190 lines to 223 lines" in refused.stderr
    preview = run_env("rebuild-index", "--dry-run", str(mem))
    assert preview.returncode == 0, preview.stderr
    hunks = [ln for ln in preview.stdout.splitlines() if ln.startswith("@@")]
    assert hunks == ["@@ -188,3 +188,36 @@"]  # old lines 188-190, then 33 added
    shown = preview.stdout.split("\n")
    assert " - [m188](project_m188.md) \u2014 memory\\u2028number 188" in shown


def test_a_cyrillic_index_past_25000_utf8_bytes_but_not_utf16_units_is_loaded_whole(
    tmp_path: Path,
) -> None:
    # Claude Code's byte cap counts UTF-16 code units: this index is 29 KB in UTF-8 and loads
    # whole, so index, lint and rebuild-index say so and the rebuild is not refused.
    mem = tmp_path / "memory"
    hooks = []
    for i in range(160):
        add_memory(mem, f"feedback_r{i:03d}.md", index=False)
        hooks.append(
            f"- [Правило {i:03d}](feedback_r{i:03d}.md) — правило сборки и проверки номер {i}, "
            "короткое пояснение к нему и к его причине\n"
        )
    (mem / "MEMORY.md").write_text("".join(hooks[:150]), encoding="utf-8")
    report = run_env("index", str(mem))
    assert report.returncode == 0, report.stderr
    assert "fits both caps: loaded whole" in report.stdout
    assert "UTF-16 code units" in report.stdout and "bytes in UTF-8" in report.stdout
    assert "index-over-cap" not in run_env("lint", str(mem)).stdout
    rebuilt = run_env("rebuild-index", str(mem))
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert (mem / "MEMORY.md").read_text(encoding="utf-8").startswith("".join(hooks[:150]))


@pytest.mark.parametrize(
    ("tail", "units", "utf8"),
    [
        ("\ufeff" * 30_000, "20 / 25,000", "22"),
        ("\n" + "\x1c" * 30_000, "30,021 / 25,000", "30,023"),
    ],
    ids=["bom-trimmed", "fs-kept"],
)
def test_the_utf8_size_beside_the_units_is_of_the_text_the_caps_count(
    tmp_path: Path, tail: str, units: str, utf8: str
) -> None:
    # JavaScript's trim takes U+FEFF off and keeps U+001C; the UTF-8 figure `index` prints
    # beside the units was of Python's strip, the other way round (attack round 24: "20 units,
    # 90,023 bytes in UTF-8" for an index loaded whole).
    mem = tmp_path / "memory"
    add_memory(mem, "user_a.md", index=False)
    (mem / "MEMORY.md").write_text("- [A](user_a.md) \u2014 a" + tail, encoding="utf-8")
    report = run_env("index", str(mem))
    assert report.returncode == 0, report.stderr
    assert f"bytes {units}" in report.stdout
    assert f"UTF-16 code units; {utf8} bytes in UTF-8)" in report.stdout


def test_rebuild_index_says_it_re_points_a_line_whose_file_moved(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    add_memory(mem, "ops/project_deploys.md", index=False)
    (mem / "MEMORY.md").write_text("- [Deploys](project_deploys.md) — how we ship\n")
    out = run_env("rebuild-index", str(mem))
    assert out.returncode == 0, out.stderr
    assert "MEMORY.md: re-pointed 1 line whose file moved (title and hook kept)" in out.stdout
    assert (mem / "MEMORY.md").read_text() == (
        "- [Deploys](ops/project_deploys.md) — how we ship\n"
    )


def test_rebuild_index_dry_run_previews_both_indexes_as_diffs_and_writes_nothing(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md", index=False)
    add_memory(mem, "team/project_freeze.md", index=False)
    (mem / "MEMORY.md").write_text("# Mine\n\nprose I wrote \x1b]0;title\x07\n")
    (mem / "team" / "MEMORY.md").write_text("- [Gone](project_gone.md) — deleted\n")
    before = {p: p.read_bytes() for p in sorted(mem.rglob("*")) if p.is_file()}
    out = run_env("rebuild-index", "--dry-run", "--drop-dangling", str(mem))
    assert out.returncode == 0, out.stderr
    assert "--- a/MEMORY.md\n+++ b/MEMORY.md\n" in out.stdout
    assert "--- a/team/MEMORY.md\n+++ b/team/MEMORY.md\n" in out.stdout
    assert (
        "+## Added by rebuild-index" in out.stdout
        and "+- [feedback db](feedback_db.md)" in out.stdout
    )
    assert "-- [Gone](project_gone.md)" in out.stdout and "+- [project freeze]" in out.stdout
    assert "prose I wrote" in out.stdout  # shown as diff context, its escape made visible
    assert "\x1b" not in out.stdout and "\x07" not in out.stdout
    assert {p: p.read_bytes() for p in sorted(mem.rglob("*")) if p.is_file()} == before
    assert not (mem / ".trash").exists()


def test_a_folder_of_agent_memory_dirs_is_named_as_such_by_every_dir_command(
    real_dir: Callable[[str], Path],
) -> None:
    parent = real_dir("agent-memory-parent")
    before = sorted(p.relative_to(parent) for p in parent.rglob("*"))
    said = "is a folder of memory dirs, not one memory dir"
    fix = "pass agent-memory/<name>"
    scan = run_env("scan", str(parent))
    assert scan.returncode == 0 and said in scan.stdout and fix in scan.stdout
    assert "reviewer/feedback_review_tone.md" not in scan.stdout  # no listing as one dir
    as_json = json.loads(run_env("scan", str(parent), "--json").stdout)
    assert as_json["memories"] == [] and as_json["memory_dirs"] == ["reviewer", "tester"]
    index = run_env("index", str(parent))
    assert index.returncode == 0 and said in index.stdout and "no MEMORY.md yet" not in index.stdout
    assert said in json.loads(run_env("index", str(parent), "--json").stdout)[0]["note"]
    recall = run_env("recall", str(parent), "review tone", "--selector", "lexical")
    assert recall.returncode == 0 and said in recall.stdout and fix in recall.stdout
    assert "feedback_review_tone.md" not in recall.stdout  # no agent recalls across agents
    lint = run_env("lint", str(parent))
    assert lint.returncode == 1 and "[folder-of-memory-dirs]" in lint.stdout
    assert "1 error, 0 warnings" in lint.stdout
    for args in (("rebuild-index",), ("rebuild-index", "--dry-run")):
        out = run_env(*args, str(parent))
        assert out.returncode == 2 and said in out.stderr and fix in out.stderr
        assert "nothing was written" in out.stderr
    assert sorted(p.relative_to(parent) for p in parent.rglob("*")) == before
    one = run_env("rebuild-index", str(parent / "tester"))
    assert one.returncode == 0, one.stderr


# --------------------------------------------------------------------------- the front door


@pytest.mark.parametrize(
    "args",
    [
        ("scan", "DIR", "--limit", "-1"),
        ("scan", "DIR", "--limit", "0"),
        ("scan", "DIR", "--limit", "many"),
        ("demo", "/proc/no-such/demo"),
        ("demo", "DIR/MEMORY.md/x"),
        ("demo", "NEW", "--now-ms", "nan"),
        ("recall", "", "--dir", "DIR"),
        ("recall", "   ", "--dir", "DIR"),
        ("where", "--cwd", "/no/such/dir"),
        ("doctor", "--home", "/no/such/home"),
        ("list", "--home", "/no/such/home"),
        ("export", "--parquet", "DIR/MEMORY.md", "--home", "HOME"),
        ("rebuild-index", "/no/such/dir"),
        ("rebuild-index", "EMPTY"),
        ("demo", ""),
        ("index", "DIR", "--scope", "nope"),
    ],
)
def test_no_input_gives_a_traceback(tmp_path: Path, demo_dir: Path, args: tuple[str, ...]) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (tmp_path / "empty").mkdir()
    subst = {
        "DIR": str(demo_dir),
        "NEW": str(tmp_path / "new"),
        "HOME": str(home),
        "EMPTY": str(tmp_path / "empty"),
    }
    real = [subst.get(a, a.replace("DIR/", str(demo_dir) + "/")) for a in args]
    out = run_env(*real)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert "Traceback" not in out.stderr
    assert "error" in out.stderr


def test_scan_limit_error_says_what_to_give(demo_dir: Path) -> None:
    out = run_env("scan", str(demo_dir), "--limit", "-1")
    assert "1 or more" in out.stderr


def test_demo_into_an_existing_demo_names_the_overwrite_flag(demo_dir: Path) -> None:
    out = run_env("demo", str(demo_dir))
    assert out.returncode == 2
    assert "--overwrite" in out.stderr and "overwrite=True" not in out.stderr


def test_demo_into_a_path_that_cannot_be_created_says_so(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    out = run_env("demo", str(blocker / "demo"))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "cannot create" in out.stderr or "not a directory" in out.stderr


def test_recall_of_an_empty_query_says_the_query_is_empty(demo_dir: Path) -> None:
    out = run_env("recall", "", "--dir", str(demo_dir))
    assert out.returncode == 2 and "query is empty" in out.stderr


def test_one_memory_reads_in_the_singular(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    out = run_env("scan", str(mem))
    assert "1 memory listed." in out.stdout
    add_memory(mem, "project_x.md", type="project", body="Ship it next Thursday.")
    summary = run_env("lint", str(mem)).stdout.splitlines()[-1]
    import re

    m = re.match(r"(\d+) (errors?), (\d+) (warnings?) in ", summary)
    assert m, summary
    for count, word in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
        assert word.endswith("s") == (count != "1"), summary


def test_index_and_lint_report_an_index_that_is_not_utf8(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    with open(mem / "MEMORY.md", "ab") as fh:
        fh.write(b"- [Caf\xe9](feedback_db.md)\n")
    index = run_env("index", str(mem))
    assert "not valid UTF-8" in index.stdout
    assert json.loads(run_env("index", str(mem), "--json").stdout)[0]["valid_utf8"] is False
    lint = run_env("lint", str(mem))
    assert "index-invalid-utf8" in lint.stdout and lint.returncode == 1


def test_recall_s_tool_help_says_what_a_tool_in_use_changes() -> None:
    # fresh37: "a recently used tool (repeatable)" did not say why one would pass it
    out = run_cli("recall", "--help")
    text = " ".join(out.stdout.split())
    assert "memories that only explain how to use it are left out" in text
    assert "its gotchas and known issues are kept" in text


def test_every_argument_has_help_text() -> None:
    import argparse

    from memdir_nb.cli.parsers import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    missing = [
        f"{name} {action.dest}"
        for name, p in sub.choices.items()
        for action in p._actions
        if not isinstance(action, argparse._HelpAction) and not action.help
    ]
    assert missing == []


def test_every_command_a_hint_names_exists() -> None:
    import re

    from memdir_nb.cli.parsers import build_parser

    parser = build_parser()
    choices = next(a for a in parser._actions if a.dest == "command").choices
    assert choices is not None
    commands = set(choices)
    package = Path(__file__).resolve().parents[2] / "memdir_nb"
    named = set()
    for path in package.rglob("*.py"):
        named |= set(re.findall(r"memdir-nb ([a-z][a-z-]*)", path.read_text(encoding="utf-8")))
    named -= {"demo"} if "demo" in commands else set()
    assert named <= commands, named - commands


def test_rebuild_index_on_a_team_only_dir_says_the_missing_private_index_needs_no_line(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "memory"
    add_memory(mem, "team/project_freeze.md")
    out = run_env("rebuild-index", "--dry-run", str(mem))
    assert out.returncode == 0, out.stderr
    assert "MEMORY.md: holds no line and no memory needs one; nothing to change" in out.stdout
    assert "MEMORY.md: up to date" not in out.stdout.replace("team/MEMORY.md: up to date", "")
    assert not (mem / "MEMORY.md").exists()


def test_rebuild_index_refuses_a_folder_that_is_not_a_memory_dir(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a memory")
    out = run_env("rebuild-index", str(tmp_path))
    assert out.returncode == 2 and "not a memory dir" in out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_recall_explain_shows_lexical_and_semantic_scores_and_the_decision(
    demo_dir: Path, tmp_path: Path
) -> None:
    out = run_cli(
        "recall",
        "how do we deploy to production",
        "--dir",
        str(demo_dir),
        "--explain",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert "(selector: semantic)" in out.stdout
    assert "Why each memory was or was not picked (selector: semantic):" in out.stdout
    rows = [ln for ln in out.stdout.splitlines() if ln.startswith(("+ ", "- "))]
    assert len(rows) == 40  # one row per memory, picked (+) or not (-)
    picked = [ln for ln in rows if ln.startswith("+ ")]
    assert any("reference_deploy_runbook.md" in ln for ln in picked)
    assert all("probability" in ln or "gate" in ln or "rule" in ln for ln in rows)
    # the body window that matched is quoted under a picked memory
    assert any(ln.lstrip().startswith("matched window ") for ln in out.stdout.splitlines())
    assert (tmp_path / ".cache" / "memdir_nb" / "semantic-vectors.sqlite3").is_file()


# --------------------------------------------------------------------------- sessions


@pytest.fixture(scope="module")
def sample_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo_session(tmp_path_factory.mktemp("sessions") / "claude").claude_home


def test_sessions_lists_main_and_subagent_transcripts_per_project(sample_home: Path) -> None:
    out = run_cli("sessions", "--home", str(sample_home))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "-home-sam-src-shop/"
    main = next(ln for ln in lines if "5b0f3c2e" in ln)
    agent = next(ln for ln in lines if "agent-a71c0d9e4b2f38a65" in ln)
    assert "2026-05-12" in main and " 7 turns" in main and "main" in main
    assert "subagent" in agent and " 1 turn " in agent
    # the sample's meta file has the Task's description, as 2.1.x writes it (notebook 11 shows it)
    assert agent.endswith("  Find payments sandbox callers [Explore]")
    assert lines[-1] == "2 transcripts: 1 main, 1 subagent."


def test_sessions_names_a_subagent_by_the_description_in_its_meta_file(
    subagent_meta_home: Path,
) -> None:
    # real38: Claude Code 2.1 writes agent-<id>.meta.json beside a subagent's transcript;
    # the listing named the subagent by its file only. A meta file that is not JSON: no words
    out = run_cli("sessions", "--home", str(subagent_meta_home))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    read = next(ln for ln in lines if "agent-a51e0c7d2b9f4e183" in ln)
    assert read.endswith("  Read the kiln controller logs [Explore]")
    cut = next(ln for ln in lines if "agent-a9b3f0e1c2d4a5b67" in ln)
    assert cut.endswith(" B") and lines[-1] == "3 transcripts: 1 main, 2 subagents."
    listed = json.loads(run_cli("sessions", "--home", str(subagent_meta_home), "--json").stdout)
    by_id = {row["session_id"]: row for row in listed}
    assert by_id["agent-a51e0c7d2b9f4e183"]["description"] == "Read the kiln controller logs"
    assert by_id["agent-a51e0c7d2b9f4e183"]["agent_type"] == "Explore"
    assert by_id["agent-a9b3f0e1c2d4a5b67"]["description"] is None


def test_sessions_names_the_session_of_agents_whose_own_transcript_is_not_there(
    agents_without_their_session_home: Path,
) -> None:
    # real40: a published home kept the agents of three sessions whose transcripts (over
    # 4 MiB) it left out; listed after the session above them, they read as its agents.
    out = run_cli("sessions", "--home", str(agents_without_their_session_home))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    head = next(i for i, ln in enumerate(lines) if "9e7f1b22-3c4d-4e5f-8a6b-7c8d9e0f1a2b" in ln)
    assert lines[head].endswith("(no transcript of its own; its agents:)")
    assert (
        "agent-a1c2e3f4a5b6c7d80" in lines[head + 1]
        and "agent-a2d3f4a5b6c7d8e91" in lines[head + 2]
    )
    assert all("no transcript" not in ln for ln in lines[:head])  # the present session: no line
    assert lines[-1] == "5 transcripts: 1 main, 4 subagents."


def test_sessions_of_one_memory_dir_add_its_subfolders_sessions_that_used_it(
    sample_home: Path,
) -> None:
    shop = sample_home / "projects" / "-home-sam-src-shop"
    web = shop.parent / "-home-sam-src-shop-web"
    web.mkdir()
    transcript = next(shop.glob("*.jsonl"))
    shutil.copyfile(transcript, web / "9d1c6e2a-web.jsonl")  # its memory calls name shop's dir
    out = run_cli("sessions", "--dir", str(shop / "memory"))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "-home-sam-src-shop/" and "-home-sam-src-shop-web/" in lines
    assert lines[-1] == "3 transcripts: 2 main, 1 subagent."
    both = run_cli("sessions", "--dir", str(shop / "memory"), "--home", str(sample_home))
    assert both.returncode == 2 and "pass one of them" in both.stderr
    loose = run_cli("sessions", "--dir", str(sample_home))
    assert loose.returncode == 2 and "not a project's memory dir" in loose.stderr


def test_replay_uses_the_memory_dir_beside_the_transcript_and_prints_the_turn_table(
    sample_home: Path,
) -> None:
    transcript = next((sample_home / "projects" / "-home-sam-src-shop").glob("*.jsonl"))
    out = run_cli("replay", str(transcript), "--selector", "lexical", "--now-ms", "1778600000000")
    assert out.returncode == 0, out.stderr
    assert "-home-sam-src-shop/memory" in out.stdout.splitlines()[0]
    rows = [ln for ln in out.stdout.splitlines() if ln[:4].strip().isdigit()]
    assert len(rows) == 7 and "MISS" in rows[3]
    assert "likely recall misses in 2 of 7 turns" in out.stdout


def test_replay_of_a_session_filed_under_a_subfolder_finds_the_memory_its_calls_name(
    tmp_path: Path,
) -> None:
    home = build_demo_session(tmp_path / "claude").claude_home
    transcript = next((home / "projects" / "-home-sam-src-shop").glob("*.jsonl"))
    moved = home / "projects" / "-home-sam-src-shop-web" / transcript.name
    moved.parent.mkdir()
    transcript.rename(moved)  # as if the session had run in the repository's web/ folder
    out = run_cli("replay", str(moved), "--selector", "lexical", "--now-ms", "1778600000000")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].endswith("-home-sam-src-shop/memory")
    assert "not the folder beside the transcript" in out.stdout.splitlines()[1]
    assert "likely recall misses in 2 of 7 turns" in out.stdout


def test_replay_lists_a_bad_line_once_with_what_became_of_it(sample_home: Path) -> None:
    transcript = next((sample_home / "projects" / "-home-sam-src-shop").glob("*.jsonl"))
    with transcript.open("a", encoding="utf-8") as f:
        f.write('{"type": "user", "message": "cut\n')
    out = run_cli("replay", str(transcript), "--selector", "lexical", "--now-ms", "1778600000000")
    assert out.returncode == 0, out.stderr
    bad = [ln for ln in out.stdout.splitlines() if "not JSON" in ln]
    assert len(bad) == 1 and bad[0].startswith("  line ") and bad[0].endswith("; skipped")
    assert bad[0].count("skipped") == 1 and " at at " not in bad[0]


def test_replay_json_gives_one_row_per_turn(sample_home: Path) -> None:
    transcript = next((sample_home / "projects" / "-home-sam-src-shop").glob("*.jsonl"))
    out = run_cli("replay", str(transcript), "--selector", "lexical", "--json")
    payload = json.loads(out.stdout)
    assert payload["recall_turns"] == 7 and len(payload["turns"]) == 7
    assert payload["turns"][1]["agent_wrote"] == "project_release_freeze.md"


def test_replay_json_names_the_lines_it_skipped_as_the_text_does(tmp_path: Path) -> None:
    # attack39: the text listed "line N: not JSON …; skipped"; --json, the same replay, had no
    # word of them, so a script read a damaged transcript's counts as a whole one's
    home = build_demo_session(tmp_path / "claude").claude_home
    transcript = next((home / "projects" / "-home-sam-src-shop").glob("*.jsonl"))
    with transcript.open("a", encoding="utf-8") as f:
        f.write('{"type": "user", "message": "cut\n')
    out = run_cli("replay", str(transcript), "--selector", "lexical", "--json")
    payload = json.loads(out.stdout)
    assert len(payload["problems"]) == 1 and payload["problems"][0].endswith("; skipped")
    assert payload["problems"][0].startswith("line ") and payload["recall_turns"] == 7


def _with_odd_tracked_path(transcript: Path) -> str:
    """transcript with one more snapshot, tracking a path that holds a pasted key, an OSC 8
    link and a bidi override; returns the path."""
    odd = f"/h/\x1b]8;;http://x\x07a\u202eb/{PASTED_API_KEY}/x.txt"
    snap = {"type": "file-history-snapshot", "snapshot": {"trackedFileBackups": {odd: {}}}}
    with transcript.open("a", encoding="utf-8") as f:
        f.write(json.dumps(snap) + "\n")
    return odd


def test_replay_prints_the_ledger_notes_redacted_and_safe_to_print(tmp_path: Path) -> None:
    # sessions44 left the ledger to the replay widget: `replay` printed no word of it
    transcript = build_ledger_session(tmp_path)
    _with_odd_tracked_path(transcript)
    out = run_cli("replay", str(transcript), "--selector", "lexical")
    assert out.returncode == 0, out.stderr
    tokens, snaps = out.stdout.splitlines()[-2:]
    assert tokens == (
        "tokens recorded by the session's 4 answers: 15 input, 190 output, 2,000 cache writes, "
        "12,000 cache reads (14,205 in all); cost recorded (costUSD): $0.0125 over 1 answer; "
        "1 answer without usage; 2 usage or cost fields unreadable, left out"
    )
    assert snaps.startswith("file-history snapshots: 5 (1 update), tracking 3 files: ")
    assert "\\x1b]8;;http://x\\x07a\\u202eb/sk-a…[" in snaps  # the key redacted
    assert PASTED_API_KEY not in out.stdout and "\x1b" not in out.stdout
    assert "\u202e" not in out.stdout
    shown = run_cli("replay", str(transcript), "--selector", "lexical", "--show-secrets")
    assert PASTED_API_KEY[:40] in shown.stdout.splitlines()[-1]  # then cut at 80


def test_replay_json_gives_the_ledger_numbers_and_the_notes_the_text_prints(
    tmp_path: Path,
) -> None:
    transcript = build_ledger_session(tmp_path)
    _with_odd_tracked_path(transcript)
    text = run_cli("replay", str(transcript), "--selector", "lexical")
    out = run_cli("replay", str(transcript), "--selector", "lexical", "--json")
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    assert payload["ledger_notes"] == text.stdout.splitlines()[-2:]
    ledger = payload["ledger"]
    assert ledger["total_tokens"] == 14_205 and ledger["messages"] == 4
    assert ledger["snapshots"] == 5 and ledger["tracked_files"] == 3
    assert ledger["cost_usd"] == 0.0125 and ledger["bad_fields"] == 2
    assert PASTED_API_KEY not in out.stdout and "\\u001b" not in out.stdout


def test_replay_of_a_session_with_no_ledger_records_prints_no_ledger_note(
    tmp_path: Path,
) -> None:
    w = RecordWriter("s", "/home/x", "2026-05-01T10:00:00.000Z", seed="bare")
    w.prompt("what is in the notes folder?")
    path = tmp_path / "s.jsonl"
    path.write_text(w.text())
    text = run_cli("replay", str(path), "--dir", str(tmp_path), "--selector", "lexical")
    assert "tokens recorded" not in text.stdout and "file-history" not in text.stdout
    out = run_cli("replay", str(path), "--dir", str(tmp_path), "--selector", "lexical", "--json")
    payload = json.loads(out.stdout)
    assert payload["ledger_notes"] == [] and payload["ledger"]["total_tokens"] == 0


def test_replay_of_a_file_that_is_not_a_transcript_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "notes.jsonl"
    bad.write_text("hello\nworld\n")
    out = run_cli("replay", str(bad), "--dir", str(tmp_path))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "is not a Claude Code transcript" in out.stderr


def _one_listed_session(home: Path, name: str) -> tuple[list[str], str, dict[str, Any]]:
    """`sessions --home` over a home of one transcript: the listing's lines, the row naming
    `name`, and the transcript as `--json` gives it."""
    out = run_cli("sessions", "--home", str(home))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    (listed,) = json.loads(run_cli("sessions", "--home", str(home), "--json").stdout)
    return lines, next(ln for ln in lines if name in ln), listed


def _assert_listed_as(home: Path, name: str, kind: str, not_shown: str, summary: str) -> None:
    """`sessions --home` over a home of one transcript lists `name` as `kind`, never with the
    word `not_shown`, ends with `summary`, and `--json` gives that kind, not a subagent."""
    lines, row, listed = _one_listed_session(home, name)
    assert f" {kind} " in row and not_shown not in row
    assert lines[-1] == summary
    assert listed["kind"] == kind and listed["is_subagent"] is False


def test_sessions_lists_the_compaction_agent_as_its_own_kind_not_a_subagent(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "projects" / "-c" / "55555555" / "subagents"
    folder.mkdir(parents=True)
    w = RecordWriter("55555555", "/c", "2026-02-11T21:59:13.000Z", sidechain=True)
    w.agent_id = "acompact-abc123"
    w.prompt("Your task is to create a detailed summary of the conversation so far")
    w.response([{"type": "text", "text": "<summary>...</summary>"}])
    (folder / "agent-acompact-abc123.jsonl").write_text(w.text(), encoding="utf-8")
    _assert_listed_as(
        tmp_path,
        "agent-acompact-abc123",
        "compaction",
        "subagent",
        "1 transcript: 1 compaction agent.",
    )
    replay = run_cli("replay", str(folder / "agent-acompact-abc123.jsonl"), "--selector", "lexical")
    assert "(compaction agent)" in replay.stdout and "instruction to summarise" in replay.stdout


def test_sessions_counts_the_turns_typed_not_a_vscode_resumes_copy_of_them(
    tmp_path: Path,
) -> None:
    # VS Code 2.0.2 writes the conversation again on each resume at one new time: `sessions`
    # listed each copied prompt as a turn (resume37: 50 turns for about 30 typed)
    folder = tmp_path / "projects" / "-home-ana-app"
    folder.mkdir(parents=True)
    w = RecordWriter("vs", "/home/ana/app", "2026-05-01T10:00:00.000Z", version="2.0.2")
    w.prompt_ids = False
    w.prompt("read the plan")
    w.response([{"type": "text", "text": "read it"}])
    rewritten_on_resume(w)
    resumed = len(w.lines)
    w.prompt("now the roadmap")
    w.response([{"type": "text", "text": "here"}])
    rewritten_on_resume(w, resumed)  # what the last resume began, as 2.0.2 writes it
    w.prompt("and the budget")
    w.response([{"type": "text", "text": "here too"}])
    (folder / "vs.jsonl").write_text(w.text(), encoding="utf-8")
    _, row, listed = _one_listed_session(tmp_path, "vs")
    assert listed["turns"] == 3 and " 3 " in row


def test_sessions_and_replay_name_a_pane_teammates_own_file_a_teammate(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "-c"
    folder.mkdir(parents=True)
    w = pane_teammate("t1", "/c", "2026-09-16T14:01:00.000Z")
    (folder / "t1.jsonl").write_text(w.text(), encoding="utf-8")
    _assert_listed_as(tmp_path, "t1", "teammate", " main ", "1 transcript: 1 teammate.")
    replay = run_cli("replay", str(folder / "t1.jsonl"), "--selector", "lexical")
    assert replay.returncode == 0, replay.stderr
    assert "Session t1 (teammate)" in replay.stdout


def test_sessions_names_the_session_a_fork_copied_its_history_from(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "-c"
    folder.mkdir(parents=True)
    w = RecordWriter("parent-1", "/c", "2026-05-01T10:00:00.000Z", seed="fork")
    w.prompt("note that reviews need two approvals")
    w.response([{"type": "text", "text": "noted"}])
    fork_of(w, "child-2")
    w.prompt("and what else?")
    w.response([{"type": "text", "text": "nothing else"}])
    (folder / "child-2.jsonl").write_text(w.text(), encoding="utf-8")
    _lines, row, listed = _one_listed_session(tmp_path, "child-2")
    assert "1 turn " in row and "(fork of parent-1)" in row
    assert listed["forked_from"] == "parent-1" and listed["turns"] == 1


def test_sessions_and_replay_name_the_prompt_suggestion_agent_as_the_clis_own(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "projects" / "-c" / "55555555" / "subagents"
    folder.mkdir(parents=True)
    w = RecordWriter("55555555", "/c", "2026-02-11T21:59:13.000Z", sidechain=True)
    w.agent_id = "aprompt_suggestion-1acfe9"
    w.prompt("[SUGGESTION MODE: Suggest what the user might naturally type next.]")
    w.response([{"type": "text", "text": "commit it"}])
    path = folder / "agent-aprompt_suggestion-1acfe9.jsonl"
    path.write_text(w.text(), encoding="utf-8")
    out = run_cli("sessions", "--home", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "1 transcript: 1 prompt-suggestion agent."
    replay = run_cli("replay", str(path), "--selector", "lexical")
    assert "(prompt-suggestion agent)" in replay.stdout
    assert "guess what the user types next" in replay.stdout


def test_sessions_of_a_folder_without_projects_is_a_clear_error(tmp_path: Path) -> None:
    out = run_cli("sessions", "--home", str(tmp_path))
    assert (
        out.returncode == 2
        and "no projects/ folder" in out.stderr
        and "Traceback" not in out.stderr
    )


def test_sessions_of_a_claude_home_with_no_projects_yet_lists_none(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text("{}", encoding="utf-8")
    for home in (tmp_path, tmp_path / ".claude"):
        out = run_cli("sessions", "--home", str(home))
        assert out.returncode == 0 and out.stderr == ""
        assert "No session transcripts under" in out.stdout


def test_replay_output_is_sanitised_for_the_terminal(tmp_path: Path) -> None:
    w = RecordWriter("s", "/home/x", "2026-05-01T10:00:00.000Z", seed="esc")
    w.prompt("clear the screen \x1b[2J please")
    path = tmp_path / "s.jsonl"
    path.write_text(w.text())
    out = run_cli("replay", str(path), "--dir", str(tmp_path), "--selector", "lexical")
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout


# ---------------------------------------------------------------- one command's parser alone


def _outcome(parse: Callable[[], object], capsys: pytest.CaptureFixture[str]) -> tuple[object, ...]:
    """What a parse gives: its namespace (as a dict), None, or its exit code; and what it printed."""
    try:
        parsed = parse()
        result: object = None if parsed is None else vars(parsed)
    except SystemExit as exc:
        result = ("exit", exc.code)
    out = capsys.readouterr()
    return result, out.out, out.err


def _command_lines(demo_dir: Path, tmp_path: Path) -> list[list[str]]:
    d, f = str(demo_dir), str(demo_dir / "MEMORY.md")
    return [
        ["scan", d],
        ["scan", d, "--limit", "3", "--json"],
        ["scan", "--json", "--limit=7", d],
        ["scan", "--lim", "2", d],  # an abbreviation argparse accepts
        ["scan", "--", d],
        ["scan", d, d],  # a word scan does not take: the whole parser names it
        ["scan", d, "--nope"],
        ["scan", "--limit", "-1", d],
        ["scan", "--limit", "x", d],
        ["scan"],
        ["scan", str(tmp_path / "missing")],
        ["scan", "-h"],
        ["scan", d, "--help"],
        ["index", d, "--scope", "team", "--show"],
        ["index", d, "--scope", "nope"],
        ["lint", d, "--errors-only"],
        ["demo", str(tmp_path / "new"), "--now-ms", "5"],
        ["recall", "deploy", "--dir", d, "--tool", "Bash", "--tool", "Grep"],
        ["recall", "deploy"],
        ["where", "--cwd", str(tmp_path), "--json"],
        ["doctor", "--settings", f],
        ["list", "--home", str(tmp_path), "--home", str(tmp_path)],
        ["export", "--parquet", str(tmp_path / "out")],
        ["export", "--parquet", "a", "--archive", "b.zip"],
        ["sessions", "--json"],
        ["replay", f, "--turns-between", "0"],
        ["import", f, "--dir", str(tmp_path), "--dry-run"],
        ["rebuild-index", d, "--dry-run", "--drop-dangling"],
        ["rebuild-index", d, "extra"],
    ]


def test_a_command_parsed_alone_gives_what_the_whole_parser_gives(
    demo_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from memdir_nb.cli.parsers import build_parser, parse_one_command

    monkeypatch.setenv("COLUMNS", "100")
    left = 0
    for words in _command_lines(demo_dir, tmp_path):
        whole = _outcome(functools.partial(build_parser().parse_args, words), capsys)
        alone = _outcome(functools.partial(parse_one_command, words), capsys)
        if alone == (None, "", ""):  # left to the whole parser, which names the extra words
            assert whole[0] == ("exit", 2) and "unrecognized arguments" in str(whole[2]), words
            left += 1
        else:
            assert alone == whole, words
    assert left == 3


def test_words_a_command_does_not_take_are_left_to_the_whole_parser(demo_dir: Path) -> None:
    from memdir_nb.cli.parsers import parse_one_command

    assert parse_one_command(["scan", str(demo_dir), "--nope"]) is None
    assert parse_one_command(["scan", str(demo_dir), "extra"]) is None
    assert parse_one_command(["-h"]) is None
    assert parse_one_command(["nope", str(demo_dir)]) is None
    assert parse_one_command([]) is None


def test_unknown_words_are_named_with_the_whole_commands_usage(demo_dir: Path) -> None:
    out = run_env("scan", str(demo_dir), "--nope")
    assert out.returncode == 2
    assert out.stderr.startswith("usage: memdir-nb [-h]")
    assert "{scan,index,lint," in out.stderr
    assert "unrecognized arguments: --nope" in out.stderr


def test_each_command_alone_has_the_help_of_its_subcommand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import argparse

    from memdir_nb.cli.parsers import COMMANDS, build_parser, command_parser

    monkeypatch.setenv("COLUMNS", "100")
    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(sub.choices) == list(COMMANDS)
    for name, subparser in sub.choices.items():
        assert command_parser(name).format_help() == subparser.format_help(), name


def test_a_path_starting_with_tilde_is_under_home(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    out = run_env("scan", "~/memory", "--json", env={"HOME": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["dir"] == str(mem)


def test_a_tilde_path_with_doubled_slashes_is_still_under_home(tmp_path: Path) -> None:
    # attack round 30: `~//memory` was /memory, where a shell reads ~/memory
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    out = run_env("scan", "~//memory", "--json", env={"HOME": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["dir"] == str(mem)


def test_a_path_argument_reads_no_settings_file(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text("{not json")
    out = run_env("scan", "~/memory", env={"HOME": str(tmp_path)})
    assert out.returncode == 0 and "1 memory listed." in out.stdout
    assert out.stderr == ""  # a broken settings file is where's and doctor's business


def _python_probe(
    code: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -c code args` in a fresh process (what a command process imports, freezes or
    loads is only seen there); it must exit 0, else its stderr is the failure."""
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out


def test_scan_loads_no_other_command_nor_the_settings_machinery(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    add_memory(mem, "project_x.md", type="project")
    code = (
        "import sys\n"
        "from memdir_nb.cli import main\n"
        "status = main(['scan', sys.argv[1]])\n"
        "watched = ('logging', 'json', 'memdir_nb.home.config', 'memdir_nb.spec.dates',"
        " 'memdir_nb.cli.dir_commands', 'memdir_nb.cli.home_commands', 'memdir_nb.lint',"
        " 'html', 'threading', 'pathlib', 'urllib.parse', 'shutil',"
        # datetime.py runs pure-Python copies of its classes (the scan's modules take the C
        # ones, spec.datetime_types: forty-second session); PyYAML, for a YAML header, loads it
        " 'datetime')\n"
        "print('LOADED', status, sorted(m for m in watched if m in sys.modules))\n"
        "from memdir_nb.spec import text\n"  # nor compiled a class with a 64K-character map
        "big = (text.unsafe_in_text, text.unsafe_in_line, text._LINE_BREAKS, text._LONE_SURROGATE)\n"
        "print('COMPILED', sum(f.cache_info().currsize for f in big))\n"
    )
    out = _python_probe(code, str(mem))
    assert out.stdout.splitlines()[-2:] == ["LOADED 0 []", "COMPILED 0"]


def test_scan_imports_neither_dataclasses_nor_inspect_nor_compiles_what_it_does_not_run(
    tmp_path: Path,
) -> None:
    # `import dataclasses` brings inspect, ast, dis and tokenize: about a fifth of the scan
    # process (docs/performance.md, thirty-first session). The scan's records are
    # spec.records classes, so neither a listing nor its JSON needs them; a malformed header
    # (recovered through records.replace) and a YAML one are among the files.
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    add_memory(mem, "project_x.md", type="project")
    (mem / "user_broken.md").write_text("---\nname: [unclosed\ntype: user\n---\nbody\n")
    (mem / "user_yaml.md").write_text("---\nname: y\ndescription: |\n  two\n  lines\n---\nb\n")
    code = (
        # A NamedTuple's class compiles each string annotation (typing.ForwardRef, an 'eval'
        # compile, about 0.6 M instructions each): the scan's modules make none
        "import builtins, sys\n"
        "evals, compile_ = [], builtins.compile\n"
        "def counted(source, *args, **kwargs):\n"
        "    if (args[1:2] or [kwargs.get('mode')])[0] == 'eval':\n"
        "        evals.append(source)\n"
        "    return compile_(source, *args, **kwargs)\n"
        "builtins.compile = counted\n"
        "from memdir_nb.cli import main\n"
        "sys.argv = ['memdir-nb', 'scan', sys.argv[1], *sys.argv[2:]]\n"
        "status = main()\n"
        "print('LOADED', status, [m for m in ('dataclasses', 'inspect') if m in sys.modules])\n"
        # regexes the scan never runs, left uncompiled (a readme- name's language tag, with
        # IGNORECASE about 0.2 ms; a code fence's line: forty-second session)
        "from memdir_nb.spec import text, timestamps\n"
        "from memdir_nb.storage import name_kinds\n"
        "unrun = (timestamps._TRASH_STAMP, name_kinds._README_LANGUAGE, text._FENCE_RUN)\n"
        "print('COMPILED', sum(f.cache_info().currsize for f in unrun), evals)\n"
    )
    for extra in ([], ["--json"]):
        out = _python_probe(code, str(mem), *extra)
        assert "user_broken.md" in out.stdout
        assert out.stdout.splitlines()[-2:] == ["LOADED 0 []", "COMPILED 0 []"]


def test_a_scan_process_imports_neither_typing_nor_argparse(tmp_path: Path) -> None:
    # typing was about 12 M instructions of the 214 M of a `memdir-nb scan` process, loaded for
    # annotations and type-only names (the scan's modules keep them under TYPE_CHECKING), and
    # argparse with gettext, locale and the scan's parser about 12 M more: a plain scan command
    # line is read by cli.plain_scan (docs/performance.md, forty-second session). A dir with a
    # malformed header and a multi-line YAML one, as text and as JSON, with and without --limit.
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    (mem / "user_broken.md").write_text("---\nname: [unclosed\ntype: user\n---\nbody\n")
    (mem / "user_yaml.md").write_text("---\nname: y\ndescription: |\n  two\n  lines\n---\nb\n")
    code = (
        "import sys\n"
        "from memdir_nb.cli import main\n"
        "sys.argv = ['memdir-nb', 'scan', *sys.argv[1:]]\n"
        "status = main()\n"
        "unused = ('typing', 'argparse', 'gettext', 'locale', 'memdir_nb.cli.parsers')\n"
        "print('LOADED', status, [m for m in unused if m in sys.modules])\n"
    )
    for extra in ([], ["--json"], ["--limit", "2", "--json"], ["--limit", "5"]):
        out = _python_probe(code, str(mem), *extra)
        assert "user_broken.md" in out.stdout
        assert out.stdout.splitlines()[-1] == "LOADED 0 []"


def test_a_plain_scan_prints_what_the_scan_parser_would_have_it_print(tmp_path: Path) -> None:
    # `--limit=N` is left to argparse (cli.plain_scan): the two routes print the same bytes
    mem = tmp_path / "memory"
    for i in range(4):
        add_memory(mem, f"feedback_{i}.md", age_days=i + 1)
    (mem / "user_broken.md").write_text("---\nname: [unclosed\ntype: user\n---\nbody\n")
    for plain, parsed in (
        (["--limit", "3"], ["--limit=3"]),
        (["--limit", "200", "--json"], ["--json", "--limit=200"]),
    ):
        outs = [run_cli("scan", str(mem), *words) for words in (plain, parsed)]
        assert outs[0].returncode == outs[1].returncode == 0
        assert outs[0].stdout == outs[1].stdout and "feedback_0.md" in outs[0].stdout
        assert outs[0].stderr == outs[1].stderr == ""


def test_scan_loads_no_renderer_and_the_headers_module_still_hands_them_out(
    tmp_path: Path,
) -> None:
    # A scan reads headers and writes none: storage.headers re-exports the renderers
    # (formats.frontmatter_render) as a public name, loaded on first use (polish31b; before,
    # every scan imported them, about 0.5 M instructions measured with cachegrind)
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    (mem / "user_yaml.md").write_text("---\nname: y\ndescription: |\n  two\n  lines\n---\nb\n")
    code = (
        "import sys\n"
        "from memdir_nb.cli import main\n"
        "sys.argv = ['memdir-nb', 'scan', sys.argv[1]]\n"
        "status = main()\n"
        "print('RENDER', status, 'memdir_nb.formats.frontmatter_render' in sys.modules)\n"
        "from memdir_nb.storage.headers import render_memory_file, render_updated_memory_file\n"
        "from memdir_nb.formats import frontmatter_render as fr\n"
        "print('SAME', render_memory_file is fr.render_memory_file,\n"
        "      render_updated_memory_file is fr.render_updated_memory_file)\n"
    )
    out = _python_probe(code, str(mem))
    assert out.stdout.splitlines()[-2:] == ["RENDER 0 False", "SAME True True"], out.stdout


def test_a_command_process_sets_what_it_loaded_aside_from_the_collector(tmp_path: Path) -> None:
    # The console script and `-m` call main() without argv: once parsed, the imports are
    # frozen (gc.freeze), so neither the command's collections nor the full ones at exit walk
    # them again. A caller handing main its words (a test, a notebook) is a process that goes
    # on, and keeps its collector as it was.
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    code = (
        "import gc, sys\n"
        "from memdir_nb.cli import main\n"
        "given = main(['scan', sys.argv[1]])\n"
        "print('GIVEN', given, gc.get_freeze_count())\n"
        "sys.argv = ['memdir-nb', 'scan', sys.argv[1]]\n"
        "own = main()\n"
        "print('OWN', own, gc.get_freeze_count() > 1000)\n"
    )
    out = _python_probe(code, str(mem))
    assert [line for line in out.stdout.splitlines() if line[:3] in ("GIV", "OWN")] == [
        "GIVEN 0 0",
        "OWN 0 True",
    ]


_BLAS_PROBE = (
    "import atexit, os, sys\n"
    "from threadpoolctl import threadpool_info\n"
    "def probe():\n"
    "    blas = [i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas']\n"
    "    print('BLAS', blas, os.environ.get('OPENBLAS_NUM_THREADS'), file=sys.stderr)\n"
    "atexit.register(probe)\n"
    "sys.argv = ['memdir-nb', 'recall', sys.argv[1], 'database', '--selector', 'lexical']\n"
    "from memdir_nb.cli.main import main\n"
    "sys.exit(main())\n"
)


def _blas_of_a_recall_process(mem: Path, chosen: str | None) -> str:
    """The BLAS line the probe prints at the exit of a `memdir-nb recall` process."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if chosen is not None:
        env["OPENBLAS_NUM_THREADS"] = chosen
    out = _python_probe(_BLAS_PROBE, str(mem), env=env)
    return next(line for line in out.stderr.splitlines() if line.startswith("BLAS "))


def test_a_command_process_loads_blas_with_one_thread_unless_the_user_chose(
    tmp_path: Path,
) -> None:
    # Every matrix product runs on one BLAS thread (machine.one_blas_thread), and OpenBLAS
    # fixes its thread count when numpy first loads it: a command process has it load with
    # one, so no idle worker thread spins through the command. A count the user set is kept.
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    assert _blas_of_a_recall_process(mem, None) == "BLAS [1] 1"
    chosen = _blas_of_a_recall_process(mem, "2")
    assert chosen.endswith(" 2")
    if usable_cpus() >= 2:  # OpenBLAS starts no more threads than the process has CPUs
        assert chosen == "BLAS [2] 2"


def _rebuilt_dir(tmp_path: Path) -> tuple[Path, bytes, str]:
    """A memory dir whose hand-written index rebuild-index has just extended: (dir, the old
    index's bytes, the batch the old index went to)."""
    mem = tmp_path / "my memory"  # a space: the printed command must still paste as one path
    add_memory(mem, "feedback_db.md", index=False)
    old = b"- [Notes](notes.md) \xe2\x80\x94 written by hand, kept as it is\n"
    (mem / "MEMORY.md").write_bytes(old)
    out = run_env("rebuild-index", str(mem))
    assert out.returncode == 0, out.stderr
    batch = out.stdout.rsplit(" ", 1)[-1].strip()
    assert f"put it back with memdir-nb restore '{mem}' {batch}" in out.stdout
    return mem, old, batch


def test_rebuild_index_prints_the_diff_it_wrote_and_keeps_the_old_index(tmp_path: Path) -> None:
    # lefts37: a rebuild that rewrote MEMORY.md printed a summary ("added 1 entry ...") and
    # not the change; a person sees the lines it wrote, as --dry-run shows them, and the old
    # index's place in .trash/.
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md", index=False)
    (mem / "MEMORY.md").write_text("- [Notes](notes.md) — written by hand\n")
    preview = run_env("rebuild-index", "--dry-run", str(mem))
    out = run_env("rebuild-index", str(mem))
    assert out.returncode == 0, out.stderr
    added = [line for line in preview.stdout.splitlines() if line.startswith("+")]
    assert added and "+- [" in "\n".join(added)  # the preview shows the entry it adds
    for line in added:
        assert line in out.stdout.splitlines()  # and the rebuild prints the same lines
    assert "--- a/MEMORY.md" in out.stdout and "+++ b/MEMORY.md" in out.stdout
    (kept,) = (mem / ".trash").glob("rebuild-index-*/MEMORY.md")
    assert kept.read_text() == "- [Notes](notes.md) — written by hand\n"
    again = run_env("rebuild-index", str(mem))  # nothing changed: no diff, no batch
    assert "--- a/" not in again.stdout and "up to date" in again.stdout


def test_restore_puts_back_the_index_rebuild_index_replaced(tmp_path: Path) -> None:
    mem, old, batch = _rebuilt_dir(tmp_path)
    listed = run_env("restore", str(mem))
    assert f"{batch}: would put back MEMORY.md" in listed.stdout
    out = run_env("restore", str(mem), batch)
    assert out.returncode == 0, out.stderr
    assert "put back 1 file: MEMORY.md" in out.stdout
    assert (mem / "MEMORY.md").read_bytes() == old
    again = run_env("restore", str(mem), batch)
    assert again.returncode == 2 and f"{batch} was already restored" in again.stderr
    assert "cannot be restored" in run_env("restore", str(mem)).stdout


def test_never_lose_what_a_person_wrote_restore_puts_back_a_forgotten_cited_line(
    tmp_path: Path,
) -> None:
    mem = build_cited_forgotten_dir(tmp_path)
    listed = run_env("restore", str(mem))
    assert "forgotten, newest first: " in listed.stdout and ".index-line" not in listed.stdout
    out = run_env("restore", str(mem), "kiln.md")
    assert out.returncode == 0, out.stderr
    assert "put back 1 file: kiln.md" in out.stdout
    text = (mem / "MEMORY.md").read_text(encoding="utf-8")
    assert text.endswith("\n" + CITED_KILN_LINE + "\n") and "Cone 6 hold" not in text


def test_restore_dry_run_previews_and_writes_nothing(tmp_path: Path) -> None:
    mem, _old, batch = _rebuilt_dir(tmp_path)
    rebuilt = (mem / "MEMORY.md").read_bytes()
    out = run_env("restore", str(mem), batch, "--dry-run")
    assert out.returncode == 0, out.stderr
    assert "would put back 1 file: MEMORY.md" in out.stdout and "nothing was written" in out.stdout
    assert (mem / "MEMORY.md").read_bytes() == rebuilt
    bare = run_env("restore", str(mem), "--dry-run")
    assert bare.returncode == 2 and "--dry-run previews one batch" in bare.stderr


@pytest.mark.parametrize("args", [("--dry-run",), ("",), (" ",), ("", "--dry-run")])
def test_restore_with_no_batch_selected_says_so_and_names_the_batches_there(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    mem, _old, batch = _rebuilt_dir(tmp_path)
    index = (mem / "MEMORY.md").read_bytes()
    out = run_env("restore", str(mem), *args)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "no batch is selected" in out.stderr and f"newest first: {batch}" in out.stderr
    assert (mem / "MEMORY.md").read_bytes() == index
    empty = tmp_path / "empty"
    empty.mkdir()
    none = run_env("restore", str(empty), *args)
    assert none.returncode == 2 and f"{empty / '.trash'} holds none to restore" in none.stderr


# Imports first (the venv may not be readable by nobody), then drop to nobody when root (root
# writes through chmod), then list the batches and try to restore one, in one process.
_RESTORE_AS_READER = """
import gettext, locale, os, sys
import memdir_nb.cli.restore_command
from memdir_nb.cli.main import main
mem, batch, uid = sys.argv[1], sys.argv[2], int(sys.argv[3])
if uid >= 0:
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
listed = main(["restore", mem])
print("LISTED", listed, flush=True)
print("RESTORED", main(["restore", mem, batch]), flush=True)
"""


def test_restore_lists_batches_of_a_dir_it_cannot_write_and_restoring_still_takes_the_lock() -> (
    None
):
    # listing took the store's write lock, so on a read-only dir it failed with a lock error
    from memdir_nb.toolloop.memory_commands import MemoryDirBackend

    base = Path(tempfile.mkdtemp(prefix="memdir-restore-ro-", dir="/tmp"))
    mem = base / "memory"
    tool = MemoryDirBackend(mem)
    tool.create("/memories/user_a.md", "---\nname: a\ndescription: a\ntype: user\n---\nb\n")
    tool.delete("/memories/user_a.md")
    batch = next((mem / ".trash").iterdir()).name
    (mem / ".memdir.lock").unlink()
    folders = [base, *(p for p in mem.rglob("*") if p.is_dir()), mem]
    for file in (p for p in mem.rglob("*") if p.is_file()):
        file.chmod(0o644)  # the memory tool writes 0600; the reader below may be another user
    try:
        for folder in folders:
            folder.chmod(0o555)
        uid = "65534" if os.geteuid() == 0 else "-1"
        out = subprocess.run(
            [sys.executable, "-c", _RESTORE_AS_READER, str(mem), batch, uid],
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        for folder in folders:
            folder.chmod(0o755)
    listed = sorted(p.name for p in mem.iterdir())
    shutil.rmtree(base)
    assert f"{batch}: would put back user_a.md" in out.stdout and "LISTED 0" in out.stdout, (
        out.stderr
    )
    assert "RESTORED 2" in out.stdout and "cannot create the lock file" in out.stderr
    assert listed == [".trash"]


def test_restore_never_overwrites_an_index_edited_since(tmp_path: Path) -> None:
    mem, _old, batch = _rebuilt_dir(tmp_path)
    edited = (mem / "MEMORY.md").read_text(encoding="utf-8") + "- a line I added by hand\n"
    (mem / "MEMORY.md").write_text(edited, encoding="utf-8")
    out = run_env("restore", str(mem), batch)
    assert out.returncode == 2
    assert (
        f"MEMORY.md changed after {batch} was made" in out.stderr
        and "Nothing was restored" in out.stderr
    )
    assert (mem / "MEMORY.md").read_text(encoding="utf-8") == edited
    assert "Traceback" not in out.stderr


def test_restore_names_the_batches_when_asked_for_one_that_is_not_there(tmp_path: Path) -> None:
    mem, _old, batch = _rebuilt_dir(tmp_path)
    out = run_env("restore", str(mem), "rebuild-index-nope")
    assert out.returncode == 2 and "nothing named 'rebuild-index-nope'" in out.stderr
    assert batch in out.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "holds no batch" in run_env("restore", str(empty)).stdout


def test_restore_lists_n_batches_looking_at_each_batch_a_bounded_number_of_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # attack round 22: the listing previewed each batch with restore(dry_run=True), which
    # listed .trash again (twice) for each: n batches cost about 2n² stats (1,000: 46 s)
    from memdir_nb.storage import fsutil

    mem = tmp_path / "memory"
    n = 40
    for i in range(n):
        batch = mem / ".trash" / f"memory-tool-20261130T0000{i:02d}Z-1-{i:06x}"
        batch.mkdir(parents=True)
        (batch / "manifest.json").write_text(json.dumps({"files": {}}))
    looked: list[object] = []
    real = fsutil.is_regular_file

    def counted(path: Any) -> bool:
        looked.append(path)
        return real(path)

    monkeypatch.setattr(fsutil, "is_regular_file", counted)
    assert main(["restore", str(mem)]) == 0
    listed = capsys.readouterr().out
    assert listed.count(": would put back no file") == n
    assert len(looked) <= 2 * n


@pytest.mark.parametrize(
    "named", ["../../x.md", "/etc/x.md", "", "user_\ud800.md", "linked/user_x.md"]
)
def test_a_manifest_naming_a_file_outside_the_dir_is_its_batchs_refusal_in_the_listing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], named: str
) -> None:
    # attack round 23: one batch whose manifest names a path out of the dir (or a lone
    # surrogate, or a file under a symlinked folder) made `restore DIR` fail whole with "Path
    # ... resolves to ..., outside the memory folder" (or a UnicodeEncodeError's words), so it
    # hid every other batch; it is that batch's refusal, as a manifest of the wrong shape is
    mem = tmp_path / "memory"
    (tmp_path / "elsewhere").mkdir()
    mem.mkdir()
    (mem / "linked").symlink_to(tmp_path / "elsewhere")
    good = mem / ".trash" / "memory-tool-20261130T000000Z-1-000001"
    bad = mem / ".trash" / "memory-tool-20261130T000001Z-1-000002"
    for batch, files in ((good, {}), (bad, {named: {"before": True, "after_sha": None}})):
        batch.mkdir(parents=True)
        (batch / "manifest.json").write_text(json.dumps({"files": files}))
    assert main(["restore", str(mem)]) == 0
    listed = capsys.readouterr().out
    assert f"{good.name}: would put back no file" in listed
    assert f"{bad.name}: cannot be restored" in listed, listed
    assert main(["restore", str(mem), bad.name]) == 2  # restoring it is refused, as before
    said = capsys.readouterr().err
    assert said.startswith("error: ") and said.count("\n") == 1
    assert sorted(p.name for p in mem.iterdir()) == [".memdir.lock", ".trash", "linked"]
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_restore_of_a_name_not_there_names_the_newest_batches_and_counts_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # attack round 22: the error named every batch, one line of 41 KB for 1,000 batches
    mem = tmp_path / "memory"
    for i in range(300):
        batch = mem / ".trash" / f"memory-tool-20261130T00{i // 60:02d}{i % 60:02d}Z-1-{i:06x}"
        batch.mkdir(parents=True)
        (batch / "manifest.json").write_text(json.dumps({"files": {}}))
    assert main(["restore", str(mem), "user_gone.md"]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and len(said) < 1000, said
    assert "memory-tool-20261130T000459Z-1-00012b" in said  # the newest batch is named
    assert "and 290 older" in said


def test_the_restore_listing_names_a_few_files_of_a_big_batch_and_counts_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # attack round 24: each batch's line named every file it would put back; a dream over a
    # 5,000-file dir made one line of 205 KB. The dry run of that batch still names them all.
    mem = tmp_path / "memory"
    batch = mem / ".trash" / "dream-20261130T120000Z-1-abcdef"
    batch.mkdir(parents=True)
    files = {}
    for i in range(300):
        (batch / f"user_{i:03d}.md").write_text("---\nname: x\ndescription: y\ntype: user\n---\n")
        files[f"user_{i:03d}.md"] = {"before": True, "after_sha": None}
    (batch / "manifest.json").write_text(json.dumps({"created_ms": 0, "files": files}))
    assert main(["restore", str(mem)]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert len(line) < 400 and "user_009.md and 290 more" in line, line
    assert "user_010.md" not in line
    assert main(["restore", str(mem), batch.name, "--dry-run"]) == 0
    assert "user_299.md" in capsys.readouterr().out


@pytest.mark.parametrize("words", [["scan"], ["where", "--cwd"], ["replay"]])
def test_a_path_argument_that_cannot_be_looked_at_is_a_usage_error_naming_why(
    words: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # attack round 14: pathlib's is_dir/is_file raise for a name past NAME_MAX (or a folder
    # this user cannot enter), so the argument types ended in an OSError traceback
    from memdir_nb.cli.parsers import build_parser

    too_long = str(tmp_path / ("a" * 300))
    with pytest.raises(SystemExit) as ended:
        build_parser().parse_args([*words, too_long])
    said = capsys.readouterr().err
    assert ended.value.code == 2 and "Traceback" not in said
    # lefts38c: the name's length, the limit and the fix, not the system's bare words
    assert "cannot be looked at: path holds a name of 300 bytes, longer than the system " in said
    assert "(255); give it a shorter name; pass " in said


def test_scan_of_a_dir_past_the_path_limit_says_the_length_the_limit_and_the_fix_quoted_cut(
    tmp_path: Path,
) -> None:
    # lefts38c (§54 left alone): it read "cannot be looked at (File name too long)", quoting
    # the path whole (5 KB), naming neither the length nor the limit
    deep = str(tmp_path) + "/" + "/".join(["a" * 50] * 100)
    said = run_env("scan", deep)
    assert said.returncode == 2 and "Traceback" not in said.stderr
    size = len(os.fsencode(deep))
    assert f"path is {size:,} bytes, longer than the system allows (4,095)" in said.stderr
    assert "move the memory dir nearer the root or give its folders shorter names" in said.stderr
    assert len(said.stderr) < 1_500 and deep not in said.stderr


def test_list_of_a_home_folder_takes_in_the_xdg_claude_home_beside_dot_claude(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    w = make_world(tmp_path, repo=False)
    add_memory(w.memory_dir_for(w.project), "feedback_db.md")
    old = w.home / ".config" / "claude" / "projects" / "-home-me-app" / "memory"
    add_memory(old, "user_role.md", type="user")
    assert main(["list", "--home", str(w.home)]) == 0
    out = capsys.readouterr().out
    assert "2 memory dirs found." in out and str(old) in out


def test_a_locale_that_is_not_utf8_still_reads_accented_memory_names(tmp_path: Path) -> None:
    # LANG=C with Python's UTF-8 coercion off: Python would read file names (and argv) as ASCII,
    # refuse "café_notes.md" as "not valid UTF-8" and fail to print a dash. The command runs
    # again in UTF-8 mode, with the query handed on as the bytes it came as.
    mem = tmp_path / "memory"
    mem.mkdir()
    (mem / "café_notes.md").write_text(
        "---\nname: Café\ndescription: where the team meets — Zürich\ntype: reference\n---\n\nx\n",
        encoding="utf-8",
    )
    env = ASCII_LOCALE
    skip_unless_python_starts(child_env(**env))
    out = run_env("scan", str(mem), env=env)
    assert out.returncode == 0, out.stderr
    assert "café_notes.md" in out.stdout and "where the team meets — Zürich" in out.stdout
    assert "skipped" not in out.stdout + out.stderr


def test_the_utf8_rerun_never_imports_from_the_working_directory(tmp_path: Path) -> None:
    # A console script run in a downloaded project under LANG=C: the run again in UTF-8 mode
    # was `python -m memdir_nb.cli`, which puts the working directory first on sys.path, so
    # the project's own memdir_nb/ ran in place of the installed one (exit 7 below).
    project = tmp_path / "project"
    (project / "memdir_nb" / "cli").mkdir(parents=True)
    planted = "import sys\nsys.exit(7)\n"
    for name in ("__init__.py", "cli/__init__.py", "cli/__main__.py"):
        (project / "memdir_nb" / name).write_text(planted, encoding="utf-8")
    script = tmp_path / "bin" / "memdir-nb"
    script.parent.mkdir()
    script.write_text(
        "import sys\nfrom memdir_nb.cli import main\nsys.exit(main())\n", encoding="utf-8"
    )
    env = child_env(
        HOME="/nonexistent-home",
        LC_ALL="C",
        LANG="C",
        PYTHONUTF8="0",
        PYTHONCOERCECLOCALE="0",
        PYTHONPATH=str(Path(memdir_nb.__file__).parents[1]),
    )
    mem = tmp_path / "memory"
    add_memory(mem, "café_notes.md")
    skip_unless_python_starts(env)
    out = subprocess.run(
        [sys.executable, str(script), "scan", str(mem)],
        cwd=project,
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "café_notes.md".encode() in out.stdout


def test_a_folder_past_the_walks_entry_cap_is_named_as_no_memory_dir_by_lint_scan_and_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "ana"
    for f in range(3):
        (home / f"project{f}").mkdir(parents=True)
        for i in range(5):
            (home / f"project{f}" / f"notes_{i}.md").write_text("plain notes\n")
    (home / "MEMORY.md").write_text("- [Notes](project0/notes_0.md) — kept\n")
    monkeypatch.setattr(listing, "MEMORY_DIR_MAX_ENTRIES", 10)  # the tree holds 19 entries
    assert main(["lint", str(home)]) == 1
    out = capsys.readouterr().out
    assert "[not-a-memory-dir]" in out and "stopped after looking at 10 files and folders" in out
    assert "looks like a home folder" in out and "`memdir-nb where` prints" in out
    assert main(["scan", str(home)]) == 0
    out = capsys.readouterr().out
    assert "skipped .: stopped after looking at 10 files and folders" in out
    before = (home / "MEMORY.md").read_text()
    assert main(["rebuild-index", "--drop-dangling", str(home)]) != 0
    err = capsys.readouterr().err
    assert "cannot rebuild" in err and "stopped after looking at 10" in err
    assert "nothing was written" in err and (home / "MEMORY.md").read_text() == before
    assert not (home / ".trash").exists()


def _cli_under_a_file_size_limit(max_bytes: int, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI with RLIMIT_FSIZE lowered in the child: a write past it fails with EFBIG after
    writing what fits, as one onto a full disk fails with ENOSPC."""
    import resource
    import signal

    def lower() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, resource.RLIM_INFINITY))

    return subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args],
        capture_output=True,
        text=True,
        env=child_env(HOME=str(Path.cwd())),
        timeout=120,
        preexec_fn=lower,
    )


def test_a_write_the_full_disk_stops_says_nothing_was_left_half_written_and_the_fix(
    tmp_path: Path,
) -> None:
    # it printed "error: File too large" (or "No space left on device") and no more: which
    # file, whether the memory dir was now half-rebuilt, what to do (fresh30)
    memory = tmp_path / "memory"
    shutil.copytree(build_demo_memory_dir(tmp_path / "demo", now_ms=NOW_MS), memory)
    (memory / "MEMORY.md").write_text("- my own line, kept\n", "utf-8")
    before = {p: p.read_bytes() for p in memory.rglob("*") if p.is_file()}

    done = _cli_under_a_file_size_limit(8, "rebuild-index", str(memory))

    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "nothing was left half-written" in done.stderr
    assert "free some space" in done.stderr
    assert {p: p.read_bytes() for p in before} == before


def _index_that_is(kind: str, mem: Path) -> None:
    """MEMORY.md as something the store's write refuses to replace."""
    index = mem / "MEMORY.md"
    if kind == "fifo":
        os.mkfifo(index)
    elif kind == "dangling-link":
        index.symlink_to("nowhere.md")
    elif kind == "folder":
        index.mkdir()
    else:  # a link out of the memory dir, to an index shared with another project
        (mem.parent / "common.md").write_text("- my common line\n", "utf-8")
        index.symlink_to("../common.md")


@pytest.mark.parametrize("kind", ["fifo", "dangling-link", "folder", "link-out-of-the-dir"])
def test_rebuild_index_dry_run_refuses_what_the_rebuild_refuses(tmp_path: Path, kind: str) -> None:
    # the preview read such an index as missing and printed "adds 1 entry; every other line is
    # kept as written" with exit 0, while the rebuild itself stopped with exit 2 (fresh30)
    mem = tmp_path / "memory"
    mem.mkdir()
    (mem / "a.md").write_text(
        "---\nname: A\ndescription: alpha\ntype: project\n---\n\nA.\n", "utf-8"
    )
    _index_that_is(kind, mem)
    names = sorted(p.name for p in mem.iterdir())

    preview = run_env("rebuild-index", "--dry-run", str(mem))
    rebuild = run_env("rebuild-index", str(mem))

    assert rebuild.returncode == 2, rebuild.stdout + rebuild.stderr
    assert preview.returncode == 2, preview.stdout
    assert "nothing was written" in preview.stderr and "Traceback" not in preview.stderr
    assert "adds" not in preview.stdout
    assert sorted(p.name for p in mem.iterdir() if p.name != ".memdir.lock") == names


def test_rebuild_index_refuses_an_index_that_is_not_utf8_instead_of_replacing_its_bytes(
    tmp_path: Path,
) -> None:
    # it wrote U+FFFD over the person's Latin-1 "é" and cp1252 dash and said "every other line
    # is kept as written" (the old index only in .trash/); a save refuses such an index (fresh30)
    mem = tmp_path / "memory"
    mem.mkdir()
    for name in ("a", "b"):
        (mem / f"{name}.md").write_text(
            f"---\nname: {name}\ndescription: {name} rule\ntype: project\n---\n\n{name}.\n", "utf-8"
        )
    hand = b"- [a](a.md) \x97 caf\xe9 note\n"
    (mem / "MEMORY.md").write_bytes(hand)

    preview = run_env("rebuild-index", "--dry-run", str(mem))
    rebuild = run_env("rebuild-index", str(mem))

    for done in (preview, rebuild):
        assert done.returncode == 2, done.stdout
        assert "MEMORY.md is not valid UTF-8 text (byte 12)" in done.stderr
    assert (mem / "MEMORY.md").read_bytes() == hand
    assert not (mem / ".trash").exists()


def _dir_with_a_read_skip(root: Path, *, after: int) -> Path:
    """A memory dir whose second-newest candidate is a link the reader refuses (its target is
    past the depth cap), then `after` older memories."""
    mem = root / "memory"
    add_memory(mem, "feedback_newest.md", age_days=1, index=False)
    deep = mem.joinpath(*["d"] * 65)
    add_memory(deep, "user_deep.md", age_days=2, index=False)  # the walk sorts on its time
    (mem / "user_link.md").symlink_to(Path(*["d"] * 65) / "user_deep.md")
    for i in range(after):
        add_memory(mem, f"feedback_old_{i}.md", age_days=3 + i, index=False)
    return mem


def test_the_scan_count_line_calls_a_file_skipped_at_its_read_not_read_not_past_the_cap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # fresh32: "1 memory listed (newest 1 of 2; the rest are past the cap)" on a dir whose
    # second file was skipped at its read: total_found counts every candidate of the walk
    mem = _dir_with_a_read_skip(tmp_path, after=0)
    assert main(["scan", str(mem)]) == 0
    out = capsys.readouterr().out
    assert "1 memory listed (1 of 2; 1 not read: see below)." in out
    assert "past the cap" not in out
    assert "skipped user_link.md: in a folder that is nested 65 folders deep" in out


def test_the_scan_count_line_tells_a_read_skip_and_the_cap_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mem = _dir_with_a_read_skip(tmp_path, after=2)
    assert main(["scan", str(mem), "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert "2 memories listed (newest 2 of 4; 1 past --limit 2, 1 not read: see below)." in out
    assert main(["scan", str(mem), "--limit", "2", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert (payload["total_found"], payload["past_cap"]) == (4, 1)
    assert "user_link.md" in {s["path"] for s in payload["skipped"]}  # beside the deep folder


def test_a_quoted_tilde_path_that_is_not_there_names_the_folder_it_was_read_as(
    tmp_path: Path,
) -> None:
    # fresh32 (security §37's leftover): "'~/mem' is not a directory" named no folder, so a
    # person whose HOME is not what they think could not see where the scan looked
    out = run_env("scan", "~/mem", env={"HOME": str(tmp_path)})
    assert out.returncode == 2
    assert f"'~/mem' was read as {tmp_path / 'mem'} (`~` is the home folder)" in out.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("scan", "~sam/mem"),
        ("index", "~sam/mem"),
        ("recall", "deploy", "--dir", "~sam/mem"),
        ("where", "--cwd", "~sam/src"),
        ("replay", "~sam/session.jsonl"),
    ],
    ids=lambda a: a[0],
)
def test_a_tilde_with_a_user_name_is_said_to_be_taken_literally_with_the_fix(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    # only `~` and `~/` are expanded; a shell would have looked up sam's home for `~sam`
    out = run_env(*args, env={"HOME": str(tmp_path)})
    assert out.returncode == 2
    said = " ".join(out.stderr.split())
    assert "it was taken literally, as a folder named '~sam' in the current folder" in said
    assert "give the full path, or leave the ~sam unquoted so the shell expands it" in said


@pytest.mark.parametrize(
    "args",
    [
        ("export", "--parquet", "{t}/out"),
        ("export", "--archive", "{t}/memory.zip", "--dir", "{mem}"),
        ("import", "{zip}", "--dir", "{t}/moved"),
        ("demo", "{t}/demo"),
    ],
    ids=["export-parquet", "export-archive", "import", "demo"],
)
def test_an_output_path_expands_a_quoted_tilde_and_refuses_a_tilde_user_name(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    # fresh32: `export --parquet '~/out'`, `--archive '~/m.zip'` and `import --dir '~/moved'`
    # took the path literally and wrote a folder named `~` into the current folder
    home, work = tmp_path / "home", tmp_path / "work"
    mem = home / "memory"
    add_memory(mem, "feedback_db.md")
    (home / ".claude" / "projects").mkdir(parents=True)  # a home export --parquet reads
    work.mkdir()
    archive = tmp_path / "memory.zip"
    assert run_env("export", "--archive", str(archive), "--dir", str(mem)).returncode == 0

    def filled(t: str) -> list[str]:
        return [a.format(t=t, mem=mem, zip=archive) for a in args]

    env = {"HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *filled("~")],
        capture_output=True,
        text=True,
        env=child_env(**env),
        cwd=work,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert list(work.iterdir()) == []  # nothing named `~` here
    assert any(p.name not in ("memory", ".claude") for p in home.iterdir())  # written at home
    refused = subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *filled("~sam")],
        capture_output=True,
        text=True,
        env=child_env(**env),
        cwd=work,
        timeout=120,
    )
    assert refused.returncode == 2
    assert "taken literally, as a folder named '~sam'" in " ".join(refused.stderr.split())
    assert list(work.iterdir()) == []


def test_index_on_an_index_that_is_not_utf8_offers_no_rebuild_that_refuses_it(
    tmp_path: Path,
) -> None:
    # fresh32: `index` said "fix: re-save it as UTF-8, or run `memdir-nb rebuild-index DIR`",
    # and that rebuild refuses such an index ("rewriting it would replace the bytes")
    mem = tmp_path / "memory"
    add_memory(mem, "feedback_db.md")
    add_memory(mem, "user_role.md", type="user", index=False)  # a line a rebuild would add
    (mem / "MEMORY.md").write_bytes("- [Café](feedback_db.md) - naïve\n".encode("latin-1"))
    said = run_cli("index", str(mem)).stdout
    assert "rebuild-index refuses it, as rewriting it would replace those bytes" in said
    assert "or run `memdir-nb rebuild-index" not in said
    assert run_cli("rebuild-index", str(mem)).returncode == 2  # as the line says


@pytest.mark.parametrize(
    "args", [("list",), ("sessions",), ("export", "--parquet", "{t}/out")], ids=lambda a: a[0]
)
def test_a_home_with_no_claude_folder_is_said_to_have_none_not_told_to_pass_it(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    # fresh32: on a machine where Claude Code never ran, `list` said "<home>/.claude is not a
    # directory; pass a Claude home ... such as ~/.claude", the folder it had looked for, and
    # `sessions` said the folder that is not there "holds no projects/ folder"
    out = run_env(*(a.format(t=tmp_path) for a in args), env={"HOME": str(tmp_path)})
    assert out.returncode == 2
    said = " ".join(out.stderr.split())
    assert f"there is no Claude home at {tmp_path / '.claude'}" in said
    assert "(--home on the command line)" in said
    assert "such as ~/.claude" not in said and "holds no projects/" not in said


def test_rebuild_index_writes_an_agents_missing_line_to_the_agents_own_index(
    real_dir: Callable[[str], Path],
) -> None:
    # fix35a: the rebuild of an agent memory root added planner's file to the root's index,
    # which no agent loads; it goes to planner/MEMORY.md, whose old text goes to the trash
    parent = real_dir("agent-root-unlisted")
    root_before = (parent / "MEMORY.md").read_text()
    agent_before = (parent / "planner" / "MEMORY.md").read_text()
    line = "- [Freeze window](project_freeze_window.md) \u2014 No merges in the release week"
    preview = run_env("rebuild-index", "--dry-run", str(parent))
    assert preview.returncode == 0, preview.stderr
    assert "+++ b/planner/MEMORY.md" in preview.stdout and f"+{line}" in preview.stdout
    assert "MEMORY.md: up to date" in preview.stdout and "planner/MEMORY.md: adds 1 entry" in (
        preview.stdout
    )
    assert (parent / "planner" / "MEMORY.md").read_text() == agent_before
    written = run_env("rebuild-index", str(parent))
    assert written.returncode == 0, written.stderr
    assert "planner/MEMORY.md: added 1 entry" in written.stdout
    assert (parent / "MEMORY.md").read_text() == root_before
    assert line in (parent / "planner" / "MEMORY.md").read_text()
    (kept,) = (parent / ".trash").glob("rebuild-index-*/planner/MEMORY.md")
    assert kept.read_text() == agent_before
    again = run_env("rebuild-index", "--dry-run", str(parent))
    assert "planner/MEMORY.md" not in again.stdout  # complete: nothing more to say of it
    restored = run_env("restore", str(parent), kept.parent.parent.name)
    assert restored.returncode == 0, restored.stderr
    assert (parent / "planner" / "MEMORY.md").read_text() == agent_before


def test_index_and_scan_say_an_agent_memory_roots_own_index_is_never_loaded(
    real_dir: Callable[[str], Path],
) -> None:
    # realdata33: `index` said "fits both caps: loaded whole" of an index no agent loads
    parent = real_dir("agent-beside-index")
    said = "MEMORY.md here is never loaded"
    index = run_env("index", str(parent))
    assert index.returncode == 0 and said in index.stdout
    assert "loaded whole" not in index.stdout
    assert "`memdir-nb rebuild-index agent-memory/builder`" in index.stdout
    assert said in json.loads(run_env("index", str(parent), "--json").stdout)[0]["note"]
    scan = run_env("scan", str(parent))
    assert scan.returncode == 0 and "2 memories listed." in scan.stdout
    assert f"note: {said}" in scan.stdout and "builder/reference_cache_host.md" in scan.stdout
    agent = run_env("index", str(parent / "planner"))
    assert "loaded whole" in agent.stdout and said not in agent.stdout
    rebuild = run_env("rebuild-index", "--dry-run", str(parent))
    assert rebuild.returncode == 0 and f"note: {said}" in rebuild.stdout
    # lefts38b (real38): the preview gives builder/ the index it loads, not the root a line
    assert (
        "+++ b/builder/MEMORY.md" in rebuild.stdout
        and "builder/MEMORY.md: takes 1 line from the root's index" in rebuild.stdout
    )
    # lefts38c: the preview shows the person's line re-pointed, as the write writes it
    assert "+- [Cache host](reference_cache_host.md) \u2014 runner pool\n" in rebuild.stdout
    assert "+++ b/MEMORY.md" not in rebuild.stdout
    assert not (parent / "builder" / "MEMORY.md").exists()


def test_dream_prints_the_plan_and_its_diff_and_writes_nothing(tmp_path: Path) -> None:
    # fresh36: the dream's plan was reachable only from notebook 07 and the API; a newcomer
    # following the README and --help found no way to see it from the terminal
    mem = tmp_path / "memory"
    mem.mkdir()
    (mem / "project_migration.md").write_text(
        "---\nname: migration\ndescription: ledger v2 migration state\ntype: project\n"
        "modified: 2026-11-23T12:00:00.000Z\n---\n\nDual writes landed last week.\n"
    )
    (mem / "MEMORY.md").write_text(
        "- [Migration](project_migration.md) — dual writes\n- [Old](project_gone.md) — removed\n"
    )
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in mem.iterdir()}
    out = run_cli("dream", str(mem), "--diff")
    assert out.returncode == 0, out.stderr
    assert "[absolute_dates] project_migration.md" in out.stdout
    assert "'last week' -> 'the week of 2026-11-16'" in out.stdout
    assert "-- [Old](project_gone.md) — removed" in out.stdout  # the diff
    assert "2 actions proposed for" in out.stdout and "nothing was written" in out.stdout
    assert f"`memdir-nb restore {mem}` puts it back" in out.stdout
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in mem.iterdir()} == before
    assert "dream" in run_cli("--help").stdout


def test_dream_refuses_a_folder_of_memory_dirs_naming_one_to_pass(tmp_path: Path) -> None:
    for agent in ("reviewer", "tester"):
        d = tmp_path / "agent-memory" / agent
        d.mkdir(parents=True)
        (d / "MEMORY.md").write_text("- [Role](user_role.md) — role\n")
        (d / "user_role.md").write_text("---\nname: role\ntype: user\n---\n\nx\n")
    out = run_cli("dream", str(tmp_path / "agent-memory"))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "cannot plan a consolidation" in out.stderr and "pass agent-memory/<name>" in out.stderr
    assert not (tmp_path / "agent-memory" / "MEMORY.md").exists()


# ---------------------------------------------------------------- fresh38: every refusal names the fix


@pytest.mark.parametrize(
    ("argv", "fix"),
    [
        (["where", "--cwd", "{gone}"], "pass the project folder, the one Claude Code runs in"),
        (["doctor", "--home", "{gone}"], "pass a home folder holding .claude, or a Claude home"),
        (["list", "--home", "{gone}"], "pass a home folder holding .claude, or a Claude home"),
        (["sessions", "--home", "{gone}"], "pass a home folder holding .claude, or a Claude home"),
        (["export", "--parquet", "{tmp}/out", "--home", "{gone}"], "pass a home folder holding"),
        (["where", "--settings", "{gone}"], "pass the JSON file you give Claude Code with"),
        (["replay", "{gone}"], "a <session>.jsonl in ~/.claude/projects/<key>/ (`memdir-nb"),
        (["import", "{gone}", "--dir", "{tmp}/mem"], "pass a zip written by `memdir-nb export"),
    ],
)
def test_a_path_argument_that_is_not_there_is_refused_naming_what_to_pass(
    tmp_path: Path, argv: list[str], fix: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # fresh38: `where --cwd nope`, `list --home nope`, `replay nope.jsonl` and the rest said only
    # "'nope' does not exist" (or "is not a file" of a file that is not there), while every
    # memory dir argument says what to pass and how to find it
    gone = str(tmp_path / "gone")
    words = [w.replace("{gone}", gone).replace("{tmp}", str(tmp_path)) for w in argv]
    with pytest.raises(SystemExit) as exc:
        main(words)
    said = " ".join(capsys.readouterr().err.split())
    assert exc.value.code == 2 and f"'{gone}' does not exist; " in said, said
    assert fix in said
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing written


@pytest.mark.parametrize("command", ["replay", "import"])
def test_a_folder_given_where_a_file_is_wanted_is_called_not_a_file(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = ["--dir", str(tmp_path / "mem")] if command == "import" else []
    with pytest.raises(SystemExit):
        main([command, str(tmp_path), *extra])
    said = " ".join(capsys.readouterr().err.split())
    assert f"'{tmp_path}' is not a file; pass " in said


def test_a_restore_from_a_dir_with_no_batch_refuses_and_writes_nothing_not_even_the_lock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # fresh38: `restore DIR NAME` on a dir without .trash/ said "nothing named" and left
    # .memdir.lock in the dir: the store's lock was taken before the name was looked up
    mem = tmp_path / "mem"
    mem.mkdir()
    (mem / "user_a.md").write_text("---\nname: a\ndescription: a\ntype: user\n---\nb\n")
    for dry in ([], ["--dry-run"]):
        assert main(["restore", str(mem), "dream-20261203", *dry]) == 2
        err = capsys.readouterr().err
        assert "nothing named 'dream-20261203'" in err and "holds no batch" in err
        assert "nothing was restored" in err
        assert sorted(p.name for p in mem.iterdir()) == ["user_a.md"]


def test_recall_with_the_anthropic_selector_and_no_key_names_the_cli_s_own_switch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # fresh38: `recall --selector anthropic` without a key said to use MEMDIR_NB_SELECTOR=semantic,
    # an environment variable, where the command line's switch is --selector semantic
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("MEMDIR_NB_SELECTOR", raising=False)
    mem = tmp_path / "mem"
    mem.mkdir()
    (mem / "user_a.md").write_text("---\nname: a\ndescription: deploys\ntype: user\n---\nb\n")
    assert main(["recall", str(mem), "how do we deploy?", "--selector", "anthropic"]) == 2
    err = capsys.readouterr().err
    assert "ANTHROPIC_API_KEY is not set" in err
    assert "use --selector semantic for the offline selector" in err
    assert "MEMDIR_NB_SELECTOR" not in err


def test_scan_with_a_limit_of_its_own_says_the_rest_are_past_that_limit_not_the_cap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # fresh38: `scan DIR --limit 3` said "the rest are past the cap", which reads as Claude
    # Code's 200-file cap: Claude Code would list them, only this run's --limit left them out
    mem = tmp_path / "mem"
    mem.mkdir()
    for i in range(5):
        (mem / f"user_{i}.md").write_text(f"---\nname: n{i}\ndescription: d{i}\ntype: user\n---\n")
    assert main(["scan", str(mem), "--limit", "3"]) == 0
    assert (
        "3 memories listed (newest 3 of 5; the rest are past --limit 3)." in capsys.readouterr().out
    )
    assert main(["scan", str(mem), "--limit", "200"]) == 0
    assert "5 memories listed." in capsys.readouterr().out


def _sessions_row(tmp_path: Path, marker: str) -> tuple[Path, str, str]:
    """The home built in tmp_path, `sessions`' whole output and the one row naming marker."""
    home = tmp_path / "claude"
    out = run_cli("sessions", "--home", str(home))
    assert out.returncode == 0, out.stderr
    (row,) = [ln for ln in out.stdout.splitlines() if marker in ln]
    return home, out.stdout, row


def _sessions_json(home: Path) -> list[dict[str, Any]]:
    """What `sessions --json` lists for home."""
    out = run_cli("sessions", "--home", str(home), "--json")
    assert out.returncode == 0, out.stderr
    listed: list[dict[str, Any]] = json.loads(out.stdout)
    return listed


def test_sessions_shows_a_sessions_last_recap_made_safe_to_print(tmp_path: Path) -> None:
    # real39: newer Claude Code writes an away_summary recap when the user comes back; the
    # listing showed nothing of it. The record types beside it are no turns.
    build_notices_session(tmp_path)
    home, shown_out, row = _sessions_row(tmp_path, "notices")
    assert " 2 turns" in row and "(recap: Glaze log parser: fixed the cone-6 column;" in row
    assert "\x1b" not in shown_out
    (listed,) = _sessions_json(home)
    assert listed["recap"].startswith("Glaze log parser") and listed["turns"] == 2


def test_sessions_shows_a_sessions_name_and_tag_made_safe_to_print(tmp_path: Path) -> None:
    # real42b: a 2.1.146 background job names itself in an `agent-name` record unlike its
    # ai-title; the listing showed the title only. The name's escape and bidi override are
    # shown as escapes, never sent to the terminal.
    build_metadata_session(tmp_path)
    home, shown_out, row = _sessions_row(tmp_path, "metadata")
    assert "Kiln log cone-6 column  (name: kiln-" in row and "(tag: glaze)" in row
    assert "\x1b" not in shown_out and "\u202e" not in shown_out
    (listed,) = _sessions_json(home)
    assert listed["agent_name"] == "kiln-\x1b[31mnight\u202e-batch" and listed["tag"] == "glaze"


def test_sessions_shows_the_last_prompt_cut_redacted_and_safe_to_print(tmp_path: Path) -> None:
    # sessions44: the `last-prompt` record was counted only. The row shows it on one line,
    # every control and bidi character an escape, the pasted key redacted, cut to 60
    # characters; --json gives it whole (redacted unless --show-secrets).
    build_ledger_session(tmp_path)
    home, shown_out, row = _sessions_row(tmp_path, "ledger")
    shown = row.split("  (last prompt: ", 1)[1]
    assert shown.startswith("Now shrink the kiln photos \\x1b[2J\\u202eagain and upload them")
    assert shown.endswith(" them with \u2026)")  # cut at 60 characters (before escaping)
    assert "\x1b" not in shown_out and "\u202e" not in shown_out
    (listed,) = _sessions_json(home)
    assert listed["last_prompt"].startswith(LEDGER_PROMPT[:40])
    assert PASTED_API_KEY not in listed["last_prompt"] and listed["last_prompt"].endswith(" please")
    shown_all = run_cli("sessions", "--home", str(home), "--json", "--show-secrets").stdout
    assert json.loads(shown_all)[0]["last_prompt"] == LEDGER_PROMPT


def _titled_session(home: Path, *titles: tuple[str, str]) -> None:
    """A home of one session, `titled`, with the (record type, title) records after its turn."""
    folder = home / "projects" / "-c"
    folder.mkdir(parents=True)
    w = RecordWriter("titled", "/c", "2026-05-01T10:00:00.000Z", seed="title")
    w.prompt("make the glaze chart print")
    w.response([{"type": "text", "text": "it prints"}])
    for kind, title in titles:
        field = "customTitle" if kind == "custom-title" else "aiTitle"
        w.bookkeeping(kind, **{field: title, "sessionId": "titled"})
    (folder / "titled.jsonl").write_text(w.text(), encoding="utf-8")


def test_sessions_shows_the_name_the_user_gave_a_session_over_its_ai_title(tmp_path: Path) -> None:
    _titled_session(tmp_path, ("ai-title", "Print the glaze chart"), ("custom-title", "glazes"))
    _, row, _ = _one_listed_session(tmp_path, "titled")
    # then the last prompt typed (this 1-turn file has no last-prompt record: sessions44)
    assert row.endswith(" main          1.1 KB  glazes  (last prompt: make the glaze chart print)")


def test_sessions_shows_a_hostile_title_on_its_row_with_every_control_an_escape(
    tmp_path: Path,
) -> None:
    hostile = "Glaze \x1b]0;pwned\x07chart\rFAKE ROW \u202eevil\u2066 " + "x" * 100
    _titled_session(tmp_path, ("ai-title", hostile))
    lines, row, _ = _one_listed_session(tmp_path, "titled")
    assert len(lines) == 3  # the project, the row, the total: the CR started no row of its own
    # the CR is a line break, made a space (spec.text.one_line); the rest shown as escapes
    assert "Glaze \\x1b]0;pwned\\x07chart FAKE ROW \\u202eevil\\u2066 x" in row
    assert row.endswith("x\u2026  (last prompt: make the glaze chart print)")  # cut to fit
    assert not any(ch in row for ch in "\x1b\x07\r\u202e\u2066")


def test_sessions_json_carries_the_whole_title_of_each_session(tmp_path: Path) -> None:
    long = "Print the glaze chart " + "and its legend " * 10
    _titled_session(tmp_path, ("ai-title", "Glazes"), ("ai-title", long))
    _, row, listed = _one_listed_session(tmp_path, "titled")
    assert listed["title"] == long and "\u2026" in row


def test_restore_previews_then_puts_back_a_forgotten_memory_by_its_name(tmp_path: Path) -> None:
    mem = build_forgotten_dir(tmp_path)
    listed = run_env("restore", str(mem)).stdout
    assert "holds no batch" not in listed and "forgotten, newest first: " in listed
    assert listed.index("-team__glaze.md") < listed.index("-kiln.md")  # newest first
    preview = run_env("restore", str(mem), "team/glaze.md", "--dry-run")
    assert preview.returncode == 0, preview.stderr
    assert "would put back 1 file: team/glaze.md" in preview.stdout
    assert not (mem / "team" / "glaze.md").exists()
    out = run_env("restore", str(mem), "team/glaze.md")
    assert out.returncode == 0, out.stderr
    assert "put back 1 file: team/glaze.md" in out.stdout
    assert "(glaze.md)" in (mem / "team" / "MEMORY.md").read_text()


def test_a_command_started_with_its_output_closed_says_so_and_does_nothing(
    tmp_path: Path,
) -> None:
    dest = tmp_path / "demo"
    shell_closing_stdout = ["/bin/sh", "-c", 'exec "$@" >&-', "sh"]
    proc = subprocess.run(
        [*shell_closing_stdout, sys.executable, "-m", "memdir_nb.cli", "demo", str(dest)],
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(HOME=str(tmp_path / "home")),
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: standard output is closed")
    assert "Traceback" not in proc.stderr
    assert not dest.exists()  # refused before the demo was built, not after


def test_sessions_shows_a_queued_prompt_as_the_last_one_redacted_and_safe_to_print(
    tmp_path: Path,
) -> None:
    # sessions45: a prompt that went through the input queue only (a `-p` run stopped after its
    # enqueue; one typed while the agent worked) was not read: no last prompt was listed
    build_queued_sessions(tmp_path)
    for marker in ("stopped", "absorbed"):
        _, out, row = _sessions_row(tmp_path, marker)
        shown = row.split("  (last prompt: ", 1)[1]
        assert shown.startswith("also rotate \\x1b]8;;http://x.example\\x07this")
        assert "\x1b" not in out and "\u202e" not in out and PASTED_API_KEY[:20] not in out
    listed = _sessions_json(tmp_path / "claude")
    assert len(listed) == 2 and all(s["last_prompt"].startswith("also rotate") for s in listed)
    assert all(PASTED_API_KEY not in s["last_prompt"] for s in listed)


def test_replay_shows_queued_prompts_redacted_and_safe_to_print(tmp_path: Path) -> None:
    stopped, absorbed = build_queued_sessions(tmp_path)
    out = run_cli("replay", str(stopped), "--selector", "lexical")
    assert out.returncode == 0, out.stderr
    (note,) = [ln for ln in out.stdout.splitlines() if "no turn began for" in ln]
    assert note.startswith("1 prompt typed and queued that no turn began for (the transcript")
    assert '"also rotate \\x1b]8;;http://x.example\\x07this' in note
    out = run_cli("replay", str(absorbed), "--selector", "lexical")
    (typed,) = [ln for ln in out.stdout.splitlines() if "typed while the agent worked" in ln]
    assert typed.startswith("      typed while the agent worked: also rotate \\x1b]8;;")
    for text in (out.stdout, run_cli("replay", str(stopped), "--selector", "lexical").stdout):
        assert "\x1b" not in text and "\u202e" not in text and PASTED_API_KEY[:20] not in text
    payload = json.loads(run_cli("replay", str(absorbed), "--selector", "lexical", "--json").stdout)
    (queued,) = payload["turns"][0]["queued_prompts"]
    assert queued.startswith("also rotate \x1b]8;;") and PASTED_API_KEY not in queued
