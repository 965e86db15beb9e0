from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.home.config import MemdirConfig
from memdir_nb.spec.quoted import PROBLEM_TEXT_MAX
from memdir_nb.ui.views.security import ATTACK_EXAMPLES
from memdir_nb.ui.widgets import PathSecurityLab
from tests.support import NOW, snapshot


def _example_index(label_part: str) -> int:
    return next(i for i, ex in enumerate(ATTACK_EXAMPLES) if label_part in ex.label)


def test_percent_encoded_traversal_is_rejected_at_the_url_encoded_rule(
    mem: Path, config: MemdirConfig
) -> None:
    lab = PathSecurityLab(mem, now_ms=NOW, config=config)
    lab.key.value = "%2e%2e%2fsecrets.md"
    failed = [s for s in lab.steps if s.status == "fail"]
    assert (
        len(failed) == 1
        and failed[0].rule == "url-encoded-traversal"
        and failed[0].step == "encoded"
    )
    assert [s.status for s in lab.steps[:3]] == ["pass", "pass", "pass"]
    assert all(s.status == "not reached" for s in lab.steps[4:])
    assert lab.verdict == "rejected at url-encoded-traversal"
    assert "memdir-step-fail" in lab.steps_box.value


def test_ordinary_key_passes_every_check_in_order(mem: Path, config: MemdirConfig) -> None:
    lab = PathSecurityLab(mem, now_ms=NOW, config=config)
    steps = lab.check("notes/deploy.md")
    assert [s.status for s in steps] == ["pass"] * len(steps)
    assert [s.step for s in steps][-3:] == ["pass-1", "pass-2", "length"]
    assert steps[-3].detail == f"resolves to {mem / 'team' / 'notes' / 'deploy.md'}"
    assert lab.verdict == "accepted"


@pytest.mark.parametrize(
    "example", [ex for ex in ATTACK_EXAMPLES if ex.symlink is None], ids=lambda ex: ex.label
)
def test_each_attack_example_fails_at_its_rule(
    mem: Path, config: MemdirConfig, example: Any
) -> None:
    lab = PathSecurityLab(mem, now_ms=NOW, config=config)
    lab.examples.value = ATTACK_EXAMPLES.index(example)
    assert lab.key.value == example.key
    failed = [s.rule for s in lab.steps if s.status == "fail"]
    assert failed == ([example.expected_rule] if example.expected_rule else [])


def test_testing_keys_never_creates_files(mem: Path, config: MemdirConfig) -> None:
    before = snapshot(mem)
    lab = PathSecurityLab(mem, now_ms=NOW, config=config)
    lab.run_all.value = True
    for ex in ATTACK_EXAMPLES:
        lab.examples.value = ATTACK_EXAMPLES.index(ex)
    lab.key.value = "brand/new/folder/file.md"
    assert snapshot(mem) == before


def test_run_all_shows_what_containment_alone_catches(mem: Path, config: MemdirConfig) -> None:
    lab = PathSecurityLab(mem, now_ms=NOW, config=config)
    lab.run_all.value = True
    lab.key.value = "../../.ssh/authorized_keys"
    by_step = {s.step: s for s in lab.steps}
    assert by_step["parent-segment"].status == "fail"
    assert by_step["pass-1"].status == "fail" and by_step["pass-1"].rule == "escapes-dir"


def test_symlink_example_is_planted_only_on_request_inside_team(
    mem: Path, config: MemdirConfig
) -> None:
    lab = PathSecurityLab(mem, now_ms=NOW, config=config)
    lab.examples.value = _example_index("planted symlink")
    assert not (mem / "team" / "leak").exists() and not os.path.islink(mem / "team" / "leak")
    assert lab.verdict == "accepted"  # no link yet: the key is harmless
    assert not lab.plant_button.disabled
    lab.plant_button.click()
    link = mem / "team" / "leak"
    assert link.is_symlink() and lab.planted == [link]
    assert os.path.realpath(link) == str(mem.parent)
    failed = [s for s in lab.steps if s.status == "fail"]
    assert [(s.step, s.rule) for s in failed] == [("pass-2", "symlink-escape")]
    assert not (mem.parent / "stolen.md").exists()


@pytest.mark.parametrize("label,rule", [("dangling", "dangling-symlink"), ("loop", "symlink-loop")])
def test_dangling_and_loop_examples_fail_pass_two(
    mem: Path, config: MemdirConfig, label: str, rule: str
) -> None:
    lab = PathSecurityLab(mem, now_ms=NOW, config=config)
    lab.examples.value = _example_index(label)
    lab.plant()
    assert [(s.step, s.rule) for s in lab.steps if s.status == "fail"] == [("pass-2", rule)]


def test_plant_refuses_to_replace_an_existing_file(mem: Path, config: MemdirConfig) -> None:
    (mem / "team" / "leak").mkdir()
    lab = PathSecurityLab(mem, now_ms=NOW, config=config)
    lab.examples.value = _example_index("planted symlink")
    assert lab.plant() is None
    assert "already exists" in lab.status_text and (mem / "team" / "leak").is_dir()


def test_plant_button_disabled_for_examples_without_a_link(mem: Path, config: MemdirConfig) -> None:
    lab = PathSecurityLab(mem, now_ms=NOW, config=config)
    lab.examples.value = _example_index("null byte")
    assert lab.plant_button.disabled


@pytest.mark.parametrize(
    "key", ["k" * 1_000_000 + ".md", "ab/" * 300_000 + "x.md"], ids=["one-name", "many-folders"]
)
def test_a_huge_key_is_shown_cut_in_the_verdict_and_every_step(
    mem: Path, config: MemdirConfig, key: str
) -> None:
    """polish38: the lab showed the key typed whole, in the verdict and in pass 1's 'resolves
    to' detail, so a 1 MB key pasted in gave 1 MB of widget text twice. Both now quote it by
    spec.quoted's rule: its ends kept, its middle left out and counted."""
    lab = PathSecurityLab(mem, now_ms=NOW, config=config)
    lab.key.value = key
    assert lab.verdict == "rejected at too-long"
    assert len(lab.verdict_box.value) < 2_000 and "characters left out" in lab.verdict_box.value
    assert all(len(s.detail) <= PROBLEM_TEXT_MAX for s in lab.steps)
    assert "characters left out" in next(s for s in lab.steps if s.step == "pass-1").detail
    assert len(lab.steps_box.value) < 10 * PROBLEM_TEXT_MAX


def test_a_key_holding_controls_is_shown_with_them_escaped(mem: Path, config: MemdirConfig) -> None:
    """polish38: the quoted rule escapes controls in the verdict and the steps' details too."""
    lab = PathSecurityLab(mem, now_ms=NOW, config=config)
    lab.key.value = "notes/\x1b]0;owned\x07\u202edeploy.md"
    shown = lab.verdict_box.value + lab.steps_box.value + "".join(s.detail for s in lab.steps)
    assert lab.verdict == "accepted"
    assert not any(c in shown for c in "\x1b\x07\u202e")
    assert "\\x1b" in lab.verdict_box.value and "\\x1b" in lab.steps_box.value
