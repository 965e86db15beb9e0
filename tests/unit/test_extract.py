"""extractMemories: tool sandbox, transcript reading, scheduler, and the Claude-driven extractor loop."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import anthropic
import pytest

from memdir_nb.extract import (
    MAX_TURNS,
    ExtractionRequest,
    ExtractionScheduler,
    ToolRunner,
    can_use_tool,
    has_memory_writes_since,
    make_extractor,
    messages_since,
    parse_transcript_lines,
    read_transcript,
    run_extraction,
)
from tests.support import write_memory
from tests.support.messages_api import (
    MessagesAPIServer,
    Reply,
    message_body,
    text_reply,
    tool_use_reply,
)

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample_transcript.jsonl"
SAMPLE_MEMDIR = "/home/dev/.claude/projects/-home-dev-shop/memory"
NOW_MS = 1_774_700_000_000.0


@pytest.fixture()
def memdir(tmp_path: Path) -> Path:
    d = tmp_path / "memory"
    d.mkdir()
    return d


# --------------------------------------------------------------------------- sandbox


@pytest.mark.parametrize("tool", ["Read", "Grep", "Glob"])
def test_read_tools_are_allowed_anywhere(memdir: Path, tool: str) -> None:
    verdict = can_use_tool(tool, {"file_path": "/etc/hostname", "pattern": "x"}, memdir)
    assert verdict.allowed and verdict.reason


@pytest.mark.parametrize(
    "command",
    [
        "ls -la",
        "cat MEMORY.md",
        "grep -rn deploy .",
        "find . -name '*.md' -type f",
        "stat MEMORY.md",
        "wc -l MEMORY.md",
        "head -n 20 a.md",
        "tail -5 a.md",
        "grep -c x a.md | head -1",
        "ls a && cat b",
        "grep 'a|b' f.md",
        "cat missing || ls",
    ],
)
def test_read_only_bash_commands_are_allowed(memdir: Path, command: str) -> None:
    assert can_use_tool("Bash", {"command": command}, memdir).allowed


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("rm -rf /", "not a read-only command"),
        ("cat a | tee b", "'tee' is not a read-only"),
        ("cat a | sh", "'sh' is not a read-only"),
        ("ls > out.txt", "redirection"),
        ("cat a >> b", "redirection"),
        ("grep x < in", "redirection"),
        ("ls 2>&1", "redirection"),
        ("ls; rm a", "';'"),
        ("ls && rm a", "'rm' is not a read-only"),
        ("cat $(echo /etc/passwd)", "command substitution"),
        ("cat `whoami`", "command substitution"),
        ("find . -delete", "-delete"),
        ("find . -exec rm {} +", "-exec"),
        ("find . -exec rm {} ;", "not allowed"),
        ("find . -execdir rm {} +", "-execdir"),
        ("find . -ok rm {} +", "-ok"),
        ("find . -fprint /tmp/x", "-fprint"),
        ("find . -fprintf /tmp/x %p", "-fprint"),
        ("find . -fls /tmp/x", "-fls"),
        ("ls &", "'&'"),
        ("ls 'unclosed", "cannot parse"),
        ("ls\nrm a", "multi-line"),
        ("cat $HOME/.ssh/id_rsa", "variable expansion"),
        ("/bin/rm a", "not a read-only"),
        ("X=1 ls", "not a read-only"),
        ("(ls)", "operator"),
        ("", "non-empty"),
        ("ls |", "ends with an operator"),
    ],
)
def test_unsafe_bash_is_refused_with_the_reason(memdir: Path, command: str, why: str) -> None:
    verdict = can_use_tool("Bash", {"command": command}, memdir)
    assert not verdict.allowed
    assert why in verdict.reason


def test_write_and_edit_inside_memory_dir_are_allowed(memdir: Path) -> None:
    assert can_use_tool(
        "Write", {"file_path": str(memdir / "user_role.md"), "content": "x"}, memdir
    ).allowed
    assert can_use_tool(
        "Edit",
        {"file_path": str(memdir / "MEMORY.md"), "old_string": "a", "new_string": "b"},
        memdir,
    ).allowed
    assert can_use_tool(
        "Write", {"file_path": str(memdir / "team" / "project_x.md"), "content": "x"}, memdir
    ).allowed


@pytest.mark.parametrize(
    "target",
    [
        "../escape.md",
        "/etc/passwd",
        "{m}/../outside.md",
        "{m}-evil/x.md",
        "{m}",
        "relative.md",
        "{m}/.trash/x.md",
        "{m}/.consolidate-lock",
    ],
)
def test_write_outside_or_to_bookkeeping_files_is_refused(memdir: Path, target: str) -> None:
    path = target.format(m=memdir)
    verdict = can_use_tool("Write", {"file_path": path, "content": "x"}, memdir)
    assert not verdict.allowed, path
    assert "Write" in verdict.reason


def test_write_through_a_symlink_leading_out_is_refused(memdir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (memdir / "link").symlink_to(outside, target_is_directory=True)
    verdict = can_use_tool(
        "Write", {"file_path": str(memdir / "link" / "x.md"), "content": "x"}, memdir
    )
    assert not verdict.allowed and "symlink" in verdict.reason


def test_team_write_holding_a_secret_is_refused(memdir: Path) -> None:
    content = "Deploy key: AKIAIOSFODNN7EXAMPLE and aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    verdict = can_use_tool(
        "Write",
        {"file_path": str(memdir / "team" / "reference_aws.md"), "content": content},
        memdir,
    )
    assert not verdict.allowed and "secret" in verdict.reason


@pytest.mark.parametrize(
    "tool", ["WebFetch", "Agent", "NotebookEdit", "MultiEdit", "mcp__github__create_issue", "bash"]
)
def test_every_other_tool_is_denied(memdir: Path, tool: str) -> None:
    verdict = can_use_tool(tool, {"file_path": str(memdir / "a.md")}, memdir)
    assert not verdict.allowed and "not available" in verdict.reason


def test_non_mapping_input_is_denied(memdir: Path) -> None:
    assert not can_use_tool("Read", ["file_path"], memdir).allowed  # type: ignore[arg-type]


# --------------------------------------------------------------------------- transcript


def test_sample_transcript_parses_messages_and_counts_other_records() -> None:
    transcript = read_transcript(SAMPLE)
    assert transcript.problems == []
    assert transcript.other_records == 3  # summary, file-history-snapshot, system
    assert len(transcript.messages) == 24
    assert {m.type for m in transcript.messages} == {"user", "assistant"}
    first = transcript.messages[0]
    assert first.parent_uuid is None and first.session_id and first.line_no == 2
    assert all(
        b.parent_uuid == a.uuid
        for a, b in zip(transcript.messages, transcript.messages[1:], strict=False)
        if b.parent_uuid == a.uuid
    )


def test_bad_lines_are_reported_by_line_number_and_the_rest_is_kept() -> None:
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    lines.insert(4, "{not json")
    lines.insert(6, "[1, 2]")
    lines.insert(8, json.dumps({"type": "user", "message": {"role": "user", "content": "x"}}))
    transcript = parse_transcript_lines(lines)
    assert [p.line_no for p in transcript.problems] == [5, 7, 9]
    assert "not JSON" in str(transcript.problems[0]) and str(transcript.problems[0]).startswith(
        "line 5:"
    )
    assert "uuid" in transcript.problems[2].reason
    assert len(transcript.messages) == 24


def test_has_memory_writes_since_sees_the_main_agents_write_into_memory_dir() -> None:
    messages = read_transcript(SAMPLE).messages
    assert has_memory_writes_since(messages, None, SAMPLE_MEMDIR)
    edit_index = next(
        i
        for i, m in enumerate(messages)
        if any(b.get("name") == "Edit" and "MEMORY.md" in json.dumps(b) for b in m.blocks())
    )
    # after the memory writes only a project-file Edit follows, which does not count
    assert not has_memory_writes_since(messages, messages[edit_index].uuid, SAMPLE_MEMDIR)
    assert has_memory_writes_since(messages, messages[edit_index - 1].uuid, SAMPLE_MEMDIR)
    assert not has_memory_writes_since(messages, None, "/home/dev/other-project/memory")


def test_cursor_that_is_no_longer_in_the_transcript_means_all_messages() -> None:
    messages = read_transcript(SAMPLE).messages
    assert messages_since(messages, "gone-after-compaction") == messages
    assert messages_since(messages, messages[-1].uuid) == []


# --------------------------------------------------------------------------- scheduler


def _msgs(n: int, start: int = 0) -> list:
    lines = [
        json.dumps(
            {
                "type": "user" if i % 2 == 0 else "assistant",
                "uuid": f"u{i}",
                "message": {
                    "role": "user" if i % 2 == 0 else "assistant",
                    "content": f"message {i}",
                },
            }
        )
        for i in range(start, start + n)
    ]
    return parse_transcript_lines(lines).messages


def test_scheduler_skips_and_advances_cursor_when_main_agent_wrote_memory() -> None:
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(SAMPLE_MEMDIR, calls.append)
    messages = read_transcript(SAMPLE).messages
    decision = sched.on_turn_end(messages)
    assert decision.action == "skipped_main_agent_wrote"
    assert "reference_sandbox_gateway.md" in decision.detail
    assert calls == [] and sched.cursor == messages[-1].uuid
    more = messages + _msgs(2, 100)
    decision = sched.on_turn_end(more)
    assert decision.action == "ran"
    assert [m.uuid for m in calls[0].new_messages] == ["u100", "u101"]
    assert sched.cursor == "u101"


def test_scheduler_runs_on_new_messages_and_has_nothing_to_do_twice(memdir: Path) -> None:
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append)
    msgs = _msgs(4)
    assert sched.on_turn_end(msgs).action == "ran"
    assert sched.on_turn_end(msgs).action == "nothing_new"
    assert len(calls) == 1 and len(calls[0].new_messages) == 4


def test_turn_throttling_runs_every_nth_turn_with_all_messages_since_cursor(memdir: Path) -> None:
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append, turns_between=3)
    msgs = _msgs(2)
    actions = []
    for turn in range(6):
        msgs = msgs + _msgs(2, 10 + 2 * turn)
        actions.append(sched.on_turn_end(msgs).action)
    assert actions == ["throttled", "throttled", "ran", "throttled", "throttled", "ran"]
    assert len(calls[0].new_messages) == 8  # the first 2 + three turns of 2
    assert len(calls[1].new_messages) == 6


def test_bad_turns_between_is_refused(memdir: Path) -> None:
    with pytest.raises(ValueError, match="turns_between"):
        ExtractionScheduler(memdir, lambda r: None, turns_between=0)


def test_requests_during_a_run_coalesce_into_one_trailing_run_with_the_latest(memdir: Path) -> None:
    started, release = threading.Event(), threading.Event()
    seen: list[ExtractionRequest] = []

    def slow_extract(request: ExtractionRequest) -> None:
        seen.append(request)
        if len(seen) == 1:
            started.set()
            assert release.wait(10)

    sched = ExtractionScheduler(memdir, slow_extract)
    first = _msgs(2)
    worker = threading.Thread(target=sched.on_turn_end, args=(first,))
    worker.start()
    assert started.wait(10)
    assert sched.in_progress
    second, third = first + _msgs(2, 2), first + _msgs(4, 2)
    assert sched.on_turn_end(second).action == "queued"
    queued = sched.on_turn_end(third)
    assert queued.action == "queued" and "replaced" in queued.detail
    release.set()
    worker.join(10)
    assert not sched.in_progress
    assert len(seen) == 2  # the first run and one trailing run; the middle request was overwritten
    assert seen[1].is_trailing
    assert [m.uuid for m in seen[1].new_messages] == ["u2", "u3", "u4", "u5"]
    assert sched.cursor == "u5"


def test_failed_run_keeps_the_cursor_so_the_next_turn_retries(memdir: Path) -> None:
    attempts: list[int] = []

    def flaky(request: ExtractionRequest) -> None:
        attempts.append(len(request.new_messages))
        if len(attempts) == 1:
            raise ConnectionError("API unreachable")

    sched = ExtractionScheduler(memdir, flaky)
    decision = sched.on_turn_end(_msgs(2))
    assert decision.action == "failed" and "API unreachable" in decision.detail
    assert sched.cursor is None and not sched.in_progress
    assert sched.on_turn_end(_msgs(3)).action == "ran"
    assert attempts == [2, 3]


def test_scheduler_reads_a_transcript_with_a_broken_line_and_reports_it(
    memdir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "session.jsonl"
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    lines.insert(3, '{"type": "user", "message": ')  # a torn write
    path.write_text("\n".join(lines), encoding="utf-8")
    calls: list[ExtractionRequest] = []
    sched = ExtractionScheduler(memdir, calls.append)
    assert sched.on_transcript(path).action == "ran"
    assert [p.line_no for p in sched.problems] == [4]
    assert len(calls[0].new_messages) == 24


# --------------------------------------------------------------------------- extractor loop


def _client(api: MessagesAPIServer) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="test-key", base_url=api.base_url, max_retries=0)


def _multi_tool_reply(*calls: tuple[str, str, dict]) -> Reply:
    blocks = [
        {"type": "tool_use", "id": cid, "name": name, "input": inp} for cid, name, inp in calls
    ]
    return Reply(200, message_body(blocks, stop_reason="tool_use"))


def test_extractor_runs_allowed_tools_and_returns_refusals_as_errors(
    memdir: Path, tmp_path: Path
) -> None:
    existing = write_memory(
        memdir,
        "feedback_testing.md",
        name="No mocks",
        description="tests hit real services",
        type="feedback",
        body="Use the sandbox, not mocks.",
        now_ms=NOW_MS,
    )
    (memdir / "MEMORY.md").write_text(
        "- [No mocks](feedback_testing.md) — tests hit real services\n"
    )
    project = tmp_path / "project"
    project.mkdir()
    victim = project / "keep.txt"
    victim.write_text("precious")
    new_file = memdir / "user_oncall.md"
    content = "---\nname: On-call lead\ndescription: user leads payments on-call until 2026-04-30\ntype: user\n---\n\nPing them first.\n"
    replies = [
        _multi_tool_reply(
            ("t1", "Read", {"file_path": str(existing)}),
            ("t2", "Bash", {"command": f"rm -rf {project}"}),
            ("t3", "Write", {"file_path": str(project / "evil.md"), "content": "pwned"}),
            ("t4", "Bash", {"command": f"ls {memdir}"}),
        ),
        _multi_tool_reply(
            ("t5", "Write", {"file_path": str(new_file), "content": content}),
            (
                "t6",
                "Edit",
                {
                    "file_path": str(memdir / "MEMORY.md"),
                    "old_string": "real services\n",
                    "new_string": "real services\n- [On-call lead](user_oncall.md) — payments on-call until 2026-04-30\n",
                },
            ),
            ("t7", "Write", {"file_path": str(memdir / ".." / "escape.md"), "content": "x"}),
        ),
        text_reply("Saved one user memory."),
    ]
    messages = read_transcript(SAMPLE).messages[-4:]
    with MessagesAPIServer(replies) as api:
        result = run_extraction(memdir, messages, client=_client(api), cwd=project)
        requests = [r.body for r in api.requests]
    assert (
        result.turns == 3
        and not result.hit_turn_cap
        and result.final_text == "Saved one user memory."
    )
    assert victim.read_text() == "precious"
    assert sorted(p.name for p in project.iterdir()) == ["keep.txt"]
    assert not (tmp_path / "escape.md").exists()
    assert new_file.read_text() == content
    assert "user_oncall.md" in (memdir / "MEMORY.md").read_text()
    assert sorted(Path(p).name for p in result.written) == ["MEMORY.md", "user_oncall.md"]
    assert [name for name, _, _ in result.refused] == ["Bash", "Write", "Write"]

    # what the model saw: the manifest in the system prompt, the excerpt, and error tool_results
    assert (
        "feedback_testing.md" in requests[0]["system"]
        and "tests hit real services" in requests[0]["system"]
    )
    assert "last ~4 messages" in requests[0]["system"]
    assert "merge freeze" in requests[0]["messages"][0]["content"]
    assert {t["name"] for t in requests[0]["tools"]} == {
        "Read",
        "Grep",
        "Glob",
        "Bash",
        "Write",
        "Edit",
    }
    results = {b["tool_use_id"]: b for b in requests[1]["messages"][-1]["content"]}
    assert (
        results["t1"]["is_error"] is False
        and "Use the sandbox, not mocks." in results["t1"]["content"]
    )
    assert results["t2"]["is_error"] is True and "Permission denied" in results["t2"]["content"]
    assert results["t3"]["is_error"] is True
    assert results["t4"]["is_error"] is False and "feedback_testing.md" in results["t4"]["content"]


def test_extractor_stops_at_five_turns(memdir: Path) -> None:
    looping = tool_use_reply("Glob", {"pattern": "*.md", "path": str(memdir)})
    with MessagesAPIServer(default=looping) as api:
        result = run_extraction(memdir, _msgs(2), client=_client(api))
        count = api.request_count
    assert count == MAX_TURNS == 5
    assert result.turns == 5 and result.hit_turn_cap and result.written == []


def test_extractor_api_error_surfaces_and_scheduler_keeps_cursor(memdir: Path) -> None:
    with MessagesAPIServer() as api:  # default reply: HTTP 500
        sched = ExtractionScheduler(memdir, make_extractor(memdir, client=_client(api)))
        decision = sched.on_turn_end(_msgs(2))
    assert decision.action == "failed" and "InternalServerError" in decision.detail
    assert sched.cursor is None
    assert [p.name for p in memdir.iterdir()] == []


def test_runner_edit_refuses_ambiguous_or_missing_text_and_leaves_file(memdir: Path) -> None:
    target = memdir / "a.md"
    target.write_text("x\nx\n")
    runner = ToolRunner(memdir)
    out = runner.run("Edit", {"file_path": str(target), "old_string": "x", "new_string": "y"})
    assert out.is_error and "occurs 2 times" in out.content
    out = runner.run("Edit", {"file_path": str(target), "old_string": "zzz", "new_string": "y"})
    assert out.is_error and "not found" in out.content
    assert target.read_text() == "x\nx\n"


def test_runner_bash_chains_follow_shell_rules_without_a_shell(memdir: Path) -> None:
    (memdir / "a.md").write_text("alpha\nbeta\n")
    runner = ToolRunner(memdir)
    assert runner.run("Bash", {"command": "cat a.md | grep beta | wc -l"}).content.strip() == "1"
    out = runner.run("Bash", {"command": "ls missing && cat a.md && cat a.md"}).content
    assert "alpha" not in out and "[exit code" in out
    assert "alpha" in runner.run("Bash", {"command": "ls missing || cat a.md"}).content


# --------------------------------------------------------------------------- client from config


def _config(tmp_path: Path, key: str | None):
    from memdir_nb.config import MemdirConfig

    return MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path, anthropic_api_key=key)


def test_run_extraction_builds_its_client_from_the_config_key(memdir: Path, tmp_path: Path) -> None:
    with MessagesAPIServer([text_reply("Nothing worth saving.")]) as api:
        result = run_extraction(
            memdir,
            _msgs(2),
            config=_config(tmp_path, "sk-from-config"),
            client_options={"base_url": api.base_url, "max_retries": 0},
        )
        sent = api.requests[0]
    assert result.turns == 1 and result.final_text == "Nothing worth saving."
    # SDK versions differ in the header they put the key in; either way it is the config's key
    assert "sk-from-config" in (
        sent.headers.get("x-api-key"),
        sent.headers.get("authorization", "").removeprefix("Bearer "),
    )


def test_run_extraction_without_client_or_key_names_the_variable_and_sends_nothing(
    memdir: Path, tmp_path: Path
) -> None:
    from memdir_nb.extract import MissingAPIKeyError

    with MessagesAPIServer() as api:
        with pytest.raises(MissingAPIKeyError, match="ANTHROPIC_API_KEY"):
            run_extraction(
                memdir,
                _msgs(2),
                config=_config(tmp_path, None),
                client_options={"base_url": api.base_url},
            )
        assert api.request_count == 0
    assert list(memdir.iterdir()) == []


def test_make_extractor_without_key_fails_when_made_not_on_the_first_turn(
    memdir: Path, tmp_path: Path
) -> None:
    from memdir_nb.extract import MissingAPIKeyError

    with pytest.raises(MissingAPIKeyError, match="ANTHROPIC_API_KEY"):
        make_extractor(memdir, config=_config(tmp_path, ""))


def test_built_request_is_exactly_what_the_first_call_sends(memdir: Path) -> None:
    from memdir_nb.extract import build_extraction_request

    write_memory(
        memdir,
        "feedback_testing.md",
        name="No mocks",
        description="tests hit real services",
        type="feedback",
        now_ms=NOW_MS,
    )
    messages = read_transcript(SAMPLE).messages[-4:]
    request = build_extraction_request(memdir, messages, model="claude-test-model", max_tokens=321)
    with MessagesAPIServer([text_reply("ok")]) as api:
        run_extraction(
            memdir, messages, client=_client(api), model="claude-test-model", max_tokens=321
        )
        body = api.requests[0].body
    assert body == json.loads(json.dumps(request))
    assert set(request) == {"model", "max_tokens", "system", "messages", "tools"}


def test_build_request_with_no_messages_is_refused(memdir: Path) -> None:
    from memdir_nb.extract import build_extraction_request

    with pytest.raises(ValueError, match="no new messages"):
        build_extraction_request(memdir, [])


# ---- realdirs: the extraction request follows the skip-index flag, as the prompts do


def test_extraction_prompt_asks_for_an_index_line_by_default(memdir: Path) -> None:
    from memdir_nb.extract import build_extraction_request

    messages = read_transcript(SAMPLE).messages[-4:]
    system = build_extraction_request(memdir, messages)["system"]
    assert "MEMORY.md" in system
    assert "- [Title](file.md)" in system


def test_extraction_prompt_in_skip_index_mode_never_asks_for_an_index_line(memdir: Path) -> None:
    from memdir_nb.extract import build_extraction_request

    messages = read_transcript(SAMPLE).messages[-4:]
    system = build_extraction_request(memdir, messages, skip_index=True)["system"]
    assert "- [Title](file.md)" not in system
    assert "do not\n  create or edit the index" in system


def test_run_extraction_takes_skip_index_from_the_config_flag(memdir: Path, tmp_path: Path) -> None:
    from memdir_nb.config import MemdirConfig

    for flag, expect_line in ((True, False), (False, True)):
        config = MemdirConfig.for_tests(
            home=tmp_path / "home", cwd=tmp_path, flags={"skip_index": flag}
        )
        with MessagesAPIServer([text_reply("Nothing worth saving.")]) as api:
            run_extraction(
                memdir, read_transcript(SAMPLE).messages[-4:], client=_client(api), config=config
            )
            system = api.requests[0].body["system"]
        assert ("- [Title](file.md)" in system) is expect_line
