"""Replaying a session turn by turn against the memory dir as it stood at each turn."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memdir_nb import replay_session
from memdir_nb.recall.lexical import LexicalSelector
from memdir_nb.reports.replay import NotATranscriptError, iter_turn_lines
from memdir_nb.ui.demo.session import SAMPLE_NOW_MS, DemoSession, build_demo_session
from memdir_nb.ui.demo.session_records import RecordWriter
from tests.conftest import build_moved_home_session, build_moved_subfolder_session
from tests.support.child_env import child_env
from tests.support.transcripts import (
    api_error_reply,
    cli_recalled,
    fork_of,
    long_results_session,
    long_session,
    many_cli_picks,
    refused_answer,
    rewritten_on_resume,
    superseding,
)

SHAPES = Path(__file__).resolve().parents[1] / "data" / "sessions"


@pytest.fixture
def sample(tmp_path: Path) -> DemoSession:
    return build_demo_session(tmp_path / "claude")


def test_a_memory_written_mid_session_is_never_recalled_before_it_exists(
    sample: DemoSession,
) -> None:
    replay = replay_session(
        sample.transcript, sample.memory_dir, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    freeze = "project_release_freeze.md"
    assert [freeze in t.existing for t in replay.turns] == [
        False,
        False,
        True,
        True,
        True,
        True,
        True,
    ]
    assert replay.turns[1].agent_wrote == [freeze]
    # against today's dir, a naive replay would have offered it in turn 1
    assert all(freeze not in t.surfaced_names for t in replay.turns[:2])


def test_a_file_removed_later_exists_in_the_earlier_turns_with_its_text(
    sample: DemoSession,
) -> None:
    replay = replay_session(
        sample.transcript, sample.memory_dir, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    staging = "project_staging_host.md"
    assert [staging in t.existing for t in replay.turns] == [True] * 5 + [False, False]
    assert replay.turns[4].agent_wrote == ["project_ci_runners.md", staging]
    assert all(staging not in t.uncertain for t in replay.turns)


def test_per_memory_caps_cut_a_long_memory_and_the_turn_says_so(sample: DemoSession) -> None:
    replay = replay_session(
        sample.transcript, sample.memory_dir, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    image_turn = replay.turns[3]
    assert "images" in image_turn.flags and "command" in image_turn.flags
    assert image_turn.capped == ["reference_api_errors.md"]
    cut = image_turn.surfaced[0]
    assert cut.truncated and cut.file_bytes > 4096 and cut.injected_bytes < cut.file_bytes
    assert cut.age == "21 days ago"  # as of the turn, not as of today
    lines = list(iter_turn_lines(replay))
    (turn_four,) = [line for line in lines if line.startswith("   4  ")]
    assert "reference_api_errors.md*" in turn_four and lines[-1].startswith("(* cut by")


def test_the_agent_reading_a_memory_recall_did_not_surface_is_a_likely_miss(
    sample: DemoSession,
) -> None:
    replay = replay_session(
        sample.transcript, sample.memory_dir, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    first = replay.turns[0]
    assert first.surfaced_names == ["project_ci_runners.md"] and first.agent_read == [
        "project_ci_runners.md"
    ]
    assert first.likely_misses == []  # surfaced, then read: not a miss
    assert replay.turns[3].likely_misses == ["reference_payments_sandbox.md"]
    assert replay.likely_miss_turns == 2 and replay.recall_turns == 7
    assert "likely recall misses in 2 of 7 turns (29%)" in replay.summary()


def test_what_was_surfaced_or_read_earlier_is_not_surfaced_again(sample: DemoSession) -> None:
    replay = replay_session(
        sample.transcript, sample.memory_dir, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    assert "project_ci_runners.md" in replay.turns[1].already_surfaced
    later = [name for t in replay.turns[1:] for name in t.surfaced_names]
    assert "project_ci_runners.md" not in later


def test_each_turns_already_surfaced_names_are_the_strings_the_turn_before_held(
    sample: DemoSession,
) -> None:
    """A memory surfaced once is named at every later turn: one string for all of them, not a
    new one per turn (turns times memories of them held for the whole replay)."""
    replay = replay_session(
        sample.transcript, sample.memory_dir, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    pairs = [
        (name, before)
        for earlier, later in zip(replay.turns, replay.turns[1:], strict=False)
        for name in later.already_surfaced
        for before in earlier.already_surfaced
        if name == before
    ]
    assert pairs and all(name is before for name, before in pairs)


def test_recent_tools_are_the_tools_of_the_previous_turn(sample: DemoSession) -> None:
    replay = replay_session(
        sample.transcript, sample.memory_dir, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    assert replay.turns[0].recent_tools == []
    assert replay.turns[1].recent_tools == ["Read", "Edit"]
    assert replay.turns[3].recent_tools == ["Task"]


def test_the_extractor_skips_turns_where_the_agent_wrote_memory_and_flushes_at_the_end(
    sample: DemoSession,
) -> None:
    replay = replay_session(
        sample.transcript,
        sample.memory_dir,
        selector=LexicalSelector(),
        now_ms=SAMPLE_NOW_MS,
        turns_between=3,
    )
    actions = [t.extraction.action for t in replay.turns if t.extraction]
    assert actions[1] == "skipped_main_agent_wrote" and actions[4] == "skipped_main_agent_wrote"
    assert actions[-1] == "throttled"
    assert replay.flush is not None and replay.flush.action == "ran"  # the last turn is not lost


def test_the_explanation_rows_come_with_each_surfaced_memory(sample: DemoSession) -> None:
    replay = replay_session(
        sample.transcript, sample.memory_dir, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    first = replay.turns[0]
    assert first.explanation and {e.filename for e in first.explanation} == set(
        first.existing
    ) - set(first.already_surfaced)
    assert first.surfaced[0].explanation is not None and first.surfaced[0].explanation.selected


def test_the_session_budget_stops_recall_and_names_what_it_cut(tmp_path: Path) -> None:
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    for i in range(40):
        body = "\n".join(f"budget line {j} about deploys and queues" for j in range(150))
        (memory / f"project_topic_{i:02}.md").write_text(
            f"---\nname: Deploy queue note {i}\ndescription: deploys queues budget note {i}\ntype: project\n---\n\n{body}\n"
        )
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="budget")
    for i in range(16):
        w.prompt(f"deploys queues budget note {i} and note {i + 20}")
        w.response([{"type": "text", "text": "ok"}])
    path = tmp_path / "projects" / "-home-ana-app" / "s.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    assert replay.budget_spent_at is not None
    spent = replay.turns[replay.budget_spent_at]
    assert spent.budget_cut and spent.budget_used <= 60 * 1024
    assert all(not t.surfaced for t in replay.turns[replay.budget_spent_at + 1 :])


def test_a_subagent_transcript_replays_and_is_never_extracted(sample: DemoSession) -> None:
    replay = replay_session(
        sample.subagent, sample.memory_dir, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    assert replay.session.is_sidechain and len(replay.turns) == 1
    assert replay.turns[0].extraction is not None
    assert replay.turns[0].extraction.action == "skipped_subagent"


@pytest.mark.parametrize("name", sorted(p.name for p in SHAPES.glob("*.jsonl")))
def test_every_shape_replays_against_an_empty_dir(tmp_path: Path, name: str) -> None:
    replay = replay_session(
        SHAPES / name, tmp_path / "none", selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    assert len(replay.turns) == len(replay.session.turns)
    assert "does not exist" in replay.notes[0]
    compactions = sum(t.compacted_before for t in replay.turns)  # a line each, above its turn
    queued = sum(bool(t.queued_prompts) for t in replay.turns)  # a line each, under its turn
    # a header, a line a turn, and no footnote: nothing was cut
    assert len(list(iter_turn_lines(replay))) == 1 + len(replay.turns) + compactions + queued


def test_the_shapes_memory_writes_replay_against_the_dir_left_after_them(tmp_path: Path) -> None:
    project = tmp_path / "projects" / "-home-dana-src-tidepool"
    (project / "memory").mkdir(parents=True)
    shutil.copy(SHAPES / "a_plain_session_memory_writes.jsonl", project / "s.jsonl")
    records = [json.loads(x) for x in (project / "s.jsonl").read_text().splitlines()]
    written = next(
        b["input"]["content"]
        for r in records
        if r.get("type") == "assistant"
        for b in r["message"]["content"]
        if b.get("name") == "Write"
    )
    (project / "memory" / "project_decimal_commas.md").write_text(written.replace("north", "south"))
    replay = replay_session(
        project / "s.jsonl", project / "memory", selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    first, second = replay.turns
    assert first.existing == ["reference_harbour_feeds.md"]  # before the write, after the rm undone
    assert second.existing == ["project_decimal_commas.md", "reference_harbour_feeds.md"]
    assert (
        first.agent_read == ["MEMORY.md"] and first.likely_misses == []
    )  # the index is not a miss
    assert [t.extraction.action for t in replay.turns if t.extraction] == [
        "skipped_main_agent_wrote"
    ] * 2


def _one_write_session(tmp_path: Path, cwd: str, key: str, prompt: str, file_path: str) -> Path:
    """A session run at cwd, its transcript filed under projects/<key>, whose one turn Writes
    file_path."""
    w = RecordWriter("s", cwd, "2026-05-01T10:00:00.000Z", seed=key)
    w.prompt(prompt)
    call = w.tool_use("Write", {"file_path": file_path, "content": "noted"})
    w.response([call])
    w.result(call, f"File created successfully at: {file_path}", detail={"type": "create"})
    w.response([{"type": "text", "text": "done"}])
    path = tmp_path / "projects" / key / "s.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(w.text())
    return path


def _windows_session(tmp_path: Path, file_path: str) -> Path:
    """A session recorded on Windows (cwd C:\\w) whose one turn Writes file_path."""
    return _one_write_session(tmp_path, "C:\\w", "C--w", "fix the readme", file_path)


def test_a_windows_path_outside_the_memory_dir_is_not_the_agent_writing_memory(
    tmp_path: Path,
) -> None:
    path = _windows_session(tmp_path, "c:/w/README.md")
    replay = replay_session(path, path.parent / "memory", now_ms=SAMPLE_NOW_MS)
    (turn,) = replay.turns
    assert turn.agent_wrote == [] and turn.extraction is not None
    assert turn.extraction.action == "ran"


def test_a_windows_path_into_the_memory_dir_is_the_agent_writing_memory(tmp_path: Path) -> None:
    memory = "C:\\Users\\me\\.claude\\projects\\C--w\\memory\\project_tabs.md"
    path = _windows_session(tmp_path, memory)
    replay = replay_session(path, path.parent / "memory", now_ms=SAMPLE_NOW_MS)
    (turn,) = replay.turns
    assert turn.agent_wrote == ["project_tabs.md"] and turn.extraction is not None
    assert turn.extraction.action == "skipped_main_agent_wrote"


def _moved_project_session(tmp_path: Path, file_path: str) -> Path:
    """A session run at /mnt/d/work/radar, its transcript now filed under the project's new
    key (-srv-radar, the folder renamed since); its one turn Writes file_path."""
    prompt = "note that the sweep runs every ten minutes"
    return _one_write_session(tmp_path, "/mnt/d/work/radar", "-srv-radar", prompt, file_path)


def test_a_write_to_the_memory_dir_of_the_sessions_old_folder_is_the_agent_writing_memory(
    tmp_path: Path,
) -> None:
    # Claude Code keyed the memory by the folder the session ran in; the project has moved
    # since, and its transcripts with it, but the paths they name keep the old key.
    old = "/mnt/d/work/radar/.claude_alt/projects/-mnt-d-work-radar/memory/project_sweep.md"
    path = _moved_project_session(tmp_path, old)
    replay = replay_session(path, path.parent / "memory", now_ms=SAMPLE_NOW_MS)
    (turn,) = replay.turns
    assert turn.agent_wrote == ["project_sweep.md"] and turn.extraction is not None
    assert turn.extraction.action == "skipped_main_agent_wrote"


def test_a_write_to_another_projects_memory_dir_is_not_the_agent_writing_memory(
    tmp_path: Path,
) -> None:
    other = "/home/ana/.claude/projects/-mnt-d-work-tides/memory/project_tides.md"
    path = _moved_project_session(tmp_path, other)
    replay = replay_session(path, path.parent / "memory", now_ms=SAMPLE_NOW_MS)
    (turn,) = replay.turns
    assert turn.agent_wrote == [] and turn.extraction is not None
    assert turn.extraction.action == "ran"


def test_a_turn_with_only_api_errors_still_recalls_but_is_never_extracted(tmp_path: Path) -> None:
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    (memory / "project_grant.md").write_text(
        "---\nname: Grant application\ndescription: the grant application deadline and forms\n"
        "type: project\n---\n\nThe grant application is due on 2026-06-01.\n"
    )
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="apierr")
    w.prompt("help me with the grant application")
    api_error_reply(w, "Credit balance is too low")
    path = memory.parent / "s.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    (turn,) = replay.turns
    assert turn.surfaced_names == ["project_grant.md"]  # recall runs at the prompt as before
    assert turn.extraction is not None and turn.extraction.action == "skipped_no_model_reply"
    assert "API error" in list(iter_turn_lines(replay))[1] and turn.flags == ["api_error"]


def test_the_summary_says_one_turn_and_a_session_without_prompts_in_words(tmp_path: Path) -> None:
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="words")
    w.prompt("hello")
    w.response([{"type": "text", "text": "hi"}])
    path = tmp_path / "s.jsonl"
    path.write_text(w.text())
    one = replay_session(path, tmp_path / "none", selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    assert one.summary().startswith("1 turn (1 with a prompt), selector lexical: 0 memories")
    assert "read 0 memory files itself; likely recall misses in 0 of 1 turn (0%)." in one.summary()
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    none = replay_session(
        empty, tmp_path / "none", selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    assert none.summary().startswith("0 turns (0 with a prompt)")
    assert "no turn has a prompt, so there are no likely recall misses to count." in none.summary()
    assert "0 of 0" not in none.summary()


@pytest.mark.parametrize("name", [["Write"], {"tool": "Write"}, 7, None])
def test_a_tool_call_whose_name_is_not_text_neither_stops_the_replay_nor_counts(
    sample: DemoSession, name: object
) -> None:
    # attack round 8: a list or a map as a tool_use name raised TypeError (unhashable) out of
    # the extractor's memory_writes, which the scheduler runs at every turn end
    records = [json.loads(line) for line in sample.transcript.read_text().splitlines() if line]
    for record in records:
        content = record.get("message", {}).get("content")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_use":
                block["name"] = name
    sample.transcript.write_text("".join(json.dumps(r) + "\n" for r in records))
    replay = replay_session(
        sample.transcript, sample.memory_dir, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    assert len(replay.turns) == 7
    assert all(t.agent_wrote == [] for t in replay.turns)


def test_after_a_compaction_recall_may_surface_again_what_it_surfaced_before(
    tmp_path: Path,
) -> None:
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    (memory / "project_tide_charts.md").write_text(
        "---\nname: Tide charts\ndescription: where the tide charts come from and how often"
        "\ntype: project\n---\n\nThe harbour office publishes them weekly.\n"
    )
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="compact")
    for _ in range(2):
        w.prompt("where do the tide charts come from")
        w.response([{"type": "text", "text": "ok"}])
    boundary = w.system("compact_boundary", parent=None, content="Conversation compacted")
    w.last = boundary
    w.prompt("where do the tide charts come from")
    w.response([{"type": "text", "text": "ok"}])
    path = tmp_path / "projects" / "-home-ana-app" / "s.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    # once per conversation: not again in turn 2, but again once the compaction dropped it
    assert [t.surfaced_names for t in replay.turns] == [
        ["project_tide_charts.md"],
        [],
        ["project_tide_charts.md"],
    ]
    assert [t.compacted_before for t in replay.turns] == [False, False, True]
    assert "after compaction" in replay.turns[2].flags
    assert "compacted before turn 3" in replay.summary()
    lines = list(iter_turn_lines(replay))
    assert "context compacted" in lines[3] and lines[4].startswith("   3  ")


def _session_writing(tmp_path: Path, memory: Path, writes: list[tuple[str, str, str]]) -> Path:
    """A transcript whose Writes replaced memory files, each keeping its original text."""
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="layout")
    for rel, content, original in writes:
        w.prompt(f"save {rel} about deploys")
        fp = str(memory / rel)
        call = w.tool_use("Write", {"file_path": fp, "content": content})
        w.response([call])
        detail = {"type": "update", "filePath": fp, "content": content, "originalFile": original}
        w.result(call, f"The file {fp} has been updated.", detail=detail)
        w.response([{"type": "text", "text": "done"}])
    w.prompt("what about deploys?")
    w.response([{"type": "text", "text": "ok"}])
    path = tmp_path / "s.jsonl"
    # JSON escapes, as Claude Code writes them: a lone surrogate stays a '\ud800' escape
    path.write_text("".join(json.dumps(json.loads(x)) + "\n" for x in w.text().splitlines()))
    return path


def test_a_file_the_transcript_cannot_lay_out_or_that_holds_a_lone_surrogate_is_no_stop(
    tmp_path: Path,
) -> None:
    # The replay's scratch folder wrote each file as the transcript said: a path that was a
    # file in one record and a folder in another (IsADirectoryError), or an original text
    # holding a lone surrogate (UnicodeEncodeError), stopped the whole replay.
    memory = tmp_path / "memory"
    (memory / "notes.md").mkdir(parents=True)
    note = "---\nname: b\ndescription: deploy notes\ntype: user\n---\nbody about deploys\n"
    (memory / "notes.md" / "user_b.md").write_text(note)
    (memory / "user_s.md").write_text(note)
    path = _session_writing(
        tmp_path,
        memory,
        [("notes.md", "now", "before"), ("user_s.md", note, note.replace("body", "\ud800"))],
    )
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    assert len(replay.turns) == 3
    assert any(n.startswith("notes.md: cannot be laid out") for n in replay.notes)
    assert "user_s.md" in replay.turns[1].existing


def test_a_fork_replays_its_own_turns_and_says_whose_history_it_left_out(tmp_path: Path) -> None:
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    w = RecordWriter("parent", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="fork")
    w.prompt("note that reviews need two approvals")
    call = w.tool_use("Write", {"file_path": f"{memory}/feedback_reviews.md", "content": "x"})
    w.response([call])
    w.result(call, "File created successfully", detail={"type": "create"})
    fork_of(w, "child")
    w.prompt("what does fork do?")
    w.response([{"type": "text", "text": "it copies the conversation"}])
    path = memory.parent / "child.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    assert [t.prompt for t in replay.turns] == ["what does fork do?"]
    assert all(not t.agent_wrote for t in replay.turns)  # the write was the parent's
    assert any(n.startswith("forked from session parent:") for n in replay.notes)


def test_a_copy_of_earlier_history_that_names_no_parent_is_left_out_with_a_note(
    tmp_path: Path,
) -> None:
    # `--resume <id> --fork-session` (2.1.27x): the file opens with its own prompt's queue
    # records, then the parent's conversation with no forkedFrom; nothing else says so
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    w = RecordWriter("child", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="copy")
    w.prompt("note that reviews need two approvals")
    w.response([{"type": "text", "text": "noted"}])
    parent = list(w.lines)
    w.bookkeeping("queue-operation", operation="enqueue", content="does it still hold?")
    w.bookkeeping("queue-operation", operation="dequeue")
    w.lines = [*w.lines[len(parent) :], *parent]
    w.prompt("does it still hold?")
    w.response([{"type": "text", "text": "yes"}])
    path = memory.parent / "child.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    assert [t.prompt for t in replay.turns] == ["does it still hold?"]
    assert any(
        n.startswith("2 records of this file are history written again") for n in replay.notes
    )


def test_a_vscode_resume_that_wrote_the_history_again_replays_each_typed_turn_once(
    tmp_path: Path,
) -> None:
    # VS Code 2.0.2 writes the whole conversation again on each resume, at the resume's time
    # with new uuids: replay ran recall and the extractor on every copied prompt (resume37)
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    w = RecordWriter("vs", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="vs", version="2.0.2")
    w.prompt_ids = False
    w.prompt("reviews need two approvals")
    w.response([{"type": "text", "text": "noted"}])
    w.prompt("and the deploy day is friday")
    w.response([{"type": "text", "text": "noted too"}])
    rewritten_on_resume(w)
    w.prompt("what do reviews need?")
    w.response([{"type": "text", "text": "two approvals"}])
    path = memory.parent / "vs.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    assert [t.prompt for t in replay.turns] == [
        "reviews need two approvals",
        "and the deploy day is friday",
        "what do reviews need?",
    ]
    assert any(
        n.startswith("4 records of this file are history written again") for n in replay.notes
    )


def test_a_transcript_dated_past_the_pinned_now_range_still_replays(
    sample: DemoSession, tmp_path: Path
) -> None:
    # attack round 11 bounded a pinned "now" (--now-ms, the demo's clock) to 1970-2262; a
    # replay's "now" is each turn's own time, which a transcript may put in any year
    text = Path(sample.transcript).read_text(encoding="utf-8")
    dated = tmp_path / "dated-2300.jsonl"
    dated.write_text(text.replace('"timestamp":"20', '"timestamp":"23'), encoding="utf-8")
    assert '"timestamp":"23' in dated.read_text(encoding="utf-8")
    replay = replay_session(dated, sample.memory_dir, selector=LexicalSelector())
    assert replay.turns


def test_a_transcript_write_nested_deeper_than_any_route_goes_is_left_out_not_a_crash(
    tmp_path: Path,
) -> None:
    # A Write record naming a file 1,500 folders down (within PATH_MAX) made the scratch
    # folder's mkdir recurse a level at a time: RecursionError stopped the whole replay.
    memory = tmp_path / "memory"
    memory.mkdir()
    note = "---\nname: b\ndescription: deploy notes\ntype: user\n---\nbody about deploys\n"
    (memory / "user_s.md").write_text(note)
    deep = "a/" * 1_500 + "user_deep.md"
    path = _session_writing(tmp_path, memory, [(deep, note, note)])
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    assert len(replay.turns) == 2
    assert any("1500 folders deep" in n for n in replay.notes)


def test_a_memory_write_in_an_answer_taken_back_after_a_refusal_is_no_write(tmp_path: Path) -> None:
    # the refused model's partial answer held a Write that never ran; the fallback model
    # answered without one: nobody wrote memory, and the extractor still runs on the turn
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    w = RecordWriter("s", "/home/ana/app", "2026-10-02T09:00:00.000Z", seed="refusal")
    asked = w.prompt("load-test the login rate limiter")
    unrun = w.tool_use("Write", {"file_path": f"{memory}/limiter.md", "content": "partial"})
    taken = refused_answer(w, [unrun], prompt_uuid=asked)
    superseding(w, [{"type": "text", "text": "Use k6 against staging."}], taken)
    w.system("turn_duration", durationMs=900)
    path = memory.parent / "s.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    (turn,) = replay.turns
    assert turn.agent_wrote == [] and turn.extraction is not None
    assert turn.extraction.action == "ran" and turn.flags == ["refused"]
    assert (
        "turn 1: claude-fable-5 refused (cyber); answered by claude-opus-4-8; the CLI took back "
        "1 partial answer, 1 tool call that never ran"
    ) in replay.notes


def test_what_claude_codes_own_recall_surfaced_is_not_offered_again_later(tmp_path: Path) -> None:
    # 2.1.2xx with per-turn recall on writes what it surfaced as a `relevant_memories` record
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    for name, title, about in (
        ("project_tide_charts.md", "Tide charts", "where the tide charts come from"),
        ("project_ferry_times.md", "Ferry times", "when the morning ferry leaves"),
    ):
        (memory / name).write_text(
            f"---\nname: {title}\ndescription: {about}\ntype: project\n---\n\n{about}.\n"
        )
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="recalled")
    w.prompt("when does the morning ferry leave")
    cli_recalled(w, str(memory / "project_tide_charts.md"), "/home/ana/app/notes.md")
    w.response([{"type": "text", "text": "at seven"}])
    w.prompt("where do the tide charts come from")
    w.response([{"type": "text", "text": "the harbour office"}])
    path = tmp_path / "projects" / "-home-ana-app" / "s.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    first, second = replay.turns
    assert first.cli_surfaced == ["project_tide_charts.md"]  # the path outside is no memory
    assert first.surfaced_names == ["project_ferry_times.md"]  # the replay's own pick stands
    # the CLI surfaced the charts in turn 1, so its recall would not offer them in turn 2
    assert "project_tide_charts.md" in second.already_surfaced
    assert second.surfaced_names == [] and second.cli_surfaced == []
    assert first.row()["cli_surfaced"] == "project_tide_charts.md"
    lines = list(iter_turn_lines(replay))
    assert lines[2] == "      Claude Code's own recall surfaced: project_tide_charts.md"


def test_a_memory_the_background_extractor_saved_is_uncertain_before_and_flagged(
    tmp_path: Path,
) -> None:
    # the CLI's extractor wrote feedback_tabs.md after turn 1 (a `memory_saved` record): no
    # call of the session made it, so before then its text (or whether it was there) is unknown
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    tabs = memory / "feedback_tabs.md"
    tabs.write_text(
        "---\nname: Tabs\ndescription: indent with two spaces\ntype: feedback\n---\n\nx\n"
    )
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="saved")
    w.prompt("indent with tabs please, never spaces")
    w.response([{"type": "text", "text": "noted"}])
    w.system("turn_duration", durationMs=900)
    w.system("memory_saved", writtenPaths=[str(tabs)], teamCount=0, verb="Saved")
    w.prompt("what indent do we use")
    w.response([{"type": "text", "text": "two spaces"}])
    path = tmp_path / "projects" / "-home-ana-app" / "s.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    first, second = replay.turns
    assert first.uncertain == ["feedback_tabs.md"] and second.uncertain == []
    assert "memory saved in background" in first.flags
    assert "memory saved in background" not in second.flags
    assert first.agent_wrote == []  # the extractor's write is not the agent's


def test_a_cli_recall_path_the_name_gate_refuses_names_no_surfaced_memory(tmp_path: Path) -> None:
    # attack round 25: a `relevant_memories` path naming a folder, a name holding a newline or
    # ESC, or the index was kept as a memory the CLI surfaced (and marked surfaced)
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    (memory / "sub").mkdir(parents=True)
    (memory / "sub" / "b.md").write_text("---\nname: B\ndescription: tide\ntype: project\n---\n")
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="gate")
    w.prompt("when does the morning ferry leave")
    cli_recalled(
        w,
        str(memory / "a\nFORGED line.md"),
        str(memory / "\x1b[31mred.md"),
        str(memory / "sub"),
        str(memory / "MEMORY.md"),
        "/memories/../../etc/passwd",
        str(memory / "sub" / "b.md"),
    )
    w.response([{"type": "text", "text": "at seven"}])
    path = tmp_path / "projects" / "-home-ana-app" / "s.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    assert replay.turns[0].cli_surfaced == ["sub/b.md"]


def test_the_cli_recall_line_names_the_first_ten_picks_and_counts_the_rest(
    tmp_path: Path,
) -> None:
    # attack round 25: 4,096 picks on one turn printed one line of 44 KB
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    path = many_cli_picks(memory, 100)
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    assert len(replay.turns[0].cli_surfaced) == 500
    line = list(iter_turn_lines(replay))[2]
    assert line.endswith("f1_4.md and 490 more") and len(line) < 200


def test_each_note_of_the_summary_is_one_line_whatever_path_it_names(tmp_path: Path) -> None:
    # attack round 25: a `memory_saved` path (and a file in the dir) named 'x.md\nFORGED…' was
    # left out with a note that printed a forged line of its own in `memdir-nb replay`
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    (memory / "y.md\nFORGED: from the dir.md").write_text("---\nname: Y\n---\n")
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="notes")
    w.prompt("when does the morning ferry leave")
    w.response([{"type": "text", "text": "at seven"}])
    w.system("memory_saved", writtenPaths=[str(memory / "x.md\nFORGED: all fine.md")], verb="Saved")
    w.prompt("where do the tide charts come from")
    w.response([{"type": "text", "text": "the harbour office"}])
    path = tmp_path / "projects" / "-home-ana-app" / "s.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    assert any("FORGED: all fine" in n for n in replay.notes)
    assert any("FORGED: from the dir" in n for n in replay.notes)
    assert not [line for line in replay.summary().splitlines() if line.startswith("FORGED")]


# A replay in a fresh process: its peak resident memory in KB, the VmHWM of its own address
# space (Linux). Not getrusage's ru_maxrss: a child started by vfork (subprocess does) keeps
# the parent's high-water mark there, so a pytest worker that once held 1.8 GB failed the test.
_REPLAY_PEAK_RSS = """
import sys
from memdir_nb import replay_session
from memdir_nb.recall.lexical import LexicalSelector
replay = replay_session(sys.argv[1], sys.argv[2], selector=LexicalSelector(), now_ms=0)
with open("/proc/self/status", encoding="ascii") as status:
    peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
