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
from tests.conftest import RECAP_TEXT, build_notices_session


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
    notices.take({"subtype": INFORMATIONAL, "content": "w" * 10_000, "level": 7}, "system", 40)
    assert len(notices.kept) == SESSION_NOTICES_KEPT and notices.recaps == SESSION_NOTICES_KEPT + 5
    assert notices.latest_recap == f"recap {SESSION_NOTICES_KEPT + 4}"
    last = notices.kept[-1]
    assert len(last.text) == SESSION_NOTE_MAX_CHARS + len(" [...]") and last.level is None
    # an informational record of another type is not one
    notices.take({"subtype": INFORMATIONAL, "content": "x"}, "user", 41)
    assert notices.informational == 1
