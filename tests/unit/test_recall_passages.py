"""Bodies as the offline selector reads them: bounded, contained, cut into overlapping windows."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.recall.passages import (
    MAX_WINDOWS,
    WINDOW_MAX_CHARS,
    WINDOW_SENTENCES,
    body_windows,
    read_body,
    sentences,
)
from memdir_nb.spec.constants import MEMORY_FILE_READ_MAX_BYTES


def _header(root: Path, name: str) -> MemoryHeader:
    return MemoryHeader(name, str(root / name), 0.0, "n", "d", None)


def test_lines_and_sentence_ends_both_end_a_sentence_and_markup_is_dropped() -> None:
    body = "# Notes\n- First item. Second sentence!\n* third\n\n1. fourth? fifth"
    assert sentences(body) == [
        "Notes",
        "First item.",
        "Second sentence!",
        "third",
        "fourth?",
        "fifth",
    ]


def test_neighbouring_windows_share_one_sentence() -> None:
    body = " ".join(f"Sentence number {i}." for i in range(10))
    windows = body_windows(body)
    assert windows[0].startswith("Sentence number 0.")
    assert windows[0].count("Sentence") == WINDOW_SENTENCES
    last_of_first = windows[0].split(". ")[-1]
    assert windows[1].startswith(last_of_first.rstrip(".")) or last_of_first in windows[1]
    assert "Sentence number 9." in windows[-1]  # the end of the body is covered


def test_a_window_never_exceeds_the_character_cap_even_for_one_huge_sentence() -> None:
    body = "word " * 2000
    windows = body_windows(body)
    assert all(len(w) <= WINDOW_MAX_CHARS for w in windows)
    assert len(body_windows("x. " * 10_000)) == MAX_WINDOWS


def test_an_empty_body_has_no_windows() -> None:
    assert body_windows("") == [] and body_windows("\n\n  \n") == []


def test_the_whole_body_is_read_up_to_the_readers_cap(tmp_path: Path) -> None:
    text = "---\nname: n\ndescription: d\ntype: user\n---\n\n" + "fact. " * 100_000
    (tmp_path / "big.md").write_text(text, encoding="utf-8")
    _, body = read_body(_header(tmp_path, "big.md"))
    assert 4096 < len(body.encode()) <= MEMORY_FILE_READ_MAX_BYTES


def test_a_symlink_out_of_the_dir_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret", encoding="utf-8")
    root = tmp_path / "mem"
    root.mkdir()
    os.symlink(outside, root / "link.md")
    with pytest.raises(OSError, match="outside the memory dir"):
        read_body(_header(root, "link.md"))
