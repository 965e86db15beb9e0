"""Run a coroutine to completion from synchronous test code, whatever the calling thread holds."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_coroutine(coro: Coroutine[Any, Any, T]) -> T:
    """asyncio.run(coro) on a thread of its own.

    Playwright's sync API (the browser tests' session fixture) keeps an event loop running in
    the main thread, and asyncio.run refuses to start inside one; a fresh thread has none.
    """
    result: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coro))
        except BaseException as exc:  # handed back to the caller below
            failure.append(exc)

    worker = threading.Thread(target=target, name="run-coroutine")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return result[0]
