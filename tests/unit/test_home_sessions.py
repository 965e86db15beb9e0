"""Reading a transcript as a session (every real shape), and listing a Claude home's sessions."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from memdir_nb import read_session
from memdir_nb.formats.transcript_records import RECORD_ID_MAX_CHARS
from memdir_nb.home import sessions as sessions_module
from memdir_nb.home.path_rules import sanitize_path
from memdir_nb.home.sessions import (
    SessionFile,
    _pointers_of_file,
    described,
    iter_session_files,
    list_sessions,
    memory_dir_for_transcript,
    sessions_using,
)
from memdir_nb.spec.constants import (
    SESSION_HEAD_READ_MAX_BYTES,
    SESSION_OTHER_RECORD_TYPES,
    SESSION_RECORD_TYPE_MAX_CHARS,
    SESSION_RECORD_TYPES_MAX,
)
from memdir_nb.storage import line_reader
from memdir_nb.storage.access import ReadRefused
from memdir_nb.storage.line_reader import Line
from memdir_nb.ui.demo.session_records import RecordWriter
from tests.conftest import LEDGER_PROMPT, build_ledger_session, build_moved_subfolder_session
from tests.support.long_paths import padded_path, path_bytes
from tests.support.transcripts import cli_recalled, long_session, pane_teammate

SHAPES = Path(__file__).resolve().parents[1] / "data" / "sessions"
SUBAGENT_MAIN = SHAPES / "c_subagent" / "d41e9b07-2c6f-4a85-9e13-7b0c58f2a6d3.jsonl"
SUBAGENT_FILE = (
    SHAPES
    / "c_subagent"
    / "d41e9b07-2c6f-4a85-9e13-7b0c58f2a6d3"
    / "subagents"
    / "agent-a3f9c21d7e0b54a18.jsonl"
)


def test_every_shape_file_reads_without_an_exception() -> None:
    files = sorted(SHAPES.rglob("*.jsonl"))
    assert len(files) == 10
    for path in files:
        session = read_session(path)
        assert session.turns, path.name


def test_a_turn_is_one_real_prompt_with_its_responses_grouped_by_message_id() -> None:
    s = read_session(SHAPES / "a_plain_session_memory_writes.jsonl")
    assert [t.prompt[:24] for t in s.turns] == [
        "The tide-table import ke",
        "Small fix: it is the sou",
    ]
    first = s.turns[0]
    # thinking, text and two parallel Reads are four records of one API response
    assert first.responses[0].records == 4 and first.responses[0].thinking_blocks == 1
    assert [c.name for c in first.responses[0].tool_calls] == ["Read", "Read"]
    assert len(first.responses) == len({r.message_id for r in first.responses})


def test_parallel_tool_calls_get_their_own_results_by_tool_use_id() -> None:
    s = read_session(SHAPES / "a_plain_session_memory_writes.jsonl")
    reads = s.turns[0].responses[0].tool_calls
    assert reads[0].result.endswith("return row[0], height")
    assert "Harbour data sources" in reads[1].result
    assert all(c.succeeded for c in reads)


def test_session_facts_come_from_the_envelope() -> None:
    s = read_session(SHAPES / "a_plain_session_memory_writes.jsonl")
    assert s.session_id == "3c1d7a52-9e04-4b6f-8d2a-51f0c7e2a9b4"
    assert (s.cwd, s.git_branch, s.version) == ("/home/dana/src/tidepool", "main", "2.1.40")
    assert s.is_sidechain is False and s.problems == []


def test_old_summary_titles_and_new_compaction_records_are_compaction_points() -> None:
    s = read_session(SHAPES / "b_compaction.jsonl")
    kinds = [c.kind for c in s.compactions]
    # the first summary line names a record of another session: not this one's title
    assert kinds == ["summary_title", "compact_boundary", "compact_summary", "microcompact"]
    boundary = s.compactions[1]
    assert (boundary.trigger, boundary.pre_tokens, boundary.before_turn) == ("manual", 131877, 1)
    assert s.titles == ["Chart legend colours and the low-water band"]
    # the summary, the caveat and the /compact wrapper are not prompts
    assert [t.prompt for t in s.turns][1] == "Go ahead with the colour change."
    assert len(s.turns) == 2 and s.turns[1].local_commands == ["/compact keep the colour decisions"]


def test_a_subagent_file_is_a_sidechain_session_with_its_agent_id() -> None:
    s = read_session(SUBAGENT_FILE)
    assert s.is_sidechain and s.agent_id == "a3f9c21d7e0b54a18"
    assert s.session_id == "d41e9b07-2c6f-4a85-9e13-7b0c58f2a6d3"  # the parent's id
    main = read_session(SUBAGENT_MAIN)
    assert not main.is_sidechain and [c.name for c in main.tool_calls] == ["Task"]
    assert len(main.turns) == 1  # progress mirrors of the subagent are not turns


def test_inline_sidechain_records_of_old_files_stay_out_of_the_main_turns() -> None:
    s = read_session(SHAPES / "i_legacy_inline_sidechains.jsonl")
    assert len(s.turns) == 1 and s.sidechain_records == 4 and not s.is_sidechain
    assert [c.name for c in s.turns[0].tool_calls] == ["Task", "Task"]
    assert all(c.succeeded for c in s.turns[0].tool_calls)
    assert s.git_branch == ""


def test_queued_prompts_and_interrupts_are_flags_not_turns() -> None:
    s = read_session(SHAPES / "d_interrupts_and_queue.jsonl")
    assert [t.prompt for t in s.turns] == [
        "Run the slow import test suite and tell me what fails.",
        "skip the chart tests, they need a display",
        "Just summarise the two failures.",
    ]
    first, second, third = s.turns
    assert first.queued_prompts == ["and then run the chart tests too"] and first.interrupted
    assert second.queued and second.interrupted and second.tool_calls[0].is_error  # rejected
    assert third.interrupted and third.responses[-1].synthetic
    assert [t.prompt_id for t in s.turns] == [
        "db301214-f8f0-5d5c-9d9c-82a19c9f9007",
        "a8240da0-c7af-5915-b65b-8da6993960e8",
        "e276d990-8797-5175-8da1-28ed37dfe865",
    ]


def test_bash_mode_and_local_commands_are_listed_on_a_turn_never_taken_as_prompts() -> None:
    s = read_session(SHAPES / "e_bash_mode_and_local_commands.jsonl")
    assert len(s.turns) == 1
    turn = s.turns[0]
    assert turn.kind == "slash_command" and turn.prompt == "/release-notes since 4be1c09"
    assert turn.bash_commands == ["git log --oneline -2"]
    assert turn.local_commands == ["/clear", "/mcp", "/exit"]
    assert turn.bash_mode and turn.local_command


def test_images_are_counted_and_an_image_only_prompt_is_still_a_turn() -> None:
    s = read_session(SHAPES / "f_image_prompts.jsonl")
    assert s.images == 2 and [t.images for t in s.turns] == [1, 1]
    assert s.turns[1].prompt == "" and s.turns[1].kind == "prompt"


def test_a_file_that_starts_mid_session_opens_with_a_continuation_turn() -> None:
    s = read_session(SHAPES / "g_starts_mid_session.jsonl")
    assert [t.kind for t in s.turns] == ["continuation", "prompt"]
    assert s.turns[0].prompt == "" and s.turns[1].prompt == "Commit that with a short message."


def test_glued_records_are_read_and_the_line_is_listed_in_problems() -> None:
    s = read_session(SHAPES / "h_bad_lines.jsonl")
    assert [str(p) for p in s.problems] == ["line 2: 2 records glued on one line; each was read"]
    assert [len(t.responses) for t in s.turns] == [1, 1]


def test_bad_lines_never_stop_the_reading(tmp_path: Path) -> None:
    good = (SHAPES / "f_image_prompts.jsonl").read_text().splitlines()
    lines = [good[0], "{not json", "[" * 3000, '"a string"', "", "\x00\x01", *good[1:]]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    s = read_session(path)
    assert [p.line_no for p in s.problems] == [2, 3, 4, 6]
    assert len(s.turns) == 2


def test_a_line_over_the_line_cap_is_passed_over_and_reported(tmp_path: Path) -> None:
    good = (SHAPES / "f_image_prompts.jsonl").read_text()
    huge = json.dumps({"type": "user", "message": {"role": "user", "content": "x" * 5000}})
    path = tmp_path / "s.jsonl"
    path.write_text(huge + "\n" + good, encoding="utf-8")
    s = read_session(path, max_line_bytes=1000)
    assert s.problems[0].line_no == 1 and "line limit" in s.problems[0].reason
    assert len(s.turns) == 2


def test_a_fifo_is_refused_and_never_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "s.jsonl")
    with pytest.raises(ReadRefused, match="FIFO"):
        read_session(tmp_path / "s.jsonl")


def test_a_missing_file_raises_an_oserror_naming_it(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        read_session(tmp_path / "absent.jsonl")


def _home(tmp_path: Path) -> Path:
    project = tmp_path / "claude" / "projects" / "-home-dana-src-tidepool"
    project.mkdir(parents=True)
    shutil.copy(SHAPES / "a_plain_session_memory_writes.jsonl", project / "3c1d7a52.jsonl")
    shutil.copytree(SHAPES / "c_subagent", project, dirs_exist_ok=True)
    (project / "memory").mkdir()
    (project / "memory" / "x.jsonl").write_text("{}\n")  # not a transcript: inside memory/
    (project / "broken.jsonl").write_text("not json\n")
    return tmp_path / "claude"


def test_listing_a_home_finds_main_and_subagent_transcripts(tmp_path: Path) -> None:
    found = list_sessions(_home(tmp_path))
    by_id = {s.session_id: s for s in found}
    assert set(by_id) == {
        "3c1d7a52",
        "broken",
        "d41e9b07-2c6f-4a85-9e13-7b0c58f2a6d3",
        "agent-a3f9c21d7e0b54a18",
    }
    assert by_id["agent-a3f9c21d7e0b54a18"].is_subagent
    assert not by_id["3c1d7a52"].is_subagent and by_id["3c1d7a52"].turns == 2
    assert by_id["3c1d7a52"].date == "2026-03-09"
    assert by_id["broken"].turns == 0 and by_id["broken"].problems == 1


def test_a_subagent_is_listed_right_after_the_session_that_ran_it(tmp_path: Path) -> None:
    # the <id>/ folder's name is a prefix of <id>.jsonl, so by name alone it came first
    ids = [s.session_id for s in list_sessions(_home(tmp_path), read=False)]
    parent = ids.index("d41e9b07-2c6f-4a85-9e13-7b0c58f2a6d3")
    assert ids[parent + 1] == "agent-a3f9c21d7e0b54a18"


def test_the_memory_dir_of_a_transcript_is_beside_its_project_folder(tmp_path: Path) -> None:
    project = _home(tmp_path) / "projects" / "-home-dana-src-tidepool"
    assert memory_dir_for_transcript(project / "3c1d7a52.jsonl") == project / "memory"
    agent = (
        project
        / "d41e9b07-2c6f-4a85-9e13-7b0c58f2a6d3"
        / "subagents"
        / "agent-a3f9c21d7e0b54a18.jsonl"
    )
    assert memory_dir_for_transcript(agent) == project / "memory"


def test_a_workflow_runs_agents_are_listed_and_use_the_projects_memory(tmp_path: Path) -> None:
    # 2.1.27x: the agents a Workflow script starts are filed one folder per run, below
    # subagents/workflows/, beside the run's journal.jsonl (the script's log, no transcript)
    project = tmp_path / "claude" / "projects" / "-srv-relay"
    (project / "memory").mkdir(parents=True)
    (project / "e7c1.jsonl").write_text(
        json.dumps({"type": "user", "message": {"role": "user", "content": "run the sweep"}}) + "\n"
    )
    run = project / "e7c1" / "subagents" / "workflows" / "wf_3b9d0c21-5aa"
    run.mkdir(parents=True)
    (run / "journal.jsonl").write_text('{"type":"launched"}\n')
    task = {"role": "user", "content": "Count the open tickets."}
    line = {"type": "user", "isSidechain": True, "agentId": "a90c", "message": task}
    (run / "agent-a90c.jsonl").write_text(json.dumps(line) + "\n")
    listed = {s.session_id: s for s in list_sessions(tmp_path / "claude")}
    assert set(listed) == {"e7c1", "agent-a90c"}
    assert listed["agent-a90c"].kind == "subagent" and listed["agent-a90c"].turns == 1
    assert memory_dir_for_transcript(run / "agent-a90c.jsonl") == project / "memory"
    assert {s.session_id for s in sessions_using(project / "memory")} == {"e7c1", "agent-a90c"}


def test_a_session_folder_that_cannot_be_looked_at_is_left_out_and_the_rest_listed(
    tmp_path: Path,
) -> None:
    # A session's <id>/subagents past PATH_MAX (for another user: an <id>/ folder `sudo claude`
    # left, which they cannot enter) raised out of pathlib's is_dir: the whole listing failed
    home = padded_path(tmp_path, 3700, "c") / "claude"
    project = home / "projects" / ("p" * (3900 - path_bytes(home / "projects") - 1))
    project.mkdir(parents=True)
    line = {"type": "user", "message": {"role": "user", "content": "hi"}}
    (project / "e7c1.jsonl").write_text(json.dumps(line) + "\n")
    edge = project / ("s" * (4092 - path_bytes(project) - 1))
    edge.mkdir()
    assert path_bytes(edge) < 4096 <= path_bytes(edge / "subagents")
    assert [s.session_id for s in list_sessions(home)] == ["e7c1"]


def write_big_transcript(path: Path, target_bytes: int) -> int:
    """A transcript of repeated turns with large tool results; returns the number of turns."""
    turns = 0
    blob = "y" * 20_000
    with path.open("w", encoding="utf-8") as out:
        written = 0
        while written < target_bytes:
            lines = [
                {
                    "type": "user",
                    "uuid": f"p{turns}",
                    "message": {"role": "user", "content": f"turn {turns}"},
                },
                {
                    "type": "assistant",
                    "uuid": f"a{turns}",
                    "message": {
                        "id": f"m{turns}",
                        "role": "assistant",
                        "content": [
                            {
                                "type": "tool_use",
                                "id": f"t{turns}",
                                "name": "Read",
                                "input": {"file_path": "/x"},
                            }
                        ],
                    },
                },
                {
                    "type": "user",
                    "uuid": f"r{turns}",
                    "message": {
                        "role": "user",
                        "content": [
                            {"type": "tool_result", "tool_use_id": f"t{turns}", "content": blob}
                        ],
                    },
                },
            ]
            text = "".join(json.dumps(x) + "\n" for x in lines)
            out.write(text)
            written += len(text)
            turns += 1
    return turns


@pytest.mark.slow
def test_a_50_mb_transcript_reads_with_memory_that_does_not_follow_its_size(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    turns = write_big_transcript(path, 50 * 1024 * 1024)
    tracemalloc.start()
    session = read_session(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(session.turns) == turns and session.problems == []
    assert session.bytes_read == path.stat().st_size
    # each kept tool result is cut to a short preview: far below the file's 50 MB
    assert peak < 16 * 1024 * 1024


def _listing_peak_bytes(home: Path, turns: int) -> int:
    """The peak Python memory of listing a home holding one session of `turns` turns."""
    project = home / "projects" / "-home-ana-app"
    project.mkdir(parents=True)
    long_session(project, turns)
    (info,) = iter_session_files(home)
    tracemalloc.start()
    listed = described(info)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert listed.turns == turns and listed.problems == 0
    return peak


def test_listing_a_session_counts_its_turns_without_keeping_them(tmp_path: Path) -> None:
    # `memdir-nb sessions` over a 200,000-turn transcript peaked at 433 MB: every turn was
    # built whole (about 2 KB) to be counted. A count-only read lets each turn go when the
    # next starts; what it keeps per turn is what later records are checked against (each
    # record's uuid and tool_use id as a hash, each prompt's time and text): about 400 bytes
    # here, 600 to 900 at the peak (a table growing holds its old and new copy a moment).
    # The code that built every turn took 2.4 KB a turn.
    small = _listing_peak_bytes(tmp_path / "small", 2_000)
    large = _listing_peak_bytes(tmp_path / "large", 8_000)
    per_turn = (large - small) / 6_000
    assert per_turn < 1_200, f"{per_turn:.0f} bytes a turn"


def test_listing_counts_the_same_turns_and_facts_as_reading_each_shape_file(
    tmp_path: Path,
) -> None:
    shutil.copytree(SHAPES, tmp_path / "projects" / "-home-ana-app")
    shutil.copytree(SHAPES / "c_subagent", tmp_path / "projects" / "-home-ana-api")
    listed = list_sessions(tmp_path)
    assert len(listed) == 10 and {s.kind for s in listed} == {"main", "subagent"}
    for info in listed:
        session = read_session(info.path)
        assert info.turns == len(session.turns), info.path
        assert (info.kind, info.forked_from) == (session.kind, session.forked_from)
        assert info.first_timestamp == session.first_timestamp
        assert info.problems == len(session.problems) + session.more_problems


def test_an_old_style_agent_file_beside_the_sessions_is_listed_as_a_subagent(
    tmp_path: Path,
) -> None:
    project = tmp_path / "projects" / "-p"
    project.mkdir(parents=True)
    shutil.copy(SUBAGENT_FILE, project / "agent-0a1b2c3d.jsonl")
    (found,) = list_sessions(tmp_path)
    assert found.is_subagent and found.turns == 1


def test_a_transcript_past_the_byte_cap_is_cut_at_a_line_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    shutil.copy(SHAPES / "d_interrupts_and_queue.jsonl", path)
    s = read_session(path, max_bytes=3000)
    assert s.bytes_read < path.stat().st_size and len(s.turns) == 1
    assert "only the first 3,000 bytes were read" in s.problems[-1].reason


def _compaction_agent(path: Path, *, agent_id: str | None) -> Path:
    """The CLI's compaction agent: one sidechain prompt asking for a summary, and its answer."""
    w = RecordWriter(
        "55555555-2222", "/c", "2026-02-11T21:59:13.000Z", sidechain=True, agent_id=agent_id
    )
    w.prompt("Your task is to create a detailed summary of the conversation so far")
    w.response([{"type": "text", "text": "<summary>...</summary>"}])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(w.text(), encoding="utf-8")
    return path


