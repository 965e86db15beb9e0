"""A logging filter that lets each distinct warning through once per process."""

from __future__ import annotations

import logging

_WARNED_ONCE_MAX = 1_000  # distinct problems remembered before the memory starts over


class WarnedOnce(logging.Filter):
    """A settings problem is warned once per process. Every layer that needs the config
    builds it (`list` built it twice), and the same line twice on stderr reads as two
    problems. The config's `settings_problems` still carries each one."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message in self._seen:
            return False
        if len(self._seen) >= _WARNED_ONCE_MAX:
            self._seen.clear()
        self._seen.add(message)
        return True
