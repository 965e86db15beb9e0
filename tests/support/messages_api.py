"""A local stand-in for the Anthropic Messages API, for tests that drive the real SDK.

Start it with `with MessagesAPIServer() as api:` and point the SDK at `api.base_url`.
Replies are scripted, one per request, in order (`api.enqueue(...)`); when the script runs
out, `api.default` answers (an error unless set). Every request is recorded (method, path,
headers, parsed JSON body) in `api.requests`. A reply can hold its response until an event is
set or a delay passes, which is how tests make timeouts and in-flight cancellations happen.

It speaks the wire format: POST /v1/messages returns a `message` object with content blocks,
usage and stop_reason; errors use Anthropic's `{"type": "error", "error": {...}}` body.

Message threads: the SDK's tool runner (anthropic >= 2.2) threads by default, sending only the
new messages plus a `thread` field. `MessagesAPIServer(refuse_threads=True)` answers such a
request as an API without threads does (400, error_code `thread_unsupported_request`) without
using up a scripted reply; the runner then re-sends the turn unthreaded with the whole history.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


@dataclass
class RecordedRequest:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when it was not JSON
    index: int  # 0-based order of arrival


@dataclass
class Reply:
    """One scripted response."""

    status: int = 200
    body: Any = None  # dict/list -> JSON; str/bytes -> sent as is
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0  # sleep before answering (cut short when the server stops)
    hold: threading.Event | None = None  # wait for this event before answering
    hold_timeout_s: float = 30.0
    # the body goes out one byte at a time with this pause between bytes (a server or proxy
    # that sends too slowly for any whole-reply deadline, but fast enough for a per-read one)
    trickle_s: float = 0.0
    # False: no content-length; the body ends when the connection closes (counted as it comes)
    length_header: bool = True


ReplySource = Reply | Callable[[RecordedRequest], Reply]


def message_body(
    content: list[dict[str, Any]] | str,
    *,
    model: str = "claude-test",
    stop_reason: str = "end_turn",
    input_tokens: int = 100,
    output_tokens: int = 20,
) -> dict[str, Any]:
    """A Messages API `message` object; a plain string becomes one text block."""
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    return {
        "id": f"msg_{uuid.uuid4().hex[:24]}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
    }


def text_reply(text: str, **kwargs: Any) -> Reply:
    """A 200 reply whose message holds one text block."""
    headers = kwargs.pop("headers", {})
    delay_s = kwargs.pop("delay_s", 0.0)
    hold = kwargs.pop("hold", None)
    return Reply(200, message_body(text, **kwargs), headers=headers, delay_s=delay_s, hold=hold)


def json_reply(payload: Any, **kwargs: Any) -> Reply:
    """A 200 reply whose single text block is `payload` serialised as JSON (structured output)."""
    return text_reply(json.dumps(payload), **kwargs)


def tool_use_reply(
    name: str,
    tool_input: dict[str, Any],
    *,
    tool_id: str | None = None,
    text: str | None = None,
    **kwargs: Any,
) -> Reply:
    """A 200 reply asking for one tool call (stop_reason 'tool_use')."""
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    blocks.append(
        {
            "type": "tool_use",
            "id": tool_id or f"toolu_{uuid.uuid4().hex[:20]}",
            "name": name,
            "input": tool_input,
        }
    )
    return Reply(200, message_body(blocks, stop_reason="tool_use", **kwargs))


def tool_calls_reply(
    calls: list[tuple[str, dict[str, Any]]], *, text: str | None = None, **kwargs: Any
) -> Reply:
    """A 200 reply asking for several tool calls at once (ids toolu_00, toolu_01, ...)."""
    blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    for i, (name, tool_input) in enumerate(calls):
        blocks.append(
            {"type": "tool_use", "id": f"toolu_{i:02d}", "name": name, "input": tool_input}
        )
    return Reply(200, message_body(blocks, stop_reason="tool_use", **kwargs))


def thread_unsupported_reply() -> Reply:
    """The 400 an API without message threads gives a threaded request."""
    body: dict[str, Any] = {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "message threads are not offered here",
            "details": {"error_code": "thread_unsupported_request", "unsupported": ["thread"]},
        },
    }
    return Reply(400, body)


def error_reply(
    status: int,
    message: str = "scripted error",
    *,
    error_type: str | None = None,
    headers: dict[str, str] | None = None,
    **kwargs: Any,
) -> Reply:
    """An error in Anthropic's format: {"type": "error", "error": {"type": ..., "message": ...}}."""
    body = {
        "type": "error",
        "error": {"type": error_type or ERROR_TYPES.get(status, "api_error"), "message": message},
    }
    return Reply(status, body, headers=dict(headers or {}), **kwargs)


