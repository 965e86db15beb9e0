"""A model's refusal in a transcript: what the CLI took back, and which model answered instead.

When the API ends a stream with ``stop_reason: "refusal"`` (a model's safeguards; 2.1.19x and
later) the CLI writes, after the refused request's partial answer:

- ``system/model_refusal_fallback`` when it retries on another model: ``originalModel``,
  ``fallbackModel``, ``apiRefusalCategory``, ``refusedUserMessageUuid``, ``requestId`` (the
  refused request) and ``retractedMessageUuids``, the uuids of the partial answer's records.
  The retry's first assistant record names the same records in ``supersedesUuids``. The
  retracted records stay in the file: the conversation the model sees next has them removed.
- ``system/model_refusal_no_fallback`` when nothing retries: the same fields less the
  fallback; a harness-made API error reply ("... safeguards flagged this message") follows.

A retracted response is marked (``AssistantResponse.retracted``) and stays in its turn; its
tool calls count only where a result shows they ran (``Turn.tool_calls``), and its records are
listed in ``Session.retracted_uuids`` so the extractor's conversation leaves them out. Only
assistant records of the running turn are taken back: a uuid naming anything else (the prompt,
an earlier turn) takes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memdir_nb.formats.session_model import AssistantResponse, Session
from memdir_nb.formats.transcript_records import record_id
from memdir_nb.spec.text import cap_text

REFUSAL_SUBTYPES = frozenset({"model_refusal_fallback", "model_refusal_no_fallback"})

MAX_RETRACTED = 4096  # uuids kept in Session.retracted_uuids (a hostile file cannot grow it)
_MAX_NAMED = 256  # uuids read from one record's list
_MAX_TURN_RECORDS = 4096  # assistant records of one turn kept to be retracted by uuid


def named_uuids(record: Mapping[str, Any], key: str) -> list[str]:
    """The record uuids a list field names (retractedMessageUuids, supersedesUuids)."""
    raw = record.get(key)
    if not isinstance(raw, list):
        return []
    return [u for u in raw[:_MAX_NAMED] if record_id(u) is not None]


def _text(record: Mapping[str, Any], key: str) -> str | None:
    value = record.get(key)
    return value if isinstance(value, str) and value else None


def refusal_note(record: Mapping[str, Any]) -> str:
    """One line for a refusal record: 'claude-fable-5 refused (cyber); answered by claude-opus-4-8'."""
    model = _text(record, "originalModel") or "the model"
    category = _text(record, "apiRefusalCategory")
    fallback = _text(record, "fallbackModel")
    then = f"answered by {fallback}" if fallback else "no fallback model answered"
    if record.get("subtype") == "model_refusal_fallback" and not fallback:
        then = "answered again"
    return cap_text(f"{model} refused" + (f" ({category})" if category else "") + f"; {then}", 300)


class Retractions:
    """The running turn's assistant responses by record uuid and request id, so that a later
    refusal record (or a retry's supersedesUuids) can mark the ones it takes back."""

    def __init__(self) -> None:
        self._by_uuid: dict[str, AssistantResponse] = {}
        self._by_request: dict[str, AssistantResponse] = {}

    def start_turn(self) -> None:
        self._by_uuid, self._by_request = {}, {}

    def saw(self, record: Mapping[str, Any], response: AssistantResponse, session: Session) -> None:
        """An assistant record of the running turn; a retry's supersedesUuids retract."""
        uuid, request = record_id(record.get("uuid")), record_id(record.get("requestId"))
        if len(self._by_uuid) < _MAX_TURN_RECORDS:
            if uuid is not None:
                self._by_uuid[uuid] = response
            if request is not None:
                self._by_request.setdefault(request, response)
        self._retract(named_uuids(record, "supersedesUuids"), None, session)

    def refused(self, record: Mapping[str, Any], session: Session) -> None:
        """A model_refusal_fallback / model_refusal_no_fallback record: noted on the running
        turn, and the refused request's partial answer marked as taken back."""
        if session.turns:
            notes = session.turns[-1].refusals
            if len(notes) < 8:
                notes.append(refusal_note(record))
        uuids = named_uuids(record, "retractedMessageUuids")
        self._retract(uuids, record_id(record.get("requestId")), session)

    def _retract(self, uuids: list[str], request: str | None, session: Session) -> None:
        for uuid in uuids:  # only the running turn's answers: never a prompt, whatever is named
            response = self._by_uuid.get(uuid)
            if response is None:
                continue
            response.retracted = True
            if len(session.retracted_uuids) < MAX_RETRACTED:
                session.retracted_uuids.add(uuid)
        refused = self._by_request.get(request) if request is not None else None
        if refused is not None and not refused.synthetic:
            refused.retracted = True
