"""Reading a regular file anywhere (storage/regular_file.py): refusals named by the whole path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memdir_nb.storage.access import MissingFile, ReadRefused
from memdir_nb.storage.regular_file import read_regular_file


def test_a_file_read_anywhere_is_refused_under_its_whole_path(tmp_path: Path) -> None:
    # read_regular_file reads settings, transcripts and git pointers with a reader rooted at
    # '/': its refusals named "tmp/.../settings.json", which reads as a relative path
    fifo = tmp_path / "settings.json"
    os.mkfifo(fifo)
    with pytest.raises(ReadRefused) as info:
        read_regular_file(fifo, 1024)
    assert info.value.path == str(fifo)
    assert str(info.value) == f"{fifo} is a FIFO, not a regular file"
    with pytest.raises(MissingFile) as missing:  # the kind of refusal is kept
        read_regular_file(tmp_path / "absent.json", 1024)
    assert missing.value.path == str(tmp_path / "absent.json")


def test_the_root_read_anywhere_is_named_once_as_a_directory() -> None:
    # the root's name relative to itself is '', which read as "not named yet": "/ is  is a ..."
    with pytest.raises(ReadRefused) as info:
        read_regular_file("/", 1024)
    assert str(info.value) == "/ is a directory, not a regular file"
    assert info.value.path == "/" and info.value.kind == "not-regular"