def test_the_compaction_agents_file_is_a_compaction_agent_not_a_user_subagent(
    tmp_path: Path,
) -> None:
    project = tmp_path / "projects" / "-c"
    folder = project / "55555555-2222" / "subagents"
    _compaction_agent(folder / "agent-acompact-abc123.jsonl", agent_id="acompact-abc123")
    _compaction_agent(project / "agent-acompact-0d1e2f.jsonl", agent_id=None)  # named only
    shutil.copy(SUBAGENT_FILE, folder / "agent-a3f9c21d7e0b54a18.jsonl")
    for read in (True, False):
        kinds = {s.session_id: (s.kind, s.is_subagent) for s in list_sessions(tmp_path, read=read)}
        assert kinds == {
            "agent-acompact-abc123": ("compaction", False),
            "agent-acompact-0d1e2f": ("compaction", False),
            "agent-a3f9c21d7e0b54a18": ("subagent", True),
        }
    session = read_session(project / "agent-acompact-0d1e2f.jsonl")
    assert session.is_compaction_agent and session.kind == "compaction"
    assert (
        read_session(SUBAGENT_FILE).kind == "subagent"
        and read_session(SUBAGENT_MAIN).kind == "main"
    )


def test_an_agent_the_user_named_like_the_clis_own_agents_is_still_the_users_subagent(
    tmp_path: Path,
) -> None:
    # 2.1.25x files a named agent or teammate as agent-a<name>-<16 hex>.jsonl; the CLI's own
    # agents are agent-a<kind>-<hex> alone, so a name that merely starts like one is the user's.
    folder = tmp_path / "projects" / "-c" / "55555555-2222" / "subagents"
    for name in ("compact-audit", "compactor", "side_question-bot"):
        agent_id = f"a{name}-0123456789abcdef"
        _compaction_agent(folder / f"agent-{agent_id}.jsonl", agent_id=agent_id)
    for read in (True, False):
        assert {(s.kind, s.is_subagent) for s in list_sessions(tmp_path, read=read)} == {
            ("subagent", True)
        }
    session = read_session(folder / "agent-acompact-audit-0123456789abcdef.jsonl")
    assert not session.is_compaction_agent and len(session.turns) == 1


