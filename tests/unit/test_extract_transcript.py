"""extract/transcript: reading transcripts, the cursor, the main agent's own writes."""

from __future__ import annotations

import json
from pathlib import Path

from memdir_nb.extract import (
    TranscriptMessage,
    has_memory_writes_since,
    memory_writes,
    messages_since,
    parse_transcript_lines,
    read_transcript,
)
from memdir_nb.extract.transcript import iter_messages, read_message_skeletons
from memdir_nb.formats.transcript_records import TranscriptProblem
from memdir_nb.home.moved_home import former_keys
from memdir_nb.home.sessions import read_session
from memdir_nb.spec.constants import TRANSCRIPT_READ_MAX_BYTES
from tests.conftest import (
    build_moved_home_session,
    build_moved_subfolder_session,
    build_notices_session,
    write_long_transcript,
)

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample_transcript.jsonl"
SAMPLE_MEMDIR = "/home/dev/.claude/projects/-home-dev-shop/memory"


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


def _writes_of(paths: list[str]) -> list[TranscriptMessage]:
    lines = [
        json.dumps(
            {
                "type": "assistant",
                "uuid": f"a{i}",
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "tool_use",
                            "id": f"t{i}",
                            "name": "Write",
                            "input": {"file_path": p},
                        }
                    ],
                },
            }
        )
        for i, p in enumerate(paths)
    ]
    return parse_transcript_lines(lines).messages


def test_windows_and_relative_paths_outside_the_memory_dir_are_not_memory_writes() -> None:
    outside = ["c:/w/README.md", "C:\\w\\src\\app.py", "README.md", "docs/notes.md", "..\\x.md"]
    for memory_dir in (
        "/home/me/.claude/projects/C--w/memory",
        "C:\\Users\\me\\.claude\\projects\\C--w\\memory",
    ):
        assert memory_writes(_writes_of(outside), memory_dir) == []


def test_a_windows_path_into_the_memory_dirs_windows_form_is_a_memory_write() -> None:
    inside = "C:\\Users\\me\\.claude\\projects\\C--w\\memory\\tabs.md"
    lower_drive = "c:/Users/me/.claude/projects/C--w/memory/team/a.md"
    messages = _writes_of([inside, lower_drive])
    for memory_dir in (
        "/home/me/.claude/projects/C--w/memory",
        "C:\\Users\\me\\.claude\\projects\\C--w\\memory\\",
    ):
        assert memory_writes(messages, memory_dir) == [inside, lower_drive]
    assert memory_writes(messages, "/home/me/.claude/projects/-other/memory") == []


def test_a_record_written_twice_under_one_uuid_is_one_message() -> None:
    # anthropics/claude-code#92089: a second /compact appends earlier records again, uuids
    # kept; the extractor's conversation holds each once, where it was first written
    from memdir_nb.extract.transcript import without_copies
    from memdir_nb.formats.session_model import Session

    lines = [
        json.dumps({"type": t, "uuid": u, "message": {"role": t, "content": u}})
        for t, u in [("user", "u1"), ("assistant", "a1"), ("user", "u2"), ("user", "u1")]
    ]
    messages = parse_transcript_lines(lines).messages
    kept = without_copies(Session(), messages)
    assert [(m.uuid, m.line_no) for m in kept] == [("u1", 1), ("a1", 2), ("u2", 3)]


def test_streamed_messages_are_read_transcript_s_messages_and_problems(tmp_path: Path) -> None:
    # lefts37b: ExtractionScheduler.replay_session streams them (iter_messages) past 64 MiB
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    lines.insert(4, "{not json")
    lines.insert(8, json.dumps({"type": "user", "message": {"role": "user", "content": "x"}}))
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    whole = read_transcript(path)
    problems: list[TranscriptProblem] = []
    assert list(iter_messages(path, problems)) == whole.messages
    assert problems == whole.problems and [p.line_no for p in problems] == [5, 9]


def test_a_transcript_past_the_whole_read_cap_says_the_cap_and_how_to_read_the_rest(
    tmp_path: Path,
) -> None:
    # lefts37: the problem said only "... only the first 67108864 bytes were read (cap ...)";
    # it now names the cap in MiB, and the two routes that read the rest
    path = tmp_path / "long.jsonl"
    uuids = write_long_transcript(path, TRANSCRIPT_READ_MAX_BYTES + 100_000)
    transcript = read_transcript(path)
    assert 0 < len(transcript.messages) < len(uuids)
    said = transcript.problems[-1].reason
    assert "the extractor holds at most 64 MiB of a transcript at once" in said
    assert "ExtractionScheduler.on_transcript" in said and "`memdir-nb replay`" in said
    assert "ExtractionScheduler.replay_session read it whole" in said  # lefts37b
    # the replay's messages are read as far as its turns (the session model's 1 GiB cap):
    # under the 64 MiB cap its later turns had no message
    skeletons = read_message_skeletons(path)
    assert [m.uuid for m in skeletons] == uuids
    assert len(read_session(path).turns) == len(uuids) // 2 + len(uuids) % 2


def test_recaps_informational_lines_and_modes_are_other_records_never_messages(
    tmp_path: Path,
) -> None:
    transcript = read_transcript(build_notices_session(tmp_path))
    assert [m.type for m in transcript.messages] == ["user", "assistant"] * 2
    assert transcript.problems == [] and transcript.other_records == 10


def test_a_write_under_a_moved_homes_former_key_counts_when_that_key_is_given(
    tmp_path: Path,
) -> None:
    # the transcript sits under -srv-work-kiln now; its Write named -media-old-kiln/memory, the
    # key its working folder had. ExtractionScheduler honoured that (moved_from); the public
    # has_memory_writes_since looked under the dir's own key only
    path = build_moved_home_session(tmp_path)
    memory = path.parent / "memory"
    messages = read_transcript(path).messages
    keys = former_keys(read_session(path), memory)
    assert keys == ("-media-old-kiln",)
    assert has_memory_writes_since(messages, None, memory, other_keys=keys)
    assert not has_memory_writes_since(messages, None, memory)  # its own key only: not this dir
    after = next(m.uuid for m in reversed(messages) if m.type == "assistant")
    assert not has_memory_writes_since(messages, after, memory, other_keys=keys)


def test_a_subfolder_sessions_write_under_its_git_roots_former_key_counts_for_that_dir(
    tmp_path: Path,
) -> None:
    path = build_moved_subfolder_session(tmp_path)
    root_memory = path.parent.parent / "-srv-work-kiln" / "memory"
    messages = read_transcript(path).messages
    keys = former_keys(read_session(path), root_memory)
    assert has_memory_writes_since(messages, None, root_memory, other_keys=keys)
    beside = path.parent / "memory"  # the subfolder's own dir: the write did not go there
    keys_beside = former_keys(read_session(path), beside)
    assert not has_memory_writes_since(messages, None, beside, other_keys=keys_beside)
