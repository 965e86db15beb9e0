"""Telling history the CLI wrote again from new records, by times and prompt texts."""

from __future__ import annotations

from memdir_nb.formats import transcript_records as tr
from memdir_nb.formats.session_copies import CopiedHistory


def _prompt(text: str, stamp: str) -> dict[str, object]:
    return {"type": "user", "timestamp": stamp, "message": {"role": "user", "content": text}}


def _reply(stamp: str) -> dict[str, object]:
    return {"type": "assistant", "timestamp": stamp, "message": {"content": []}}


def test_a_prompt_written_again_after_newer_records_starts_a_copy_until_a_newer_record() -> None:
    seen = CopiedHistory()
    assert not seen.is_copy(_prompt("fix it", "2026-05-01T10:00:00Z"), tr.PROMPT)
    assert not seen.is_copy(_reply("2026-05-01T10:00:05Z"), None)
    assert seen.is_copy(_prompt("fix it", "2026-05-01T10:00:00Z"), tr.PROMPT)
    assert seen.is_copy(_reply("2026-05-01T10:00:05Z"), None)  # the copied answer
    assert not seen.is_copy(_prompt("and now?", "2026-05-01T10:01:00Z"), tr.PROMPT)


def test_the_same_text_at_another_time_is_a_new_prompt() -> None:
    seen = CopiedHistory()
    assert not seen.is_copy(_prompt("go on", "2026-05-01T10:00:00Z"), tr.PROMPT)
    assert not seen.is_copy(_reply("2026-05-01T10:00:05Z"), None)
    assert not seen.is_copy(_prompt("go on", "2026-05-01T10:02:00Z"), tr.PROMPT)