def test_the_prompt_suggestion_agents_file_is_the_clis_own_agent_not_a_user_subagent(
    tmp_path: Path,
) -> None:
    # 2.1.2x writes agent-aprompt_suggestion-<hex>.jsonl beside the session's subagents: the
    # CLI's guess at the user's next prompt, asked with its own "[SUGGESTION MODE: ...]" text.
    folder = tmp_path / "projects" / "-c" / "55555555-2222" / "subagents"
    w = RecordWriter(
        "55555555-2222",
        "/c",
        "2026-02-11T21:59:13.000Z",
        sidechain=True,
        agent_id="aprompt_suggestion-5871f8",
    )
    w.prompt("[SUGGESTION MODE: Suggest what the user might naturally type next.]")
    w.response([{"type": "text", "text": "run the tests"}])
    folder.mkdir(parents=True)
    (folder / "agent-aprompt_suggestion-5871f8.jsonl").write_text(w.text(), encoding="utf-8")
    for read in (True, False):
        (listed,) = list_sessions(tmp_path, read=read)
        assert (listed.kind, listed.is_subagent) == ("suggestion", False)
    assert read_session(folder / "agent-aprompt_suggestion-5871f8.jsonl").kind == "suggestion"


def _session_file(
    project: Path, cwd: str, reads: tuple[str, ...] = (), *, loaded: str | None = None
) -> Path:
    """A two-record transcript run in cwd, whose assistant reads each path of reads; with
    loaded, the CLI's note (2.1.25x) of the instruction files it loaded, that index among them."""
    sid = "5b0e2c41-7a3d-4f69-b1c8-90d2e6f4a713"
    base = {"isSidechain": False, "cwd": cwd, "sessionId": sid, "version": "2.1.90"}
    prompt = {
        **base,
        "type": "user",
        "parentUuid": None,
        "uuid": "u1",
        "timestamp": "2026-10-02T09:00:00.000Z",
        "message": {"role": "user", "content": "Where do the harbour charts come from?"},
    }
    calls = [
        {"type": "tool_use", "id": f"toolu_{i}", "name": "Read", "input": {"file_path": p}}
        for i, p in enumerate(reads)
    ]
    answer = {
        **base,
        "type": "assistant",
        "parentUuid": "u1",
        "uuid": "a1",
        "timestamp": "2026-10-02T09:00:03.000Z",
        "message": {
            "id": "msg_1",
            "role": "assistant",
            "model": "claude-opus-4-6",
            "content": calls,
        },
    }
    files = [{"path": "/Users/dana/.claude/CLAUDE.md", "type": "User", "content": "be brief"}]
    if loaded:
        files.append({"path": loaded, "type": "AutoMem", "content": "- [Charts](charts.md)"})
    note = {**base, "type": "attachment", "attachment": {"type": "instructions", "files": files}}
    project.mkdir(parents=True, exist_ok=True)
    path = project / f"{sid}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (prompt, note, answer)))
    return path


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_session_run_in_a_subfolder_uses_its_git_roots_memory(tmp_path: Path) -> None:
    repo = tmp_path / "src" / "tidepool"
    (repo / "charts").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    projects = tmp_path / "home" / "projects"
    root_memory = projects / sanitize_path(os.path.realpath(repo)) / "memory"
    root_memory.mkdir(parents=True)
    sub_project = projects / sanitize_path(os.path.realpath(repo / "charts"))
    transcript = _session_file(sub_project, str(repo / "charts"))
    session = read_session(transcript)
    assert memory_dir_for_transcript(transcript, session) == root_memory
    # without the session, or when the git root's memory does not exist: beside the transcript
    assert memory_dir_for_transcript(transcript) == sub_project / "memory"
    root_memory.rmdir()
    assert memory_dir_for_transcript(transcript, session) == sub_project / "memory"


