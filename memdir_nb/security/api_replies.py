"""The one maker of Anthropic SDK clients: every Messages API reply is bounded in time and bytes.

The SDK's `timeout` is httpx's: it bounds each read, each write and the connect, never a whole
reply. A server (or a proxy on the way) that sends one byte every few seconds keeps a request
going for as long as it likes; `memdir-nb recall --selector anthropic`, whose timeout is 20 s,
was still waiting after two minutes on such a reply (forty-second session). The SDK also reads a
reply whole before anything looks at it, and httpx decodes a compressed one whole: a 500 MB
reply took 67 s and 596 MB of memory, and 2 MB of gzip that unpacks to 2 GB took 4 GB.

`messages_client` builds every client the package sends requests with (the recall selector,
the extraction's and dream's tool loops) over `BoundedReplyClient`, which holds each attempt to:

- the request's own timeout (the largest of its phases) as a deadline for the whole attempt,
  headers and body alike. At the deadline the connection's socket is shut, the blocked read
  returns, and the attempt ends as `httpx2.ReadTimeout`, which the SDK retries up to its
  `max_retries` and then raises as `APITimeoutError`. A request made with no read timeout has no
  deadline. Connections are not kept alive, so every attempt's socket is its own;
- `MESSAGES_REPLY_MAX_BYTES` of body, checked against `content-length` before reading and
  counted as the bytes arrive (`ReplyRefused` past it);
- no compression: the request asks for `identity`, and a reply that comes compressed anyway is
  refused before its body is read, since what it unpacks to is not known until it is unpacked.

Each attempt bounded is not yet each call bounded: the SDK retries a failed attempt
`max_retries` times and waits between attempts (up to 8 s, or as long as a `retry-after`
header says: an hour, a day). `BoundedAnthropic` holds the whole call, every attempt and every
wait, to `call_deadline_s` (the caller's, else `MESSAGES_CALL_DEADLINE_S`): each attempt's
deadline is the earlier of its own and the call's, and a wait that would end past the call's
deadline is not waited; the call ends at once as `CallDeadlineExceeded` (an `APITimeoutError`)
naming the deadline and how to raise it.
"""

from __future__ import annotations

import contextlib
import contextvars
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import anthropic
import httpx2

from memdir_nb.spec.constants import MESSAGES_CALL_DEADLINE_S, MESSAGES_REPLY_MAX_BYTES

Trace = Callable[[str, dict[str, Any]], None]
# httpcore2's trace events whose return value is the connection's stream (a plain socket, then
# the TLS one wrapped around it); the prefix is the module's ("connection", "proxy", "socks").
_STREAM_EVENTS = (".connect_tcp.complete", ".start_tls.complete")
_RETRY_AFTER = ("retry-after", "retry-after-ms")  # the headers the SDK waits as long as told by


class ReplyRefused(httpx2.TransportError):
    """A reply past the byte cap, or compressed though `identity` was asked, left unread."""


# how to give a client built by client_from_config (the extraction, dream's Claude planner) more time
RAISE_BY_CLIENT_OPTIONS = "pass a larger client_options={'call_deadline_s': ...} to wait longer"


def messages_client(
    *,
    call_deadline_s: float | None = MESSAGES_CALL_DEADLINE_S,
    how_to_raise: str = RAISE_BY_CLIENT_OPTIONS,
    **client_options: Any,
) -> BoundedAnthropic:
    """An `anthropic.Anthropic` whose replies, and whole calls, are bounded.

    `call_deadline_s` holds each call, retries and the waits between them included (None: only
    each attempt is bounded); `how_to_raise` ends the message of a call that reached it, in the
    caller's words. The caller's own http_client is kept (then only waits are held to it)."""
    if call_deadline_s is not None and not call_deadline_s > 0:
        raise ValueError(
            f"call_deadline_s must be a positive number of seconds (or None), got {call_deadline_s!r}"
        )
    if client_options.get("http_client") is None:  # None too: the SDK would build its own
        client_options["http_client"] = BoundedReplyClient()
    return BoundedAnthropic(
        call_deadline_s=call_deadline_s, how_to_raise=how_to_raise, **client_options
    )


class CallDeadlineExceeded(anthropic.APITimeoutError):
    """A call whose attempts and waits reached its overall deadline; str() says which and how to raise it."""

    def __init__(self, message: str, request: httpx2.Request) -> None:
        super().__init__(request)
        self.message = message
        self.args = (message,)


