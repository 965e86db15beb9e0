"""A Messages API reply is bounded in time and bytes on every route that asks Claude (§62).

The real anthropic SDK talks HTTP to tests/support/messages_api.py. The routes: the recall
selector (API and `memdir-nb recall --selector anthropic` as a child process) and the tool loop
that the extraction and dream's Claude planner share (`client_from_config`). The bounds live in
security/api_replies.py.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anthropic
import pytest

from memdir_nb.recall import AnthropicSelector
from memdir_nb.security.api_replies import CallDeadlineExceeded
from memdir_nb.spec.constants import MESSAGES_CALL_DEADLINE_S, MESSAGES_REPLY_MAX_BYTES
from memdir_nb.spec.quoted import SHOWN_TEXT_MAX
from memdir_nb.storage.scan import scan_memory_files
from memdir_nb.toolloop.agent_loop import client_from_config, run_tool_loop
from tests.support import write_memory
from tests.support.child_env import child_env
from tests.support.messages_api import MessagesAPIServer, Reply, error_reply, message_body

NOW = 1_760_000_000_000.0
PICK = json.dumps({"selected_memories": ["feedback_testing.md"]})


@pytest.fixture()
def memory_dir(tmp_path: Path) -> Path:
    d = tmp_path / "memory"
    write_memory(
        d,
        "feedback_testing.md",
        name="Real DB in tests",
        description="Integration tests hit a real Postgres, never mocks",
        type="feedback",
        age_days=3,
        now_ms=NOW,
    )
    return d


def _padded(padding: int) -> bytes:
    """A whole, valid reply choosing the memory, made `padding` bytes longer by an extra field."""
    body = message_body(PICK)
    body["padding"] = " " * padding
    return json.dumps(body).encode()


def _reply(payload: bytes, **kwargs: Any) -> Reply:
    headers = {"content-type": "application/json", **kwargs.pop("headers", {})}
    return Reply(200, payload, headers=headers, **kwargs)


# A reply whose bytes come 20 ms apart: each read is far inside a 1 s timeout, the whole reply
# (about 300 bytes) takes several seconds.
def _trickling() -> Reply:
    return _reply(_padded(0), trickle_s=0.02)


def _selector(api: MessagesAPIServer) -> AnthropicSelector:
    return AnthropicSelector(api_key="sk-test", base_url=api.base_url, timeout=1.0, max_retries=0)


def test_a_reply_that_trickles_ends_at_the_selectors_timeout(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    api.enqueue(_trickling())
    selector = _selector(api)
    assert selector.select("tests and databases", scan_memory_files(memory_dir)) == []
    assert "no whole reply within 1 s" in (selector.last_error or "")


def test_a_reply_that_trickles_ends_at_the_tool_loops_timeout(api: MessagesAPIServer) -> None:
    """The extraction and dream's Claude planner build their client with client_from_config."""
    api.enqueue(_trickling())
    config = SimpleNamespace(anthropic_api_key="sk-test")
    client = client_from_config(config, base_url=api.base_url, timeout=1.0, max_retries=0)

    class NoTools:
        def run(self, name: str, tool_input: dict[str, Any]) -> Any:
            raise AssertionError("no tool call was asked for")

    request = {"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]}
    with pytest.raises(anthropic.APITimeoutError) as caught:
        run_tool_loop(request, NoTools(), client=client, max_turns=1)
    assert "no whole reply within 1 s" in str(caught.value.__cause__)


@pytest.mark.parametrize("length_header", [True, False], ids=["content-length", "no length"])
def test_a_reply_over_the_byte_cap_is_not_read(
    api: MessagesAPIServer, memory_dir: Path, length_header: bool
) -> None:
    api.enqueue(_reply(_padded(MESSAGES_REPLY_MAX_BYTES), length_header=length_header))
    selector = _selector(api)
    assert selector.select("tests and databases", scan_memory_files(memory_dir)) == []
    assert f"over the {MESSAGES_REPLY_MAX_BYTES:,}-byte limit" in (selector.last_error or "")


def test_a_compressed_reply_is_refused_before_it_is_unpacked(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    """50 MB of reply in about 50 KB of gzip: what it unpacks to is not known until it is."""
    api.enqueue(_reply(gzip.compress(_padded(50_000_000)), headers={"content-encoding": "gzip"}))
    selector = _selector(api)
    assert selector.select("tests and databases", scan_memory_files(memory_dir)) == []
    assert "came compressed ('gzip')" in (selector.last_error or "")
    assert api.requests[0].headers["accept-encoding"] == "identity"


def _recall_command(
    api: MessagesAPIServer, memory_dir: Path, tmp_path: Path
) -> subprocess.CompletedProcess[str]:
    """`memdir-nb recall --selector anthropic` as a child process, pointed at the stand-in."""
    env = child_env(
        HOME=str(tmp_path / "home"),
        ANTHROPIC_API_KEY="sk-test",
        ANTHROPIC_BASE_URL=api.base_url,
        MEMDIR_NB_CACHE_DIR=str(tmp_path / "cache"),
    )
    args = ["recall", str(memory_dir), "tests?", "--selector", "anthropic"]
    return subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_the_recall_command_refuses_a_compressed_reply(
    api: MessagesAPIServer, memory_dir: Path, tmp_path: Path
) -> None:
    """`memdir-nb recall --selector anthropic` as a child process, pointed at the stand-in."""
    api.enqueue(_reply(gzip.compress(_padded(50_000_000)), headers={"content-encoding": "gzip"}))
    done = _recall_command(api, memory_dir, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Real DB in tests" not in done.stdout
    assert "clearly helps" in done.stdout


def test_a_servers_error_text_is_quoted_cut_and_with_its_controls_escaped(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    """The reason the selector keeps quotes the server: an error body's message (a body that
    is not JSON came through with its controls), or a stop_reason of any length. It is shown in
    the recall widget and the session's notes."""
    link = "\x1b]8;;http://elsewhere.example\x1b\\click\x1b]8;;\x1b\\"
    api.enqueue(
        error_reply(400, link + "A" * 100_000),
        _reply(json.dumps(message_body([], stop_reason=link + "B" * 100_000)).encode()),
        Reply(400, link + "C" * 100_000, headers={"content-type": "text/plain"}),
    )
    selector = _selector(api)
    for _ in range(3):
        assert selector.select("tests and databases", scan_memory_files(memory_dir)) == []
        reason = selector.last_error or ""
        assert "\x1b" not in reason
        assert len(reason) <= 2 * SHOWN_TEXT_MAX
        assert "characters left out" in reason or "..." in reason


# -- a whole call, retries and the waits between them included (§63) ---------------------------


def _overloaded(retry_after_s: int) -> Reply:
    """A 529 at once, asking the client to wait `retry_after_s` before trying again."""
    return error_reply(529, "Overloaded", headers={"retry-after": str(retry_after_s)})


def test_the_selectors_retries_end_at_its_deadline_not_after_each_attempts_timeout(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    """Each attempt trickles: within its own 1 s but never whole. Five retries would have taken
    six attempts and their back-off (about 20 s); the call's 2.5 s deadline ends it."""
    api.default = _trickling()
    selector = AnthropicSelector(
        api_key="sk-test", base_url=api.base_url, timeout=1.0, max_retries=5, deadline=2.5
    )
    assert selector.select("tests and databases", scan_memory_files(memory_dir)) == []
    reason = selector.last_error or ""
    assert "at the call's 2.5 s deadline" in reason
    assert "pass a larger deadline= to AnthropicSelector" in reason
    assert api.request_count <= 3


def test_the_selector_does_not_wait_out_a_servers_retry_after(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    """The SDK waits as long as `retry-after` says (up to 49 days); the selector's whole call is
    held to its timeout, so an hour's wait is refused and no second request is sent."""
    api.default = _overloaded(3600)
    selector = AnthropicSelector(api_key="sk-test", base_url=api.base_url, timeout=5.0)
    assert selector.select("tests and databases", scan_memory_files(memory_dir)) == []
    reason = selector.last_error or ""
    assert "at the call's 5 s deadline" in reason
    assert "a wait of 3600.0 s (the server's retry-after)" in reason
    assert api.request_count == 1


def _tool_loop_request() -> dict[str, Any]:
    return {"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]}


class _NoTools:
    def run(self, name: str, tool_input: dict[str, Any]) -> Any:
        raise AssertionError("no tool call was asked for")


def test_the_tool_loops_call_ends_at_its_deadline_with_the_way_to_raise_it(
    api: MessagesAPIServer,
) -> None:
    """The extraction and dream's Claude planner: client_from_config's client_options."""
    api.default = _trickling()
    config = SimpleNamespace(anthropic_api_key="sk-test")
    client = client_from_config(
        config, base_url=api.base_url, timeout=1.0, max_retries=5, call_deadline_s=2.5
    )
    with pytest.raises(CallDeadlineExceeded) as caught:
        run_tool_loop(_tool_loop_request(), _NoTools(), client=client, max_turns=1)
    assert isinstance(caught.value, anthropic.APITimeoutError)  # what callers already catch
    assert "at the call's 2.5 s deadline" in str(caught.value)
    assert "client_options={'call_deadline_s': ...}" in str(caught.value)
    assert api.request_count <= 3


def test_the_tool_loops_client_has_a_call_deadline_by_default(api: MessagesAPIServer) -> None:
    """On the SDK's defaults (600 s an attempt, 2 retries) a call could wait about 30 minutes;
    an hour's retry-after is refused at once, naming the documented default."""
    api.default = _overloaded(3600)
    config = SimpleNamespace(anthropic_api_key="sk-test")
    client = client_from_config(config, base_url=api.base_url)
    with pytest.raises(CallDeadlineExceeded) as caught:
        run_tool_loop(_tool_loop_request(), _NoTools(), client=client, max_turns=1)
    assert f"at the call's {MESSAGES_CALL_DEADLINE_S:g} s deadline" in str(caught.value)
    # the deadline survives the SDK's own copies of the client
    assert client.with_options(max_retries=1).call_deadline_s == MESSAGES_CALL_DEADLINE_S


def test_the_recall_command_names_the_deadline_a_retry_after_would_pass(
    api: MessagesAPIServer, memory_dir: Path, tmp_path: Path
) -> None:
    """`memdir-nb recall --selector anthropic` as a child process: the line that says the
    selector failed names the deadline instead of the command sleeping for an hour."""
    api.default = _overloaded(3600)
    done = _recall_command(api, memory_dir, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "The anthropic selector failed: " in done.stdout
    assert "at the call's 20 s deadline" in done.stdout
    assert api.request_count == 1
