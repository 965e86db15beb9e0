"""The replay view-model: the replay's notes and a turn's own notices, escaped, without a browser."""

from __future__ import annotations

import json
from pathlib import Path

from memdir_nb import replay_session
from memdir_nb.recall.selectors import make_selector
from memdir_nb.reports import replay_ledger
from memdir_nb.reports.replay import SessionReplay
from memdir_nb.ui.demo.session import SAMPLE_NOW_MS
from memdir_nb.ui.views import replay as view
from tests.conftest import (
    PASTED_API_KEY,
    build_ledger_session,
    build_notices_session,
    build_queued_sessions,
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


def test_the_view_offers_the_ledger_notes_of_reports_replay_ledger(tmp_path: Path) -> None:
    # sessions45: one home for their wording, which `memdir-nb replay` prints too
    replay = _replay(build_ledger_session(tmp_path))
    assert view.ledger_notes(replay) == replay_ledger.ledger_notes(replay)
    assert view.ledger_totals is replay_ledger.ledger_totals


def test_a_turns_detail_lists_the_prompts_typed_while_it_ran_redacted_as_text(
    tmp_path: Path,
) -> None:
    # sessions45: the turn was flagged "queued"; what was typed was not shown
    _, absorbed = build_queued_sessions(tmp_path)
    html = view.turn_detail_html(_replay(absorbed), 0)
    assert "Typed while the agent worked, taken into this turn:" in html
    assert "<li>also rotate \\x1b]8;;http://x.example\\x07this" in html
    assert PASTED_API_KEY not in html and "\x1b" not in html and "\u202e" not in html
