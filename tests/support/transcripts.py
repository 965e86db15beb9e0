"""Transcript messages built in memory for the extractor's tests."""

from __future__ import annotations

import json

from memdir_nb.extract import TranscriptMessage, parse_transcript_lines


def numbered_messages(n: int, start: int = 0) -> list[TranscriptMessage]:
    """n alternating user/assistant messages with uuids u<start>.. and text 'message <i>'."""
    lines = [
        json.dumps(
            {
                "type": "user" if i % 2 == 0 else "assistant",
                "uuid": f"u{i}",
                "message": {
                    "role": "user" if i % 2 == 0 else "assistant",
                    "content": f"message {i}",
                },
            }
        )
        for i in range(start, start + n)
    ]
    return parse_transcript_lines(lines).messages
