"""AnthropicSelector: a model reads the manifest and names the memories that will help.

It sends one Messages API request with structured output constrained to
{"selected_memories": [filename, ...]}, max_tokens 256. Any failure (HTTP error, timeout,
refusal, malformed or wrongly shaped JSON) gives [] and a reason in `last_error`: a broken
recall must never break the turn it serves. `timeout` bounds the whole call, the SDK's retries
and the waits between them included, unless `deadline` gives the call a bound of its own.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from memdir_nb.formats.jsonio import JSONLimitError, loads_bounded
from memdir_nb.formats.manifest import format_memory_manifest
from memdir_nb.recall.base import RecallCancelled, check_headers, keep_known_filenames
from memdir_nb.spec.constants import (
    DEFAULT_MODEL,
    MAX_RELEVANT_MEMORIES,
    MODEL_REPLY_MAX_BYTES,
    SELECTOR_TIMEOUT_S,
)
from memdir_nb.spec.quoted import shown_text, shown_value

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.formats.manifest import MemoryHeader

DEFAULT_MAX_RETRIES = 2
MAX_TOKENS = 256

RESPONSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "selected_memories": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["selected_memories"],
    "additionalProperties": False,
}

# The project's own wording of the selection rules (see docs/selection.md).
SYSTEM_PROMPT = """\
Your job is to pick, from a list of saved memory files, the ones that Claude Code should read \
before it works on the user's request. Each memory is listed with its type, its filename, when \
it was last saved, and a one-line description.

