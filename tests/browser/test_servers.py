"""The browser tests' servers: a port another process took between the pick and the bind makes
the server stop (it never moves to a neighbour the test does not know), and it starts again on
a new port; a stranger listening on the port is never taken for it."""

from __future__ import annotations

import socket
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.browser.conftest as servers
from tests.support.ports import free_port


def test_a_server_whose_port_was_taken_starts_again_on_a_new_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, demo_dir: Path, chromium_path: str
) -> None:
    with socket.socket() as stranger:
        stranger.bind(("127.0.0.1", free_port()))
        stranger.listen()  # listens, never answers
        taken = stranger.getsockname()[1]
        picks: Iterator[int] = iter([taken, free_port()])
        monkeypatch.setattr(servers, "free_port", lambda: next(picks))

        with servers.serve_voila(demo_dir, tmp_path / "home") as url:
            assert f":{taken}/" not in url
            with urllib.request.urlopen(f"{url}voila/static/voila.js", timeout=30) as answer:
                assert answer.status == 200
        assert "in use" in (tmp_path / "home" / "voila.log").read_text(encoding="utf-8")
