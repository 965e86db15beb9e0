"""extract/request: the extractor's request and its Claude tool-use loop."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anthropic
import pytest

from memdir_nb.extract import (
    MAX_TURNS,
    ExtractionScheduler,
    make_extractor,
    read_transcript,
    run_extraction,
)
from memdir_nb.home.config import MemdirConfig
from tests.support import write_memory
from tests.support.messages_api import (
    MessagesAPIServer,
    Reply,
    message_body,
    text_reply,
    tool_use_reply,
)
from tests.support.transcripts import numbered_messages

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample_transcript.jsonl"
NOW_MS = 1_774_700_000_000.0


# --------------------------------------------------------------------------- extractor loop


def _client(api: MessagesAPIServer) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="test-key", base_url=api.base_url, max_retries=0)


def _multi_tool_reply(*calls: tuple[str, str, dict[str, Any]]) -> Reply:
    blocks = [
        {"type": "tool_use", "id": cid, "name": name, "input": inp} for cid, name, inp in calls
    ]
    return Reply(200, message_body(blocks, stop_reason="tool_use"))


ONCALL_MEMORY = "---\nname: On-call lead\ndescription: user leads payments on-call until 2026-04-30\ntype: user\n---\n\nPing them first.\n"


def _allowed_and_refused_calls(
    memdir: Path, existing: Path, project: Path, new_file: Path
) -> list[Reply]:
    """The model's script: reads and a memory write that run, an escape and a Bash rm that are refused."""
    return [
        _multi_tool_reply(
            ("t1", "Read", {"file_path": str(existing)}),
            ("t2", "Bash", {"command": f"rm -rf {shlex.quote(str(project))}"}),
            ("t3", "Write", {"file_path": str(project / "evil.md"), "content": "pwned"}),
            ("t4", "Bash", {"command": f"ls {shlex.quote(str(memdir))}"}),
            ("t8", "Read", {"file_path": str(memdir / "MEMORY.md")}),  # before its Edit
        ),
        _multi_tool_reply(
            ("t5", "Write", {"file_path": str(new_file), "content": ONCALL_MEMORY}),
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
    replies = _allowed_and_refused_calls(memdir, existing, project, new_file)
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
    assert new_file.read_text() == ONCALL_MEMORY
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
        result = run_extraction(memdir, numbered_messages(2), client=_client(api))
        count = api.request_count
    assert count == MAX_TURNS == 5
    assert result.turns == 5 and result.hit_turn_cap and result.written == []


def test_extractor_api_error_surfaces_and_scheduler_keeps_cursor(memdir: Path) -> None:
    with MessagesAPIServer() as api:  # default reply: HTTP 500
        sched = ExtractionScheduler(memdir, make_extractor(memdir, client=_client(api)))
        decision = sched.on_turn_end(numbered_messages(2))
    assert decision.action == "failed" and "InternalServerError" in decision.detail
    assert sched.cursor is None
    assert [p.name for p in memdir.iterdir()] == []


# --------------------------------------------------------------------------- client from config


def _config(tmp_path: Path, key: str | None) -> MemdirConfig:
    from memdir_nb.home.config import MemdirConfig

    return MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path, anthropic_api_key=key)


def test_run_extraction_builds_its_client_from_the_config_key(memdir: Path, tmp_path: Path) -> None:
    with MessagesAPIServer([text_reply("Nothing worth saving.")]) as api:
        result = run_extraction(
            memdir,
            numbered_messages(2),
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
                numbered_messages(2),
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


def test_extraction_prompt_asks_for_memory_md_among_the_turn_1_reads(memdir: Path) -> None:
    # keep29: Write refuses a file not Read whole, but turn 1 named only memory files
    from memdir_nb.extract import build_extraction_request

    messages = read_transcript(SAMPLE).messages[-4:]
    for skip_index, named in ((False, True), (True, False)):
        system = build_extraction_request(memdir, messages, skip_index=skip_index)["system"]
        turn_1 = system.split("- Turn 1:", 1)[1].split("- Turn 2:", 1)[0]
        assert ("Read `MEMORY.md` then too, as you will add to it" in turn_1) is named
        assert "written only after this run has Read it whole" in " ".join(turn_1.split())


def test_extraction_prompt_in_skip_index_mode_never_asks_for_an_index_line(memdir: Path) -> None:
    from memdir_nb.extract import build_extraction_request

    messages = read_transcript(SAMPLE).messages[-4:]
    system = build_extraction_request(memdir, messages, skip_index=True)["system"]
    assert "- [Title](file.md)" not in system
    assert "do not\n  create or edit the index" in system


def test_run_extraction_takes_skip_index_from_the_config_flag(memdir: Path, tmp_path: Path) -> None:
    from memdir_nb.home.config import MemdirConfig

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


# --------------------------------------------------------------------------- a new name: (keep35)


def test_an_extractor_edit_of_a_name_tells_the_model_and_the_result_which_links_it_left(
    real_dir: Callable[[str], Path],
) -> None:
    memdir = real_dir("linked-by-name")
    kiln = memdir / "project_kiln_schedule.md"
    linking = {p.name: p.read_bytes() for p in memdir.glob("[fru]*.md")}
    replies = [
        tool_use_reply("Read", {"file_path": str(kiln)}, tool_id="r1"),
        tool_use_reply(
            "Edit",
            {
                "file_path": str(kiln),
                "old_string": "name: firing-calendar",
                "new_string": "name: kiln-days",
            },
            tool_id="e1",
        ),
        text_reply("Renamed the kiln memory."),
    ]
    with MessagesAPIServer(replies) as api:
        result = run_extraction(memdir, numbered_messages(2), client=_client(api), cwd=memdir)
        sent = api.requests[-1].body["messages"][-1]["content"][0]

    assert sent["tool_use_id"] == "e1" and sent["is_error"] is False
    assert sent["content"].startswith(f"Edited {kiln}\n\nNote: 2 memories still link {kiln}, ")
    assert f"{memdir}/feedback_glaze.md ([[firing-calendar]] -> [[kiln-days]])" in (sent["content"])
    assert (
        f"{memdir}/reference_shelf.md ([[Firing-Calendar]] -> [[kiln-days]])" in (sent["content"])
    )
    assert "user_potter" not in sent["content"]  # a link by the stem still finds it
    assert result.notes == [sent["content"].split("Note: ", 1)[1].rsplit(" (Edit", 1)[0]]
    assert {p.name: p.read_bytes() for p in memdir.glob("[fru]*.md")} == linking  # not rewritten
