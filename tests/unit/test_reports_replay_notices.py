"""reports/replay_notices: the replay's notes on recaps, informational lines and modes."""

from __future__ import annotations

from pathlib import Path

from memdir_nb import replay_session
from memdir_nb.formats.session_model import Session
from memdir_nb.formats.session_notices import RECAP, SESSION_NOTICES_KEPT
from memdir_nb.reports.replay_notices import notice_notes, turn_notice_notes
from memdir_nb.ui.demo.session import SAMPLE_NOW_MS
from tests.conftest import build_metadata_session, build_notices_session


def test_a_replay_notes_the_recap_and_the_warning_and_counts_the_info_lines(
    tmp_path: Path,
) -> None:
    path = build_notices_session(tmp_path)
    replay = replay_session(path, path.parent / "memory", now_ms=SAMPLE_NOW_MS)
    assert len(replay.turns) == 2
    notes = notice_notes(replay.session)
    assert notes == [
        "turn 2: the CLI told the user (warning): Usage limit reached · resets 9:50",
        "after turn 2, the recap the CLI showed the user on their return: Glaze log parser: "
        "fixed the cone-6 column; next, check the cooling curve. (disable recaps in /config)",
        "2 informational lines at level info (hooks that completed and the like) left out",
        "the session's mode records name: plan",
    ]
    assert set(notes) <= set(replay.notes)


def test_the_notes_say_how_many_were_not_kept() -> None:
    session = Session()
    for n in range(SESSION_NOTICES_KEPT + 2):
        session.notices.take({"subtype": RECAP, "content": f"r{n}"}, "system", 0)
    notes = notice_notes(session)
    assert notes[0] == "2 earlier recaps or informational lines not kept: only the last 16 are"
    assert (
        notes[1] == "before the first prompt, the recap the CLI showed the user on their return: r2"
    )


def test_a_turns_notice_notes_are_those_of_that_turn_worded_as_the_replays(
    tmp_path: Path,
) -> None:
    path = build_notices_session(tmp_path)
    replay = replay_session(path, path.parent / "memory", now_ms=SAMPLE_NOW_MS)
    second = turn_notice_notes(replay.session, 2)
    assert second[:2] == notice_notes(replay.session)[:2]  # the warning, then the recap
    assert second[2] == "1 informational line at level info left out"
    assert turn_notice_notes(replay.session, 1) == ["1 informational line at level info left out"]
    assert turn_notice_notes(replay.session, 0) == turn_notice_notes(replay.session, 3) == []


def test_a_replay_notes_the_sessions_name_modes_tag_summary_and_pull_request(
    tmp_path: Path,
) -> None:
    # real42b: the metadata records were counted, and the replay said nothing of them
    path = build_metadata_session(tmp_path)
    replay = replay_session(path, path.parent / "memory", now_ms=SAMPLE_NOW_MS)
    assert len(replay.turns) == 2
    notes = notice_notes(replay.session)
    assert notes == [
        "the session's name (agent-name): kiln-\x1b[31mnight\u202e-batch",
        "permission modes the session ran in: acceptEdits",
        "the agent the session ran as (agent-setting): kiln:reviewer",
        "worktrees the session entered: cone-six (cone-6)",
        "the session's tag: glaze",
        "the CLI's last summary of the task: opening the pull request",
        "pull requests the session linked: ana/kiln-log#31",
    ]
    assert set(notes) <= set(replay.notes)


def test_a_name_equal_to_the_title_is_not_noted_again_while_the_tag_is(tmp_path: Path) -> None:
    path = build_notices_session(tmp_path)
    with path.open("a") as f:
        f.write('{"type":"custom-title","customTitle":"Cooling","sessionId":"notices"}\n')
        f.write('{"type":"agent-name","agentName":"Cooling","sessionId":"notices"}\n')
        f.write('{"type":"tag","tag":"kiln","sessionId":"notices"}\n')
    replay = replay_session(path, path.parent / "memory", now_ms=SAMPLE_NOW_MS)
    notes = notice_notes(replay.session)
    assert "the session's tag: kiln" in notes  # the tag beside it is noted
    assert not any("agent-name" in n for n in notes)
