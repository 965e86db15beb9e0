"""Reading a model's refusal: the note a turn carries, and the uuids a record takes back."""

from __future__ import annotations

from memdir_nb.formats.session_model import AssistantResponse, Session, Turn
from memdir_nb.formats.session_refusals import (
    MAX_RETRACTED,
    Retractions,
    named_uuids,
    refusal_note,
)


def test_the_note_names_the_refusing_model_its_category_and_what_answered() -> None:
    fallback = {"subtype": "model_refusal_fallback", "originalModel": "claude-fable-5-1"}
    assert refusal_note({**fallback, "fallbackModel": "claude-opus-4-8"}) == (
        "claude-fable-5-1 refused; answered by claude-opus-4-8"
    )
    assert refusal_note(fallback) == "claude-fable-5-1 refused; answered again"
    alone = {"subtype": "model_refusal_no_fallback", "apiRefusalCategory": "bio"}
    assert refusal_note(alone) == "the model refused (bio); no fallback model answered"


def test_only_string_uuids_are_named_and_a_long_list_is_cut() -> None:
    assert named_uuids({"supersedesUuids": ["a", 3, "", None, "b"]}, "supersedesUuids") == [
        "a",
        "b",
    ]
    assert named_uuids({"retractedMessageUuids": "a"}, "retractedMessageUuids") == []
    many = {"retractedMessageUuids": [f"u{i}" for i in range(10_000)]}
    assert len(named_uuids(many, "retractedMessageUuids")) == 256


def test_the_uuids_a_session_keeps_as_taken_back_are_capped() -> None:
    session = Session(turns=[Turn(index=0, prompt="p", kind="prompt", line_no=1)])
    retractions = Retractions()
    for batch in range(MAX_RETRACTED // 256 + 2):
        retractions.start_turn()
        uuids = [f"{batch}-{i}" for i in range(256)]
        answer = AssistantResponse(f"m{batch}", "claude-fable-5", 1)
        for uuid in uuids:
            retractions.saw({"uuid": uuid}, answer, session)
        retractions.refused({"retractedMessageUuids": uuids}, session)
        assert answer.retracted
    assert len(session.retracted_uuids) == MAX_RETRACTED
    assert len(session.turns[0].refusals) == 8


def test_a_refusal_naming_the_prompt_or_an_unseen_record_takes_nothing_back() -> None:
    session = Session()
    retractions = Retractions()
    answer = AssistantResponse("m", "claude-opus-4-8", 2)
    retractions.saw({"uuid": "a1"}, answer, session)
    retractions.refused({"retractedMessageUuids": ["the-prompt", "elsewhere"]}, session)
    assert not answer.retracted and session.retracted_uuids == set()


def test_a_harness_made_reply_sharing_the_refused_request_id_is_not_taken_back() -> None:
    session = Session()
    retractions = Retractions()
    reply = AssistantResponse("e", "<synthetic>", 3)
    retractions.saw({"uuid": "x", "requestId": "req_d"}, reply, session)
    retractions.refused({"requestId": "req_d"}, session)
    assert not reply.retracted and session.retracted_uuids == set()