def test_a_session_from_another_machine_uses_the_memory_its_tool_calls_name(
    tmp_path: Path,
) -> None:
    projects = tmp_path / "home" / "projects"
    memory = projects / "-Users-dana-src-tidepool" / "memory"
    memory.mkdir(parents=True)
    read = "/Users/dana/.claude/projects/-Users-dana-src-tidepool/memory/charts.md"
    transcript = _session_file(
        projects / "-Users-dana-src-tidepool-charts", "/Users/dana/src/tidepool/charts", (read,)
    )
    assert memory_dir_for_transcript(transcript, read_session(transcript)) == memory


@pytest.mark.parametrize("record", ["relevant_memories", "memory_saved"])
def test_a_session_uses_the_memory_the_clis_own_recall_or_background_save_names(
    tmp_path: Path, record: str
) -> None:
    # with per-turn recall on the CLI loads no index, so no `instructions` note names the dir;
    # its recall record and its extractor's `memory_saved` record name the files it used
    projects = tmp_path / "home" / "projects"
    memory = projects / "-Users-dana-src-tidepool" / "memory"
    memory.mkdir(parents=True)
    named = "/Users/dana/.claude/projects/-Users-dana-src-tidepool/memory/charts.md"
    w = RecordWriter("s", "/Users/dana/src/tidepool/charts", "2026-10-02T09:00:00.000Z")
    w.prompt("Where do the harbour charts come from?")
    if record == "relevant_memories":
        cli_recalled(w, named)
    w.response([{"type": "text", "text": "the harbour office"}])
    if record == "memory_saved":
        w.system("memory_saved", writtenPaths=[named], teamCount=0)
    project = projects / "-Users-dana-src-tidepool-charts"
    project.mkdir(parents=True)
    transcript = project / "s.jsonl"
    transcript.write_text(w.text())
    assert memory_dir_for_transcript(transcript, read_session(transcript)) == memory


