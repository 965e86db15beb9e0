"""ReplayView: the turn table, misses marked, and a click on a turn showing recall's reasons."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from memdir_nb.ui.demo.session import (
    SAMPLE_NOW_MS,
    SAMPLE_RECAP,
    DemoSession,
    build_demo_session,
)
from memdir_nb.ui.demo.session_records import RecordWriter
from memdir_nb.ui.views.replay import ledger_notes
from memdir_nb.ui.widgets import ReplayView
from tests.conftest import (
    PASTED_API_KEY,
    PASTED_GH_TOKEN,
    build_ledger_session,
    build_notices_session,
)
from tests.support.transcripts import cli_recalled, many_cli_picks


@pytest.fixture
def sample(tmp_path: Path) -> DemoSession:
    return build_demo_session(tmp_path / "claude")


def test_the_view_finds_the_sessions_beside_the_memory_dir_and_replays_the_newest(
    sample: DemoSession,
) -> None:
    v = ReplayView(sample.memory_dir, selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert v.transcript in (str(sample.transcript), str(sample.subagent))
    assert {p for _, p in v.picker.options} == {str(sample.transcript), str(sample.subagent)}
    assert "memdir-replay" in v._dom_classes


def test_the_view_also_offers_a_subfolder_session_that_used_this_memory_dir(
    sample: DemoSession,
) -> None:
    # the same session, as Claude Code files it when started in a subfolder: its own project
    # folder (<key>-web), its tool calls naming this memory dir
    web = sample.memory_dir.parent.parent / (sample.memory_dir.parent.name + "-web")
    web.mkdir()
    copy = web / sample.transcript.name
    shutil.copyfile(sample.transcript, copy)
    v = ReplayView(sample.memory_dir, selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert str(copy) in {p for _, p in v.picker.options}


def test_the_turn_table_marks_likely_misses_in_state_and_in_the_html(sample: DemoSession) -> None:
    v = ReplayView(sample.memory_dir, sample.transcript, selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert len(v.rows) == 7 and v.misses == [3, 4]
    assert v.table.value.count('class="memdir-replay-miss"') == 2
    assert [label.split()[1] for label, _ in v.turn_picker.options][3] == "MISS"
    assert "likely recall misses in 2 of 7 turns" in v.summary


def test_a_click_on_a_turn_shows_its_explanation_and_caps(sample: DemoSession) -> None:
    v = ReplayView(sample.memory_dir, sample.transcript, selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert v.selected_turn == -1 and "Pick a turn" in v.detail.value
    v.select_turn(3)
    assert v.selected_turn == 3
    assert "reference_api_errors.md" in v.detail_html and "200-line / 4 KB caps" in v.detail_html
    assert "Likely recall miss" in v.detail_html and "memdir-replay-explanation" in v.detail_html
    assert v.detail.value == v.detail_html
    v.turn_picker.value = 0  # the same as clicking the first row
    assert v.selected_turn == 0 and "Likely recall miss" not in v.detail_html


def test_switching_the_selector_or_transcript_replays(sample: DemoSession) -> None:
    v = ReplayView(sample.memory_dir, sample.transcript, selector="lexical", now_ms=SAMPLE_NOW_MS)
    v.transcript = str(sample.subagent)
    assert len(v.rows) == 1 and v.rows[0].extraction == "skipped_subagent"


def test_a_memory_dir_without_sessions_says_so_and_a_bad_transcript_is_an_error_not_a_crash(
    tmp_path: Path,
) -> None:
    empty = ReplayView(tmp_path, selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert empty.rows == [] and "No session transcript" in empty.summary
    # said once, in the summary: no header over an empty table, no second copy below it
    assert empty.table.value == "" and empty.detail_html == ""
    fifo = tmp_path / "s.jsonl"
    os.mkfifo(fifo)
    empty.transcript = str(fifo)
    assert empty.rows == [] and "Cannot replay" in empty.summary and "FIFO" in empty.error


def test_the_clis_own_recall_and_background_save_show_on_their_turn(tmp_path: Path) -> None:
    # a `relevant_memories` record (what the CLI surfaced) and a `memory_saved` record (what its
    # background extractor wrote) on turn 1: the turn's detail names the first, its flags the second
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    chart = memory / "project_tide_charts.md"
    chart.write_text(
        "---\nname: Tides\ndescription: where tide charts come from\ntype: project\n---\n"
    )
    w = RecordWriter("s", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="widget")
    w.prompt("when does the ferry leave")
    cli_recalled(w, str(chart))
    w.response([{"type": "text", "text": "at seven"}])
    w.system("memory_saved", writtenPaths=[str(chart)], teamCount=0)
    w.prompt("and the tides")
    w.response([{"type": "text", "text": "the harbour office"}])
    transcript = memory.parent / "s.jsonl"
    transcript.write_text(w.text())
    v = ReplayView(memory, transcript, selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert v.replay is not None
    assert [t.cli_surfaced for t in v.replay.turns] == [["project_tide_charts.md"], []]
    assert "memory saved in background" in v.table.value
    v.select_turn(0)
    assert "own recall surfaced: <code>project_tide_charts.md</code>" in v.detail_html
    v.select_turn(1)
    assert "own recall surfaced" not in v.detail_html


def test_the_clis_own_recall_names_ten_picks_in_the_turn_detail_and_counts_the_rest(
    tmp_path: Path,
) -> None:
    # attack round 25 left this: 4,096 picks on one turn were each listed in the detail's HTML
    memory = tmp_path / "projects" / "-home-ana-app" / "memory"
    memory.mkdir(parents=True)
    v = ReplayView(memory, many_cli_picks(memory, 60), selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert v.replay is not None and len(v.replay.turns[0].cli_surfaced) == 300
    v.select_turn(0)
    line = next(p for p in v.detail_html.split("<p>") if p.startswith("Claude Code's own"))
    assert line.count("<code>") == 10 and "and 290 more." in line


def test_a_selector_toggle_cleared_from_the_browser_keeps_the_selector(
    sample: DemoSession,
) -> None:
    # attack round 30: a front end sending the toggle's index as null (which ipywidgets
    # accepts) set selector_name to None through the link: a TraitError out of the comm
    # message, and a toggle showing no selector while the table kept the old one
    v = ReplayView(sample.memory_dir, sample.transcript, selector="lexical", now_ms=SAMPLE_NOW_MS)
    rows = v.rows
    v.selector_box.set_state({"index": None})
    assert v.selector_name == "lexical" and v.selector_box.value == "lexical"
    assert v.rows == rows
    v.selector_box.set_state({"index": 0})
    assert v.selector_name == "semantic" and v.selector_box.value == "semantic"
    v.selector_name = "lexical"
    assert v.selector_box.value == "lexical"


def test_the_picker_dates_each_session_by_its_first_record_as_the_sessions_command_does(
    sample: DemoSession,
) -> None:
    # fresh37: the picker labelled a session with its file's modification date, while
    # `memdir-nb sessions --dir` and notebook 11 give the date of its first record; a session
    # resumed (or copied) later read as today's in one and as the day it began in the other
    later = 1_900_000_000  # 2030-03-17, long after the sample's 2026-05-12
    for path in (sample.transcript, sample.subagent):
        os.utime(path, (later, later))
    v = ReplayView(sample.memory_dir, selector="lexical", now_ms=SAMPLE_NOW_MS)
    labels = [label for label, _ in v.picker.options]
    assert any(label.startswith(f"{sample.transcript.stem} (2026-05-12)") for label in labels)
    assert not any("2030-" in label for label in labels)


def test_the_picker_shows_each_sessions_title_as_the_sessions_listing_does(
    sample: DemoSession,
) -> None:
    # lefts42: `memdir-nb sessions` showed no title; the picker too named a session by its id
    v = ReplayView(sample.memory_dir, selector="lexical", now_ms=SAMPLE_NOW_MS)
    (label,) = [label for label, path in v.picker.options if path == str(sample.transcript)]
    assert label == f"{sample.transcript.stem} (2026-05-12)  Checkout clock fix and release freeze"
    with sample.transcript.open("a", encoding="utf-8") as f:  # a name the user gave it (/rename)
        f.write(
            json.dumps({"type": "custom-title", "customTitle": f"key {PASTED_GH_TOKEN}"}) + "\n"
        )
    for show_secrets in (False, True):
        v = ReplayView(
            sample.memory_dir, selector="lexical", now_ms=SAMPLE_NOW_MS, show_secrets=show_secrets
        )
        (label,) = [label for label, path in v.picker.options if path == str(sample.transcript)]
        assert label.startswith(f"{sample.transcript.stem} (2026-05-12)  key ")
        assert (PASTED_GH_TOKEN[:20] in label) is show_secrets


def test_the_picker_names_a_subagent_by_the_description_in_its_meta_file(
    sample: DemoSession,
) -> None:
    # lefts38c: `memdir-nb sessions` named a subagent by its meta file's description (lefts38b),
    # the notebook's picker only by its id and date
    meta = sample.subagent.with_name(sample.subagent.stem + ".meta.json")
    meta.write_text('{"agentType": "Explore", "description": "Find the \\u001b[31mflaky test"}')
    v = ReplayView(sample.memory_dir, selector="lexical", now_ms=SAMPLE_NOW_MS)
    (label,) = [label for label, path in v.picker.options if path == str(sample.subagent)]
    assert label.endswith("subagent)  Find the \\x1b[31mflaky test [Explore]")
    meta.unlink()  # no meta file: the label is what it was
    v = ReplayView(sample.memory_dir, selector="lexical", now_ms=SAMPLE_NOW_MS)
    (label,) = [label for label, path in v.picker.options if path == str(sample.subagent)]
    assert label.endswith(", subagent)")


def test_a_damaged_transcript_names_its_skipped_lines_in_the_summary_and_the_picker(
    sample: DemoSession,
) -> None:
    # attack39: `memdir-nb replay` and `sessions` name a transcript's bad lines; the widget
    # (notebook 11, the dashboard's Sessions tab) replayed it as if it were whole, silently
    with sample.transcript.open("a", encoding="utf-8") as f:
        f.write("[" * 100 + "\n" + "1\n" * 7)
    v = ReplayView(sample.memory_dir, sample.transcript, selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert v.error == ""
    lines = v.summary.splitlines()
    assert "nests" in lines[0] and lines[0].endswith("; skipped")
    assert "and 3 more lines skipped" in lines  # 8 bad lines: five named, the rest counted
    assert "turns" in v.summary and "and 3 more lines skipped" in v.summary_box.value
    label = next(label for label, path in v.picker.options if path == str(sample.transcript))
    assert label.endswith("(8 bad lines)")


def test_a_file_that_is_not_a_transcript_is_refused_as_the_replay_command_refuses_it(
    sample: DemoSession, tmp_path: Path
) -> None:
    # attack39: the CLI exits 2 "… is not a Claude Code transcript"; the widget showed "0 turns"
    notes = tmp_path / "notes.jsonl"
    notes.write_text("hello\nworld\n", encoding="utf-8")
    v = ReplayView(sample.memory_dir, notes, selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert "is not a Claude Code transcript" in v.error
    assert "first problem: line 1" in v.summary and "0 turns" not in v.summary
    assert v.rows == []


def test_the_recaps_and_notices_the_cli_showed_are_notes_in_state_and_on_the_page(
    tmp_path: Path,
) -> None:
    # real39's away_summary / informational / mode records: `memdir-nb replay` notes them; the
    # widget lists the replay's notes apart from the counts (no second copy in the summary),
    # and the turn they came in names them in its detail
    path = build_notices_session(tmp_path)
    memory = path.parent / "memory"
    memory.mkdir()
    v = ReplayView(memory, path, selector="lexical", now_ms=SAMPLE_NOW_MS)
    own = v.replay.note_lines() if v.replay is not None else []
    assert v.notes[: len(own)] == own and v.notes[len(own) :] == view_ledger_notes(v)
    assert any("the CLI told the user (warning): Usage limit reached" in n for n in v.notes)
    assert any(n.startswith("after turn 2, the recap") for n in v.notes)
    assert "Glaze log parser" in v.notes_box.value and "Glaze log parser" not in v.summary
    assert "memdir-replay-notes" in v.notes_box._dom_classes
    v.select_turn(1)
    assert "Beside the conversation, the CLI told the user:" in v.detail_html
    assert "Usage limit reached" in v.detail.value
    v.transcript = ""
    assert v.notes == [] and v.notes_box.value == ""


def test_the_samples_recap_is_its_one_note_and_the_last_turns_detail_names_it(
    sample: DemoSession,
) -> None:
    v = ReplayView(sample.memory_dir, sample.transcript, selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert v.notes == [
        f"after turn 7, the recap the CLI showed the user on their return: {SAMPLE_RECAP}",
        # then the ledger's (sessions44): the sample's 15 answers, no snapshot
        "tokens recorded by the session's 15 answers: 60 input, 900 output, 0 cache writes, "
        "0 cache reads (960 in all)",
    ]
    assert "Fixed the checkout clock test" in v.notes_box.value
    v.select_turn(6)
    assert SAMPLE_RECAP in v.detail_html
    v.select_turn(3)
    assert "Beside the conversation" not in v.detail_html


def view_ledger_notes(v: ReplayView) -> list[str]:
    """The ledger's notes of the view's replay (none without one)."""
    return ledger_notes(v.replay) if v.replay is not None else []


def test_the_sessions_token_totals_and_snapshots_are_state_and_last_notes(tmp_path: Path) -> None:
    # sessions44: the ledger in traitlets, its lines after the replay's own notes, checked
    # without a browser
    path = build_ledger_session(tmp_path)
    v = ReplayView(path.parent / "memory", path, selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert v.replay is not None and v.error == ""
    own = v.replay.note_lines()
    assert v.notes[: len(own)] == own and len(v.notes) == len(own) + 2
    assert v.notes[-2].startswith("tokens recorded by the session's 4 answers: 15 input")
    assert v.notes[-1].startswith("file-history snapshots: 4 (1 update), tracking 2 files")
    assert v.ledger["total_tokens"] == 14_205 and v.ledger["snapshots"] == 4
    assert "cache reads (14,205 in all)" in v.notes_box.value
    assert PASTED_API_KEY not in "".join(v.notes)
    v.transcript = ""
    assert v.ledger == {} and v.notes == []
