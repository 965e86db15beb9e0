"""The free-port helper gives a port a server can listen on at once, from outside the range the
kernel hands out to every other process (so no kernel or client can take it first)."""

from __future__ import annotations

import random
import socket

from tests.support.ports import LOWEST, ephemeral_start, free_port


def test_a_free_port_can_be_listened_on_at_once() -> None:
    port = free_port()
    with socket.socket() as server:
        server.bind(("127.0.0.1", port))
        server.listen()
        assert server.getsockname()[1] == port


def test_a_free_port_lies_below_the_ephemeral_range() -> None:
    ports = {free_port() for _ in range(50)}
    assert all(LOWEST <= port < ephemeral_start() for port in ports)
    assert len(ports) > 1  # drawn at random, so two workers rarely ask for the same one


class Scripted(random.Random):
    """Draws the given ports in turn."""

    def __init__(self, ports: list[int]) -> None:
        super().__init__()
        self.ports = iter(ports)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return next(self.ports)


def test_a_port_someone_listens_on_is_never_given() -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", free_port()))
        held.listen()
        # the free one is drawn below the ephemeral range too: one the kernel handed out and this
        # test let go could be handed to another process's socket before free_port checked it
        taken, free = held.getsockname()[1], free_port()

        assert free_port(Scripted([taken, taken, free])) == free
