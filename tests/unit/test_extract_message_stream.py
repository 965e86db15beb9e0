"""extract/message_stream: a replay's messages, read as the scheduler asks, kept from its cursor."""

from __future__ import annotations

from pathlib import Path

import pytest

from memdir_nb.extract.message_stream import MessageWindow, WindowUpTo, streamed_turn_ends
from memdir_nb.extract.transcript import (
    read_message_skeletons,
    turn_message_ends,
    without_copies,
)
from memdir_nb.home.sessions import read_session

DATA = Path(__file__).resolve().parents[1] / "data"
TRANSCRIPTS = sorted(p for p in DATA.glob("**/*.jsonl") if "secrets" not in p.parts)


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.name)
def test_the_turn_ends_and_messages_are_those_of_the_whole_list(path: Path) -> None:
    session = read_session(path)
    messages = without_copies(session, read_message_skeletons(path))
    assert streamed_turn_ends(path, session) == turn_message_ends(session, messages)
    window = MessageWindow(path, session)
    assert list(WindowUpTo(window, len(messages) + 5)) == messages


def test_a_message_let_go_behind_the_cursor_is_never_read_as_if_it_were_kept() -> None:
    path = DATA / "sample_transcript.jsonl"
    window = MessageWindow(path, read_session(path))
    view = WindowUpTo(window, 10)
    window.let_go_before(6)
    assert view[6:] == WindowUpTo(window, 10)[6:] and len(view[6:]) == 4
    with pytest.raises(IndexError, match="not kept"):
        view[5]
    with pytest.raises(IndexError, match="not kept"):
        list(view)
