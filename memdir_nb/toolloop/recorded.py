"""A recorded conversation served as a Messages API on 127.0.0.1, for running without a key.

`RecordedMessagesServer(turns)` answers `POST /v1/messages` with the recorded assistant turns,
so the real anthropic client (and its tool runner) can drive a tool with no key and no network:

    with RecordedMessagesServer(turns) as server:
        client = Anthropic(api_key="recorded", base_url=server.base_url, max_retries=0)

A turn is the list of content blocks of one assistant message; a turn holding a `tool_use`
block ends with stop_reason "tool_use", the others with "end_turn". The reply to a request is
the turn after the assistant messages already in its history, so the server keeps no state
between requests. The SDK's tool runner threads its requests by default (it sends only the new
messages and a `thread` field); like an API that does not offer threads, the server answers such
a request with the 400 `thread_unsupported_request` error, and the runner then re-sends it
unthreaded, with the whole history, on every SDK version. Every request is kept in `requests`:
a body the bounded JSON parser refuses (over its byte, depth or value cap, or not JSON) is kept
as a `RefusedRequest` saying why, and answered with a 400 error in the same words, never with a
recorded turn (lefts36: it was kept as None and answered with the first turn).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from memdir_nb.formats.jsonio import loads_bounded

MAX_REQUEST_BYTES = 16 * 1024 * 1024
THREAD_UNSUPPORTED = {
    "type": "error",
    "error": {
        "type": "invalid_request_error",
        "message": "this recorded conversation does not offer message threads",
        "details": {"error_code": "thread_unsupported_request", "unsupported": ["thread"]},
    },
}


def _body_length(header: str | None) -> int | None:
    """A request's Content-Length (no header: 0), or None unless it is a whole number from 0
    to MAX_REQUEST_BYTES: "-1" was read as "to the end of the stream", with no cap."""
    text = (header or "0").strip()
    if not text.isascii() or not text.isdigit() or int(text) > MAX_REQUEST_BYTES:
        return None
    return int(text)


@dataclass(frozen=True)
class RefusedRequest:
    """A request body kept in `requests` in place of one the parser refused, and why."""

    size: int  # the body's bytes
    reason: str  # the parser's words: which cap, or where the JSON broke

    def __str__(self) -> str:
        return f"a request of {self.size:,} bytes was not read: {self.reason}"


def _error(message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}


def assistant_message(blocks: Sequence[dict[str, Any]], turn: int, model: str) -> dict[str, Any]:
    """A Messages API `message` object for one recorded turn."""
    tool_use = any(b.get("type") == "tool_use" for b in blocks)
    return {
        "id": f"msg_recorded_{turn:03d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": list(blocks),
        "stop_reason": "tool_use" if tool_use else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 0, "output_tokens": 0},
    }


def turns_done(body: object) -> int:
    """How many assistant turns a request's history already holds."""
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list):
        return 0
    return sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")


class RecordedMessagesServer:
    """A Messages API on 127.0.0.1 (a free port) that replays recorded assistant turns."""

    def __init__(self, turns: Sequence[Sequence[dict[str, Any]]]) -> None:
        if not turns:
            raise ValueError("a recorded conversation needs at least one assistant turn")
        self.turns = [list(t) for t in turns]
        self.requests: list[Any] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    def __enter__(self) -> RecordedMessagesServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> RecordedMessagesServer:
        """Serve in a daemon thread until stop()."""
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="recorded-messages",
            daemon=True,
        ).start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:<port>, for the client's base_url."""
        if self._server is None:
            raise RuntimeError("the server is not running; use it in a `with` block")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def reply(self, body: object) -> tuple[int, dict[str, Any]]:
        """(status, JSON body) for one request body."""
        if isinstance(body, dict) and body.get("thread") is not None:
            return 400, THREAD_UNSUPPORTED
        turn = turns_done(body)
        if turn >= len(self.turns):
            message = f"the recorded conversation has {len(self.turns)} turns; turn {turn + 1} was asked for"
            return 400, _error(message)
        model = body.get("model", "recorded") if isinstance(body, dict) else "recorded"
        return 200, assistant_message(self.turns[turn], turn, str(model))

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = _body_length(self.headers.get("content-length"))
                if length is None:  # never read to the end of the stream (attack round 26)
                    self._send(413, _error(f"content-length must be 0 to {MAX_REQUEST_BYTES}"))
                    self.close_connection = True
                    return
                raw = self.rfile.read(length) if length else b""
                try:
                    body: Any = (
                        loads_bounded(raw, max_bytes=MAX_REQUEST_BYTES, what="request")
                        if raw
                        else None
                    )
                except ValueError as err:  # JSONLimitError and JSONDecodeError alike
                    body = RefusedRequest(len(raw), str(err))
                with server._lock:
                    server.requests.append(body)
                if isinstance(body, RefusedRequest):
                    status, payload = 400, _error(str(body))
                elif self.path.split("?")[0] != "/v1/messages":
                    status, payload = (
                        404,
                        {
                            "type": "error",
                            "error": {
                                "type": "not_found_error",
                                "message": f"no route {self.path}",
                            },
                        },
                    )
                else:
                    status, payload = server.reply(body)
                self._send(status, payload)

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
