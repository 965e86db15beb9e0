"""The replay view-model: the replay's notes and a turn's own notices, escaped, without a browser."""

from __future__ import annotations

import json
from pathlib import Path

from memdir_nb import replay_session
from memdir_nb.recall.selectors import make_selector
from memdir_nb.reports.replay import SessionReplay
from memdir_nb.ui.demo.session import SAMPLE_NOW_MS
from memdir_nb.ui.views import replay as view
from tests.conftest import (
    LEDGER_TRACKED,
    PASTED_API_KEY,
    build_ledger_session,
    build_notices_session,
    markup_payload,
)


def _replay(path: Path) -> SessionReplay:
    (path.parent / "memory").mkdir(exist_ok=True)
    return replay_session(
        path, path.parent / "memory", selector=make_selector("lexical"), now_ms=SAMPLE_NOW_MS
    )


def test_the_notes_list_holds_the_recap_and_the_warning_the_cli_showed_the_user(
    tmp_path: Path,
) -> None:
    # real39's records (away_summary, informational, mode) were notes in `memdir-nb replay`;
    # the view lists them apart from the counts, one item each
    replay = _replay(build_notices_session(tmp_path))
    html = view.notes_html(replay.note_lines())
    assert "<ul class='memdir-replay-notes-list'>" in html
    assert html.count("<li>") == 4
    assert "turn 2: the CLI told the user (warning): Usage limit reached" in html
    assert "the recap the CLI showed the user on their return: Glaze log parser" in html
    assert "the session&#x27;s mode records name: plan" in html
    assert view.notes_html([]) == ""


def test_a_turns_detail_lists_the_notices_that_came_in_that_turn_only(tmp_path: Path) -> None:
    replay = _replay(build_notices_session(tmp_path))
    second = view.turn_detail_html(replay, 1)
    assert "Beside the conversation, the CLI told the user:" in second
    assert "Usage limit reached" in second and "Glaze log parser" in second
    assert "1 informational line at level info left out" in second
    first = view.turn_detail_html(replay, 0)
    assert "Usage limit reached" not in first and "Glaze log parser" not in first


def test_a_notice_holding_markup_and_terminal_codes_is_shown_as_text(tmp_path: Path) -> None:
    path = build_notices_session(tmp_path)
    hostile = "\x1b]8;;https://x.example\x07link\x1b]8;;\x07 " + markup_payload("notice")
    record = {"type": "system", "subtype": "informational", "level": "warning", "content": hostile}
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")
    replay = _replay(path)
    for html in (view.notes_html(replay.note_lines()), view.turn_detail_html(replay, 1)):
        assert "window.__memdir_pwned=&#x27;notice&#x27;" in html  # shown, as text
        assert "<img" not in html and "<script" not in html and "\x1b" not in html
        assert "\\x1b]8;;https://x.example" in html  # the terminal code shown as an escape


def test_the_ledger_notes_give_the_token_totals_and_the_snapshots_files(tmp_path: Path) -> None:
    # sessions44: the usage of the session's answers and its file-history snapshots were
    # counted record types only
    replay = _replay(build_ledger_session(tmp_path))
    tokens, snaps = view.ledger_notes(replay)
    assert tokens == (
        "tokens recorded by the session's 4 answers: 15 input, 190 output, 2,000 cache writes, "
        "12,000 cache reads (14,205 in all); cost recorded (costUSD): $0.0125 over 1 answer; "
        "1 answer without usage; 2 usage or cost fields unreadable, left out"
    )
    assert snaps == (
        "file-history snapshots: 4 (1 update), tracking 2 files: "
        f"{LEDGER_TRACKED[0]}, {LEDGER_TRACKED[1]}; 1 snapshot without a readable file map"
    )
    totals = view.ledger_totals(replay.session.ledger)
    assert totals["total_tokens"] == 14_205 and totals["tracked_files"] == 2
    assert totals["cost_usd"] == 0.0125 and totals["bad_fields"] == 2


def test_a_tracked_path_in_a_ledger_note_is_redacted_and_shown_as_text(tmp_path: Path) -> None:
    path = build_ledger_session(tmp_path)
    odd = f"/h/\x1b]8;;http://x\x07a\u202eb/{PASTED_API_KEY}/and/a/long/tail/past/the/cut.txt"
    snap = {"type": "file-history-snapshot", "snapshot": {"trackedFileBackups": {odd: {}}}}
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(snap) + "\n")
    (_, snaps) = view.ledger_notes(_replay(path))
    assert PASTED_API_KEY not in snaps and "\x1b" not in snaps and "\u202e" not in snaps
    assert "tracking 3 files" in snaps and "\\x1b]8;;http://x\\x07a" in snaps
    html = view.notes_html([snaps])
    assert "<li>file-history snapshots: 5" in html


def test_a_session_without_answers_or_snapshots_has_no_ledger_notes(tmp_path: Path) -> None:
    path = tmp_path / "p" / "s.jsonl"
    path.parent.mkdir()
    path.write_text('{"type":"user","message":{"role":"user","content":"hi"}}\n', encoding="utf-8")
    assert view.ledger_notes(_replay(path)) == []
