"""The dream view-model: the time, sessions and lock gates as rows, and whether a dream would run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memdir_nb.dream import GateResult, SessionScanThrottle
from memdir_nb.home.gates import AutoDreamDecision
from memdir_nb.ui.views import dream as view
from tests.conftest import build_forgotten_dir
from tests.support import snapshot

HOUR_MS = 3_600_000.0
NOW = 1_770_000_000_000.0


def _gate(**kw: Any) -> GateResult:
    base: dict[str, Any] = dict(
        open=False,
        gate="time",
        reason="",
        last_consolidated_ms=0.0,
        session_count=None,
        throttle=SessionScanThrottle(),
    )
    base.update(kw)
    return GateResult(**base)


def test_never_consolidated_opens_the_time_gate() -> None:
    rows = view.gate_rows(
        _gate(open=True, gate="open", session_count=6), "free", min_hours=24, min_sessions=5
    )
    assert [(r.name, r.state) for r in rows] == [
        ("time", "open"),
        ("sessions", "open"),
        ("lock", "open"),
    ]
    assert rows[0].why == "never consolidated"
    assert rows[1].why == "6 session(s) since then (needs 5)"


def test_a_recent_consolidation_closes_the_time_gate_and_skips_the_sessions_check() -> None:
    gate = _gate(last_consolidated_ms=NOW - 3 * HOUR_MS)
    rows = view.gate_rows(gate, "free", min_hours=24, min_sessions=5, now_ms=NOW)
    assert rows[0] == view.GateRow("time", "closed", "last consolidation 3.0 h ago (needs 24 h)")
    assert rows[1] == view.GateRow("sessions", "not checked", "time gate closed first")
    assert not view.would_run(gate, "free")


def test_a_consolidation_dated_slightly_ahead_of_the_clock_says_so() -> None:
    # thirty-second session: it read "last consolidation -0.5 h ago"
    gate = _gate(last_consolidated_ms=NOW + HOUR_MS / 2)
    rows = view.gate_rows(gate, "held", min_hours=24, min_sessions=5, now_ms=NOW)
    assert rows[0] == view.GateRow(
        "time", "closed", "last consolidation dated 0.5 h ahead of this clock (needs 24 h)"
    )


def test_a_held_lock_is_a_closed_gate_even_when_the_others_are_open() -> None:
    gate = _gate(open=True, gate="open", session_count=9)
    rows = view.gate_rows(gate, "held by 4242", min_hours=24, min_sessions=5, now_ms=NOW)
    assert rows[-1] == view.GateRow("lock", "closed", "consolidation lock is held by 4242")
    assert not view.would_run(gate, "held by 4242")
    assert view.would_run(gate, "stale")


def test_unreadable_gates_show_only_the_lock_row() -> None:
    rows = view.gate_rows(None, "unreadable: bad pid", min_hours=24, min_sessions=5)
    assert rows == [view.GateRow("lock", "closed", "unreadable: bad pid")]
    assert not view.would_run(None, "free")


def test_claude_codes_setting_is_the_first_gate_and_only_an_explicit_off_stops_a_dream() -> None:
    gate = _gate(open=True, gate="open", session_count=6)
    off = AutoDreamDecision(False, "autoDreamEnabled=false in user settings", "user settings")
    rows = view.gate_rows(gate, "free", min_hours=24, min_sessions=5, switch=off)
    assert rows[0] == view.GateRow("setting", "closed", "autoDreamEnabled=false in user settings")
    assert [r.name for r in rows[1:]] == ["time", "sessions", "lock"]
    assert not view.would_run(gate, "free", off)
    unknown = AutoDreamDecision(None, "the rollout flag decides", "nothing set")
    assert view.gate_rows(None, "free", min_hours=24, min_sessions=5, switch=unknown)[0].state == (
        "not known"
    )
    assert view.would_run(gate, "free", unknown)


def test_restore_choices_put_the_dreams_first_then_the_forgotten_memories_labelled() -> None:
    assert view.restore_choices(["dream-a", "dream-b"], ["team/g.md", "k.md"]) == [
        ("dream-b", "dream-b"),
        ("dream-a", "dream-a"),
        ("team/g.md (forgotten)", "team/g.md"),
        ("k.md (forgotten)", "k.md"),
    ]


def test_nothing_to_restore_names_forgotten_memories_when_the_list_holds_some() -> None:
    assert "no dream or forgotten memory is selected" in view.nothing_to_restore(True, True)
    assert "no dream is selected; pick one" in view.nothing_to_restore(True, False)
    assert "no dream has been applied and no memory forgotten" in view.nothing_to_restore(
        False, False
    )


def test_restore_preview_is_the_dry_run_and_writes_nothing(tmp_path: Path) -> None:
    mem = build_forgotten_dir(tmp_path)
    before = snapshot(mem)
    assert view.restore_preview(mem, "kiln.md") == (
        "Restoring kiln.md would put back 1 file(s): kiln.md."
    )
    assert view.restore_preview(mem, None) == ""
    assert view.restore_preview(mem, "nope.md").startswith("nope.md cannot be restored: nothing")
    assert snapshot(mem) == before
