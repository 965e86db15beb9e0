"""formats/session_notices: recaps, informational lines and mode records, never turns."""

from __future__ import annotations

from pathlib import Path

from memdir_nb.formats.session_notices import (
    INFORMATIONAL,
    RECAP,
    SESSION_NOTICES_KEPT,
    SessionNotices,
)
from memdir_nb.home.sessions import list_sessions, read_session
from memdir_nb.spec.constants import SESSION_NOTE_MAX_CHARS
from tests.conftest import (
    LEDGER_PROMPT,
    RECAP_TEXT,
    build_ledger_session,
    build_metadata_session,
    build_notices_session,
)


def test_recaps_and_informational_lines_are_kept_with_their_turn_and_are_no_turns(
    tmp_path: Path,
) -> None:
    session = read_session(build_notices_session(tmp_path))
    assert [t.prompt for t in session.turns] == [
        "Why does the cone-6 column read zero?",
        "And the cooling?",
    ]
    notices = session.notices
    kept = [(n.kind, n.turn, n.level) for n in notices.kept]
    assert kept == [
        (INFORMATIONAL, 1, "info"),
        (INFORMATIONAL, 2, "info"),
        (INFORMATIONAL, 2, "warning"),
        (RECAP, 2, None),
    ]
    assert notices.latest_recap == RECAP_TEXT and notices.recaps == 1
    assert notices.informational == 3 and session.problems == []
    # a number is no mode; "normal" and the other one are named once each
    assert notices.modes == ["normal", "plan"]


def test_a_listing_shows_the_last_recap_and_counts_the_same_turns(tmp_path: Path) -> None:
    path = build_notices_session(tmp_path)
    (listed,) = list_sessions(tmp_path / "claude")
    assert (listed.turns, listed.recap, listed.kind) == (2, RECAP_TEXT, "main")
    assert listed.path == str(path)


def test_a_session_keeps_the_last_notices_and_cuts_a_long_one() -> None:
    notices = SessionNotices()
    for n in range(SESSION_NOTICES_KEPT + 5):
        notices.take({"subtype": RECAP, "content": f"recap {n}"}, "system", n)
    notices.take({"subtype": INFORMATIONAL, "content": "warn " * 2_000, "level": 7}, "system", 40)
    assert len(notices.kept) == SESSION_NOTICES_KEPT and notices.recaps == SESSION_NOTICES_KEPT + 5
    assert notices.latest_recap == f"recap {SESSION_NOTICES_KEPT + 4}"
    last = notices.kept[-1]
    assert last.text == ("warn " * (SESSION_NOTE_MAX_CHARS // 5)).rstrip() + " [...]"
    assert last.level is None
    # an informational record of another type is not one
    notices.take({"subtype": INFORMATIONAL, "content": "x"}, "user", 41)
    assert notices.informational == 1


def test_the_sessions_metadata_records_are_read_the_last_name_winning_and_are_no_turns(
    tmp_path: Path,
) -> None:
    # real42b: a 2.1.146 home writes `agent-name` (a background job's name) and
    # `permission-mode`; the CLI also writes `tag`, `task-summary` and `pr-link`. They were
    # counted and never read.
    session = read_session(build_metadata_session(tmp_path))
    assert [t.prompt for t in session.turns] == ["Add a cone-6 column.", "Open a PR."]
    n = session.notices
    # a number and a blank name are passed over, so the last real one stays
    assert n.agent_name == "kiln-\x1b[31mnight\u202e-batch"
    assert n.permission_modes == ["default", "acceptEdits"]  # a list is no mode
    assert n.agent_setting == "kiln:reviewer" and n.worktrees == ["cone-six (cone-6)"]
    assert n.tag == "glaze" and n.task_summary == "opening the pull request"
    # written twice, listed once; one without a repository is named by nothing it lacks
    assert n.pull_requests == ["ana/kiln-log#31"]
    assert session.title == "Kiln log cone-6 column" and session.problems == []
    assert session.record_counts["agent-name"] == 3


def test_an_empty_tag_clears_the_tag_as_the_cli_does() -> None:
    notices = SessionNotices()
    notices.take({"type": "tag", "tag": "glaze"}, "tag", 0)
    notices.take({"type": "tag", "tag": ""}, "tag", 0)
    assert notices.tag is None
    notices.take({"type": "pr-link", "prUrl": "https://example.invalid/pull/4"}, "pr-link", 0)
    assert notices.pull_requests == ["https://example.invalid/pull/4"]


def test_a_listing_reads_the_name_and_tag_of_a_session(tmp_path: Path) -> None:
    build_metadata_session(tmp_path)
    (info,) = list_sessions(tmp_path / "claude")
    assert info.agent_name == "kiln-\x1b[31mnight\u202e-batch" and info.tag == "glaze"


def test_the_last_last_prompt_record_wins_and_one_not_text_or_blank_is_passed_over() -> None:
    # sessions44: `last-prompt` (`lastPrompt`) was counted and never read
    notices = SessionNotices()
    for value in ("first ask", "second ask", 42, "   ", None, ["third"]):
        notices.take({"type": "last-prompt", "lastPrompt": value}, "last-prompt", 1)
    notices.take({"type": "last-prompt", "prompt": "a field no CLI writes"}, "last-prompt", 1)
    assert notices.last_prompt == "second ask"
    long = "ask " * (SESSION_NOTE_MAX_CHARS // 4 + 15)
    notices.take({"type": "last-prompt", "lastPrompt": long}, "last-prompt", 1)
    assert notices.last_prompt == ("ask " * (SESSION_NOTE_MAX_CHARS // 4)).rstrip() + " [...]"


def test_a_sessions_last_prompt_record_is_read_and_is_no_turn(tmp_path: Path) -> None:
    session = read_session(build_ledger_session(tmp_path))
    assert session.notices.last_prompt == LEDGER_PROMPT  # as written: made safe where shown
    assert [t.prompt for t in session.turns] == [
        "Resize the gallery photos.",
        "And the stylesheet?",
    ]


def test_a_credential_across_a_notes_cap_is_kept_whole_for_the_masker_or_not_at_all() -> None:
    # attack44: the cap kept a pasted token's head (26 of its 36 secret characters), which
    # redact_secrets no longer knew, so `sessions --json` showed it
    token = "ghp_" + "R4nd0mT0k3nV4lu3" * 2 + "x9Yq"
    notices = SessionNotices()
    for head in (8, 20, 30):
        prompt = "y" * (SESSION_NOTE_MAX_CHARS - head - 1) + " " + token + " please"
        notices.take({"type": "last-prompt", "lastPrompt": prompt}, "last-prompt", 1)
        assert notices.last_prompt is not None and "ghp_" not in notices.last_prompt