print(len(replay.turns), peak)
"""


@pytest.mark.slow
def test_a_replay_holds_no_tool_results_text_whatever_the_transcripts_size(tmp_path: Path) -> None:
    """64 MB of transcript, 1,600 turns each reading 40 KB: the dry-run extractor's messages
    held the file's text, its lines and every record whole (about 300 MB at peak on main);
    now only ids and memory writes, so the peak is the interpreter's and the turns' own."""
    folder = tmp_path / "projects" / "-home-ana-app"
    folder.mkdir(parents=True)
    transcript = long_results_session(folder, 1_600, result_kb=40)
    assert transcript.stat().st_size > 60 * 1024 * 1024
    run = subprocess.run(
        [sys.executable, "-c", _REPLAY_PEAK_RSS, str(transcript), str(tmp_path / "memory")],
        capture_output=True,
        text=True,
        check=True,
        env=child_env(),
        timeout=120,
    )
    turns, peak_kb = map(int, run.stdout.split())
    assert turns == 1_600
    assert peak_kb < 160 * 1024, f"replay peaked at {peak_kb // 1024} MB"


# `memdir-nb replay` (or reading the session alone) in a fresh process, its output thrown
# away; prints the peak resident memory of its own address space in KB (VmHWM, as above).
_CLI_PEAK_RSS = """
import contextlib, os, sys
from memdir_nb.cli.main import main
from memdir_nb.home.sessions import read_session
with open(os.devnull, "w") as out, contextlib.redirect_stdout(out):
    if sys.argv[1] == "read":
        read_session(sys.argv[2])
    else:
        words = ["replay", sys.argv[2], "--dir", sys.argv[3], "--selector", "lexical"]
        main([*words, "--now-ms", "0", *sys.argv[4:]])
