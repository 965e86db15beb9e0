"""dream/claude: the Claude-driven planner."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anthropic
import pytest

from memdir_nb.dream import (
    PlanError,
    PlanStaleError,
    apply_plan,
    build_consolidation_prompt,
    list_dreams,
    plan_consolidation_with_claude,
    restore,
)
from memdir_nb.dream.actions import PlanAction, TrashFile
from tests.conftest import DeepFolders
from tests.support import write_memory
from tests.support.messages_api import MessagesAPIServer, Reply, message_body, text_reply

# --------------------------------------------------------------------------- Claude-driven plan

CLAUDE_NOW = 1_774_700_000_000.0


def _calls(*calls: tuple[str, str, dict[str, Any]]) -> Reply:
    blocks = [
        {"type": "tool_use", "id": cid, "name": name, "input": inp} for cid, name, inp in calls
    ]
    return Reply(200, message_body(blocks, stop_reason="tool_use"))


def _all_files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture()
def claude_dir(tmp_path: Path) -> Path:
    mem = tmp_path / "project" / "memory"
    mem.mkdir(parents=True)
    write_memory(
        mem,
        "feedback_tests.md",
        name="Real services in tests",
        description="integration tests hit the sandbox",
        type="feedback",
        body="Use the sandbox gateway.\n**Why:** mocks hid a failed migration.",
        now_ms=CLAUDE_NOW,
    )
    write_memory(
        mem,
        "feedback_tests_2.md",
        name="No mocks",
        description="no mocked payment tests",
        type="feedback",
        body="Never mock the payment gateway.",
        now_ms=CLAUDE_NOW,
        age_days=3,
    )
    (mem / "MEMORY.md").write_text(
        "- [Real services in tests](feedback_tests.md) — integration tests hit the sandbox\n"
        "- [No mocks](feedback_tests_2.md) — no mocked payment tests\n",
        encoding="utf-8",
    )
    (mem / "logs" / "2026" / "03").mkdir(parents=True)
    (mem / "logs" / "2026" / "03" / "2026-03-27.md").write_text(
        "# Daily log 2026-03-27\n\n## 10:00:00\n\nDana owns the gateway.\n"
    )
    return mem


def _claude_script(mem: Path, outside: Path) -> list[Reply]:
    merged = (
        "---\nname: Real services in tests\ndescription: payment tests hit the sandbox gateway, never mocks\n"
        "type: feedback\n---\n\nUse the sandbox gateway; never mock it.\n**Why:** mocks hid a failed migration.\n"
    )
    return [
        _calls(
            ("r1", "Read", {"file_path": str(mem / "MEMORY.md")}),
            ("r2", "Bash", {"command": f"ls {shlex.quote(str(mem))}"}),
            ("r3", "Bash", {"command": f"rm -rf {shlex.quote(str(mem))}"}),
            (
                "r4",
                "Bash",
                {
                    "command": f"cat {shlex.quote(str(mem / 'MEMORY.md'))} > {shlex.quote(str(outside))}"
                },
            ),
            ("r5", "Write", {"file_path": str(outside), "content": "pwned"}),
        ),
        _calls(
            ("w1", "Write", {"file_path": str(mem / "feedback_tests.md"), "content": merged}),
            ("w2", "Write", {"file_path": str(mem / "feedback_tests_2.md"), "content": ""}),
            (
                "w3",
                "Edit",
                {
                    "file_path": str(mem / "MEMORY.md"),
                    "old_string": "- [No mocks](feedback_tests_2.md) — no mocked payment tests\n",
                    "new_string": "",
                },
            ),
            (
                "w4",
                "Write",
                {
                    "file_path": str(mem / "reference_gateway.md"),
                    "content": "---\nname: Gateway owner\ndescription: Dana owns the sandbox gateway\n"
                    "type: reference\n---\n\nDana owns it.\n",
                },
            ),
            ("w5", "Write", {"file_path": str(mem / ".trash" / "x.md"), "content": "x"}),
            (
                "w6",
                "Edit",
                {"file_path": str(mem / "MEMORY.md"), "old_string": "not there", "new_string": "y"},
            ),
        ),
        _calls(("c1", "Read", {"file_path": str(mem / "feedback_tests.md")})),
        text_reply("Merged the two testing memories and recorded the gateway owner."),
    ]


def _client(api: MessagesAPIServer) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="test-key", base_url=api.base_url, max_retries=0)


def test_claude_plan_captures_writes_and_writes_nothing_until_apply(
    claude_dir: Path, tmp_path: Path
) -> None:
    mem = claude_dir
    outside = tmp_path / "outside.txt"
    before = _all_files(tmp_path)
    with MessagesAPIServer(_claude_script(mem, outside)) as api:
        plan = plan_consolidation_with_claude(mem, client=_client(api), now_ms=CLAUDE_NOW)
        bodies = [r.body for r in api.requests]
    assert _all_files(tmp_path) == before  # nothing written, nothing deleted, no lock, no trash
    assert not outside.exists() and not (mem / ".trash").exists()

    assert plan.source == "claude"
    kinds = {a.id: a.kind for a in plan.actions}
    assert kinds == {
        "claude:MEMORY.md": "claude_rewrite",
        "claude:feedback_tests.md": "claude_rewrite",
        "claude:feedback_tests_2.md": "claude_retire",
        "claude:reference_gateway.md": "claude_create",
    }
    diff = plan.diff()
    assert (
        "-- [No mocks](feedback_tests_2.md)" in diff
        and "+++ /dev/null" in diff
        and "never mock it" in diff
    )

    # the sandbox refused the dangerous calls and told the model so
    refused = [n for n in plan.notes if n.startswith("refused")]
    assert len(refused) == 4
    results = {
        b["tool_use_id"]: b
        for req in bodies[1:]
        for b in req["messages"][-1]["content"]
        if isinstance(b, dict) and b.get("type") == "tool_result"
    }
    for cid in ("r3", "r4", "r5", "w5"):
        assert results[cid]["is_error"] is True and "Permission denied" in results[cid]["content"]
    assert results["r1"]["is_error"] is False and "feedback_tests_2.md" in results["r1"]["content"]
    assert results["r2"]["is_error"] is False and "feedback_tests.md" in results["r2"]["content"]
    assert results["w6"]["is_error"] is True and "not found" in results["w6"]["content"]
    assert "Recorded the proposed Write" in results["w1"]["content"]
    # a Read after a captured Write shows the proposal, not the disk
    assert "never mock it" in results["c1"]["content"]
    assert (
        plan.notes[-1] == "Claude: Merged the two testing memories and recorded the gateway owner."
    )

    # the prompt: four phases, the daily log, the manifest
    system = bodies[0]["system"]
    for phase in ("Orient", "Gather recent signal", "Consolidate", "Prune and index"):
        assert phase in system
    assert "logs/2026/03/2026-03-27.md" in system and "feedback_tests_2.md" in system

    # approve a subset: only those change, retired files go to .trash, restore undoes it
    result = apply_plan(plan, ["claude:feedback_tests_2.md", "claude:MEMORY.md"])
    assert result.trashed == ("feedback_tests_2.md",) and result.changed == ("MEMORY.md",)
    assert not (mem / "feedback_tests_2.md").exists()
    assert "Use the sandbox gateway.\n" in (mem / "feedback_tests.md").read_text()  # not approved
    assert not (mem / "reference_gateway.md").exists()
    batch = list_dreams(mem)[-1]
    assert (mem / ".trash" / batch / "feedback_tests_2.md").is_file()
    restore(mem, batch)
    # every memory is back; only the bookkeeping (lock file, trash batch) remains
    assert {
        k: v
        for k, v in _all_files(tmp_path).items()
        if not any(p.startswith(".") for p in k.split("/"))
    } == before


def test_claude_plan_goes_stale_when_a_file_changes_before_apply(
    claude_dir: Path, tmp_path: Path
) -> None:
    mem = claude_dir
    with MessagesAPIServer(_claude_script(mem, tmp_path / "o.txt")) as api:
        plan = plan_consolidation_with_claude(mem, client=_client(api), now_ms=CLAUDE_NOW)
    (mem / "feedback_tests.md").write_text("edited by hand meanwhile\n")
    with pytest.raises(PlanStaleError, match="feedback_tests.md"):
        apply_plan(plan)
    assert (mem / "feedback_tests_2.md").exists() and not (mem / ".trash").exists()


def test_claude_plan_without_key_or_dir_is_refused_before_any_request(
    claude_dir: Path, tmp_path: Path
) -> None:
    from memdir_nb.dream import PlanError
    from memdir_nb.extract import MissingAPIKeyError
    from memdir_nb.home.config import MemdirConfig

    cfg = MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path, anthropic_api_key=None)
    with MessagesAPIServer() as api:
        with pytest.raises(MissingAPIKeyError, match="ANTHROPIC_API_KEY"):
            plan_consolidation_with_claude(
                claude_dir, config=cfg, client_options={"base_url": api.base_url}
            )
        with pytest.raises(PlanError, match="does not exist"):
            plan_consolidation_with_claude(tmp_path / "absent", client=_client(api))
        assert api.request_count == 0


def test_claude_plan_stops_at_the_turn_cap_and_says_so(claude_dir: Path) -> None:
    looping = _calls(("g", "Glob", {"pattern": "*.md", "path": str(claude_dir)}))
    with MessagesAPIServer(default=looping) as api:
        plan = plan_consolidation_with_claude(claude_dir, client=_client(api), max_turns=3)
        assert api.request_count == 3
    assert plan.actions == [] and any("3-turn cap" in n for n in plan.notes)


def test_consolidation_prompt_lists_no_logs_when_there_are_none(tmp_path: Path) -> None:
    text = build_consolidation_prompt(tmp_path, now_ms=CLAUDE_NOW)
    assert "Daily logs waiting to be folded in:\n(none)" in text
    assert "Never read transcripts end to end" in text


def test_consolidation_prompt_over_a_deep_or_linked_logs_folder_lists_only_real_logs(
    tmp_path: Path, deep_folders: DeepFolders
) -> None:
    # attack round 13: its own rglob raised RecursionError on a deep logs/ tree and named the
    # files of an outside folder a symlinked logs/ led to
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "2026-11-29.md").write_text("- noted\n")
    deep_folders(tmp_path / "logs", 1_000, name="a", file="deep.md")
    text = build_consolidation_prompt(tmp_path, now_ms=CLAUDE_NOW)
    assert "- logs/2026-11-29.md" in text and "deep.md" not in text
    other, outside = tmp_path / "other", tmp_path / "outside"
    other.mkdir()
    outside.mkdir()
    (outside / "ssh-keys.md").write_text("x")
    (other / "logs").symlink_to(outside)
    assert "ssh-keys" not in build_consolidation_prompt(other, now_ms=CLAUDE_NOW)


def test_a_replace_all_edit_past_the_write_cap_is_refused_before_its_text_is_built(
    claude_dir: Path,
) -> None:
    # attack round 13: the plan recorder built a replace-all's result whatever its size (the
    # extraction Edit's cap check of round 11 was not on this route): a 20 KB memory edited
    # 'a' -> 5,000 characters was a 100 MB proposal, a 256 KB one an out-of-memory kill
    target = claude_dir / "user_big.md"
    target.write_text("---\nname: big\ndescription: d\ntype: user\n---\n" + "a" * 20_000)
    edit = {"file_path": str(target), "old_string": "a", "new_string": "b" * 5_000}
    script = [
        _calls(("e", "Edit", {**edit, "replace_all": True})),
        text_reply("done"),
    ]
    with MessagesAPIServer(script) as api:
        plan = plan_consolidation_with_claude(claude_dir, client=_client(api), now_ms=CLAUDE_NOW)
        answer = json.dumps(api.requests[-1].body)
    assert "over the 1,048,576-byte limit" in answer and plan.actions == []


def test_the_consolidation_prompt_asks_for_links_to_a_retired_file_to_follow_its_content(
    tmp_path: Path,
) -> None:
    # realdata32: memories link each other as [[name]] (Claude Code's prompt asks for it, and
    # reads a link that names no memory as one still to write); a retired file's links must move
    text = build_consolidation_prompt(tmp_path, now_ms=CLAUDE_NOW)
    assert "Memories link each other as `[[name]]`" in text
    assert "point those links at the file that now holds its content" in text


def test_a_claude_plan_that_renames_a_linked_memory_names_the_links_it_leaves_in_its_notes(
    real_dir: Callable[[str], Path],
) -> None:
    mem = real_dir("linked-by-name")
    kiln, glaze = mem / "project_kiln_schedule.md", mem / "feedback_glaze.md"
    before = _all_files(mem)
    script = [
        _calls(("r1", "Read", {"file_path": str(kiln)})),
        _calls(
            (
                "e1",
                "Edit",
                {
                    "file_path": str(kiln),
                    "old_string": "name: firing-calendar",
                    "new_string": "name: kiln-days",
                },
            ),
        ),
        _calls(
            (
                "e2",
                "Edit",
                {
                    "file_path": str(glaze),
                    "old_string": "[[firing-calendar]]",
                    "new_string": "[[kiln-days]]",
                },
            ),
        ),
        text_reply("Renamed the kiln memory."),
    ]
    with MessagesAPIServer(script) as api:
        plan = plan_consolidation_with_claude(mem, client=_client(api), now_ms=CLAUDE_NOW)
        results = [
            b
            for r in api.requests
            for m in r.body["messages"]
            if m["role"] == "user"
            for b in (m["content"] if isinstance(m["content"], list) else [])
        ]

    told = next(b["content"] for b in results if b["tool_use_id"] == "e1")
    assert "Note: 2 memories still link project_kiln_schedule.md, now named 'kiln-days'," in told
    assert f"{mem}/feedback_glaze.md ([[firing-calendar]] -> [[kiln-days]])" in told
    assert f"{mem}/reference_shelf.md ([[Firing-Calendar]] -> [[kiln-days]])" in told
    # the plan's notes: only the link the plan does not point itself (glaze's Edit points its own)
    left = [n for n in plan.notes if "still link" in n]
    assert left == [
        "1 memory still links project_kiln_schedule.md, now named 'kiln-days', by a name no "
        "memory answers to now: reference_shelf.md ([[Firing-Calendar]] -> [[kiln-days]]). "
        "They were left as written; point each link at the memory that holds this now (its new "
        "name is shown after ->), or drop it"
    ]
    assert _all_files(mem) == before  # a plan writes nothing


def test_a_claude_plan_never_moves_a_memory_into_another_agents_folder(
    real_dir: Callable[[str], Path],
) -> None:
    # lefts37: the offline planner's merges stay within one agent's folder (lefts36); the
    # Claude planner's plan retired builder/'s memory and wrote its text into planner/, and
    # apply_plan wrote it: the builder's note left the builder's prompt for the planner's.
    root = real_dir("agent-beside-index")
    cache = root / "builder" / "reference_cache_host.md"
    train = root / "planner" / "project_release_train.md"
    merged = train.read_text() + "\nThe build cache lives on the shared runner pool.\n"
    script = [
        _calls(
            ("w1", "Write", {"file_path": str(train), "content": merged}),
            ("w2", "Write", {"file_path": str(cache), "content": ""}),
        ),
        text_reply("Folded the cache note into the planner's release memory."),
    ]
    before = _all_files(root)
    with MessagesAPIServer(script) as api:
        plan = plan_consolidation_with_claude(root, client=_client(api), now_ms=CLAUDE_NOW)
        bodies = [r.body for r in api.requests]
    results = {
        b["tool_use_id"]: b
        for b in bodies[1]["messages"][-1]["content"]
        if isinstance(b, dict) and b.get("type") == "tool_result"
    }
    assert results["w1"]["is_error"] is False  # one agent's folder: recorded
    refusal = results["w2"]["content"]  # the model is told why, and what to do instead
    assert results["w2"]["is_error"] is True and "planner/" in refusal and "builder/" in refusal
    assert "Make a plan for each agent's folder" in refusal
    assert [a.id for a in plan.actions] == ["claude:planner/project_release_train.md"]

    # a plan edited by hand to hold both is refused at apply, and nothing is written
    plan.actions.append(
        PlanAction(
            "claude:builder/reference_cache_host.md",
            "claude_retire",
            "retire builder/reference_cache_host.md",
            ("builder/reference_cache_host.md",),
            (TrashFile("builder/reference_cache_host.md"),),
        )
    )
    plan.snapshot["builder/reference_cache_host.md"] = cache.read_text()
    with pytest.raises(PlanError, match=r"planner/.*builder/|builder/.*planner/"):
        apply_plan(plan)
    assert _all_files(root) == before and not (root / ".trash").exists()
    result = apply_plan(plan, ["claude:planner/project_release_train.md"])  # one folder: applied
    assert result.changed == ("planner/project_release_train.md",) and cache.exists()