class MessagesAPIServer:
    """A threaded HTTP server on 127.0.0.1 (port 0) answering with scripted replies."""

    def __init__(
        self,
        replies: Sequence[ReplySource] | None = None,
        *,
        default: ReplySource | None = None,
        refuse_threads: bool = False,
    ) -> None:
        self.refuse_threads = refuse_threads
        self._lock = threading.Lock()
        self._script: list[ReplySource] = list(replies or [])
        self.default: ReplySource = default or error_reply(
            500, "the test script has no reply for this request"
        )
        self.requests: list[RecordedRequest] = []
        self._arrived = threading.Condition(self._lock)
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> MessagesAPIServer:
        """Bind 127.0.0.1 on a free port and serve in a daemon thread."""
        handler = self._make_handler()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="messages-api",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Release held replies, stop serving and close the socket."""
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> MessagesAPIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:<port> (pass as the SDK's base_url)."""
        if self._server is None:
            raise RuntimeError(
                "the server is not running; use it as a context manager or call start()"
            )
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    # -- script and records -----------------------------------------------------------------

    def enqueue(self, *replies: ReplySource) -> None:
        """Append replies to the script; each answers one future request, in order."""
        with self._lock:
            self._script.extend(replies)

    @property
    def request_count(self) -> int:
        """How many requests have arrived so far."""
        with self._lock:
            return len(self.requests)

    def wait_for_requests(self, count: int, timeout: float = 10.0) -> bool:
        """Block until at least `count` requests have arrived; False on timeout."""
        with self._arrived:
            return self._arrived.wait_for(lambda: len(self.requests) >= count, timeout=timeout)

    def _record(self, request: RecordedRequest) -> None:
        with self._arrived:
            request.index = len(self.requests)
            self.requests.append(request)
            self._arrived.notify_all()

    def _record_and_pick(self, request: RecordedRequest) -> Reply:
        with self._arrived:
            request.index = len(self.requests)
            self.requests.append(request)
            source = self._script.pop(0) if self._script else self.default
            self._arrived.notify_all()
        return source(request) if callable(source) else source

    def _answer(self, request: RecordedRequest) -> Reply:
        """The reply to one request: a route error, a refused thread, else the next scripted one."""
        threaded = isinstance(request.body, dict) and request.body.get("thread") is not None
        if request.method != "POST" or request.path.split("?")[0] != "/v1/messages":
            self._record(request)
            return error_reply(404, f"no route for {request.method} {request.path}")
        if threaded and self.refuse_threads:
            self._record(request)
            return thread_unsupported_reply()
        return self._record_and_pick(request)

    def _wait_before_sending(self, reply: Reply) -> None:
        """Hold a reply until its event is set (or the server stops), then sleep its delay."""
        if reply.hold is not None:
            waited = 0.0
            while (
                not reply.hold.is_set()
                and not self._stopping.is_set()
                and waited < reply.hold_timeout_s
            ):
                reply.hold.wait(0.05)
                waited += 0.05
        if reply.delay_s:
            self._stopping.wait(reply.delay_s)

    def _make_handler(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                return

            def _handle(self) -> None:
                reply = api._answer(_read_request(self))
                api._wait_before_sending(reply)
                self._send(reply)

            def _send(self, reply: Reply) -> None:
                payload, content_type = _payload(reply)
                try:
                    self.send_response(reply.status)
                    self.send_header(
                        "content-type", reply.headers.get("content-type", content_type)
                    )
                    if reply.length_header:
                        self.send_header("content-length", str(len(payload)))
                    else:
                        self.send_header("connection", "close")
                        self.close_connection = True
                    self.send_header("request-id", f"req_{uuid.uuid4().hex[:16]}")
                    for key, value in reply.headers.items():
                        if key.lower() != "content-type":
                            self.send_header(key, value)
                    self.end_headers()
                    self._write_body(payload, reply.trickle_s)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout or cancellation); nothing to answer

            def _write_body(self, payload: bytes, trickle_s: float) -> None:
                if not trickle_s:
                    self.wfile.write(payload)
                    return
                for i in range(len(payload)):
                    if api._stopping.wait(trickle_s):
                        return
                    self.wfile.write(payload[i : i + 1])
                    self.wfile.flush()

            do_POST = _handle
            do_GET = _handle

        return Handler


def _read_request(handler: BaseHTTPRequestHandler) -> RecordedRequest:
    """The request as recorded: its body decoded as JSON when it is JSON, else as text."""
    length = int(handler.headers.get("content-length") or 0)
    raw = handler.rfile.read(length) if length else b""
    try:
        body: Any = json.loads(raw) if raw else None
    except ValueError:
        body = raw.decode("utf-8", "replace")
    headers = {k.lower(): v for k, v in handler.headers.items()}
    return RecordedRequest(handler.command, handler.path, headers, body, -1)


def _payload(reply: Reply) -> tuple[bytes, str]:
    """A reply's body as bytes, and the content type it goes out with unless the reply sets one."""
    if isinstance(reply.body, (dict, list)):
        return json.dumps(reply.body).encode(), "application/json"
    if isinstance(reply.body, bytes):
        return reply.body, "application/octet-stream"
    return str(reply.body or "").encode(), "application/json"
