"""One line of a Claude Code transcript parsed into records, bounded.

Every parse goes through :func:`memdir_nb.formats.jsonio.loads_bounded`. A line holding two
records glued together (a writer appended before the previous line got its newline) is split
and both records are kept. Envelope, message and tool-call fields past their caps (ids, names,
times) are dropped as the line is parsed. A UTF-8 byte-order mark is passed over; UTF-16 text
is named with the way to convert it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memdir_nb.formats.jsonio import JSONLimitError, loads_bounded, loads_glued, looks_utf16
from memdir_nb.spec.constants import (
    PATH_MAX_BYTES,
    TRANSCRIPT_LINE_MAX_BYTES,
    TRANSCRIPT_LINE_MAX_VALUES,
)

# The longest id (a uuid is 36 characters) and envelope field a record carries; a longer one is
# dropped as the line is parsed: a session keeps them per turn and answer, and 6 MB timestamps,
# ids and tool names were held whole, 413 MB from a 360 MB transcript (attack round 20).
RECORD_ID_MAX_CHARS = 128
_ID_FIELDS = ("uuid", "parentUuid", "logicalParentUuid", "leafUuid", "sessionId", "requestId")
_RECORD_FIELD_MAX_CHARS = {  # promptId, agentId and toolUseID are ids too
    **dict.fromkeys((*_ID_FIELDS, "promptId", "agentId", "toolUseID"), RECORD_ID_MAX_CHARS),
    **dict.fromkeys(("timestamp", "version", "entrypoint", "userType"), 64),
    **dict.fromkeys(("gitBranch", "slug"), 256),
    "cwd": PATH_MAX_BYTES,
}
_MESSAGE_FIELD_MAX_CHARS = {"id": RECORD_ID_MAX_CHARS, "model": 256}
_BLOCK_FIELD_MAX_CHARS = {
    "id": RECORD_ID_MAX_CHARS,
    "tool_use_id": RECORD_ID_MAX_CHARS,
    "name": 256,
}


def record_id(value: object) -> str | None:
    """A record's id (uuid, requestId, one a list names) if a string of 1 to 128 characters."""
    return value if isinstance(value, str) and 0 < len(value) <= RECORD_ID_MAX_CHARS else None


@dataclass(frozen=True)
class TranscriptProblem:
    """A transcript line that could not be used (or only partly), with its 1-based line number."""

    line_no: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line_no}: {self.reason}"


def parse_record_line(
    data: str | bytes, *, max_bytes: int = TRANSCRIPT_LINE_MAX_BYTES
) -> tuple[list[dict[str, Any]], str | None]:
    """The records on one line and a problem sentence (None when the line was clean).

    A line that is not JSON, not an object, too long or too deep gives ([], reason). A line
    with several objects glued together gives all of them and says so. A UTF-8 byte-order mark
    before the first record (Windows tools write one) is passed over; UTF-16 text is named.
    """
    if data[:1] == "\ufeff" or data[:3] == _UTF8_BOM:
        data = data[1:] if isinstance(data, str) else data[3:]
    try:
        value = loads_bounded(
            data, max_bytes=max_bytes, what="transcript line", max_values=TRANSCRIPT_LINE_MAX_VALUES
        )
    except JSONLimitError as exc:
        return [], f"{exc}; skipped"
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data":
            return _split_glued(data, max_bytes)
        if _looks_utf16(data):
            return [], _UTF16_REASON
        return [], f"not JSON ({_decode_error(exc)}); skipped"
    except ValueError as exc:
        return [], f"not JSON ({exc}); skipped"
    if not isinstance(value, dict):
        return [], "not a JSON object; skipped"
    return [_within_field_caps(value)], None


def _drop_overlong(fields: dict[str, Any], caps: Mapping[str, int]) -> None:
    for key, cap in caps.items():
        if isinstance(value := fields.get(key), str) and len(value) > cap:
            del fields[key]


def _within_field_caps(record: dict[str, Any]) -> dict[str, Any]:
    """record less its envelope, message and tool-call fields past their caps (ids, names)."""
    _drop_overlong(record, _RECORD_FIELD_MAX_CHARS)
    message = record.get("message")
    if isinstance(message, dict):
        _drop_overlong(message, _MESSAGE_FIELD_MAX_CHARS)
        content = message.get("content")
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict):
                _drop_overlong(block, _BLOCK_FIELD_MAX_CHARS)
    return record


_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_REASON = (
    "UTF-16 text, not UTF-8: Claude Code writes transcripts as UTF-8 JSON Lines; convert the "
    "file (for example `iconv -f UTF-16 -t UTF-8`) and read it again; skipped"
)


def _looks_utf16(data: str | bytes) -> bool:
    """Whether a line that failed to parse is UTF-16 text: a UTF-16 byte-order mark, or NULs
    between its characters (every ASCII character of UTF-16 text has a zero byte beside it)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return looks_utf16(raw)


def _decode_error(exc: json.JSONDecodeError) -> str:
    """The parser's complaint and where: "Unterminated string starting at column 29"."""
    return f"{exc.msg.removesuffix(' at')} at column {exc.colno}"


def _split_glued(data: str | bytes, max_bytes: int) -> tuple[list[dict[str, Any]], str | None]:
    """Records glued on one line (`}{`), parsed by the one JSON reader under the line's caps."""
    values, error = loads_glued(
        data, max_bytes=max_bytes, what="transcript line", max_values=TRANSCRIPT_LINE_MAX_VALUES
    )
    records = [_within_field_caps(value) for value in values if isinstance(value, dict)]
    if error is not None:
        reason = f"not JSON after {len(records)} record(s) ({_decode_error(error)})"
        return records, reason + ("; the rest was skipped" if records else "; skipped")
    return records, f"{len(records)} records glued on one line; each was read"
