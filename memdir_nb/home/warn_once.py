"""A logging filter that lets each distinct warning through once per process."""

from __future__ import annotations

import hashlib
import logging

_WARNED_ONCE_MAX = 1_000  # distinct problems remembered before the memory starts over
# Each is remembered by a 16-byte digest, not its text: a problem quotes a settings file's
# value (up to 1 MB), and 60 edits of such a file kept 60 MB of messages (attack round 25).


class WarnedOnce(logging.Filter):
    """A settings problem is warned once per process. Every layer that needs the config
    builds it (`list` built it twice), and the same line twice on stderr reads as two
    problems. The config's `settings_problems` still carries each one."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: set[bytes] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage().encode(errors="surrogatepass")  # a lone surrogate kept apart
        digest = hashlib.blake2b(text, digest_size=16).digest()
        if digest in self._seen:
            return False
        if len(self._seen) >= _WARNED_ONCE_MAX:
            self._seen.clear()
        self._seen.add(digest)
        return True