def test_a_session_uses_the_memory_index_the_cli_says_it_loaded(tmp_path: Path) -> None:
    # The home folder is itself a git repo, so a session run in ~/src/tidepool is filed under
    # that folder's key but loads the home's memory; 2.1.25x writes which index it loaded.
    projects = tmp_path / "home" / "projects"
    memory = projects / "-Users-dana" / "memory"
    memory.mkdir(parents=True)
    loaded = "/Users/dana/.claude/projects/-Users-dana/memory/MEMORY.md"
    transcript = _session_file(
        projects / "-Users-dana-src-tidepool", "/Users/dana/src/tidepool", loaded=loaded
    )
    session = read_session(transcript)
    assert session.memory_indexes == [loaded]
    assert memory_dir_for_transcript(transcript, session) == memory
    assert [s.path for s in sessions_using(memory)] == [str(transcript)]


def test_a_recorded_memory_path_never_leads_out_of_the_projects_folder(tmp_path: Path) -> None:
    projects = tmp_path / "home" / "projects"
    (tmp_path / "home" / "memory").mkdir(parents=True)  # what "projects/../memory" would reach
    hostile = ("/x/projects/../memory/a.md", "/x/projects/./memory/b.md", "/x/projects/a b/memory/")
    transcript = _session_file(projects / "-srv-app", "/srv/app-not-here", hostile)
    assert memory_dir_for_transcript(transcript, read_session(transcript)) == (
        projects / "-srv-app" / "memory"
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_relative_working_folder_is_not_read_against_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = tmp_path / "src" / "tidepool"
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    projects = tmp_path / "home" / "projects"
    (projects / sanitize_path(os.path.realpath(repo)) / "memory").mkdir(parents=True)
    transcript = _session_file(projects / "-srv-app", ".")
    monkeypatch.chdir(repo)  # "." names this process's folder, which is not the session's
    assert memory_dir_for_transcript(transcript, read_session(transcript)) == (
        projects / "-srv-app" / "memory"
    )


def test_a_recorded_windows_memory_path_under_a_projects_folder_is_found(tmp_path: Path) -> None:
    projects = tmp_path / "home" / "projects"
    memory = projects / "C--Users-dana-projects-app" / "memory"
    memory.mkdir(parents=True)
    read = "C:\\Users\\dana\\projects\\app\\.claude\\projects\\C--Users-dana-projects-app\\memory\\a.md"
    transcript = _session_file(projects / "C--Users-dana-projects-app-web", "C:\\x", (read,))
    assert memory_dir_for_transcript(transcript, read_session(transcript)) == memory


def test_the_sessions_of_a_memory_dir_include_its_subfolders_sessions_that_used_it(
    tmp_path: Path,
) -> None:
    projects = tmp_path / "home" / "projects"
    memory = projects / "-Users-dana-src-tidepool" / "memory"
    memory.mkdir(parents=True)
    own = _session_file(memory.parent, "/Users/dana/src/tidepool")
    read = "/Users/dana/.claude/projects/-Users-dana-src-tidepool/memory/charts.md"
    web = _session_file(
        projects / "-Users-dana-src-tidepool-web", "/Users/dana/src/tidepool/web", (read,)
    )
    # a sibling folder whose name starts the same but whose session used its own memory
    _session_file(projects / "-Users-dana-src-tidepool-old", "/Users/dana/src/tidepool-old")
    os.utime(own, (1_000, 1_000))
    assert [s.path for s in sessions_using(memory)] == [str(web), str(own)]


def test_a_dir_outside_a_claude_home_has_no_sessions(tmp_path: Path) -> None:
    (tmp_path / "mem").mkdir()
    assert sessions_using(tmp_path / "mem") == []


def test_a_subfolder_session_is_read_once_until_its_file_changes(tmp_path: Path) -> None:
    projects = tmp_path / "home" / "projects"
    memory = projects / "-Users-dana-src-tidepool" / "memory"
    memory.mkdir(parents=True)
    read = "/Users/dana/.claude/projects/-Users-dana-src-tidepool/memory/charts.md"
    web = projects / "-Users-dana-src-tidepool-web"
    transcript = _session_file(web, "/Users/dana/src/tidepool/web", (read,))
    assert [s.path for s in sessions_using(memory)] == [str(transcript)]
    reads = _pointers_of_file.cache.misses
    assert [s.path for s in sessions_using(memory)] == [str(transcript)]
    assert _pointers_of_file.cache.misses == reads  # the second listing read nothing
    # rewritten to name no memory path: read again, and no longer this dir's session
    transcript.unlink()
    _session_file(web, "/Users/dana/src/tidepool/web")
    assert sessions_using(memory) == []


def test_a_windows_worktree_session_finds_its_memory_whatever_the_drive_letters_case(
    tmp_path: Path,
) -> None:
    # Windows names files case-insensitively: the main checkout's folder was made as c--…,
    # the worktree's sessions name C--…\memory, and both are one folder there
    projects = tmp_path / "home" / "projects"
    memory = projects / "c--Users-lf-VAULT" / "memory"
    memory.mkdir(parents=True)
    read = "C:\\Users\\lf\\.claude\\projects\\C--Users-lf-VAULT\\memory\\project_sync.md"
    worktree = projects / "C--Users-lf-VAULT--claude-worktrees-eloquent"
    transcript = _session_file(worktree, "C:\\Users\\lf\\VAULT\\.claude\\worktrees\\x", (read,))
    assert memory_dir_for_transcript(transcript, read_session(transcript)) == memory
    assert [s.path for s in sessions_using(memory)] == [str(transcript)]


def test_a_folder_whose_memory_links_to_the_dir_lists_its_sessions_with_the_dirs_own(
    tmp_path: Path,
) -> None:
    # A WorktreeCreate hook (seen in a published home, 2026-07/08) links each linked worktree's
    # project folder to the main checkout's memory: <worktree key>/memory -> ../<main key>/memory.
    # A session in the worktree then reads and writes memory through the link; it used the main
    # dir, and the main dir's sessions are the link's as well: one folder, two names.
    projects = tmp_path / "home" / "projects"
    memory = projects / "-Users-dana-src-tidepool" / "memory"
    memory.mkdir(parents=True)
    own = _session_file(memory.parent, "/Users/dana/src/tidepool")
    linked = projects / "-Users-dana-wt-tidepool-3fa9c01d"  # a worktree outside the checkout
    linked.mkdir()
    (linked / "memory").symlink_to("../-Users-dana-src-tidepool/memory")
    read = f"/Users/dana/.claude/projects/{linked.name}/memory/charts.md"
    through = _session_file(linked, "/Users/dana/wt/tidepool-3fa9c01d", (read,))
    # a folder with a memory dir of its own is not the linked dir's, whatever its name
    _session_file(projects / "-Users-dana-src-tidepool-old", "/Users/dana/src/tidepool-old")
    (projects / "-Users-dana-src-tidepool-old" / "memory").mkdir()
    os.utime(own, (1_000, 1_000))
    assert [s.path for s in sessions_using(memory)] == [str(through), str(own)]
    assert [s.path for s in sessions_using(linked / "memory")] == [str(through), str(own)]


@pytest.mark.parametrize("shape", ["fork", "copied-turn", "plain"])
def test_record_ids_past_the_id_cap_are_not_held(tmp_path: Path, shape: str) -> None:
    # attack round 20: a session kept each copied record's uuid whole (a Desktop fork's prefix,
    # a turn written again) and each turn its last uuid: 120 records of 6 MB uuids held 755 MB
    # read from a 755 MB file; now a uuid longer than RECORD_ID_MAX_CHARS names no record
    own, other = "11111111-2222-3333-4444-555555555555", "99999999-2222-3333-4444-555555555555"
    path = tmp_path / f"{own}.jsonl"
    long_id = "u" * (2 * 1024 * 1024)
    with path.open("w", encoding="utf-8") as f:
        for i in range(10):
            kind = "user" if i % 2 == 0 else "assistant"
            content: object = (
                f"prompt {i // 2}" if kind == "user" else [{"type": "text", "text": "ok"}]
            )
            stamp = f"2026-01-01T00:00:{i:02d}.000Z"
            if shape == "copied-turn" and i >= 4:  # the first two turns written again
                stamp = f"2026-01-01T00:00:{i - 4:02d}.000Z"
                content = f"prompt {(i - 4) // 2}" if kind == "user" else content
            record = {
                "type": kind,
                "sessionId": other if shape == "fork" else own,
                "uuid": f"{i}{long_id}",
                "timestamp": stamp,
                "message": {"role": kind, "content": content},
            }
            f.write(json.dumps(record) + "\n")
        f.write(
            json.dumps(
                {
                    **record,
                    "type": "user",
                    "sessionId": own,
                    "uuid": "mine",
                    "timestamp": "2026-01-01T00:01:00.000Z",
                    "message": {"role": "user", "content": "mine"},
                }
            )
            + "\n"
        )
    tracemalloc.start()
    session = read_session(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    held = sum(map(len, session.copied_uuids)) + sum(len(t.last_uuid or "") for t in session.turns)
    assert held <= RECORD_ID_MAX_CHARS * (len(session.copied_uuids) + len(session.turns))
    assert peak < 4 * len(long_id) + 4 * 1024 * 1024  # one line at a time, not the file's 20 MB


@pytest.mark.parametrize("field", ["timestamp", "promptId", "version", "model", "tool name"])
def test_a_records_fields_past_their_caps_are_not_held(tmp_path: Path, field: str) -> None:
    # attack round 20: turns and answers kept each record's timestamp, promptId, version, model
    # and tool names whole: 60 records of a 6 MB timestamp held 413 MB read from a 360 MB file
    path = tmp_path / "s.jsonl"
    long_text = "9" * (2 * 1024 * 1024)
    with path.open("w", encoding="utf-8") as f:
        for i in range(20):
            kind = "user" if i % 2 == 0 else "assistant"
            message: dict[str, object] = {"role": kind, "content": f"prompt {i}"}
            record = {
                "type": kind,
                "uuid": f"u{i}",
                "message": message,
                "timestamp": f"2026-01-01T00:00:{i:02d}.000Z",
            }
            if kind == "assistant":
                message["content"] = [
                    {"type": "tool_use", "id": f"t{i}", "name": "Read", "input": {}}
                ]
                if field == "model":
                    message["model"] = f"{i}{long_text}"
                if field == "tool name":
                    message["content"][0]["name"] = f"{i}{long_text}"  # type: ignore[index]
            if field in ("timestamp", "promptId", "version"):
                record[field] = f"{record.get(field, '')}{i}{long_text}"
            f.write(json.dumps(record) + "\n")
    tracemalloc.start()
    session = read_session(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(session.turns) == 10 and session.problems == []
    assert peak < 4 * len(long_text) + 4 * 1024 * 1024  # one line at a time, not 40 MB


def test_a_pane_teammates_own_file_is_listed_as_a_teammate_from_the_one_read_of_each_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A teammate run as a process of its own (tmux or iTerm2 pane) has a top-level file whose
    # records carry agentName beside teamName; the lead's carry teamName only.
    project = tmp_path / "claude" / "projects" / "-home-ana-app"
    project.mkdir(parents=True)
    lead = RecordWriter("l1", "/home/ana/app", "2026-09-16T14:00:00.000Z")
    lead.prompt("build a team to survey the code", teamName="lexing")
    lead.response([{"type": "text", "text": "team started"}])
    mate = pane_teammate("t1", "/home/ana/app", "2026-09-16T14:01:00.000Z")
    (project / "l1.jsonl").write_text(lead.text(), encoding="utf-8")
    (project / "t1.jsonl").write_text(mate.text(), encoding="utf-8")
    read: dict[str, int] = {}
    calls: list[str] = []
    real_iter_lines = line_reader.iter_lines

    def counted(path: str, **kw: int) -> Iterator[Line]:
        calls.append(path)
        for line in real_iter_lines(path, **kw):
            read[path] = read.get(path, 0) + line.size
            yield line

    monkeypatch.setattr(sessions_module, "iter_lines", counted)
    found = {s.session_id: s for s in list_sessions(tmp_path / "claude")}
    assert {k: s.kind for k, s in found.items()} == {"l1": "main", "t1": "teammate"}
    assert found["t1"].turns == 1 and not found["t1"].is_subagent
    # the label comes from the one read sessions already made: each file once, no byte twice
    assert sorted(calls) == sorted(str(project / n) for n in ("l1.jsonl", "t1.jsonl"))
    assert read == {
        str(project / n): (project / n).stat().st_size for n in ("l1.jsonl", "t1.jsonl")
    }


def test_listings_that_do_not_read_name_a_pane_teammate_from_its_first_records(
    tmp_path: Path,
) -> None:
    # list_sessions(read=False) and sessions_using (the replay view's session picker) called
    # a pane teammate's own file `main`: its path cannot tell. Its head can: the lead's task,
    # its first record, names the teammate beside its team.
    project = tmp_path / "projects" / "-home-ana-app"
    project.mkdir(parents=True)
    lead = RecordWriter("l1", "/home/ana/app", "2026-09-16T14:00:00.000Z")
    lead.prompt("build a team to survey the code", teamName="lexing")
    lead.response([{"type": "text", "text": "team started"}])
    (project / "l1.jsonl").write_text(lead.text(), encoding="utf-8")
    mate = pane_teammate("t1", "/home/ana/app", "2026-09-16T14:01:00.000Z")
    (project / "t1.jsonl").write_text(mate.text(), encoding="utf-8")
    unread = {s.session_id: s.kind for s in list_sessions(tmp_path, read=False)}
    assert unread == {"l1": "main", "t1": "teammate"}
    picked = {s.session_id: s.kind for s in sessions_using(project / "memory")}
    assert picked == unread
    # the same kinds as reading each file whole
    assert {s.session_id: s.kind for s in list_sessions(tmp_path)} == unread


def test_a_head_that_shows_no_message_is_an_unknown_kind_never_a_guessed_main(
    tmp_path: Path,
) -> None:
    # a first line past the head (a long bookkeeping record) hides whether the file is a
    # lead's or a teammate's: the unread listing says so, and reading it tells
    mate = pane_teammate("t1", "/home/ana/app", "2026-09-16T14:01:00.000Z")
    padding = "x" * (SESSION_HEAD_READ_MAX_BYTES + 10)
    mate.lines.insert(0, json.dumps({"type": "file-history-snapshot", "note": padding}))
    path = tmp_path / "t1.jsonl"
    path.write_text(mate.text(), encoding="utf-8")
    assert sessions_module.head_kind(path) == sessions_module.UNKNOWN_KIND
    assert read_session(path).kind == "teammate"
    # a short file with no message at all ends within the head: main, as reading it says
    path.write_text(json.dumps({"type": "summary", "summary": "t"}) + "\n", encoding="utf-8")
    assert sessions_module.head_kind(path) == read_session(path).kind == "main"
    # a file that is gone between the listing and the look cannot be told
    assert sessions_module.head_kind(tmp_path / "gone.jsonl") == sessions_module.UNKNOWN_KIND


def test_a_transcript_that_cannot_be_read_is_listed_of_unknown_kind(tmp_path: Path) -> None:
    project = tmp_path / "projects" / "-p"
    project.mkdir(parents=True)
    path = project / "s1.jsonl"
    path.write_text("", encoding="utf-8")
    (info,) = iter_session_files(tmp_path, heads=False)
    path.unlink()  # gone before it is read
    listed = described(info)
    assert listed.turns is None and listed.kind == sessions_module.UNKNOWN_KIND


def test_a_transcript_of_100000_distinct_record_types_keeps_a_bounded_count_that_adds_up(
    tmp_path: Path,
) -> None:
    project = tmp_path / "projects" / "-home-ana-app"
    project.mkdir(parents=True)
    path = project / "0d9a3c52-1f5e-4d2b-9a7c-3e1f6b8d2c40.jsonl"
    n = 100_000
    with path.open("w", encoding="utf-8") as out:
        out.writelines(json.dumps({"type": f"crafted-{i}"}) + "\n" for i in range(n))
        out.write(json.dumps({"type": "x" * 5_000}) + "\n")  # one type far past the length cap
    session = read_session(path)
    counts = session.record_counts
    assert len(counts) == SESSION_RECORD_TYPES_MAX + 1  # the first types, and the bucket
    assert sum(counts.values()) == n + 1  # every record still counted
    assert counts[SESSION_OTHER_RECORD_TYPES] == n + 1 - SESSION_RECORD_TYPES_MAX
    assert max(map(len, counts)) <= SESSION_RECORD_TYPE_MAX_CHARS
    # the count-only listing runs the same builder: its memory does not follow the types
    (info,) = iter_session_files(tmp_path)
    tracemalloc.start()
    listed = described(info)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert listed.turns == 0
    assert peak < 4 * 1024 * 1024  # 100,000 kept types peaked at 12.2 MB before the cap


@pytest.mark.parametrize(
    ("mtime_ms", "date"),
    [
        (0.0, "1970-01-01"),
        (1_772_236_799_999.0, "2026-02-27"),  # the last millisecond of a UTC day
        (1_772_236_800_000.0, "2026-02-28"),
        (-1.0, "1969-12-31"),  # before the epoch (a restored file's mtime)
        (253_402_300_799_000.0, "9999-12-31"),
    ],
)
def test_a_session_without_a_timestamp_is_dated_by_its_files_utc_day(
    mtime_ms: float, date: str
) -> None:
    """Session.date takes spec.dates.utc_date (the one home for a UTC calendar day): the same
    string its own strftime gave, on any machine's zone."""
    found = SessionFile("p", "/p/s.jsonl", "s", False, 0, mtime_ms)
    assert found.date == date
    assert (
        SessionFile("p", "/p/s.jsonl", "s", False, 0, mtime_ms, first_timestamp=date + "T01").date
        == date
    )


def test_a_transcript_of_file_snapshots_only_is_dated_by_its_snapshots_not_its_copy(
    tmp_path: Path,
) -> None:
    # real37: a committed ~/.claude held 23 transcripts of nothing but file-history-snapshot
    # records (sessions opened and left before a prompt). Those records carry no top-level
    # timestamp, only their snapshot's, so `sessions` dated each by the file's mtime: on a
    # checkout or copy of the home, today, not the March day the session was opened.
    project = tmp_path / "projects" / "-home-potter-kiln"
    project.mkdir(parents=True)

    def snapshot(at: str) -> dict[str, object]:
        taken = {"messageId": "m1", "trackedFileBackups": {}, "timestamp": at}
        return {"type": "file-history-snapshot", "messageId": "m1", "snapshot": taken}

    path = project / "5c0e2a1d-7b3f-4e6a-9d21-0f8c4b7a3e55.jsonl"
    path.write_text(
        json.dumps(snapshot("2026-03-04T16:58:45Z"))
        + "\n"
        + json.dumps(snapshot("2026-03-04T17:02:00Z"))
        + "\n"
    )
    os.utime(path, (1_780_000_000, 1_780_000_000))  # copied in 2026-05
    (found,) = list_sessions(tmp_path)
    assert (found.turns, found.date) == (0, "2026-03-04")
    session = read_session(path)
    assert (session.first_timestamp, session.last_timestamp) == (
        "2026-03-04T16:58:45Z",
        "2026-03-04T17:02:00Z",
    )


def test_a_moved_projects_subfolder_session_uses_and_is_listed_with_its_git_roots_dir_now(
    tmp_path: Path,
) -> None:
    # its records name `-media-old-kiln/memory` (the git root as it was keyed before the move);
    # no such folder is here and /media/old/kiln/web is on no disk: the key now is the
    # transcript's folder less what `web` adds to the git root's key
    path = build_moved_subfolder_session(tmp_path)
    parent = path.parent.parent / "-srv-work-kiln" / "memory"
    assert memory_dir_for_transcript(path, read_session(path)) == parent
    assert [s.path for s in sessions_using(parent)] == [str(path)]


@pytest.mark.parametrize(
    "claimed", ["hello world, not a time", "9999999-01-01", "\x1b[2J2025-01-01", "2026-13-45"]
)
def test_a_record_time_that_reads_as_no_time_dates_no_session(tmp_path: Path, claimed: str) -> None:
    # attack39: the date was the first ten characters of the first record's `timestamp` text:
    # `sessions` (text and --json) and the replay widget's picker showed "hello worl",
    # "9999999-01" or "\x1b[2J2025-0" as the day a session began; replay reads them as no time
    project = tmp_path / "projects" / "-home-potter-kiln"
    project.mkdir(parents=True)

    def prompt(uuid: str, at: str) -> str:
        message = {"role": "user", "content": "glaze notes"}
        return json.dumps({"type": "user", "uuid": uuid, "timestamp": at, "message": message})

    path = project / "5c0e2a1d-7b3f-4e6a-9d21-0f8c4b7a3e55.jsonl"
    path.write_text(prompt("u1", claimed) + "\n" + prompt("u2", "2026-03-04T16:58:45Z") + "\n")
    (found,) = list_sessions(tmp_path)
    assert (found.first_timestamp, found.date) == ("2026-03-04T16:58:45Z", "2026-03-04")
    path.write_text(prompt("u1", claimed) + "\n")
    os.utime(path, (1_780_000_000, 1_780_000_000))  # no record's time: the file's, 2026-05-28
    (found,) = list_sessions(tmp_path)
    assert (found.first_timestamp, found.date) == (None, "2026-05-28")
    assert SessionFile("p", "/p/s.jsonl", "s", False, 0, 0.0, first_timestamp=claimed).date == (
        "1970-01-01"
    )


def test_a_listing_gives_the_last_prompt_record_else_a_main_sessions_last_typed_prompt(
    tmp_path: Path,
) -> None:
    # sessions44: the `last-prompt` record when there is one (what the CLI's picker shows)...
    path = build_ledger_session(tmp_path)
    (listed,) = list_sessions(tmp_path / "claude")
    assert listed.last_prompt == LEDGER_PROMPT
    # ...else, for a version that wrote none, the last prompt typed; a slash command after it
    # is no typed prompt
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if "last-prompt" not in ln]
    w = RecordWriter("ledger", "/home/ana/pottery", "2026-12-01T09:00:00.000Z", seed="later")
    w.prompt("<command-name>/exit</command-name>\n<command-message>exit</command-message>")
    path.write_text("\n".join(lines + w.lines) + "\n", encoding="utf-8")
    (listed,) = list_sessions(tmp_path / "claude")
    assert listed.last_prompt == "And the stylesheet?"


def test_an_agents_task_is_not_taken_for_the_users_last_prompt(tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "-w" / "main-session" / "subagents"
    folder.mkdir(parents=True)
    w = RecordWriter("main-session", "/w", "2026-12-01T09:00:00.000Z", sidechain=True)
    w.prompt("Find where the kiln log is parsed.")
    w.response([{"type": "text", "text": "In parse.py."}])
    (folder / "agent-a1b2c3.jsonl").write_text(w.text(), encoding="utf-8")
    (listed,) = list_sessions(tmp_path)
    assert listed.kind == "subagent" and listed.last_prompt is None