class _CallClock:
    """One call's deadline, shared by its attempts (`send`) and the waits between them."""

    def __init__(self, seconds: float, how_to_raise: str) -> None:
        self.seconds = seconds
        self.how_to_raise = how_to_raise
        self.ends_at = time.monotonic() + seconds
        self.attempts = 0
        self.last_request: httpx2.Request | None = None

    def left(self) -> float:
        return self.ends_at - time.monotonic()

    def message(self, what: str) -> str:
        tries = f"{self.attempts} attempt{'' if self.attempts == 1 else 's'}"
        return (
            f"stopped at the call's {self.seconds:g} s deadline (every attempt and the waits "
            f"between them), after {tries}: {what}; {self.how_to_raise}"
        )


# the call in progress in this thread (set by BoundedAnthropic.request, read by its attempts)
_CALL: contextvars.ContextVar[_CallClock | None] = contextvars.ContextVar(
    "memdir_nb_messages_call", default=None
)


def sdk_has_retry_wait(sdk_client: type) -> bool:
    """Whether the SDK client class waits between retries through the two methods that
    BoundedAnthropic overrides and calls (anthropic 2.16's names; both private)."""
    sleep = getattr(sdk_client, "_sleep_for_retry", None)
    return callable(sleep) and callable(getattr(sdk_client, "_calculate_retry_timeout", None))


# An SDK that waits another way would wait past the call's deadline unseen: its clients then
# make one attempt a call (max_retries 0), so a failure shows at once instead of a long wait.
_RETRY_WAIT_HELD = sdk_has_retry_wait(anthropic.Anthropic)


class BoundedAnthropic(anthropic.Anthropic):
    """`anthropic.Anthropic` whose every call, retries and waits included, ends by its deadline."""

    def __init__(
        self,
        *,
        call_deadline_s: float | None = MESSAGES_CALL_DEADLINE_S,
        how_to_raise: str = RAISE_BY_CLIENT_OPTIONS,
        **kwargs: Any,
    ) -> None:
        if not _RETRY_WAIT_HELD and call_deadline_s is not None:
            kwargs["max_retries"] = 0
        super().__init__(**kwargs)
        self.call_deadline_s = call_deadline_s
        self.how_to_raise = how_to_raise

    def copy(self, **kwargs: Any) -> Any:
        """The SDK's copy (with_options, with_middleware), keeping the call's deadline."""
        extra = {
            "call_deadline_s": self.call_deadline_s,
            "how_to_raise": self.how_to_raise,
            **dict(kwargs.pop("_extra_kwargs", None) or {}),
        }
        return super().copy(_extra_kwargs=extra, **kwargs)

    with_options = copy  # the SDK binds its own copy to this name

    def request(self, *args: Any, **kwargs: Any) -> Any:
        if self.call_deadline_s is None:
            return super().request(*args, **kwargs)
        token = _CALL.set(_CallClock(self.call_deadline_s, self.how_to_raise))
        try:
            return super().request(*args, **kwargs)
        finally:
            _CALL.reset(token)

    def _sleep_for_retry(
        self,
        *,
        retries_taken: int,
        max_retries: int,
        options: Any,
        response: httpx2.Response | None,
    ) -> None:
        """The SDK's wait before a retry, refused when it would end past the call's deadline."""
        headers = response.headers if response is not None else None
        wait = self._calculate_retry_timeout(max_retries - retries_taken, options, headers)
        clock = _CALL.get()
        if clock is not None and wait >= clock.left():
            request = response.request if response is not None else clock.last_request
            if request is None:
                request = httpx2.Request(options.method, str(self.base_url))
            # with no response the SDK waits inside its handler of the attempt's error
            last = sys.exc_info()[1] if response is None else None
            what = str(last.__cause__) if last is not None and last.__cause__ else "no reply"
            if response is not None:
                what = f"HTTP {response.status_code}"
            if clock.left() > 0:
                told = headers is not None and any(h in headers for h in _RETRY_AFTER)
                what = f"a retry would start only after a wait of {wait:.1f} s" + (
                    " (the server's retry-after)" if told else ""
                )
            raise CallDeadlineExceeded(clock.message(what), request)
        time.sleep(wait)


def reply_deadline(timeout: dict[str, float | None]) -> float | None:
    """Seconds one attempt may take in all: the largest phase of its timeout (None: no read limit)."""
    if timeout.get("read") is None:
        return None
    return float(max(v for v in timeout.values() if v is not None))


def _call_comes_first(seconds: float | None, call: _CallClock | None) -> bool:
    """Whether the call's deadline ends an attempt before the attempt's own timeout would."""
    if call is None:
        return False
    if seconds is None:
        return True
    if call.attempts == 1 and call.seconds >= seconds:
        return False  # a first attempt within the call: its clock started a moment before
    return call.left() < seconds


