"""toolloop.recorded: the local Messages API a recorded conversation is served from."""

from __future__ import annotations

import socket

import pytest

from memdir_nb.spec.constants import JSON_BYTES_PER_VALUE
from memdir_nb.toolloop.recorded import MAX_REQUEST_BYTES, RecordedMessagesServer, RefusedRequest


def _post(server: RecordedMessagesServer, length: str, body: bytes) -> bytes:
    """The raw answer to one POST whose Content-Length header is `length`; the connection stays
    open after the body, as a client that never closes it leaves it."""
    host, port = server.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(
            b"POST /v1/messages HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
            + f"content-length: {length}\r\n\r\n".encode()
            + body
        )
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.split(b"\r\n\r\n", 1)[1]) < _length(answer):
            chunk = conn.recv(65536)
            if not chunk:
                break
            answer += chunk
        return answer


def _length(answer: bytes) -> int:
    """The Content-Length of an answer's headers."""
    for line in answer.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":", 1)[1])
    return 0


@pytest.mark.parametrize("length", ["-1", "-99999", "1e3", "12abc", str(MAX_REQUEST_BYTES + 1)])
def test_a_content_length_that_is_not_a_size_within_the_cap_is_refused_unread(length: str) -> None:
    # attack round 26: "-1" made the server read to the end of the stream, past the 16 MiB
    # cap and for as long as the client kept the connection open (the old server never
    # answered; this test's socket timed out); "12abc" ended the handler with a ValueError
    with RecordedMessagesServer([[{"type": "text", "text": "hi"}]]) as server:
        # no body after the headers: bytes the server leaves unread would make its close a
        # reset, and the answer could be lost on the way
        answer = _post(server, length, b"")
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"content-length must be 0 to" in answer


def test_a_request_of_the_size_it_names_is_answered() -> None:
    body = b'{"model": "m", "messages": [{"role": "user", "content": "x"}]}'
    with RecordedMessagesServer([[{"type": "text", "text": "hi"}]]) as server:
        answer = _post(server, str(len(body)), body)
    assert answer.startswith(b"HTTP/1.1 200") and b'"text": "hi"' in answer


def test_a_request_the_value_cap_refuses_is_kept_as_refused_and_answered_with_why() -> None:
    # lefts36: a body over the JSON value cap was kept as None and answered with the first
    # recorded turn, as if it were a new conversation; nothing said it had been dropped
    count = MAX_REQUEST_BYTES // JSON_BYTES_PER_VALUE + 1  # 8 MiB of `0,`: under the byte cap
    body = b"[" + b"0," * (count - 1) + b"0]"
    with RecordedMessagesServer([[{"type": "text", "text": "hi"}]]) as server:
        answer = _post(server, str(len(body)), body)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b"over the limit of 4,194,304" in answer and b'"text": "hi"' not in answer
    (kept,) = server.requests
    assert isinstance(kept, RefusedRequest) and kept.size == len(body)
    assert str(kept).startswith(f"a request of {len(body):,} bytes was not read: request holds")
