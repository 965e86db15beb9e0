"""The free-port helper gives a port a server can listen on at once."""

from __future__ import annotations

import socket

from tests.support.ports import free_port


def test_a_free_port_can_be_listened_on_at_once() -> None:
    port = free_port()
    with socket.socket() as server:
        server.bind(("127.0.0.1", port))
        server.listen()
        assert server.getsockname()[1] == port
