"""Attack round 22: a name holding a newline never starts a line of its own, on any route.

The print boundary (security/printed_output) shows every escape sequence as text, but it lets
newlines through: commands print many lines. So a value printed inside one line (a file or
folder name, a trash batch, a project key, a session id, a path a transcript names) must pass
`spec.text.terminal_line` where the line is made; printed raw, a name such as
``x\\nuser_ok.md: fine`` splits its line and forges the next one. Each test puts such names on
one route and reads what the command printed, through `memdir_nb.cli.main.main` as a user runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from memdir_nb.cli.main import main

HEADER = "---\nname: a\ndescription: a memory\ntype: user\n---\nbody\n"
FORGED = "FORGED a line of its own"
NL = "\n" + FORGED  # appended to a name: what follows the newline would start a line


def printed(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Everything the command wrote to stdout and stderr (it must end without a traceback)."""
    status = main(argv)
    out = capsys.readouterr()
    assert status in (0, 1, 2)
    return out.out + out.err


def assert_no_forged_line(text: str) -> None:
    forged = [line for line in text.splitlines() if line.lstrip().startswith("FORGED")]
    assert forged == [], text
    assert "\\x0aFORGED" in text, text  # the name was printed, its newline as a visible escape


@pytest.fixture
def newline_dir(tmp_path: Path) -> Path:
    """A memory dir holding a file, a folder, a team file and a FIFO whose names hold a newline."""
    d = tmp_path / "memory"
    (d / "team").mkdir(parents=True)
    (d / "user_a.md").write_text(HEADER)
    (d / "MEMORY.md").write_text("- [a](user_a.md) — a memory\n")
    (d / f"x{NL}.md").write_text(HEADER)
    (d / f"sub{NL}").mkdir()
    (d / f"sub{NL}" / "user_b.md").write_text(HEADER)
    (d / "team" / f"y{NL}.md").write_text(HEADER)
    os.mkfifo(d / f"fifo{NL}.md")
    return d


@pytest.mark.parametrize("command", ["scan", "lint"])
def test_scan_and_lint_show_a_skipped_name_on_its_own_line(
    command: str, newline_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_no_forged_line(printed([command, str(newline_dir)], capsys))


def test_export_archive_names_what_it_left_out_one_per_line(
    newline_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["export", "--archive", str(tmp_path / "out.zip"), "--dir", str(newline_dir)]
    assert_no_forged_line(printed(argv, capsys))


def test_import_names_each_refused_entry_one_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "shared.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("user_a.md", HEADER)
        z.writestr(f"x{NL}.md", HEADER)
    (tmp_path / "into").mkdir()
    for extra in ([], ["--dry-run"]):
        argv = ["import", "--dir", str(tmp_path / "into"), *extra, str(archive)]
        assert_no_forged_line(printed(argv, capsys))


def test_restore_lists_a_batch_whose_name_holds_a_newline_on_one_line(
    newline_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = newline_dir / ".trash" / f"dream-20261130T000000Z-1-abc{NL}"
    batch.mkdir(parents=True)
    (batch / "manifest.json").write_text(json.dumps({"files": {}}))
    assert_no_forged_line(printed(["restore", str(newline_dir)], capsys))


@pytest.fixture
def newline_home(tmp_path: Path) -> Path:
    """A Claude home whose project key, transcript name, session id and reads hold newlines."""
    home = tmp_path / "claude"
    keyed = home / "projects" / f"-tmp-x{NL}" / "memory"
    keyed.mkdir(parents=True)
    (keyed / "user_a.md").write_text(HEADER)
    project = home / "projects" / "-tmp-proj"
    (project / "memory").mkdir(parents=True)
    (project / "memory" / "user_a.md").write_text(HEADER)
    records = [
        {
            "type": "user",
            "cwd": "/tmp/proj",
            "sessionId": f"s{NL}",
            "uuid": "u1",
            "forkedFrom": {"sessionId": f"p{NL}"},
            "message": {"role": "user", "content": "what do we deploy with"},
        },
        {
            "type": "assistant",
            "sessionId": f"s{NL}",
            "uuid": "u2",
            "parentUuid": "u1",
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "Read",
                        "input": {"file_path": str(project / "memory" / f"z{NL}.md")},
                    }
                ],
            },
        },
    ]
    text = "".join(json.dumps(r) + "\n" for r in records)
    (project / "s1.jsonl").write_text(text)
    (project / f"s2{NL}.jsonl").write_text(text)
    return home


