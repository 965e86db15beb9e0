"""storage/zip_directory: counting a zip's central directory without building it."""

from __future__ import annotations

import io
import zipfile

import pytest

from memdir_nb.storage.zip_directory import count_central_entries


def _zip(n: int, *, prefix: bytes = b"", comment: bytes = b"") -> bytes:
    buf = io.BytesIO()
    buf.write(prefix)
    with zipfile.ZipFile(buf, "a" if prefix else "w") as zf:
        zf.comment = comment
        for i in range(n):
            zf.writestr(f"user_{i}.md", b"x")
    return buf.getvalue()


@pytest.mark.parametrize(
    ("n", "prefix", "comment"),
    [(0, b"", b""), (3, b"", b""), (4, b"#!/bin/sh\n" * 10, b"c" * 300), (70_000, b"", b"")],
    ids=["empty", "plain", "prefixed-with-comment", "zip64-count"],
)
def test_the_count_is_what_zipfile_lists(n: int, prefix: bytes, comment: bytes) -> None:
    data = _zip(n, prefix=prefix, comment=comment)
    assert count_central_entries(io.BytesIO(data), len(data), 10**6) == n
    assert len(zipfile.ZipFile(io.BytesIO(data)).infolist()) == n


def test_counting_stops_one_past_the_cap_and_garbage_is_none() -> None:
    data = _zip(50)
    assert count_central_entries(io.BytesIO(data), len(data), 10) == 11
    assert count_central_entries(io.BytesIO(b"not a zip"), 9, 10) is None
    cut = data[: len(data) // 2] + data[-22:]  # end record pointing at headers that are not there
    assert count_central_entries(io.BytesIO(cut), len(cut), 100) is None