with open("/proc/self/status", encoding="ascii") as status:
    print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
"""


def _peak_kb(*args: str) -> int:
    run = subprocess.run(
        [sys.executable, "-c", _CLI_PEAK_RSS, *args],
        capture_output=True,
        text=True,
        check=True,
        env=child_env(),
        timeout=300,
    )
    return int(run.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_what_replay_holds_beside_the_session_does_not_grow_with_the_turns(
    tmp_path: Path, json_flag: list[str]
) -> None:
    """1,500 and 6,000 turns of 1.4 KB: `memdir-nb replay` kept every turn's row, every
    message's skeleton and every scheduler decision, 2.4 KB a turn (5.4 with --json) on main; it now prints each row as it is made and keeps the messages
    from the scheduler's cursor on. The session model it reads (formats.session_builder) is
    still about 3.4 KB a turn, so the peak is compared with reading the session alone."""
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "routes.md").write_text("---\nname: routes\ndescription: route fixes\n---\nx\n")
    extra = []
    for turns in (1_500, 6_000):
        folder = tmp_path / str(turns)
        folder.mkdir()
        path = str(long_session(folder, turns))
        replay = _peak_kb("replay", path, str(memory), *json_flag)
        extra.append(replay - _peak_kb("read", path))
    grown_mb = (extra[1] - extra[0]) / 1024
    assert grown_mb < 7, f"replay held {grown_mb:.1f} MB more beside the session for 4,500 turns"


def test_a_file_the_replay_cannot_lay_out_is_named_once_however_many_turns_follow(
    tmp_path: Path,
) -> None:
    # real36: a session that removed folders and stray files from its memory dir left names the
    # replay cannot write as memories; each was noted again at every turn (19 times in 23 turns)
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="spaced")
    for question in ("when is the first ferry", "and the last one", "is there a night ferry"):
        w.prompt(question)
        w.response([{"type": "text", "text": "see the timetable"}])
    w.prompt("clear out the old timetable scrap")
    call = w.tool_use("Bash", {"command": f"rm '{memory / 'ferry times'}'"})
    w.response([call])
    w.result(call, "")
    path = tmp_path / "projects" / "-home-ana-app" / "s.jsonl"
    path.write_text(w.text())
    replay = replay_session(path, memory, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS)
    assert len(replay.turns) == 4
    assert [n for n in replay.notes if n.startswith("ferry times:")] == [
        "ferry times: not a memory file name ('ferry times' does not end in .md (memory files "
        "are Markdown files named like feedback_testing.md)); left out"
    ]


def test_a_file_the_scan_skips_is_noted_as_left_out_of_the_replay(sample: DemoSession) -> None:
    # fresh37: the summary ended with a bare "loop.md: symlink loop" line
    (sample.memory_dir / "loop.md").symlink_to("loop.md")
    replay = replay_session(
        sample.transcript, sample.memory_dir, selector=LexicalSelector(), now_ms=SAMPLE_NOW_MS
    )
    assert "loop.md: skipped while reading (symlink loop), so no turn sees it" in replay.notes
    lines = replay.summary().splitlines()  # a note line of its own (the sample's recap after it)
    assert "loop.md: skipped while reading (symlink loop), so no turn sees it" in lines


def test_a_session_of_a_moved_home_writes_its_memory_under_its_working_folders_old_key(
    tmp_path: Path,
) -> None:
    path = build_moved_home_session(tmp_path)
    replay = replay_session(path, path.parent / "memory", now_ms=SAMPLE_NOW_MS)
    first, second = replay.turns
    assert first.existing == []  # the memory did not exist before the session wrote it
    assert second.agent_wrote == ["project_kiln_limit.md"] and second.extraction is not None
    assert second.extraction.action == "skipped_main_agent_wrote"
    (moved,) = [n for n in replay.notes if "-media-old-kiln" in n]
    assert "the folder it ran in (/media/old/kiln)" in moved


def test_another_dir_given_for_a_moved_homes_session_takes_none_of_its_own_writes(
    tmp_path: Path,
) -> None:
    path = build_moved_home_session(tmp_path)
    other = tmp_path / "elsewhere" / "-srv-work-other" / "memory"
    shutil.copytree(path.parent / "memory", other)
    replay = replay_session(path, other, now_ms=SAMPLE_NOW_MS)
    assert [t.agent_wrote for t in replay.turns] == [[], []]
    assert replay.turns[0].existing == ["project_kiln_limit.md"]
    assert not [n for n in replay.notes if "-media-old-kiln" in n]


def test_a_moved_projects_subfolder_session_wrote_into_its_git_roots_dir_now(
    tmp_path: Path,
) -> None:
    path = build_moved_subfolder_session(tmp_path)
    parent = path.parent.parent / "-srv-work-kiln" / "memory"
    replay = replay_session(path, parent, now_ms=SAMPLE_NOW_MS)
    first, second = replay.turns
    assert first.existing == []  # the memory did not exist before the session wrote it
    assert second.agent_wrote == ["project_dashboard_port.md"] and second.extraction is not None
    assert second.extraction.action == "skipped_main_agent_wrote"
    assert [n for n in replay.notes if "-media-old-kiln/memory" in n]
    # the subfolder's own dir took none of it: the write went to the git root's
    beside = replay_session(path, path.parent / "memory", now_ms=SAMPLE_NOW_MS)
    assert [t.agent_wrote for t in beside.turns] == [[], []]


def test_replay_session_refuses_a_file_that_is_not_a_transcript_as_the_cli_does(
    tmp_path: Path,
) -> None:
    # attack39: the API replayed "hello\nworld" as a session of 0 turns, where `memdir-nb
    # replay` exits 2; the one rule is reports.replay.not_a_transcript
    notes = tmp_path / "notes.jsonl"
    notes.write_text("hello\nworld\n", encoding="utf-8")
    with pytest.raises(NotATranscriptError, match="is not a Claude Code transcript"):
        replay_session(notes, tmp_path)
    (tmp_path / "empty.jsonl").write_bytes(b"")  # an empty file is an empty session
    assert replay_session(tmp_path / "empty.jsonl", tmp_path).turns == []


def test_a_prompt_typed_while_a_turn_ran_is_named_under_that_turns_line() -> None:
    # sessions45: the turn was flagged "queued" and the prompt itself was not shown
    replay = replay_session(
        SHAPES / "d_interrupts_and_queue.jsonl",
        SHAPES / "none",
        selector=LexicalSelector(),
        now_ms=SAMPLE_NOW_MS,
    )
    first = replay.turns[0]
    assert first.queued_prompts == ["and then run the chart tests too"]
    assert first.row()["queued_prompts"] == ["and then run the chart tests too"]
    lines = list(iter_turn_lines(replay))
    assert lines[2] == "      typed while the agent worked: and then run the chart tests too"