@pytest.mark.parametrize("command", ["list", "sessions"])
def test_home_listings_show_keys_and_session_names_on_one_line(
    command: str, newline_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert_no_forged_line(printed([command, "--home", str(newline_home)], capsys))


def test_replay_shows_a_sessions_id_and_reads_on_one_line(
    newline_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript = newline_home / "projects" / "-tmp-proj" / "s1.jsonl"
    assert_no_forged_line(printed(["replay", str(transcript)], capsys))


@pytest.mark.parametrize("command", ["scan", "lint"])
def test_a_line_separator_in_a_name_never_breaks_a_line_where_the_output_is_shown(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # U+2028 breaks a line in a browser (a notebook's output) and in str.splitlines, which is
    # how this test reads the output; the name gate took it as an ordinary character
    d = tmp_path / "memory"
    d.mkdir()
    (d / "user_a.md").write_text(HEADER)
    (d / f"user_b\u2028{FORGED}.md").write_text(HEADER)
    text = printed([command, str(d)], capsys)
    assert [line for line in text.splitlines() if line.startswith("FORGED")] == [], text
    assert "\\u2028FORGED" in text


def test_an_error_line_is_one_line_whatever_the_names_it_quotes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # attack round 23: main's error line ("error: ...", one line by its own promise) printed
    # the message as it came: `restore DIR BATCH` of a batch whose manifest names a file
    # holding a newline ended "Copy .trash/<batch>/x" and forged the next line
    d = tmp_path / "memory"
    batch = d / ".trash" / "memory-tool-20261130T000001Z-1-000002"
    batch.mkdir(parents=True)
    files = {f"x{NL}.md": {"before": True, "after_sha": None}}
    (batch / "manifest.json").write_text(json.dumps({"files": files}))
    said = printed(["restore", str(d), batch.name], capsys)
    assert said.startswith("error: cannot restore") and said.count("\n") == 1
    assert_no_forged_line(said)
    # a path the user named, holding a newline, is shown escaped too
    odd = tmp_path / f"dir{NL}"
    odd.mkdir()
    assert_no_forged_line(printed(["restore", str(odd), "gone.md"], capsys))


@pytest.mark.parametrize(
    "words",
    [["scan"], ["index"], ["lint"], ["rebuild-index"], ["recall", "--selector", "lexical"]],
    ids=["scan", "index", "lint", "rebuild-index", "recall"],
)
def test_an_agent_dir_named_with_a_newline_stays_inside_the_folder_of_dirs_note(
    words: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # attack round 24: the note about a folder of memory dirs (an agent memory root) names its
    # agents' dirs; scan, index and recall printed it as it came, so an agent dir named
    # `evil\nFORGED…` (a cloned repository's .claude/agent-memory) forged a line
    root = tmp_path / ".claude" / "agent-memory"
    for agent in ("ok", f"evil{NL}"):
        (root / agent).mkdir(parents=True)
        (root / agent / "user_a.md").write_text(HEADER)
        (root / agent / "MEMORY.md").write_text("- [a](user_a.md) — a memory\n")
    (root / "MEMORY.md").write_text("- [ok](ok/MEMORY.md)\n")
    query = ["how do we deploy"] if words[0] == "recall" else []
    assert_no_forged_line(printed([*words, str(root), *query], capsys))


@pytest.mark.parametrize(
    "words",
    [["index"], ["index", "--scope", "team"], ["lint"], ["demo"]],
    ids=["index", "index-no-team", "lint", "demo"],
)
def test_the_memory_dirs_own_path_stays_on_its_line(
    words: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # attack round 24: round 23 kept the path on the error line; index's "private: PATH"
    # and "no team index under PATH", lint's "N errors in PATH" and demo's "ready at PATH"
    # printed it as it came (a project cloned into a folder whose name holds a newline)
    d = tmp_path / f"proj{NL}" / "memory"
    if words[0] != "demo":
        d.mkdir(parents=True)
        (d / "user_a.md").write_text(HEADER)
        (d / "MEMORY.md").write_text("- [a](user_a.md) — a memory\n")
    assert_no_forged_line(printed([words[0], str(d), *words[1:]], capsys))


@pytest.mark.parametrize("route", ["rebuild-index", "rebuild-index-empty", "archive", "parquet"])
def test_the_path_a_command_was_given_stays_on_its_line_when_it_says_what_it_wrote(
    route: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # attack round 26: round 24 kept demo's "ready at PATH" on its line; rebuild-index's
    # "the old index is kept in PATH" and "PATH holds no MEMORY.md", export --archive's
    # "wrote FILE ... from DIR" and export --parquet's "wrote OUT/memories.parquet" did not
    pytest.importorskip("pyarrow") if route == "parquet" else None
    base = tmp_path / f"proj{NL}"
    d = base / ".claude" / "projects" / "-k" / "memory"
    d.mkdir(parents=True)
    if route != "rebuild-index-empty":
        (d / "user_a.md").write_text(HEADER)
        (d / "user_b.md").write_text(HEADER.replace("name: a", "name: b"))
        (d / "MEMORY.md").write_text("- [a](user_a.md) — a memory\n")
    words = {
        "rebuild-index": ["rebuild-index", str(d)],
        "rebuild-index-empty": ["rebuild-index", str(d)],
        "archive": ["export", "--archive", str(base / "m.zip"), "--dir", str(d)],
        "parquet": ["export", "--parquet", str(base / "out"), "--home", str(base / ".claude")],
    }[route]
    assert_no_forged_line(printed(words, capsys))


@pytest.mark.parametrize("command", ["list", "sessions", "where", "doctor"])
def test_a_warning_naming_the_projects_folder_stays_on_one_line(
    command: str, tmp_path: Path
) -> None:
    # attack round 26: a project folder named with a newline, holding a broken settings file
    # and a .git pointer nothing confirms, put a forged line on stderr (the settings problem
    # under list and sessions, the pointer under where) and in where's own git root line.
    # Run as a process: the warnings reach stderr through logging's last-resort handler,
    # which pytest's own log capture replaces in this process.
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    project = tmp_path / f"p{NL}"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text("{bad", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    (project / ".git").write_text(f"gitdir: {tmp_path / 'elsewhere'}\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "MEMDIR_NB_"))}
    done = subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", command],
        cwd=project,
        env={**env, "HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    assert_no_forged_line(done.stdout + done.stderr)
    if command in ("where", "doctor"):  # their report lists the problem: stderr does not repeat it
        assert "not valid JSON" not in done.stderr, done.stderr
