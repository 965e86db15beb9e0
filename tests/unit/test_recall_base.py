"""recall/base.py: what every selector takes, and the clear error for anything else."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.recall import AnthropicSelector, LexicalSelector, SemanticSelector
from memdir_nb.recall.base import check_headers
from memdir_nb.storage.scan import scan_memory_files
from tests.conftest import build_large_ops_dir


def test_a_scans_headers_pass(tmp_path: Path) -> None:
    check_headers(scan_memory_files(build_large_ops_dir(tmp_path / "ops", n=3)), "select()")
    check_headers([], "select()")


@pytest.mark.parametrize("given", ["/tmp/mem", b"/tmp/mem", Path("/tmp/mem")])
def test_a_memory_dir_path_is_refused_with_the_scan_to_call(given: object) -> None:
    with pytest.raises(TypeError, match=r"not a path: pass scan_memory_files\('/tmp/mem'\)"):
        check_headers(given, "prepare()")


def test_a_list_of_file_names_is_refused_naming_the_item_type() -> None:
    with pytest.raises(TypeError, match="list of MemoryHeader .* item of type str"):
        check_headers(["feedback_testing.md"], "select()")


def _entries(tmp_path: Path) -> list[Callable[[object], object]]:
    semantic = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    anthropic = AnthropicSelector(api_key="sk-test", base_url="http://127.0.0.1:9")
    return [
        lambda h: semantic.select("deploys?", h),
        lambda h: semantic.score("deploys?", h),
        lambda h: semantic.prepare(h),
        lambda h: LexicalSelector().select("deploys?", h),
        lambda h: LexicalSelector().score("deploys?", h),
        lambda h: anthropic.select("deploys?", h),
    ]


def test_every_selector_entry_refuses_a_dir_path_before_any_work(tmp_path: Path) -> None:
    memory_dir = build_large_ops_dir(tmp_path / "ops", n=3)
    for entry in _entries(tmp_path):
        with pytest.raises(TypeError, match="scan_memory_files"):
            entry(str(memory_dir))
    assert not (tmp_path / "cache").exists()  # nothing was encoded or cached
