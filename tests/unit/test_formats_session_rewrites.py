"""Telling a VS Code resume's copy of the history (one new time, new uuids) from typed turns."""

from __future__ import annotations

from memdir_nb.formats import transcript_records as tr
from memdir_nb.formats.session_rewrites import COPY, NOT_A_COPY, OPENS, RewrittenHistory

T0, T1, RESUME = "2026-05-01T10:00:00.000Z", "2026-05-01T10:05:00.000Z", "2026-05-02T09:00:00.000Z"


def _prompt(text: str, stamp: str) -> dict[str, object]:
    return {
        "type": "user",
        "uuid": f"u-{text}-{stamp}",
        "timestamp": stamp,
        "message": {"content": text},
    }


def _answer(mid: str, stamp: str, *, from_api: bool = True) -> dict[str, object]:
    record: dict[str, object] = {"type": "assistant", "timestamp": stamp, "message": {"id": mid}}
    if from_api:
        record["requestId"] = f"req-{mid}-{stamp}"
    return record


def _two_turns(seen: RewrittenHistory) -> None:
    """'fix it' answered by m1, then 'go on' answered by m2, as the builder reports them."""
    for text, stamp, mid in (("fix it", T0, "m1"), ("go on", T1, "m2")):
        assert seen.judge(_prompt(text, stamp), tr.PROMPT, True) == NOT_A_COPY
        seen.started(text, stamp, "prompt")
        assert seen.judge(_answer(mid, stamp), None, True) == NOT_A_COPY


def _resumed(seen: RewrittenHistory) -> None:
    """The copy's first prompt, begun as a turn, and its answer opening the block."""
    _two_turns(seen)
    assert seen.judge(_prompt("fix it", RESUME), tr.PROMPT, True) == NOT_A_COPY
    seen.started("fix it", RESUME, "prompt")
    assert seen.judge(_answer("m1", RESUME, from_api=False), None, True) == OPENS


def test_the_block_repeats_the_later_prompts_in_order_and_their_answers() -> None:
    seen = RewrittenHistory()
    _resumed(seen)
    assert seen.judge(_prompt("go on", RESUME), tr.PROMPT, True) == COPY
    assert seen.judge(_answer("m2", RESUME, from_api=False), None, True) == COPY


def test_a_prompt_the_block_already_passed_ends_it() -> None:
    seen = RewrittenHistory()
    _resumed(seen)
    assert seen.judge(_prompt("go on", RESUME), tr.PROMPT, True) == COPY
    assert seen.judge(_prompt("fix it", RESUME), tr.PROMPT, True) == NOT_A_COPY


def test_an_answer_from_the_api_or_a_record_of_another_time_ends_the_block() -> None:
    seen = RewrittenHistory()
    _resumed(seen)
    assert seen.judge(_answer("m2", RESUME), None, True) == NOT_A_COPY  # it has a requestId
    seen = RewrittenHistory()
    _resumed(seen)
    assert seen.judge(_prompt("go on", "2026-05-02T09:00:00.004Z"), tr.PROMPT, True) == NOT_A_COPY


def test_an_earlier_answer_without_a_request_id_at_another_time_than_its_prompt_opens_nothing() -> (
    None
):
    seen = RewrittenHistory()
    _two_turns(seen)
    seen.judge(_prompt("fix it", RESUME), tr.PROMPT, True)
    seen.started("fix it", RESUME, "prompt")
    late = "2026-05-02T09:00:01.000Z"
    assert seen.judge(_answer("m1", late, from_api=False), None, True) == NOT_A_COPY
