"""The replay's ledger notes (reports.replay_ledger): the tokens a session's answers recorded
and its file-history snapshots, worded once for `memdir-nb replay` and the replay widget."""

from __future__ import annotations

import json
from pathlib import Path

from memdir_nb import replay_session
from memdir_nb.formats.session_ledger import TRACKED_FILES_KEPT
from memdir_nb.recall.selectors import make_selector
from memdir_nb.reports.replay import SessionReplay
from memdir_nb.reports.replay_ledger import TRACKED_SHOWN, ledger_notes, ledger_totals
from memdir_nb.ui.demo.session import SAMPLE_NOW_MS
from tests.conftest import LEDGER_TRACKED, PASTED_API_KEY, build_ledger_session


def _replay(path: Path, *, show_secrets: bool = False) -> SessionReplay:
    (path.parent / "memory").mkdir(exist_ok=True)
    return replay_session(
        path,
        path.parent / "memory",
        selector=make_selector("lexical"),
        now_ms=SAMPLE_NOW_MS,
        show_secrets=show_secrets,
    )


def test_the_ledger_notes_give_the_token_totals_and_the_snapshots_files(tmp_path: Path) -> None:
    # sessions44: the usage of the session's answers and its file-history snapshots were
    # counted record types only
    replay = _replay(build_ledger_session(tmp_path))
    tokens, snaps = ledger_notes(replay)
    assert tokens == (
        "tokens recorded by the session's 4 answers: 15 input, 190 output, 2,000 cache writes, "
        "12,000 cache reads (14,205 in all); cost recorded (costUSD): $0.0125 over 1 answer; "
        "1 answer without usage; 2 usage or cost fields unreadable, left out"
    )
    assert snaps == (
        "file-history snapshots: 4 (1 update), tracking 2 files: "
        f"{LEDGER_TRACKED[0]}, {LEDGER_TRACKED[1]}; 1 snapshot without a readable file map"
    )
    totals = ledger_totals(replay.session.ledger)
    assert totals["total_tokens"] == 14_205 and totals["tracked_files"] == 2
    assert totals["cost_usd"] == 0.0125 and totals["bad_fields"] == 2


def test_a_tracked_path_in_a_ledger_note_is_redacted_and_shown_as_text(tmp_path: Path) -> None:
    path = build_ledger_session(tmp_path)
    odd = f"/h/\x1b]8;;http://x\x07a\u202eb/{PASTED_API_KEY}/and/a/long/tail/past/the/cut.txt"
    snap = {"type": "file-history-snapshot", "snapshot": {"trackedFileBackups": {odd: {}}}}
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(snap) + "\n")
    (_, snaps) = ledger_notes(_replay(path))
    assert PASTED_API_KEY not in snaps and "\x1b" not in snaps and "\u202e" not in snaps
    assert "tracking 3 files" in snaps and "\\x1b]8;;http://x\\x07a" in snaps
    assert snaps.startswith("file-history snapshots: 5")


def test_a_session_without_answers_or_snapshots_has_no_ledger_notes(tmp_path: Path) -> None:
    path = tmp_path / "p" / "s.jsonl"
    path.parent.mkdir()
    path.write_text('{"type":"user","message":{"role":"user","content":"hi"}}\n', encoding="utf-8")
    assert ledger_notes(_replay(path)) == []


def test_a_snapshot_note_names_five_tracked_paths_redacted_and_counts_the_rest(
    tmp_path: Path,
) -> None:
    # sessions45: only the paths named are redacted (all 200 kept were, for five shown)
    path = build_ledger_session(tmp_path)
    backups: dict[str, dict[str, object]] = {
        f"/h/{PASTED_API_KEY}/f{i}.txt": {} for i in range(TRACKED_FILES_KEPT + 50)
    }
    snap = {"type": "file-history-snapshot", "snapshot": {"trackedFileBackups": backups}}
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(snap) + "\n")
    (_, snaps) = ledger_notes(_replay(path))
    assert f"tracking {TRACKED_FILES_KEPT}+ files: " in snaps
    assert snaps.split("files: ")[1].count(", ") == TRACKED_SHOWN - 1
    assert PASTED_API_KEY not in snaps
    assert f" and {TRACKED_FILES_KEPT - TRACKED_SHOWN:,} more;" in snaps
    (_, shown) = ledger_notes(_replay(path, show_secrets=True))
    assert PASTED_API_KEY[:40] in shown  # asked for by name: as typed (then cut at 80)
