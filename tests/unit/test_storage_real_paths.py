"""storage/real_paths: the one resolver, bounded as the kernel is, and the words for its ELOOP."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from memdir_nb.storage.access import ReadRefused, read_contained
from memdir_nb.storage.real_paths import (
    MAX_SYMLINKS_FOLLOWED,
    SymlinkChainTooLongError,
    eloop_words,
    real_path,
    symlink_loop_words,
)
from memdir_nb.storage.scan import scan_memory_dir
from tests.support import link_chain

CHAIN = (
    f"chain of more than {MAX_SYMLINKS_FOLLOWED} symlinks (the most the kernel follows; not a loop)"
)


def _chain_and_loop(folder: Path) -> tuple[Path, Path]:
    """folder/chained.md, the first of 41 links to a real memory; folder/ping.md, one of a loop."""
    (folder / "real.md").write_text("---\nname: r\n---\nbody\n", encoding="utf-8")
    link_chain(folder / ".links", MAX_SYMLINKS_FOLLOWED, "../real.md")  # with chained.md: 41
    os.symlink(".links/c0", folder / "chained.md")
    os.symlink("pong.md", folder / "ping.md")
    os.symlink("ping.md", folder / "pong.md")
    return folder / "chained.md", folder / "ping.md"


def test_a_chain_past_the_limit_and_a_loop_raise_eloop_and_only_the_chain_says_so(
    tmp_path: Path,
) -> None:
    chained, ping = _chain_and_loop(tmp_path)
    with pytest.raises(SymlinkChainTooLongError) as chain:
        real_path(chained, strict=True)
    with pytest.raises(OSError) as loop:
        real_path(ping, strict=True)
    assert chain.value.errno == loop.value.errno == errno.ELOOP  # what every caller tests
    assert not isinstance(loop.value, SymlinkChainTooLongError)
    assert symlink_loop_words(chain.value) == CHAIN
    assert symlink_loop_words(loop.value) == "symlink loop"
    # 40 links (the limit) are followed, as the kernel follows them
    os.unlink(chained)
    os.symlink(".links/c1", chained)
    assert real_path(chained, strict=True) == str(tmp_path / "real.md")


def test_the_kernels_eloop_is_told_apart_by_resolving_again(tmp_path: Path) -> None:
    chained, ping = _chain_and_loop(tmp_path)
    for path in (chained, ping):
        with pytest.raises(OSError) as kernel:
            os.stat(path)
        assert kernel.value.errno == errno.ELOOP  # the kernel says the same of both
    assert eloop_words(chained) == CHAIN
    assert eloop_words(ping) == "symlink loop"


def test_one_link_followed_past_the_kernels_count_is_a_chain_not_a_loop(tmp_path: Path) -> None:
    # attack round 23: the kernel counts each time it follows a link, real_path each distinct
    # link once, so user_x.md -> l/l/.../l/real.md (41 times l -> .) is ELOOP to the kernel
    # and resolves here: it was worded "symlink loop" (scan, lint) though no link leads back
    (tmp_path / "real.md").write_text("---\nname: r\n---\nbody\n", encoding="utf-8")
    os.symlink(".", tmp_path / "l")
    os.symlink("l/" * (MAX_SYMLINKS_FOLLOWED + 1) + "real.md", tmp_path / "user_x.md")
    with pytest.raises(OSError) as kernel:
        os.stat(tmp_path / "user_x.md")
    assert kernel.value.errno == errno.ELOOP
    assert eloop_words(tmp_path / "user_x.md") == CHAIN
    skipped = {s.path: s.reason for s in scan_memory_dir(tmp_path).skipped}
    assert skipped["user_x.md"] == CHAIN


def test_a_read_and_a_scan_name_a_long_chain_as_a_chain_and_a_loop_as_a_loop(
    tmp_path: Path,
) -> None:
    chained, ping = _chain_and_loop(tmp_path)
    with pytest.raises(ReadRefused, match=r"^chained\.md is a chain of more than 40 symlinks"):
        read_contained(tmp_path, chained, 100)
    with pytest.raises(ReadRefused, match=r"^ping\.md is a symlink loop$"):
        read_contained(tmp_path, ping, 100)
    reasons = {s.path: s.reason for s in scan_memory_dir(tmp_path).skipped}
    assert reasons["chained.md"] == CHAIN
    assert reasons["ping.md"] == reasons["pong.md"] == "symlink loop"
