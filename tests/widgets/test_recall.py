from __future__ import annotations

import json
import os
from pathlib import Path

from memdir_nb.home.config import MemdirConfig
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.ui.views.recall import NOT_RUN_NOTE
from memdir_nb.ui.widgets import RecallPlayground
from tests.support import NOW
from tests.support.ports import free_port


def test_claude_option_is_disabled_without_a_key_and_says_why(
    mem: Path, config: MemdirConfig
) -> None:
    p = RecallPlayground(mem, now_ms=NOW, config=config)
    assert p.claude.disabled and not p.claude.value
    assert p.selector_name == "semantic"  # the offline default
    assert "no ANTHROPIC_API_KEY" in p.claude_reason.value


def test_claude_option_is_enabled_with_a_key(mem: Path, tmp_path: Path) -> None:
    cfg = MemdirConfig.for_tests(
        home=tmp_path, cwd=tmp_path, now_ms=NOW, anthropic_api_key="sk-ant-test"
    )
    p = RecallPlayground(mem, now_ms=NOW, config=cfg)
    assert not p.claude.disabled and p.claude.value and p.selector_name == "anthropic"
    assert "sk-ant-test" not in p.request_json  # the key never appears in the shown request


def test_no_request_is_shown_before_a_turn_runs(mem: Path, config: MemdirConfig) -> None:
    p = RecallPlayground(mem, now_ms=NOW, config=config)
    p.query.value = "who is on call this week"
    p.tools.value = ["Bash"]
    assert p.request_json == NOT_RUN_NOTE  # typing builds no request for display
    assert "press Recall" in p.request_box.value
    assert p.manifest.count("\n") == 39  # the 40 memories the next turn offers


def test_an_offline_turn_shows_the_inputs_the_semantic_selector_ranked(
    mem: Path, config: MemdirConfig
) -> None:
    p = RecallPlayground(mem, now_ms=NOW, config=config)
    p.run("who is on call this week", tools=["Bash", "kubectl"])
    req = json.loads(p.request_json)
    assert req["selector"] == "semantic"
    assert req["query"] == "who is on call this week"
    assert req["recent_tools"] == ["Bash", "kubectl"]
    assert len(req["candidates"]) == 40 and "team/reference_oncall.md" in req["candidates"]
    assert "Request the semantic selector received" in p.request_title.value
    assert "who is on call" in p.request_box.value


def test_an_offline_turn_explains_each_memory_with_both_scores(
    mem: Path, config: MemdirConfig
) -> None:
    p = RecallPlayground(mem, now_ms=NOW, config=config)
    picked = p.run("who is on call this week")
    rows = {r["memory"]: r for r in p.explanation}
    assert len(rows) == 40  # every candidate, picked or not, with its reason
    assert {r["picked"] for r in rows.values()} == {"yes", "no"}
    for m in picked:
        row = rows[os.path.relpath(m.path, mem)]
        assert row["picked"] == "yes" and row["semantic"] and row["lexical (BM25)"] and row["why"]
    assert any(
        r["matched window"].startswith("window ") for r in rows.values() if r["picked"] == "yes"
    )
    assert p.last_preview is not None and p.last_preview.matched  # the view keeps them too
    assert "Why each memory was or was not picked" in p.explanation_box.value


def test_a_claude_turn_shows_the_request_the_api_received(mem: Path, tmp_path: Path) -> None:
    from memdir_nb.recall import AnthropicSelector
    from tests.support.messages_api import MessagesAPIServer, json_reply

    cfg = MemdirConfig.for_tests(
        home=tmp_path, cwd=tmp_path, now_ms=NOW, anthropic_api_key="sk-ant-test"
    )
    with MessagesAPIServer() as api:
        api.enqueue(json_reply({"selected_memories": ["team/reference_oncall.md"]}))
        selector = AnthropicSelector(
            api_key="sk-ant-test", base_url=api.base_url, max_retries=0, timeout=5
        )
        p = RecallPlayground(mem, now_ms=NOW, config=cfg, selector=selector)
        p.run("who is on call this week", tools=["Bash"])
        sent = api.requests[0].body
    shown = json.loads(p.request_json)
    assert shown == {key: sent[key] for key in shown}  # every shown field is what went out
    assert set(shown) >= {"model", "max_tokens", "system", "messages"}
    content = shown["messages"][0]["content"]
    assert content.startswith("Query: who is on call this week")
    assert "Recently used tools: Bash" in content and p.manifest in content
    assert "sk-ant-test" not in p.request_json
    assert [m.path for m in p.selected] == [str(mem / "team/reference_oncall.md")]


