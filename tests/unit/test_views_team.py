"""The team view-model: scope rules and promotion verdicts."""

from __future__ import annotations

from pathlib import Path

from memdir_nb.storage.store import MemoryStore
from memdir_nb.ui.views import team as view


def test_scope_rules_follow_the_taxonomy() -> None:
    rules = {r.type: r for r in view.scope_rules()}
    assert rules["user"].default_scope == "private" and not rules["user"].allowed_in_team
    assert rules["reference"].default_scope == "team" and rules["project"].allowed_in_team


def test_promotion_verdict_lists_every_reason(demo_mem: Path, demo_now_ms: float) -> None:
    v = view.promotion_verdict(demo_mem, "team/reference_oncall.md")
    assert not v.allowed and v.reasons == ["it is already in team memory"]
    MemoryStore(demo_mem, now_ms=demo_now_ms).save(
        "Oncall",
        "dup",
        "reference",
        "AKIAIOSFODNN7EXAMPLE is the key",
        filename="reference_oncall.md",
    )
    v = view.promotion_verdict(demo_mem, "reference_oncall.md")
    assert any("already exists" in r for r in v.reasons) and any("AWS" in r for r in v.reasons)


def test_a_memory_without_a_type_is_refused_promotion_in_words_not_as_none(tmp_path: Path) -> None:
    # Claude Code's typeless pinned shape (realdata29): the verdict said "found None".
    (tmp_path / "plan.md").write_text(
        '---\nname: plan\ndescription: "ask before any build"\nmetadata: \n'
        "  node_type: memory\n  pinned: false\n---\n\nAsk first.\n",
        encoding="utf-8",
    )
    v = view.promotion_verdict(tmp_path, "plan.md")
    assert not v.allowed
    assert v.reasons == [
        "no memory type given: the type must be one of user, feedback, project, reference; "
        "set one first"
    ]
