"""The test helper that makes socket files works at any tmp_path length (CI's was 108 bytes)."""

from __future__ import annotations

import socket
import stat
from pathlib import Path

import pytest

from tests.support.unix_socket import unix_socket_at


def test_a_socket_file_is_made_at_a_path_longer_than_bind_takes(tmp_path: Path) -> None:
    folder = tmp_path / ("deep_" * 30)
    folder.mkdir()
    path = folder / "reference_socket.md"
    with socket.socket(socket.AF_UNIX) as plain, pytest.raises(OSError, match="too long"):
        plain.bind(str(path))  # why the helper exists: bind() takes at most 107 bytes

    with unix_socket_at(path):
        assert stat.S_ISSOCK(path.lstat().st_mode)
    assert stat.S_ISSOCK(path.lstat().st_mode)  # the file stays once the socket is closed