def test_a_turn_with_nothing_left_to_offer_says_no_request_was_sent(
    mem: Path, config: MemdirConfig
) -> None:
    p = RecallPlayground(mem, now_ms=NOW, config=config)
    for header in scan_memory_dir(mem, limit=None).headers:
        p.session.mark_surfaced(header.file_path)
    p.run("who is on call this week")
    assert p.request_json.startswith("(no request: every memory was already surfaced")


def test_the_tool_input_is_wide_enough_to_use(mem: Path, config: MemdirConfig) -> None:
    # the TagsInput text box is as wide as its placeholder (it was one character wide)
    p = RecallPlayground(mem, now_ms=NOW, config=config)
    assert len(p.tools.placeholder) >= 30
    assert p.tools.layout.width == "60%" and p.tools.layout.min_width == "24em"


def test_a_per_memory_explanation_is_shown_as_a_table(mem: Path, config: MemdirConfig) -> None:
    p = RecallPlayground(mem, now_ms=NOW, config=config)
    assert p.explanation_box.value == ""
    p.show_explanation([{"memory": "a.md", "decision": "picked"}])
    assert "<th>memory</th><th>decision</th>" in p.explanation_box.value
    assert "<td>a.md</td><td>picked</td>" in p.explanation_box.value
    p.new_session()
    assert p.explanation_box.value == ""


def test_run_injects_memories_with_headers_and_freshness_notes(
    mem: Path, config: MemdirConfig
) -> None:
    p = RecallPlayground(mem, now_ms=NOW, config=config)
    p.query.value = "how do we deploy to production"
    p.run_button.click()
    paths = [m.path for m in p.selected]
    assert str(mem / "team/reference_deploy_runbook.md") in paths
    assert p.last_error is None
    assert "<system-reminder>\nThis memory is 47 days old." in p.rendered
    assert f"Memory: {mem / 'team/reference_deploy_runbook.md'}:" in p.rendered
    assert "Argo CD" in p.result_box.value


def test_session_tracks_surfaced_set_and_budget_and_never_repeats(
    mem: Path, config: MemdirConfig
) -> None:
    p = RecallPlayground(mem, now_ms=NOW, config=config)
    first = p.run("how do we deploy to production")
    assert first and p.surfaced == frozenset(m.path for m in first)
    used = p.session.bytes_used
    assert used == sum(m.injected_bytes for m in first) > 0
    assert f"{used:,} of 61,440 bytes" in p.session_box.value
    assert "reference_deploy_runbook.md" in p.session_box.value
    again = p.run("how do we deploy to production")
    assert not set(m.path for m in again) & set(m.path for m in first)
    assert "team/reference_deploy_runbook.md" not in p.manifest


def test_new_session_resets_surfaced_and_budget(mem: Path, config: MemdirConfig) -> None:
    p = RecallPlayground(mem, now_ms=NOW, config=config)
    p.run("how do we deploy to production")
    p.reset_button.click()
    assert p.surfaced == frozenset() and p.session.bytes_used == 0
    assert "team/reference_deploy_runbook.md" in p.manifest
    assert [m.path for m in p.run("how do we deploy to production")]


def test_unrelated_query_injects_nothing_and_says_so(mem: Path, config: MemdirConfig) -> None:
    p = RecallPlayground(mem, now_ms=NOW, config=config)
    assert p.run("quantum chromodynamics lattice gauge") == []
    assert "nothing is injected" in p.result_box.value


def test_example_queries_come_from_the_demo(mem: Path, config: MemdirConfig) -> None:
    from memdir_nb.ui.demo import DEMO_QUERIES

    p = RecallPlayground(mem, now_ms=NOW, config=config)
    labels = [v for _, v in p.examples.options if v]
    assert labels == list(DEMO_QUERIES)
    p.examples.value = "who is on call this week"
    assert p.query.value == "who is on call this week"


def test_selector_error_is_shown(mem: Path, tmp_path: Path) -> None:
    # a key is set but the API is a closed local port: the error is shown, nothing is injected
    import socket

    from memdir_nb.recall import AnthropicSelector

    # The port stays bound (never listening) while the selector asks it, so every connection is
    # refused: a port let go at once came from the kernel's ephemeral range, where another
    # process's server could take it before the request, and then answer it or hang (fresh41).
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", free_port()))
        port = closed.getsockname()[1]
        selector = AnthropicSelector(
            api_key="sk-ant-test", base_url=f"http://127.0.0.1:{port}", max_retries=0, timeout=2
        )
        cfg = MemdirConfig.for_tests(
            home=tmp_path, cwd=tmp_path, now_ms=NOW, anthropic_api_key="sk-ant-test"
        )
        p = RecallPlayground(mem, now_ms=NOW, config=cfg, selector=selector)
        assert p.run("how do we deploy to production") == []
    assert p.last_error and p.selector_name == "anthropic"
    assert "Selector error (anthropic)" in p.error_box.value
    assert p.surfaced == frozenset()
