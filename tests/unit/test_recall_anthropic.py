"""AnthropicSelector against a local Messages API server, through the real anthropic SDK."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.formats.manifest import format_memory_manifest
from memdir_nb.recall import AnthropicSelector, find_relevant_memories
from memdir_nb.recall.anthropic_selector import MAX_TOKENS, RESPONSE_SCHEMA, SYSTEM_PROMPT
from memdir_nb.recall.prefetch import start_relevant_memory_prefetch
from memdir_nb.storage.scan import scan_memory_files
from tests.support import write_memory
from tests.support.messages_api import MessagesAPIServer, error_reply, json_reply, text_reply

NOW = 1_760_000_000_000.0
MODEL = "claude-test-model"


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
    write_memory(
        d,
        "reference_grep_usage.md",
        name="Grep usage",
        description="Grep tool usage: regex syntax and glob filters",
        type="reference",
        age_days=1,
        now_ms=NOW,
    )
    write_memory(
        d,
        "team/project_freeze.md",
        name="Merge freeze",
        description="Merge freeze for the mobile release",
        type="project",
        age_days=0,
        now_ms=NOW,
    )
    return d


def selector_for(api: MessagesAPIServer, **kwargs: Any) -> AnthropicSelector:
    kwargs.setdefault("max_retries", 0)
    kwargs.setdefault("timeout", 5.0)
    return AnthropicSelector(
        api_key="sk-test-not-real", base_url=api.base_url, model=MODEL, **kwargs
    )


def test_correct_reply_returns_paths_in_the_order_chosen(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    api.enqueue(
        json_reply({"selected_memories": ["team/project_freeze.md", "feedback_testing.md"]})
    )
    selector = selector_for(api)
    found = find_relevant_memories("Can I merge today?", memory_dir, selector=selector)
    assert [m.path for m in found] == [
        str(memory_dir / "team/project_freeze.md"),
        str(memory_dir / "feedback_testing.md"),
    ]
    assert selector.last_error is None
    assert all(m.mtime_ms > 0 for m in found)


def test_request_carries_model_max_tokens_schema_manifest_and_no_tools_section(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    api.enqueue(json_reply({"selected_memories": []}))
    find_relevant_memories("Can I merge today?", memory_dir, selector=selector_for(api))
    assert api.request_count == 1
    request = api.requests[0]
    assert request.path == "/v1/messages"
    sent_key = request.headers.get("x-api-key") or request.headers.get("authorization", "")
    assert sent_key.endswith("sk-test-not-real")
    body = request.body
    assert body["model"] == MODEL
    assert body["max_tokens"] == MAX_TOKENS == 256
    assert body["system"] == SYSTEM_PROMPT
    assert body["output_config"] == {"format": {"type": "json_schema", "schema": RESPONSE_SCHEMA}}
    assert RESPONSE_SCHEMA["required"] == ["selected_memories"]
    assert RESPONSE_SCHEMA["additionalProperties"] is False
    assert len(body["messages"]) == 1 and body["messages"][0]["role"] == "user"
    content = body["messages"][0]["content"]
    assert content.startswith("Query: Can I merge today?\n\nAvailable memories:\n")
    manifest = format_memory_manifest(scan_memory_files(memory_dir))
    assert manifest in content
    assert "- [project] team/project_freeze.md (" in content
    assert "Recently used tools" not in content


def test_tools_section_present_when_tools_given(api: MessagesAPIServer, memory_dir: Path) -> None:
    api.enqueue(json_reply({"selected_memories": []}))
    find_relevant_memories(
        "search the code", memory_dir, recent_tools=("Grep", "Bash"), selector=selector_for(api)
    )
    content = api.requests[0].body["messages"][0]["content"]
    assert content.endswith("\n\nRecently used tools: Grep, Bash")


def test_filename_not_in_manifest_is_dropped_and_duplicates_collapse(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    api.enqueue(
        json_reply(
            {
                "selected_memories": [
                    "made_up.md",
                    "feedback_testing.md",
                    "feedback_testing.md",
                    "../etc/passwd",
                ]
            }
        )
    )
    found = find_relevant_memories("tests", memory_dir, selector=selector_for(api))
    assert [m.path for m in found] == [str(memory_dir / "feedback_testing.md")]


def test_unknown_names_are_dropped_before_the_five_cap(
    api: MessagesAPIServer, tmp_path: Path
) -> None:
    d = tmp_path / "memory"
    real = [f"feedback_rule_{i}.md" for i in range(5)]
    for name in real:
        write_memory(
            d, name, name=name[:-3], description="a rule", type="feedback", age_days=1, now_ms=NOW
        )
    invented = [f"invented_{i}.md" for i in range(4)]
    # The model names four files that do not exist ahead of the five real ones.
    api.enqueue(json_reply({"selected_memories": [*invented, *real]}))
    api.enqueue(json_reply({"selected_memories": [*invented, *real]}))
    assert selector_for(api).select("rules", scan_memory_files(d)) == real
    found = find_relevant_memories("rules", d, selector=selector_for(api))
    assert sorted(os.path.basename(m.path) for m in found) == sorted(real)


def test_malformed_json_gives_empty_and_records_reason(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    api.enqueue(text_reply('{"selected_memories": ["feedback_testing.md"'))
    selector = selector_for(api)
    assert find_relevant_memories("tests", memory_dir, selector=selector) == []
    assert "not valid JSON" in (selector.last_error or "")


def test_wrong_shape_gives_empty_and_records_reason(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    api.enqueue(json_reply({"selected_memories": "feedback_testing.md"}))
    selector = selector_for(api)
    assert find_relevant_memories("tests", memory_dir, selector=selector) == []
    assert "list of filename strings" in (selector.last_error or "")


def test_refusal_gives_empty_and_records_reason(api: MessagesAPIServer, memory_dir: Path) -> None:
    api.enqueue(text_reply("", stop_reason="refusal"))
    selector = selector_for(api)
    assert find_relevant_memories("tests", memory_dir, selector=selector) == []
    assert "refused" in (selector.last_error or "")


def test_rate_limit_then_success_is_retried_by_the_sdk(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    api.enqueue(
        error_reply(429, "slow down", headers={"retry-after-ms": "10"}),
        json_reply({"selected_memories": ["feedback_testing.md"]}),
    )
    selector = selector_for(api, max_retries=2)
    found = find_relevant_memories("tests", memory_dir, selector=selector)
    assert [m.path for m in found] == [str(memory_dir / "feedback_testing.md")]
    assert api.request_count == 2
    assert selector.last_error is None


def test_server_error_gives_empty_and_names_the_status(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    api.default = error_reply(500, "boom", headers={"retry-after-ms": "5"})
    selector = selector_for(api, max_retries=1)
    assert find_relevant_memories("tests", memory_dir, selector=selector) == []
    assert "HTTP 500" in (selector.last_error or "")
    assert api.request_count == 2  # the first try and one retry


def test_error_is_cleared_after_a_later_success(api: MessagesAPIServer, memory_dir: Path) -> None:
    api.enqueue(error_reply(500, "boom"), json_reply({"selected_memories": []}))
    selector = selector_for(api)
    find_relevant_memories("tests", memory_dir, selector=selector)
    assert selector.last_error is not None
    find_relevant_memories("tests", memory_dir, selector=selector)
    assert selector.last_error is None


def test_timeout_gives_empty_and_says_it_timed_out(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    release = threading.Event()
    api.enqueue(json_reply({"selected_memories": ["feedback_testing.md"]}, hold=release))
    selector = selector_for(api, timeout=0.3)
    try:
        assert find_relevant_memories("tests", memory_dir, selector=selector) == []
    finally:
        release.set()
    assert "timed out" in (selector.last_error or "")


def test_missing_or_empty_dir_returns_empty_without_calling_the_api(
    api: MessagesAPIServer, tmp_path: Path
) -> None:
    selector = selector_for(api)
    assert find_relevant_memories("tests", tmp_path / "nope", selector=selector) == []
    (tmp_path / "empty").mkdir()
    assert find_relevant_memories("tests", tmp_path / "empty", selector=selector) == []
    assert api.request_count == 0


def test_all_already_surfaced_means_no_api_call(api: MessagesAPIServer, memory_dir: Path) -> None:
    selector = selector_for(api)
    surfaced = {
        str(memory_dir / "feedback_testing.md"),
        "reference_grep_usage.md",
        "team/project_freeze.md",
    }
    assert (
        find_relevant_memories("tests", memory_dir, already_surfaced=surfaced, selector=selector)
        == []
    )
    assert api.request_count == 0


def test_surfaced_memories_are_left_out_of_the_manifest(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    api.enqueue(json_reply({"selected_memories": ["feedback_testing.md"]}))
    found = find_relevant_memories(
        "tests", memory_dir, already_surfaced={"feedback_testing.md"}, selector=selector_for(api)
    )
    assert found == []  # the model named a memory that was not offered
    assert "feedback_testing.md" not in api.requests[0].body["messages"][0]["content"]


def test_build_request_needs_no_key_and_matches_what_is_sent(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    headers = scan_memory_files(memory_dir)
    offline = AnthropicSelector(model=MODEL)
    expected = offline.build_request("q", headers, ("Grep",))
    api.enqueue(json_reply({"selected_memories": []}))
    selector_for(api).select("q", headers, recent_tools=("Grep",))
    assert api.requests[0].body == expected


def test_cancelled_prefetch_sends_no_further_request_and_returns_nothing(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    hold = threading.Event()
    # the first attempt is held open, then answers 429: without the cancel guard the SDK would retry
    api.enqueue(error_reply(429, "busy", headers={"retry-after-ms": "10"}, hold=hold))
    api.default = json_reply({"selected_memories": ["feedback_testing.md"]})
    selector = selector_for(api, max_retries=2)
    with start_relevant_memory_prefetch("tests", memory_dir, selector=selector) as prefetch:
        assert api.wait_for_requests(1, timeout=10)
        prefetch.cancel()
        assert prefetch.done and prefetch.cancelled
        assert prefetch.result_if_ready() == []
    hold.set()
    assert prefetch.join(timeout=15)
    assert api.request_count == 1
    assert prefetch.result_if_ready() == []
    assert "cancel" in (selector.last_error or "")


def test_invalid_timeout_is_refused_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match="timeout must be a positive"):
        AnthropicSelector(timeout=0)
    with pytest.raises(ValueError, match="deadline must be a positive"):
        AnthropicSelector(deadline=-1)


def test_the_selectors_whole_call_is_held_to_its_timeout_unless_given_a_deadline() -> None:
    """Retries and their waits included: 20 s, where three 20 s attempts made about 62 s."""
    assert AnthropicSelector(api_key="sk-test", timeout=20).client.call_deadline_s == 20
    chosen = AnthropicSelector(api_key="sk-test", timeout=5, deadline=12)
    assert chosen.client.call_deadline_s == 12


def test_last_request_is_what_the_api_received(api: MessagesAPIServer, memory_dir: Path) -> None:
    api.enqueue(json_reply({"selected_memories": []}))
    selector = selector_for(api)
    headers = scan_memory_files(memory_dir)
    selector.select("Can I merge today?", headers, recent_tools=["Bash"])
    sent = api.requests[0].body
    assert selector.last_request is not None
    assert selector.last_request == {key: sent[key] for key in selector.last_request}


def test_last_request_is_cleared_when_nothing_is_sent(
    api: MessagesAPIServer, memory_dir: Path
) -> None:
    api.enqueue(json_reply({"selected_memories": []}))
    selector = selector_for(api)
    selector.select("Can I merge today?", scan_memory_files(memory_dir))
    first = selector.last_request  # a local: asserting on the attribute would narrow it below
    assert first is not None
    assert selector.select("Can I merge today?", []) == []
    assert selector.last_request is None and api.request_count == 1