Answer with the filenames of the memories that will plainly help with this request, at most five, \
most useful first. Judge by the name and description only.
- Be strict. A memory that merely shares a word or topic with the request does not belong; \
leave out anything you are unsure about.
- Choosing nothing is a good answer when nothing clearly helps: return an empty list.
- When recently used tools are listed, Claude Code is already working with those tools, so \
leave out memories that explain how to use them (usage notes, reference or API docs). Do keep \
memories that warn about them: gotchas, known issues, limits and bugs matter most while a tool \
is in use.
- Copy filenames exactly as they appear in the list."""


def build_user_message(query: str, manifest: str, recent_tools: Sequence[str] = ()) -> str:
    """The single user turn: the query, the memory list, and the tools section when tools are given."""
    text = f"Query: {query}\n\nAvailable memories:\n{manifest}"
    tools = [t for t in recent_tools if t and t.strip()]
    if tools:
        text += f"\n\nRecently used tools: {', '.join(tools)}"
    return text


class AnthropicSelector:
    """Model-backed selector using the `anthropic` SDK; never raises into the caller."""

    name = "anthropic"

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        client: Any | None = None,
        model: str = DEFAULT_MODEL,
        timeout: float = SELECTOR_TIMEOUT_S,
        max_retries: int = DEFAULT_MAX_RETRIES,
        deadline: float | None = None,
        how_to_raise: str = "pass a larger deadline= to AnthropicSelector to wait longer",
    ) -> None:
        if not timeout > 0:
            raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
        if deadline is not None and not deadline > 0:
            raise ValueError(f"deadline must be a positive number of seconds, got {deadline!r}")
        if max_retries < 0:
            raise ValueError(f"max_retries must be 0 or more, got {max_retries!r}")
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        # the whole call, every attempt and every wait between them (None given: the timeout)
        self.deadline = timeout if deadline is None else deadline
        # the fix a call stopped at its deadline names, in the caller's words (the CLI's flag)
        self.how_to_raise = how_to_raise
        self._api_key = api_key
        self._base_url = base_url
        self._client = client
        self._client_lock = threading.Lock()
        self.last_error: str | None = None
        self.last_response: Any = None
        # the keyword arguments the last select() really passed to messages.create (None when
        # it sent nothing); the recall view shows this, never a request rebuilt for display
        self.last_request: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"AnthropicSelector(model={self.model!r}, timeout={self.timeout}, max_retries={self.max_retries})"

    @property
    def client(self) -> Any:
        """The SDK client, built on first use (the SDK reads ANTHROPIC_API_KEY if no key was given)."""
        with self._client_lock:
            if self._client is None:
                # local: it imports the SDK and httpx2 (about a second), needed only once a client is
                # built; its module bounds every reply in time and bytes
                from memdir_nb.security.api_replies import messages_client

                kwargs: dict[str, Any] = {
                    "timeout": self.timeout,
                    "max_retries": self.max_retries,
                    "call_deadline_s": self.deadline,
                    "how_to_raise": self.how_to_raise,
                }
                if self._api_key is not None:
                    kwargs["api_key"] = self._api_key
                if self._base_url is not None:
                    kwargs["base_url"] = self._base_url
                self._client = messages_client(**kwargs)
            return self._client

    def build_request(
        self, query: str, headers: Sequence[MemoryHeader], recent_tools: Sequence[str] = ()
    ) -> dict[str, Any]:
        """The exact keyword arguments messages.create receives (safe to show: no key inside)."""

        manifest = format_memory_manifest(headers)
        return {
            "model": self.model,
            "max_tokens": MAX_TOKENS,
            "system": SYSTEM_PROMPT,
            "messages": [
                {"role": "user", "content": build_user_message(query, manifest, recent_tools)}
            ],
            "output_config": {"format": {"type": "json_schema", "schema": RESPONSE_SCHEMA}},
        }

    def select(
        self,
        query: str,
        headers: Sequence[MemoryHeader],
        *,
        recent_tools: Sequence[str] = (),
        cancel: threading.Event | None = None,
    ) -> list[str]:
        """Ask the model; return the known filenames it chose (at most five), or [] on any failure."""
        check_headers(headers, "AnthropicSelector.select()")
        self.last_error = None
        self.last_request = None
        if not headers:
            return []
        if cancel is not None and cancel.is_set():
            self.last_error = "cancelled before the request was sent"
            raise RecallCancelled(self.last_error)
        try:
            request = self.build_request(query, headers, recent_tools)
            client = self.client
            if cancel is not None:
                client = client.with_middleware(_cancel_guard(cancel))
            self.last_request = request
            response = client.messages.create(**request)
        except RecallCancelled:
            self.last_error = "cancelled: no further request was sent"
            raise
        except Exception as err:  # any SDK or transport failure ends as "no memories"
            if cancel is not None and cancel.is_set():
                self.last_error = "cancelled while the request was in flight"
                raise RecallCancelled(self.last_error) from err
            self.last_error = describe_api_error(err)
            return []
        if cancel is not None and cancel.is_set():
            self.last_error = "cancelled; the reply that arrived was discarded"
            raise RecallCancelled(self.last_error)
        self.last_response = response
        try:
            names = parse_selection(response)
        except ValueError as err:
            self.last_error = str(err)
            return []
        # Unknown names first, then the cap: a model that also invents names must not push
        # real picks past the fifth slot.
        return keep_known_filenames(
            names, (h.filename for h in headers), limit=MAX_RELEVANT_MEMORIES
        )


def _cancel_guard(cancel: threading.Event) -> Any:
    """SDK middleware that refuses to send any attempt (first try or retry) once cancelled."""

    def memdir_recall_cancel_guard(request: Any, call_next: Any) -> Any:
        if cancel.is_set():
            raise RecallCancelled("prefetch cancelled; request not sent")
        return call_next(request)

    return memdir_recall_cancel_guard


def describe_api_error(err: BaseException) -> str:
    """A one-line reason naming the failure kind, e.g. 'HTTP 500 api_error: ...'.

    The server's own words are in it (an error body's message, up to a whole reply's 8 MiB,
    controls and all), so the reason is quoted as spec.quoted quotes what it did not write: cut,
    every control a visible escape. It is shown in the recall widget and the session's notes."""
    import anthropic

    if isinstance(err, anthropic.APITimeoutError):
        reason = f"request timed out: {err.__cause__ or err}"
    elif isinstance(err, anthropic.APIStatusError):
        reason = f"HTTP {err.status_code} from the Messages API: {err.message}"
    elif isinstance(err, anthropic.APIConnectionError):
        reason = f"connection error: {err.__cause__ or err}"
    else:
        reason = f"{type(err).__name__}: {err}"
    return shown_text(reason)


def parse_selection(response: Any) -> list[str]:
    """Pull selected_memories out of a message; ValueError names what was wrong."""
    stop_reason = getattr(response, "stop_reason", None)
    if stop_reason == "refusal":
        raise ValueError("the model refused to answer (stop_reason 'refusal')")
    texts = [
        getattr(block, "text", "")
        for block in getattr(response, "content", [])
        if getattr(block, "type", None) == "text"
    ]
    raw = "".join(texts).strip()
    if not raw:
        raise ValueError(f"the reply had no text to parse (stop_reason {shown_value(stop_reason)})")
    try:
        data = loads_bounded(raw, max_bytes=MODEL_REPLY_MAX_BYTES, what="the reply")
    except JSONLimitError as err:
        raise ValueError(f"the reply was refused: {err}") from err
    except json.JSONDecodeError as err:
        hint = " (cut off by max_tokens)" if stop_reason == "max_tokens" else ""
        raise ValueError(
            f"the reply was not valid JSON{hint}: {err.msg} at char {err.pos}"
        ) from err
    if not isinstance(data, dict) or "selected_memories" not in data:
        raise ValueError("the reply JSON has no 'selected_memories' key")
    selected = data["selected_memories"]
    if not isinstance(selected, list) or not all(isinstance(x, str) for x in selected):
        raise ValueError("'selected_memories' must be a list of filename strings")
    return selected
