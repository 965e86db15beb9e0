"""Rules of memdir_nb.storage.programs: a program name runs a file from an absolute PATH folder."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from memdir_nb.storage.programs import (
    ProgramNotFoundError,
    absolute_exec_path,
    program_path,
    require_program,
)
from tests.conftest import plant_programs

BIN = "/usr/bin:/bin"


def test_relative_and_empty_path_entries_are_never_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plant_programs(tmp_path / "bin", tmp_path / "marks", ["cat"])
    plant_programs(tmp_path, tmp_path / "marks", ["cat"])
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", os.pathsep.join(["bin", "", ".", "./bin", *BIN.split(":")]))
    assert absolute_exec_path() == BIN.split(":")
    found = program_path("cat")
    assert found is not None and os.path.isabs(found)
    assert Path(found).parent != tmp_path and Path(found).parent != tmp_path / "bin"


def test_a_name_with_a_folder_is_made_absolute_against_this_process_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plant_programs(tmp_path / "tools", tmp_path / "marks", ["mygit"])
    monkeypatch.chdir(tmp_path)
    assert program_path("tools/mygit") == str(tmp_path / "tools" / "mygit")
    assert program_path(str(tmp_path / "tools" / "mygit")) == str(tmp_path / "tools" / "mygit")
    assert program_path("tools/missing") is None


@pytest.mark.parametrize("name", ["", "ca\0t", "memdir-nb-no-such-program"])
def test_names_that_run_nothing_are_none(name: str) -> None:
    assert program_path(name) is None


def test_the_error_names_the_program_the_skipped_entries_and_the_fix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "bin:")
    with pytest.raises(ProgramNotFoundError) as caught:
        require_program("grep\x1b[2J")
    assert caught.value.errno == errno.ENOENT
    text = str(caught.value)
    assert "\x1b" not in text and "'grep\\x1b[2J'" in text
    assert "2 relative PATH entries skipped" in text and "put absolute folders in PATH" in text
