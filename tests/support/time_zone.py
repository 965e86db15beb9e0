"""One home for running a block of a test in another local time zone (TZ and time.tzset)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def in_zone(zone: str) -> Iterator[None]:
    """Set TZ=zone for the block (what time.localtime and naive datetimes use), then put it back."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = zone
    time.tzset()
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old
        time.tzset()