class _Deadline:
    """Shuts the sockets of one attempt when its time is up, so a trickling read returns."""

    def __init__(self, seconds: float | None, call: _CallClock | None = None) -> None:
        self._call = call if _call_comes_first(seconds, call) else None
        if self._call is not None:
            seconds = max(0.0, self._call.left())
        self.seconds = seconds
        self.expired = False
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._timer: threading.Timer | None = None
        if seconds is not None:
            self._timer = threading.Timer(seconds, self._expire)
            self._timer.daemon = True
            self._timer.start()

    def message(self) -> str:
        if self._call is not None:
            return self._call.message("no whole reply in time")
        return (
            f"no whole reply within {self.seconds:g} s (the request's timeout, held as a deadline "
            "for the whole reply: the server kept the connection open but sent too slowly)"
        )

    def trace(self, inner: Trace | None) -> Trace:
        """A trace hook that notes each stream the attempt opens, then calls the caller's hook."""

        def hook(event: str, info: dict[str, Any]) -> None:
            if event.endswith(_STREAM_EVENTS) and info.get("return_value") is not None:
                sock = info["return_value"].get_extra_info("socket")
                if isinstance(sock, socket.socket):
                    with self._lock:
                        self._sockets.append(sock)
                        if self.expired:
                            _shut(sock)
            if inner is not None:
                inner(event, info)

        return hook

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._sockets:
                _shut(sock)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            self._sockets.clear()


def _shut(sock: socket.socket) -> None:
    # socket.socket's own shutdown, also for a TLS socket: SSLSocket.shutdown would drop its SSL
    # object under the thread still reading from it
    with contextlib.suppress(OSError):  # closed already: the attempt ended on its own
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


class _BoundedStream(httpx2.SyncByteStream):
    """A reply body counted as it arrives; its close stops the attempt's deadline."""

    def __init__(
        self, inner: httpx2.SyncByteStream, deadline: _Deadline, request: httpx2.Request
    ) -> None:
        self._inner = inner
        self._deadline = deadline
        self._request = request

    def __iter__(self) -> Iterator[bytes]:
        total = 0
        try:
            for chunk in self._inner:
                total += len(chunk)
                if total > MESSAGES_REPLY_MAX_BYTES:
                    raise ReplyRefused(_too_large(f"more than {total:,}"), request=self._request)
                yield chunk
        except ReplyRefused:
            raise
        except Exception as err:
            if self._deadline.expired:
                raise httpx2.ReadTimeout(self._deadline.message(), request=self._request) from err
            raise

    def close(self) -> None:
        self._deadline.stop()
        self._inner.close()


def _too_large(size: str) -> str:
    return (
        f"the reply was {size} bytes, over the {MESSAGES_REPLY_MAX_BYTES:,}-byte limit of one "
        "Messages API reply; it was not read"
    )


def _refusal(response: httpx2.Response) -> str | None:
    """Why a reply is refused on its headers alone, or None."""
    encoding = response.headers.get("content-encoding", "").strip().lower()
    if encoding not in ("", "identity"):
        return (
            f"the reply came compressed ({encoding!r}) though the request asked for none; it was "
            "not unpacked, since what it unpacks to is not known until it is"
        )
    length = response.headers.get("content-length", "").strip()
    if length.isdigit() and int(length) > MESSAGES_REPLY_MAX_BYTES:
        return _too_large(f"{int(length):,}")
    return None


class BoundedReplyClient(anthropic.DefaultHttpxClient):
    """The SDK's default HTTP client, each attempt held to a deadline, a byte cap and no compression."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("limits", httpx2.Limits(max_keepalive_connections=0))
        super().__init__(**kwargs)

    def send(
        self, request: httpx2.Request, *, stream: bool = False, **kwargs: Any
    ) -> httpx2.Response:
        timeout = request.extensions.get("timeout") or self.timeout.as_dict()
        call = _CALL.get()
        if call is not None:
            call.attempts += 1
            call.last_request = request
        deadline = _Deadline(reply_deadline(timeout), call)
        request.headers["accept-encoding"] = "identity"
        request.extensions = {
            **request.extensions,
            "trace": deadline.trace(request.extensions.get("trace")),
        }
        try:
            response = super().send(request, stream=True, **kwargs)
        except Exception as err:
            deadline.stop()
            if deadline.expired:
                raise httpx2.ReadTimeout(deadline.message(), request=request) from err
            raise
        assert isinstance(response.stream, httpx2.SyncByteStream)  # a sync client's reply
        response.stream = _BoundedStream(response.stream, deadline, request)
        refusal = _refusal(response)
        if refusal is not None:
            response.close()
            raise ReplyRefused(refusal, request=request)
        if not stream:
            try:
                response.read()
            except BaseException:
                response.close()
                raise
        return response
