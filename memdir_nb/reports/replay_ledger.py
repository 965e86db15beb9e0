"""A replayed session's ledger (formats.session_ledger) as the replay shows it: its numbers,
and its notes, one line each (the tokens its answers recorded, its file-history snapshots and
the files they track).

The one home of that wording: `memdir-nb replay` prints the notes under its own (text and
`--json`), and the replay widget lists them after the replay's notes (ui.views.replay).
"""

from __future__ import annotations

from memdir_nb.formats.session_ledger import TRACKED_FILES_KEPT, SessionLedger
from memdir_nb.reports.replay_table import SessionReplay
from memdir_nb.spec.text import clip, first_few, one_line, plural, terminal_line

TRACKED_SHOWN = 5  # tracked files a ledger note names, then how many more
TRACKED_PATH_CHARS = 80  # each cut here


def ledger_totals(ledger: SessionLedger) -> dict[str, int | float | None]:
    """The ledger's numbers (the paths stay in the notes): the widget's `ledger` state and
    `memdir-nb replay --json`'s `ledger`."""
    return {
        "snapshots": ledger.snapshots,
        "snapshot_updates": ledger.snapshot_updates,
        "tracked_files": len(ledger.tracked_files),
        "bad_snapshots": ledger.bad_snapshots,
        "messages": ledger.messages,
        "input_tokens": ledger.input_tokens,
        "output_tokens": ledger.output_tokens,
        "cache_creation_input_tokens": ledger.cache_creation_input_tokens,
        "cache_read_input_tokens": ledger.cache_read_input_tokens,
        "total_tokens": ledger.total_tokens,
        "no_usage": ledger.no_usage,
        "bad_fields": ledger.bad_fields,
        "cost_usd": ledger.cost_usd,
        "costed_messages": ledger.costed_messages,
    }


def ledger_notes(replay: SessionReplay) -> list[str]:
    """The session's ledger as notes, one line each, made as the replay's notes are (a tracked
    path may hold anything: redacted unless the replay shows secrets, every control and bidi
    character an escape): the tokens its answers recorded, then its file-history snapshots and
    the files they track. Empty for a session with neither."""
    ledger = replay.session.ledger
    notes = []
    if ledger.messages:
        note = (
            f"tokens recorded by the session's {plural(ledger.messages, 'answer')}: "
            f"{ledger.input_tokens:,} input, {ledger.output_tokens:,} output, "
            f"{ledger.cache_creation_input_tokens:,} cache writes, "
            f"{ledger.cache_read_input_tokens:,} cache reads ({ledger.total_tokens:,} in all)"
        )
        if ledger.cost_usd is not None:
            note += f"; cost recorded (costUSD): ${ledger.cost_usd:,.4f} over {plural(ledger.costed_messages, 'answer')}"
        if ledger.no_usage:
            note += f"; {plural(ledger.no_usage, 'answer')} without usage"
        if ledger.bad_fields:
            note += f"; {plural(ledger.bad_fields, 'usage or cost field')} unreadable, left out"
        notes.append(note)
    if ledger.snapshots:
        notes.append(_snapshot_note(ledger, replay))
    return [terminal_line(replay.shown(n)) for n in notes]


def _snapshot_note(ledger: SessionLedger, replay: SessionReplay) -> str:
    """'file-history snapshots: 4 (1 update), tracking 2 files: a, b; 1 unreadable'. Only the
    paths named are redacted (the rest are counted), each before it is cut: a credential cut in
    two is not found whole."""
    tracked = ledger.tracked_files
    named = [clip(one_line(replay.shown(p)), TRACKED_PATH_CHARS) for p in tracked[:TRACKED_SHOWN]]
    count = (
        f"{TRACKED_FILES_KEPT}+ files"
        if ledger.more_tracked_files
        else plural(len(tracked), "file")
    )
    note = f"file-history snapshots: {ledger.snapshots:,} ({plural(ledger.snapshot_updates, 'update')}), tracking {count}"
    if named:
        note += ": " + first_few(named, TRACKED_SHOWN, count=len(tracked))
    if ledger.bad_snapshots:
        note += f"; {plural(ledger.bad_snapshots, 'snapshot')} without a readable file map"
    return note
