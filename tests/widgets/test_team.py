from __future__ import annotations

import unicodedata
from pathlib import Path

from memdir_nb.formats.index import parse_index
from memdir_nb.home.config import MemdirConfig
from memdir_nb.storage.index_files import read_entrypoint
from memdir_nb.storage.store import MemoryStore
from memdir_nb.ui.widgets import TeamScopeView
from tests.support import NOW, snapshot

SECRET_BODY = "Stripe live key: sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc" + "\nuse it for refunds"


def _targets(scope_dir: Path) -> set[str]:
    return {e.target for e in parse_index(read_entrypoint(scope_dir))}


def test_private_and_team_side_by_side_with_scope_rules(mem: Path, config: MemdirConfig) -> None:
    v = TeamScopeView(mem, now_ms=NOW, config=config)
    assert {r.scope for r in v.private_rows} == {"private"} and {r.scope for r in v.team_rows} == {
        "team"
    }
    assert len(v.private_rows) + len(v.team_rows) == 40
    assert [r.type for r in v.rules] == ["user", "feedback", "project", "reference"]
    assert "never" in v.rules_box.value and "always private" in v.rules_box.value


def test_promote_moves_the_file_and_updates_both_indexes(mem: Path, config: MemdirConfig) -> None:
    v = TeamScopeView(mem, now_ms=NOW, config=config)
    v.private_list.value = "feedback_small_prs.md"
    assert v.verdict is not None
    assert v.verdict.allowed and "no credential found" in v.verdict_box.value
    assert not v.promote_button.disabled
    v.promote_button.click()
    assert not (mem / "feedback_small_prs.md").exists()
    assert (mem / "team/feedback_small_prs.md").is_file()
    assert "feedback_small_prs.md" not in _targets(mem)
    assert "feedback_small_prs.md" in _targets(mem / "team")
    assert "team/feedback_small_prs.md" in [r.filename for r in v.team_rows]


def test_demote_moves_it_back(mem: Path, config: MemdirConfig) -> None:
    v = TeamScopeView(mem, now_ms=NOW, config=config)
    v.team_list.value = "team/reference_oncall.md"
    assert not v.demote_button.disabled
    v.demote_button.click()
    assert (mem / "reference_oncall.md").is_file() and not (
        mem / "team/reference_oncall.md"
    ).exists()
    assert "reference_oncall.md" in _targets(mem) and "reference_oncall.md" not in _targets(
        mem / "team"
    )


def test_secret_scan_verdict_blocks_promotion_and_nothing_moves(
    mem: Path, config: MemdirConfig
) -> None:
    MemoryStore(mem, now_ms=NOW).save("Refund key", "Key for refunds", "reference", SECRET_BODY)
    v = TeamScopeView(mem, now_ms=NOW, config=config)
    v.private_list.value = "reference_refund_key.md"
    assert v.verdict is not None
    assert not v.verdict.allowed and v.verdict.secret_findings
    assert v.promote_button.disabled
    assert "Stripe" in v.verdict_box.value
    before = snapshot(mem)
    v.promote("reference_refund_key.md")  # even called directly, the store refuses
    assert "Not promoted" in v.status_text and "credential" in v.status_text
    assert snapshot(mem) == before


def test_a_promote_onto_a_team_name_in_another_normal_form_is_refused_and_nothing_moves(
    mem: Path, config: MemdirConfig
) -> None:
    # attack40: the view promoted project_café.md (composed) beside team/'s decomposed one,
    # two files that every listing shows as one name (one file on macOS)
    composed = unicodedata.normalize("NFC", "project_café.md")
    store = MemoryStore(mem, now_ms=NOW)
    body = "Fridays.\n\n**Why:** quiet.\n\n**How to apply:** book it."
    store.save("cafe", "the cafe we meet in", "project", body, filename=composed)
    decomposed = unicodedata.normalize("NFD", composed)
    store.save("cafe", "the cafe we meet in", "project", body, filename=decomposed, scope="team")
    v = TeamScopeView(mem, now_ms=NOW, config=config)
    before = snapshot(mem)
    assert v.promote(composed) is None
    assert "Not promoted" in v.status_text and "Unicode normalisation" in v.status_text
    assert snapshot(mem) == before


def test_user_memory_cannot_be_promoted(mem: Path, config: MemdirConfig) -> None:
    v = TeamScopeView(mem, now_ms=NOW, config=config)
    v.private_list.value = "user_role.md"
    assert v.verdict is not None
    assert not v.verdict.allowed and "always private" in v.verdict_box.value
    before = snapshot(mem)
    v.promote("user_role.md")
    assert snapshot(mem) == before and "always private" in v.status_text


def test_a_move_the_disk_refuses_is_a_status_line_not_a_traceback(
    mem: Path, config: MemdirConfig
) -> None:
    """A folder where team/MEMORY.md should be: promote says why and moves nothing."""
    v = TeamScopeView(mem, now_ms=NOW, config=config)
    (mem / "team" / "MEMORY.md").unlink()
    (mem / "team" / "MEMORY.md").mkdir()
    private = "feedback_small_prs.md"
    assert v.promote(private) is None
    assert "Not promoted" in v.status_text and "move it aside" in v.status_text
    assert (mem / private).is_file() and not (mem / "team" / private).exists()
