"""The path-security view-model: a key's checks step by step, and the attack examples."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memdir_nb.ui.views import security as view


def test_check_team_key_stops_at_the_first_failure(tmp_path: Path) -> None:
    steps = view.check_team_key("a\\b.md", tmp_path / "team")
    assert [s.status for s in steps] == ["pass"] * 4 + ["fail"] + ["not reached"] * 6
    assert steps[4].rule == "backslash" and "Backslash" in steps[4].detail


def test_percent_encoded_null_byte_fails_the_decoding_step(tmp_path: Path) -> None:
    steps = {s.step: s for s in view.check_team_key("x%00.md", tmp_path / "team")}
    assert steps["null-byte"].status == "pass"
    assert steps["encoded"].status == "fail" and steps["encoded"].rule == "null-byte"


def test_check_team_key_writes_nothing(tmp_path: Path) -> None:
    view.check_team_key("deep/new/dirs/file.md", tmp_path / "team", run_all=True)
    assert list(tmp_path.iterdir()) == []


def test_plant_example_symlink_needs_a_symlink_example(tmp_path: Path) -> None:
    plain = next(ex for ex in view.ATTACK_EXAMPLES if ex.symlink is None)
    with pytest.raises(ValueError, match="needs no symlink"):
        view.plant_example_symlink(tmp_path / "team", plain)
    assert not (tmp_path / "team").exists()


def test_plant_example_symlink_is_idempotent(tmp_path: Path) -> None:
    ex = next(ex for ex in view.ATTACK_EXAMPLES if ex.symlink and ex.symlink[1] == "outside")
    first = view.plant_example_symlink(tmp_path / "mem" / "team", ex)
    assert view.plant_example_symlink(tmp_path / "mem" / "team", ex) == first
    assert os.readlink(first) == str(tmp_path)


@pytest.mark.timeout(20)
def test_a_key_of_many_short_folders_is_checked_promptly_with_every_pass_shown(
    tmp_path: Path,
) -> None:
    """attack38: a key of 300,000 one-letter folders (600 KB, typed or pasted into the
    dashboard's check) held the kernel for 90 s: containment walked up every ancestor before
    it looked at the path's length. It now fails at the length check, at once."""
    team = tmp_path / "team"
    team.mkdir()
    steps = view.check_team_key("a/" * 300_000 + "b.md", team, run_all=True)
    assert [s.status for s in steps].count("fail") == 1
